"""Budgets at 20,000 entries, side by side with 400 (issue 28): `kb check`, pytest's collection and `kb build`.

    .venv/bin/python tests/benchmarks/budget_bench.py [--sizes 400,20000] [--build-sizes 400,20000] [--timeout 1800]
        [--commands check,collect,build]

For each N a deterministic synthetic tree (tests/benchmarks/corpus.py, the same as scale_bench.py) is
generated and each command runs as its own process, cold (no cache) and then warm (its caches made):

- `kb check` (load, validate, link, check translations);
- `pytest --collect-only -q content` (the pytest plugin: one item per worked example, and per file that
  does not load);
- `kb build` (both languages; only for --build-sizes: a 20,000-entry tree is 40,000 pages).

Each figure is printed with its growth from the smallest N, per entry: 1.0 is linear. The budgets are
that growth (at most BUDGET_GROWTH, near-linear) and an absolute ceiling per command at 20,000 entries;
they are printed as met or not, not asserted (a shared machine's load moves absolutes several times).
A run that passes ``--timeout`` is reported as such, with its time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(HERE)]

from corpus import generate  # noqa: E402

BUDGET_GROWTH = 1.5
"""Time per entry at the largest N over time per entry at the smallest: at most this (1.0 is linear)."""
BUDGET_SECONDS = {"check cold": 60.0, "check warm": 20.0, "collect cold": 90.0, "collect warm": 30.0,
                  "build cold": 1800.0}
"""Ceilings at 20,000 entries on the project's 2-core machine (the issue measured `kb check` at 51 s, and the
build and collection not finishing within 120 s)."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


Figure = tuple[float, float, str]
"""Wall seconds, CPU seconds and how the command ended (``ok``, ``exit N: …``, ``timeout``)."""


def timed(argv: list[str], env: dict[str, str], cwd: Path, timeout: float) -> Figure:
    """One child process's wall and CPU seconds (user + system of it and of the children it waited for).

    The CPU seconds move far less with the shared machine's load than the wall seconds."""
    start, cpu = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, float("nan"), "timeout"
    how = "ok" if done.returncode in (0, 1) else f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return time.perf_counter() - start, _children_cpu() - cpu, how


def figures(n: int, build: bool, timeout: float, tmp: Path, commands: set[str]) -> dict[str, Figure]:
    root = tmp / f"n{n}"
    files = generate(root / "content", n)
    env = {**os.environ, "KB_CACHE": str(root / "cache"), "NO_MKDOCS_2_WARNING": "1"}
    kb = [sys.executable, "-m", "kb", "--content", str(root / "content")]
    out: dict[str, Figure] = {"files": (float(files), 0.0, "")}
    for label in ("cold", "warm") if "check" in commands else ():
        out[f"check {label}"] = timed([*kb, "check", "--no-warnings"], env, root, timeout)
    collect = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "content"]
    for label in ("cold", "warm") if "collect" in commands else ():
        if label == "cold":
            subprocess.run(["rm", "-rf", str(root / "cache")], check=True)
        out[f"collect {label}"] = timed(collect, env, root, timeout)
    if build and "build" in commands:
        subprocess.run(["rm", "-rf", str(root / "cache")], check=True)
        out["build cold"] = timed([*kb, "build", "--config", str(REPO / "mkdocs.yml"), "--site-dir", str(root / "site")],
                                  env, REPO, timeout)
    return out


def report(rows: dict[int, dict[str, Figure]]) -> None:
    """A Markdown table: wall (CPU) seconds per N, the growth per entry of each, and the budgets."""
    sizes = sorted(rows)
    small, big = sizes[0], sizes[-1]
    print(f"| N (entries) | {' | '.join(f'{n:,}' for n in sizes)} | growth per entry, wall (CPU) | budget |")
    print(f"|---|{'---|' * len(sizes)}---|---|")
    for key in ("check cold", "check warm", "collect cold", "collect warm", "build cold"):
        if key not in rows[small]:
            continue
        cells, growth, met = [], "—", "—"
        for n in sizes:
            wall, cpu, how = rows[n].get(key, (float("nan"), float("nan"), "not run"))
            cells.append(f"{wall:.1f} s ({cpu:.1f} s)" + ("" if how == "ok" else f" ({how})"))
        done = key in rows[big] and rows[big][key][2] == "ok" and rows[small][key][2] == "ok"
        if done and big != small:
            per_wall, per_cpu = ((rows[big][key][i] / big) / (rows[small][key][i] / small) for i in (0, 1))
            growth = f"{per_wall:.2f} ({per_cpu:.2f})"
            ceiling = BUDGET_SECONDS[key]
            ok = per_cpu <= BUDGET_GROWTH and (big < 20000 or rows[big][key][1] <= ceiling)
            met = f"{'met' if ok else 'NOT met'} (CPU growth ≤ {BUDGET_GROWTH}, CPU ≤ {ceiling:.0f} s at 20,000)"
        print(f"| {key} | {' | '.join(cells)} | {growth} | {met} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="400,20000", help="tree sizes (default 400,20000)")
    ap.add_argument("--build-sizes", default="400,20000", help="sizes that also run kb build ('' for none)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds one command may take (default 1800)")
    ap.add_argument("--commands", default="check,collect,build", help="which to run (default check,collect,build)")
    args = ap.parse_args()
    commands = set(args.commands.split(","))
    sizes = [int(s) for s in args.sizes.split(",") if s]
    builds = {int(s) for s in args.build_sizes.split(",") if s}
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    rows = {}
    with tempfile.TemporaryDirectory(prefix="kb-budget-") as tmp:
        for n in sizes:
            rows[n] = figures(n, n in builds, args.timeout, Path(tmp), commands)
            print(f"N={n:,}: " + ", ".join(f"{k} {v[0]:.1f} ({v[1]:.1f}){'' if v[2] in ('ok', '') else ' ' + v[2]}"
                                           for k, v in rows[n].items()), f"load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    report(rows)


if __name__ == "__main__":
    main()
