"""The questions a page shows (``questions``) are written as questions, a handful per language, each once.

What players type instead — no accents, no «¿», shorthand — belongs under ``typed``, which search
reads and no page shows (docs/format.md, "Players' questions").
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from kb.core.diagnostics import Diagnostic, diag
from kb.core.model import LANGS, Entry
from kb.core.terms import STOPWORDS, fold, stem, tokens

__all__ = ["MAX_QUESTIONS", "SIMILAR", "form_problem", "question_problems", "same_question", "shown_questions",
           "wordfreq_stamp"]

MAX_QUESTIONS = 5
"""At most this many shown questions per language on one entry."""

SIMILAR = 0.85
"""Two questions whose content words (stemmed, accents and stopwords left out) overlap this much (Jaccard)
are one question asked twice. Measured on the bundled content: at 0.8 «¿Un bosque pantanoso cuánto cuesta?» and
the same with «pesado» (another terrain) meet, so the bar is above it. Rewordings with other words are
left to the reviewer and to the cap of :data:`MAX_QUESTIONS`."""

INTERROGATIVES = {_w.replace("é", "e").replace("ó", "o").replace("á", "a"): _w for _w in
                  "qué cómo cuánto cuánta cuántos cuántas dónde adónde quién quiénes cuál cuáles".split()}
"""Spanish interrogatives that carry an accent when they open a question, by their unaccented spelling
(«cuando» is left out: «¿Cuando cargo, puedo…?» opens with the conjunction, rightly unaccented)."""

_ACCENT_GAIN = 0.7
"""A word written without an accent is a missing accent when its accented spelling is this much more
common (Zipf, i.e. 10 ** 0.7 ≈ 5 times): «despues», «tambien», «linea», «mas»; not «esta», «si», «solo»."""

_ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "n": "ñ"}


def form_problem(question: str, lang: str) -> str | None:
    """What is wrong with the form of a shown question (``None`` when it is well written)."""
    q = question.strip()
    if lang == "es":
        if "¿" not in q:
            return "a Spanish question opens with «¿» (after a leading clause: «Si cargo, ¿puedo…?»)"
        if not q.endswith("?"):
            return "a Spanish question ends with «?»"
        if q.count("¿") != q.count("?"):
            return "each «¿» needs its «?»"
        first = q.lstrip("¿¡ «\"")[:1]
        if first.isalpha() and not first.isupper():
            return "a question begins with a capital letter"
        return _accent_problem(q)
    if not q.endswith("?"):
        return 'an English question ends with "?"'
    first = q.lstrip('"“‘\'(')[:1]
    if first.isalpha() and not first.isupper():
        return "an English question begins with a capital letter"
    return None


def _accent_problem(question: str) -> str | None:
    for start, end, _ in tokens(question):
        word = question[start:end]
        lower = word.lower()
        if lower in INTERROGATIVES and question[:start].rstrip().endswith("¿"):
            right = INTERROGATIVES[lower]
            return f"«{word}» opening a question is «{right.capitalize() if word[0].isupper() else right}»"
        better = _missing_accent(lower)
        if better:
            return f"«{word}» is written «{better}»"
    return None


def wordfreq_stamp() -> str:
    """Sizes and times of ``wordfreq``'s lists of our languages, found without importing it: what the accent check
    (:func:`_missing_accent`) and the search's word list read besides the content, a part of the keys of what is kept
    of them (the linker's per-entry question problems, :mod:`kb.search.words`)."""
    from importlib.util import find_spec

    spec = find_spec("wordfreq")
    data = Path(spec.origin).parent / "data" if spec and spec.origin else None
    if data is None or not data.is_dir():
        return "?"
    names = sorted(n for n in os.listdir(data) if any(n.endswith(f"_{lg}.msgpack.gz") for lg in LANGS))
    return ";".join(f"{n}:{(st := os.stat(data / n)).st_size}:{st.st_mtime_ns}" for n in names)


@lru_cache(maxsize=8192)
def _missing_accent(word: str) -> str | None:
    """The accented spelling of an unaccented Spanish word, when that spelling is far more common."""
    if not word.isalpha() or not word.isascii() or len(word) < 3:
        return None
    from wordfreq import zipf_frequency  # its lists load on first use (0.2 s)

    plain = zipf_frequency(word, "es")
    best, score = None, plain + _ACCENT_GAIN
    for i, c in enumerate(word):
        if c in _ACCENTED:
            variant = word[:i] + _ACCENTED[c] + word[i + 1:]
            f = zipf_frequency(variant, "es")
            if f >= score:
                best, score = variant, f
    return best


def _content_words(question: str, lang: str) -> frozenset[str]:
    stop = STOPWORDS.get(lang, frozenset())
    return frozenset(stem(w, lang) for *_, w in tokens(fold(question)) if w not in stop)


def same_question(a: str, b: str, lang: str) -> bool:
    """True when two questions are one question asked twice (the same content words, or nearly)."""
    wa, wb = _content_words(a, lang), _content_words(b, lang)
    if not wa or not wb:
        return fold(a) == fold(b)
    return len(wa & wb) / len(wa | wb) >= SIMILAR


def shown_questions(entry: Entry, lang: str) -> tuple[str, ...]:
    """What a page lists under "Answers questions like": the entry's well-written questions, each once, at
    most :data:`MAX_QUESTIONS`. An item that reads as a statement («se suman el -4 y el -10») is never
    listed as a question; it is still searched, like ``typed``."""
    out: list[str] = []
    for q in entry.questions(lang):
        if len(out) < MAX_QUESTIONS and form_problem(q, lang) is None and not any(same_question(p, q, lang) for p in out):
            out.append(q.strip())
    return tuple(out)


def question_problems(entries: Iterable[Entry]) -> list[Diagnostic]:
    """Every shown question that is badly written, one too many, or the same as one before it, in the
    entries that keep players' spellings apart (``typed``): an entry without ``typed`` has not been
    split yet, and its pages list only the questions :func:`shown_questions` keeps."""
    out = []
    for e in entries:
        if not isinstance(e.data.get("typed"), dict):
            continue
        for lang in LANGS:
            shown = e.questions(lang)
            if len(shown) > MAX_QUESTIONS:
                out.append(diag("too-many-questions", e.marks.at(("questions", lang, MAX_QUESTIONS)), lang=lang,
                                count=len(shown), limit=MAX_QUESTIONS))
            for i, q in enumerate(shown):
                problem = form_problem(q, lang)
                if problem:
                    out.append(diag("question-form", e.marks.at(("questions", lang, i)), lang=lang, question=q,
                                    problem=problem))
                first = next((p for p in shown[:i] if same_question(p, q, lang)), None)
                if first is not None:
                    out.append(diag("duplicate-question", e.marks.at(("questions", lang, i)), lang=lang, question=q,
                                    first=first))
    return out
