"""Glossary terms: folding, lookup of any form, and exact detection in text."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from kb.core.diagnostics import Diagnostic, diag
from kb.core.model import Entry, Term

__all__ = ["STOPWORDS", "fold", "stem", "tokens", "TermMatch", "TermIndex"]

_WORD = re.compile(r"\w+", re.UNICODE)
_STEMMERS = {"es": "spanish", "en": "english"}


# What Snowball may strip from a Spanish word while the word stays the same word: gender, number,
# verb endings and participles. Anything else it strips is derivation ("dispar-ador", "inici-ativa",
# "objet-ivo"): such words meet only their own plural, not every word that shares the stem.
_INFLECTIONS_ES = frozenset(
    "_ o a os as e es s ar er ir an en ado ada ados adas ido ida idos idas ando iendo amos emos imos "
    "aron ieron aba aban abas ia ian ias ara aran iera ieran ase are ere ire".split()) | {""}
STOPWORDS: dict[str, frozenset[str]] = {
    "es": frozenset("a al con de del el en es la las le les lo los mas no o para por que se si sin su sus un una unas unos y ya".split()),
    "en": frozenset("a an and as at be by in is it of on or the to".split()),
}


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """The key under which the inflections of a folded word meet (``trabado``, ``trabadas``, ``trabó``).

    Snowball stems, with two guards against false friends: function words never meet content
    words ("las" is not "láser"), and a Spanish word whose ending is derivational rather than
    inflectional meets only its own plural ("disparador" is not "disparar").
    """
    if word in STOPWORDS.get(lang, ()):
        return "\0" + word
    if lang == "es":
        word = _singular_es(word)
    base: str = _stemmer(_STEMMERS.get(lang, "english")).stemWord(word)
    if lang == "es" and not (word.startswith(base) and word[len(base):] in _INFLECTIONS_ES):
        return word
    return base


def _singular_es(word: str) -> str:
    """Drop a Spanish plural ending: ``lugares`` → ``lugar``, ``trabadas`` → ``trabada``, ``acciones`` → ``accion``."""
    if len(word) > 4 and word.endswith("es") and word[-3] in "nrldzjy":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and word[-2] in "aeiou":
        return word[:-1]
    return word


@lru_cache(maxsize=None)
def _stemmer(name: str) -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer(name)


class _FoldTable(dict[int, str]):
    """``str.translate`` table built on demand: each character to one lowercase, unaccented character."""

    def __missing__(self, code: int) -> str:
        c = chr(code)
        base = unicodedata.normalize("NFD", c)[0].lower()
        self[code] = folded = base if len(base) == 1 else c
        return folded


_FOLD = _FoldTable()


def fold(text: str) -> str:
    """Lowercase and strip accents, keeping every character's position (``Línea`` → ``linea``)."""
    return text.translate(_FOLD)


def tokens(text: str) -> list[tuple[int, int, str]]:
    """Word tokens of ``text`` as (start, end, word)."""
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


@dataclass(frozen=True)
class TermMatch:
    """A term found in a text."""

    term: str
    """The term's entry id."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset after the last character."""
    form: str
    """The text as written."""


