"""Gettext PO export and import of the English translations (polib; ruamel round trip on the way back).

One PO entry per translatable field: ``msgctxt`` is ``<entry id>|<field key>``, ``msgid`` the Spanish,
``msgstr`` the English. Extracted comments (``#.``) carry the entry's notes, a translator note and the
glossary terms the Spanish names; ``#:`` the file and line. A stale field is ``fuzzy`` and, when git
still has it, carries the Spanish it was translated from as ``#| msgid``.

In the PO file texts lose the line breaks that end them (a YAML ``|`` block ends with one); the
import puts back the ending the field's YAML style needs.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import polib

from kb.core._yaml import RoundTripError, roundtrip_edit, text_scalar
from kb.core.files import atomic_write
from kb.i18n.status import TARGET, FieldStatus, field_status, glossary_terms, normalise, preferred_forms, source_hash, \
    visible_text, write_hashes
from kb.i18n.history import History
from kb.core.model import SOURCE_LANG, DataPath, Entry, Text

if TYPE_CHECKING:
    from kb.api import KnowledgeBase

__all__ = ["CONTEXT_SEP", "po_text", "build_po", "write_po", "Change", "ImportResult", "import_po", "encoding_problem"]

CONTEXT_SEP = "|"
"""Separates the entry id from the field key in ``msgctxt``."""
FOLD_WIDTH = 100
"""Longest line written when a folded (``>``) English value is replaced."""


def po_text(text: str) -> str:
    """A YAML text as it appears in the PO file: without the line breaks around it."""
    return text.replace("\r\n", "\n").strip("\n")


# ---------------------------------------------------------------- export


def _translator_notes(entry: Entry, st: FieldStatus, kb: "KnowledgeBase", titles: dict[str, Text]) -> list[str]:
    notes = [f"{entry.kind} «{normalise(entry.title.es)}», field '{st.field}'."]
    if "{@" in st.source:
        notes.append("Keep {@kind id} links as they are; translate only the text after '|'.")
    if st.status == "stale" and st.recorded is None:
        notes.append("No review of this translation is recorded: check it against the Spanish, then clear 'fuzzy'.")
    elif st.status == "stale":
        notes.append("The Spanish changed after this translation was made: review it, then clear 'fuzzy'.")
    extra = entry.data.get("notes")
    if isinstance(extra, dict) and isinstance(extra.get(SOURCE_LANG), str) and st.field != "notes":
        notes.append(f"Notes: {normalise(extra[SOURCE_LANG])}")
    for match, term in glossary_terms(entry, visible_text(st.source, SOURCE_LANG, titles), kb.graph.terms):
        if term.do_not_translate:
            line = f"Glossary: {match.form} → keep as written ({term.id}, do not translate)"
        else:
            preferred = preferred_forms(term)
            line = f"Glossary: {match.form} → {preferred[0] if preferred else '?'} ({term.id})"
        forbidden = term.forbidden.get(TARGET, ())
        notes.append(line + (f"; never: {', '.join(forbidden)}" if forbidden else ""))
    return notes


def build_po(kb: "KnowledgeBase", game: str | None = None, history: History | None = None) -> tuple[polib.POFile, Counter[str]]:
    """The PO file of the English translation (of one game, or all), with counts per status.

    The counter holds ``current``, ``stale``, ``missing`` and ``previous`` (stale fields whose old
    Spanish was found in git history).
    """
    po = polib.POFile(wrapwidth=78)
    po.header = "English translation of the rules knowledge base, written by 'kb i18n export'.\n" \
                "Translate msgstr; clear 'fuzzy' when a translation is reviewed; then run 'kb i18n import'."
    po.metadata = {
        "Project-Id-Version": f"kb-rules {game or 'all'}",
        "Report-Msgid-Bugs-To": "",
        "PO-Revision-Date": "",
        "Last-Translator": "",
        "Language-Team": "",
        "Language": TARGET,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": SOURCE_LANG,
        "X-Generator": "kb i18n export",
    }
    counts: Counter[str] = Counter()
    base = kb.root.resolve().parent
    titles = {e.id: e.title for e in kb.entries.values()}
    for entry in kb.entries.values():
        if game is not None and entry.game != game:
            continue
        for st in field_status(entry):
            counts[st.status] += 1
            where = st.source_location or st.location
            try:
                rel = where.path.resolve().relative_to(base).as_posix()
            except ValueError:
                rel = where.path.as_posix()
            item = polib.POEntry(
                msgctxt=f"{entry.id}{CONTEXT_SEP}{st.field}",
                msgid=po_text(st.source),
                msgstr=po_text(st.translation or ""),
                comment="\n".join(_translator_notes(entry, st, kb, titles)),
                occurrences=[(rel, str(where.line))],
            )
            if st.status == "stale":
                item.flags.append("fuzzy")
                old = history.previous(entry.path, st.field, st.recorded) if history is not None else None
                if old is not None and po_text(old) != item.msgid:
                    item.previous_msgid = po_text(old)
                    counts["previous"] += 1
            po.append(item)
    return po, counts


def write_po(po: polib.POFile, path: Path) -> None:
    """Write ``po`` to ``path`` atomically (UTF-8, ending with a newline)."""
    text = str(po)
    atomic_write(path, (text if text.endswith("\n") else text + "\n").encode("utf-8"))


# ---------------------------------------------------------------- import


@dataclass(frozen=True)
class Change:
    """One field the import changed (or would change, in a dry run)."""

    path: Path
    """The entry's file."""
    entry: str
    """Entry id."""
    field: str
    """Field key."""
    action: str
    """``translated`` (new English and hash) or ``reviewed`` (same English, hash of the current Spanish)."""


