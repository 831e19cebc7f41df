"""The only Whoosh import: the index schema, writing documents and answering queries.

Freshness, documents and storage live in :mod:`kb.index`; this module only speaks Whoosh.
Analysis: Spanish and English Snowball stemming with accents folded *before* stemming (so
``energía`` and ``energia`` meet), case folded; an unstemmed, folded ``raw`` field feeds "did you
mean" and fuzzy matching (fuzzy terms on a stemmed spelling field find nothing).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from whoosh import index as windex
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, FuzzyTerm, Or, Phrase, Term
from whoosh.support.charset import accent_map

from kb.core.terms import fold

__all__ = ["Hit", "Result", "FIELDS", "create", "write", "open_dir", "query", "lexicon_ok", "SearchError"]

_TOKEN = r"\w+(\.?\w+)*"


def _lang(lang: str):
    return RegexTokenizer(_TOKEN) | LowercaseFilter() | CharsetFilter(accent_map) | StopFilter(lang=lang) | StemFilter(lang=lang)


_RAW = RegexTokenizer(_TOKEN) | LowercaseFilter() | CharsetFilter(accent_map)

FIELDS = ("title", "summary", "body")
"""Per-language text fields; each exists as ``<field>_es`` and ``<field>_en``."""
BOOSTS = {"title": 4.0, "aliases": 2.0, "terms": 1.5, "summary": 1.5, "body": 1.0, "gamename": 2.5}
"""Query-time field weights: titles first, then the other language's title and the glossary forms."""
PHRASE_BOOST = 2.0
"""Extra weight when the query's words stand together (within 3 words) in a field."""
MAX_ALTERNATIVES = 8
"""Most glossary alternatives added to one query."""
ALTERNATIVE_BOOST = 0.3
"""Weight of the glossary's other names for what the query says: they help, the player's own words lead."""
KIND_BOOSTS = {"concept": 0.5, "term": 0.75}
"""Document weights: a rule a player asks about outranks the glossary entry of its key word."""
PHRASE_SLOP = 3
"""The query's words count as together when each follows the previous within this many positions."""
ALTERNATIVE_SLOP = 1
"""A glossary alternative of several words counts only with its words side by side."""
CORRECT_MIN = 4
"""Words shorter than this (folded) are never corrected."""
SUGGEST_MAXDIST, SUGGEST_PREFIX = 2, 1
"""Spelling suggestions: at most this many edits, the first letters kept."""


def _schema() -> Schema:
    fields: dict[str, Any] = dict(
        key=ID(stored=True, unique=True), entry=ID(stored=True, sortable=True), game=ID(stored=True, sortable=True),
        kind=ID(stored=True, sortable=True), lang=ID(stored=True, sortable=True), titles=STORED,
        aliases=TEXT(analyzer=_RAW, phrase=True), terms=TEXT(analyzer=_RAW, phrase=True),
        gamename=TEXT(analyzer=_RAW, phrase=True),
        raw=TEXT(analyzer=_RAW, phrase=False, spelling=True),
    )
    for lang in ("es", "en"):
        for name in FIELDS:
            fields[f"{name}_{lang}"] = TEXT(analyzer=_lang(lang), stored=True, phrase=True)
    return Schema(**fields)


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
    """The corrected query, when words were not found and a correction was used."""
    fuzzy: bool = False
    """True when only fuzzy matching found anything."""


def create(path: Path) -> Any:
    """A new, empty index in ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    return windex.create_in(str(path), _schema())


def open_dir(path: Path) -> Any:
    """Open the index in ``path``; :class:`SearchError` when it is missing or unreadable."""
    try:
        return windex.open_dir(str(path))
    except Exception as exc:  # corrupt, truncated or foreign files: rebuild, never serve
        raise SearchError(f"{type(exc).__name__}: {exc}") from exc


def write(ix: Any, docs: Iterable[Mapping[str, Any]], remove_entries: Iterable[str] = (), procs: int = 1) -> int:
    """Delete the documents of ``remove_entries``, add ``docs``, commit; returns documents written."""
    writer = ix.writer(procs=procs, multisegment=procs > 1, limitmb=128) if procs > 1 else ix.writer(timeout=30.0)
    n = 0
    try:
        for entry_id in remove_entries:
            writer.delete_by_term("entry", entry_id)
        for doc in docs:
            writer.add_document(**{**doc, "titles": json.dumps(doc["titles"], ensure_ascii=False),
                                   "_boost": KIND_BOOSTS.get(doc["kind"], 1.0)})
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
            next(iter(s.reader().lexicon("raw")), None)
        return True
    except Exception:
        return False


_PUNCT = re.compile(r"[¿?¡!,;:()\[\]{}<>]+")


def _fields(lang: str | None) -> list[str]:
    langs = (lang,) if lang else ("es", "en")
    return [f"{f}_{lg}" for f in FIELDS for lg in langs] + ["aliases", "terms", "gamename"]


QUESTION_WORDS = frozenset(
    "puedo puede pueden podemos cuanto cuantos cuanta como que cual cuales quien quienes cuando donde hay "
    "can could may does do did how what which who whom when where why is are".split())
"""Words of a player's question that say nothing about the rule ("¿puedo...?", "how does..."): dropped."""


def _content_words(words: list[str]) -> list[str]:
    kept = [w for w in words if fold(w) not in QUESTION_WORDS]
    return kept or words


