"""The relevance sets and their measures (shared by the unit tests and the search benchmark).

- ``relevance.yaml``: the project's first set (many exact titles), kept as a regression floor.
- ``queries/players-tune.yaml`` and ``queries/players-heldout.yaml``: the players' set (issue 17),
  ``{q, lang, game, style, expect}``; ranking may be tuned on the first part only, the held-back
  part's figure is the one that counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import yaml

HERE = Path(__file__).resolve().parent
SET = HERE / "relevance.yaml"
PLAYERS = {"tune": HERE / "queries" / "players-tune.yaml", "heldout": HERE / "queries" / "players-heldout.yaml"}
FRESH = HERE / "queries" / "fresh" / "fresh.yaml"
"""Issue 31's fresh set: one list, each item's ``split`` (``tune`` / ``held``) fixed when it was written."""
BLIND2 = HERE / "queries" / "blind2" / "blind2.yaml"
"""A second blind batch in the fresh set's format (its README says who wrote it from what); reported beside it."""
BLIND = {"fresh": FRESH, "blind2": BLIND2}
"""Every set in the fresh set's format, by the name its figures are reported under."""
POOLED = HERE / "queries" / "pooled" / "judgments.yaml"
"""Blind judgments of entries ranked above the expected one on the held-back parts (its README; never tuned on)."""


def queries(path: Path = SET) -> list[dict]:
    """Every query of a set: ``{"q": text, "expect": [ids], ...}`` (empty when the file is absent)."""
    if not path.is_file():
        return []
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["queries"]


def judgments(path: Path = POOLED) -> list[dict]:
    """The pooled judgments: ``{set, n, entry, verdict, why, judge, control}`` rows (empty when the file is absent)."""
    if not path.is_file():
        return []
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def fresh(part: str, path: Path = FRESH) -> list[dict]:
    """The items of one part (``tune`` or ``held``) of the fresh set (issue 31; see its README), or of another set in
    its format (``path``, one of :data:`BLIND`; empty when that file is absent)."""
    if part not in ("tune", "held"):
        raise ValueError(f"part must be 'tune' or 'held', not {part!r}")
    if path != FRESH and not path.is_file():
        return []
    items = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for item in items:
        if not all(isinstance(a, str) and a for a in item["answer"]):
            raise ValueError(f"{path}: item n={item['n']}: every answer phrase must be a non-empty string (quote yes/no)")
    return [item for item in items if item["split"] == part]


def rank(found: Sequence[str], expected: Sequence[str]) -> int | None:
    """1-based position of the first expected id in ``found``."""
    for i, ident in enumerate(found, 1):
        if ident in expected:
            return i
    return None


def _summary(rows: list[tuple[dict, int | None]]) -> dict:
    n = len(rows)
    rr = [1 / r if r else 0.0 for _, r in rows]
    return {"queries": n, "mrr": sum(rr) / n if n else 0.0,
            "recall@3": sum(1 for _, r in rows if r and r <= 3) / n if n else 0.0}


def measure(search: Callable[..., Sequence[str]], items: list[dict] | None = None, with_lang: bool = False) -> dict:
    """MRR, recall@3 and the misses of ``search`` over ``items`` (default: relevance.yaml), and the same
    figures by style, language and game when the items carry them. ``search(q)`` returns ranked ids;
    with ``with_lang`` it is called as ``search(q, lang)`` with the item's language."""
    items = queries() if items is None else items
    rows: list[tuple[dict, int | None]] = []
    misses = []
    for item in items:
        found = list(search(item["q"], item.get("lang")) if with_lang else search(item["q"]))[:10]
        r = rank(found, item["expect"])
        rows.append((item, r))
        if not (r and r <= 3):
            misses.append((item["q"], item["expect"], found[:3]))
    out = {**_summary(rows), "misses": misses}
    for facet in ("style", "lang", "game"):
        values = sorted({item[facet] for item, _ in rows if facet in item})
        if values:
            out[f"by_{facet}"] = {v: _summary([(i, r) for i, r in rows if i.get(facet) == v]) for v in values}
    return out


def passage_answers(kb, items: list[dict]) -> dict:
    """How often the passage a hit shows holds the answer (issue 31): over the items whose first hit is an
    expected entry, the share whose passage text holds one of the item's ``answer`` phrases (folded,
    case- and accent-insensitive substring). ``kb``: a :class:`kb.KnowledgeBase`."""
    from kb.core.terms import fold

    first = found = 0
    for item in items:
        answers = item["answer"]
        hits = kb.search(item["q"], lang=item.get("lang"), limit=1).hits
        if not hits or hits[0].id not in item["expect"]:
            continue
        first += 1
        text = fold(hits[0].passage.text.lower()) if hits[0].passage else ""
        found += any(fold(a.lower()) in text for a in answers)
    return {"first": first, "answered": found, "share": found / first if first else 0.0}