@dataclass
class ImportResult:
    """What an import did, and what it refused."""

    changes: list[Change] = field(default_factory=list)
    """Fields changed."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(context, reason) of entries not imported: the Spanish changed after export."""
    unknown: list[str] = field(default_factory=list)
    """Contexts that name no entry or field."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Entries left alone: ``empty``, ``fuzzy``, ``unchanged``, ``obsolete``, ``plural``."""
    files: list[Path] = field(default_factory=list)
    """Files written (none in a dry run)."""


@dataclass
class _Plan:
    status: FieldStatus
    english: str | None
    """New English (PO form), or None to only record the hash."""


def import_po(kb: "KnowledgeBase", po: polib.POFile, dry_run: bool = False) -> ImportResult:
    """Write the translated, non-fuzzy entries of ``po`` back into the YAML files.

    An entry whose ``msgid`` differs from the current Spanish (ignoring whitespace, as the hashes
    do) is refused: the Spanish changed after the export. Unchanged entries write nothing, so
    importing an untouched export leaves every file byte-identical.
    """
    result = ImportResult()
    statuses = {(st.entry, st.field): st for e in kb.entries.values() for st in field_status(e)}
    plans: dict[Path, list[_Plan]] = {}
    for item in po:
        context = item.msgctxt or ""
        if item.obsolete:
            result.skipped["obsolete"] += 1
            continue
        if item.msgid_plural:
            result.skipped["plural"] += 1
            continue
        entry_id, sep, name = context.partition(CONTEXT_SEP)
        st = statuses.get((entry_id, name)) if sep else None
        if st is None:
            result.unknown.append(context)
            continue
        if "fuzzy" in item.flags:
            result.skipped["fuzzy"] += 1
            continue
        english = po_text(item.msgstr)
        if not english.strip():
            result.skipped["empty"] += 1
            continue
        bad = _NOT_PRINTABLE.search(english)
        if bad:
            result.refused.append((context, f"line {item.linenum} of the PO file: control character U+{ord(bad.group()):04X} "
                                            "in the translation; remove it"))
            continue
        if source_hash(item.msgid) != st.current:
            result.refused.append((context, "the Spanish changed after the export; export again and translate the new text"))
            continue
        same = st.translation is not None and po_text(st.translation) == english
        if same and st.recorded == st.current:
            result.skipped["unchanged"] += 1
            continue
        path = kb.entries[entry_id].path
        plans.setdefault(path, []).append(_Plan(st, None if same else english))
        result.changes.append(Change(path, entry_id, name, "reviewed" if same else "translated"))
    for path, todo in plans.items():
        if dry_run:
            continue
        moved: list[_Plan] = []
        try:
            if roundtrip_edit(path, _editor(todo, moved), check=_reads_back(todo)):
                result.files.append(path)
        except RoundTripError as exc:  # the file is left as it was
            for plan in todo:
                context = f"{plan.status.entry}{CONTEXT_SEP}{plan.status.field}"
                result.refused.append((context, f"not written: {exc}"))
            done = {(p.status.entry, p.status.field) for p in todo}
            result.changes = [c for c in result.changes if (c.entry, c.field) not in done]
            continue
        for plan in moved:  # the file changed between loading and writing
            context = f"{plan.status.entry}{CONTEXT_SEP}{plan.status.field}"
            result.refused.append((context, "the file changed during the import; run it again"))
            result.changes = [c for c in result.changes if (c.entry, c.field) != (plan.status.entry, plan.status.field)]
    return result


