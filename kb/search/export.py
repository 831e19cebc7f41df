"""The engine's search, exported for the browser: one data file per language, computed by the engine.

The site's search box runs ``kb/site/assets/kb-search-engine.js``, which only looks up and scores.
Every decision about analysis and ranking stays here in Python: this module reads the engine's own
index (the one ``KnowledgeBase.search`` queries) and its word list (:mod:`kb.search.words`), and
writes down what they hold. A change of analysis, weights or content reaches the site by rebuilding it.

**The contract** (issue 31): a language's data lets the browser compute what
``KnowledgeBase.search(q, lang=<that language>)`` computes, hit for hit and score for score: the
same documents (both languages' documents of every entry, as the engine scores both and takes each
entry's best), the same word list, the same parameters. ``tests/test_search_parity.py`` runs every
query of every relevance set in Chromium and compares ids and scores with the API's.

What one language's data holds (``version`` :data:`FORMAT`):

``docs``
    One per entry, what a hit shows in this language: entry id, title, game, kind, page URL, a
    one-line summary, the page's passages (anchor, analysed terms), in the index order of this
    language's documents.
``index``
    Every live index document of both languages in index order (ties in score go to the earlier
    one): the position in ``docs`` of its entry.
``terms``
    Every analysed term, referenced by position from ``fields``, ``words`` and passages.
``fields``
    Per scored field of both languages (``title_es``, ``title_en``, ..., in the engine's clause
    order: :data:`kb.search.ranking.FIELDS`, then languages): its weight and B, average length
    over the whole index, each index document's length as the index stores it, and its postings:
    per term, its document frequency over the whole index, then for each live document holding it,
    its position in ``index``, the term's weight (its count), and its positions (count, then each:
    the second stage's proximity and field coverage, ``query.proximity``).
``words``
    The word list (:mod:`kb.search.words`): per held key, ``[languages, es term, en term]`` (the
    term of the body analysis, ``null`` when there is none; ``languages`` the languages it is a real
    word of, 1 Spanish, 2 English), with the names analysis appended (``[..., es, en]``) where it
    differs (stop words); a key known but not held (a real word the index lacks) is ``[languages]``.
``spelling``
    Per language, typo candidates: the words of the spelling field with their document frequencies.
``rules``
    The ranking rules' data: every parameter and limit of :mod:`kb.search.ranking` the script uses; ``thesaurus``
    (:func:`_synonyms`): its weight, and the rules' words each key of the word list is also read as.

The format is read by ``kb-search-engine.js`` and nothing else; both change together. The site ships it
split (:func:`kb.site.search_box.split`: a head, and the word list, the names, postings, the entries' texts and
spelling in parts a query loads as its words and hits need them); the engine takes it whole as well (the parity test does).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from kb.core.cache import KeyFn, load, prune, save
from kb.core.model import LANGS
from kb.core.terms import STOPWORDS, fold, tokens
from kb.search import query as search, ranking, whoosh_access, words as wordlist
from kb.search.index import MAX_QUERY
from kb.search.thesaurus import Line, said_words

__all__ = ["FORMAT", "export", "to_script"]

FORMAT = 4
"""Version of the data layout; ``kb-search-engine.js`` refuses other versions."""
_FIELDS = [f"{name}_{lang}" for name in ranking.FIELDS for lang in LANGS]
"""Every scored field, in the order the engine adds a word's clauses (``query.plan``)."""


def _joined(text: str) -> str:
    return " ".join(w for *_, w in tokens(text))


def _analyse_all(schema: Any, field: str, keys: list[str]) -> list[str | None]:
    """Each key's term by ``field``'s analyzer (``None``: none), in one pass (thousands of calls cost seconds)."""
    text = " ".join(keys)
    starts: dict[int, int] = {}
    at = 0
    for i, w in enumerate(keys):
        starts[at] = i
        at += len(w) + 1
    out: list[str | None] = [None] * len(keys)
    for tok in schema[field].analyzer(text, mode="query", chars=True):
        j = starts.get(tok.startchar)
        if j is not None:
            out[j] = tok.text
    return out


def _kept(path: Path | None, stamp: str, key: KeyFn | None, make: Callable[[], Any]) -> Any:
    """``make()``'s value, kept at ``path`` as JSON text for ``wordfreq``'s files of ``stamp``
    (:func:`kb.search.words.stamp`; the engine's code is in every cache file's header): made again when missing,
    damaged or of other files. Text, so that the cache's decoder does not walk its hundreds of thousands of words
    (issue 33); kept or not, the value is read from the same text."""
    found: Any = load(path, key=key) if path else None
    if not (isinstance(found, tuple) and len(found) == 2 and found[0] == stamp and isinstance(found[1], str)):
        found = (stamp, json.dumps(make(), ensure_ascii=False))
        if path:
            save(path, found, key=key)
    return json.loads(found[1])


