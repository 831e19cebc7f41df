/* The engine's search, run in the browser on data the engine exported (kb/search/export.py).
 *
 * Nothing here analyses text: stems, glossary forms, field weights, BM25 parameters, question words,
 * the name and game-context tables and typo candidates all come from the data. This file only looks
 * words up and scores, following the contract in kb/search/ranking.py: each word of the query is a
 * slot looked up in every field (BM25 per field, field weights), the glossary's other names lightly,
 * then each document's sum times the share of the query's words it matches (coordination) and its
 * entry's factor (kind prior, exact name, game context, the game named); "did you mean" for words the index does
 * not know, nearest first, the misspelt word kept. Loaded as a plain script (works from file://);
 * also a CommonJS module for the tests.
 */
(function (root) {
  "use strict";

  var FORMAT = 2;

  /* Lowercase, accents off (the engine folds the same way; the data's words are folded already). */
  function fold(text) {
    if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  var WORD = /[\p{L}\p{N}_]+/gu;
  var PUNCT = /[¿?¡!,;:()\[\]{}<>"'’`´]+/g;

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
    this.data = data;
    this.rules = data.rules;
    this.docs = data.docs;
    this.termId = new Map();
    for (var i = 0; i < data.terms.length; i++) this.termId.set(data.terms[i], i);
    this.words = data.words; // folded word -> its analysed terms (own properties only)
    this.fields = {};
    var self = this;
    data.fields.forEach(function (f) { self.fields[f.name] = self._field(f); });
    this.spelling = data.spelling;
    this.questionWords = new Set(this.rules.questionWords);
    this.nameStop = new Set(this.rules.alternatives.stop);
    this.gameWords = new Set(this.rules.gameWords);
    this.names = new Map(Object.entries(this.rules.names));
    this.context = new Map(Object.entries(this.rules.context));
    this._expander(this.rules.alternatives);
  }

  /* A field's postings stay as exported ([term, df, doc, count, positions..., doc, ...]) until a query needs a term. */
  Engine.prototype._field = function (f) {
    var raw = new Map(), df = new Map();
    f.postings.forEach(function (row) { raw.set(row[0], row); df.set(row[0], row[1]); });
    var decoded = new Map();
    var postings = {
      get: function (t) {
        var entry = decoded.get(t);
        if (entry !== undefined) return entry;
        var row = raw.get(t);
        entry = null;
        if (row) {
          entry = { docs: [], tf: [], pos: [], at: new Map() };
          for (var i = 2; i < row.length;) {
            var doc = row[i], n = row[i + 1];
            entry.at.set(doc, entry.docs.length);
            entry.docs.push(doc);
            entry.tf.push(n);
            entry.pos.push(row.slice(i + 2, i + 2 + n));
            i += 2 + n;
          }
        }
        decoded.set(t, entry);
        return entry;
      },
    };
    return { name: f.name, weight: f.weight, b: f.b, analyzer: f.analyzer, avg: f.avg, lengths: f.lengths, df: df,
             postings: postings };
  };

  /* ---------------------------------------------------------------- analysis (look-ups only) */

  var NONE = -2; // a token the index does not hold: it matches nothing, and a phrase with it neither

  Engine.prototype.analyse = function (field, text) {
    var out = [], self = this;
    words(text).forEach(function (w) {
      var key = fold(w);
      if (field.analyzer === "raw") {
        var id = self.termId.get(key);
        out.push(id === undefined ? NONE : id);
        return;
      }
      var stems = self.lookup(key);
      if (stems) { for (var i = 0; i < stems.length; i++) out.push(stems[i] < 0 ? NONE : stems[i]); }
      else if (key.length >= 2) out.push(NONE);
    });
    return out;
  };

  Engine.prototype.lookup = function (key) {
    return Object.prototype.hasOwnProperty.call(this.words, key) ? this.words[key] : undefined;
  };

  Engine.prototype.known = function (w) {
    return this.lookup(fold(w)) !== undefined;
  };

  /* The nearest indexed word (ranking.rank_corrections): fewest edits, then closest length, most frequent, alphabetical. */
  Engine.prototype.suggest = function (word) {
    var prefix = word.slice(0, this.rules.spelling.prefix), max = word.length <= this.rules.spelling.short ? 1 : 2;
    var best = null, bestKey = null;
    for (var i = 0; i < this.spelling.length; i++) {
      var cand = this.spelling[i][0];
      if (cand === word || cand.slice(0, prefix.length) !== prefix || Math.abs(cand.length - word.length) > max) continue;
      var d = editDistance(word, cand);
      if (d > max) continue;
      var key = [d, Math.abs(cand.length - word.length), -(this.spelling[i][1] || 0), cand];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] &&
          (key[2] < bestKey[2] || (key[2] === bestKey[2] && key[3] < bestKey[3])))))) { best = cand; bestKey = key; }
    }
    return best;
  };

  /* Misspelt word -> its correction, for words the index and the word lists do not know. */
  Engine.prototype.correct = function (ws) {
    var self = this, min = this.rules.spelling.min, out = {};
    ws.forEach(function (w) {
      var folded = fold(w);
      if (folded.length < min || /^[0-9]+$/.test(folded) || self.known(w)) return;
      var c = self.suggest(folded);
      if (c) out[w] = c;
    });
    return out;
  };

  Engine.prototype._expander = function (alt) {
    this.groups = alt.groups; // [[name as offered, name folded], ...] per group
    this.keys = alt.keys;     // folded name -> groups
    this.longest = alt.longest;
    this.exact = new Set(alt.exact);
    this.stop = new Set(alt.stop);
  };

  /* The glossary's other names for every glossary name in the text (longest names first, whole words). */
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

  /* ---------------------------------------------------------------- scoring */

  /* The terms of one word in a field: for ``names`` a lowercase word is looked up as in the text fields
   * (stop words dropped: "los" is an article, "LoS" a name). */
  Engine.prototype._word = function (field, w) {
    if (field.name === "names" && w !== w.toLowerCase()) {
      var id = this.termId.get(fold(w));
      if (id !== undefined && field.df.has(id)) return [id];
    }
    return this.analyse(field, w);
  };

  /* ranking.name_key: folded words, question and stop words dropped (all kept if nothing is left). */
  Engine.prototype.nameKey = function (text) {
    var ws = words(text).map(fold), self = this;
    var kept = ws.filter(function (w) { return !self.questionWords.has(w) && !self.nameStop.has(w); });
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

  Engine.prototype._bm25w = function (field, t, k) {
    var entry = field.postings.get(t), doc = entry.docs[k], rules = this.rules.bm25;
    var idf = Math.log(this.rules.docCount / (field.df.get(t) + 1)) + 1;
    var tf = entry.tf[k], len = field.lengths[doc] || 1, b = field.b === undefined ? rules.b : field.b;
    return idf * ((tf * (rules.k1 + 1)) / (tf + rules.k1 * ((1 - b) + b * len / field.avg)));
  };

  /* Slots (ranking / query.plan) scored: doc index -> [sum, matched words, last slot]; returns also the counted words. */
  Engine.prototype._run = function (ws, fixed, allow, typed) {
    var self = this, rules = this.rules, acc = new Map(), counted = 0, names = Object.keys(this.fields);
    /* acc: doc -> [sum, matched words, last slot that matched it]; slot < 0 is an alternative (never counted).
     * Returns whether any clause has postings (a word the data holds nowhere does not count). */
    function slot(clauses, i) {
      var found = false;
      clauses.forEach(function (c) {
        var field = c[0], t = c[1], w = c[2], entry = field.postings.get(t);
        if (!entry) return;
        found = true;
        for (var k = 0; k < entry.docs.length; k++) {
          var doc = entry.docs[k];
          if (allow && !allow(doc)) continue;
          var a = acc.get(doc);
          if (!a) acc.set(doc, a = [0, 0, -1]);
          a[0] += w * self._bm25w(field, t, k);
          if (i >= 0 && a[2] !== i) { a[1] += 1; a[2] = i; }
        }
      });
      return found;
    }
    var plan = [];
    ws.forEach(function (w) {
      var clauses = new Map(), any = false;
      (fixed[w] ? [w, fixed[w]] : [w]).forEach(function (form) {
        names.forEach(function (name) {
          var field = self.fields[name];
          self._word(field, form).forEach(function (t) {
            any = true;
            if (t >= 0) clauses.set(name + "|" + t, [field, t, field.weight]);
          });
        });
      });
      if (any) plan.push(clauses);
    });
    plan.forEach(function (clauses, i) { if (slot(clauses, i)) counted += 1; });
    this.alternatives(typed.join(" ")).slice(0, rules.alternatives.max).forEach(function (alt) {
      var clauses = new Map();
      rules.alternatives.fields.forEach(function (name) {
        var field = self.fields[name];
        words(alt).forEach(function (aw) {
          self._word(field, aw).forEach(function (t) {
            if (t >= 0) clauses.set(name + "|" + t, [field, t, rules.alternatives.boost * field.weight]);
          });
        });
      });
      slot(clauses, -1);
    });
    return { acc: acc, counted: counted };
  };

  /* Run a query. Options: game, kind (filters), limit (default 10). Returns
   * {query, hits: [{doc, id, title, game, kind, url, summary, score}], total, byGame, didYouMean, marks}. */
  Engine.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit || 10, self = this, rules = this.rules;
    var text = String(query).slice(0, rules.maxQuery);
    var ws = words(text.replace(PUNCT, " ")), typed = ws;
    var kept = ws.filter(function (w) {  /* ranking.query_words: question words, and stop words typed in lowercase, out */
      return !self.questionWords.has(fold(w)) && !(w === w.toLowerCase() && self.stop.has(fold(w)));
    });
    ws = kept.length ? kept : ws;
    var empty = { query: text, hits: [], total: 0, byGame: {}, byKind: {}, didYouMean: null, marks: [] };
    if (!ws.length) return empty;
    var allow = null;
    if (options.game || options.kind) {
      allow = function (doc) {
        var d = self.docs[doc];
        return (!options.game || d.game === options.game) && (!options.kind || d.kind === options.kind);
      };
    }
    var fixed = this.correct(ws);
    var said = ws.map(function (w) { return fixed[w] || w; });
    var didYouMean = Object.keys(fixed).length ? typed.map(function (w) { return fixed[w] || w; }).join(" ") : null;
    var named = options.game ? new Set() : this.namedGames(said);
    var context = options.game ? null : this.gameContext(said, named);
    var key = this.nameKey(said.join(" ")), bare = key.split(" ").filter(function (w) { return !self.gameWords.has(w); }).join(" ");
    var exact = new Set((this.names.get(key) || []).concat(bare && bare !== key ? (this.names.get(bare) || []) : []));
    var only = named.size ? function (doc) { return (!allow || allow(doc)) && named.has(self.docs[doc].game); } : null;
    var run = this._run(ws, fixed, only || allow, typed);  /* the games the query names act as a filter, unless nothing of theirs matches */
    if (only && !run.acc.size) run = this._run(ws, fixed, allow, typed);
    if (!run.acc.size) {
      var near = {};
      ws.forEach(function (w) { var f = fold(w); if (f.length >= rules.fuzzy.minLength) { var c = self.suggest(f); if (c) near[w] = c; } });
      run = this._run(ws, near, allow, []);  /* as the engine: no glossary alternatives in the last resort */
    }
    var coord = [];
    for (var m = 0; m <= run.counted; m++) coord.push(run.counted ? Math.pow((1 + m) / (1 + run.counted), rules.coordination) : 1);
    var scored = [];
    run.acc.forEach(function (a, doc) {
      var d = self.docs[doc];
      var f = exact.has(d.id) ? rules.exactBoost : (rules.kindPrior[d.kind] || 1);
      if (context !== null && d.game === context) f *= rules.gameBoost;
      scored.push([doc, a[0] * f * coord[a[1]]]);
    });
    var ranked = scored.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    var byGame = {}, byKind = {}, seen = new Set(), hits = [];
    ranked.forEach(function (pair) {
      var d = self.docs[pair[0]];
      if (seen.has(d.id)) return;
      seen.add(d.id);
      byGame[d.game] = (byGame[d.game] || 0) + 1;
      byKind[d.kind] = (byKind[d.kind] || 0) + 1;
      if (hits.length < limit) {
        var at = self.passage(d, said);
        hits.push({ doc: pair[0], id: d.id, title: d.title, game: d.game, kind: d.kind, passage: at,
                    url: d.url && at && d.url.indexOf("#") < 0 ? d.url + "#" + at : d.url, summary: d.summary, score: pair[1] });
      }
    });
    return { query: text, hits: hits, total: seen.size, byGame: byGame, byKind: byKind, didYouMean: didYouMean,
             marks: this.marks(said) };
  };

  /* ranking.best_passage: the anchor of the document's passage whose terms hold the most IDF (body field) of the
   * query's analysed words, the first of equals, the first when none holds any; null when it has none. */
  Engine.prototype.passage = function (d, ws) {
    var list = d.passages || [], body = this.fields.body, n = this.rules.docCount, weights = new Map(), self = this;
    if (!list.length) return null;
    ws.forEach(function (w) {
      (self.lookup(fold(w)) || []).forEach(function (t) {
        if (t >= 0) weights.set(t, Math.log(n / (((body && body.df.get(t)) || 0) + 1)) + 1);
      });
    });
    var best = 0, bestScore = 0;
    list.forEach(function (p, i) {
      var held = new Set(p[1]), score = 0;
      weights.forEach(function (wt, t) { if (held.has(t)) score += wt; });
      if (score > bestScore) { best = i; bestScore = score; }
    });
    return list[best][0];
  };

  /* What to mark in a result's line: the query's analysed terms, and its words of three letters or more. */
  Engine.prototype.marks = function (ws) {
    var self = this, stems = new Set(), plain = new Set();
    ws.forEach(function (w) {
      var key = fold(w);
      (self.lookup(key) || []).forEach(function (t) { if (t >= 0) stems.add(t); });
      if (key.length > 2) plain.add(key);
    });
    return { stems: Array.from(stems), words: Array.from(plain) };
  };

  /* ``text`` cut into [piece, marked?] pairs, a word marked when its analysed term or folded form was asked for. */
  Engine.prototype.highlight = function (text, marks) {
    var stems = new Set(marks.stems), plain = new Set(marks.words), out = [], last = 0, self = this, m;
    var re = new RegExp(WORD.source, "gu");
    while ((m = re.exec(text))) {
      var key = fold(m[0]), ids = self.lookup(key) || [];
      var hit = plain.has(key) || ids.some(function (t) { return stems.has(t); });
      if (!hit) continue;
      if (m.index > last) out.push([text.slice(last, m.index), false]);
      out.push([m[0], true]);
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push([text.slice(last), false]);
    return out;
  };

  var api = { Engine: Engine, fold: fold, FORMAT: FORMAT };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.kbSearchEngine = api;
})(this);
