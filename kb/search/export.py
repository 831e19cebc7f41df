"""The engine's search, exported for the browser: one data file per language, computed by the engine.

The site's search box runs ``kb/site/assets/kb-search.js``, which only looks up and scores. Every
decision about analysis and ranking stays here in Python: this module reads the engine's own index
(the one ``KnowledgeBase.search`` queries) and runs the engine's own analyzers, and writes down what
they produced. A change of analysis, weights or content reaches the site by rebuilding it.

What one language's data holds (``version`` :data:`FORMAT`):

``docs``
    The language's index documents in index order (ties in score go to the earlier one, as in
    Whoosh): entry id, title, game, kind, page URL, a one-line summary, the document's boost.
``terms``
    Every analysed term of every field (stems of the language's text fields, folded words of the
    others), referenced by position from ``fields`` and ``words``.
``fields``
    Per scored field: its weight, analyzer, average length over the whole index, each document's
    length as the index stores it, and its postings: per term, its document frequency over the
    whole index, then for each of this language's documents holding it, the document, the term's
    count and its positions (for the phrase bonus). A posting's weight is its count times the
    document's boost; the export checks that against the index.
``words``
    The map from surface word forms (lowercase, accent-less) to the language's analysed terms: the
    index's own words plus common words of both languages (wordfreq) whose stem the index holds, so
    ``disparando`` reaches ``dispar`` although the content never says it.
``spelling``
    Typo candidates: the words of the spelling field with their frequencies.
``rules``
    The ranking rules' data: BM25 parameters, phrase and alternative boosts and slops, question words,
    the glossary groups that expand a query, spelling limits.

The format is read by ``kb-search.js`` and nothing else; both change together.

The ranking is the contract of :mod:`kb.search.ranking`: ``rules`` carries its parameters (BM25 K1,
each field's B and weight, coordination power, kind priors, exact-name and game-context boosts), the
name table and the word→game table (``meta.json`` of the index). Where the browser differs: it sees
one language's documents (the engine takes each entry's better document of the two), and it treats
a word as known when the word map holds it (the engine asks ``wordfreq``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Mapping

from kb.core.cache import load, save
from kb.core.model import LANGS
from kb.core.terms import STOPWORDS, fold, tokens
from kb.search import ranking
from kb.search.index import MAX_QUERY

__all__ = ["FORMAT", "export", "to_script", "EXTRA_WORDS"]

FORMAT = 2
"""Version of the data layout; ``kb-search.js`` refuses other versions."""
EXTRA_WORDS = 100000
"""How many of each language's most common words (wordfreq) are offered to the word map."""
_SCORED = ranking.FIELDS
ALTERNATIVE_SLOP = 1
"""Kept in the data for older readers; the ranking looks alternatives up word by word."""


def _joined(text: str) -> str:
    return " ".join(w for *_, w in tokens(text))


def _fields(lang: str) -> list[tuple[str, str]]:
    """(name in the browser, field in the index) of every field a ``lang`` query scores."""
    return [(f, f"{f}_{lang}") for f in _SCORED]


_PLAIN = re.compile(r"\w+(\.?\w+)*")


def _analyse_all(schema: Any, field: str, words: list[str]) -> dict[str, list[str]]:
    """Each word's terms by ``field``'s analyzer (one pass over all the words: thousands of calls cost seconds)."""
    text = " ".join(words)
    starts, at = {}, 0
    for w in words:
        starts[at] = w
        at += len(w) + 1
    out: dict[str, list[str]] = {w: [] for w in words}
    for tok in schema[field].analyzer(text, mode="query", chars=True):
        word = starts.get(tok.startchar)
        if word is not None:
            out[word].append(tok.text)
    return out


def _common(schema: Any, limit: int, cache: Path | None) -> tuple[list[str], dict[str, list[str]]]:
    """The most common words of both languages (wordfreq), and each one's terms by each language's analyzer.

    Cached beside the index: Snowball in pure Python takes seconds over 200,000 words, and the
    answer changes only with the engine (the cache is keyed by its code). Terms are joined by spaces.
    """
    path = cache / f"common-words-{limit}.json" if cache else None
    found = load(path) if path else None
    if not (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], list) and isinstance(found[1], dict)
            and all(isinstance(found[1].get(lg), list) for lg in LANGS)):  # else: missing or not what is written
        from wordfreq import top_n_list

        words = list(dict.fromkeys(k for k in (fold(w) for lg in LANGS for w in top_n_list(lg, limit))
                                   if _PLAIN.fullmatch(k)))
        found = words, {lg: [" ".join(t) for t in _analyse_all(schema, f"body_{lg}", words).values()] for lg in LANGS}
        if path:
            save(path, found)
    return found


