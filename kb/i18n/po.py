"""Gettext PO export and import of the English translations (polib; ruamel round trip on the way back).

One PO message per paragraph or list item of each translatable field (see :mod:`kb.i18n.units`):
``msgctxt`` is ``<entry id>|<field key>`` for a one-paragraph field and ``<entry id>|<field key>|p<n>``
for paragraph ``n`` of a longer one; ``msgid`` is the Spanish paragraph unwrapped (the authors' line
breaks become spaces), ``msgstr`` its English. Game files (``game.yaml``: name, summary, source
titles) are exported like entries, with the game's id in place of an entry id. Extracted comments
(``#.``) say which entry and field a message is, carry the entry's notes once (on its first
message) and the glossary terms the paragraph names; ``#:`` gives the file and line. A stale
field's changed paragraphs are ``fuzzy`` and, when git still has the Spanish the English was made
from, carry the old paragraph as ``#| msgid``; the paragraphs that did not change are not fuzzy.

When the English of a field does not have the paragraphs and list items of the Spanish, the field
is one message (``<entry id>|<field key>``) holding the whole text, paragraphs separated by blank
lines, for the translator to bring into line.

Each message also records, in a translator comment ``# kb-en: <hash>``, the content's English when it
was exported: the import writes only the English the translator changed, keeps English others changed
since, and refuses a message both changed (:func:`_verdict`).

The import checks every translated paragraph as ``kb check`` checks content (markup, links, the
glossary): an error refuses the field it belongs to, located in the PO file (line and column of
the word in ``msgstr``), and nothing of that field is written; the rest imports.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timezone
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

import polib

from kb.core._yaml import RoundTripError, roundtrip_edit, text_scalar
from kb.core.diagnostics import CONTROL, ERROR, Diagnostic, diag, printable, visible
from kb.core.files import atomic_write, os_problem
from kb.core.model import SOURCE_LANG, DataPath, Location, Term, Text
from kb.core.validate import is_name
from kb.i18n.checks import check_english
from kb.i18n.history import History
from kb.i18n.status import TARGET, FieldStatus, Owner, field_status, glossary_terms, normalise, owners, \
    preferred_forms, source_hash, visible_text, write_hashes
from kb.i18n.units import Unit, aligned, join, match, split

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["CONTEXT_SEP", "GENERATOR", "ours_to_replace", "unimported", "update_records", "MAX_PO_BYTES", "po_text", "flat", "build_po", "write_po", "Change", "ImportResult", "import_po",
           "msgstr_location", "encoding_problem", "syntax_problem", "string_problem", "unit_labels", "creation_date", "WEBLATE_MARKUP_FLAG"]

CONTEXT_SEP = "|"
"""Separates the entry id, the field key and the paragraph (``p2``) in ``msgctxt``."""
WEBLATE_MARKUP_FLAG = r'placeholders:r"\{@[a-z]+\s[^|}\s]+\|?|\}"'
"""The flag on a message whose Spanish holds ``{@kind id|text}`` links: Weblate's placeholder check
then requires each link's opening (``{@kind id|``) and closing brace in the English, and highlights them."""
FOLD_WIDTH = 100
COMMENT_WIDTH = 75
"""Longest extracted comment line: with its ``#. `` within polib's 78 columns, so polib leaves it whole."""
EXPORTED_MARK = "kb-en:"
"""Starts the translator comment (``# kb-en: 3f2a9c1d2e4b``) recording the hash of the content's English of a message
when it was exported: a translator comment, because msgmerge keeps those of the translator's file and
translate-toolkit, Poedit and Weblate keep them on save. The import writes a message's English only when the
translator changed it (see :func:`_verdict`)."""
"""Longest line written when a folded (``>``) English value is replaced."""


def po_text(text: str) -> str:
    """A YAML text as it appears in the PO file: without the line breaks around it."""
    return text.replace("\r\n", "\n").strip("\n")


def flat(units: Iterable[Unit]) -> str:
    """A whole text as one message: each paragraph and list item unwrapped on its own line, blank lines kept."""
    return "".join(((u.sep if i else "") + u.prefix.strip() + (" " if u.prefix else "") + u.text)
                   for i, u in enumerate(units))


# ---------------------------------------------------------------- export


@dataclass(frozen=True)
class _Message:
    """One message of a field: its context suffix, Spanish, English, and whether it needs review."""

    suffix: str
    msgid: str
    msgstr: str
    fuzzy: bool
    previous: str | None
    part: str
    """``paragraph 2 of 3`` (or ``""`` for a whole field)."""


def _messages(st: FieldStatus, old: str | None) -> list[_Message]:
    """The messages of a field; ``old`` is the Spanish its English was made from, when known."""
    es = split(st.source)
    if st.translation is None:
        return _per_unit(es, [""] * len(es), False)
    en = split(st.translation)
    before = split(old) if old is not None else None
    if st.status == "stale" and before is not None and aligned(before, en):
        return _stale_units(es, en, before)
    if aligned(es, en):  # reviewed unless current
        return _per_unit(es, [u.text for u in en], st.status != "current")
    return [_whole_message(st, es, en, before)]


def _stale_units(es: list[Unit], en: list[Unit], before: list[Unit]) -> list[_Message]:
    """A stale field whose English lines up with the Spanish it was made from: the paragraphs that did not
    change keep their English, the others are fuzzy (with the old paragraph when the counts agree)."""
    same = match(before, es)
    paired = len(before) == len(es)
    strs = [en[i].text if (i := same[j]) is not None else (en[j].text if paired else "") for j in range(len(es))]
    fuzzy = [same[j] is None and bool(strs[j]) for j in range(len(es))]
    prev = [before[j].text if paired and fuzzy[j] and before[j].text != es[j].text else None for j in range(len(es))]
    return _per_unit(es, strs, fuzzy, prev)


def _whole_message(st: FieldStatus, es: list[Unit], en: list[Unit], before: list[Unit] | None) -> _Message:
    """The field as one message: its English does not have the paragraphs of the Spanish."""
    previous = flat(before) if before is not None else None
    whole = flat(es)
    return _Message("", whole, flat(en), st.status == "stale", previous if previous != whole else None, "")