class TermIndex:
    """Every form and abbreviation of every term, for lookup and detection."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self.terms = {t.id: t for t in terms}
        # folded token tuple -> term ids, per language; abbreviations keep their case
        self._forms: dict[str, dict[tuple[str, ...], list[str]]] = {}
        self._abbr: dict[str, dict[tuple[str, ...], list[str]]] = {}
        self._stems: dict[str, dict[tuple[str, ...], list[str]]] = {}
        self._any: dict[tuple[str, ...], set[str]] = {}
        self._first: dict[tuple[str, str], frozenset[str]] = {}
        self.longest = 1
        for t in self.terms.values():
            for lang, forms in t.forms.items():
                for form in forms:
                    self._add_form(t.id, lang, form)
            for lang, abbrs in t.abbreviations.items():
                for ab in abbrs:
                    self._add(self._abbr, lang, tuple(w for *_, w in tokens(ab)), t.id)

    def _add_form(self, term: str, lang: str, form: str) -> None:
        """A term's form, by its folded words and by their stems."""
        key = tuple(w for *_, w in tokens(fold(form)))
        if not key:  # a form without a letter or digit names nothing (kb check reports it)
            return
        self._add(self._forms, lang, key, term)
        ids = self._stems.setdefault(lang, {}).setdefault(tuple(stem(w, lang) for w in key), [])
        if term not in ids:
            ids.append(term)

    def _add(self, table: dict[str, dict[tuple[str, ...], list[str]]], lang: str, key: tuple[str, ...], term: str) -> None:
        if not key:
            return
        ids = table.setdefault(lang, {}).setdefault(key, [])
        if term not in ids:
            ids.append(term)
        self._any.setdefault(key if table is self._forms else tuple(fold(k) for k in key), set()).add(term)
        self.longest = max(self.longest, len(key))

    def lookup(self, text: str, lang: str | None = None) -> list[str]:
        """Ids of the terms that ``text`` names, as a form or abbreviation, in any case or accents."""
        key = tuple(w for *_, w in tokens(fold(text)))
        if lang is None:
            return sorted(self._any.get(key, ()))
        found = set(self._forms.get(lang, {}).get(key, ()))
        found |= {t for k, ids in self._abbr.get(lang, {}).items() if tuple(fold(x) for x in k) == key for t in ids}
        return sorted(found)

    def detect(self, text: str, lang: str, game: str | None = None, by_stem: bool = False) -> list[TermMatch]:
        """Terms written in ``text``: whole words only, longest form first, no overlaps.

        Forms match regardless of case and accents (and, ``by_stem``, in any inflection that shares
        their Snowball stems); abbreviations match exactly as written. With ``game``, only that
        game's terms are reported.
        """
        words = _WORD.findall(text)
        fwords = fold(" ".join(words)).split(" ") if words else []  # fold keeps lengths: the words line up
        if by_stem:
            fwords = [stem(w, lang) for w in fwords]
        kind = "stems" if by_stem else "forms"
        forms = (self._stems if by_stem else self._forms).get(lang, {})
        abbr = self._abbr.get(lang, {})
        starts = self._starts(kind, lang, forms), self._starts("abbr", lang, abbr)
        out: list[TermMatch] = []
        spans: list[tuple[int, int]] = []
        i, count = 0, len(words)
        while i < count:
            if fwords[i] not in starts[0] and words[i] not in starts[1]:
                i += 1
                continue
            for n in range(min(self.longest, count - i), 0, -1):
                ids = forms.get(tuple(fwords[i:i + n])) or abbr.get(tuple(words[i:i + n]))
                if game is not None and ids:
                    ids = [t for t in ids if self.terms[t].game == game]
                if ids:
                    spans = spans or [m.span() for m in _WORD.finditer(text)]
                    start, end = spans[i][0], spans[i + n - 1][1]
                    out.extend(TermMatch(t, start, end, text[start:end]) for t in ids)
                    i += n
                    break
            else:
                i += 1
        return out

    def _starts(self, kind: str, lang: str, table: dict[tuple[str, ...], list[str]]) -> frozenset[str]:
        """First words of every key of ``table`` (cached): most words start no term and are skipped at once."""
        found = self._first.get((kind, lang))
        if found is None:
            found = self._first[(kind, lang)] = frozenset(k[0] for k in table)
        return found

    def conflicts(self, entries: dict[str, Entry]) -> list[Diagnostic]:
        """A form or abbreviation claimed by two terms of one game."""
        out = []
        owner: dict[tuple[str, str, tuple[str, ...]], str] = {}
        for t in self.terms.values():
            entry = entries[t.id]
            for block, folded in (("forms", True), ("abbreviations", False)):
                for lang, forms in getattr(t, block).items():
                    for i, form in enumerate(forms):
                        key = (t.game, lang, tuple(w for *_, w in tokens(fold(form) if folded else form)))
                        first = owner.setdefault(key, t.id)
                        if first != t.id:
                            out.append(diag("duplicate-term-form", entry.marks.at(("term", block, lang, i)),
                                            lang=lang, form=form, first=first, second=t.id))
        return out
