"""The word list both search engines read a query's words with: one source, one rule (issue 31, item 4).

A query word counts by its key, :func:`key` (``fold`` of the word: lowercase, accents off). The
Python engine (:mod:`kb.search.query`) and the browser's (``kb-search-engine.js``, on the data of
:mod:`kb.search.export`) know a key by the same rule, over the same data:

- *held*: the key has analysed terms, when it is a word of the index (its ``spell_<lang>`` fields:
  every indexed word as written, folded), a word of the glossary's names (:func:`glossary_words`),
  or one of the :data:`COMMON` most common words of Spanish or English (:func:`common_words`,
  ``wordfreq``) whose stem by either language's analysis some field of that language holds. A key
  not held has no terms at all: "engagment", which Snowball would stem to an indexed stem, is a
  misspelling to correct, in both engines (the browser has no stemmer: the list is the contract);
- *known* (never corrected): held, or a real word of Spanish or English (:func:`real_words`: a
  word of ``wordfreq``'s lists, folded, of Zipf :attr:`kb.search.ranking.Params.real_word_zipf` or
  more);
- its *languages*, the evidence :func:`kb.search.ranking.query_language` counts: the languages it is
  a real word of.

The exporter writes every known key with its languages and, when held, its terms; the Python engine
asks the same questions of the open index, word by word (``kb.search.query.Vocabulary``), and of
:class:`Lists`: ``wordfreq``'s two lists as these rules read them, written once per index generation
in a compact file (:func:`write_lists`, ``words.txt``) so that a query process never loads
``wordfreq`` (its whole lists take 0.3–1.7 s to read, on a query's first word the index lacks).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from kb.core.model import LANGS
from kb.core.questions import wordfreq_stamp
from kb.core.terms import fold

__all__ = ["COMMON", "KEY", "key", "common_words", "real_words", "glossary_words", "Lists", "write_lists", "stamp"]

COMMON = 100000
"""How many of each language's most common words (``wordfreq``) the list draws on."""
KEY = re.compile(r"\w+")
"""A query word (``ranking.query_tokens``): the keys of the list are such words, folded."""


def key(word: str) -> str:
    """The list's key of a query word."""
    return fold(word.lower())


@lru_cache(maxsize=2)
def common_words(limit: int = COMMON) -> Mapping[str, frozenset[str]]:
    """Per language, the folded keys of its ``limit`` most common words (``wordfreq``'s list, imported only here)."""
    from wordfreq import top_n_list

    return {lg: frozenset(k for k in map(key, top_n_list(lg, limit)) if KEY.fullmatch(k)) for lg in LANGS}


@lru_cache(maxsize=4)
def real_words(zipf: float) -> Mapping[str, frozenset[str]]:
    """Per language, the folded keys of its words of Zipf frequency ``zipf`` or more (``wordfreq``, as its
    ``zipf_frequency`` rounds: two decimals); a key is one when any word folding to it is."""
    return {lg: frozenset(k for k, z in table.items() if z >= zipf) for lg, table in _zipfs().items()}


@lru_cache(maxsize=1)
def _zipfs() -> Mapping[str, Mapping[str, float]]:
    """Per language, each key's Zipf frequency: the highest of the words that fold to it (two decimals)."""
    import math

    from wordfreq import get_frequency_dict

    out: dict[str, dict[str, float]] = {}
    for lg in LANGS:
        table = out[lg] = {}
        for w, f in get_frequency_dict(lg).items():
            if KEY.fullmatch(k := key(w)):
                z = round(math.log10(f) + 9, 2)
                if z > table.get(k, -math.inf):
                    table[k] = z
    return out