_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
"""What a YAML file cannot hold (its reader refuses it): control characters other than tab and line breaks."""


def _reads_back(todo: list[_Plan]) -> Callable[[Any], str | None]:
    """A check that the file, read back as the engine reads it, holds exactly the imported English."""
    def check(data: Any) -> str | None:
        for plan in todo:
            if plan.english is None:
                continue
            text = _node(data, plan.status.path)
            got = text.get(TARGET) if isinstance(text, dict) else None
            if not isinstance(got, str) or po_text(got) != plan.english:
                return (f"'{plan.status.field}' would read back as {got!r:.60} instead of the translation "
                        f"{plan.english!r:.60}")
        return None

    return check


def encoding_problem(path: Path) -> str | None:
    """Why a PO file cannot be imported as it is (``path:line:col: ...``): it must be UTF-8 and say so."""
    raw = path.read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return f"{path}:{line}:{column}: not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the PO file as UTF-8"
    m = re.search(rb"charset=([A-Za-z0-9._-]+)", raw)
    if m and m.group(1).decode("ascii").lower().replace("_", "-") not in ("utf-8", "utf8"):
        line = raw.count(b"\n", 0, m.start()) + 1
        return (f"{path}:{line}:1: the header says charset={m.group(1).decode('ascii')}, but kb reads and writes "
                "UTF-8 PO files; convert it (msgconv -t UTF-8) and set charset=UTF-8")
    return None


def _editor(todo: list[_Plan], moved: list[_Plan]) -> Callable[[Any], bool]:
    def edit(doc: Any) -> bool:
        hashes = {}
        for plan in todo:
            text = _node(doc, plan.status.path)
            if not isinstance(text, dict) or source_hash(str(text.get(SOURCE_LANG, ""))) != plan.status.current:
                moved.append(plan)
                continue
            if plan.english is not None:
                _set_english(text, plan.english)
            hashes[plan.status.field] = plan.status.current
        write_hashes(doc, hashes)
        return bool(hashes)

    return edit


def _node(doc: Any, path: DataPath) -> Any:
    node = doc
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _set_english(text: Any, english: str) -> None:
    """Put ``english`` in the text mapping, in the style of the English there (else of the Spanish)."""
    from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

    like = text.get(TARGET) if isinstance(text.get(TARGET), str) else text[SOURCE_LANG]
    fa = getattr(text, "fa", None)
    flow = bool(fa.flow_style()) if fa is not None else False
    value: Any
    if isinstance(like, (LiteralScalarString, FoldedScalarString)):
        body = english + ("\n" if like.endswith("\n") else "")
        value = type(like)(body)
        if isinstance(value, FoldedScalarString):
            value.fold_pos = _fold_positions(body)  # type: ignore[attr-defined]
    elif "\n" in english and not flow:
        value = LiteralScalarString(english + "\n")
    elif type(like) is not str and "\n" not in english:  # quoted styles are kept
        value = type(like)(english)
    else:
        value = text_scalar(english)  # quoted when the engine's YAML 1.1 reader would not read it as text
    if TARGET in text:
        text[TARGET] = value
    else:
        keys = list(text)
        text.insert(keys.index(SOURCE_LANG) + 1 if SOURCE_LANG in keys else len(keys), TARGET, value)


def _fold_positions(text: str, width: int = FOLD_WIDTH) -> list[int]:
    """Spaces where a folded scalar may break its lines so that none is longer than ``width``."""
    out: list[int] = []
    start = 0
    for line in text.split("\n"):
        last = None
        begin = start
        for m in re.finditer(r"(?<=\S) (?=\S)", line):
            pos = start + m.start()
            if pos - begin > width and last is not None:
                out.append(last)
                begin = last + 1
            last = pos
        start += len(line) + 1
    return out