def _common(schema: Any, cache: Path | None, key: KeyFn | None) -> tuple[list[str], dict[str, list[str | None]]]:
    """The common words' keys (:func:`kb.search.words.common_words`) and each one's term by each language's body
    analyzer. Cached (Snowball in pure Python takes seconds over 200,000 words), :func:`_kept`."""
    def make() -> list[Any]:
        keys = sorted(set().union(*wordlist.common_words().values()))
        return [keys, {lg: _analyse_all(schema, f"body_{lg}", keys) for lg in LANGS}]
    keys, analysed = _kept(cache / f"common-keys-{wordlist.COMMON}.json" if cache else None, wordlist.stamp(), key, make)
    return keys, analysed


Facts = tuple[dict[str, int], dict[str, list[list[str]]]]
"""What :func:`_facts` gives: each real word's languages (bits), and the rules' words keys are read as."""


def _facts(schema: Any, zipf: float, cache: Path | None, key: KeyFn | None, extra: tuple[Line, ...] = ()) -> Facts:
    """What the word list says of the keys of ``wordfreq``'s lists whatever the content (issue 33: an edit computes
    none of it): the languages each real word at ``zipf`` is a real word of (:func:`_languages`), and the rules'
    words each common or real word is read as (:func:`_meant`; only keys read as some). Cached as :func:`_common` is,
    keyed by ``zipf`` too; the word list's keys that come from the content (its spelling and glossary words) are not
    in it: :func:`_words` reads those itself. A pack's players' words ``extra`` are read too (kept apart, by their
    digest: the engine's table alone keeps its own file)."""
    def make() -> list[Any]:
        real = wordlist.real_words(zipf)
        keys, analysed = _common(schema, cache, key)
        body: dict[str, dict[str, str | None]] = {lg: dict(zip(keys, analysed[lg], strict=True)) for lg in LANGS}
        languages = {k: _languages(k, real) for k in sorted(set().union(*real.values()))}
        meant: dict[str, list[list[str]]] = {}
        for k in sorted(set(keys) | set(languages)):
            row = [_meant(k, lg, body, extra) for lg in LANGS]
            if any(row):
                meant[k] = row
        return [languages, meant]
    pack = f"-{hashlib.sha256(json.dumps(extra).encode()).hexdigest()[:16]}" if extra else ""
    languages, meant = _kept(cache / f"word-facts-{wordlist.COMMON}-{zipf!r}{pack}.json" if cache else None,
                             wordlist.stamp(), key, make)
    return languages, meant


def export(reader: Any, lang: str, url: Callable[[str], str | None], game_names: Mapping[str, str],
           cache: Path | None = None, key: KeyFn | None = None, segments: Path | None = None) -> dict[str, Any]:
    """The search data of ``lang`` from an opened index (:class:`kb.search.index.Reader`).

    ``url(entry_id)`` is the entry's page relative to the language's root (``None``: not shown);
    ``game_names`` labels the game chips; ``cache`` is a folder for the analysed common words, ``segments`` one for
    each index segment's terms (:func:`_segments`), ``key`` what signs their files (:mod:`kb.core.cache`).
    """
    with reader.ix.searcher() as s:
        r = s.reader()
        part = _shared(reader, s, r, (cache, segments), key)
        live, langs = part["live"], part["langs"]
        shown = [d for d in live if langs[d] == lang]
        docs = [_doc(r.stored_fields(d), lang, url) for d in shown]
        at = {doc["id"]: i for i, doc in enumerate(docs)}
        index = [at[r.stored_fields(d)["entry"]] for d in live]
        terms = {t: i for i, t in enumerate(part["terms"])}
        _passages(r, shown, docs, terms)
        words = {k: row if len(row) == 1 else [row[0], *(_term(t, terms) for t in row[1:])]
                 for k, row in part["words"].items()}  # ids in key order: the order the clean export gives them
        rules = {**_rules(reader, part["n"]), "thesaurus": {"weight": reader.params.thesaurus_weight, **part["synonyms"]}}
    return {"version": FORMAT, "lang": lang, "docs": docs, "index": index, "indexLangs": part["index_langs"],
            "terms": list(terms), "fields": part["fields"], "words": words, "spelling": part["spelling"], "rules": rules,
            "games": dict(sorted(game_names.items()))}