def export(reader: Any, lang: str, url: Callable[[str], str | None], game_names: Mapping[str, str],
           extra_words: int = EXTRA_WORDS, cache: Path | None = None) -> dict[str, Any]:
    """The search data of ``lang`` from an opened index (:class:`kb.search.index.Reader`).

    ``url(entry_id)`` is the entry's page relative to the language's root (``None``: not shown);
    ``game_names`` labels the game chips; ``cache`` is a folder for the analysed common words.
    """
    with reader.ix.searcher() as s:
        r = s.reader()
        empty = r.doc_count_all() == 0  # an index of no entries has no columns to read
        langs: Any = [] if empty else r.column_reader("lang")
        docnums = [d for d in range(r.doc_count_all()) if not r.is_deleted(d) and langs[d] == lang]
        docs = [_doc(r.stored_fields(d), lang, url) for d in docnums]
        terms: dict[str, int] = {}
        fields = [_field(s, r, name, field, docnums, docs, terms, reader.params) for name, field in _fields(lang)]
        _passages(r, docnums, docs, terms)
        spelling = {b.decode("utf-8"): 0 for b in r.lexicon(f"spell_{lang}")}
        for word in spelling:
            spelling[word] = r.frequency(f"spell_{lang}", word)
        words = _words(s.schema, r, lang, fields, terms, spelling, reader.expander, extra_words, cache)
        rules = _rules(reader, r.doc_count_all())
    return {"version": FORMAT, "lang": lang, "docs": docs, "terms": list(terms), "fields": fields,
            "words": words, "spelling": sorted(spelling.items()), "rules": rules,
            "games": dict(sorted(game_names.items()))}


def _passages(r: Any, docnums: list[int], docs: list[dict[str, Any]], terms: dict[str, int]) -> None:
    """Each document's passages: anchor and analysed terms, as ids into ``terms`` (``ranking.best_passage``)."""
    for doc, d in zip(docs, docnums, strict=True):
        doc["passages"] = [[a, [terms.setdefault(t, len(terms)) for t in held]]
                           for a, _text, held in json.loads(r.stored_fields(d).get("passages") or "[]")]


def _doc(stored: Mapping[str, Any], lang: str, url: Callable[[str], str | None]) -> dict[str, Any]:
    titles = json.loads(stored["titles"])
    return {"id": stored["entry"], "title": titles.get(lang) or titles["es"], "game": stored["game"],
            "kind": stored["kind"], "url": url(stored["entry"]),
            "summary": " ".join((stored.get(f"summary_{lang}") or "").split()),
            "boost": 1.0}  # no boost on term frequencies: kind priors are rules["kindPrior"]


def _field(s: Any, r: Any, name: str, field: str, docnums: list[int], docs: list[dict[str, Any]],
           terms: dict[str, int], p: ranking.Params) -> dict[str, Any]:
    """One scored field: weight, B, average length, each document's length and the postings of ``docnums``."""
    position = {d: i for i, d in enumerate(docnums)}
    postings: list[list[Any]] = []
    for btext in r.lexicon(field):
        text = btext.decode("utf-8")
        row: list[Any] = [terms.setdefault(text, len(terms)), r.doc_frequency(field, text)]
        m = r.postings(field, btext)
        while m.is_active():
            i = position.get(m.id())
            if i is not None:
                row += [i, *_posting(field, text, m, docs[i])]
            m.next()
        if len(row) > 2:
            postings.append(row)
    return {"name": name, "weight": p.field_weights[name], "b": p.bm25_b[name], "analyzer": "stem",
            "avg": s.avg_field_length(field) or 1,
            "lengths": [r.doc_field_length(d, field, 0) for d in docnums], "postings": postings}


