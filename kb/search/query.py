"""Whoosh's public API: the index schema, writing documents and answering queries (below it, only
:mod:`kb.search.whoosh_access`).

Freshness, documents and storage live in :mod:`kb.search.index`; every ranking parameter and rule
lives in :mod:`kb.search.ranking` (pure data and functions, the contract the browser search
reproduces). This module only speaks Whoosh: analysis, schema, the query as an ``Or`` of weighted
terms (Whoosh's array matcher at every index size), BM25F, and the per-entry factor applied inside
every term's score.

Analysis: Spanish and English Snowball stemming with accents folded *before* stemming (so
``energía`` and ``energia`` meet), case folded; an unstemmed, folded ``spell_<lang>`` field is the
vocabulary for spelling corrections and fuzzy matching (fuzzy terms on a stemmed field find nothing).
"""

from __future__ import annotations

import json
import re
import weakref
from collections import OrderedDict
from functools import lru_cache, partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from whoosh.lang import stemmer_for_language, stopwords_for_language
from whoosh.support.charset import accent_map

from kb.core.errors import KbError
from kb.core.model import LANGS
from kb.core.terms import STOPWORDS, fold
from kb.search import ranking
from kb.search import words as wordlist

if TYPE_CHECKING:
    from kb.search.thesaurus import Line

__all__ = ["Hit", "Passage", "Result", "Meta", "create", "write", "open_dir", "searcher", "query", "lexicon_ok", "analyse",
           "SearchError", "LANGS"]

_STOP = STOPWORDS["es"] | STOPWORDS["en"]


def _analyzer(lang: str | None, stop: bool = True) -> Any:
    """A field's Whoosh analyzer, as the index is written with it."""
    from whoosh.analysis.filters import CharsetFilter, LowercaseFilter, StopFilter
    from whoosh.analysis.morph import StemFilter
    from whoosh.analysis.tokenizers import RegexTokenizer

    chain = RegexTokenizer(ranking.TOKEN) | LowercaseFilter() | CharsetFilter(accent_map)
    if lang is None:
        return chain
    if stop:
        chain = chain | StopFilter(lang=lang)
    return chain | StemFilter(lang=lang)  # type: ignore[no-untyped-call]  # whoosh3 leaves it untyped


WHOOSH_STOP_WORDS = frozenset(
    "a an and are as at be by can for from have if in is it may not of on or tbd that the this to us we when will with "
    "yet you your".split())
"""``whoosh.analysis.filters.STOP_WORDS``, which Whoosh's ``StopFilter(lang=...)`` adds to the language's list (the
stop lists of a query's analysis; ``tests/test_search_compact.py`` compares them with Whoosh's)."""
_TOKENS = re.compile(ranking.TOKEN)
_STEMS = {lang: stemmer_for_language(lang) for lang in LANGS}  # type: ignore[no-untyped-call]  # whoosh3 leaves them untyped
_STOPS = {lang: WHOOSH_STOP_WORDS | frozenset(stopwords_for_language(lang)) for lang in LANGS}  # type: ignore[no-untyped-call]
_ACCENTS: Any = accent_map
"""Code point → folded text (typed by whoosh3 as ``str`` keys; ``str.translate`` reads them as code points)."""


@lru_cache(maxsize=1)
def _schema() -> Any:
    from whoosh.fields import ID, STORED, TEXT, Schema

    fields: dict[str, Any] = dict(
        key=ID(stored=True, unique=True), entry=ID(stored=True, sortable=True), game=ID(stored=True, sortable=True),
        kind=ID(stored=True, sortable=True), lang=ID(stored=True, sortable=True), titles=STORED, passages=STORED,
    )
    for lang in LANGS:
        for name in ranking.FIELDS:
            stored = name in ("summary", "body")
            fields[f"{name}_{lang}"] = TEXT(analyzer=_analyzer(lang, stop=name != "names"), stored=stored, phrase=True)  # positions: the browser export reads token streams
        fields[f"spell_{lang}"] = TEXT(analyzer=_analyzer(None), phrase=False)
    return Schema(**fields)


def analyse(fieldname: str, text: str) -> list[str]:
    """The terms ``text`` gives in ``fieldname`` (e.g. ``title_es``), as a query: the engine's analysis, for exporters."""
    return list(_analyse(fieldname, text))


@lru_cache(maxsize=65536)
def _analyse(fieldname: str, text: str) -> tuple[str, ...]:
    """Whoosh's analysis of the field (:func:`_analyzer`) in query mode, step for step, without its pipeline's modules
    (a query process does not import ``whoosh.analysis``): tokens of :data:`ranking.TOKEN`, lowercased, accents
    folded by ``accent_map``; but for ``spell_*`` and ``names_*``, those shorter than 2 letters or in the
    language's stop list dropped; but for ``spell_*``, the Snowball stem of each."""
    name, _, lang = fieldname.rpartition("_")
    words = [m.group(0).lower().translate(_ACCENTS) for m in _TOKENS.finditer(text)]
    if name == "spell":
        return tuple(words)
    if name != "names":
        stops = _STOPS[lang]
        words = [w for w in words if len(w) >= 2 and w not in stops]
    stem = _STEMS[lang]
    return tuple(stem(w) for w in words)