class _Analysed:
    """The query text analysed once per analyzer (each language's stemmer, the raw folding)."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.cache: dict[tuple[str, str], list[str]] = {}

    def __call__(self, field: str, text: str) -> list[str]:
        lang = field.rsplit("_", 1)[1] if field.startswith(FIELDS) else "raw"
        key = (lang, text)
        if key not in self.cache:
            self.cache[key] = [t.text for t in self.schema[field].analyzer(text, mode="query")]
        return self.cache[key]


def _clauses(analysed: _Analysed, fields: list[str], text: str, boost: float, phrase: bool) -> list[Any]:
    """``text`` in each field: its words (any of them), or the words together within 3 positions."""
    out: list[Any] = []
    for field in fields:
        toks = analysed(field, text)
        weight = boost * BOOSTS[field.split("_")[0]]
        if phrase and len(toks) > 1:
            out.append(Phrase(field, toks, slop=PHRASE_SLOP, boost=weight))
        elif not phrase:
            out += [Term(field, t, boost=weight) for t in dict.fromkeys(toks)]
    return out


def _build(schema: Any, fields: list[str], words: list[str], expand: Any) -> Any:
    """The words in every field; the whole phrase, sloppily, as a bonus; glossary alternatives, lightly."""
    analysed = _Analysed(schema)
    text = " ".join(words)
    parts = _clauses(analysed, fields, text, 1.0, phrase=False)
    if len(words) > 1:
        parts += _clauses(analysed, [f for f in fields if f.startswith(FIELDS)], text, PHRASE_BOOST, phrase=True)
    alt_fields = [f for f in fields if not f.startswith(("summary", "body"))]  # names live in titles and glossary
    for alt in expand.alternatives(text)[:MAX_ALTERNATIVES]:
        for field in alt_fields:
            toks = analysed(field, alt)
            weight = ALTERNATIVE_BOOST * BOOSTS[field.split("_")[0]]
            if len(toks) > 1:
                parts.append(Phrase(field, toks, slop=ALTERNATIVE_SLOP, boost=weight))
            elif toks:
                parts.append(Term(field, toks[0], boost=weight))
    return Or(parts)


def query(ix: Any, text: str, expand: Any, lang: str | None = None, game: str | None = None, kind: str | None = None,
          limit: int = 10) -> Result:
    """Run a query: words and glossary alternatives, then spelling correction, then fuzzy matching as a last resort."""
    words = _content_words(re.findall(r"\w+", _PUNCT.sub(" ", text)))
    if not words:
        return Result(text, (), 0)
    filters = [Term(name, value) for name, value in (("game", game), ("kind", kind), ("lang", lang)) if value]
    flt = And(filters) if len(filters) > 1 else (filters[0] if filters else None)
    fields = _fields(lang)
    try:
        with ix.searcher() as s:
            did_you_mean, fuzzy = None, False
            corrected = _correct(s, words)
            if corrected != words:
                did_you_mean = " ".join(corrected)
            q = _build(s.schema, fields, corrected, expand)
            hits = s.search(q, limit=max(limit * 6, 60), filter=flt)
            if hits.is_empty():
                q = Or([FuzzyTerm("raw", fold(w), maxdist=2 if len(w) > 5 else 1, prefixlength=1) for w in words if len(w) > 2])
                hits = s.search(q, limit=max(limit * 6, 60), filter=flt)
                fuzzy = not hits.is_empty()
            stems = {lg: frozenset(t.text for w in corrected for t in s.schema[f"body_{lg}"].analyzer(w, mode="query"))
                     | frozenset(fold(w) for w in corrected if len(w) > 2) for lg in ("es", "en")}
            return _collect(s, q, flt, text, hits, lang or "es", limit, did_you_mean, fuzzy, stems)
    except SearchError:
        raise
    except Exception as exc:  # a damaged index surfaces here: the caller rebuilds
        if type(exc).__module__.startswith("whoosh") or isinstance(exc, (OSError, EOFError, ValueError, KeyError)):
            raise SearchError(f"{type(exc).__name__}: {exc}") from exc
        raise


def _known(searcher: Any, word: str) -> bool:
    """True when ``word`` (as typed, or as a stem in either language) is in the index."""
    reader = searcher.reader()
    if any(reader.frequency(name, fold(word)) > 0 for name in ("raw", "aliases", "terms", "gamename")):
        return True
    for lang in ("es", "en"):
        name = f"body_{lang}"
        for tok in searcher.schema[name].analyzer(word):
            if any(reader.frequency(f"{f}_{lang}", tok.text) > 0 for f in FIELDS):
                return True
    return False


def _correct(searcher: Any, words: list[str]) -> list[str]:
    out = []
    for w in words:
        folded = fold(w)
        if len(folded) < CORRECT_MIN or _known(searcher, w):
            out.append(w)
            continue
        found = searcher.suggest("raw", folded, limit=1, maxdist=SUGGEST_MAXDIST, prefix=SUGGEST_PREFIX)
        out.append(found[0] if found else w)
    return out


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


def _collect(searcher: Any, q: Any, flt: Any, text: str, hits: Any, lang: str, limit: int,
             did_you_mean: str | None, fuzzy: bool, stems: dict[str, frozenset[str]]) -> Result:
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
        doc_lang = hit["lang"]
        snippet = ""
        for field in (f"summary_{doc_lang}", f"body_{doc_lang}"):
            snippet = _snippet(hit.get(field) or "", stems[doc_lang])
            if "**" in snippet:
                break
        out.append(Hit(hit["entry"], hit["game"], hit["kind"], titles.get(lang) or titles["es"], float(hit.score),
                       re.sub(r"\*{4,}", "**", " ".join(snippet.split())), hit["lang"]))
    return Result(text, tuple(out), len(matched), dict(sorted(by_game.items())), did_you_mean, fuzzy)
