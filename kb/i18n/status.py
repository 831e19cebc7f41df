"""Translations: source hashes, per-field status, glossary consistency, acknowledging edits."""

from __future__ import annotations

import hashlib
from functools import partial
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from kb.core._yaml import roundtrip_edit
from kb.core.diagnostics import Diagnostic, diag
from kb.link.linker import LINK
from kb.core.model import SOURCE_LANG, TARGET_LANG, DataPath, Entry, Game, Location, Term, Text, field_key, iter_texts
from kb.core.terms import TermIndex, TermMatch, fold, stem, tokens

__all__ = [
    "TARGET",
    "normalise",
    "source_hash",
    "FieldStatus",
    "Owner",
    "owners",
    "field_status",
    "visible_text",
    "visible_map",
    "GlossaryProblem",
    "glossary_problems",
    "glossary_terms",
    "preferred_forms",
    "find_phrase",
    "check_translations",
    "acknowledge",
    "write_hashes",
]

TARGET = TARGET_LANG
"""The translated language."""


def normalise(text: str) -> str:
    """NFC, whitespace collapsed: re-wrapping a paragraph does not make its translation stale."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip()


def source_hash(text: str) -> str:
    """12 hex digits identifying the normalised Spanish a translation was made from."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class FieldStatus:
    """The translation state of one field."""

    entry: str
    """Entry id."""
    field: str
    """Stable field name (``text``, ``sequence.steps[upkeep].title``...)."""
    status: str
    """``missing``, ``stale`` or ``current``."""
    location: Location
    """Where to report the field: its English value, or the text itself while there is none."""
    source: str
    """The Spanish text."""
    translation: str | None
    """The English text, if any (``None`` when absent or blank)."""
    recorded: str | None
    """The hash recorded when the English was made."""
    current: str
    """The hash of the Spanish now."""
    path: DataPath = ()
    """Data path of the text (the mapping holding ``es`` and ``en``) inside the entry."""
    source_location: Location | None = None
    """Where the Spanish value starts."""


Owner = Entry | Game
"""A file whose texts are translated: an entry, or a game's ``game.yaml`` (name, summary, source titles)."""


def owners(entries: Iterable[Entry], games: Mapping[str, Game]) -> list[Owner]:
    """Every entry, each game's file just before the game's first entry (games without entries last)."""
    out: list[Owner] = []
    seen: set[str] = set()
    for entry in entries:
        if entry.game not in seen and entry.game in games:
            out.append(games[entry.game])
        seen.add(entry.game)
        out.append(entry)
    out += [games[g] for g in sorted(games) if g not in seen]
    return out


def _recorded(entry: Owner) -> Mapping[str, Any]:
    block = entry.data.get("i18n")
    hashes = block.get(TARGET) if isinstance(block, dict) else None
    return hashes if isinstance(hashes, dict) else {}


Baseline = Callable[[Path, str, str], "str | None"]
"""``(file, field, English) -> hash of the Spanish that English was written from`` (e.g. from git), or None."""


def field_status(entry: Owner, baseline: Baseline | None = None) -> list[FieldStatus]:
    """Status of every translatable field of ``entry`` (or of a game file), in file order.

    ``missing``: no English (or only blanks); ``current``: the Spanish has not changed since the English
    was made; ``stale``: it has. What the English was made from is the hash recorded in ``i18n.en``
    (``kb i18n ack``); for a field with no recorded hash, ``baseline`` finds it (the Spanish beside the
    English when that English was written, from the file's history), and a field it knows nothing of
    is new, so ``current``: an entry written in both languages at once needs no acknowledgement.
    """
    recorded = _recorded(entry)
    return [_one_status(entry, path, text, recorded, baseline) for path, text in iter_texts(entry.data)]


def _one_status(entry: Owner, path: DataPath, text: Mapping[str, Any], recorded: Mapping[str, Any],
                baseline: Baseline | None) -> FieldStatus:
    """The status of the field at ``path`` (its text mapping ``text``), as :func:`field_status` tells it."""
    name = field_key(entry.data, path)
    now = source_hash(text[SOURCE_LANG])
    had = recorded.get(name)
    had = str(had) if had is not None else None
    en = text.get(TARGET)
    en = en if isinstance(en, str) and en.strip() else None
    if en is None:
        return FieldStatus(entry.id, name, "missing", entry.marks.at(path), text[SOURCE_LANG], None, had, now, path,
                           entry.marks.at(path + (SOURCE_LANG,)))
    made_from = had if had is not None else (baseline(entry.path, name, en) if baseline else None) or now
    return FieldStatus(entry.id, name, "current" if made_from == now else "stale", entry.marks.at(path + (TARGET,)),
                       text[SOURCE_LANG], en, had, now, path, entry.marks.at(path + (SOURCE_LANG,)))


# ---------------------------------------------------------------- glossary consistency


def visible_text(text: str, lang: str, titles: Mapping[str, Text]) -> str:
    """``text`` as a reader sees it: ``{@kind id|shown}`` becomes ``shown``, ``{@kind id}`` the target's title."""
    return visible_map(text, lang, titles)[0]


