"""``kb i18n``: the translators' commands (status, ack, export, import, glossary)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TextIO

from kb.cli.output import write_json
from kb.core.diagnostics import format_path, hint, printable
from kb.core.files import atomic_write, os_problem
from kb.core.model import TARGET_LANG as TARGET

if TYPE_CHECKING:
    from kb.api import KnowledgeBase
    from kb.i18n.po import ImportResult

__all__ = ["add_parser", "run"]


_REPORT_JSON = "print what was written as JSON (on standard error when the file goes to standard output)"


def _report(args: argparse.Namespace, out: TextIO, err: TextIO, line: str, data: dict[str, object]) -> None:
    """The one-line report of a written file, or its JSON; on ``err`` when the file itself went to ``out``."""
    stream = err if args.output == "-" else out
    if args.json:
        write_json(stream, {"output": args.output, **data}, indent=None)
    else:
        stream.write(line + "\n")


def add_parser(sub: argparse._SubParsersAction[Any], handler: Callable[..., int]) -> None:
    """Register ``kb i18n`` and its subcommands."""
    p = sub.add_parser("i18n", help="translation status, acknowledging edits, PO export and import, glossary")
    isub = p.add_subparsers(dest="i18n_command", metavar="ACTION", parser_class=type(p))
    isub.required = True
    st = isub.add_parser("status", help="missing and stale English fields, per game")
    st.add_argument("--game", help="only this game")
    st.add_argument("--json", action="store_true", help="print JSON")
    st.add_argument("--check", action="store_true", help="exit 1 when any field is missing or stale (for CI)")
    st.add_argument("--no-history", action="store_true",
                    help="do not look in git history (for when the English was written, and the previous Spanish)")
    ack = isub.add_parser("ack", help="mark English fields as current for the Spanish as it is now")
    ack.add_argument("ids", nargs="*", help="entry ids or games (a game's id also covers its game.yaml)")
    ack.add_argument("--all", action="store_true", help="every entry")
    ack.add_argument("--field", action="append", help="only this field (repeatable), e.g. text or summary")
    ack.add_argument("--json", action="store_true", help="print the files updated as JSON")
    ex = isub.add_parser("export", help="write a gettext PO file for translators (Poedit, Weblate, OmegaT)")
    ex.add_argument("--lang", choices=(TARGET,), default=TARGET, help=f"target language (default: {TARGET})")
    ex.add_argument("-o", "--output", required=True, metavar="FILE.po", help="the PO file to write ('-': standard output)")
    ex.add_argument("--game", help="only this game")
    ex.add_argument("--no-history", action="store_true", help="do not look in git history for the previous Spanish")
    ex.add_argument("--template", action="store_true",
                    help="write a template (POT): every msgstr empty, nothing fuzzy; for 'msgmerge --previous'")
    ex.add_argument("--json", action="store_true", help=_REPORT_JSON)
    ex.add_argument("--force", action="store_true", help="replace FILE.po even when it is not an export of this tool "
                    "or holds translations not imported yet (never a file in the content folder)")
    gl = isub.add_parser("glossary", help="write the glossary for translation tools (TBX or CSV)")
    gl.add_argument("--format", choices=("tbx", "csv"), default="tbx", help="TBX (default) or CSV")
    gl.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write ('-': standard output)")
    gl.add_argument("--game", help="only this game")
    gl.add_argument("--json", action="store_true", help=_REPORT_JSON)
    gl.add_argument("--force", action="store_true", help="replace FILE even when it is not a glossary of this tool "
                    "(never a file in the content folder)")
    im = isub.add_parser("import", help="write the translations of a PO file back into the YAML files")
    im.add_argument("file", metavar="FILE.po", help="a PO file made by 'kb i18n export' and translated")
    im.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
    im.add_argument("--json", action="store_true", help="print changes, problems and refusals as JSON")
    p.set_defaults(func=handler)


def _games(kb: KnowledgeBase) -> set[str]:
    """Games with metadata, and namespaces that hold entries (``common``)."""
    return set(kb.games) | {e.game for e in kb.entries.values()}


def _unknown_game(command: str, game: str | None, kb: KnowledgeBase, err: TextIO) -> bool:
    if game is None or game in _games(kb):
        return False
    err.write(f"kb i18n {command}: unknown game '{game}'{hint(game, sorted(_games(kb)))}\n")
    return True


def _status(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.history import History
    from kb.i18n.report import status_report

    if _unknown_game("status", args.game, kb, err):
        return 2
    report = status_report(kb, args.game, None if args.no_history else History())
    if args.json:
        write_json(out, report)
    else:
        out.write(f"{'game':<22} lang {'fields':>7} {'current':>8} {'stale':>6} {'missing':>8}\n")
        for g, c in report["games"].items():
            out.write(f"{g:<22} {TARGET:<4} {c['fields']:>7} {c['current']:>8} {c['stale']:>6} {c['missing']:>8}\n")
        for row in report["pending"]:
            out.write(printable(f"{row['path']}:{row['line']}:{row['column']}: {row['status']}: {row['entry']} "
                                f"{row['field']}{_parts(row)}") + "\n")  # one line, as a diagnostic: ids come from content
    return 1 if args.check and report["pending"] else 0


def _parts(row: dict[str, Any]) -> str:
    """The parts of a stale field whose Spanish changed, named as the PO file names them: `` (text|p4: list item 3 of
    4)``, and those the Spanish took out (named by their place in the earlier Spanish, as the site names them);
    nothing for a field of one paragraph (one message), or when they are not known."""
    from kb.i18n.po import CONTEXT_SEP, unit_labels
    from kb.i18n.units import split

    units = split(row["source"]) if row.get("previous") is not None else []
    labels = unit_labels(units)
    named = [f"{row['field']}{CONTEXT_SEP}p{n}: {labels[n - 1]}" for n in row.get("paragraphs") or []
             if len(units) > 1 or units[0].prefix]
    named += _taken_out(row["previous"], units) if units else []
    return f" ({'; '.join(named)})" if named else ""


def _taken_out(previous: str, units: list[Any]) -> list[str]:
    """The parts of the ``previous`` Spanish that the Spanish now (``units``) no longer has."""
    from kb.i18n.po import unit_labels
    from kb.i18n.units import opcodes, split

    before = split(previous)
    steps = opcodes([" ".join(u.text.split()) for u in before], [" ".join(u.text.split()) for u in units])[0]
    gone = [i for tag, i1, i2, _, _ in steps if tag == "delete" for i in range(i1, i2)]
    labels = unit_labels(before)
    return [f"{labels[i]} of the earlier Spanish taken out: importing drops its English" for i in gone]


def _glossary(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.glossary import glossary, to_csv, to_tbx

    if _unknown_game("glossary", args.game, kb, err):
        return 2
    terms = glossary(kb, args.game)
    name = kb.games[args.game].name.es if args.game in kb.games else "all games"
    text = to_tbx(terms, f"Glosario / Glossary: {name}") if args.format == "tbx" else to_csv(terms)
    if args.output == "-":
        out.write(text)
        if not args.json:
            return 0
    else:
        if _refused_output("glossary", args, kb, err, _glossary_ours):
            return 2
        try:
            atomic_write(Path(args.output), text.encode("utf-8"))
        except OSError as exc:
            err.write(f"kb i18n glossary: cannot write {args.output}: {exc.strerror or exc}\n")
            return 2
    _report(args, out, err, f"wrote {args.output}: {len(terms)} term(s) ({args.format})",
            {"format": args.format, "game": args.game, "terms": len(terms)})
    return 0


def _refused_output(command: str, args: argparse.Namespace, kb: KnowledgeBase, err: TextIO,
                    ours: Callable[[Path], str | None]) -> bool:
    """True (and why written to ``err``) when ``args.output`` may not be written: it lies in the content folder, or
    it is a regular file that ``ours`` says is not ours to replace (without ``--force``). Anything else there (a
    link, a folder) :func:`atomic_write` refuses."""
    path = Path(args.output)
    where = os.path.realpath(path)
    content = os.path.realpath(kb.root)
    if where == content or where.startswith(content + os.sep):
        err.write(f"kb i18n {command}: {args.output} is in the content folder ({format_path(kb.root)}); write it "
                  "elsewhere (nothing was written)\n")
        return True
    if args.force or not _regular(path):
        return False
    try:
        why = ours(path)
    except OSError as exc:
        why = f"cannot be read ({os_problem(exc, unnamed=args.output)})"
    if why is None:
        return False
    err.write(f"kb i18n {command}: {args.output} {why}; nothing was written: choose another file, or pass --force "
              "to replace it\n")
    return True


def _regular(path: Path) -> bool:
    import stat

    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _glossary_ours(path: Path) -> str | None:
    """None when ``path`` starts as a glossary of ``kb i18n glossary`` (TBX or CSV) does, else why it is not ours."""
    from kb.i18n.glossary import CSV_COLUMNS

    with path.open("rb") as f:
        head = f.read(4096)
    if head.startswith(",".join(CSV_COLUMNS).encode()) or (b'<martif type="TBX-Basic"' in head and
                                                            b"Glosario / Glossary" in head):
        return None
    return "exists and is not a glossary written by 'kb i18n glossary'"


def _ack(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.status import acknowledge

    chosen = _ack_chosen(args, kb, err)
    if chosen is None:
        return 2
    changed = acknowledge(chosen, set(args.field) if args.field else None)
    if args.json:
        write_json(out, {"updated": [format_path(p) for p in changed]}, indent=None)
        return 0
    for path in changed:
        out.write(f"updated {format_path(path)}\n")
    out.write(f"{len(changed)} file(s) updated\n")
    return 0


def _ack_chosen(args: argparse.Namespace, kb: KnowledgeBase, err: TextIO) -> list[Any] | None:
    """The entries and games ``ack`` is to record, or None, said on ``err``: none named, an unknown id, a ``--field``
    none of them has."""
    from kb.i18n.status import owners

    if not args.ids and not args.all:
        err.write("kb i18n ack: name entry ids or games, or pass --all\n")
        return None
    games = _games(kb)
    unknown = [i for i in args.ids if i not in kb.entries and i not in games]
    if unknown:
        err.write(f"kb i18n ack: unknown {unknown[0]}{hint(unknown[0], list(kb.entries) + sorted(games))}\n")
        return None
    chosen = [o for o in owners(kb.entries.values(), kb.games) if args.all or o.id in args.ids or o.game in args.ids]
    return None if _unknown_field(chosen, args.field or [], ", ".join(args.ids) or "any entry", err) else chosen


def _unknown_field(chosen: list[Any], fields: list[str], named: str, err: TextIO) -> bool:
    """True, said on ``err``, when ``--field`` names a field none of the ``chosen`` entries (``named``) has, with the
    nearest name (and the fields when they are few)."""
    from kb.i18n.status import field_status

    have = sorted({st.field for owner in chosen for st in field_status(owner)})
    stray = next((f for f in fields if f not in have), None)
    if stray is not None:
        listed = f" (its fields: {', '.join(have)})" if len(have) <= 12 else ""
        err.write(f"kb i18n ack: no translatable field '{stray}' in {named}{hint(stray, have)}{listed}; "
                  "nothing recorded\n")
    return stray is not None


def _export(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.history import History
    from kb.i18n.po import build_po, write_po

    if _unknown_game("export", args.game, kb, err):
        return 2
    po, counts = build_po(kb, args.game, None if args.no_history or args.template else History(), args.template,
                          epoch=os.environ.get("SOURCE_DATE_EPOCH"))  # reproducible files: the date comes from outside
    if args.output == "-":
        text = str(po)
        out.write(text if text.endswith("\n") else text + "\n")
    else:
        from kb.i18n.po import ours_to_replace

        if _refused_output("export", args, kb, err, lambda path: ours_to_replace(path, po)):
            return 2
        try:
            write_po(po, Path(args.output))
        except OSError as exc:
            err.write(f"kb i18n export: cannot write {args.output}: {exc.strerror or exc}\n")
            return 2
    fields = counts["current"] + counts["stale"] + counts["missing"]
    _report(args, out, err, f"wrote {args.output}: {len(po)} messages for {fields} fields ({counts['current']} current, "
            f"{counts['stale']} stale [{counts['previous']} with the previous Spanish], {counts['missing']} untranslated)",
            {"template": args.template, "game": args.game, "messages": len(po), "fields": fields,
             **{k: counts[k] for k in ("current", "stale", "previous", "missing")}})
    return 0


def _import(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.history import History
    from kb.i18n.po import import_po

    po, code = _read_po(args.file, err)
    if po is None:
        return code
    lang = po.metadata.get("Language", TARGET) or TARGET
    if lang.split("_")[0].split("-")[0] != TARGET:
        err.write(f"kb i18n import: {args.file} is a '{lang}' translation; only '{TARGET}' is imported\n")
        return 2
    result = import_po(kb, po, dry_run=args.dry_run, history=History())
    _update_records(args.file, result, err)
    code = 1 if result.refused or result.unknown else 0
    if args.json:
        _import_json(args, kb, result, code, out)
    else:
        _import_text(args, kb, result, out, err)
    return code


def _update_records(file: str, result: ImportResult, err: TextIO) -> None:
    """The PO file's records of the English it had written brought up to date; a warning when the file cannot be."""
    from kb.i18n.po import update_records

    try:
        update_records(Path(file), result.recorded)
    except OSError as exc:
        err.write(f"kb i18n import: warning: the English was written, but the '# kb-en:' records in {file} could not "
                  f"be updated ({os_problem(exc, unnamed=file)}): export afresh before changing those messages "
                  "again\n")