def _per_unit(es: list[Unit], strs: list[str], fuzzy: bool | list[bool],
              prev: list[str | None] | None = None) -> list[_Message]:
    """One message per paragraph (or one for a one-paragraph field); ``fuzzy`` one flag for all or one each."""
    fuzzy = fuzzy if isinstance(fuzzy, list) else [fuzzy] * len(es)
    prev = prev if prev is not None else [None] * len(es)
    if len(es) == 1 and not es[0].prefix:
        return [_Message("", es[0].text, strs[0], fuzzy[0], prev[0], "")]
    parts = unit_labels(es)
    return [_Message(f"{CONTEXT_SEP}p{i + 1}", u.text, strs[i], fuzzy[i], prev[i], parts[i])
            for i, u in enumerate(es)]


def unit_labels(units: list[Unit]) -> list[str]:
    """Each unit's place among its kind: ``paragraph 1 of 2``, ``list item 3 of 5`` (paragraphs and items counted apart)."""
    kinds = ["list item" if u.prefix else "paragraph" for u in units]
    seen: Counter[str] = Counter()
    out = []
    for kind in kinds:
        seen[kind] += 1
        out.append(f"{kind} {seen[kind]} of {kinds.count(kind)}")
    return out


def _translator_notes(owner: Owner, st: FieldStatus, msg: _Message, first: bool, kb: "Linked",
                      titles: dict[str, Text]) -> list[str]:
    """The extracted comments of one message: where it is, how to treat it, the owner's notes (on its first
    message) and the glossary terms it names."""
    where = f", {msg.part}" if msg.part else ""
    notes = [f"{owner.kind} «{normalise(owner.title.es)}», field '{st.field}'{where}."]
    if "{@" in msg.msgid:
        notes.append("Keep {@kind id} links as they are; translate only the text after '|'.")
    notes += _review_notes(st, msg)
    extra = owner.data.get("notes")
    if first and isinstance(extra, dict) and isinstance(extra.get(SOURCE_LANG), str):
        notes.append(f"Notes on this {owner.kind} (for all its fields): {normalise(extra[SOURCE_LANG])}")
    return notes + [_glossary_note(match_.form, term)
                    for match_, term in glossary_terms(owner, visible_text(msg.msgid, SOURCE_LANG, titles),
                                                       kb.graph.terms)]


def _review_notes(st: FieldStatus, msg: _Message) -> list[str]:
    """What a fuzzy message asks of the translator, and the note of a field exported whole."""
    notes = []
    if msg.fuzzy and st.recorded is None:
        notes.append("No review of this translation is recorded: check it against the Spanish, then clear 'fuzzy'.")
    elif msg.fuzzy:
        notes.append("The Spanish changed after this translation was made: review it, then clear 'fuzzy'.")
    if not msg.suffix and len(split(st.source)) > 1:
        notes.append("The English does not have the paragraphs and list items of the Spanish: translate the whole "
                     "text, one paragraph or list item per line, blank lines where the Spanish has them.")
    return notes


def _glossary_note(form: str, term: Term) -> str:
    """``Glossary: <form> → <preferred English> (<term id>)``, with the forms never to use."""
    if term.do_not_translate:
        line = f"Glossary: {form} → keep as written ({term.id}, do not translate)"
    else:
        preferred = preferred_forms(term)
        line = f"Glossary: {form} → {preferred[0] if preferred else '?'} ({term.id})"
    forbidden = term.forbidden.get(TARGET, ())
    return line + (f"; never: {', '.join(forbidden)}" if forbidden else "")