class SearchError(KbError):
    """The index cannot be opened or read: the caller rebuilds it."""


@dataclass(frozen=True)
class Passage:
    """A place of an entry's page (:mod:`kb.view.passages`): its HTML id there and its plain text."""

    anchor: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        """``{"anchor", "text"}``."""
        return {"anchor": self.anchor, "text": self.text}


@dataclass(frozen=True)
class Hit:
    """One entry found."""

    id: str
    """Entry id."""
    game: str
    """Game id."""
    kind: str
    """Entry kind."""
    title: str
    """Title in the requested language; with none requested, in the language most of the query's words are words of
    (Spanish when they do not say)."""
    score: float
    """Relevance score (higher is better; not comparable across queries)."""
    snippet: str
    """A short passage with the matched words between ``**``."""
    lang: str
    """Language of the snippet and passage: the requested one, else the query's own (as :attr:`title`), when the entry
    has that language's text."""
    passage: Passage | None = None
    """The passage of the entry's page (in ``lang``) that matched best: its anchor and its text."""

    def to_json(self) -> dict[str, Any]:
        """The hit as JSON-ready data (``passage``: ``{"anchor", "text"}`` or ``None``)."""
        return {"id": self.id, "game": self.game, "kind": self.kind, "title": self.title,
                "score": round(self.score, 4), "snippet": self.snippet, "lang": self.lang,
                "passage": self.passage.to_dict() if self.passage else None}

    to_dict = to_json
    """The same as :meth:`to_json` (every returned type has ``to_dict()``)."""


@dataclass(frozen=True)
class Result:
    """What a query found."""

    query: str
    """The query as run (after cutting to the length limit)."""
    hits: tuple[Hit, ...]
    """Best entries first, one hit per entry."""
    total: int
    """How many entries matched."""
    by_game: Mapping[str, int] = field(default_factory=dict)
    """Those entries per game."""
    did_you_mean: str | None = None
    """The query with misspelt words corrected, when a correction was searched too."""
    fuzzy: bool = False
    """True when only fuzzy matching found anything."""
    context: str | None = None
    """The game the query's own words pointed to (its entries weighed more), when no game filter was given."""

    def to_dict(self) -> dict[str, Any]:
        """``{"query", "did_you_mean", "total", "by_game", "hits": [Hit.to_dict()...]}`` (what ``kb search --json`` prints)."""
        return {"query": self.query, "did_you_mean": self.did_you_mean or None, "total": self.total,
                "by_game": dict(self.by_game), "hits": [h.to_dict() for h in self.hits]}


@dataclass(frozen=True)
class Meta:
    """What the ranking needs besides the Whoosh index (written beside it, see :mod:`kb.search.index`)."""

    names: Mapping[str, Sequence[str]]
    """:func:`ranking.name_key` of every name → the entries so named."""
    context: Mapping[str, str]
    """The word → game table of :func:`ranking.context_table`."""
    game_words: frozenset[str] = frozenset()
    """Folded words of the games' names (left out when the query is compared with names)."""
    lists: wordlist.Lists = field(default_factory=wordlist.Lists)
    """``wordfreq``'s lists as the word list reads them (the generation's ``words.txt``)."""
    thesaurus: tuple[Line, ...] = ()
    """The pack's own players' words (``content/thesaurus.txt``: :func:`kb.search.thesaurus.pack_lines`)."""


def create(path: Path) -> Any:
    """A new, empty index in ``path``."""
    from whoosh import index as windex

    path.mkdir(parents=True, exist_ok=True)
    return windex.create_in(str(path), _schema())


def open_dir(path: Path) -> Any:
    """Open the index in ``path``; :class:`SearchError` when it is missing or unreadable."""
    from whoosh import index as windex

    try:
        return windex.open_dir(str(path))
    except Exception as exc:  # corrupt, truncated or foreign files: rebuild, never serve
        raise SearchError(f"{type(exc).__name__}: {exc}") from exc


def write(ix: Any, docs: Iterable[Mapping[str, Any]], procs: int = 1) -> int:
    """Make ``docs`` the index's documents, in their order, in one commit that drops every segment written before:
    the index is then the one a build from nothing writes, whatever it held (no deleted document left in ``N``, the
    document frequencies or the document numbers). Returns documents written."""
    from whoosh.writing import CLEAR

    writer = ix.writer(procs=procs, multisegment=procs > 1, limitmb=128) if procs > 1 else ix.writer(timeout=30.0)
    n = 0
    try:
        for doc in docs:
            writer.add_document(**{**doc, "titles": json.dumps(doc["titles"], ensure_ascii=False)})
            n += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit(mergetype=CLEAR)
    return n


def lexicon_ok(ix: Any) -> bool:
    """A cheap read of the whole index structure: False when it is corrupt."""
    try:
        with ix.searcher() as s:
            s.doc_count()
            next(iter(s.reader().lexicon("spell_es")), None)
        return True
    except Exception:
        return False


# ---------------------------------------------------------------- scoring


