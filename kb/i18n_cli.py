"""``kb i18n``: the translators' commands (status, ack, export, import)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Callable, TextIO

from .api import KnowledgeBase
from .diagnostics import format_path, hint
from .i18n import TARGET, acknowledge, field_status

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction, handler: Callable[..., int]) -> None:
    """Register ``kb i18n`` and its subcommands."""
    p = sub.add_parser("i18n", help="translation status, acknowledging edits, PO export and import")
    isub = p.add_subparsers(dest="i18n_command", metavar="ACTION", parser_class=type(p))
    isub.required = True
    st = isub.add_parser("status", help="missing and stale English fields, per game")
    st.add_argument("--game", help="only this game")
    st.add_argument("--json", action="store_true", help="print JSON")
    st.add_argument("--check", action="store_true", help="exit 1 when any field is missing or stale (for CI)")
    ack = isub.add_parser("ack", help="mark English fields as current for the Spanish as it is now")
    ack.add_argument("ids", nargs="*", help="entry ids or games")
    ack.add_argument("--all", action="store_true", help="every entry")
    ack.add_argument("--field", action="append", help="only this field (repeatable), e.g. text or summary")
    p.set_defaults(func=handler)


def _status(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    if args.game and args.game not in kb.games:
        err.write(f"kb i18n status: unknown game '{args.game}'{hint(args.game, kb.games)}\n")
        return 2
    rows = [st for e in kb.entries.values() if not args.game or e.game == args.game for st in field_status(e)]
    counts: dict[str, Counter[str]] = {}
    for st in rows:
        counts.setdefault(kb.entries[st.entry].game, Counter())[st.status] += 1
    pending = [st for st in rows if st.status != "current"]
    if args.json:
        json.dump({
            "games": {g: {"lang": TARGET, "fields": sum(c.values()), **{k: c.get(k, 0) for k in ("current", "stale", "missing")}}
                      for g, c in sorted(counts.items())},
            "pending": [{"entry": st.entry, "field": st.field, "status": st.status, "path": format_path(st.location.path),
                         "line": st.location.line} for st in pending],
        }, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(f"{'game':<22} lang {'fields':>7} {'current':>8} {'stale':>6} {'missing':>8}\n")
        for g, c in sorted(counts.items()):
            out.write(f"{g:<22} {TARGET:<4} {sum(c.values()):>7} {c['current']:>8} {c['stale']:>6} {c['missing']:>8}\n")
        for st in pending:
            loc = st.location
            out.write(f"{format_path(loc.path)}:{loc.line}:{loc.column}: {st.status}: {st.entry} {st.field}\n")
    return 1 if args.check and pending else 0


def _ack(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    if not args.ids and not args.all:
        err.write("kb i18n ack: name entry ids or games, or pass --all\n")
        return 2
    unknown = [i for i in args.ids if i not in kb.entries and i not in kb.games]
    if unknown:
        err.write(f"kb i18n ack: unknown {unknown[0]}{hint(unknown[0], list(kb.entries) + list(kb.games))}\n")
        return 2
    chosen = [e for e in kb.entries.values() if args.all or e.id in args.ids or e.game in args.ids]
    changed = acknowledge(chosen, set(args.field) if args.field else None)
    for path in changed:
        out.write(f"updated {format_path(path)}\n")
    out.write(f"{len(changed)} file(s) updated\n")
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace, KnowledgeBase, TextIO, TextIO], int]] = {"status": _status, "ack": _ack}


def run(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    """Dispatch ``kb i18n ACTION``."""
    return _ACTIONS[args.i18n_command](args, kb, out, err)


