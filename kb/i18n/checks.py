"""The checks ``kb check`` makes of an English text, run on a translation before it is imported.

Markup (``raw-html``), links (``malformed-link``, ``unknown-link-type``, ``unresolved-link``,
``link-kind-mismatch``) and the glossary (``glossary-forbidden``, ``glossary-missing``), each
located at the offending word through ``locate`` (an offset in the English -> a location).
"""

from __future__ import annotations

from typing import Callable, Mapping

from kb.core.diagnostics import Diagnostic, diag, hint
from kb.core.model import Entry, Location, Text
from kb.core.terms import TermIndex
from kb.core.validate import RAW_HTML
from kb.i18n.status import Owner, glossary_problems
from kb.link.linker import LINK_TYPES, anchors, parse_links

__all__ = ["check_english"]


def check_english(owner: Owner, field: str, source: str, english: str, entries: Mapping[str, Entry], terms: TermIndex,
                  titles: Mapping[str, Text], locate: Callable[[int], Location]) -> list[Diagnostic]:
    """Every problem ``kb check`` would report in ``english`` as the translation of ``source``."""
    out = []
    m = RAW_HTML.search(english)
    if m:
        out.append(diag("raw-html", locate(m.start()), tag=m.group(0)[:40], field=field))
    good, bad = parse_links(english)
    for off in bad:
        out.append(diag("malformed-link", locate(off), text=english[off:off + 40].split("\n")[0]))
    for link in good:
        where = locate(link.start())
        kind, target, anchor = link["type"], link["target"], link["anchor"]
        found = entries.get(target)
        if kind not in LINK_TYPES:
            out.append(diag("unknown-link-type", where, type=kind, valid=", ".join(LINK_TYPES), hint=hint(kind, LINK_TYPES)))
        elif found is None:
            same_ns = [i for i in entries if i.split(".", 1)[0] == target.split(".", 1)[0]]
            out.append(diag("unresolved-link", where, target=target, hint=hint(target, same_ns or list(entries))))
        elif found.kind != kind:
            out.append(diag("link-kind-mismatch", where, type=kind, target=target, kind=found.kind))
        elif anchor is not None and anchor not in anchors(found):
            out.append(diag("unresolved-link", where, target=f"{target}#{anchor}", hint=hint(anchor, anchors(found))))
    for p in glossary_problems(owner, source, english, terms, titles):
        out.append(diag(p.code, locate(p.offset or 0), field=field, **p.params))
    return out