def creation_date(epoch: str | None = None) -> str:
    """``epoch`` (seconds, the adapter's ``SOURCE_DATE_EPOCH`` for reproducible files), else now, as gettext
    writes dates: ``2026-12-01 22:05+0000``."""
    epoch = epoch or ""
    when = datetime.fromtimestamp(int(epoch), timezone.utc) if epoch.isdigit() else datetime.now(timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M+0000")


def build_po(kb: "Linked", game: str | None = None, history: History | None = None,
             template: bool = False, epoch: str | None = None) -> tuple[polib.POFile, Counter[str]]:
    """The PO file of the English translation (of one game, or all), with counts per field status.

    The counter holds ``current``, ``stale``, ``missing`` (fields) and ``previous`` (stale fields
    whose old Spanish was found in git history). ``template``: a POT file, every ``msgstr`` empty
    and nothing fuzzy (for ``msgmerge``), its header without ``Language``. ``epoch``: the creation date, as
    :func:`creation_date` takes it.
    """
    po = _empty_po(game, template, epoch)
    counts: Counter[str] = Counter()
    base = kb.root.resolve().parent
    titles = {e.id: e.title for e in kb.entries.values()}
    for owner in owners(kb.entries.values(), kb.games):
        if game is None or owner.game == game:
            po.extend(_owner_messages(kb, owner, history, template, counts, base, titles))
    return po, counts


def _owner_messages(kb: "Linked", owner: Owner, history: History | None, template: bool, counts: Counter[str],
                    base: Path, titles: dict[str, Text]) -> list[polib.POEntry]:
    """The messages of one entry or game, field by field; each field's status counted in ``counts``."""
    out: list[polib.POEntry] = []
    for st in field_status(owner, history.written_from if history is not None else None):
        counts[st.status] += 1
        old = history.made_from(owner.path, st.field, st.recorded, st.translation) \
            if history is not None and st.status == "stale" else None
        if old is not None and normalise(old) != normalise(st.source):
            counts["previous"] += 1
        es = split(st.source)
        lines = _unit_lines(owner, st, es)
        for msg in _messages(st, old):
            exported = english_now(st, es, _part(msg))
            if template:  # a template says nothing of the English (but records it, for the import's check)
                msg = replace(msg, msgstr="", fuzzy=False, previous=None)
            notes = _translator_notes(owner, st, msg, not out, kb, titles)
            where = lines[_part(msg)] if msg.suffix else lines[0]
            out.append(_po_entry(f"{owner.id}{CONTEXT_SEP}{st.field}", msg, notes,
                                 (_relative(where.path, base), str(where.line)), exported))
    return out


def _unit_lines(owner: Owner, st: FieldStatus, es: list[Unit]) -> list[Location]:
    """Where each paragraph or list item of the Spanish starts in its file (exact in a ``|`` block, near in a folded
    text); the field's place for a field without Spanish location."""
    if st.source_location is None:
        return [st.location] * max(1, len(es))
    out, at = [], 0
    text = st.source.replace("\r\n", "\n")
    for unit in es:
        found = text.find(unit.lines[0], at)
        at = found if found >= 0 else at
        out.append(owner.marks.at_offset(st.path + (SOURCE_LANG,), text, at))
    return out or [st.source_location]


def _part(msg: _Message) -> int:
    """The paragraph index of a message (0 for a field of one message)."""
    return int(msg.suffix[2:]) - 1 if msg.suffix else 0


def _empty_po(game: str | None, template: bool, epoch: str | None) -> polib.POFile:
    """A PO file with our header and metadata, no message yet."""
    po = polib.POFile(wrapwidth=78)
    po.header = "English translation of the rules knowledge base, written by 'kb i18n export'.\n" \
                "Translate msgstr; clear 'fuzzy' when a translation is reviewed; then run 'kb i18n import'."
    po.metadata = {
        "Project-Id-Version": f"kb-rules {game or 'all'}",
        "Report-Msgid-Bugs-To": "",
        "PO-Revision-Date": "",
        "Last-Translator": "",
        "Language-Team": "",
        "POT-Creation-Date": creation_date(epoch),
        **({} if template else {"Language": TARGET}),
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": SOURCE_LANG,
        "X-Generator": GENERATOR,
    }
    return po


def _relative(path: Path, base: Path) -> str:
    """``path`` as the PO file's ``#:`` names it: relative to ``base`` when it is under it."""
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def _po_entry(context: str, msg: _Message, notes: list[str], occurrence: tuple[str, str],
              exported: str) -> polib.POEntry:
    """One message of the PO file, with its flags (Weblate's markup check, ``fuzzy``), previous Spanish and the
    record of the content's English ``exported`` (:data:`EXPORTED_MARK`)."""
    item = polib.POEntry(msgctxt=context + msg.suffix, msgid=msg.msgid, msgstr=msg.msgstr, comment=_wrapped(notes),
                         tcomment=f"{EXPORTED_MARK} {source_hash(exported)}", occurrences=[occurrence])
    if "{@" in msg.msgid:
        item.flags.append(WEBLATE_MARKUP_FLAG)
    if msg.fuzzy:
        item.flags.append("fuzzy")
        if msg.previous is not None:
            item.previous_msgid = msg.previous
    return item


GENERATOR = "kb i18n export"
"""The header's ``X-Generator``: a file with it is one this tool wrote (and may replace when it holds no work)."""


def ours_to_replace(path: Path, new: polib.POFile) -> str | None:
    """Why the existing regular file ``path`` may not be replaced by the export ``new``, or None: it is not a PO file
    of ``kb i18n export``, or it holds a translator's work that is not in the content (:func:`unimported`)."""
    with path.open("rb") as f:
        raw = f.read(MAX_PO_BYTES + 1)
    if f'"X-Generator: {GENERATOR}\\n"'.encode() not in raw[:8192] or len(raw) > MAX_PO_BYTES:
        return f"exists and is not a PO file written by '{GENERATOR}'"
    try:
        old = polib.pofile(raw.decode("utf-8"))
    except (OSError, ValueError):  # polib says a syntax error with OSError; UnicodeDecodeError is a ValueError
        return f"exists and is not a PO file written by '{GENERATOR}' (it does not parse)"
    work = unimported(old, new)
    if not work:
        return None
    return (f"holds {len(work)} translation(s) that are not in the content (the first: {work[0].msgctxt}, line "
            f"{work[0].linenum}): a fresh export would lose them; import it first, or bring it up to date with "
            f"'kb i18n export --template -o X.pot' and 'msgmerge --previous --update {path} X.pot' "
            "(docs/translators.md)")


def unimported(old: polib.POFile, new: polib.POFile) -> list[polib.POEntry]:
    """The live messages of ``old`` (an earlier export) whose English is neither as exported nor the content's now
    (as ``new`` records it): a translator's work not imported yet."""
    now = {e.msgctxt: _exported(e) for e in new}
    return [e for e in old if not e.obsolete and e.msgstr.strip()
            and source_hash(e.msgstr) not in (now.get(e.msgctxt), _exported(e))]


def _wrapped(notes: list[str], width: int = COMMENT_WIDTH) -> str:
    """The extracted comments, each wrapped at spaces only: polib would break a longer line at a hyphen, inside an id
    (``malifaux.projectile-`` / ``attack``), and tools join the lines with a line break."""
    import textwrap

    return "\n".join(line for note in notes
                     for line in textwrap.wrap(note, width, break_long_words=False, break_on_hyphens=False) or [""])


def update_records(path: Path, items: list[polib.POEntry]) -> int:
    """Bring the ``# kb-en:`` records of ``items`` (messages of the PO file ``path`` whose English the import wrote)
    up to date, so that the translator can go on in the same file: a later change of theirs is theirs again, not a
    conflict with their own import. Only those lines change (line endings kept); the file is written atomically.
    Returns how many records were updated."""
    stale = [(item, old) for item in items if (old := _exported(item)) is not None and old != source_hash(item.msgstr)]
    if not stale:
        return 0
    lines = path.read_bytes().splitlines(keepends=True)
    changed = sum(_update_record(lines, item.linenum or 1, old, source_hash(item.msgstr)) for item, old in stale)
    if changed:
        atomic_write(path, b"".join(lines))
    return changed


def _update_record(lines: list[bytes], start: int, old: str, new: str) -> bool:
    """Replace the record ``old`` by ``new`` in the comments of the message starting at line ``start``."""
    mark = f"# {EXPORTED_MARK} {old}".encode()
    for row in range(start - 1, len(lines)):
        if lines[row].startswith((b"msgctxt", b"msgid")):
            return False
        if lines[row].rstrip(b"\r\n") == mark:
            lines[row] = lines[row].replace(old.encode(), new.encode(), 1)
            return True
    return False


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
    """Entry id (or game id)."""
    field: str
    """Field key."""
    action: str
    """``translated`` (new English and hash) or ``reviewed`` (same English, hash of the current Spanish)."""


@dataclass
class ImportResult:
    """What an import did, and what it refused."""

    changes: list[Change] = field(default_factory=list)
    """Fields changed."""
    refused: list[tuple[str, str, int]] = field(default_factory=list)
    """(context, reason, line of the message in the PO file or 0) of messages whose field was not imported."""
    problems: list[tuple[str, Diagnostic]] = field(default_factory=list)
    """(context, problem) found by the checks in imported English, located in the PO file; errors refuse the field."""
    unknown: list[tuple[str, int]] = field(default_factory=list)
    """(context, line) of messages whose context names no entry, field or paragraph."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Fields (or messages) left alone: ``empty``, ``fuzzy``, ``partial``, ``unchanged``, ``obsolete``."""
    skipped_fields: list[tuple[str, str, int]] = field(default_factory=list)
    """(context, reason, line) of each field skipped for a reason other than ``unchanged``: the message holding it
    back (its first fuzzy or empty one...), or the field's context and 0 (``partial``)."""
    conflicts: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Per context refused as a conflict: the whole English of the content and of the file (unwrapped)."""
    files: list[Path] = field(default_factory=list)
    """Files written (none in a dry run)."""
    po_name: str = "FILE.po"
    """The PO file's name, for advice."""
    unrecorded: int = 0
    """Messages written without a ``# kb-en:`` record (a file exported before it, or the line deleted): their English
    was taken as the translator's whatever the content holds now."""
    recorded: list[polib.POEntry] = field(default_factory=list)
    """Messages whose English was written: their ``# kb-en:`` records in the PO file are updated
    (:func:`update_records`)."""


@dataclass
class _Plan:
    status: FieldStatus
    new: dict[int, str] | None
    """New English per paragraph (PO form), or None to only record the hash."""
    whole: str | None = None
    """New English of a field imported as one message whose paragraphs do not line up with the Spanish."""
    messages: tuple[polib.POEntry, ...] = ()
    """The messages whose English it writes: their ``# kb-en:`` records are brought up to date once it is written."""


def _locator(po: polib.POFile) -> Callable[[polib.POEntry, int], Location]:
    """Maps (message, offset in its msgstr) to the line and column in the PO file (the message's line if unknown)."""
    path = Path(po.fpath) if getattr(po, "fpath", None) else Path("<po>")
    try:
        lines = path.read_text(encoding=po.encoding or "utf-8").split("\n")
    except (OSError, UnicodeDecodeError, LookupError):
        lines = []

    tables: dict[int, tuple[polib.POEntry, list[Location], Location]] = {}

    def locate(item: polib.POEntry, offset: int) -> Location:
        if id(item) not in tables:  # one pass over the message, then each offset at once: never quadratic
            tables[id(item)] = (item, *msgstr_positions(path, lines, item))
        _, table, last = tables[id(item)]
        return table[offset] if 0 <= offset < len(table) else last

    return locate


_ESCAPE = re.compile(r'\\(.)|([^\\])')


def msgstr_location(path: Path, lines: list[str], item: polib.POEntry, offset: int) -> Location:
    """Line and column (1-based) in the PO file of character ``offset`` of ``item``'s ``msgstr``."""
    table, last = msgstr_positions(path, lines, item)
    return table[offset] if 0 <= offset < len(table) else last


def msgstr_positions(path: Path, lines: list[str], item: polib.POEntry) -> tuple[list[Location], Location]:
    """The place in the PO file of each character of ``item``'s ``msgstr``, and of its end (one pass)."""
    start = max(0, (item.linenum or 1) - 2)
    row = next((i for i in range(start, len(lines)) if lines[i].startswith("msgstr ")), None)
    if row is None:
        return [], Location(path, item.linenum or 1, 1)
    table: list[Location] = []
    last = Location(path, row + 1, 1)
    for r in _msgstr_rows(lines, row):
        line = lines[r]
        first_quote = line.find('"')
        if first_quote < 0:
            break
        col = first_quote + 1
        body = line[col:line.rfind('"')] if line.rfind('"') > first_quote else ""
        table += [Location(path, r + 1, col + m.start() + 1) for m in _ESCAPE.finditer(body)]
        last = Location(path, r + 1, col + len(body) + 1)
    return table, last


def _msgstr_rows(lines: list[str], row: int) -> list[int]:
    """The rows of the ``msgstr`` starting at ``row``: its own and the string lines (``"…"``) that follow it."""
    rows = [row]
    while rows[-1] + 1 < len(lines) and lines[rows[-1] + 1].startswith('"'):
        rows.append(rows[-1] + 1)
    return rows


def _parse_context(context: str) -> tuple[str, str, int | None] | None:
    """(owner id, field, paragraph index or None) of a msgctxt; None when it is not one of ours."""
    owner, sep, rest = context.partition(CONTEXT_SEP)
    if not sep or not rest:
        return None
    name, sep, part = rest.rpartition(CONTEXT_SEP)
    if sep and re.fullmatch(r"p[1-9][0-9]*", part):
        return owner, name, int(part[1:]) - 1
    return owner, rest, None


def import_po(kb: "Linked", po: polib.POFile, dry_run: bool = False, history: History | None = None) -> ImportResult:
    """Write the translated, non-fuzzy fields of ``po`` back into the YAML files.

    A field is written when every paragraph of it has a translated, non-fuzzy message whose
    ``msgid`` is the current Spanish (ignoring whitespace, as the hashes do) and whose English
    passes the checks of ``kb check``; only the messages the translator changed since the export
    are written (:func:`_verdict`). Unchanged fields write nothing, so importing an untouched
    export leaves every file byte-identical; an unchanged English that was stale has the hash of
    the current Spanish recorded (it was reviewed). ``history`` tells, for English with no recorded
    hash, which Spanish it was written beside (as ``kb i18n status`` does).
    """
    result = ImportResult(po_name=str(po.fpath) if getattr(po, "fpath", None) else "FILE.po")
    every = {o.id: o for o in owners(kb.entries.values(), kb.games)}
    baseline = history.written_from if history is not None else None
    statuses = {(o.id, st.field): st for o in every.values() for st in field_status(o, baseline)}
    groups = _group_messages(po, statuses, result)
    plans = _plan_fields(kb, po, groups, statuses, every, result)
    result.changes.sort(key=lambda c: (str(c.path), c.entry, _field_order(statuses, c)))
    result.unrecorded = _unrecorded(plans)
    if not dry_run:
        for path, todo in plans.items():
            _write_plans(path, todo, result)
    return result


Groups = dict[tuple[str, str], list[tuple[int | None, polib.POEntry]]]


def _group_messages(po: polib.POFile, statuses: dict[tuple[str, str], FieldStatus], result: ImportResult) -> Groups:
    """The live messages of ``po`` by field (paragraph number, message); two messages for one field: neither
    is taken, both are refused with their lines."""
    groups: Groups = {}
    first_at: dict[str, int] = {}
    doubled: set[tuple[str, str]] = set()
    for item in po:
        context = item.msgctxt or ""
        if item.obsolete:
            result.skipped["obsolete"] += 1
        elif context in first_at:  # two messages for one field: neither silently wins
            result.refused.append((context, f"a second message for this field (the first is at line "
                                   f"{first_at[context]}); keep one", item.linenum or 0))
            parsed = _parse_context(context)
            doubled.add((parsed[0], parsed[1]) if parsed else ("", ""))
        else:
            first_at[context] = item.linenum or 0
            _add_message(item, context, statuses, groups, result)
    for key in doubled:
        groups.pop(key, None)
    return groups


def _add_message(item: polib.POEntry, context: str, statuses: dict[tuple[str, str], FieldStatus], groups: Groups,
                 result: ImportResult) -> None:
    """Put a live message in its field's group; a plural is refused, a context naming no field counted instead."""
    if item.msgid_plural:
        result.refused.append((context, "a message with plural forms (msgid_plural, msgstr[n]); a field's English is "
                               "one text: write it as msgid and one msgstr, as exported", item.linenum or 0))
        return
    parsed = _parse_context(context)
    if parsed is None or (parsed[0], parsed[1]) not in statuses:
        result.unknown.append((context, item.linenum or 0))
        return
    groups.setdefault((parsed[0], parsed[1]), []).append((parsed[2], item))


def _plan_fields(kb: "Linked", po: polib.POFile, groups: Groups, statuses: dict[tuple[str, str], FieldStatus],
                 every: dict[str, Any], result: ImportResult) -> dict[Path, list["_Plan"]]:
    """What each file gets: one plan per field whose messages pass the checks; the changes recorded."""
    titles = {e.id: e.title for e in kb.entries.values()}
    locate = _locator(po)
    plans: dict[Path, list[_Plan]] = {}
    for (owner_id, name), items in groups.items():
        st = statuses[(owner_id, name)]
        owner = every[owner_id]
        plan = _plan(owner, st, items, result, lambda item, off: locate(item, off), kb, titles)
        if plan is None:
            continue
        plans.setdefault(owner.path, []).append(plan)
        result.changes.append(Change(owner.path, owner_id, name, "reviewed" if plan.new is None and plan.whole is None
                                     else "translated"))
    return plans


def _write_plans(path: Path, todo: list["_Plan"], result: ImportResult) -> None:
    """One file's plans written in one round-trip edit, or none of them (refused, with the reason)."""
    moved: list[_Plan] = []
    written: dict[Any, str] = {}
    try:
        if roundtrip_edit(path, _editor(todo, moved, written), check=_reads_back(written)):
            result.files.append(path)
    except RoundTripError as exc:  # what would be written does not read back as imported: the file is left as it was
        _not_written(todo, str(exc), result)
        return
    except OSError as exc:  # the disk refused it (full, read-only): the file is left as it was
        _not_written(todo, f"cannot write {os_problem(exc, unnamed=str(path))}", result)
        return
    result.recorded += _written_messages(todo, moved)
    for plan in moved:  # the file changed between loading and writing
        context = f"{plan.status.entry}{CONTEXT_SEP}{plan.status.field}"
        result.refused.append((context, "the file changed during the import; run it again", 0))
        result.changes = [c for c in result.changes if (c.entry, c.field) != (plan.status.entry, plan.status.field)]


def _unrecorded(plans: dict[Path, list[_Plan]]) -> int:
    """How many messages the plans write that carry no record of the English they were exported with."""
    return sum(_exported(item) is None for todo in plans.values() for plan in todo for item in plan.messages)


def _written_messages(todo: list[_Plan], moved: list[_Plan]) -> list[polib.POEntry]:
    """The messages whose English the plans ``todo`` wrote (the ``moved`` ones were not written)."""
    skip = {id(plan) for plan in moved}
    return [item for plan in todo if id(plan) not in skip for item in plan.messages]


def _not_written(todo: list["_Plan"], why: str, result: ImportResult) -> None:
    """Every field of one file refused, with the reason; their changes taken back."""
    done = {(p.status.entry, p.status.field) for p in todo}
    for entry_id, name in sorted(done):
        result.refused.append((f"{entry_id}{CONTEXT_SEP}{name}", f"not written: {why}", 0))
    result.changes = [c for c in result.changes if (c.entry, c.field) not in done]


def _field_order(statuses: dict[tuple[str, str], FieldStatus], change: Change) -> int:
    st = statuses.get((change.entry, change.field))
    return st.source_location.line if st is not None and st.source_location is not None else 0


def _plan(owner: Owner, st: FieldStatus, items: list[tuple[int | None, polib.POEntry]], result: ImportResult,
          locate: Callable[[polib.POEntry, int], Location], kb: "Linked", titles: dict[str, Text]) -> _Plan | None:
    """What to write for one field, or None (the reason is recorded in ``result``)."""
    es = split(st.source)
    whole = [item for part, item in items if part is None]
    single = len(es) == 1 and not es[0].prefix
    if whole and not single:  # the field as one message
        return _plan_whole(owner, st, whole[0], es, result, locate, kb, titles)
    by_part = _by_part(items, len(es), single, result)
    return None if by_part is None else _plan_parts(owner, st, by_part, es, result, locate, kb, titles)


def _by_part(items: list[tuple[int | None, polib.POEntry]], count: int, single: bool,
             result: ImportResult) -> dict[int, polib.POEntry] | None:
    """The messages of a field of ``count`` paragraphs by paragraph index; None (and the message counted
    unknown) when one names a paragraph the Spanish does not have."""
    by_part: dict[int, polib.POEntry] = {}
    for part, item in items:
        index = 0 if part is None else part
        if index >= count or (part is None and not single):
            result.unknown.append((item.msgctxt or "", item.linenum or 0))
            return None
        by_part[index] = item
    return by_part


def _skip(st: FieldStatus, why: str, item: polib.POEntry | None, result: ImportResult) -> None:
    """Count a field left alone, and name it (with the message that holds it back)."""
    result.skipped[why] += 1
    context = item.msgctxt if item is not None and item.msgctxt else f"{st.entry}{CONTEXT_SEP}{st.field}"
    result.skipped_fields.append((context, why, item.linenum or 0 if item is not None else 0))


def _skipped(st: FieldStatus, items: Iterable[polib.POEntry], result: ImportResult) -> bool:
    """True (and the field named) when one of its messages is fuzzy or untranslated."""
    for item in items:
        if "fuzzy" in item.flags or not item.msgstr.strip():
            _skip(st, "fuzzy" if "fuzzy" in item.flags else "empty", item, result)
            return True
    return False


def english_now(st: FieldStatus, es: list[Unit], part: int | None) -> str:
    """The content's English of one message: paragraph ``part`` when the English lines up with the Spanish ``es``,
    else (a whole-field message, English of other paragraphs) the whole English; ``""`` when there is none. What
    the export records (:data:`EXPORTED_MARK`) and the import compares with it."""
    if st.translation is None:
        return ""
    en = split(st.translation)
    return en[part].text if part is not None and part < len(en) and aligned(es, en) else flat(en)


def _exported(item: polib.POEntry) -> str | None:
    """The hash of the content's English when ``item`` was exported, or None when the file has no record."""
    m = re.search(rf"^{re.escape(EXPORTED_MARK)} ([0-9a-f]{{12}})\s*$", item.tcomment or "", re.MULTILINE)
    return m.group(1) if m else None


def _present(st: FieldStatus) -> frozenset[str]:
    """The hashes of the English the content holds for a field: of each paragraph and list item, and of the whole."""
    if st.translation is None:
        return frozenset({source_hash("")})
    en = split(st.translation)
    return frozenset({source_hash(flat(en))} | {source_hash(u.text) for u in en})


def _verdict(item: polib.POEntry, now: str, present: frozenset[str]) -> str:
    """What the import does with a message whose content English is ``now`` (the field's English holding the
    hashes ``present``): ``same`` (nothing to write), ``mine`` (the English it was exported with is still in the
    content, so the translator's is the only change: write it; also a message with no record), ``theirs`` (the
    translator left it as exported and the content changed since: keep the content's), or ``conflict`` (both
    changed). Looking for the exported English anywhere in the field, not only at the message's place, keeps a
    message msgmerge moved to another paragraph (a paragraph inserted in the Spanish) the translator's."""
    if len(item.msgstr) > MAX_MESSAGE_CHARS:  # refused when checked: not worth copying (and normalising) whole
        return "mine"
    if normalise(item.msgstr) == normalise(now):
        return "same"
    base = _exported(item)
    if base is None or base in present:
        return "mine"
    return "theirs" if source_hash(item.msgstr) == base else "conflict"


def _conflict(st: FieldStatus, item: polib.POEntry, now: str, result: ImportResult) -> None:
    """Refuse a field whose English both the file and the content changed since the export, naming both texts."""
    context = item.msgctxt or f"{st.entry}{CONTEXT_SEP}{st.field}"
    content, file = normalise(now), normalise(item.msgstr)
    result.conflicts[context] = (content, file)
    result.refused.append((context, "the English in the content changed after this file was exported, and the file "
                           f"changes it too: content «{printable(content)}», file «{printable(file)}»; keep one: copy "
                           f"the content's English into msgstr, or delete the message's '# {EXPORTED_MARK}' line to "
                           "put yours in its place", item.linenum or 0))


def _merge_advice(owner: Owner, po_name: str) -> str:
    """What to do when a message's Spanish is not the content's: merge the current Spanish into the file."""
    game = f" --game {owner.game}" if owner.game else ""
    name = owner.game or "all"
    return (f"merge the current Spanish into your file, keeping your work: kb i18n export --template -o {name}.pot"
            f"{game}; msgmerge --previous --update {po_name} {name}.pot (docs/translators.md, 'When the Spanish "
            "changed'); do not export afresh over it")


def _moved(item: polib.POEntry, spanish: str) -> bool:
    return normalise(item.msgid) != normalise(spanish)


_NOT_CURRENT = "the msgid is not this paragraph's Spanish now (the Spanish changed after the export, or the msgid was " \
    "edited)"


def _plan_whole(owner: Owner, st: FieldStatus, item: polib.POEntry, es: list[Unit], result: ImportResult,
                locate: Callable[[polib.POEntry, int], Location], kb: "Linked", titles: dict[str, Text]) -> _Plan | None:
    """A field translated as one message."""
    if _skipped(st, [item], result):
        return None
    now = {0: english_now(st, es, None)}
    verdict = _verdict(item, now[0], _present(st))
    if _blocked(owner, st, {0: item}, {0: flat(es)}, now, {0: verdict}, result) \
            or _newer_kept(st, {0: item}, {0: verdict}, {}, None, result):
        return None
    if verdict == "same":
        return _unchanged(st, result)
    if _refuse(owner, st, item, st.source, po_text(item.msgstr), result, locate, kb, titles, unit=False):
        return None
    new_units = split(item.msgstr)
    if aligned(es, new_units):
        return _Plan(st, {i: u.text for i, u in enumerate(new_units)}, messages=(item,))
    return _Plan(st, None, po_text(item.msgstr), (item,))


def _plan_parts(owner: Owner, st: FieldStatus, by_part: dict[int, polib.POEntry], es: list[Unit], result: ImportResult,
                locate: Callable[[polib.POEntry, int], Location], kb: "Linked", titles: dict[str, Text]) -> _Plan | None:
    """A field translated paragraph by paragraph (``by_part``: paragraph index -> message)."""
    kept = _kept_english(st, es)
    if _skipped(st, (item for _, item in sorted(by_part.items())), result):
        return None
    now, verdicts, new = _verdicts(st, es, by_part)
    if _blocked(owner, st, by_part, {i: es[i].text for i in by_part}, now, verdicts, result) \
            or _partial(st, len(by_part) < len(es), kept, result) \
            or _newer_kept(st, by_part, verdicts, new, kept, result):
        return None
    if not new:
        return _unchanged(st, result)
    refused = [_refuse(owner, st, by_part[index], es[index].text, po_text(by_part[index].msgstr), result, locate,
                       kb, titles) for index in new]  # only English that changes: the rest 'kb check' already sees
    return None if any(refused) else _Plan(st, new, messages=tuple(map(by_part.__getitem__, new)))


def _verdicts(st: FieldStatus, es: list[Unit], by_part: dict[int, polib.POEntry]) \
        -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """By paragraph: the content's English, the :func:`_verdict` of its message, and the English to write (unwrapped)."""
    now = {i: english_now(st, es, i) for i in by_part}
    present = _present(st)
    verdicts = {i: _verdict(item, now[i], present) for i, item in by_part.items()}
    new = {i: " ".join(item.msgstr.split()) for i, item in sorted(by_part.items()) if verdicts[i] == "mine"}
    return now, verdicts, new


def _blocked(owner: Owner, st: FieldStatus, by_part: dict[int, polib.POEntry], spanish: dict[int, str],
             now: dict[int, str], verdicts: dict[int, str], result: ImportResult) -> bool:
    """True when the field cannot be written: a message's Spanish is not the content's (:func:`_spanish_moved`), or
    the file and the content both changed a message's English since the export (each refused, naming both)."""
    if _spanish_moved(owner, st, by_part, spanish, verdicts, result):
        return True
    conflicts = [i for i, v in sorted(verdicts.items()) if v == "conflict"]
    for i in conflicts:
        _conflict(st, by_part[i], now[i], result)
    return bool(conflicts)


def _newer_kept(st: FieldStatus, by_part: dict[int, polib.POEntry], verdicts: dict[int, str], new: dict[int, str],
                kept: list[Unit] | None, result: ImportResult) -> bool:
    """True (and the field skipped) when messages left as exported meet newer English in the content, and nothing
    else is to be written (``new``) or the content's English cannot be kept paragraph by paragraph (``kept``)."""
    theirs = [i for i, v in sorted(verdicts.items()) if v == "theirs"]
    if theirs and (not new or kept is None):
        _skip(st, "newer-english", by_part[theirs[0]], result)
        return True
    return False


def _kept_english(st: FieldStatus, es: list[Unit]) -> list[Unit] | None:
    """The field's English when its paragraphs and list items line up with the Spanish ``es``, else None."""
    en = split(st.translation) if st.translation is not None else None
    return en if en is not None and aligned(es, en) else None


def _partial(st: FieldStatus, missing: bool, kept: list[Unit] | None, result: ImportResult) -> bool:
    """True (and the field named) when some paragraphs are not in the file and the English has none to keep (it is
    not current, or its paragraphs do not line up with the Spanish: ``kept`` None)."""
    if missing and (kept is None or st.status != "current"):
        _skip(st, "partial", None, result)
        return True
    return False


def _spanish_moved(owner: Owner, st: FieldStatus, by_part: dict[int, polib.POEntry], spanish: dict[int, str],
                   verdicts: dict[int, str], result: ImportResult) -> bool:
    """True when a message's Spanish is not the content's (``spanish``, by paragraph): the field is refused when the
    translator changed one of its messages (their work would be lost), else skipped (the file is older than the
    Spanish)."""
    moved = [i for i, item in sorted(by_part.items()) if _moved(item, spanish[i])]
    if not moved:
        return False
    touched = [i for i in moved if verdicts[i] != "theirs" and _exported(by_part[i]) != source_hash(by_part[i].msgstr)]
    if touched:
        item = by_part[touched[0]]
        result.refused.append((item.msgctxt or "", f"{_NOT_CURRENT}; {_merge_advice(owner, result.po_name)}",
                               item.linenum or 0))
    else:
        _skip(st, "spanish-changed", by_part[moved[0]], result)
    return True


def _unchanged(st: FieldStatus, result: ImportResult) -> _Plan | None:
    if st.status == "current":
        result.skipped["unchanged"] += 1
        return None
    return _Plan(st, None)


def _refuse(owner: Owner, st: FieldStatus, item: polib.POEntry, source: str, english: str, result: ImportResult,
            locate: Callable[[polib.POEntry, int], Location], kb: "Linked", titles: dict[str, Text],
            unit: bool = True) -> bool:
    """Check the English of one message; record its problems (at most :data:`MAX_PROBLEMS` of them); True when one is
    an error."""
    context, line = item.msgctxt or "", item.linenum or 0
    unwritable = _unwritable(english, source, unit and not is_name(st.path))  # a name is text, not Markdown
    if unwritable:
        result.problems += [(context, d) for d in _control_character(st.field, english, lambda off: locate(item, off))]
        result.refused.append((context, unwritable, line))
        return True
    found = check_english(owner, st.field, source, english, kb.entries, kb.graph.terms, titles,
                          lambda off: locate(item, off), st.path)
    result.problems += [(context, problem) for problem in found[:MAX_PROBLEMS]]
    errors = sum(p.severity == ERROR for p in found)
    if errors:
        shown = "see above" if len(found) <= MAX_PROBLEMS else f"the first {MAX_PROBLEMS} problems are above"
        result.refused.append((context, f"{errors} error(s) in its English ({shown}); nothing of field '{st.field}' "
                               "was written", line))
    return bool(errors)


def _control_character(field: str, english: str, locate: Callable[[int], Location]) -> list[Diagnostic]:
    """The first control character of ``english``, located at it in the PO file (the refusal names the message)."""
    bad = _NOT_PRINTABLE.search(english) or CONTROL.search(english) if len(english) <= MAX_MESSAGE_CHARS else None
    return [diag("control-character", locate(bad.start()), where=f"English '{field}'", char=visible(bad.group()))] \
        if bad else []


def _unwritable(english: str, source: str, unit: bool) -> str | None:
    """Why a message's English is refused before it is checked: too long (it would make a problem of every word), a
    character a YAML file cannot hold or 'kb check' refuses (a bidi override: the field would not load again), or, in
    the message of one paragraph or list item (``unit``), a structure of its own (:func:`_structure`)."""
    if len(english) > MAX_MESSAGE_CHARS:
        return f"its English is {len(english)} characters long; a message holds at most {MAX_MESSAGE_CHARS} (the " \
            f"Spanish has {len(source)})"
    bad = _NOT_PRINTABLE.search(english) or CONTROL.search(english)
    if bad:
        return f"control character U+{ord(bad.group()):04X} in the translation; remove it"
    return _structure(english) if unit else None


def _structure(english: str) -> str | None:
    """Why the English of one paragraph or list item would change the field's structure: it starts a list item
    (the import puts the Spanish's marker back: a doubled marker, or a paragraph turned item), or holds a blank line
    or a line starting a list item (they would be folded into spaces)."""
    units = split(english, anywhere=True)
    if units and units[0].prefix:
        return (f"the English starts with a list marker ('{units[0].prefix.strip()}'), which the import puts back "
                "itself; remove it")
    if len(units) > 1:
        what = "a blank line" if units[1].sep.count("\n") > 1 else f"a line starting a list item ('{units[1].prefix.strip()}')"
        return (f"the English holds {what}, but this message is one paragraph or list item (the Spanish's structure "
                "is kept); write it as one paragraph")
    return None


MAX_MESSAGE_CHARS = 20_000
"""The longest English one message may hold: about twenty times the longest Spanish paragraph of the bundled packs
(1,058 characters in 2026; their longest field has 1,817). Longer English is refused before it is checked."""
MAX_PROBLEMS = 20
"""The most problems reported for one message (the refusal counts them all): a message made of one mistake repeated
prints twenty lines, not one per repeat."""
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
"""What a YAML file cannot hold (its reader refuses it): control characters other than tab and line breaks."""


def _reads_back(written: dict[Any, str]) -> Callable[[Any], str | None]:
    """A check that the file, read back as the engine reads it, holds exactly the English the editor wrote."""
    def check(data: Any) -> str | None:
        for path, english in written.items():
            text = _node(data, path)
            got = text.get(TARGET) if isinstance(text, dict) else None
            if not isinstance(got, str) or po_text(got) != po_text(english):
                return f"{got!r:.60} would be read back instead of the translation {english!r:.60}"
        return None

    return check


MAX_PO_BYTES = 16 * 1024 * 1024
"""The largest PO file ``kb i18n import`` reads: about twelve times the export of every bundled pack (1.4 MB in
2026). The parser's time grows faster than the file (a 40 MB comment block takes minutes), so a bigger file is
refused before it is parsed."""


def encoding_problem(path: Path, limit: int = MAX_PO_BYTES) -> str | None:
    """Why a PO file cannot be imported as it is (``path:line:col: ...``): at most ``limit`` bytes, UTF-8 and
    saying so."""
    with path.open("rb") as f:
        raw = f.read(limit + 1)
    if len(raw) > limit:
        return (f"{path}:1:1: the file is larger than {limit} bytes, the limit for a PO file; "
                "split it (msggrep) and import each part")
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


_STRING_LINE = re.compile(r'(?:#~\|?|#\|)?[ \t]*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+)?(")')
_STRING = re.compile(r'"([^"\\]*+(?:\\.[^"\\]*+)*+)"[ \t]*')
"""A whole PO string; possessive, so that a line of megabytes is matched in constant memory."""
_ESCAPES = set('\\"ntrvbf')
"""The escapes polib decodes: any other (msgfmt's ``\\x41``, ``\\101``, or a typo ``\\q``) it would read as its two
characters."""


def syntax_problem(path: Path, text: str) -> str | None:
    """The first string of the PO file ``text`` that polib would misread, as ``path:line:col: ...``: one not closed
    on its line (msgfmt: "end-of-line within string"), or an escape polib does not decode (:data:`_ESCAPES`)."""
    found = string_problem(text)
    return None if found is None else f"{path}:{found[0]}:{found[1]}: {found[2]}; nothing imported"


def string_problem(text: str) -> tuple[int, int, str] | None:
    """The first string of the PO file ``text`` a reader would misread: its line, column and what is wrong."""
    for number, line in enumerate(text.splitlines(), 1):
        head = _STRING_LINE.match(line)
        if head is None or (line.startswith("#") and not line.startswith(("#~", "#|"))):
            continue
        body = _STRING.fullmatch(line, head.start(1))
        if body is None:
            return (number, head.start(1) + 1, "the string is not closed on its line (a '\"' missing at its end, or "
                    "one inside it not written \\\")")
        for m in re.finditer(r"\\(.)", body.group(1)):
            if m.group(1) not in _ESCAPES:
                return (number, body.start(1) + m.start() + 1, f"unknown escape '\\{m.group(1)}' in the string; "
                        "write \\n, \\t, \\\" or \\\\ (a backslash itself is \\\\)")
    return _missing_msgstr(text)


_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]")


