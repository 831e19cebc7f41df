"""`kb build` against plain MkDocs building the same pages, on the bundled content (issue 33: at most 1.3×).

    .venv/bin/python tests/benchmarks/build_bench.py [--runs 3] [--content content]

Plain MkDocs builds each language's generated Markdown written out as files (same theme, extensions and
menu, without the ``kb`` plugin: no loading, no worked examples, no search data, no sanitiser); ``kb
build`` does all of it, one MkDocs build per language. Both run as child processes, one after the other,
``runs`` times; medians and the range of the ratios are printed, never asserted (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

from scale_bench import site_figures  # noqa: E402

BUDGET = 1.3
"""`kb build` over plain MkDocs on the same pages (issue 33)."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--content", default=str(HERE.parents[1] / "content"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        fig = site_figures(Path(args.content).resolve(), env, Path(tmp), args.runs)
    print(f"pages {fig['pages']:.0f} (both languages), runs {fig['site_runs']:.0f}, load average {os.getloadavg()[0]:.1f}")
    print(f"kb build {fig['site']:.1f} s, plain MkDocs same pages {fig['plain']:.1f} s (medians)")
    print(f"ratio {fig['ratio_med']:.2f}x (range {fig['ratio_min']:.2f}-{fig['ratio_max']:.2f}x; budget {BUDGET}x)")
    print(f"CPU kb build {fig['site_cpu']:.1f} s, plain {fig['plain_cpu']:.1f} s, ratio {fig['cpu_ratio']:.2f}x (medians)")
    print(f"peak memory kb / plain {fig['site_mem']:.0f} / {fig['plain_mem']:.0f} MiB")


if __name__ == "__main__":
    main()
