"""Search, side by side with a plain SQLite FTS5 baseline given the same text, on the bundled content.

    .venv/bin/python tests/benchmarks/search_bench.py [--runs N] [--misses] [--process-only] [--process-runs N]

Relevance on three sets: `tests/relevance.yaml` (the regression floor), the players' set's tuning
part and its held-back part (`tests/queries/`; the held-back figure is the one that counts), each
by style, language and game, for both engines; then warm query median and p95 of each over every
query of the three sets (after one warm-up pass, N timed passes: the open searcher then holds the
decoded postings of these queries' terms), the same for the first pass on a new searcher, the whole-process time
(wall and CPU, medians, the commands taking turns) of `kb search` against a minimal FTS5 lookup script on the same
three queries, with bytecode cached as an installed user has it, beside the floor (a process that only imports
NumPy and Whoosh), and the budgets (`--process-only`: the whole-process figures alone). `--misses` lists the tuning
part's misses (never the held-back part's).

The index is built afresh in a temporary folder (``$KB_CACHE`` for this run and its ``kb search`` processes): an index
updated in place keeps its deleted documents in ``N`` and the document frequencies until a merge (as Whoosh and Lucene
do), so figures taken on it would depend on the edits made since it was built.

FTS5 gets exactly the text the engine indexes — per entry and language the title, the other names
(other-language title, players' names, glossary forms and abbreviations, tags, id words), the
players' questions, the summary and the body — in the same columns with the same weights
(`kb.search.ranking.Params.field_weights`), `unicode61 remove_diacritics 2` (case and accent folding; FTS5
has no Spanish stemmer), any-word matching, BM25, one hit per entry.
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

from fts_lookup import COLUMNS, lookup  # noqa: E402
from kb import KnowledgeBase  # noqa: E402
from kb.search.index import documents  # noqa: E402
from kb.search.ranking import DEFAULTS  # noqa: E402
from relevance import BLIND, PLAYERS, fresh, measure, queries  # noqa: E402

BUDGET_P95_MS = 5.0
"""Warm query p95 on the bundled content (issue 17)."""
PROCESS_RATIO = 4.0
"""A whole ``kb search`` process against the FTS5 lookup script, both with bytecode cached (issue 31, item 6)."""
PROCESS_QUERIES = ("linea de vision", "cuantos dados tiro al disparar a traves de cobertura", "linea de visoin")
"""The whole-process queries: words the index holds, a longer question, a typo (the spelling guard's word lists)."""
FLOOR = "import os; os.environ.setdefault('OPENBLAS_NUM_THREADS', '1'); import numpy, whoosh.index, whoosh.searching"
"""What any query process of this engine imports, as ``kb`` imports it (no OpenBLAS threads): the floor, printed."""


def build_fts(kb: KnowledgeBase, path: Path) -> float:
    """Write the FTS5 baseline for ``kb`` into ``path`` (the engine's documents, field for field, and its field
    weights, ``kb.ranking`` or the defaults, as the columns' BM25 weights); returns seconds."""
    start = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute(f"CREATE VIRTUAL TABLE docs USING fts5(entry UNINDEXED, {', '.join(COLUMNS)}, "
               "tokenize='unicode61 remove_diacritics 2')")
    rows = []
    for entry in kb.entries.values():
        for doc in documents(kb, entry):
            lang = doc["lang"]
            rows.append((doc["entry"], *(doc[f"{c}_{lang}"] for c in COLUMNS)))
    db.executemany(f"INSERT INTO docs VALUES (?{', ?' * len(COLUMNS)})", rows)
    db.execute("CREATE TABLE weights(name TEXT PRIMARY KEY, weight REAL)")  # the engine's own figures (fts_lookup.weights)
    field_weights = (kb.ranking or DEFAULTS).field_weights
    db.executemany("INSERT INTO weights VALUES (?, ?)", [(c, field_weights[c]) for c in COLUMNS])
    db.commit()
    db.close()
    return time.perf_counter() - start


def timed(fn, items: list[str], runs: int, first: list[float] | None = None) -> list[float]:
    """Milliseconds of each call, after one warm-up pass (whose times go to ``first`` when given)."""
    for q in items:
        t = time.perf_counter()
        fn(q)
        if first is not None:
            first.append((time.perf_counter() - t) * 1000)
    out = []
    for _ in range(runs):
        for q in items:
            t = time.perf_counter()
            fn(q)
            out.append((time.perf_counter() - t) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def process_ms(commands: list[list[str]], runs: int, env: dict[str, str]) -> list[tuple[float, float]]:
    """(median wall, median CPU) milliseconds of running each command as a fresh process, the commands taking turns
    run by run (a busy machine slows them alike); CPU is the process's user + system time, its threads' included."""
    import resource

    for argv in commands:  # warm-up: writes the bytecode an installed user has
        subprocess.run(argv, check=True, capture_output=True, env=env)
    wall: list[list[float]] = [[] for _ in commands]
    cpu: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for i, argv in enumerate(commands):
            before, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            wall[i].append((time.perf_counter() - t) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[i].append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(wall, cpu, strict=True)]


def relevance(kb: KnowledgeBase, db: sqlite3.Connection) -> dict[str, tuple[dict, dict]]:
    """(engine, FTS5) figures for each set."""
    ours = lambda q, lang=None: [h.id for h in kb.search(q, lang=lang, limit=10).hits]  # noqa: E731
    base = lambda q, lang=None: lookup(db, q)  # noqa: E731
    out = {"relevance.yaml": (measure(ours), measure(base))}
    for part, path in PLAYERS.items():
        items = queries(path)
        if items:
            out[f"players-{part}"] = (measure(ours, items, with_lang=True), measure(base, items, with_lang=True))
    for name, path in BLIND.items():
        for part in ("tune", "held"):
            items = fresh(part, path)
            if items:
                out[f"{name}-{part}"] = (measure(ours, items, with_lang=True), measure(base, items, with_lang=True))
    return out


def report(figures: dict[str, tuple[dict, dict]]) -> None:
    print(f"{'set / slice':<34} {'n':>4} {'kb MRR':>7} {'FTS5':>6} {'diff':>6} {'kb R@3':>7} {'FTS5':>6}")
    for name, (ours, base) in figures.items():
        rows = [(name, ours, base)]
        for facet in ("by_style", "by_lang", "by_game"):
            for key in ours.get(facet, {}):
                rows.append((f"  {facet[3:]} {key}", ours[facet][key], base[facet][key]))
        for label, a, b in rows:
            print(f"{label:<34} {a['queries']:>4} {a['mrr']:>7.3f} {b['mrr']:>6.3f} {a['mrr'] - b['mrr']:>+6.3f} "
                  f"{a['recall@3']:>7.3f} {b['recall@3']:>6.3f}")


def processes(db_path: Path, runs: int) -> list[tuple[str, str, str, str]]:
    """Rows of the whole-process figures, ``kb search`` beside the FTS5 script on each of :data:`PROCESS_QUERIES`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    kb_exe = str(Path(sys.executable).with_name("kb"))
    commands = [[kb_exe, "--content", str(REPO / "content"), "search", q, "--json"] for q in PROCESS_QUERIES]
    commands += [[sys.executable, str(HERE / "fts_lookup.py"), str(db_path), q] for q in PROCESS_QUERIES]
    commands.append([sys.executable, "-c", FLOOR])
    procs = process_ms(commands, runs, env)
    n = len(PROCESS_QUERIES)
    ours, base, floor = procs[:n], procs[n:2 * n], procs[-1]
    rows = [(f"whole process {what}, {q[:18]!r} (ms)", f"{a[k]:.0f}", f"{b[k]:.0f}", f"{a[k] / b[k]:.1f}x")
            for q, a, b in zip(PROCESS_QUERIES, ours, base, strict=True) for what, k in (("wall", 0), ("CPU", 1))]
    rows.append(("  imports alone, wall / CPU (ms)", f"{floor[0]:.0f} / {floor[1]:.0f}", "",
                 f"{floor[0] / statistics.median(b[0] for b in base):.1f}x"))
    return rows


def process_verdict(rows: list[tuple[str, str, str, str]]) -> str:
    worst = max(float(r[3][:-1]) for r in rows if r[0].startswith("whole process wall"))
    return (f"budget: a whole kb search process <= {PROCESS_RATIO:.0f}x the FTS5 script (wall, worst query): "
            f"{'met' if worst <= PROCESS_RATIO else 'NOT met'} ({worst:.1f}x; "
            f"importing NumPy and Whoosh alone: {rows[-1][3]}); load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timed passes over the query sets (default 5)")
    ap.add_argument("--process-runs", type=int, default=9, help="runs of each whole-process command (default 9)")
    ap.add_argument("--process-only", action="store_true", help="only the whole-process figures")
    ap.add_argument("--misses", action="store_true", help="list the misses of the tuning part (never the held-back part)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["KB_CACHE"] = str(Path(tmp) / "cache")  # a clean index, as a fresh checkout builds it (below)
        kb = KnowledgeBase.load(REPO / "content")
        kb.search("warm up")  # builds our index
        db_path = Path(tmp) / "fts.db"
        fts_build = build_fts(kb, db_path)
        if args.process_only:
            rows = processes(db_path, args.process_runs)
            print(f"{'measure':<40} {'kb search':>12} {'FTS5 script':>12} {'ratio':>8}")
            for name, a, b, r in rows:
                print(f"{name:<40} {a:>12} {b:>12} {r:>8}")
            print(process_verdict(rows))
            return
        db = sqlite3.connect(db_path)
        figures = relevance(kb, db)
        texts = [item["q"] for item in queries()] + [i["q"] for p in PLAYERS.values() for i in queries(p)]
        kb.search_reader()._open()  # a new searcher: the first pass decodes postings as a fresh process would
        our_first: list[float] = []
        fts_first: list[float] = []
        our_ms = timed(lambda q: kb.search(q, limit=10), texts, args.runs, our_first)
        fts_ms = timed(lambda q: lookup(db, q), texts, args.runs, fts_first)
        process_rows = processes(db_path, args.process_runs)

    print(f"Search on the bundled content: {len(kb.entries)} entries, both languages\n")
    report(figures)
    rows = [
        ("warm query median (ms)", f"{statistics.median(our_ms):.2f}", f"{statistics.median(fts_ms):.3f}",
         f"{statistics.median(our_ms) / statistics.median(fts_ms):.0f}x"),
        ("warm query p95 (ms)", f"{p95(our_ms):.2f}", f"{p95(fts_ms):.3f}", f"{p95(our_ms) / p95(fts_ms):.0f}x"),
        ("first pass median (ms)", f"{statistics.median(our_first):.2f}", f"{statistics.median(fts_first):.3f}",
         f"{statistics.median(our_first) / statistics.median(fts_first):.0f}x"),
        ("first pass p95 (ms)", f"{p95(our_first):.2f}", f"{p95(fts_first):.3f}", f"{p95(our_first) / p95(fts_first):.0f}x"),
        *process_rows,
        ("index build (s)", "(cached)", f"{fts_build:.3f}", ""),
    ]
    print(f"\n{len(texts)} queries x {args.runs} passes")
    print(f"{'measure':<40} {'kb (Whoosh)':>12} {'SQLite FTS5':>12} {'ratio':>8}")
    for name, a, b, r in rows:
        print(f"{name:<40} {a:>12} {b:>12} {r:>8}")
    print(process_verdict(process_rows))
    verdict = "met" if p95(our_ms) <= BUDGET_P95_MS else "NOT met"
    print(f"budget: warm p95 <= {BUDGET_P95_MS:.0f} ms on the bundled content: {verdict} ({p95(our_ms):.2f} ms)")
    if args.misses and "players-tune" in figures:
        print("\nmisses of the tuning part:")
        for q, want, got in figures["players-tune"][0]["misses"]:
            print(f"  {q!r}: want {want}, got {got}")


if __name__ == "__main__":
    main()