def _read_po(file: str, err: TextIO) -> tuple[Any, int]:
    """The PO file ``file`` parsed, or None and the exit code 2 (why written to ``err``): not there, too big, not
    UTF-8, a string polib would misread, a syntax error, no message or none of ours: the whole file refused."""
    import polib

    from kb.i18n.po import encoding_problem, syntax_problem

    if not Path(file).is_file():  # polib would parse the name itself as PO text
        err.write(f"kb i18n import: {file}: {'a folder, not a PO file' if Path(file).is_dir() else 'no such file'}\n")
        return None, 2
    problem = encoding_problem(Path(file))
    if problem:
        err.write(f"{problem}; nothing imported\n")
        return None, 2
    try:
        problem = syntax_problem(Path(file), Path(file).read_text(encoding="utf-8-sig"))
        po = None if problem else polib.pofile(file)
    except (OSError, ValueError) as exc:
        err.write(f"kb i18n import: cannot read {file}: {exc}\n")
        return None, 2
    if po is None or not _ours(po):
        err.write(f"{problem}\n" if problem else f"kb i18n import: {file} {_not_ours(po)}; nothing imported\n")
        return None, 2
    return po, 0


def _not_ours(po: Any) -> str:
    """Why ``po`` is not a file to import: it holds no message (empty, a header or comments only), or none of ours."""
    if not [e for e in po if not e.obsolete]:
        return "holds no message to import (it is empty, or a header or comments only: a file saved before it was written?)"
    return "is not a PO file of 'kb i18n export' (no message has a context <entry id>|<field>)"