def searcher(ix: Any) -> Any:
    """A searcher over ``ix``, to keep open for many queries; :class:`SearchError` when its files went away or are
    damaged (a generation swapped out while it was opened: the caller opens the new one)."""
    try:
        return ix.searcher()
    except Exception as exc:
        raise SearchError(f"{type(exc).__name__}: {exc}") from exc


class _Stats:
    """What scoring reads from one open searcher, read once for its lifetime: columns as arrays, each
    field's BM25 length normalisation per document (computed on first use of the field), decoded
    postings and stored fields (least recently used first out)."""

    def __init__(self, s: Any) -> None:
        import numpy as np

        reader = s.reader()
        self.searcher = s
        self.reader = reader
        self.n = s.doc_count_all()
        self.avg = {f: s.avg_field_length(f) or 1.0 for f in s.schema.names() if f.startswith(ranking.FIELDS)}
        cols = {c: list(reader.column_reader(c)) for c in ("entry", "kind", "game", "lang")}
        self.codes = {c: _codes(cols[c]) for c in ("entry", "kind", "game", "lang")}
        """Column → (distinct values, each document's index into them as an array)."""
        self.alive = (np.array([not reader.is_deleted(d) for d in range(self.n)], dtype=bool) if reader.has_deletions()
                      else np.ones(self.n, dtype=bool))
        entries, entry_ix = self.codes["entry"]
        self.entry_game = np.zeros(len(entries), dtype=np.int64)
        self.entry_game[entry_ix] = self.codes["game"][1]
        self.doc_of = {(e, lang): d for d, (e, lang) in enumerate(zip(cols["entry"], cols["lang"], strict=True))
                       if self.alive[d]}
        self._norms: dict[tuple[str, float, float], Any] = {}
        self._vocab: dict[tuple[str, int], dict[tuple[str, int], list[tuple[str, int]]]] = {}
        self._postings: OrderedDict[tuple[str, str], tuple[Any, Any, int]] = OrderedDict()
        self._held = 0
        self._stored: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self.positions: dict[tuple[str, str], dict[int, frozenset[int]]] = {}
        """(field, term) → document → positions, for the proximity stage."""
        self._words: dict[Any, tuple[Any, Vocabulary]] = {}

    def words(self, expand: Any, p: ranking.Params, lists: wordlist.Lists | None = None,
              extra: tuple[Line, ...] = ()) -> "Vocabulary":
        """The word list read with ``expand``'s glossary, ``p``'s spelling guard, ``lists`` (default: ``wordfreq``'s
        own) and a pack's players' words ``extra``, kept for the searcher's lifetime (:func:`vocabulary`)."""
        return vocabulary(self, self._words, expand, p, lists, extra)

    def postings(self, fieldname: str, term: str) -> tuple[Any, Any, int]:
        """(document numbers, term frequencies, document frequency) of a term as arrays, decoded once and kept
        while the searcher is open (least recently used first out beyond :data:`POSTINGS_CACHE` postings)."""
        import numpy as np

        key = (fieldname, term)
        found = self._postings.get(key)
        if found is not None:
            self._postings.move_to_end(key)
            return found
        ids: list[Any] = []
        tfs: list[Any] = []
        df = self.reader.doc_frequency(fieldname, term)
        if df:
            from kb.search import whoosh_access

            for offset, block_ids, block_tfs in whoosh_access.blocks(self.reader, fieldname, term):
                ids.append(np.asarray(block_ids, dtype=np.int64) + offset)
                tfs.append(np.asarray(block_tfs, dtype=np.float64))
        self._postings[key] = found = (np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64),
                                       np.concatenate(tfs) if tfs else np.zeros(0), df)
        self._held += len(found[0]) + 1
        while self._held > POSTINGS_CACHE and len(self._postings) > 1:
            _, (old, _, _) = self._postings.popitem(last=False)
            self._held -= len(old) + 1
        return found

    def norms(self, fieldname: str, k1: float, b: float) -> Any:
        """``K1 × (1 − B + B × fl / avgfl)`` of every document for ``fieldname``."""
        import numpy as np

        key = (fieldname, k1, b)
        found = self._norms.get(key)
        if found is None:
            base, per = k1 * (1 - b), k1 * b / self.avg[fieldname]
            found = self._norms[key] = np.array([base + per * fl for fl in self._lengths(fieldname)], dtype=np.float64)
        return found

    def stored(self, doc: int) -> dict[str, Any]:
        """The stored fields of a document, kept for the most recent :data:`STORED_CACHE` documents."""
        found = self._stored.get(doc)
        if found is None:
            found = self._stored[doc] = self.searcher.stored_fields(doc)
            if len(self._stored) > STORED_CACHE:
                self._stored.popitem(last=False)
        else:
            self._stored.move_to_end(doc)
        return found

    def near(self, fieldname: str, word: str, p: ranking.Params) -> list[tuple[str, int]]:
        """Indexed words of ``fieldname`` that may be within :func:`ranking.max_distance` of ``word``: same first
        letters, length within the distance (the exact distance is :func:`ranking.rank_corrections`' to take)."""
        table = self._vocab.get((fieldname, p.same_prefix))
        if table is None:
            table = self._vocab[(fieldname, p.same_prefix)] = {}
            for btext, info in self.reader.iter_field(fieldname):
                text = btext.decode("utf-8") if isinstance(btext, bytes) else btext
                if text:
                    table.setdefault((text[:p.same_prefix], len(text)), []).append((text, info.doc_frequency()))
        if not word:
            return []
        d, head = ranking.max_distance(word, p.short_word), word[:p.same_prefix]
        return [c for n in range(len(word) - d, len(word) + d + 1) for c in table.get((head, n), ())]

    def _lengths(self, fieldname: str) -> list[int]:
        from kb.search import whoosh_access

        return whoosh_access.field_lengths(self.reader, fieldname)


