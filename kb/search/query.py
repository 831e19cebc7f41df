"""The only Whoosh import: the index schema, writing documents and answering queries.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from whoosh import index as windex
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, FuzzyTerm, Or, Term
from whoosh.scoring import BM25F
from whoosh.support.charset import accent_map

from kb.core.terms import STOPWORDS, fold
from kb.search import ranking

__all__ = ["Hit", "Result", "Meta", "create", "write", "open_dir", "searcher", "query", "lexicon_ok", "analyse",
           "SearchError", "LANGS"]

LANGS = ("es", "en")
_STOP = STOPWORDS["es"] | STOPWORDS["en"]


def _analyzer(lang: str | None, stop: bool = True) -> Any:
    chain = RegexTokenizer(ranking.TOKEN) | LowercaseFilter() | CharsetFilter(accent_map)
    if lang is None:
        return chain
    if stop:
        chain = chain | StopFilter(lang=lang)
    return chain | StemFilter(lang=lang)


def _schema() -> Schema:
    fields: dict[str, Any] = dict(
        key=ID(stored=True, unique=True), entry=ID(stored=True, sortable=True), game=ID(stored=True, sortable=True),
        kind=ID(stored=True, sortable=True), lang=ID(stored=True, sortable=True), titles=STORED,
    )
    for lang in LANGS:
        for name in ranking.FIELDS:
            stored = name in ("summary", "body")
            fields[f"{name}_{lang}"] = TEXT(analyzer=_analyzer(lang, stop=name != "names"), stored=stored, phrase=False)
        fields[f"spell_{lang}"] = TEXT(analyzer=_analyzer(None), phrase=False)
    return Schema(**fields)


_SCHEMA = _schema()


def analyse(fieldname: str, text: str) -> list[str]:
    """The terms ``text`` gives in ``fieldname`` (e.g. ``title_es``), as a query: the engine's analysis, for exporters."""
    return [t.text for t in _SCHEMA[fieldname].analyzer(text, mode="query")]


class SearchError(Exception):
    """The index cannot be opened or read: the caller rebuilds it."""


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
    """Title in the requested language (Spanish by default)."""
    score: float
    """Relevance score (higher is better; not comparable across queries)."""
    snippet: str
    """A short passage with the matched words between ``**``."""
    lang: str
    """Language of the text that matched best."""

    def to_json(self) -> dict[str, Any]:
        """The hit as JSON-ready data."""
        return {"id": self.id, "game": self.game, "kind": self.kind, "title": self.title,
                "score": round(self.score, 4), "snippet": self.snippet, "lang": self.lang}


@dataclass(frozen=True)
class Result:
    """What a query found."""

    query: str
    """The query as run (after cutting to the length limit)."""
    hits: tuple[Hit, ...]
    """Best entries first, one hit per entry."""
    total: int
    """How many entries are among the best matches (the first ``max(6 × limit, 60)`` documents scored)."""
    by_game: Mapping[str, int] = field(default_factory=dict)
    """Those entries per game. Counting every match would cost a second pass over all of them."""
    did_you_mean: str | None = None
    """The query with misspelt words corrected, when a correction was searched too."""
    fuzzy: bool = False
    """True when only fuzzy matching found anything."""
    context: str | None = None
    """The game the query's own words pointed to (its entries weighed more), when no game filter was given."""


@dataclass(frozen=True)
class Meta:
    """What the ranking needs besides the Whoosh index (written beside it, see :mod:`kb.search.index`)."""

    names: Mapping[str, Sequence[str]]
    """:func:`ranking.name_key` of every name → the entries so named."""
    context: Mapping[str, str]
    """The word → game table of :func:`ranking.context_table`."""