def _shared(reader: Any, s: Any, r: Any, folders: tuple[Path | None, Path | None], key: KeyFn | None) -> dict[str, Any]:
    """What every language's data takes alike from the index state ``r`` reads (its live documents, the fields'
    postings and the terms they number first, the spelling candidates, the word list with terms as text): made
    once per state and language-independent, kept on the reader (``exported``) for the next language's export of
    the same state (``kb build`` exports each language in turn; issue 33). Read only by :func:`export`."""
    state = (getattr(reader, "gen", None), r.generation(), r.doc_count_all(), r.doc_count())
    memo: dict[Any, Any] = getattr(reader, "exported", {})
    if state in memo:
        return memo[state]  # type: ignore[no-any-return]
    n = r.doc_count_all()
    langs: Any = [] if n == 0 else r.column_reader("lang")  # an index of no entries has no columns to read
    live = [d for d in range(n) if not r.is_deleted(d)]
    terms: dict[str, int] = {}
    segs = _segments(reader.ix, r, folders[1], key)
    fields = [_field(s, r, field, live, terms, reader.params, _merged(segs, field)) for field in _FIELDS]
    spelling = {lg: [(t, df) for t, df, _ in _merged(segs, f"spell_{lg}")] for lg in LANGS}
    words, synonyms = _words(s.schema, _lexicon(segs), spelling, reader.expander.groups, reader.params, folders[0], key,
                             reader.meta.thesaurus)
    part = {"n": n, "langs": [langs[d] for d in range(n)], "live": live, "index_langs": [LANGS.index(langs[d]) for d in live],
            "terms": list(terms), "fields": fields, "spelling": spelling, "words": words, "synonyms": synonyms}
    memo.clear()  # one state kept: the index only moves on
    memo[state] = part
    return part


Segments = list[tuple[int, dict[str, list[list[Any]]]]]
"""What :func:`_segments` gives: each segment's first document and its fields' terms."""


def _segments(ix: Any, r: Any, folder: Path | None, key: KeyFn | None) -> Segments:
    """Each segment of the index state ``r`` reads: its first document, and the terms of every scored field (with
    their postings) and spelling field (:func:`kb.search.whoosh_access.segment_terms`). Kept in ``folder`` by the
    digest of the segment's files (:func:`_kept`; a segment is never changed once written, its deletions are not in
    it: ``live`` drops them), so the build after an edit reads only the segment the update wrote (issue 33). The
    folder keeps the files of the state's segments only."""
    out: Segments = []
    keep: set[Path] = set()
    for leaf, offset, digest in whoosh_access.segments(ix, r):
        path = folder / f"{digest}.json" if folder and digest else None
        keep.update([path] if path else [])
        out.append((offset, _kept(path, str(digest), key, functools.partial(_segment_terms, leaf))))
    if folder:
        prune(folder, keep)
    return out


def _segment_terms(leaf: Any) -> dict[str, list[list[Any]]]:
    """One segment's terms, by field (:func:`_segments`)."""
    read = {f: whoosh_access.segment_terms(leaf, f) for f in _FIELDS}
    read.update({f"spell_{lg}": whoosh_access.segment_terms(leaf, f"spell_{lg}", postings=False) for lg in LANGS})
    return read


def _lexicon(segs: Segments) -> dict[str, set[str]]:
    """Each language's terms of the scored fields, over every segment."""
    return {lg: {t for _, found in segs for f in ranking.FIELDS for t, *_ in found[f"{f}_{lg}"]} for lg in LANGS}


def _merged(segs: Segments, field: str) -> list[tuple[str, int, list[tuple[int, list[Any]]]]]:
    """``field``'s terms over every segment, in the merged lexicon's order (by text: UTF-8 keeps the code points'
    order): each term, its document frequency over the index (deleted documents' included, as Whoosh counts them
    until it merges), and the first document and postings of each segment holding it, in the segments' order."""
    by_term: dict[str, list[Any]] = {}
    for offset, found in segs:
        for text, df, *flat in found[field]:
            row = by_term.setdefault(text, [0, []])
            row[0] += df
            row[1].append((offset, flat))
    return [(t, by_term[t][0], by_term[t][1]) for t in sorted(by_term)]


