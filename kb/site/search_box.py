"""The site's search box: the engine's exported search data with page URLs and the dialog's words.

The data (:func:`kb.search.export.export`) is written per language as scripts (scripts, not JSON, so
that pages opened from ``file://`` can load them), split (:func:`split`) so that a query parses only
what its words need: the head ``<lang>/kb-search-<lang>.js`` (the entries, the fields' lengths, the
ranking's rules), and beside it parts ``kb-search-<lang>-<part>.js``: the word list in ranges of keys
(``w<n>``), the entries' names in ranges of keys (``n<n>``: the exact name of the query's words), the postings by term (``p<n>``: term id modulo :data:`POSTING_PARTS`), what a result shows of
the entries in ranges of them (``d<n>``: only the hits' are read) and the spelling candidates in ranges of
their first letter (``s<n>``: a misspelt word reads its letter's only). Every page names the head, with a version, in a ``<meta name="kb-search">`` tag
that ``kb-search.js`` reads. Pure apart from asking the knowledge base for its index.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from kb.core.cache import cache_dir, shared_cache_dir
from kb.core.locale import pgettext, plural_forms
from kb.core.model import COMMON, KINDS, LANGS
from kb.core.terms import fold, tokens
from kb.search.export import export, to_script
from kb.site.render import label
from kb.site.structure import entry_url

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["CONTEXT", "COUNT_CONTEXT", "COUNT", "LABEL_KEYS", "search_labels", "SearchData", "search_data", "data_name", "meta_tag", "split"]

WORD_PART = 24_000
"""Bytes (about) of the word list in one words part."""
NAME_PART = 8_000
"""Bytes (about) of the entries' names (``rules.names``) in one names part."""
DOC_PART = 6_000
"""Bytes (about) of what the results show of the entries (:data:`SHOWN`) in one docs part."""
SPELL_PART = 8_000
"""Bytes (about) of the spelling candidates in one spelling part."""
SHOWN = ("title", "url", "summary", "summaryTerms", "passages")
"""What only a result shows of an entry (the ranking reads its id, game and kind): in docs parts, off the head."""
POSTING_PARTS = 32
"""How many postings parts a language's data has."""

CONTEXT = "search"
"""The ``msgctxt`` of the dialog's own words in the site's gettext catalogs (``kb/locale/<lang>/LC_MESSAGES/kb.po``,
:mod:`kb.core.locale`), each asked for by its key as ``msgid``."""
LABEL_KEYS = ("search", "placeholder", "close", "did_you_mean", "no_results", "no_results_hint", "loading", "failed",
              "results", "games", "kinds", "all_games", "all_kinds", "everywhere", "common", "offline", "hint",
              "not_saved", "not_saved_title")
"""The keys of the dialog's words, in the order the page's meta and the data carry them (``not_saved``,
``not_saved_title``: the mark, offline, on a link to a page that is not saved, kb-offline.js, which reads them from the
same meta)."""


COUNT_CONTEXT = "search_count"
"""The ``msgctxt`` of the number of results said to a screen reader (a plural message, so not among :data:`LABEL_KEYS`)."""
COUNT = ("{n} result; Enter opens it.", "{n} results; Enter opens the first.")
"""Its ``msgid`` and ``msgid_plural``."""


def search_labels(lang: str) -> dict[str, str]:
    """The dialog's own words in ``lang`` by key (:data:`LABEL_KEYS`), from the catalog's ``msgctxt "search"``."""
    return {key: pgettext(lang, CONTEXT, key) for key in LABEL_KEYS}


@dataclass(frozen=True)
class SearchData:
    """One language's search data, ready to write."""

    lang: str
    """``es`` or ``en``."""
    scripts: dict[str, str]
    """Each script (the head first) by its path relative to the language's root; each hands its part to ``kb-search.js``."""
    version: str
    """A hash of the scripts: pages ask for this version, and a visit's cached copy is reused only when it matches."""
    one_game: bool = False
    """The site has one game: the dialog offers no game filter and its results do not name the game."""


def data_name(lang: str, part: str = "") -> str:
    """The head's path (or a part's) relative to the language's root."""
    return f"kb-search-{lang}-{part}.js" if part else f"kb-search-{lang}.js"


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _entry_size(key: str, row: list[Any]) -> int:
    """``_size(key) + _size(row)`` for a words entry, counted without encoding it when it is the usual one (a key of
    word characters, a row of whole numbers and nulls: nothing JSON escapes), the same bytes as :func:`_size`."""
    if row and _PLAIN_KEY.fullmatch(key) and all(x is None or type(x) is int for x in row):
        return len(key.encode()) + 2 + 1 + len(row) + sum(4 if x is None else len(str(x)) for x in row)
    return _size(key) + _size(row)


