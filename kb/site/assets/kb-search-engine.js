/* The engine's search, run in the browser on data the engine exported (kb/search/export.py).
 *
 * The contract: on a language's data, search(q) computes what KnowledgeBase.search(q, lang=<that
 * language>) computes, the same hits with the same scores (tests/test_search_parity.py). Nothing here
 * analyses text: the word list (kb/search/words.py: each known word's terms and languages), both
 * languages' documents and fields, every parameter and limit come from the data. This file only
 * looks words up and scores, following kb/search/ranking.py and kb/search/query.py step for step and
 * in the same order of operations (floating-point sums in the engine's clause order): each word of
 * the query is a slot looked up in every field of both languages (BM25F, field weights), the
 * glossary's other names lightly, then each document's sum times its entry's factor (kind prior,
 * exact name, game context, the game named) times the share of the query's words it matches
 * (coordination, any number of words); one hit per entry, its best document; "did you mean" for
 * words the list does not know, nearest first, the misspelt word kept. Loaded as a plain script
 * (works from file://); also a CommonJS module for the tests.
 *
 * The data comes whole (the tests) or as the site ships it (kb/site/search_box.py, split): a head and
 * parts, the word list in ranges of keys ("w<n>"), the entries' names in ranges of keys ("n<n>"), the postings by term ("p<n>"), what a result shows of
 * the entries in ranges of them ("d<n>": title, url, summary, its terms, passages) and the spelling candidates
 * in ranges of their first letter ("s<n>"), each added by add(). A lookup in a part not added yet finds nothing and puts the
 * part's name in this.missing: kb-search.js loads those parts and runs the query again, so a query's
 * answer is computed only on every part it reads.
 */
