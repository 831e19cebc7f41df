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
from whoosh import highlight
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.qparser import MultifieldParser, OrGroup
from whoosh.query import And, FuzzyTerm, Or, Term
from whoosh.support.charset import accent_map

from .terms import fold

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
ALTERNATIVE_BOOST = 0.3
"""Weight of the glossary's other names for what the query says: they help, the player's own words lead."""
KIND_BOOSTS = {"concept": 0.5, "term": 0.75}
"""Document weights: a rule a player asks about outranks the glossary entry of its key word."""


def _schema() -> Schema:
    fields: dict[str, Any] = dict(
        key=ID(stored=True, unique=True), entry=ID(stored=True), game=ID(stored=True, sortable=True),
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
    """How many entries matched."""
    by_game: Mapping[str, int] = field(default_factory=dict)
    """Matching entries per game."""
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


class _Marks(highlight.Formatter):
    """Matched words between ``**`` in plain text."""

    between = " … "

    def format_token(self, text: str, token: Any, replace: bool = False) -> str:
        return f"**{highlight.get_text(text, token, replace)}**"


_PUNCT = re.compile(r"[¿?¡!,;:()\[\]{}<>]+")


def _fields(lang: str | None) -> list[str]:
    langs = (lang,) if lang else ("es", "en")
    return [f"{f}_{lg}" for f in FIELDS for lg in langs] + ["aliases", "terms", "gamename"]


def _parser(ix: Any, lang: str | None) -> MultifieldParser:
    names = _fields(lang)
    boosts = {n: BOOSTS[n.split("_")[0]] for n in names}
    return MultifieldParser(names, ix.schema, fieldboosts=boosts, group=OrGroup)


QUESTION_WORDS = frozenset(
    "puedo puede pueden podemos cuanto cuantos cuanta como que cual cuales quien quienes cuando donde hay "
    "can could may does do did how what which who whom when where why is are".split())
"""Words of a player's question that say nothing about the rule ("¿puedo...?", "how does..."): dropped."""


def _content_words(words: list[str]) -> list[str]:
    kept = [w for w in words if fold(w) not in QUESTION_WORDS]
    return kept or words


def _build(parser: MultifieldParser, words: list[str], expand: Any) -> Any:
    """The words in every field; the whole phrase, sloppily, as a bonus; glossary alternatives, lightly."""
    text = " ".join(words)
    parts = [parser.parse(text)]
    if len(words) > 1:
        phrase = parser.parse(f'"{text}"~3')
        phrase.boost = PHRASE_BOOST
        parts.append(phrase)
    alternatives = expand.alternatives(text)
    if alternatives:
        alt = parser.parse(" OR ".join(f'"{a}"' for a in alternatives))
        alt.boost = ALTERNATIVE_BOOST
        parts.append(alt)
    return Or(parts)


def query(ix: Any, text: str, expand: Any, lang: str | None = None, game: str | None = None, kind: str | None = None,
          limit: int = 10) -> Result:
    """Run a query: words and glossary alternatives, then spelling correction, then fuzzy matching as a last resort."""
    words = _content_words(re.findall(r"\w+", _PUNCT.sub(" ", text)))
    if not words:
        return Result(text, (), 0)
    filters = [Term(name, value) for name, value in (("game", game), ("kind", kind), ("lang", lang)) if value]
    flt = And(filters) if len(filters) > 1 else (filters[0] if filters else None)
    parser = _parser(ix, lang)
    try:
        with ix.searcher() as s:
            did_you_mean, fuzzy = None, False
            corrected = _correct(s, words)
            if corrected != words:
                did_you_mean = " ".join(corrected)
            hits = s.search(_build(parser, corrected, expand), limit=None, filter=flt)
            if hits.is_empty():
                q = Or([FuzzyTerm("raw", fold(w), maxdist=2 if len(w) > 5 else 1, prefixlength=1) for w in words if len(w) > 2])
                hits = s.search(q, limit=None, filter=flt)
                fuzzy = not hits.is_empty()
            hits.fragmenter = highlight.ContextFragmenter(maxchars=160, surround=50)
            hits.formatter = _Marks()
            return _collect(text, hits, lang or "es", limit, did_you_mean, fuzzy)
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
        if len(folded) < 4 or _known(searcher, w):
            out.append(w)
            continue
        found = searcher.suggest("raw", folded, limit=1, maxdist=2, prefix=1)
        out.append(found[0] if found else w)
    return out


def _collect(text: str, hits: Any, lang: str, limit: int, did_you_mean: str | None, fuzzy: bool) -> Result:
    best: dict[str, Any] = {}
    for hit in hits:
        if hit["entry"] not in best:
            best[hit["entry"]] = hit
    by_game: dict[str, int] = {}
    for hit in best.values():
        by_game[hit["game"]] = by_game.get(hit["game"], 0) + 1
    out = []
    for hit in list(best.values())[:limit]:
        titles = json.loads(hit["titles"])
        doc_lang = hit["lang"]
        snippet = (hit.highlights(f"body_{doc_lang}", top=2) or hit.highlights(f"summary_{doc_lang}", top=1)
                   or (hit.get(f"summary_{doc_lang}") or hit.get(f"body_{doc_lang}") or "")[:160])
        out.append(Hit(hit["entry"], hit["game"], hit["kind"], titles.get(lang) or titles["es"], float(hit.score),
                       re.sub(r"\*{4,}", "**", " ".join(snippet.split())), doc_lang))
    return Result(text, tuple(out), len(best), dict(sorted(by_game.items())), did_you_mean, fuzzy)