def _posting(field: str, text: str, m: Any, doc: Mapping[str, Any]) -> list[int]:
    """A document's count and positions of a term; its weight must be the count times the document's boost."""
    positions = m.value_as("positions")
    if abs(m.weight() - len(positions) * doc["boost"]) > 1e-6:
        raise ValueError(f"search export: {field}:{text} weighs {m.weight()} in {doc['id']}, not "
                         f"{len(positions)} x {doc['boost']}: the engine's weighting changed")
    return [len(positions), *positions]


def _words(schema: Any, r: Any, lang: str, fields: list[dict[str, Any]], terms: dict[str, int], spelling: Mapping[str, int],
           expander: Any, extra_words: int, cache: Path | None) -> dict[str, list[int]]:
    """The map from surface word forms to ``lang``'s analysed terms (see the module's docstring)."""
    other = "en" if lang == "es" else "es"
    stems_known = {row[0] for f in fields if f["analyzer"] == "stem" for row in f["postings"]}
    other_known = {b.decode("utf-8") for f in _SCORED for b in r.lexicon(f"{f}_{other}")}
    always = list(dict.fromkeys(k for k in map(fold, (
        *spelling,
        *(w for group in expander.groups for phrase in group for w in phrase.split()))) if _PLAIN.fullmatch(k)))
    common, common_terms = _common(schema, extra_words, cache)
    own = {lg: _analyse_all(schema, f"body_{lg}", always) for lg in LANGS}
    # -1: a term the index lacks. A word with no term here (a stop word of this language) but one in the other
    # language still makes a slot of the query (ranking: every field of both languages), so it maps to [-1].
    words: dict[str, list[int]] = {key: [terms.get(x, -1) for x in own[lang][key]] or ([-1] if own[other][key] else [])
                                   for key in always}
    mine, theirs = common_terms[lang], common_terms[other]
    for i, key in enumerate(common):
        if key in words:
            continue
        ids = [terms.get(x, -1) for x in mine[i].split()]
        # kept when the index knows the word's stem here, or in the other language (then it is no typo)
        if any(t in stems_known for t in ids) or any(x in other_known for x in theirs[i].split()):
            words[key] = ids
    return words


def _rules(reader: Any, doc_count: int) -> dict[str, Any]:
    """The ranking rules' data (the reader's :class:`kb.search.ranking.Params`, the name and word→game tables)."""
    expander, p = reader.expander, reader.params
    return {
        "bm25": {"k1": p.bm25_k1, "b": p.bm25_b["body"]}, "docCount": doc_count,
        "alternatives": {"max": p.max_alternatives, "boost": p.alternative_weight,
                         "slop": ALTERNATIVE_SLOP, "fields": ["title", "names"],
                         # each name as the engine offers it (its words) and as it is matched (folded words)
                         "groups": [[[_joined(a), _joined(fold(a))] for a in g] for g in expander.groups],
                         "keys": {" ".join(k): sorted(ids) for k, ids in expander.keys.items()},
                         "longest": expander.longest, "exact": sorted(" ".join(k) for k in expander.exact),
                         "stop": sorted(STOPWORDS["es"] | STOPWORDS["en"])},
        "questionWords": sorted(p.question_words),
        "coordination": p.coordination, "kindPrior": dict(p.kind_prior),
        "exactBoost": p.exact_name_boost, "gameBoost": p.game_context_boost,
        "names": {k: list(v) for k, v in reader.meta.names.items()}, "context": dict(reader.meta.context),
        "gameWords": sorted(reader.meta.game_words),
        "spelling": {"min": p.spell_min_length, "short": p.short_word, "prefix": p.same_prefix},
        "proximity": {"boost": p.proximity_boost, "depth": p.proximity_depth},  # ranking.proximity_factor (issue 31)
        "fuzzy": {"minLength": p.fuzzy_min_length}, "maxQuery": MAX_QUERY,
    }


def to_script(data: Mapping[str, Any]) -> str:
    """The data as a script that hands it to ``kb-search.js`` (works from ``file://``, where fetch cannot).

    The JSON travels as one string literal, parsed once: faster than a literal of the same size,
    and the same string is what the page keeps in ``sessionStorage``.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "<", ">" and "&" occur only inside JSON strings: escaped there, no content can close a script or look like markup
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    literal = json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.kbSearchData&&window.kbSearchData({json.dumps(data['lang'])},{literal});\n"
