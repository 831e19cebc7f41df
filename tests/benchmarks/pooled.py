"""The held-back parts measured with the blind pooled judgments as well as the writers' expected entries.

    .venv/bin/python tests/benchmarks/pooled.py

The writers of the blind sets named the entries that answer each question before any search ran; a sibling entry
that answers as well counts as a miss. ``tests/queries/pooled/judgments.yaml`` holds blind judgments of the entries
the engine or the FTS5 baseline put above the first expected one in their top three (see its README: who judged,
what they saw). This prints, for both engines on the same text, MRR and recall@3 on each held-back part read three
ways: as written, with the entries judged ``yes`` added, and with ``partly`` added too; then how many entries above
the first relevant one in a top three were never judged (the content or ranking changed since the pool was made:
those count as not relevant, so the pooled figures are a floor).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from fts_lookup import lookup  # noqa: E402
from kb import KnowledgeBase  # noqa: E402
from relevance import BLIND, fresh, rank  # noqa: E402
from search_bench import build_fts  # noqa: E402

JUDGMENTS = REPO / "tests" / "queries" / "pooled" / "judgments.yaml"
READINGS = {"as written": (), "+ yes": ("yes",), "+ yes, partly": ("yes", "partly")}


def judged(path: Path = JUDGMENTS) -> dict[tuple[str, int], dict[str, str]]:
    """(set, n) → {entry: verdict} from the judgments file."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for row in yaml.safe_load(path.read_text(encoding="utf-8")):
        out.setdefault((row["set"], row["n"]), {})[row["entry"]] = row["verdict"]
    return out


def figures(runs: list[tuple[list[str], set[str]]]) -> tuple[float, float]:
    """MRR (within the top ten) and recall@3 of ranked ids against each item's relevant set."""
    ranks = [rank(found[:10], list(relevant)) for found, relevant in runs]
    n = len(ranks)
    return sum(1 / r for r in ranks if r) / n, sum(1 for r in ranks if r and r <= 3) / n


def main() -> None:
    verdicts = judged()
    cache = tempfile.TemporaryDirectory(prefix="kb-pooled-")
    kb = KnowledgeBase.load(REPO / "content", cache_base=cache.name)
    build_fts(kb, Path(cache.name) / "fts.db")
    db = sqlite3.connect(Path(cache.name) / "fts.db")
    engines = {"engine": lambda q, lang: [h.id for h in kb.search(q, lang=lang, limit=10).hits],
               "FTS5": lambda q, lang: list(lookup(db, q))}
    for name, path in BLIND.items():
        items = fresh("held", path)
        if not items:
            continue
        found = {e: [run(item["q"], item.get("lang")) for item in items] for e, run in engines.items()}
        for reading, kinds in READINGS.items():
            row = []
            for e in engines:
                runs = [(hits, set(item["expect"]) | {i for i, v in verdicts.get((name, item["n"]), {}).items()
                                                        if v in kinds}) for hits, item in zip(found[e], items, strict=True)]
                mrr, r3 = figures(runs)
                row.append(f"{e} {mrr:.3f} / {r3:.3f}")
            print(f"{name}-held ({len(items)}) {reading:<14} " + "   ".join(row))
        for e in engines:
            unjudged = 0
            for hits, item in zip(found[e], items, strict=True):
                seen = verdicts.get((name, item["n"]), {})
                for ident in hits[:3]:
                    if ident in item["expect"] or seen.get(ident) in ("yes", "partly"):
                        break
                    unjudged += ident not in seen
            print(f"{name}-held {e}: {unjudged} entries above the first relevant one in a top three never judged")


if __name__ == "__main__":
    main()