def _import_json(args: argparse.Namespace, kb: KnowledgeBase, result: ImportResult, code: int, out: TextIO) -> None:
    write_json(out, {"dry_run": args.dry_run, "exit": code,
                     "changes": [{"path": format_path(c.path), "entry": c.entry, "field": c.field, "action": c.action}
                                 for c in result.changes],
                     "problems": [{"context": ctx, **d.to_json()} for ctx, d in result.problems],
                     "refused": [{"context": ctx, "line": line, "reason": r, **_conflict_json(result, ctx)}
                                 for ctx, r, line in result.refused],
                     "unknown": [{"context": ctx, "line": line, "reason": _unknown(kb, ctx)} for ctx, line in result.unknown],
                     "skipped": dict(result.skipped),
                     "skipped_fields": [{"context": ctx, "line": line, "reason": why}
                                        for ctx, why, line in result.skipped_fields]})


def _conflict_json(result: ImportResult, context: str) -> dict[str, str]:
    """A conflict's two texts, whole: ``content_english`` and ``file_english`` (none for another refusal)."""
    if context not in result.conflicts:
        return {}
    content, file = result.conflicts[context]
    return {"content_english": content, "file_english": file}


def _import_text(args: argparse.Namespace, kb: KnowledgeBase, result: ImportResult, out: TextIO, err: TextIO) -> None:
    verb = "would update" if args.dry_run else "updated"
    for c in result.changes:
        what = "English and hash" if c.action == "translated" else "hash (English reviewed, unchanged)"
        out.write(f"{format_path(c.path)}: {verb} {c.entry} {c.field}: {what}\n")
    lines = [f"{found.format()} [{context}]" for context, found in result.problems]
    lines += [f"{_at(args.file, line)}: refused {context}: {reason}" for context, reason, line in result.refused]
    lines += [f"{_at(args.file, line)}: unknown context '{context}': {_unknown(kb, context)}"
              for context, line in result.unknown]
    _capped(err, lines + _unrecorded_warning(args.file, result), "problem")
    if args.dry_run:
        _capped(out, [f"{_at(args.file, line)}: skipped {context}: {_SKIPPED.get(why, why)}"
                      for context, why, line in result.skipped_fields], "skipped field")
    skipped = ", ".join(f"{n} {k}" for k, n in sorted(result.skipped.items())) or "none"
    files = len({c.path for c in result.changes}) if args.dry_run else len(result.files)
    out.write(f"{len(result.changes)} field(s) {verb} in {files} file(s); {len(result.refused)} refused, "
              f"{len(result.unknown)} unknown; skipped: {skipped}\n")