def _passages(r: Any, docnums: list[int], docs: list[dict[str, Any]], terms: dict[str, int]) -> None:
    """Each document's passages: anchor and analysed terms, as ids into ``terms`` (``ranking.best_passage``)."""
    for doc, d in zip(docs, docnums, strict=True):
        doc["passages"] = [[a, [terms.setdefault(t, len(terms)) for t in held]]
                           for a, _text, held in json.loads(r.stored_fields(d).get("passages") or "[]")]


def _doc(stored: Mapping[str, Any], lang: str, url: Callable[[str], str | None]) -> dict[str, Any]:
    titles = json.loads(stored["titles"])
    return {"id": stored["entry"], "title": titles.get(lang) or titles["es"], "game": stored["game"],
            "kind": stored["kind"], "url": url(stored["entry"]),
            "summary": " ".join((stored.get(f"summary_{lang}") or "").split())}


def _field(s: Any, r: Any, field: str, live: list[int], terms: dict[str, int], p: ranking.Params,
           merged: list[tuple[str, int, list[tuple[int, list[Any]]]]]) -> dict[str, Any]:
    """One scored field: weight, B, average length, each live document's length and postings (``merged``:
    :func:`_merged`)."""
    position = {d: i for i, d in enumerate(live)}
    postings: list[list[Any]] = []
    for text, df, runs in merged:
        row: list[Any] = [terms.setdefault(text, len(terms)), df]
        for offset, flat in runs:
            j = 0
            while j < len(flat):
                i, weight, count = position.get(offset + flat[j]), flat[j + 1], flat[j + 2]
                if i is not None:  # a live document
                    row += [i, int(weight) if weight == int(weight) else weight, count, *flat[j + 3:j + 3 + count]]
                j += 3 + count
        postings.append(row)  # kept with no live document: the word still counts as found (query.score)
    name = field.rsplit("_", 1)[0]
    return {"name": field, "weight": p.field_weights[name], "b": p.bm25_b[name],
            "avg": s.avg_field_length(field) or 1.0,
            "lengths": [r.doc_field_length(d, field, 0) for d in live], "postings": postings}


def _words(schema: Any, lexicon: Mapping[str, set[str]], spelling: Mapping[str, list[tuple[str, int]]],
           groups: Any, p: ranking.Params, cache: Path | None, key: KeyFn | None,
           extra: tuple[Line, ...] = ()) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """The word list (:mod:`kb.search.words`): every known key with its languages, and its terms (as text: numbered
    by :func:`export`) when held; and :func:`_synonyms` of its keys. What does not depend on the content comes from
    :func:`_facts`; ``lexicon``: each language's terms of the scored fields; ``extra``: the pack's players' words."""
    languages, meant = _facts(schema, p.real_word_zipf, cache, key, extra)
    keys, analysed = _common(schema, cache, key)
    body = {lg: dict(zip(keys, analysed[lg], strict=True)) for lg in LANGS}
    held: set[str] = set().union(*({k for k, t in zip(keys, analysed[lg], strict=True) if t in lexicon[lg]} for lg in LANGS))
    glossary = wordlist.glossary_words(groups) | said_words(extra)  # as query.vocabulary
    rest = sorted(({w for lg in LANGS for w, _ in spelling[lg]} | set(glossary)) - held)
    for lg in LANGS:
        body[lg].update(zip(rest, _analyse_all(schema, f"body_{lg}", rest), strict=True))
    held.update(rest)
    out: dict[str, list[Any]] = {}
    for k in sorted(held):
        row: list[Any] = [languages.get(k, 0), *(body[lg][k] for lg in LANGS)]
        if any(body[lg][k] is None for lg in LANGS):  # the body analysis drops it (a stop word): the names field keeps it
            row += [_analyse_all(schema, f"names_{lg}", [k])[0] for lg in LANGS]
        out[k] = row
    for k in languages.keys() - held:  # real words the index does not hold: known, and language evidence
        out[k] = [languages[k]]
    fresh = set(rest)  # the content's own words: their terms are the ones analysed here

    def row_of(k: str) -> list[list[str]] | None:
        return [_meant(k, lg, body, extra) for lg in LANGS] if k in fresh else meant.get(k)
    return dict(sorted(out.items())), _synonyms(out, row_of)


def _meant(k: str, lg: str, body: Mapping[str, Mapping[str, str | None]], extra: tuple[Line, ...] = ()) -> list[str]:
    """The rules' words key ``k`` is read as in ``lg`` (:meth:`kb.search.query.Vocabulary.synonyms`): matched by its
    term in the language's body analysis (``body``, else analysed here); ``extra``: the pack's players' words."""
    term = body[lg][k] if k in body[lg] else next(iter(search.analyse(f"body_{lg}", k)), None)
    return list(search.read_as(lg, term, extra)) if term else []