(function (root) {
  "use strict";

  var FORMAT = 4;

  /* Lowercase, accents off (the engine folds the same way; the data's words are folded already). */
  function fold(text) {
    if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  var WORD = /[\p{L}\p{N}_]+/gu;

  function words(text) {
    return text.match(WORD) || [];
  }

  /* Levenshtein distance with adjacent transpositions (ranking.edit_distance). */
  function editDistance(a, b) {
    var prev2 = [], prev = [], cur;
    for (var j = 0; j <= b.length; j++) prev[j] = j;
    for (var i = 1; i <= a.length; i++) {
      cur = [i];
      for (var k = 1; k <= b.length; k++) {
        cur[k] = Math.min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + (a[i - 1] === b[k - 1] ? 0 : 1));
        if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) cur[k] = Math.min(cur[k], prev2[k - 2] + 1);
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }

  function Engine(data) {
    if (!data || data.version !== FORMAT) throw new Error("kb-search: data format " + (data && data.version) + ", expected " + FORMAT);
    var rules = data.rules, self = this;
    this.data = data;
    this.rules = rules;
    this.lang = data.lang;
    this.docs = data.docs;   // what a hit shows, one per entry
    this.index = data.index; // every index document of both languages -> its entry's position in docs
    this.indexLangs = data.indexLangs; // ... and its language (a position in rules.langs)
    this.langs = rules.langs;
    this.missing = new Set(); // the parts lookups needed and did not have
    this.parts = data.parts || { words: [""], postings: 1 };
    this.docStarts = this.parts.docs || [0];  // each docs part's first entry (the whole data: its entries show all)
    this.docParts = data.parts && this.parts.docs ? [] : [true];  // per docs part: true once added
    this.spellStarts = this.parts.spelling || [""];  // each spelling part's first letter
    this.wordParts = [];      // per words part: key -> [languages, es term, en term(, names es, names en)] (own properties only)
    this.nameStarts = this.parts.names || [""];  // each names part's first key
    this.nameParts = [];      // per names part: an entry name's key -> the entries it names
    this.postingParts = [];   // per postings part: true once added
    this.spellParts = [];  // per spelling part: language -> [[candidate, frequency], ...]
    this.fields = {};
    this.order = [];         // the engine's clause order: fields, then languages
    data.fields.forEach(function (f) { self.fields[f.name] = self._field(f); });
    rules.fields.forEach(function (name) { rules.langs.forEach(function (lg) { self.order.push(self.fields[name + "_" + lg]); }); });
    if (!data.parts) {  /* the whole data: every part at once */
      var postings = {};
      data.fields.forEach(function (f) { postings[f.name] = f.postings; });
      this.add("w0", { words: data.words });
      this.add("n0", { names: rules.names });
      this.add("p0", { postings: postings });
      this.add("s", { spelling: data.spelling });
    }
    this.punct = new RegExp(rules.punctuation, "g");
    this.questionWords = new Set(rules.questionWords);
    this.stop = new Set(rules.stop);
    this.gameWords = new Set(rules.gameWords);
    this.generalWords = new Set(rules.general.words);
    this.context = new Map(Object.entries(rules.context));
    this._expander(rules.alternatives);
  }

  /* A part of the data (split): its word list, postings or spelling candidates. */
  Engine.prototype.add = function (name, part) {
    var self = this, n = +name.slice(1);
    if (part.words) this.wordParts[n] = part.words;
    if (part.names) this.nameParts[n] = part.names;
    if (part.spelling) this.spellParts[n] = part.spelling;
    if (part.docs) {
      var first = this.docStarts[n];
      part.docs.forEach(function (shown, i) { Object.assign(self.docs[first + i], shown); });
      this.docParts[n] = true;
    }
    if (part.postings) {
      Object.keys(part.postings).forEach(function (field) {
        var raw = self.fields[field].raw;
        part.postings[field].forEach(function (row) { raw.set(row[0], row); });
      });
      this.postingParts[n] = true;
    }
  };

  /* The last of the sorted starts that is not after key (a part's position). */
  function range(starts, key) {
    var lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= key) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /* Whether what a result shows of entry i (its position in docs) is in (else its part is missing). */
  Engine.prototype._shown = function (i) {
    var n = range(this.docStarts, i);
    if (this.docParts[n]) return true;
    this.missing.add("d" + n);
    return false;
  };

  /* Whether the postings of term t are in (else its part is missing). */
  Engine.prototype._has = function (t) {
    var n = t % this.parts.postings;
    if (this.postingParts[n]) return true;
    this.missing.add("p" + n);
    return false;
  };

  /* A field's postings stay as exported ([term, df, doc, weight, n, positions..., doc, ...]) until a query needs a term. */
  Engine.prototype._field = function (f) {
    var raw = new Map(), decoded = new Map(), self = this;
    var df = { get: function (t) { var row = self._has(t) && raw.get(t); return row ? row[1] : undefined; } };
    var postings = {
      get: function (t) {
        if (!self._has(t)) return null;
        var entry = decoded.get(t);
        if (entry !== undefined) return entry;
        var row = raw.get(t);
        entry = null;
        if (row) {
          entry = { docs: [], tf: [], pos: new Map() };
          for (var i = 2; i < row.length; i += 3 + row[i + 2]) {
            entry.docs.push(row[i]);
            entry.tf.push(row[i + 1]);
            entry.pos.set(row[i], new Set(row.slice(i + 3, i + 3 + row[i + 2])));
          }
        }
        decoded.set(t, entry);
        return entry;
      },
    };
    return { name: f.name, weight: f.weight, b: f.b, avg: f.avg, lengths: f.lengths, df: df, postings: postings, raw: raw };
  };

  /* ---------------------------------------------------------------- the word list (kb/search/words.py) */

  Engine.prototype.lookup = function (key) {
    var lo = range(this.parts.words, key), words = this.wordParts[lo];
    if (!words) { this.missing.add("w" + lo); return undefined; }
    return Object.prototype.hasOwnProperty.call(words, key) ? words[key] : undefined;
  };

  /* The entries a name whose key (ranking.name_key) is key names (the exact name boost), [] when none. */
  Engine.prototype.named = function (key) {
    var n = range(this.nameStarts, key), names = this.nameParts[n];
    if (!names) { this.missing.add("n" + n); return []; }
    return Object.prototype.hasOwnProperty.call(names, key) ? names[key] : [];
  };

  Engine.prototype.known = function (w) {
    return this.lookup(fold(w)) !== undefined;
  };

  /* Vocabulary.terms: the word's terms in a language (names: stop words kept), [] when the list does not hold it. */
  Engine.prototype.terms = function (w, lang, names) {
    var row = this.lookup(fold(w));
    if (!row || row.length < 3) return [];
    var at = this.langs.indexOf(lang), t = names && row.length > 3 ? row[3 + at] : row[1 + at];
    return t === null || t === undefined ? [] : [t];
  };

  /* Vocabulary.languages: the common lists a known word is in. */
  Engine.prototype.languagesOf = function (w) {
    var row = this.lookup(fold(w));
    return row ? this.langs.filter(function (lg, i) { return row[0] & (1 << i); }) : [];
  };

  /* ranking.query_language: the language more of the words are words of, else null. */
  Engine.prototype.queryLanguage = function (ws) {
    var score = {}, self = this;
    this.langs.forEach(function (lg) { score[lg] = 0; });
    ws.forEach(function (w) { self.languagesOf(w).forEach(function (lg) { score[lg] += 1; }); });
    if (score.es === score.en) return null;
    return score.es > score.en ? "es" : "en";
  };

  Engine.prototype.maxDistance = function (word) {
    var table = this.rules.spelling.distance;
    return table[Math.min(word.length, table.length - 1)];
  };

  /* ranking.rank_corrections over the spelling words of ``langs`` (frequencies summed): fewest edits, then
   * closest length, most frequent, alphabetical. */
  Engine.prototype.suggest = function (word, langs) {
    var prefix = word.slice(0, this.rules.spelling.prefix), max = this.maxDistance(word), freq = new Map();
    var n = range(this.spellStarts, word), spelling = this.spellParts[n];  /* its candidates share its first letter */
    if (!spelling) { this.missing.add("s" + n); return null; }
    langs.forEach(function (lg) {
      var list = spelling[lg] || [];
      for (var i = 0; i < list.length; i++) {
        var cand = list[i][0];
        if (cand.slice(0, prefix.length) !== prefix || Math.abs(cand.length - word.length) > max) continue;
        freq.set(cand, (freq.get(cand) || 0) + list[i][1]);
      }
    });
    var best = null, bestKey = null;
    freq.forEach(function (f, cand) {
      if (cand === word) return;
      var d = editDistance(word, cand);
      if (d > max) return;
      var key = [d, Math.abs(cand.length - word.length), -f, cand];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] &&
          (key[2] < bestKey[2] || (key[2] === bestKey[2] && key[3] < bestKey[3])))))) { best = cand; bestKey = key; }
    });
    return best;
  };

  /* query.corrections: misspelt word -> its correction, for words the list does not know; candidates of the
   * query's language first (else the reader's), then the other's. */
  Engine.prototype.correct = function (ws) {
    var self = this, min = this.rules.spelling.min, out = Object.create(null);  /* no inherited keys: "constructor" is a word */
    var unknown = ws.filter(function (w) { return w.length >= min && !/^[0-9]+$/.test(w) && !self.known(w); });
    if (!unknown.length || this.missing.size) return out;  /* not known, or not looked up yet (its part is missing) */
    var said = this.queryLanguage(ws) || this.lang;
    var groups = [[said], this.langs.filter(function (lg) { return lg !== said; })];
    unknown.forEach(function (w) {
      var folded = fold(w);
      for (var g = 0; g < groups.length; g++) {
        var c = self.suggest(folded, groups[g]);
        if (c) { out[w] = c; break; }
      }
    });
    return out;
  };

  /* ranking.did_you_mean: the words typed with the corrections ranking.shown_corrections shows (a word shorter than
   * rules.spelling.shown only when its correction keeps every letter typed, in order), or null when it shows none. */
  Engine.prototype.didYouMean = function (typed, fixed) {
    var min = this.rules.spelling.shown, shown = Object.create(null), any = false;
    Object.keys(fixed).forEach(function (w) {
      var c = fixed[w], at = 0;
      var kept = fold(w).split("").every(function (ch) { at = c.indexOf(ch, at) + 1; return at > 0; });
      if (w.length >= min || kept) { shown[w] = c; any = true; }
    });
    return any ? typed.map(function (w) { return shown[w] || w; }).join(" ") : null;
  };

  Engine.prototype._expander = function (alt) {
    this.groups = alt.groups; // [[name as offered, name folded], ...] per group
    this.keys = alt.keys;     // folded name -> groups
    this.longest = alt.longest;
    this.exact = new Set(alt.exact);
  };

  /* Expander.alternatives: the glossary's other names for every glossary name in the text (longest names first, whole words). */
  Engine.prototype.alternatives = function (text) {
    var toks = words(text), folded = toks.map(fold), out = [], i = 0;
    while (i < toks.length) {
      var matched = false;
      for (var n = Math.min(this.longest, toks.length - i); n > 0; n--) {
        var key = folded.slice(i, i + n).join(" ");
        var ids = Object.prototype.hasOwnProperty.call(this.keys, key) ? this.keys[key] : null;
        var original = toks.slice(i, i + n).join(" ");
        if (ids && (n > 1 || !this.stop.has(key) || this.exact.has(original))) {
          var self = this, before = out.slice(); // as the engine: checked against the names found before this one
          ids.forEach(function (g) {
            self.groups[g].forEach(function (a) {
              if (a[1] !== key && before.indexOf(a[0]) < 0) out.push(a[0]);
            });
          });
          i += n;
          matched = true;
          break;
        }
      }
      if (!matched) i += 1;
    }
    return out;
  };

  /* ---------------------------------------------------------------- ranking (kb/search/ranking.py) */

  /* ranking.name_key: folded words, question and stop words dropped (all kept if nothing is left). */
  Engine.prototype.nameKey = function (text) {
    var ws = words(text).map(fold), self = this;
    var kept = ws.filter(function (w) { return !self.questionWords.has(w) && !self.stop.has(w); });
    return (kept.length ? kept : ws).join(" ");
  };

  /* ranking.named_games: the games whose name the words say (a word of a game's name the word -> game table gives to one game). */
  Engine.prototype.namedGames = function (ws) {
    var out = new Set(), self = this;
    ws.forEach(function (word) {
      var w = fold(word);
      if (self.gameWords.has(w) && self.context.has(w)) out.add(self.context.get(w));
    });
    return out;
  };

  /* ranking.game_context: the game the words name when they name one, else the game most of the words point to, when one leads. */
  Engine.prototype.gameContext = function (ws, named) {
    if (named && named.size) return named.size === 1 ? named.values().next().value : null;
    var votes = new Map(), self = this;
    ws.forEach(function (word) {
      var w = fold(word), forms = [w, /s$/.test(w) ? w.slice(0, -1) : null, /es$/.test(w) ? w.slice(0, -2) : null];
      for (var i = 0; i < forms.length; i++) {
        if (forms[i] && self.context.has(forms[i])) {
          var g = self.context.get(forms[i]);
          votes.set(g, (votes.get(g) || 0) + 1);
          break;
        }
      }
    });
    var best = 0, leaders = [];
    votes.forEach(function (n, g) { if (n > best) { best = n; leaders = [g]; } else if (n === best) leaders.push(g); });
    return leaders.length === 1 ? leaders[0] : null;
  };

  /* query.plan: each word (with its correction) a slot of clauses over every field of both languages; each
   * alternative a slot over title and names, word by word, at the alternatives' weight (not counted). */
  Engine.prototype.plan = function (ws, fixed, alternatives) {
    var self = this, rules = this.rules, slots = [], thesaurus = rules.thesaurus;
    var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
    ws.forEach(function (w) {
      var clauses = new Map();
      (has(fixed, w) ? [w, fixed[w]] : [w]).forEach(function (form) {
        var upper = form !== form.toLowerCase();
        self.order.forEach(function (field) {
          var name = field.name.slice(0, field.name.lastIndexOf("_")), lg = field.name.slice(field.name.lastIndexOf("_") + 1);
          self.terms(form, lg, name === "names" && upper).forEach(function (t) {
            var k = field.name + "|" + t;
            if (!clauses.has(k)) clauses.set(k, [field, t, rules.weights[name]]);
          });
        });
        var synonyms = thesaurus.weight && has(thesaurus.words, fold(form)) ? thesaurus.rows[thesaurus.words[fold(form)]] : null;
        if (synonyms) self.order.forEach(function (field) {  /* Vocabulary.synonyms: the rules' words, in the same slot */
          var name = field.name.slice(0, field.name.lastIndexOf("_")), lg = field.name.slice(field.name.lastIndexOf("_") + 1);
          synonyms[self.langs.indexOf(lg)].forEach(function (other) {
            self.terms(other, lg, false).forEach(function (t) {
              var k = field.name + "|" + t;
              if (!clauses.has(k)) clauses.set(k, [field, t, thesaurus.weight * rules.weights[name]]);
            });
          });
        });
      });
      if (clauses.size) slots.push({ clauses: clauses, counts: true });
    });
    alternatives.slice(0, rules.alternatives.max).forEach(function (alt) {
      var clauses = new Map(), upper = alt !== alt.toLowerCase();
      self.order.forEach(function (field) {
        var name = field.name.slice(0, field.name.lastIndexOf("_")), lg = field.name.slice(field.name.lastIndexOf("_") + 1);
        if (rules.alternatives.fields.indexOf(name) < 0) return;
        words(alt).forEach(function (aw) {
          self.terms(aw, lg, name === "names" && upper).forEach(function (t) {
            var k = field.name + "|" + t;
            if (!clauses.has(k)) clauses.set(k, [field, t, rules.alternatives.boost * rules.weights[name]]);
          });
        });
      });
      if (clauses.size) slots.push({ clauses: clauses, counts: false });
    });
    return slots;
  };

  /* query.score: per document (index position) [sum, matched words]; a word no document holds does not count. */
  Engine.prototype.score = function (slots, allow) {
    var k1 = this.rules.bm25.k1, n = this.rules.docCount, acc = new Map(), counted = 0;
    slots.forEach(function (slot, i) {
      var found = false, hit = slot.counts ? new Set() : null;
      slot.clauses.forEach(function (c) {
        var field = c[0], t = c[1], weight = c[2], df = field.df.get(t);
        if (!df) return;
        found = true;
        var entry = field.postings.get(t);
        var scale = weight * (Math.log(n / (df + 1)) + 1) * (k1 + 1);
        var base = k1 * (1 - field.b), per = k1 * field.b / field.avg;
        for (var k = 0; k < entry.docs.length; k++) {
          var doc = entry.docs[k], tf = entry.tf[k];
          var a = acc.get(doc);
          if (!a) acc.set(doc, a = [0, 0]);
          a[0] += scale * tf / (tf + (base + per * field.lengths[doc]));
          if (hit) hit.add(doc);
        }
      });
      if (hit && found) {
        hit.forEach(function (doc) { acc.get(doc)[1] += 1; });
        counted += 1;
      }
    });
    if (allow) acc.forEach(function (a, doc) { if (!allow(doc)) acc.delete(doc); });
    return { acc: acc, counted: counted };
  };

  /* Run a query. Options: game, kind (filters), limit (default 10). Returns
   * {query, hits: [{doc, id, title, game, kind, url, summary, score, passage, matched}], total, byGame, byKind, didYouMean, marks};
   * matched: how many of the query's words the hit's document matches (what the coordination counts; browser only). */
  Engine.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit || 10, self = this, rules = this.rules;
    var text = String(query).slice(0, rules.maxQuery);
    var typed = words(text.replace(this.punct, " "));
    var kept = typed.filter(function (w) {  /* ranking.query_words: question words, and stop words typed in lowercase, out */
      return !self.questionWords.has(fold(w)) && !(w === w.toLowerCase() && self.stop.has(fold(w)));
    });
    var ws = kept.length ? kept : typed;
    var empty = { query: text, hits: [], total: 0, byGame: {}, byKind: {}, didYouMean: null, marks: { stems: [], words: [] } };
    if (!ws.length || !this.index.length) return empty;
    var entryOf = function (doc) { return self.docs[self.index[doc]]; };
    var allow = null;
    if (options.game || options.kind) {
      allow = function (doc) {
        var d = entryOf(doc);
        return (!options.game || d.game === options.game) && (!options.kind || d.kind === options.kind);
      };
    }
    var fixed = this.correct(ws);
    var said = ws.map(function (w) { return fixed[w] || w; });
    var named = options.game ? new Set() : this.namedGames(said);
    var general = !options.game && !named.size && said.some(function (w) { return self.generalWords.has(fold(w)); });
    var context = options.game || general ? null : this.gameContext(said, named);  /* ranking.speaks_generally: no game context */
    var key = this.nameKey(said.join(" ")), bare = key.split(" ").filter(function (w) { return !self.gameWords.has(w); }).join(" ");
    var exact = new Set(this.named(key).concat(bare && bare !== key ? this.named(bare) : []));
    var searched = [];  /* ranking.searched_words: the words that name the games are not searched, unless nothing else is left */
    said.forEach(function (w, i) {
      var f = fold(w);
      if (!((self.gameWords.has(f) && self.context.has(f) && named.has(self.context.get(f))) || (general && self.generalWords.has(f)))) searched.push(i);
    });
    if (searched.length) {
      ws = searched.map(function (i) { return ws[i]; });
      said = searched.map(function (i) { return said[i]; });
    }
    var prior = general ? rules.general.prior : rules.kindPrior;
    var slots = this.plan(ws, fixed, this.alternatives(typed.join(" ")));
    var only = named.size ? function (doc) { return (!allow || allow(doc)) && named.has(entryOf(doc).game); } : null;
    var run = this.score(slots, only || allow);  /* the games the query names act as a filter, unless nothing of theirs matches */
    if (only && !run.acc.size) run = this.score(slots, allow);
    if (!run.acc.size && !this.missing.size) {  /* nothing found, not for want of a part */
      var near = Object.create(null);
      ws.forEach(function (w) { var f = fold(w); if (f.length >= rules.fuzzy.minLength) { var c = self.suggest(f, self.langs); if (c) near[w] = c; } });
      if (Object.keys(near).length) run = this.score(this.plan(ws, near, []), allow);  /* as the engine: no alternatives in the last resort */
    }
    var coord = [];
    for (var m = 0; m <= run.counted; m++) coord.push(run.counted ? Math.pow((1 + m) / (1 + run.counted), rules.coordination) : 1);
    var scored = [];
    run.acc.forEach(function (a, doc) {
      var d = entryOf(doc);
      var f = exact.has(d.id) ? rules.exactBoost : (Object.prototype.hasOwnProperty.call(prior, d.kind) ? prior[d.kind] : 1);
      if (context !== null && d.game === context) f *= rules.gameBoost;
      scored.push([doc, a[0] * f * coord[a[1]]]);
    });
    var ranked = this.proximity(scored.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }), said)
      .sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    var byGame = {}, byKind = {}, seen = new Set(), hits = [], settled = !this.missing.size;  /* the hits' texts: once they are the hits */
    ranked.forEach(function (pair) {
      var d = entryOf(pair[0]);
      if (seen.has(d.id)) return;
      seen.add(d.id);
      byGame[d.game] = (byGame[d.game] || 0) + 1;
      byKind[d.kind] = (byKind[d.kind] || 0) + 1;
      if (hits.length < limit) {
        var at = settled && self._shown(self.index[pair[0]]) ? self.passage(d, said) : null;
        hits.push({ doc: pair[0], id: d.id, title: d.title, game: d.game, kind: d.kind, passage: at, summaryTerms: d.summaryTerms,
                    url: d.url && at && d.url.indexOf("#") < 0 ? d.url + "#" + at : d.url, summary: d.summary, score: pair[1],
                    matched: run.acc.get(pair[0])[1] });
      }
    });
    return { query: text, hits: hits, total: seen.size, byGame: byGame, byKind: byKind,
             didYouMean: this.didYouMean(typed, fixed),
             marks: this.marks(said) };
  };

  /* query.proximity, the second stage: the best documents (sorted, rules.proximity.depth of them) times
   * ranking.proximity_factor, the share of the query's word pairs (ranking.word_pairs) side by side in one field, times
   * ranking.coverage_factor, the most of the query's words one of rules.proximity.coverage.fields holds. */
  Engine.prototype.proximity = function (ranked, said) {
    var rules = this.rules.proximity, cover = rules.coverage, self = this, pairs = {}, terms = {};
    if (!(rules.boost || cover.boost) || !ranked.length) return ranked;
    this.langs.forEach(function (lg) {
      var seq = [];
      terms[lg] = [];
      said.forEach(function (w) { var t = self.terms(w, lg, false); if (t.length) { seq.push(t[0]); terms[lg].push(t); } });
      pairs[lg] = [];
      for (var i = 0; i + 1 < seq.length; i++) if (seq[i] !== seq[i + 1]) pairs[lg].push([seq[i], seq[i + 1]]);
    });
    var holds = function (name, lg, t, doc) {  /* one of the word's terms is in the document's field */
      var field = self.fields[name + "_" + lg];
      return t.some(function (x) { var ps = field && field.postings.get(x), at = ps && ps.pos.get(doc); return !!(at && at.size); });
    };
    ranked.slice(0, rules.depth).forEach(function (pair) {
      var doc = pair[0], lg = self.langs[self.indexLangs[doc]], near = 0, held = 0;
      cover.fields.forEach(function (name) {
        var n = terms[lg].filter(function (t) { return holds(name, lg, t, doc); }).length;
        if (n > held) held = n;
      });
      pairs[lg].forEach(function (ab) {
        var side = self.rules.fields.some(function (name) {
          var field = self.fields[name + "_" + lg], a = field.postings.get(ab[0]), b = field.postings.get(ab[1]);
          var first = a && a.pos.get(doc), second = b && b.pos.get(doc);
          if (!first || !second || !first.size) return false;
          var found = false;
          first.forEach(function (x) { if (second.has(x + 1)) found = true; });
          return found;
        });
        if (side) near += 1;
      });
      var factor = pairs[lg].length ? 1 + rules.boost * near / pairs[lg].length : 1;
      pair[1] *= factor * (terms[lg].length ? 1 + cover.boost * held / terms[lg].length : 1);
    });
    return ranked;
  };

  /* ranking.best_passage: the anchor of the entry's passage (in the reader's language) whose terms hold the most
   * IDF (the language's body field) of the query's analysed words, times its section's weight (rules.passageWeights,
   * ranking.passage_section), the first of equals, the first when none holds any; null when it has none. */
  Engine.prototype.passage = function (d, ws) {
    var list = d.passages || [], body = this.fields["body_" + this.lang], n = this.rules.docCount, weights = new Map(), self = this;
    if (!list.length) return null;
    ws.forEach(function (w) {
      self.terms(w, self.lang, false).forEach(function (t) {
        weights.set(t, Math.log(n / (((body && body.df.get(t)) || 0) + 1)) + 1);
      });
    });
    var best = 0, bestScore = 0, sections = this.rules.passageWeights;
    list.forEach(function (p, i) {
      var held = new Set(p[1]), score = 0, m = /^(.+)-(\d+)$/.exec(p[0]), section = m ? m[1] : p[0];
      weights.forEach(function (wt, t) { if (held.has(t)) score += wt; });
      score *= Object.prototype.hasOwnProperty.call(sections, section) ? sections[section] : 1;
      if (score > bestScore) { best = i; bestScore = score; }
    });
    return list[best][0];
  };

  /* What to mark in a result's line: the query's analysed terms, and its words of three letters or more. */
  Engine.prototype.marks = function (ws) {
    var self = this, stems = new Set(), plain = new Set();
    ws.forEach(function (w) {
      var key = fold(w);
      self.terms(w, self.lang, false).forEach(function (t) { stems.add(t); });
      if (key.length > 2) plain.add(key);
    });
    return { stems: Array.from(stems), words: Array.from(plain) };
  };

  /* ``text`` cut into [piece, marked?] pairs, a word marked when its analysed term or folded form was asked for.
   * ``terms``: each word's term when the data has them (an entry's summary, split data), else the word list's. */
  Engine.prototype.highlight = function (text, marks, terms) {
    var stems = new Set(marks.stems), plain = new Set(marks.words), out = [], last = 0, self = this, m, n = 0;
    var re = new RegExp(WORD.source, "gu");
    if (terms && terms.length !== words(text).length) terms = null;
    while ((m = re.exec(text))) {
      var key = fold(m[0]), known = terms ? terms[n++] : undefined;
      var ids = terms ? (known === null ? [] : [known]) : self.terms(m[0], self.lang, false);
      var hit = plain.has(key) || ids.some(function (t) { return stems.has(t); });
      if (!hit) continue;
      if (m.index > last) out.push([text.slice(last, m.index), false]);
      out.push([m[0], true]);
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push([text.slice(last), false]);
    return out;
  };

  /* Where the reader is (issue 31): on a game's page, each hit of that game moves up past the other games' hits above it
   * that match no more of the query's words than it does (stable: each keeps its order otherwise). A hit of the page's
   * game that matches fewer words stays below (phone audit 3, D1: «Force doors» above «Hull breach» from a Hunt Begins
   * page for `hull breach underwater roll`); the hits are search()'s, with their matched counts. */
  function prefer(hits, game) {
    var out = [];
    hits.forEach(function (h) {
      var i = out.length;
      if (h.game === game) while (i > 0 && out[i - 1].game !== game && out[i - 1].matched <= h.matched) i--;
      out.splice(i, 0, h);
    });
    return out;
  }

  var api = { Engine: Engine, fold: fold, prefer: prefer, FORMAT: FORMAT };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.kbSearchEngine = api;
})(this);
