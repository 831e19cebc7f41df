"""Where an entry sits: its breadcrumb, its neighbours, its citation, its source's title (pure).

An entry page opens with a breadcrumb (site › game › kind, each a link), a line with its citation
and its previous and next entries. The neighbours are those of the game's turn sequence when the
entry is one of the actions its steps allow (in the order the steps give them), else those of its
kind within the game, in the order the game page lists them.

The citation is the entry's id (``malifaux.engaged``): it is stable while the page is, and each
paragraph's copy-link button adds the paragraph's number (``[malifaux.engaged ¶3]``, see
``assets/kb-table.js``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from kb.core.model import Entry, Text
from kb.site.render import escape

__all__ = ["turn_sequence", "sequence_order", "around", "neighbours", "place_lines", "source_titles"]

Label = Callable[[str], str]


def turn_sequence(sequences: list[Entry]) -> Entry | None:
    """The game's turn sequence among its ``sequences``: a core one, preferring ids that say turn or round,
    then the longest."""
    def rank(e: Entry) -> tuple[Any, ...]:
        slug = e.id.split(".", 1)[1]
        count = len((e.data.get("sequence") or {}).get("steps", []))
        return (e.rule_type != "core", "turn" not in slug, "round" not in slug, -count, e.id)

    return min(sequences, key=rank) if sequences else None


def sequence_order(sequence: Entry | None, entries: Mapping[str, Entry]) -> list[str]:
    """Entry ids named by the steps of ``sequence`` (``allows``, depth first), in the order they come."""
    if sequence is None:
        return []
    out: list[str] = []

    def walk(items: object) -> None:  # the data may be malformed (kb check reports it): take lists and mappings only
        for step in items if isinstance(items, list) else ():
            if not isinstance(step, Mapping):
                continue
            allows = step.get("allows")
            for name in allows if isinstance(allows, list) else ():
                eid = f"{sequence.game}.{name}"
                if eid in entries and eid not in out:
                    out.append(eid)
            walk(step.get("steps"))

    block = sequence.data.get("sequence")
    walk(block.get("steps") if isinstance(block, Mapping) else None)
    return out


Around = dict[str, tuple["str | None", "str | None"]]
"""Each id of an order -> (the id before it, the id after it)."""


def around(order: list[str]) -> Around:
    """The neighbours of every id of ``order``, found once per order (looking each entry up in its order was a
    scan per page: quadratic in a game's entries, issue 28)."""
    return {eid: (order[n - 1] if n else None, order[n + 1] if n + 1 < len(order) else None)
            for n, eid in enumerate(order)}


def neighbours(entry_id: str, in_sequence: Around, in_kind: Around) -> tuple[str | None, str | None]:
    """The previous and next ids of ``entry_id``: in its sequence when it is in it, else in its kind."""
    order = in_sequence if entry_id in in_sequence and len(in_sequence) > 1 else in_kind
    return order.get(entry_id, (None, None))


def place_lines(entry: Entry, t: Label, home: str, game_page: str, game_name: str, kind_name: str,
                prev: tuple[str, str] | None, next_: tuple[str, str] | None, up: bool = True) -> list[str]:
    """The breadcrumb and the citation/neighbours line, as Markdown paragraphs with classes.

    ``home`` and ``game_page`` are relative links; ``prev``/``next_`` are (title, link) or ``None``; ``up``: the
    breadcrumb and the citation line name the game, linking its page (not on a one-game site, where the entry's meta
    line under the title says it once, in print too: the breadcrumb's kind links the game's page).
    """
    game = f"[{escape(game_name)}]({game_page}) › " if up else ""
    crumbs = f"[{escape(t('home'))}]({home}) › {game}[{escape(kind_name)}]({game_page}#{entry.kind})"
    parts = [f"{escape(t('cite_as'))} `{entry.id}`"]
    if prev:
        parts.append(f"[← {escape(prev[0])}]({prev[1]}){{: rel=prev }}")
    if up:
        parts.append(f"[{escape(game_name)}]({game_page})")
    if next_:
        parts.append(f"[{escape(next_[0])} →]({next_[1]}){{: rel=next }}")
    return [crumbs, "{: .kb-crumbs }", "", " · ".join(parts), "{: .kb-place }", ""]


def source_titles(game_data: Mapping[str, Any]) -> dict[str, Text]:
    """The titles of a game's documents (``sources:`` in ``game.yaml``), by file name."""
    out: dict[str, Text] = {}
    for src in game_data.get("sources") or ():
        if isinstance(src, Mapping) and isinstance(src.get("title"), Mapping) and "es" in src["title"]:
            out[str(src.get("doc"))] = Text(src["title"]["es"], src["title"].get("en"))
    return out