_PLAIN_KEY = re.compile(r"\w+")


def _summary_terms(summary: str, data: dict[str, Any]) -> list[int | None]:
    """The term (body analysis, the data's language) of each word of ``summary``, in order, as the word list
    gives it: what marking a result's line reads, so that it needs no part of the word list."""
    at = 1 + LANGS.index(data["lang"])
    rows = [data["words"].get(fold(w)) or [] for *_, w in tokens(summary)]
    return [row[at] if len(row) > at else None for row in rows]


def split(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The exported data as a head (key ``""``) and parts by name. The head is the data less the word list,
    the postings, the spelling candidates, the terms' text (which the browser never reads), the entries' names
    (``rules.names``, read for the whole query's key) and what a result shows of an entry (:data:`SHOWN`), plus ``parts``: ``words`` the first key of each words part (keys in UTF-16 order, as
    JavaScript compares strings), ``postings`` their count, ``docs`` the first entry (position in ``docs``) of each
    docs part, ``spelling`` the first letter of each spelling part, ``names`` the first key of each names part.
    ``w<n>`` holds ``{"words": {...}}``, ``n<n>`` ``{"names": {...}}`` (a range of ``rules.names``' keys), ``p<n>``
    ``{"postings": {field: rows}}`` for the terms whose id modulo ``postings`` is ``n``, ``d<n>`` ``{"docs": [...]}``
    (:data:`SHOWN` of its entries, in order), ``s<n>`` ``{"spelling": ...}`` (the candidates of its letters). Each
    entry carries ``summaryTerms``, its summary's words' terms (what marks a result's line). The engine joined with
    every part is the engine on ``data``."""
    firsts, words = _word_parts(data["words"])
    keys, names = _names_parts(data["rules"]["names"])
    docs = [{**d, "summaryTerms": _summary_terms(d["summary"], data)} for d in data["docs"]]
    starts, shown = _doc_parts(docs)
    letters, spelling = _spell_parts(data["spelling"], data["rules"]["spelling"]["prefix"])
    head = _head(data, docs)
    head["parts"] = {"words": firsts, "postings": POSTING_PARTS, "docs": starts, "spelling": letters,
                     "names": keys}
    parts: dict[str, dict[str, Any]] = {f"w{n}": {"words": w} for n, w in enumerate(words)}
    parts.update((f"n{n}", {"names": v}) for n, v in enumerate(names))
    parts.update((f"p{n}", {"postings": _postings(data, n)}) for n in range(POSTING_PARTS))
    parts.update((f"d{n}", {"docs": d}) for n, d in enumerate(shown))
    parts.update((f"s{n}", {"spelling": c}) for n, c in enumerate(spelling))
    return {"": head, **parts}


def _head(data: dict[str, Any], docs: list[dict[str, Any]]) -> dict[str, Any]:
    """The head (:func:`split`) but its ``parts``: ``data`` less what the parts hold; ``docs`` its entries, whole."""
    head = _without(data, ("words", "spelling", "terms", "fields", "docs"))
    head["docs"] = [_without(d, SHOWN) for d in docs]
    head["fields"] = [_without(f, ("postings",)) for f in data["fields"]]
    head["rules"] = _without(data["rules"], ("names",))
    return head


def _without(mapping: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if k not in keys}


def _names_parts(names: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """``rules.names`` (read once per query, for its words' key) in ranges of keys of about :data:`NAME_PART` bytes, as
    :func:`_word_parts` cuts the word list: each range's first key, and its names."""
    return _ranges(names, NAME_PART, lambda key, value: _size(key) + _size(value))


def _doc_parts(docs: list[dict[str, Any]]) -> tuple[list[int], list[list[dict[str, Any]]]]:
    """What the results show of the entries (:data:`SHOWN`), in ranges of about :data:`DOC_PART` bytes: each range's
    first entry, and its entries'."""
    starts: list[int] = []
    out: list[list[dict[str, Any]]] = []
    size = DOC_PART
    for i, d in enumerate(docs):
        if size >= DOC_PART:
            starts.append(i)
            out.append([])
            size = 0
        out[-1].append({k: d[k] for k in SHOWN if k in d})
        size += _size(out[-1][-1])
    return starts, out


def _first(word: str) -> str:
    """A candidate's first letter as JavaScript's ``slice(0, 1)`` gives it, or ``""`` past the BMP (not a range's start)."""
    return word[:1] if word[:1] and ord(word[0]) < 0x10000 else ""


def _spell_parts(spelling: dict[str, list[Any]], prefix: int) -> tuple[list[str], list[dict[str, list[Any]]]]:
    """The spelling candidates in ranges of their first letter, about :data:`SPELL_PART` bytes each: each range's first
    letter (``""`` for the first), and its candidates per language. A word's candidates share its first letter
    (``ranking.same_prefix``), so they are all in the range its first letter falls in; with no letter shared
    (``prefix`` 0) every candidate is in one range."""
    rows = sorted(((w, lg, df) for lg, found in spelling.items() for w, df in found), key=lambda r: r[0].encode("utf-16-be"))
    letters: list[str] = [""]
    out: list[dict[str, list[Any]]] = [{lg: [] for lg in spelling}]
    size, last = 0, ""
    for w, lg, df in rows:
        start = _first(w)
        if prefix > 0 and size >= SPELL_PART and start not in ("", last):
            letters.append(start)
            out.append({lg: [] for lg in spelling})
            size = 0
        out[-1][lg].append([w, df])
        size += len(w.encode()) + len(str(df)) + 6
        last = start or last
    return letters, out


def _postings(data: dict[str, Any], n: int) -> dict[str, list[Any]]:
    """Postings part ``n``: per field, the rows of the terms whose id modulo :data:`POSTING_PARTS` is ``n``."""
    return {f["name"]: [row for row in f["postings"] if row[0] % POSTING_PARTS == n] for f in data["fields"]}


def _word_parts(words: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The word list in ranges of keys of about :data:`WORD_PART` bytes: each range's first key, and its words."""
    return _ranges(words, WORD_PART, _entry_size)


def _ranges(table: dict[str, Any], budget: int,
            size: Callable[[str, Any], int]) -> tuple[list[str], list[dict[str, Any]]]:
    """``table`` cut in ranges of keys (in the browser's UTF-16 order) of about ``budget`` bytes by ``size``: each
    range's first key (the first range's is ``""``: every key sorts after it), and its rows."""
    firsts, used = [""], 0
    out: list[dict[str, Any]] = [{}]
    for key in sorted(table, key=lambda k: k.encode("utf-16-be")):
        if used >= budget:
            firsts.append(key)
            out.append({})
            used = 0
        out[-1][key] = table[key]
        used += size(key, table[key]) + 2
    return firsts, out


def _url(kb: "Linked", entry_id: str) -> str | None:
    entry = kb.get(entry_id)
    return entry_url(entry) if entry is not None else None


def kind_words(lang: str) -> dict[str, str]:
    """Each entry kind's word in ``lang``, as the search box's chips show it."""
    return {k: label(k, lang) for k in KINDS}


def search_data(kb: "Linked", reader: Any, lang: str) -> SearchData:
    """Export the engine's search for ``lang``, with URLs relative to the language's root and the dialog's words."""
    labels = search_labels(lang)
    games = {COMMON: labels["common"], **{g: meta.name.best(lang) for g, meta in kb.games.items()}}
    data = export(reader, lang, lambda i: _url(kb, i), games, cache=shared_cache_dir("search-words", kb.cache_base),
                  key=kb.cache_key, segments=cache_dir(kb.root, "search-segments", kb.cache_base))
    data["labels"] = labels
    data["count"] = plural_forms(lang, COUNT_CONTEXT, *COUNT)  # kb-search.js: "39 results; …" (accessibility audit M3)
    data["kinds"] = kind_words(lang)
    scripts = {data_name(lang, name): to_script(lang, part, name) for name, part in split(data).items()}
    digest = hashlib.sha256()
    for path, script in scripts.items():
        digest.update(path.encode() + b"\0" + script.encode())
    return SearchData(lang, scripts, digest.hexdigest()[:12], one_game=len(kb.games) == 1)


def meta_tag(data: SearchData, page_path: str) -> str:
    """The ``<meta>`` that tells a page (at ``page_path`` relative to its language's root) where its search data is."""
    depth = posixpath.dirname(page_path).count("/") + 1 if posixpath.dirname(page_path) else 0
    root = "../" * depth
    labels = search_labels(data.lang)
    content = json.dumps({"lang": data.lang, "root": root, "data": root + data_name(data.lang),
                          "version": data.version, "label": labels["search"],
                          "labels": labels, "one_game": data.one_game},
                         ensure_ascii=False, separators=(",", ":"))
    return f'<meta name="kb-search" content="{html.escape(content, quote=True)}">'
