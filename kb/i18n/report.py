"""The translation status as data: what ``kb i18n status --json`` prints and the translators' page shows.

Per game: how many fields are current, stale and missing. Per field that needs work: where it is
and, for a stale field, the Spanish now, the Spanish the English was made from (from git history,
when it still has it) and which paragraphs changed between the two.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from kb.core.diagnostics import format_path
from kb.core.model import TARGET_LANG
from kb.i18n.history import History
from kb.i18n.status import FieldStatus, Owner, field_status, owners
from kb.i18n.units import match, split

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["STATES", "status_report"]

STATES = ("current", "stale", "missing")
"""The states of a field, in the order they are reported."""


def status_report(kb: "Linked", game: str | None = None, history: History | None = None) -> dict[str, Any]:
    """Counts per game and every field that is not current (JSON-ready).

    ``games``: game -> ``{"lang", "fields", "current", "stale", "missing"}``. ``pending``: one
    mapping per missing or stale field with ``entry`` (an entry id, or a game id for its
    ``game.yaml``), ``field``, ``status``, ``path``, ``line``, ``column``; a stale one also has ``source``
    (the Spanish now), ``previous`` (the Spanish the English was made from, or ``None`` when
    ``history`` is not given or git does not have it) and ``paragraphs`` (the numbers, from 1, of
    the paragraphs and list items that changed; ``None`` without ``previous``).

    ``history`` also says, for an English with no recorded hash, which Spanish it was written
    beside (see :func:`kb.i18n.status.field_status`); without it such a field counts as current.
    """
    counts: dict[str, Counter[str]] = {}
    pending: list[dict[str, Any]] = []
    for owner in owners(kb.entries.values(), kb.games):
        if game is not None and owner.game != game:
            continue
        for st in field_status(owner, history.written_from if history is not None else None):
            counts.setdefault(owner.game, Counter())[st.status] += 1
            if st.status != "current":
                pending.append(_pending(owner, st, history))
    return {
        "games": {g: {"lang": TARGET_LANG, "fields": sum(c.values()), **{k: c.get(k, 0) for k in STATES}}
                  for g, c in sorted(counts.items())},
        "pending": pending,
    }


def _pending(owner: Owner, st: FieldStatus, history: History | None) -> dict[str, Any]:
    """The report's row of a field that is not current (a stale one with its Spanish now and before)."""
    row: dict[str, Any] = {"entry": st.entry, "field": st.field, "status": st.status,
                           "path": format_path(st.location.path), "line": st.location.line,
                           "column": st.location.column}
    if st.status == "stale":
        old = history.made_from(owner.path, st.field, st.recorded, st.translation) if history is not None else None
        changed = None
        if old is not None:
            same = match(split(old), split(st.source))
            changed = [j + 1 for j, i in sorted(same.items()) if i is None]
        row.update(source=st.source, previous=old, paragraphs=changed)
    return row