def _unrecorded_warning(file: str, result: ImportResult) -> list[str]:
    """The warning for messages written without a record of the English they were exported with."""
    if not result.unrecorded:
        return []
    return [f"kb i18n import: warning: {result.unrecorded} message(s) of {file} carry no '# kb-en:' record (a file "
            "exported before kb wrote one, or the line deleted): their English replaces the content's even where that "
            "changed after the export; check 'git diff' before committing"]


MAX_LINES = 200
"""The most problem lines (and, in a dry run, skipped-field lines) an import prints; the rest are counted."""
_SKIPPED = {
    "fuzzy": "this message is fuzzy; the field is imported when none of its messages is",
    "empty": "this message is untranslated; the field is imported when all of its messages are translated",
    "partial": "some of its paragraphs are not in the file",
    "newer-english": "the content's English changed after the export and this message is as exported: the newer "
                     "English is kept",
    "spanish-changed": "the Spanish changed after the export and this message is as exported",
}


def _at(file: str, line: int) -> str:
    """``FILE:LINE`` (or ``FILE`` when the line is not known)."""
    return f"{file}:{line}" if line else file


def _capped(stream: TextIO, lines: list[str], what: str) -> None:
    """Write at most :data:`MAX_LINES` lines, then how many more there are."""
    for line in lines[:MAX_LINES]:
        stream.write(line + "\n")
    if len(lines) > MAX_LINES:
        stream.write(f"... and {len(lines) - MAX_LINES} more {what} line(s) (--json lists them all)\n")