def vocabulary(st: Any, kept: dict[Any, tuple[Any, "Vocabulary"]], expand: Any, p: ranking.Params,
               lists: wordlist.Lists | None = None, extra: tuple[Line, ...] = ()) -> "Vocabulary":
    """The word list of a store's statistics ``st`` read with ``expand``'s glossary, ``p``'s spelling guard, ``lists``
    and a pack's players' words ``extra`` (:mod:`kb.search.thesaurus`), made once and kept in ``kept`` (the store's)."""
    at = (id(expand), p.real_word_zipf, id(lists), extra)
    found = kept.get(at)
    if found is None or found[0] is not expand:
        glossary = getattr(expand, "words", None)  # the index's expander has them worked out
        if glossary is None:
            glossary = wordlist.glossary_words(getattr(expand, "groups", ()))
        if extra:  # a pack's players' words are its words (slang wordfreq does not list): held, never corrected
            from kb.search import thesaurus

            glossary = glossary | thesaurus.said_words(extra)
        found = kept[at] = (expand, Vocabulary(st, glossary, p.real_word_zipf, lists or wordlist.Lists(), extra))
    return found[1]


class Vocabulary:
    """The word list of :mod:`kb.search.words`, asked of the open index word by word (the exporter writes the same
    list whole for the browser): which keys it holds (with terms), which it knows, of which languages."""

    def __init__(self, st: _Stats, glossary: frozenset[str], zipf: float, lists: wordlist.Lists,
                 extra: tuple[Line, ...] = ()) -> None:
        self.st = st
        self.extra = extra
        """A pack's players' words, read after the engine's (:func:`kb.search.thesaurus.pack_lines`)."""
        self.glossary = glossary
        self.zipf = zipf
        self.lists = lists
        self._held: dict[str, bool] = {}

    def held(self, key: str) -> bool:
        """A word of the index, of the glossary, or a common word (of either language) whose stem by either language's
        analysis some field of that language holds."""
        found = self._held.get(key)
        if found is None:
            r = self.st.reader
            found = self._held[key] = bool(
                any(r.doc_frequency(f"spell_{lg}", key) for lg in LANGS) or key in self.glossary
                or (self.lists.common(key)
                    and any(r.doc_frequency(f"{name}_{lg}", t) for lg in LANGS for t in _analyse(f"body_{lg}", key)
                            for name in ranking.FIELDS)))
        return found

    def languages(self, word: str) -> list[str]:
        """The languages the word is a real word of (:func:`kb.search.words.real_words`)."""
        return self.lists.languages(wordlist.key(word), self.zipf)

    def known(self, word: str) -> bool:
        """Held, or a real word: never corrected."""
        return self.held(wordlist.key(word)) or bool(self.languages(word))

    def synonyms(self, word: str, lang: str) -> tuple[str, ...]:
        """The rules' words :mod:`kb.search.thesaurus` reads a player's word as, in ``lang`` (none when the list does
        not know the word: the browser's list has no row for it)."""
        out = tuple(w for t in _analyse(f"body_{lang}", wordlist.key(word)) for w in read_as(lang, t, self.extra))
        return out if out and self.known(word) else ()

    def terms(self, word: str, lang: str, names: bool = False) -> tuple[str, ...]:
        """The word's terms in ``lang``'s fields (``names``: as the names field analyses it, stop words kept); none
        when the list does not hold it."""
        k = wordlist.key(word)
        return _analyse(f"{'names' if names else 'body'}_{lang}", k) if self.held(k) else ()


def _body_terms(lang: str, word: str) -> tuple[str, ...]:
    return _analyse(f"body_{lang}", word)


def read_as(lang: str, term: str, extra: tuple[Line, ...] = ()) -> tuple[str, ...]:
    """:func:`kb.search.thesaurus.read_as` with the query's body analysis: the rules' words for a term of ``lang``
    (``extra``: a pack's players' words besides the engine's)."""
    from kb.search import thesaurus

    return thesaurus.read_as(lang, term, _body_terms, extra)


def _codes(values: Sequence[str]) -> tuple[list[str], Any]:
    """The distinct values of a column and each document's index into them."""
    import numpy as np

    distinct = sorted(set(values))
    where = {v: i for i, v in enumerate(distinct)}
    return distinct, np.array([where[v] for v in values], dtype=np.int64)


_STATS: weakref.WeakKeyDictionary[Any, _Stats] = weakref.WeakKeyDictionary()
POSTINGS_CACHE = 2_000_000
"""Most decoded postings an open searcher keeps (about 30 MiB)."""
STORED_CACHE = 4096
"""Most documents' stored fields an open searcher keeps."""