def visible_map(text: str, lang: str, titles: Mapping[str, Text]) -> tuple[str, list[int]]:
    """:func:`visible_text` and, for each of its characters (and its end), the offset it comes from in ``text``.

    A link's shown text maps to itself inside the link; a title put in for ``{@kind id}`` maps to the link's start.
    """
    parts: list[str] = []
    where: list[int] = []
    pos = 0
    for m in LINK.finditer(text):
        parts.append(text[pos:m.start()])
        where += range(pos, m.start())
        if m["display"] is not None:
            parts.append(m["display"])
            where += range(m.start("display"), m.end("display"))
        else:
            title = titles.get(m["target"])
            shown = title.best(lang) if title is not None else m["target"]
            parts.append(shown)
            where += [m.start()] * len(shown)
        pos = m.end()
    parts.append(text[pos:])
    where += range(pos, len(text) + 1)
    return "".join(parts), where


def glossary_terms(entry: Owner, source: str, terms: TermIndex) -> list[tuple[TermMatch, Term]]:
    """Glossary terms of the entry's game that the Spanish ``source`` names (any inflection), once each."""
    seen: set[str] = set()
    out = []
    for match in terms.detect(source, SOURCE_LANG, entry.game, by_stem=True):
        if match.term in seen or match.term == entry.id:
            continue
        seen.add(match.term)
        out.append((match, terms.terms[match.term]))
    return out


def preferred_forms(term: Term) -> tuple[str, ...]:
    """What the English should say for ``term``: its English forms, or its Spanish wording if not translated."""
    return term.forms.get(SOURCE_LANG if term.do_not_translate else TARGET, ())


def _key(phrase: str, lang: str, by_stem: bool) -> tuple[str, ...]:
    words = [w for *_, w in tokens(fold(phrase))]
    return tuple(stem(w, lang) for w in words) if by_stem else tuple(words)


def find_phrase(text: str, phrase: str, lang: str, by_stem: bool = True) -> str | None:
    """The first place ``text`` says ``phrase`` (whole words, any case or accents; any inflection ``by_stem``)."""
    span = find_span(text, phrase, lang, by_stem)
    return text[span[0]:span[1]] if span else None


def find_span(text: str, phrase: str, lang: str, by_stem: bool = True) -> tuple[int, int] | None:
    """Where :func:`find_phrase` finds ``phrase`` in ``text``: (start, end) offsets."""
    want = _key(phrase, lang, by_stem)
    if not want:
        return None
    toks = tokens(fold(text))
    have = [stem(w, lang) if by_stem else w for *_, w in toks]
    for i in range(len(have) - len(want) + 1):
        if tuple(have[i:i + len(want)]) == want:
            return toks[i][0], toks[i + len(want) - 1][1]
    return None


def _says(english: str, term: Term, terms: TermIndex) -> bool:
    if term.do_not_translate:  # the Spanish wording, as written (no English stemming of Spanish words)
        return any(m.term == term.id for m in terms.detect(english, SOURCE_LANG, term.game)) or \
            any(find_phrase(english, f, TARGET, by_stem=False) for f in preferred_forms(term))
    return any(m.term == term.id for m in terms.detect(english, TARGET, term.game, by_stem=True))


@dataclass(frozen=True)
class GlossaryProblem:
    """English that contradicts (``glossary-forbidden``) or ignores (``glossary-missing``) the glossary."""

    code: str
    """The diagnostic code."""
    offset: int | None
    """Where the offending word starts in the English as written (``None``: nowhere in particular)."""
    params: Mapping[str, str]
    """The diagnostic's message parameters (without ``field``)."""


def glossary_problems(entry: Owner, source: str, english: str, terms: TermIndex,
                      titles: Mapping[str, Text]) -> list[GlossaryProblem]:
    """The English of a text should name each glossary term its Spanish names, the preferred way.

    A forbidden word is reported once where it stands, however many forbidden variants match it.
    """
    spanish = visible_text(source, SOURCE_LANG, titles)
    shown, where = visible_map(english, TARGET, titles)
    out = []
    for match, term in glossary_terms(entry, spanish, terms):
        preferred = preferred_forms(term)
        out += [GlossaryProblem("glossary-forbidden", where[span[0]],
                                {"found": shown[span[0]:span[1]], "term": term.id,
                                 "preferred": preferred[0] if preferred else term.id})
                for span in _forbidden_spans(shown, term, preferred)]
        if preferred and not _says(shown, term, terms):
            out.append(GlossaryProblem("glossary-missing", None, {"term": match.form, "preferred": preferred[0]}))
    return out