def _missing_msgstr(text: str) -> tuple[int, int, str] | None:
    """The first ``msgid`` with no ``msgstr`` after it (msgfmt: "missing 'msgstr' section"): a file cut short, or a
    message half deleted; a reader would take it for an empty translation."""
    open_at = 0
    for number, line in enumerate(text.splitlines(), 1):
        m = _KEYWORD.match(line)
        word = m.group(1) if m else ""
        if open_at and word in ("msgid", "msgctxt"):
            break
        if word == "msgid" or word.startswith("msgstr"):
            open_at = number if word == "msgid" else 0
    return (open_at, 1, "this msgid has no msgstr after it (the file ends, or the next message starts, first: a file "
            "cut short?)") if open_at else None


def _editor(todo: list[_Plan], moved: list[_Plan], written: dict[Any, str] | None = None) -> Callable[[Any], bool]:
    written = {} if written is None else written

    def edit(doc: Any) -> bool:
        hashes = {}
        for plan in todo:
            text = _node(doc, plan.status.path)
            if not isinstance(text, dict) or source_hash(str(text.get(SOURCE_LANG, ""))) != plan.status.current:
                moved.append(plan)
                continue
            if plan.whole is not None:
                _set_english(text, plan.whole)
                written[plan.status.path] = plan.whole
            elif plan.new is not None:
                english = _rebuilt(text, plan.new)
                _set_english(text, english)
                written[plan.status.path] = english
            hashes[plan.status.field] = plan.status.current
        write_hashes(doc, hashes)
        return bool(hashes)

    return edit