def _stats(s: Any) -> _Stats:
    if hasattr(s, "kernels"):  # the compact store (kb.search.compact) is its own statistics
        return s  # type: ignore[no-any-return]
    st = _STATS.get(s)
    if st is None:
        st = _STATS[s] = _Stats(s)
    return st


@dataclass(frozen=True)
class Slot:
    """One word of the query (or one glossary alternative): its weighted (field, term) clauses."""

    clauses: Mapping[tuple[str, str], float]
    """(field, analysed term) → clause weight."""
    counts: bool
    """True for the player's own words: they count for :func:`ranking.coordination`."""


def plan(words: Sequence[str], fixed: Mapping[str, str], alternatives: Sequence[str], p: ranking.Params,
         vocab: Vocabulary | None = None) -> list[Slot]:
    """The query as slots: each word (with its correction) in every field of both languages at the field's
    weight; each glossary alternative in ``title`` and ``names`` at :attr:`ranking.Params.alternative_weight`,
    word by word. A word's terms are the word list's (``vocab``; without one, every word's own analysis); in
    ``names`` a word (an alternative) not all lowercase keeps its stop words ("LoS" is a name, "los" an article).
    A word the list knows is also read, in its own slot, as the rules' words :mod:`kb.search.thesaurus` gives it
    (each language's in that language's fields, at :attr:`ranking.Params.thesaurus_weight` × the field's weight; a
    clause the word has already keeps its weight). Words that give no term in any field have no slot."""
    def terms(word: str, lang: str, names: bool) -> tuple[str, ...]:
        if vocab is not None:
            return vocab.terms(word, lang, names)
        return _analyse(f"{'names' if names else 'body'}_{lang}", wordlist.key(word))

    slots: list[Slot] = []
    for word in words:
        clauses: dict[tuple[str, str], float] = {}
        for form in (word, fixed[word]) if word in fixed else (word,):
            for name in ranking.FIELDS:
                for lang in LANGS:
                    for term in terms(form, lang, name == "names" and form != form.lower()):
                        clauses[(f"{name}_{lang}", term)] = p.field_weights[name]
            if p.thesaurus_weight and vocab is not None:  # the rules' words for a player's word, in the same slot
                _read_as(clauses, form, p, vocab)
        if clauses:
            slots.append(Slot(clauses, True))
    for alt in alternatives[:p.max_alternatives]:
        upper = alt != alt.lower()
        clauses = {(f"{name}_{lang}", term): p.alternative_weight * p.field_weights[name]
                   for name in ("title", "names") for lang in LANGS for w in wordlist.KEY.findall(alt)
                   for term in terms(w, lang, name == "names" and upper)}
        if clauses:
            slots.append(Slot(clauses, False))
    return slots


def _read_as(clauses: dict[tuple[str, str], float], form: str, p: ranking.Params, vocab: Vocabulary) -> None:
    """Add to a word's ``clauses`` the terms of the rules' words :mod:`kb.search.thesaurus` reads ``form`` as, each
    language's in that language's fields, at ``thesaurus_weight`` × the field's weight (clauses held keep theirs)."""
    meant = {lang: [t for other in vocab.synonyms(form, lang) for t in vocab.terms(other, lang)] for lang in LANGS}
    for name in ranking.FIELDS:  # read once per language, added in the order the browser adds them
        for lang in LANGS:
            for term in meant[lang]:
                clauses.setdefault((f"{name}_{lang}", term), p.thesaurus_weight * p.field_weights[name])


def score(s: Any, slots: Sequence[Slot], factor: Any, keep: Any, p: ranking.Params) -> tuple[Any, Any]:
    """The documents that match and their scores, as arrays: ``factor × coordination × Σ weight × bm25``
    (see :mod:`kb.search.ranking`); coordination counts only the player's words that some document holds,
    so a word that matches nothing in the index (a typo left uncorrected, a word of another game) does
    not sink the query. ``factor`` and ``keep``: per-document arrays (multiplier, filter)."""
    import numpy as np

    st = _stats(s)
    k1 = p.bm25_k1
    acc = np.zeros(st.n)
    matched = np.zeros(st.n, dtype=np.int64)
    counted = 0
    for slot in slots:
        hit = np.zeros(st.n, dtype=bool) if slot.counts else None
        found = False
        for (fieldname, term), weight in slot.clauses.items():
            ids, tfs, df = st.postings(fieldname, term)
            if not df:
                continue
            found = True
            scale = weight * ranking.idf(st.n, df) * (k1 + 1)
            norms = st.norms(fieldname, k1, p.bm25_b[fieldname.rsplit("_", 1)[0]])
            acc[ids] += scale * tfs / (tfs + norms[ids])  # a term's postings name each document once
            if hit is not None:
                hit[ids] = True
        if hit is not None and found:  # a word the index does not hold at all does not count (issue 31)
            matched += hit
            counted += 1
    coord = np.array([ranking.coordination(m, counted, p.coordination) for m in range(counted + 1)])
    docs = np.flatnonzero((acc != 0) & keep)
    return docs, acc[docs] * factor[docs] * coord[matched[docs]]


