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

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from fts_lookup import lookup  # noqa: E402
from kb import KnowledgeBase  # noqa: E402
from relevance import BLIND, fresh, judgments, measure  # noqa: E402
from search_bench import build_fts  # noqa: E402

READINGS = {"as written": (), "+ yes": ("yes",), "+ yes, partly": ("yes", "partly")}


def judged() -> dict[tuple[str, int], dict[str, str]]:
    """(set, n) → {entry: verdict} from the pooled judgments."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for row in judgments():
        out.setdefault((row["set"], row["n"]), {})[row["entry"]] = row["verdict"]
    return out


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
            relevant = [{**item, "expect": [*item["expect"], *(i for i, v in verdicts.get((name, item["n"]), {}).items()
                                                                if v in kinds)]} for item in items]
            row = []
            for e in engines:
                hits = {(item["q"], item.get("lang")): h for item, h in zip(items, found[e], strict=True)}
                res = measure(lambda q, lang, hits=hits: hits[(q, lang)], relevant, with_lang=True)
                row.append(f"{e} {res['mrr']:.3f} / {res['recall@3']:.3f}")
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
