"""Translations: source hashes, per-field status, glossary consistency, acknowledging edits."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ._yaml import roundtrip_edit
from .diagnostics import Diagnostic, diag
from .model import Entry, Location, field_key, iter_texts
from .terms import TermIndex

__all__ = ["source_hash", "FieldStatus", "field_status", "check_translations", "acknowledge", "TARGET"]

TARGET = "en"
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
    """Where the field is."""
    source: str
    """The Spanish text."""
    translation: str | None
    """The English text, if any."""
    recorded: str | None
    """The hash recorded when the English was made."""
    current: str
    """The hash of the Spanish now."""


def field_status(entry: Entry) -> list[FieldStatus]:
    """Status of every translatable field of ``entry``."""
    recorded = ((entry.data.get("i18n") or {}).get(TARGET) or {}) if isinstance(entry.data.get("i18n"), dict) else {}
    out = []
    for path, text in iter_texts(entry.data):
        name = field_key(entry.data, path)
        now = source_hash(text["es"])
        had = recorded.get(name) if isinstance(recorded, dict) else None
        en = text.get(TARGET)
        status = "missing" if not en else ("current" if had == now else "stale")
        out.append(FieldStatus(entry.id, name, status, entry.marks.at(path), text["es"], en, had, now))
    return out


def check_translations(entries: Iterable[Entry], terms: TermIndex) -> list[Diagnostic]:
    """Stale English fields, and English that ignores or contradicts the glossary."""
    out: list[Diagnostic] = []
    for entry in entries:
        for st in field_status(entry):
            if st.status == "stale":
                out.append(diag("stale-translation", st.location, field=st.field))
            if st.translation:
                out += _glossary(entry, st, terms)
    return out


def _glossary(entry: Entry, st: FieldStatus, terms: TermIndex) -> list[Diagnostic]:
    """The English of a field should name each glossary term the Spanish names, the preferred way."""
    out = []
    assert st.translation is not None
    english = {m.term for m in terms.detect(st.translation, TARGET, by_stem=True)}
    seen: set[str] = set()
    for match in terms.detect(st.source, "es", entry.game, by_stem=True):
        term = terms.terms[match.term]
        if term.id in seen or term.id == entry.id:
            continue
        seen.add(term.id)
        preferred = term.forms.get("es", ()) if term.do_not_translate else term.forms.get(TARGET, ())
        for bad in term.forbidden.get(TARGET, ()):
            if re.search(rf"(?<!\w){re.escape(bad)}(?!\w)", st.translation, re.IGNORECASE):
                out.append(diag("glossary-forbidden", st.location, field=st.field, found=bad, term=term.id,
                                preferred=preferred[0] if preferred else term.id))
        if preferred and term.id not in english and not _mentions(st.translation, preferred):
            out.append(diag("glossary-missing", st.location, field=st.field, term=match.form, preferred=preferred[0]))
    return out


def _mentions(text: str, forms: Iterable[str]) -> bool:
    low = text.casefold()
    return any(f.casefold() in low for f in forms)


def acknowledge(entries: Iterable[Entry], fields: set[str] | None = None) -> list[Path]:
    """Record the current Spanish hash for every translated field (or only ``fields``); returns files changed.

    Use after writing or reviewing a translation, or after a cosmetic Spanish edit (a typo fix)
    that does not call for a new translation. Comments and key order of the files are kept.
    """
    changed = []
    for entry in entries:
        wanted = {st.field: st.current for st in field_status(entry)
                  if st.translation and (fields is None or st.field in fields) and st.recorded != st.current}
        if not wanted:
            continue
        if roundtrip_edit(entry.path, lambda doc, w=wanted: _write_hashes(doc, w)):
            changed.append(entry.path)
    return changed


def _write_hashes(doc: Any, hashes: dict[str, str]) -> bool:
    from ruamel.yaml.comments import CommentedMap

    block = doc.get("i18n")
    if block is None:
        block = doc["i18n"] = CommentedMap()
    target = block.get(TARGET)
    if target is None:
        target = block[TARGET] = CommentedMap()
    for name, value in hashes.items():
        target[name] = value
    return True