def factors(st: _Stats, exact: frozenset[str], context: str | None, p: ranking.Params, general: bool = False) -> Any:
    """:func:`ranking.entry_factor` of every document, as an array: the factor depends only on the kind, the game
    and whether the entry is named by the whole query, so it is computed once per such triple (the named case
    asked of a stand-in entry ``""`` listed as exact) and looked up for each document."""
    import numpy as np

    kinds, kind_ix = st.codes["kind"]
    games, game_ix = st.codes["game"]
    table = np.array([[[ranking.entry_factor(k, g, "", frozenset({""}) if is_named else frozenset(), context, p, general)
                        for is_named in (False, True)] for g in games] for k in kinds])
    exact_ix = np.zeros(st.n, dtype=np.int64)
    for e in exact:
        for lang in LANGS:
            if (e, lang) in st.doc_of:
                exact_ix[st.doc_of[(e, lang)]] = 1
    return table[kind_ix, game_ix, exact_ix]


def filters(st: _Stats, game: str | None, kind: str | None, named: frozenset[str] = frozenset()) -> list[Any]:
    """The documents a query may return (not deleted, of the game and kind asked for), as boolean arrays to try
    in turn: first only those of the games the query names (``named``), when it names some, then all."""
    import numpy as np

    keep = st.alive.copy()
    for column, value in (("game", game), ("kind", kind)):
        if value is not None:
            values, ix = st.codes[column]
            keep &= ix == values.index(value) if value in values else False
    if not named:
        return [keep]
    values, ix = st.codes["game"]
    return [keep & np.isin(ix, [values.index(g) for g in named if g in values]), keep]


# ---------------------------------------------------------------- queries


def corrections(s: Any, words: Sequence[str], lang: str | None, p: ranking.Params, vocab: Vocabulary) -> dict[str, str]:
    """Misspelt word → its correction: only words the word list does not know."""
    out: dict[str, str] = {}
    unknown = [w for w in words if len(w) >= p.spell_min_length and not w.isdigit() and not vocab.known(w)]
    if not unknown:
        return out
    said = ranking.query_language(words, vocab.languages) or lang
    order = (said, *(lg for lg in LANGS if lg != said)) if said else LANGS
    for w in unknown:
        folded = fold(w.lower())
        for group in ((order[0],), order[1:]) if said else (order,):
            cands: dict[str, int] = {}
            for lg in group:
                fieldname = f"spell_{lg}"
                for c, freq in _stats(s).near(fieldname, folded, p):
                    cands[c] = cands.get(c, 0) + freq
            ranked = ranking.rank_corrections(folded, cands, p.short_word)
            if ranked:
                out[w] = ranked[0]
                break
    return out


def query(s: Any, text: str, expand: Any, meta: Meta, lang: str | None = None, game: str | None = None,
          kind: str | None = None, limit: int = 10, params: ranking.Params = ranking.DEFAULTS) -> Result:
    """Run a query on an open searcher: words, glossary alternatives and spelling corrections together;
    the nearest indexed words as a last resort. ``params``: the ranking's figures (the caller's)."""
    p = params
    words = ranking.query_words(text, p.question_words)
    if not words or s.doc_count_all() == 0:  # an index of no entries has no columns to read
        return Result(text, (), 0)
    try:
        st = _stats(s)
        ops: Kernels = getattr(st, "kernels", _KERNELS)  # NumPy over Whoosh, or the compact store's plain Python
        vocab = st.words(expand, p, meta.lists, meta.thesaurus)
        fixed = corrections(s, words, lang, p, vocab)
        said = [fixed.get(w, w) for w in words]
        named, general, context = _games(said, game, meta, p)
        exact = frozenset(e for key in ranking.name_keys(" ".join(said), meta.game_words) for e in meta.names.get(key, ()))
        factor = ops.factors(st, exact, context, p, general)
        searched = ranking.searched_words(words, said, meta.context, meta.game_words, named,
                                          p.general_words if general else frozenset())
        words, said = [words[i] for i in searched], [said[i] for i in searched]  # the words naming the games are not searched
        slots = plan(words, fixed, expand.alternatives(" ".join(ranking.query_tokens(text))), p, vocab)  # names keep their "de"
        for keep in ops.filters(st, game, kind, named):  # the games named, then (nothing of theirs matched) every game
            docs, values = ops.score(s, slots, factor, keep, p)
            if len(docs):
                break
        fuzzy = False
        if not len(docs):
            near = _nearest(s, words, p)
            if near:
                docs, values = ops.score(s, plan(words, near, (), p, vocab), factor, keep, p)
                fuzzy = bool(len(docs))
        did_you_mean = ranking.did_you_mean(text, fixed, p.shown_min_length)
        terms = {lg: frozenset(t for w in said for t in vocab.terms(w, lg)) for lg in LANGS}
        stems = {lg: terms[lg] | frozenset(fold(w) for w in said if len(w) > 2 and fold(w) not in _STOP) for lg in LANGS}
        values = ops.proximity(st, docs, values, said, p, vocab)
        shown = lang or ranking.query_language(said, vocab.languages) or "es"  # no language asked: the query's own
        result: Result = ops.collect(st, text, docs, values, shown, limit, did_you_mean, fuzzy, Marks(terms, stems), context,
                                     p.passage_weights)
        return result
    except SearchError:
        raise
    except Exception as exc:  # a damaged index surfaces here: the caller rebuilds
        if type(exc).__module__.startswith("whoosh") or isinstance(exc, (OSError, EOFError, ValueError, KeyError)):
            raise SearchError(f"{type(exc).__name__}: {exc}") from exc
        raise