def _rebuilt(text: Any, new: dict[int, str]) -> str:
    """The field's English with paragraphs ``new`` replaced, shaped and wrapped like the Spanish."""
    from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

    spanish = text[SOURCE_LANG]
    es = split(str(spanish))
    current = text.get(TARGET)
    en = split(str(current)) if isinstance(current, str) else None
    wrap = isinstance(spanish, LiteralScalarString) and not isinstance(current, FoldedScalarString)
    return join(es, en if en is not None and aligned(es, en) else None, new, wrap, en or ())


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
    like = text.get(TARGET) if isinstance(text.get(TARGET), str) else text[SOURCE_LANG]
    fa = getattr(text, "fa", None)
    flow = bool(fa.flow_style()) if fa is not None else False
    value = _styled(english, like, flow)
    if TARGET in text:
        text[TARGET] = value
    else:
        keys = list(text)
        text.insert(keys.index(SOURCE_LANG) + 1 if SOURCE_LANG in keys else len(keys), TARGET, value)


def _styled(english: str, like: Any, flow: bool) -> Any:
    """``english`` as a YAML scalar in the style of ``like`` (block styles kept, a block for several lines
    outside a flow mapping, quoted styles kept, else plain or quoted as the engine's reader needs)."""
    from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

    if isinstance(like, (LiteralScalarString, FoldedScalarString)):
        body = english + ("\n" if like.endswith("\n") else "")
        value = type(like)(body)
        if isinstance(value, FoldedScalarString):
            value.fold_pos = _fold_positions(body)  # type: ignore[attr-defined]
        return value
    if "\n" in english and not flow:
        return LiteralScalarString(english + "\n")
    if type(like) is not str and "\n" not in english:  # quoted styles are kept
        return type(like)(english)
    return text_scalar(english)  # quoted when the engine's YAML 1.1 reader would not read it as text


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