def _forbidden_spans(shown: str, term: Term, preferred: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where ``shown`` uses a forbidden English form of ``term``, each place once (overlapping matches dropped)."""
    stems = {_key(p, TARGET, True) for p in preferred}
    spans: list[tuple[int, int]] = []
    for bad in term.forbidden.get(TARGET, ()):
        # a forbidden variant sharing the preferred form's stems is matched exactly, not by stem
        span = find_span(shown, bad, TARGET, by_stem=_key(bad, TARGET, True) not in stems)
        if span and not any(s[0] <= span[0] < s[1] or span[0] <= s[0] < span[1] for s in spans):
            spans.append(span)
    return spans


def _glossary(entry: Owner, st: FieldStatus, terms: TermIndex, titles: Mapping[str, Text]) -> list[Diagnostic]:
    """Glossary problems of a field, located at the offending word (or the English's start)."""
    assert st.translation is not None
    out = []
    for p in glossary_problems(entry, st.source, st.translation, terms, titles):
        where = st.location if p.offset is None else entry.marks.at_offset(st.path + (TARGET,), st.translation, p.offset)
        out.append(diag(p.code, where, field=st.field, **p.params))
    return out


def check_translations(entries: Iterable[Owner], terms: TermIndex, memo: Any = None,
                       baseline: Baseline | None = None, games: Iterable[Game] = ()) -> list[Diagnostic]:
    """Stale English fields, and English that ignores or contradicts the glossary (of entries and game files).

    A forbidden English variant (matched by stem) is an error, ``glossary-forbidden``; an English
    text that does not name a term its Spanish names (in any inflection) is a warning,
    ``glossary-missing``. Links count as the text they show.
    """
    entries = list(entries)
    titles = {e.id: e.title for e in entries}
    out: list[Diagnostic] = []
    for entry in entries + list(games):
        if memo is None:
            out += _entry_translations(entry, terms, titles, baseline)
        else:  # ``memo`` may return the entry's diagnostics from an earlier run (see kb.cache.Memo)
            out += memo("translations", entry, lambda e=entry: _entry_translations(e, terms, titles, baseline))
    return out


def _entry_translations(entry: Owner, terms: TermIndex, titles: Mapping[str, Text],
                        baseline: Baseline | None = None) -> list[Diagnostic]:
    out = []
    for st in field_status(entry, baseline):
        if st.status == "stale":
            out.append(diag("stale-translation", st.location, field=st.field))
        if st.translation is not None:
            out += _glossary(entry, st, terms, titles)
    return out


# ---------------------------------------------------------------- acknowledging


def acknowledge(entries: Iterable[Owner], fields: set[str] | None = None) -> list[Path]:
    """Record the current Spanish hash for every translated field (or only ``fields``); returns files changed.

    Use after writing or reviewing a translation, or after a cosmetic Spanish edit (a typo fix)
    that does not call for a new translation. Comments and key order of the files are kept.
    """
    changed = []
    for entry in entries:
        statuses = field_status(entry)
        wanted = _unrecorded(statuses, fields)
        orphans = _orphans(entry, statuses) if fields is None else []
        if (wanted or orphans) and roundtrip_edit(entry.path, partial(_rewrite, wanted=wanted, orphans=orphans)):
            changed.append(entry.path)
    return changed


def _unrecorded(statuses: list[FieldStatus], fields: set[str] | None) -> dict[str, str]:
    """Field -> current Spanish hash, for the translated fields (of ``fields``, if given) not recorded so."""
    return {st.field: st.current for st in statuses
            if st.translation is not None and (fields is None or st.field in fields) and st.recorded != st.current}


def _orphans(entry: Owner, statuses: list[FieldStatus]) -> list[str]:
    """The recorded hashes of fields that are gone or no longer translated (a full acknowledgement forgets them)."""
    block = entry.data.get("i18n")
    recorded = block.get(TARGET) if isinstance(block, dict) else None
    translated = {st.field for st in statuses if st.translation is not None}
    return [k for k in recorded if k not in translated] if isinstance(recorded, dict) else []


def _rewrite(doc: Any, wanted: Mapping[str, str], orphans: list[str]) -> bool:
    """Record ``wanted`` hashes and forget ``orphans``; True when the document changed."""
    return write_hashes(doc, wanted) | _forget(doc, orphans)


def _forget(doc: Any, names: Iterable[str]) -> bool:
    """Remove ``i18n.en.<name>`` for each of ``names``; True when something was removed."""
    target = (doc.get("i18n") or {}).get(TARGET) if isinstance(doc.get("i18n"), dict) else None
    if not isinstance(target, dict):
        return False
    gone = [n for n in names if n in target]
    for name in gone:
        del target[name]
    return bool(gone)


def write_hashes(doc: Any, hashes: Mapping[str, str]) -> bool:
    """Set ``i18n.en.<field>`` in a round-trip document; returns True when something changed."""
    from ruamel.yaml.comments import CommentedMap

    if not hashes:
        return False
    block = doc.get("i18n")
    if not isinstance(block, dict):
        block = doc["i18n"] = CommentedMap()
    target = block.get(TARGET)
    if not isinstance(target, dict):
        target = block[TARGET] = CommentedMap()
    changed = False
    for name, value in hashes.items():
        if target.get(name) != value:
            target[name] = value
            changed = True
    return changed