def _games(said: Sequence[str], game: str | None, meta: Meta, p: ranking.Params) -> tuple[frozenset[str], bool, str | None]:
    """What the query's words (``said``: as corrected, "malifux" read as "malifaux") say of the games, with no ``game``
    filter: the games it names (:func:`ranking.named_games`), whether it speaks of games in general
    (:func:`ranking.speaks_generally`, "... en los juegos": only when it names none) and its game context
    (:func:`ranking.game_context`, none for a general query)."""
    if game:
        return frozenset(), False, None
    named = ranking.named_games(said, meta.context, meta.game_words)
    general = not named and ranking.speaks_generally(said, p.general_words)
    return named, general, None if general else ranking.game_context(said, meta.context, named)


_NO_POSITIONS: frozenset[int] = frozenset()


def _positions(st: _Stats, field: str, term: str, doc: int) -> frozenset[int]:
    """The positions of ``term`` in ``doc``'s ``field`` (empty when it is not there); a term's positions are read
    once, for every document, and kept while the searcher is open."""
    key = (field, term)
    table = st.positions.get(key)
    if table is None:
        table = st.positions[key] = ({d: frozenset(v) for d, v in st.reader.postings(field, term).items_as("positions")}
                                     if st.reader.doc_frequency(field, term) else {})
    return table.get(doc, _NO_POSITIONS)


def proximity(st: _Stats, docs: Any, values: Any, said: Sequence[str], p: ranking.Params, vocab: Vocabulary) -> Any:
    """The second stage (issue 31): the best :attr:`ranking.Params.proximity_depth` documents (score, then document
    number) times :func:`stage_factor`."""
    import numpy as np

    if not (p.proximity_boost or p.coverage_boost) or not len(docs):
        return values
    langs, lang_ix = st.codes["lang"]
    terms = stage_terms(said, vocab)
    values = values.copy()
    for i in np.lexsort((docs, -values))[:p.proximity_depth]:
        doc = int(docs[i])
        lg = langs[lang_ix[doc]]
        values[i] *= stage_factor(partial(_doc_positions, st, doc), terms[lg], lg, p)
    return values


def _doc_positions(st: _Stats, doc: int, field: str, term: str) -> frozenset[int]:
    return _positions(st, field, term, doc)


def stage_terms(said: Sequence[str], vocab: Vocabulary) -> dict[str, list[tuple[str, ...]]]:
    """Per language, the terms of each of the query's words that has some (the word list's), in order."""
    return {lg: [t for t in (vocab.terms(w, lg) for w in said) if t] for lg in LANGS}


def stage_factor(positions: Callable[[str, str], frozenset[int]], terms: Sequence[Sequence[str]], lg: str,
                 p: ranking.Params) -> float:
    """The second stage's multiplier of one document of language ``lg`` (``positions(field, term)``: the term's
    positions in it; ``terms``: :func:`stage_terms` of ``lg``): :func:`ranking.proximity_factor`, the share of the
    query's word pairs (:func:`ranking.word_pairs`) that stand side by side in one of its fields, times
    :func:`ranking.coverage_factor`, the most of the query's words one of :attr:`ranking.Params.coverage_fields` holds."""
    pairs = ranking.word_pairs(terms)
    near = sum(1 for a, b in pairs if any(_adjacent(positions, f"{name}_{lg}", a, b) for name in ranking.FIELDS))
    held = max((sum(1 for t in terms if any(positions(f"{name}_{lg}", x) for x in t)) for name in p.coverage_fields),
               default=0)
    return (ranking.proximity_factor(near, len(pairs), p.proximity_boost)
            * ranking.coverage_factor(held, len(terms), p.coverage_boost))


def _adjacent(positions: Callable[[str, str], frozenset[int]], field: str, a: str, b: str) -> bool:
    first = positions(field, a)
    return bool(first and {x + 1 for x in first} & positions(field, b))


def _nearest(s: Any, words: Sequence[str], p: ranking.Params) -> dict[str, str]:
    """The last resort when nothing matched: the nearest indexed word of each word, in either language."""
    out: dict[str, str] = {}
    for w in words:
        folded = fold(w.lower())
        if len(folded) < p.fuzzy_min_length:
            continue
        cands: dict[str, int] = {}
        for lg in LANGS:
            for c, freq in _stats(s).near(f"spell_{lg}", folded, p):
                cands[c] = cands.get(c, 0) + freq
        ranked = ranking.rank_corrections(folded, cands, p.short_word)
        if ranked:
            out[w] = ranked[0]
    return out


@dataclass(frozen=True)
class Marks:
    """What of the query a hit's text is searched for, per language: ``terms``, the query's analysed words
    (they choose the passage); ``stems``, those and the folded words as typed (they are marked)."""

    terms: Mapping[str, frozenset[str]]
    stems: Mapping[str, frozenset[str]]


