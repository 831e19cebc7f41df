"""How each cost grows with the size of the knowledge base, measured side by side with peers in one run.

    .venv/bin/python tests/benchmarks/scale_bench.py [--sizes 1000,5000,20000] [--site-sizes 1000]

For each N, a deterministic synthetic corpus (tests/benchmarks/corpus.py) is generated and measured:

- load + validate + link, cold (no cache) and warm (parsed and linked caches), with peak memory of
  `kb check`, and the growth factor from the smallest to the largest N;
- the full search-index build against building a SQLite FTS5 index of the same text;
- an incremental update after editing one file, as a share of the full build (index work only,
  and end to end including reloading the knowledge base);
- warm query median and p95 against FTS5, and whole-process `kb search` against a minimal FTS5 script;
- the site build (both languages, `kb build`) against plain MkDocs building the same pages written
  out as Markdown, with peak memory of each (only for --site-sizes: MkDocs is slow on large sites).

Timings are medians of repeated runs where cheap, single runs where not; read ratios, not absolutes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(HERE)]

from corpus import EN, ES, generate  # noqa: E402
from fts_lookup import lookup  # noqa: E402
from search_bench import build_fts, p95  # noqa: E402

BUDGET_P95_MS = 100.0
"""Warm query p95 at 20,000 entries (issue 17)."""
PY = sys.executable
KB = "kb"  # run as a module through peak.py


def run(argv: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float]:
    """Wall seconds and the child's own peak resident memory (MiB) of one Python child process.

    ``argv`` is ``[MODULE, ARGS...]``, run as ``python peak.py MODULE ARGS...``: the child records its
    own ``VmHWM`` (see peak.py), not a figure that counts the benchmark's pages it shared after fork.
    """
    with tempfile.NamedTemporaryFile(suffix=".peak") as peak:
        start = time.perf_counter()
        proc = subprocess.run([PY, str(HERE / "peak.py"), *argv], env={**env, "PEAK_FILE": peak.name}, cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{argv} failed: {proc.stderr.decode()[-2000:]}")
        return elapsed, int(Path(peak.name).read_text() or 0) / 1024


def _children_cpu() -> float:
    """User + system CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_seconds(root: Path, env: dict[str, str], use_cache: bool) -> float:
    code = ("import sys, time; from kb import KnowledgeBase; t = time.perf_counter(); "
            f"KnowledgeBase.load(sys.argv[1], use_cache={use_cache}); print(time.perf_counter() - t)")
    out = subprocess.run([PY, "-c", code, str(root)], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def queries(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = ES + EN
    return [" ".join(rng.choice(words) for _ in range(rng.choice((1, 1, 2, 3)))) for _ in range(n)]


def index_figures(root: Path, env: dict[str, str], tmp: Path) -> dict[str, float]:
    """Full build, incremental update and queries, ours against FTS5."""
    from kb import KnowledgeBase
    from kb.search.index import SearchIndex

    kb = KnowledgeBase.load(root)
    index = SearchIndex(root, tmp / "index")
    t = time.perf_counter()
    index.ensure(lambda: kb)
    full = time.perf_counter() - t
    db_path = tmp / "fts.db"
    fts_build = build_fts(kb, db_path)

    victim = next(root.glob("game-0/rules/rule-1.yaml"))
    victim.write_text(victim.read_text(encoding="utf-8").replace("source:", "tags:\n    - 'editado'\nsource:", 1),
                      encoding="utf-8")
    t = time.perf_counter()
    kb2 = KnowledgeBase.load(root)
    reload = time.perf_counter() - t
    t = time.perf_counter()
    assert index.ensure(lambda: kb2) == "updated"
    update = time.perf_counter() - t

    db = sqlite3.connect(db_path)
    qs = queries(200)
    ours, base = [], []
    reader = index.open()  # one searcher kept open, as a long-lived KnowledgeBase does
    for q in qs[:20]:
        reader.search(q), lookup(db, q)
    for q in qs:
        s = time.perf_counter()
        reader.search(q)
        ours.append((time.perf_counter() - s) * 1000)
        s = time.perf_counter()
        lookup(db, q)
        base.append((time.perf_counter() - s) * 1000)
    cli_env = {**env, "KB_CACHE": str(tmp / "index-cli")}
    run([KB, "--content", str(root), "search", "warm"], cli_env)
    kb_proc = statistics.median(run([KB, "--content", str(root), "search", "ataque carga"], cli_env)[0] for _ in range(5))
    fts_proc = statistics.median(run(["fts_lookup", str(db_path), "ataque carga"], {**env, "PYTHONPATH": str(HERE)})[0]
                                 for _ in range(5))
    return {"index_full": full, "fts_build": fts_build, "update": update, "reload": reload,
            "q_med": statistics.median(ours), "q_p95": p95(ours), "fts_med": statistics.median(base),
            "fts_p95": p95(base), "kb_proc": kb_proc, "fts_proc": fts_proc}


def site_figures(root: Path, env: dict[str, str], tmp: Path, runs: int,
                 edit: Callable[[int], None] | None = None, clean: bool = False) -> dict[str, float]:
    """`kb build` against plain MkDocs building the same pages written out as Markdown: medians of ``runs``.
    ``edit(n)``, when given, changes the content before the ``n``-th `kb build` (the build after one edit); ``clean``:
    `kb build --clean` (every page rendered, none copied from the last build of the folder)."""
    from kb import KnowledgeBase
    from kb.site.pages import build_site
    from kb.site.structure import nav_config

    import yaml

    kb = KnowledgeBase.load(root)
    results = kb.run_examples()
    base_cfg = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    configs = []
    for lang in ("es", "en"):
        site = build_site(kb, results, lang)
        docs = tmp / f"plain-{lang}"
        for page in site.pages:
            path = docs / page.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page.markdown, encoding="utf-8")
        shutil.copytree(REPO / "kb" / "site" / "assets", docs, dirs_exist_ok=True)
        cfg = {**base_cfg, "docs_dir": str(docs), "site_dir": str(tmp / f"plain-site-{lang}"),
               "plugins": [p for p in base_cfg["plugins"] if p != "kb"], "nav": nav_config(site.nav),
               "theme": {**base_cfg["theme"], "language": lang}}
        cfg_path = tmp / f"mkdocs-{lang}.yml"
        cfg_path.write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
        configs.append(cfg_path)
    ours, ours_mem, plain, plain_mem = [], 0.0, [], 0.0
    ours_cpu, plain_cpu = [], []
    for n in range(runs):
        if edit is not None:
            edit(n)
        cpu = _children_cpu()
        seconds, mem = run([KB, "--content", str(root), "build", "--config", str(REPO / "mkdocs.yml"), "--site-dir", str(tmp / "site-kb"),
                            *(["--clean"] if clean else [])], env, cwd=REPO)
        ours_cpu.append(_children_cpu() - cpu)
        ours.append(seconds)
        ours_mem = max(ours_mem, mem)
        total, cpu = 0.0, _children_cpu()
        for cfg_path in configs:
            seconds, mem = run(["mkdocs", "build", "-q", "-f", str(cfg_path)], env)
            total += seconds
            plain_mem = max(plain_mem, mem)
        plain_cpu.append(_children_cpu() - cpu)
        plain.append(total)
    ratios = sorted(a / b for a, b in zip(ours, plain))
    return {"site": statistics.median(ours), "site_mem": ours_mem, "plain": statistics.median(plain),
            "site_cpu": statistics.median(ours_cpu), "plain_cpu": statistics.median(plain_cpu),
            "cpu_ratio": statistics.median(a / b for a, b in zip(ours_cpu, plain_cpu)),
            "plain_mem": plain_mem, "pages": 2 * len(site.pages), "site_runs": runs,
            "ratio_med": statistics.median(ratios), "ratio_min": ratios[0], "ratio_max": ratios[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,5000,20000", help="corpus sizes (default 1000,5000,20000)")
    ap.add_argument("--site-sizes", default="1000", help="sizes that also build the site (default 1000; '' for none)")
    ap.add_argument("--site-runs", type=int, default=3, help="site builds per size, medians reported (default 3)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    site_sizes = {int(s) for s in args.site_sizes.split(",") if s}
    rows: dict[int, dict[str, float]] = {}
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            root = tmp / "content"
            files = generate(root, n)
            env = {**os.environ, "KB_CACHE": str(tmp / "cache"), "NO_MKDOCS_2_WARNING": "1"}
            fig: dict[str, float] = {"files": files}
            fig["cold"] = load_seconds(root, env, use_cache=False)
            fig["check_s"], fig["check_mem"] = run([KB, "check", str(root)], env)  # fills the caches
            fig["warm"] = statistics.median(load_seconds(root, env, use_cache=True) for _ in range(3))
            os.environ["KB_CACHE"] = env["KB_CACHE"]
            fig.update(index_figures(root, env, tmp))
            if n in site_sizes:
                fig.update(site_figures(root, env, tmp, args.site_runs))
            rows[n] = fig
            print(f"measured N={n}: {json.dumps({k: round(v, 4) for k, v in fig.items()})}", file=sys.stderr)
    report(rows)


def report(rows: dict[int, dict[str, float]]) -> None:
    sizes = sorted(rows)
    print(f"{'N (files)':<44}" + "".join(f"{rows[n]['files']:>12.0f}" for n in sizes))

    def line(label: str, fn) -> None:
        cells = []
        for n in sizes:
            try:
                cells.append(f"{fn(rows[n]):>12}")
            except KeyError:
                cells.append(f"{'-':>12}")
        print(f"{label:<44}" + "".join(cells))

    line("load+validate+link, cold (s)", lambda r: f"{r['cold']:.2f}")
    line("load+validate+link, cached (s)", lambda r: f"{r['warm']:.2f}")
    line("kb check process, cold (s)", lambda r: f"{r['check_s']:.2f}")
    line("kb check peak memory (MiB)", lambda r: f"{r['check_mem']:.0f}")
    line("index full build (s)", lambda r: f"{r['index_full']:.2f}")
    line("FTS5 build (s)", lambda r: f"{r['fts_build']:.2f}")
    line("  ratio kb/FTS5", lambda r: f"{r['index_full'] / r['fts_build']:.1f}x")
    line("update after one edit, index (s)", lambda r: f"{r['update']:.3f}")
    line("  share of full build", lambda r: f"{100 * r['update'] / r['index_full']:.1f}%")
    line("update after one edit, with reload (s)", lambda r: f"{r['update'] + r['reload']:.2f}")
    line("  share of full build + cold load", lambda r: f"{100 * (r['update'] + r['reload']) / (r['index_full'] + r['cold']):.1f}%")
    line("warm query median, kb / FTS5 (ms)", lambda r: f"{r['q_med']:.1f}/{r['fts_med']:.2f}")
    line("warm query p95, kb / FTS5 (ms)", lambda r: f"{r['q_p95']:.1f}/{r['fts_p95']:.2f}")
    line(f"  budget p95 <= {BUDGET_P95_MS:.0f} ms at 20,000", lambda r: ("met" if r["q_p95"] <= BUDGET_P95_MS else "NOT met")
         if r["files"] >= 20000 else "-")
    line("whole process search, kb / FTS5 (ms)", lambda r: f"{1000 * r['kb_proc']:.0f}/{1000 * r['fts_proc']:.0f}")
    line("  ratio", lambda r: f"{r['kb_proc'] / r['fts_proc']:.1f}x")
    line("site pages (both languages)", lambda r: f"{r['pages']:.0f}")
    line("site build, kb build (s)", lambda r: f"{r['site']:.1f}")
    line("site build, plain MkDocs same pages (s)", lambda r: f"{r['plain']:.1f}")
    line("  overhead ratio, median of runs (goal <= 1.3x)", lambda r: f"{r['ratio_med']:.2f}x")
    line("  overhead ratio, min-max of runs", lambda r: f"{r['ratio_min']:.2f}-{r['ratio_max']:.2f}")
    line("site build peak memory, kb / plain (MiB)", lambda r: f"{r['site_mem']:.0f}/{r['plain_mem']:.0f}")
    if len(sizes) > 1:
        a, b = sizes[0], sizes[-1]
        growth = rows[b]["cold"] / rows[a]["cold"]
        print(f"\ngrowth of cold load from N={a} to N={b}: {growth:.1f}x for {b / a:.0f}x the entries"
              f" (near-linear: {growth / (b / a):.2f} per unit)")


if __name__ == "__main__":
    main()