def create(path: Path) -> Any:
    """A new, empty index in ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    return windex.create_in(str(path), _SCHEMA)


def open_dir(path: Path) -> Any:
    """Open the index in ``path``; :class:`SearchError` when it is missing or unreadable."""
    try:
        return windex.open_dir(str(path))
    except Exception as exc:  # corrupt, truncated or foreign files: rebuild, never serve
        raise SearchError(f"{type(exc).__name__}: {exc}") from exc


def write(ix: Any, docs: Iterable[Mapping[str, Any]], remove_entries: Iterable[str] = (), procs: int = 1) -> int:
    """Delete the documents of ``remove_entries``, add ``docs``, commit (merging small segments, never a full
    optimize); returns documents written."""
    writer = ix.writer(procs=procs, multisegment=procs > 1, limitmb=128) if procs > 1 else ix.writer(timeout=30.0)
    n = 0
    try:
        for entry_id in remove_entries:
            writer.delete_by_term("entry", entry_id)
        for doc in docs:
            writer.add_document(**{**doc, "titles": json.dumps(doc["titles"], ensure_ascii=False)})
            n += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
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


class _Factors:
    """Per-entry multipliers of one query (:func:`ranking.entry_factor`), by document number."""

    def __init__(self) -> None:
        self.exact: frozenset[str] = frozenset()
        self.context: str | None = None
        self._columns: Any = weakref.WeakKeyDictionary()

    def columns(self, reader: Any) -> tuple[list[str], list[str], list[str]]:
        cols = self._columns.get(reader)
        if cols is None:
            cols = self._columns[reader] = tuple(list(reader.column_reader(c)) for c in ("entry", "kind", "game"))
        return cols

    def __call__(self, reader: Any, docnum: int) -> float:
        entries, kinds, games = self.columns(reader)
        return ranking.entry_factor(kinds[docnum], games[docnum], entries[docnum], self.exact, self.context)


class _Weighting(BM25F):
    """Whoosh's BM25F with :data:`ranking.BM25_B` per field; each document's summed score is then multiplied
    by its entry's factor (``final``: once per matched document, not once per posting)."""

    use_final = True

    def __init__(self) -> None:
        super().__init__(B=0.75, K1=ranking.BM25_K1,
                         **{f"{name}_{lang}_B": b for name, b in ranking.BM25_B.items() for lang in LANGS})
        self.factors = _Factors()

    def supports_block_quality(self) -> bool:
        return False  # the factor is applied after the sum: block bounds would be wrong

    def final(self, searcher: Any, docnum: int, score: float) -> float:
        return score * self.factors(searcher.reader(), docnum)


def searcher(ix: Any) -> Any:
    """A searcher over ``ix`` with the engine's weighting, to keep open for many queries."""
    return ix.searcher(weighting=_Weighting())


# ---------------------------------------------------------------- queries


def _clauses(words: Sequence[str], weight: float, fields: Sequence[str]) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    text = " ".join(words)
    for name in fields:
        for lang in LANGS:
            fieldname = f"{name}_{lang}"
            for term in analyse(fieldname, text):
                key = (fieldname, term)
                out[key] = max(out.get(key, 0.0), weight * ranking.FIELD_WEIGHTS[name])
    return out


def build(words: Sequence[str], alternatives: Sequence[str], corrections: Sequence[str]) -> Any:
    """The query: every (field, term) once, weighted; Whoosh's array matcher whatever the index size."""
    clauses = _clauses([*words, *corrections], 1.0, ranking.FIELDS)
    for alt in alternatives[:ranking.MAX_ALTERNATIVES]:
        for key, w in _clauses([alt], ranking.ALTERNATIVE_WEIGHT, ("title", "names")).items():
            clauses.setdefault(key, w)
    q = Or([Term(f, t, boost=w) for (f, t), w in clauses.items()])
    q.matcher_type = Or.ARRAY_MATCHER
    return q


def _known(s: Any, word: str) -> bool:
    """True when ``word`` is in the index: as typed (folded), or as a stem in either language."""
    reader = s.reader()
    if any(reader.doc_frequency(f"spell_{lang}", fold(word)) for lang in LANGS):
        return True
    for lang in LANGS:
        stems = analyse(f"body_{lang}", word)
        if any(reader.doc_frequency(f"{name}_{lang}", t) for name in ranking.FIELDS for t in stems):
            return True
    return False


def corrections(s: Any, words: Sequence[str], lang: str | None) -> dict[str, str]:
    """Misspelt word → its correction: only words neither in the index nor words of Spanish or English."""
    out: dict[str, str] = {}
    unknown = [w for w in words if len(w) >= 4 and not w.isdigit() and not _known(s, w)]
    unknown = [w for w in unknown if not ranking.is_known_word(w)]
    if not unknown:
        return out
    said = ranking.query_language(words) or lang
    order = (said, *(lg for lg in LANGS if lg != said)) if said else LANGS
    reader = s.reader()
    for w in unknown:
        folded = fold(w.lower())
        for group in ((order[0],), order[1:]) if said else (order,):
            cands: dict[str, int] = {}
            for lg in group:
                fieldname = f"spell_{lg}"
                for c in reader.terms_within(fieldname, folded, ranking.max_distance(folded) + 1, prefix=1):
                    cands[c] = cands.get(c, 0) + reader.doc_frequency(fieldname, c)
            ranked = ranking.rank_corrections(folded, cands)
            if ranked:
                out[w] = ranked[0]
                break
    return out


