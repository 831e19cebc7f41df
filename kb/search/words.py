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
asks the same questions of the open index, word by word (``kb.search.query.Vocabulary``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from kb.core.model import LANGS
from kb.core.terms import fold

__all__ = ["COMMON", "KEY", "key", "common_words", "real_words", "glossary_words"]

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
    import math

    from wordfreq import get_frequency_dict

    return {lg: frozenset(k for w, f in get_frequency_dict(lg).items() if round(math.log10(f) + 9, 2) >= zipf
                          and KEY.fullmatch(k := key(w))) for lg in LANGS}


def glossary_words(groups: Iterable[Sequence[str]]) -> frozenset[str]:
    """The keys of every word of the glossary's names (``synonyms.json`` groups): a query's alternatives are read
    word by word (:data:`KEY`), in both engines."""
    return frozenset(key(w) for group in groups for phrase in group for w in KEY.findall(phrase))
