/* The engine's search, run in the browser on data the engine exported (kb/search/export.py).
 *
 * Nothing here analyses text: stems, glossary forms, field weights, BM25 parameters, question words
 * and typo candidates all come from the data. This file only looks words up and scores, following
 * the engine's query (kb/search/query.py): each word in every field (BM25F, field weights), the
 * words together as a phrase bonus, the glossary's other names lightly, "did you mean" for words
 * the index does not know. Loaded as a plain script (works from file://); also a CommonJS module
 * for the tests.
 */
(function (root) {
  "use strict";

  var FORMAT = 1;
  var MAX_QUERY = 500;
  var TOP = 60;

  /* Lowercase, accents off (the engine folds the same way; the data's words are folded already). */
  function fold(text) {
    if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  var WORD = /[\p{L}\p{N}_]+/gu;
  var PUNCT = /[¿?¡!,;:()\[\]{}<>]+/g;

  function words(text) {
    return text.match(WORD) || [];
  }

  function levenshtein(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev = [], cur = [];
    for (var j = 0; j <= b.length; j++) prev[j] = j;
    for (var i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (var k = 1; k <= b.length; k++) {
        var cost = a[i - 1] === b[k - 1] ? 0 : 1;
        cur[k] = Math.min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + cost);
        if (cur[k] < best) best = cur[k];
      }
      if (best > max) return max + 1;
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
    return { name: f.name, weight: f.weight, analyzer: f.analyzer, avg: f.avg, lengths: f.lengths, df: df,
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

  Engine.prototype.suggest = function (word) {
    var rules = this.rules.spelling, prefix = word.slice(0, rules.prefix);
    var best = null, bestFreq = -1;
    for (var i = 0; i < this.spelling.length; i++) {
      var cand = this.spelling[i][0];
      if (cand === word || cand.slice(0, rules.prefix) !== prefix) continue;
      if (levenshtein(word, cand, rules.maxdist) > rules.maxdist) continue;
      var freq = this.spelling[i][1] || 1;
      if (freq > bestFreq || (freq === bestFreq && cand > best)) { best = cand; bestFreq = freq; }
    }
    return best;
  };

  Engine.prototype.correct = function (ws) {
    var self = this, min = this.rules.spelling.min;
    return ws.map(function (w) {
      var folded = fold(w);
      if (folded.length < min || self.known(w)) return w;
      return self.suggest(folded) || w;
    });
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

  Engine.prototype._bm25 = function (field, t, k) {
    var entry = field.postings.get(t), doc = entry.docs[k], doc0 = this.docs[doc];
    var rules = this.rules.bm25;
    var idf = Math.log(this.rules.docCount / (field.df.get(t) + 1)) + 1;
    var tf = entry.tf[k] * doc0.boost;
    var len = field.lengths[doc] || 1;
    return idf * ((tf * (rules.k1 + 1)) / (tf + rules.k1 * ((1 - rules.b) + rules.b * len / field.avg)));
  };

  /* A term in a field, ``boost`` times its BM25 score, added to ``scores`` (doc index -> score). */
  Engine.prototype._term = function (scores, field, t, boost, allow) {
    var entry = field.postings.get(t);
    if (!entry) return;
    for (var k = 0; k < entry.docs.length; k++) {
      var doc = entry.docs[k];
      if (allow && !allow(doc)) continue;
      scores.set(doc, (scores.get(doc) || 0) + boost * this._bm25(field, t, k));
    }
  };

  /* The tokens in order, each within ``slop`` positions after the previous one: the sum of their scores, boosted. */
  Engine.prototype._phrase = function (scores, field, toks, slop, boost, allow) {
    var entries = [];
    for (var i = 0; i < toks.length; i++) {
      var e = toks[i] >= 0 && field.postings.get(toks[i]);
      if (!e) return;
      entries.push(e);
    }
    var first = entries[0];
    for (var k = 0; k < first.docs.length; k++) {
      var doc = first.docs[k];
      if (allow && !allow(doc)) continue;
      var ks = [k], ok = true;
      for (var j = 1; j < entries.length && ok; j++) {
        var kk = entries[j].at.get(doc);
        if (kk === undefined) ok = false; else ks.push(kk);
      }
      if (!ok) continue;
      var ends = first.pos[k].slice();
      for (j = 1; j < entries.length && ends.length; j++) {
        var next = entries[j].pos[ks[j]], found = [];
        for (var a = 0; a < ends.length; a++) {
          for (var b = 0; b < next.length; b++) {
            var d = next[b] - ends[a];
            if (d >= 1 && d <= slop && found.indexOf(next[b]) < 0) found.push(next[b]);
          }
        }
        ends = found;
      }
      if (!ends.length) continue;
      var s = 0;
      for (j = 0; j < entries.length; j++) s += this._bm25(field, toks[j], ks[j]);
      scores.set(doc, (scores.get(doc) || 0) + boost * s);
    }
  };

  Engine.prototype._run = function (ws, allow) {
    var rules = this.rules, self = this, scores = new Map(), text = ws.join(" ");
    var names = Object.keys(this.fields);
    names.forEach(function (name) {
      var field = self.fields[name], seen = new Set();
      self.analyse(field, text).forEach(function (t) {
        if (seen.has(t)) return;
        seen.add(t);
        if (t >= 0) self._term(scores, field, t, field.weight, allow);
      });
    });
    if (ws.length > 1) {
      rules.phrase.fields.forEach(function (name) {
        var field = self.fields[name], toks = self.analyse(field, text);
        if (toks.length > 1) self._phrase(scores, field, toks, rules.phrase.slop, rules.phrase.boost * field.weight, allow);
      });
    }
    this.alternatives(text).slice(0, rules.alternatives.max).forEach(function (alt) {
      rules.alternatives.fields.forEach(function (name) {
        var field = self.fields[name], toks = self.analyse(field, alt), w = rules.alternatives.boost * field.weight;
        if (toks.length > 1) self._phrase(scores, field, toks, rules.alternatives.slop, w, allow);
        else if (toks.length === 1 && toks[0] >= 0) self._term(scores, field, toks[0], w, allow);
      });
    });
    return scores;
  };

  /* Run a query. Options: game, kind (filters), limit (default 10). Returns
   * {query, hits: [{doc, id, title, game, kind, url, summary, score}], total, byGame, didYouMean, marks}. */
  Engine.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit || 10, self = this;
    var text = String(query).slice(0, MAX_QUERY);
    var ws = words(text.replace(PUNCT, " "));
    var kept = ws.filter(function (w) { return !self.questionWords.has(fold(w)); });
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
    var corrected = this.correct(ws);
    var didYouMean = corrected.join(" ") !== ws.join(" ") ? corrected.join(" ") : null;
    var scores = this._run(corrected, allow);
    var ranked = Array.from(scores.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }).slice(0, TOP);
    var byGame = {}, byKind = {}, seen = new Set(), hits = [];
    ranked.forEach(function (pair) {
      var d = self.docs[pair[0]];
      if (seen.has(d.id)) return;
      seen.add(d.id);
      byGame[d.game] = (byGame[d.game] || 0) + 1;
      byKind[d.kind] = (byKind[d.kind] || 0) + 1;
      if (hits.length < limit) {
        hits.push({ doc: pair[0], id: d.id, title: d.title, game: d.game, kind: d.kind, url: d.url,
                    summary: d.summary, score: pair[1] });
      }
    });
    return { query: text, hits: hits, total: seen.size, byGame: byGame, byKind: byKind, didYouMean: didYouMean,
             marks: this.marks(corrected) };
  };

  /* What to mark in a result's line: the query's analysed terms, and its words of three letters or more. */
  Engine.prototype.marks = function (ws) {
    var self = this, stems = new Set(), plain = new Set();
    ws.forEach(function (w) {
      var key = fold(w);
      (self.lookup(key) || []).forEach(function (t) { stems.add(t); });
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