def query(s: Any, text: str, expand: Any, meta: Meta, lang: str | None = None, game: str | None = None,
          kind: str | None = None, limit: int = 10) -> Result:
    """Run a query on an open searcher: words, glossary alternatives and spelling corrections together;
    fuzzy matching as a last resort."""
    words = ranking.query_words(text)
    if not words:
        return Result(text, (), 0)
    filters = [Term(name, value) for name, value in (("game", game), ("kind", kind)) if value]
    flt = And(filters) if len(filters) > 1 else (filters[0] if filters else None)
    try:
        fixed = corrections(s, words, lang)
        did_you_mean = " ".join(fixed.get(w, w) for w in words) if fixed else None
        factors: _Factors = s.weighting.factors
        factors.context = None if game else ranking.game_context(words, meta.context)
        factors.exact = frozenset(meta.names.get(ranking.name_key(" ".join(fixed.get(w, w) for w in words)), ()))
        q = build(words, expand.alternatives(" ".join(words)), list(fixed.values()))
        hits = s.search(q, limit=max(limit * 6, 60), filter=flt)
        fuzzy = False
        if hits.is_empty():
            q = Or([FuzzyTerm(f"spell_{lg}", fold(w), maxdist=ranking.max_distance(fold(w)), prefixlength=1)
                    for w in words if len(w) > 2 for lg in LANGS])
            hits = s.search(q, limit=max(limit * 6, 60), filter=flt)
            fuzzy = not hits.is_empty()
        shown = [fixed.get(w, w) for w in words]
        stems = {lg: frozenset(t for w in shown for t in analyse(f"body_{lg}", w))
                 | frozenset(fold(w) for w in shown if len(w) > 2 and fold(w) not in _STOP) for lg in LANGS}
        return _collect(s, text, hits, lang, limit, did_you_mean, fuzzy, stems, factors.context)
    except SearchError:
        raise
    except Exception as exc:  # a damaged index surfaces here: the caller rebuilds
        if type(exc).__module__.startswith("whoosh") or isinstance(exc, (OSError, EOFError, ValueError, KeyError)):
            raise SearchError(f"{type(exc).__name__}: {exc}") from exc
        raise
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


def _collect(searcher: Any, text: str, hits: Any, want_lang: str | None, limit: int, did_you_mean: str | None,
             fuzzy: bool, stems: dict[str, frozenset[str]], context: str | None) -> Result:
    lang = want_lang or "es"
    entries, games = searcher.reader().column_reader("entry"), searcher.reader().column_reader("game")
    best: dict[str, Any] = {}
    for i, (_, docnum) in enumerate(hits.top_n):  # ranked; stored fields are read only for the hits shown
        best.setdefault(entries[docnum], hits[i])
    matched = {entries[d]: games[d] for _, d in hits.top_n}
    by_game: dict[str, int] = {}
    for game in matched.values():
        by_game[game] = by_game.get(game, 0) + 1
    out = []
    for hit in list(best.values())[:limit]:
        titles = json.loads(hit["titles"])
        doc_lang, stored = hit["lang"], hit
        if want_lang and doc_lang != want_lang:  # show the reader's language, whichever document matched best
            stored = searcher.document(key=f"{hit['entry']}|{want_lang}") or hit
            doc_lang = stored["lang"]
        snippet = ""
        for field in (f"summary_{doc_lang}", f"body_{doc_lang}"):
            snippet = _snippet(stored.get(field) or "", stems[doc_lang])
            if "**" in snippet:
                break
        out.append(Hit(hit["entry"], hit["game"], hit["kind"], titles.get(lang) or titles["es"], float(hit.score),
                       re.sub(r"\*{4,}", "**", " ".join(snippet.split())), doc_lang))
    return Result(text, tuple(out), len(matched), dict(sorted(by_game.items())), did_you_mean, fuzzy, context)