def _synonyms(keys: Iterable[str], row_of: Callable[[str], list[list[str]] | None]) -> dict[str, Any]:
    """``{"rows", "words"}``: each key of the word list that :mod:`kb.search.thesaurus` reads as rules' words → the
    index of its row in ``rows``, a row being those words per language (:data:`LANGS` order, ``row_of(k)``:
    :func:`_meant` per language). Keys of one row share it."""
    rows: dict[str, int] = {}
    words: dict[str, int] = {}
    for k in sorted(keys):
        row = row_of(k)
        if row and any(row):
            words[k] = rows.setdefault(json.dumps(row), len(rows))
    return {"rows": [json.loads(r) for r in rows], "words": words}


def _term(text: str | None, terms: dict[str, int]) -> int | None:
    """A term's id (added when no field holds it: it matches nothing, yet it is one of the query's words for the
    second stage's word pairs), or ``None`` when there is none."""
    return terms.setdefault(text, len(terms)) if text else None


def _languages(k: str, real: Mapping[str, frozenset[str]]) -> int:
    """The languages ``k`` is a real word of, as bits (1: the first of :data:`LANGS`, 2: the second)."""
    return sum(1 << i for i, lg in enumerate(LANGS) if k in real[lg])


def _rules(reader: Any, doc_count: int) -> dict[str, Any]:
    """The ranking rules' data (the reader's :class:`kb.search.ranking.Params`, the name and word→game tables)."""
    expander, p = reader.expander, reader.params
    return {
        "langs": list(LANGS), "fields": list(ranking.FIELDS),
        "bm25": {"k1": p.bm25_k1}, "weights": dict(p.field_weights), "docCount": doc_count,
        "alternatives": {"max": p.max_alternatives, "boost": p.alternative_weight, "fields": ["title", "names"],
                         # each name as the engine offers it (its words) and as it is matched (folded words)
                         "groups": [[[_joined(a), _joined(fold(a))] for a in g] for g in expander.groups],
                         "keys": {" ".join(k): sorted(ids) for k, ids in expander.keys.items()},
                         "longest": expander.longest, "exact": sorted(" ".join(k) for k in expander.exact)},
        "stop": sorted(STOPWORDS["es"] | STOPWORDS["en"]),
        "questionWords": sorted(p.question_words), "punctuation": ranking.PUNCTUATION.pattern,
        "coordination": p.coordination, "kindPrior": dict(p.kind_prior),
        "general": {"words": sorted(p.general_words), "prior": dict(p.general_prior)},  # ranking.speaks_generally (issue 31)
        "exactBoost": p.exact_name_boost, "gameBoost": p.game_context_boost,
        "names": {k: list(v) for k, v in reader.meta.names.items()}, "context": dict(reader.meta.context),
        "gameWords": sorted(reader.meta.game_words),
        "spelling": {"min": p.spell_min_length, "prefix": p.same_prefix, "shown": p.shown_min_length,  # ranking.shown_corrections
                     # ranking.max_distance, as a table: edits allowed up to each length (the last for any longer word)
                     "distance": [ranking.max_distance("x" * n, p.short_word) for n in range(p.short_word + 2)]},
        "proximity": {"boost": p.proximity_boost, "depth": p.proximity_depth,  # ranking.proximity_factor (issue 31)
                      "coverage": {"boost": p.coverage_boost, "fields": list(p.coverage_fields)}},  # ranking.coverage_factor
        "fuzzy": {"minLength": p.fuzzy_min_length}, "maxQuery": MAX_QUERY,
        "passageWeights": dict(p.passage_weights),  # ranking.best_passage: a passage's weight by its section
    }


def to_script(lang: str, data: Mapping[str, Any], part: str = "") -> str:
    """``lang``'s data (or the part of it named ``part``, :func:`kb.site.search_box.split`) as a script that
    hands it to ``kb-search.js`` (works from ``file://``, where fetch cannot).

    The JSON travels as one string literal, parsed once: faster than a literal of the same size,
    and the same string is what the page keeps in ``sessionStorage``.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "<", ">" and "&" occur only inside JSON strings: escaped there, no content can close a script or look like markup
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    literal = json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    name = f",{json.dumps(part)}" if part else ""
    return f"window.kbSearchData&&window.kbSearchData({json.dumps(lang)},{literal}{name});\n"
