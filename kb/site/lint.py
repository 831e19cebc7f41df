"""The language lint: a page in one language must not show the other language's generated words or raw ids.

It reads a page's Markdown as a reader sees it: front matter, code (spans and blocks, which a page
shows on purpose, such as an entry id or a source file name), link targets, anchors, hidden search
words and tooltip definitions are taken out first. What is left must hold

- no entry id (``malifaux.engaged``);
- no identifier of the content's data (``guild-guard``, ``melee_ranges_a``, a step id, a value of a
  resolver's input) and, on a Spanish page, no word of the resolvers' vocabulary whose Spanish
  label differs (``hound``, ``walk``): :func:`identifiers` collects them, leaving out words that
  the language's own prose uses (English prose says "close-combat attack", Spanish prose says
  "dice", a verb);
- no interface string of the other language's catalog (``Worked examples`` on a Spanish page).

Text marked as the other language on purpose (``<span lang="en">`` around the English forms of a
term on a Spanish page) is left out, like code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from kb.core.model import Entry, Text, iter_texts
from kb.link.linker import LINK
from kb.view.entry import Step, entry_steps, fact_data

__all__ = ["Finding", "visible_text", "lint_page", "identifiers", "catalog_phrases"]

_FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"(`+)(?:(?!\1).)+\1", re.S)
_HIDDEN = re.compile(r'<div class="kb-folded" hidden>.*?</div>', re.S)
_OTHER_LANG = re.compile(r'<span lang="[a-z]+">.*?</span>', re.S)
_ABBR = re.compile(r"^\*\[[^\]]*\]:.*$", re.M)
_BOX = re.compile(r"^(\s*)(?:!!!|\?\?\?\+?) [\w-]+(?: [\w-]+)*", re.M)  # an admonition's type (its title stays)
_TARGET = re.compile(r"\]\([^)]*\)|\{#[^}]*\}|\{:[^}]*\}|<[^>]*>")
_ENTRY_ID = re.compile(r"(?<![\w/.#-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w/-])")
_WORD = re.compile(r"[\w'’-]+")
_DATUM = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


@dataclass(frozen=True)
class Finding:
    """One word a page should not show."""

    what: str
    """``raw-id``, ``identifier`` or ``other-language``."""
    word: str
    """The word or phrase found."""
    context: str
    """The words around it."""

    def __str__(self) -> str:
        return f"{self.what}: {self.word!r} in “…{self.context}…”"


def visible_text(markdown: str) -> str:
    """What a reader of the page sees, roughly: Markdown without code, link targets, anchors and hidden blocks."""
    text = _FRONT.sub("", markdown)
    text = _HIDDEN.sub(" ", text)
    text = _OTHER_LANG.sub(" ", text)
    text = _ABBR.sub(" ", text)
    text = _BOX.sub(r"\1", text)
    text = _FENCE.sub(" ", text)
    text = _CODE.sub(" ", text)
    text = _TARGET.sub("] ", text)
    return text


def _around(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 40):end + 40].split())


def _whole(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])")


def lint_page(markdown: str, identifiers: Iterable[str] = (), foreign: Iterable[str] = ()) -> list[Finding]:
    """Words ``markdown`` should not show: entry ids, data ``identifiers``, ``foreign`` interface phrases."""
    text = visible_text(markdown)
    found: list[Finding] = []
    for m in _ENTRY_ID.finditer(text):
        found.append(Finding("raw-id", m.group(0), _around(text, m.start(), m.end())))
    wanted = set(identifiers)
    seen: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group(0).strip("-'’")
        if word in wanted and word not in seen:
            seen.add(word)
            found.append(Finding("identifier", word, _around(text, m.start(), m.end())))
    for phrase in sorted(set(foreign)):
        hit = _whole(phrase).search(text)
        if hit:
            found.append(Finding("other-language", phrase, _around(text, hit.start(), hit.end())))
    return found


def _strings(value: Any, keys: bool = True) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if keys:
                yield str(k)
            yield from _strings(v, keys)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, keys)


def identifiers(entries: Iterable[Entry], vocabulary: Mapping[str, Text], lang: str,
                prose_texts: Iterable[str] = (), names: Mapping[str, Text] = {}) -> set[str]:
    """The identifiers a page in ``lang`` must not show: every lower-case word-like string of the
    examples' data, the sequences' step ids and allowed actions and the kind-specific facts, and every
    word of the resolvers' ``vocabulary`` (word -> labels) whose label in ``lang`` differs from it;
    minus the words (in any case) the content's own ``lang`` prose, its terms' forms, ``prose_texts``
    (such as the games' summaries) and the ``lang`` labels use, and ids whose ``names`` in ``lang`` are
    the id itself ("support" is the English name of ``support``). One-letter names are left alone."""
    entries = list(entries)
    found = _data_ids(entries) | _vocabulary_ids(vocabulary, lang)
    used = _used_words(entries, lang, prose_texts) | _label_words(vocabulary, lang)
    same = {w for w, name in names.items() if (name.get(lang) or "").lower() == w.lower()}
    return {w for w in found if w.lower() not in used and w not in same}


def _data_ids(entries: Iterable[Entry]) -> set[str]:
    """The identifier-like strings (lower case, two letters or more) of the entries' data."""
    return {s for e in entries for s in _data_strings(e) if len(s) > 1 and _DATUM.fullmatch(s)}


def _vocabulary_ids(vocabulary: Mapping[str, Text], lang: str) -> set[str]:
    """The resolvers' words whose label in ``lang`` is another word."""
    return {w for w, label in vocabulary.items() if label.get(lang) not in (None, "", w)}


def _label_words(vocabulary: Mapping[str, Text], lang: str) -> set[str]:
    return {w for label in vocabulary.values() for w in _words(label.get(lang) or "")}


def _used_words(entries: Iterable[Entry], lang: str, prose_texts: Iterable[str]) -> set[str]:
    """The words the content's own ``lang`` prose and ``prose_texts`` use."""
    return {w for e in entries for w in _prose_words(e, lang)} | {w for t in prose_texts for w in _words(t)}


def _data_strings(e: Entry) -> Iterator[str]:
    """The strings of an entry's data a reader should never see raw: examples' inputs and outputs (the model's
    :class:`~kb.core.model.Example`), step ids and allowed actions (the view's steps, unworded), the values of
    the kind-specific facts the page shows (:func:`kb.view.entry.fact_data`), a term's forbidden forms."""
    for ex in e.examples:
        yield from (*_strings(ex.given), *_strings(ex.expect))
    yield from _step_strings(e)
    yield from (s for k, v in fact_data(e).items() if k not in ("forms", "abbreviations") for s in _strings(v, keys=False))
    if e.term:  # words a term must never be rendered as (the model's Term.forbidden), in either language
        yield from (w for words in e.term.forbidden.values() for w in words)


def _step_strings(e: Entry) -> Iterator[str]:
    """A sequence's step ids and allowed actions as the content names them."""
    for step in _steps(entry_steps(e, "es")):
        yield step.id
        yield from (span.text for action in step.allows for span in action)


def _prose_words(e: Entry, lang: str) -> set[str]:
    """The words an entry's own ``lang`` prose, its term's forms and its players' names and questions use."""
    texts = [t.get(lang) for _, t in iter_texts(e.data)]
    if e.term:
        texts += list(e.term.forms.get(lang, ())) + list(e.term.abbreviations.get(lang, ()))
    texts += [*e.also_called(lang), *e.questions(lang), *e.typed(lang)]  # players' own words
    return {w for t in texts if isinstance(t, str) for w in _words(t)}


def _words(text: str) -> frozenset[str]:
    return frozenset(w.strip("-'’").lower() for w in _WORD.findall(LINK.sub(" ", text)))


def _steps(steps: Iterable[Step]) -> Iterator[Step]:
    for step in steps:
        yield step
        yield from _steps(step.steps)


def catalog_phrases(mine: dict[str, str], theirs: dict[str, str]) -> set[str]:
    """The other catalog's interface strings worth looking for on a page: those that differ from this
    language's, cut at their ``{fields}``, pieces of two words or more (a lone word such as "no" is shared)."""
    out: set[str] = set()
    for key, text in theirs.items():
        if mine.get(key) == text:
            continue
        for piece in re.split(r"\{[^}]*\}|[:.;()«»“”\"]", text):
            piece = " ".join(piece.split())
            if len(piece.split()) >= 2 and piece not in mine.values():
                out.add(piece)
    return out