def _unknown(kb: KnowledgeBase, context: str) -> str:
    """Why a context names nothing: no such entry (the nearest id; its file does not load), or no such field."""
    from kb.i18n.po import CONTEXT_SEP

    owner, sep, _ = context.partition(CONTEXT_SEP)
    if not sep:
        return f"not a kb context (<entry id>{CONTEXT_SEP}<field>): is this a PO file of 'kb i18n export'?"
    if owner in kb.entries or owner in kb.games:
        return f"'{owner}' has no such field or paragraph"
    slug = owner.rpartition(".")[2]
    broken = next((d for d in kb.diagnostics if d.severity == "error" and Path(d.location.path).stem == slug
                   and owner.partition(".")[0] in Path(d.location.path).parts), None)
    if broken is not None:
        return f"no entry '{owner}' is loaded: its file does not load: {broken.format()}"
    return f"no such entry{hint(owner, list(kb.entries) + sorted(kb.games))}"


def _ours(po: Any) -> bool:
    """True when ``po`` has a live message whose context is one of ours (``<entry id>|<field>``)."""
    from kb.i18n.po import CONTEXT_SEP

    return any(CONTEXT_SEP in (e.msgctxt or "") for e in po if not e.obsolete)


_ACTIONS: dict[str, Callable[[argparse.Namespace, KnowledgeBase, TextIO, TextIO], int]] = {
    "status": _status, "ack": _ack, "glossary": _glossary, "export": _export, "import": _import,
}


def run(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    """Dispatch ``kb i18n ACTION``."""
    return _ACTIONS[args.i18n_command](args, kb, out, err)