def best_passage(st: _Stats, items: Sequence[Sequence[Any]], terms: frozenset[str], lang: str,
                 sections: Mapping[str, float]) -> Passage | None:
    """The passage (``[anchor, text, terms]`` as stored) holding the most of the query's analysed ``terms``, each
    weighed by its IDF in the language's body field, times its section's weight (``sections``,
    :func:`ranking.best_passage`); ties to the first in reading order (the summary comes first); none matching: the
    first."""
    if not items:
        return None
    weights = {t: ranking.idf(st.n, st.reader.doc_frequency(f"body_{lang}", t)) for t in terms}
    best = ranking.best_passage([(item[0], set(item[2])) for item in items], weights, sections)
    return Passage(items[best][0], items[best][1])


def _snippet(text: str, stems: frozenset[str], width: int = 160) -> str:
    """A passage of ``text`` around the most matched words, each between ``**``.

    A word matches when its folded form starts with a stem of the query (Snowball stems are
    prefixes of the words they come from), so inflections light up without re-analysing the text.
    """
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(stems, key=len, reverse=True))) + r")\w*")
    spans = [m.span() for m in pattern.finditer(fold(text))] if stems else []  # fold keeps positions
    if not spans:
        return text[:width]
    best, best_count = 0, 0
    for i, (start, _) in enumerate(spans):
        count = sum(1 for a, _ in spans[i:] if a < start + width)
        if count > best_count:
            best, best_count = i, count
    begin = max(0, spans[best][0] - 30)
    begin = text.rfind(" ", 0, begin) + 1 if begin else 0  # start on a word
    end = min(len(text), begin + width)
    end = len(text) if end == len(text) else max(text.rfind(" ", begin, end), spans[best][1])
    out, last = [], begin
    for a, b in spans:
        if a >= begin and b <= end:
            out += [text[last:a], "**", text[a:b], "**"]
            last = b
    out.append(text[last:end])
    return ("… " if begin else "") + "".join(out) + (" …" if end < len(text) else "")


def _collect(st: _Stats, text: str, docs: Any, values: Any, want_lang: str | None, limit: int,
             did_you_mean: str | None, fuzzy: bool, marks: Marks, context: str | None,
             sections: Mapping[str, float]) -> Result:
    """One hit per entry (its best document), best first; ties by document number."""
    import numpy as np

    entries, entry_ix = st.codes["entry"]
    games = st.codes["game"][0]
    present = np.zeros(len(entries), dtype=bool)
    present[entry_ix[docs]] = True
    found = np.flatnonzero(present)
    counts = np.bincount(st.entry_game[found], minlength=len(games))
    by_game = {g: int(c) for g, c in zip(games, counts, strict=False) if c}
    want = 2 * limit  # an entry has two documents
    if len(docs) > want:
        floor = np.partition(values, len(values) - want)[len(values) - want]
        top = values >= floor
        docs, values = docs[top], values[top]
    order = np.lexsort((docs, -values))
    best: dict[str, tuple[float, int]] = {}
    for i in order[:want]:
        best.setdefault(entries[entry_ix[docs[i]]], (float(values[i]), int(docs[i])))
    return Result(text, make_hits(st, list(best.values())[:limit], want_lang, marks, sections), len(found), by_game, did_you_mean,
                  fuzzy, context)


def make_hits(st: Any, ranked: Sequence[tuple[float, int]], want_lang: str | None, marks: Marks,
              sections: Mapping[str, float]) -> tuple[Hit, ...]:
    """The hits of the best (score, document) pairs, one per entry, in the reader's language when the entry has it;
    ``sections``: the passages' weights by section (:attr:`ranking.Params.passage_weights`)."""
    lang = want_lang or "es"
    out = []
    for value, doc in ranked:
        stored = st.stored(doc)
        titles = json.loads(stored["titles"])
        doc_lang = stored["lang"]
        if want_lang and doc_lang != want_lang and (stored["entry"], want_lang) in st.doc_of:
            stored = st.stored(st.doc_of[(stored["entry"], want_lang)])  # the reader's language, whichever matched best
            doc_lang = stored["lang"]
        passage = best_passage(st, json.loads(stored.get("passages") or "[]"), marks.terms[doc_lang], doc_lang, sections)
        snippet = _snippet(passage.text if passage else stored.get(f"summary_{doc_lang}") or "", marks.stems[doc_lang])
        out.append(Hit(stored["entry"], stored["game"], stored["kind"], titles.get(lang) or titles["es"], value,
                       re.sub(r"\*{4,}", "**", " ".join(snippet.split())), doc_lang, passage))
    return tuple(out)


@dataclass(frozen=True)
class Kernels:
    """The arithmetic of a query over a store's documents, one implementation per store: NumPy arrays over an open
    Whoosh searcher (:data:`_KERNELS`, here), plain Python over the compact store a query process reads
    (:mod:`kb.search.compact`). Same arguments, same operations in the same order: the same floats, the same hits."""

    factors: Any
    filters: Any
    score: Any
    proximity: Any
    collect: Any


_KERNELS = Kernels(factors, filters, score, proximity, _collect)