class Lists:
    """``wordfreq``'s lists as a query asks them, one key at a time: is it one of the :data:`COMMON` most common words
    of either language, and of which languages is it a real word at a Zipf threshold. Read, on the first question,
    from ``path``, a file of :func:`write_lists` (keys of Zipf ``floor`` or more only: a lower threshold asks
    ``wordfreq``); without one, or when it is missing, damaged or of another ``wordfreq``, from ``wordfreq`` itself:
    the same answers, slower."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._text: bytes | None = None if path else b""
        self.floor = float("inf")

    def _lines(self) -> bytes:
        """The file's rows (its header checked), as bytes: read whole, never decoded (a query asks a few keys)."""
        if self._text is None:
            self._text = b""
            try:
                with open(self.path, "rb") as fh:  # type: ignore[arg-type]
                    head = fh.readline().decode("utf-8").rstrip("\n")
                    rest = fh.read()
                name, floor, common, head_stamp = head.split("\t")
                if name == _HEADER and int(common) == COMMON and head_stamp == stamp() and rest.endswith(b"\n"):
                    self._text, self.floor = rest, float(floor)
            except (OSError, ValueError):
                pass
        return self._text

    def _row(self, k: str) -> list[str] | None:
        """The row of key ``k``, found by bisection (the rows are sorted by key; UTF-8 keeps the order)."""
        text = self._lines()
        if not KEY.fullmatch(k):
            return None
        want = k.encode("utf-8")
        lo, hi = 0, len(text)
        while lo < hi:  # rows starting before lo have smaller keys, rows starting at hi or after have larger or equal
            mid = (lo + hi) // 2
            start = text.rfind(b"\n", 0, mid) + 1
            end = text.find(b"\n", start)
            if text[start:text.find(b"\t", start, end)] < want:
                lo = end + 1
            else:
                hi = start
        if not text.startswith(want + b"\t", lo):
            return None
        return text[lo + len(want) + 1:text.find(b"\n", lo)].decode("utf-8").split("\t")

    def common(self, k: str) -> bool:
        """``k`` is a key of :func:`common_words` of some language."""
        if not self._lines():
            return any(k in common for common in common_words().values())
        row = self._row(k)
        return bool(row and row[-1] == "1")

    def languages(self, k: str, zipf: float) -> list[str]:
        """The languages ``k`` is a key of :func:`real_words` of, at ``zipf``."""
        if not self._lines() or zipf < self.floor:
            return [lg for lg, real in real_words(zipf).items() if k in real]
        row = self._row(k)
        return [lg for lg, z in zip(LANGS, row or (), strict=False) if z and float(z) >= zipf]


def stamp() -> str:
    """Sizes and times of ``wordfreq``'s lists of our languages (:func:`kb.core.questions.wordfreq_stamp`): a new
    ``wordfreq`` makes a file of :func:`write_lists` stale."""
    return wordfreq_stamp()


_HEADER = "kb-words/1"


def write_lists(path: Path, floor: float) -> None:
    """Write the lists :class:`Lists` reads: a line per key of Zipf ``floor`` or more, or common, in either language
    (``key``, its Zipf in each language, or nothing, ``1`` when common), sorted; a header names ``floor``,
    :data:`COMMON` and the ``wordfreq`` files it comes from."""
    from kb.core.files import atomic_write

    atomic_write(path, _lists_file(floor))


@lru_cache(maxsize=2)
def _lists_file(floor: float) -> bytes:
    zipfs, common = _zipfs(), common_words()
    keys = sorted({k for lg in LANGS for k, z in zipfs[lg].items() if z >= floor}.union(*common.values()))
    rows = ["\t".join([k, *(f"{z:.2f}" if (z := zipfs[lg].get(k, -1.0)) >= floor else "" for lg in LANGS),
                        "1" if any(k in common[lg] for lg in LANGS) else ""]) for k in keys]
    return "\n".join([f"{_HEADER}\t{floor!r}\t{COMMON}\t{stamp()}", *rows, ""]).encode()


def glossary_words(groups: Iterable[Sequence[str]]) -> frozenset[str]:
    """The keys of every word of the glossary's names (``synonyms.json`` groups): a query's alternatives are read
    word by word (:data:`KEY`), in both engines."""
    return frozenset(key(w) for group in groups for phrase in group for w in KEY.findall(phrase))
