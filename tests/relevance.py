"""The relevance set and its measures (shared by the unit test and the search benchmark)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import yaml

SET = Path(__file__).with_name("relevance.yaml")


def queries() -> list[dict]:
    """Every query of the set: ``{"q": text, "expect": [ids], ...}``."""
    return yaml.safe_load(SET.read_text(encoding="utf-8"))["queries"]


def rank(found: Sequence[str], expected: Sequence[str]) -> int | None:
    """1-based position of the first expected id in ``found``."""
    for i, ident in enumerate(found, 1):
        if ident in expected:
            return i
    return None


def measure(search: Callable[[str], Sequence[str]]) -> dict:
    """MRR, recall@3 and the misses of ``search`` (query -> ranked ids) over the set."""
    rr, top3, misses = [], 0, []
    for item in queries():
        found = list(search(item["q"]))[:10]
        r = rank(found, item["expect"])
        rr.append(1 / r if r else 0.0)
        if r and r <= 3:
            top3 += 1
        else:
            misses.append((item["q"], item["expect"], found[:3]))
    n = len(rr)
    return {"queries": n, "mrr": sum(rr) / n, "recall@3": top3 / n, "misses": misses}
