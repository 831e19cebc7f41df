"""Search, side by side with a plain SQLite FTS5 baseline, on the bundled content and the relevance set.

    .venv/bin/python tests/benchmarks/search_bench.py [--runs N]

Prints MRR and recall@3 of each engine, warm query median and p95 of each, the whole-process time
of `kb search` against a minimal FTS5 lookup script, and the ratios, all measured in one run.
FTS5 uses `unicode61 remove_diacritics 2` (case and accent folding, no stemming, no synonyms) over
the same title/summary/body text, BM25 with the same field weights, any-word matching.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from fts_lookup import lookup  # noqa: E402
from kb import KnowledgeBase  # noqa: E402
from kb.search.index import documents  # noqa: E402
from relevance import measure, queries  # noqa: E402


def build_fts(kb: KnowledgeBase, path: Path) -> float:
    """Write the FTS5 baseline for ``kb`` into ``path``; returns seconds."""
    start = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(entry UNINDEXED, title, summary, body, "
               "tokenize='unicode61 remove_diacritics 2')")
    rows = []
    for entry in kb.entries.values():
        for doc in documents(kb, entry):
            lang = doc["lang"]
            rows.append((doc["entry"], doc[f"title_{lang}"], doc[f"summary_{lang}"], doc[f"body_{lang}"]))
    db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    return time.perf_counter() - start


def timed(fn, items: list[str], runs: int) -> list[float]:
    """Milliseconds of each call, after one warm-up pass."""
    for q in items:
        fn(q)
    out = []
    for _ in range(runs):
        for q in items:
            t = time.perf_counter()
            fn(q)
            out.append((time.perf_counter() - t) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def process_ms(argv: list[str], runs: int, env: dict[str, str]) -> float:
    """Median wall time of running ``argv`` as a fresh process."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=env)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timed passes over the query set (default 5)")
    args = ap.parse_args()
    kb = KnowledgeBase.load(REPO / "content")
    kb.search("warm up")  # builds or refreshes our index
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "fts.db"
        fts_build = build_fts(kb, db_path)
        db = sqlite3.connect(db_path)
        ours = measure(lambda q: [h.id for h in kb.search(q, limit=10).hits])
        base = measure(lambda q: lookup(db, q))
        texts = [item["q"] for item in queries()]
        our_ms = timed(lambda q: kb.search(q, limit=10), texts, args.runs)
        fts_ms = timed(lambda q: lookup(db, q), texts, args.runs)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        sample = "linea de vision"
        kb_cmd = [str(Path(sys.executable).with_name("kb")), "--content", str(REPO / "content"), "search", sample, "--json"]
        fts_cmd = [sys.executable, str(HERE / "fts_lookup.py"), str(db_path), sample]
        kb_proc, fts_proc = process_ms(kb_cmd, 7, env), process_ms(fts_cmd, 7, env)

    rows = [
        ("queries", f"{ours['queries']}", f"{base['queries']}", ""),
        ("MRR", f"{ours['mrr']:.3f}", f"{base['mrr']:.3f}", f"{ours['mrr'] / max(base['mrr'], 1e-9):.2f}x"),
        ("recall@3", f"{ours['recall@3']:.3f}", f"{base['recall@3']:.3f}", f"{ours['recall@3'] / max(base['recall@3'], 1e-9):.2f}x"),
        ("warm query median (ms)", f"{statistics.median(our_ms):.2f}", f"{statistics.median(fts_ms):.3f}",
         f"{statistics.median(our_ms) / statistics.median(fts_ms):.0f}x"),
        ("warm query p95 (ms)", f"{p95(our_ms):.2f}", f"{p95(fts_ms):.3f}", f"{p95(our_ms) / p95(fts_ms):.0f}x"),
        ("whole process, one search (ms)", f"{kb_proc:.0f}", f"{fts_proc:.0f}", f"{kb_proc / fts_proc:.1f}x"),
        ("index build (s)", "(cached)", f"{fts_build:.3f}", ""),
    ]
    print(f"Search on the bundled content: {len(kb.entries)} entries, both languages")
    print(f"{'measure':<32} {'kb (Whoosh)':>12} {'SQLite FTS5':>12} {'ratio':>8}")
    for name, a, b, r in rows:
        print(f"{name:<32} {a:>12} {b:>12} {r:>8}")
    print(f"\nFTS5 misses ({len(base['misses'])}), first 10:")
    for q, want, got in base["misses"][:10]:
        print(f"  {q!r}: want {want[0]}, got {got[:1]}")
    print(f"kb misses ({len(ours['misses'])}):")
    for q, want, got in ours["misses"]:
        print(f"  {q!r}: want {want[0]}, got {got[:1]}")


if __name__ == "__main__":
    main()
