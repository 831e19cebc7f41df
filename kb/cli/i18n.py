"""``kb i18n``: the translators' commands (status, ack, export, import, glossary)."""

from __future__ import annotations

import argparse
import os
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TextIO

from kb.core.diagnostics import format_path, hint, printable
from kb.core.files import atomic_write
from kb.core.model import TARGET_LANG as TARGET

if TYPE_CHECKING:
    from kb.api import KnowledgeBase

__all__ = ["add_parser", "run"]


_REPORT_JSON = "print what was written as JSON (on standard error when the file goes to standard output)"


def _report(args: argparse.Namespace, out: TextIO, err: TextIO, line: str, data: dict[str, object]) -> None:
    """The one-line report of a written file, or its JSON; on ``err`` when the file itself went to ``out``."""
    stream = err if args.output == "-" else out
    stream.write(json.dumps({"output": args.output, **data}, ensure_ascii=False) + "\n" if args.json else line + "\n")


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
    gl = isub.add_parser("glossary", help="write the glossary for translation tools (TBX or CSV)")
    gl.add_argument("--format", choices=("tbx", "csv"), default="tbx", help="TBX (default) or CSV")
    gl.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write ('-': standard output)")
    gl.add_argument("--game", help="only this game")
    gl.add_argument("--json", action="store_true", help=_REPORT_JSON)
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
        json.dump(report, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(f"{'game':<22} lang {'fields':>7} {'current':>8} {'stale':>6} {'missing':>8}\n")
        for g, c in report["games"].items():
            out.write(f"{g:<22} {TARGET:<4} {c['fields']:>7} {c['current']:>8} {c['stale']:>6} {c['missing']:>8}\n")
        for row in report["pending"]:
            changed = f" (paragraphs {', '.join(map(str, row['paragraphs']))})" if row.get("paragraphs") else ""
            out.write(printable(f"{row['path']}:{row['line']}:{row['column']}: {row['status']}: {row['entry']} "
                                f"{row['field']}{changed}") + "\n")  # one line, as a diagnostic: ids come from content
    return 1 if args.check and report["pending"] else 0


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
        try:
            atomic_write(Path(args.output), text.encode("utf-8"))
        except OSError as exc:
            err.write(f"kb i18n glossary: cannot write {args.output}: {exc.strerror or exc}\n")
            return 2
    _report(args, out, err, f"wrote {args.output}: {len(terms)} term(s) ({args.format})",
            {"format": args.format, "game": args.game, "terms": len(terms)})
    return 0


def _ack(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    from kb.i18n.status import acknowledge, owners

    if not args.ids and not args.all:
        err.write("kb i18n ack: name entry ids or games, or pass --all\n")
        return 2
    games = _games(kb)
    unknown = [i for i in args.ids if i not in kb.entries and i not in games]
    if unknown:
        err.write(f"kb i18n ack: unknown {unknown[0]}{hint(unknown[0], list(kb.entries) + sorted(games))}\n")
        return 2
    chosen = [o for o in owners(kb.entries.values(), kb.games) if args.all or o.id in args.ids or o.game in args.ids]
    changed = acknowledge(chosen, set(args.field) if args.field else None)
    if args.json:
        out.write(json.dumps({"updated": [format_path(p) for p in changed]}, ensure_ascii=False) + "\n")
        return 0
    for path in changed:
        out.write(f"updated {format_path(path)}\n")
    out.write(f"{len(changed)} file(s) updated\n")
    return 0


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
    import polib

    from kb.i18n.history import History
    from kb.i18n.po import import_po

    if not Path(args.file).is_file():  # polib would parse the name itself as PO text
        err.write(f"kb i18n import: {args.file}: no such file\n")
        return 2
    from kb.i18n.po import encoding_problem

    problem = encoding_problem(Path(args.file))
    if problem:
        err.write(f"{problem}; nothing imported\n")
        return 1
    try:
        po = polib.pofile(args.file)
    except (OSError, ValueError) as exc:
        err.write(f"kb i18n import: cannot read {args.file}: {exc}\n")
        return 2
    lang = po.metadata.get("Language", TARGET) or TARGET
    if lang.split("_")[0].split("-")[0] != TARGET:
        err.write(f"kb i18n import: {args.file} is a '{lang}' translation; only '{TARGET}' is imported\n")
        return 2
    result = import_po(kb, po, dry_run=args.dry_run, history=History())
    code = 1 if result.refused or result.unknown else 0
    if args.json:
        json.dump({"dry_run": args.dry_run, "exit": code,
                   "changes": [{"path": format_path(c.path), "entry": c.entry, "field": c.field, "action": c.action}
                               for c in result.changes],
                   "problems": [{"context": ctx, **d.to_json()} for ctx, d in result.problems],
                   "refused": [{"context": ctx, "reason": r} for ctx, r in result.refused],
                   "unknown": list(result.unknown), "skipped": dict(result.skipped)}, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return code
    verb = "would update" if args.dry_run else "updated"
    for c in result.changes:
        what = "English and hash" if c.action == "translated" else "hash (English reviewed, unchanged)"
        out.write(f"{format_path(c.path)}: {verb} {c.entry} {c.field}: {what}\n")
    for context, found in result.problems:
        err.write(f"{found.format()} [{context}]\n")
    for context, reason in result.refused:
        err.write(f"{args.file}: refused {context}: {reason}\n")
    for context in result.unknown:
        err.write(f"{args.file}: unknown context '{context}': no such entry and field\n")
    skipped = ", ".join(f"{n} {k}" for k, n in sorted(result.skipped.items())) or "none"
    files = len({c.path for c in result.changes}) if args.dry_run else len(result.files)
    out.write(f"{len(result.changes)} field(s) {verb} in {files} file(s); {len(result.refused)} refused, "
              f"{len(result.unknown)} unknown; skipped: {skipped}\n")
    return 1 if result.refused or result.unknown else 0


_ACTIONS: dict[str, Callable[[argparse.Namespace, KnowledgeBase, TextIO, TextIO], int]] = {
    "status": _status, "ack": _ack, "glossary": _glossary, "export": _export, "import": _import,
}


def run(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    """Dispatch ``kb i18n ACTION``."""
    return _ACTIONS[args.i18n_command](args, kb, out, err)
