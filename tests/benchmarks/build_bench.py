"""`kb build` against plain MkDocs building the same pages, on the bundled content (issue 33: at most 1.3×).

    .venv/bin/python tests/benchmarks/build_bench.py [--runs 3] [--content content] [--edit] [--clean]

``--clean``: each timed `kb build` renders every page (``kb build --clean``); by default a page whose inputs did not
change since the last build of the folder is copied from it (kb/site/rendered.py), as an author's next build does.

``--edit``: the build after one edit. The content is copied to a temporary folder, built once (the caches
filled), then before each timed `kb build` one term's Spanish summary (``EDITED``) gets one more word.

Plain MkDocs builds each language's generated Markdown written out as files (same theme, extensions and
menu, without the ``kb`` plugin: no loading, no worked examples, no search data, no sanitiser); ``kb
build`` does all of it, one MkDocs build per language. Both run as child processes, one after the other,
``runs`` times; medians and the range of the ratios are printed, never asserted (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

from scale_bench import REPO, site_figures  # noqa: E402

BUDGET = 1.3
"""`kb build` over plain MkDocs on the same pages (issue 33)."""
EDITED = ("malifaux/terms/engaged.yaml", "    en combate y al menos una de ellas tiene línea de visión hacia la otra.")
"""The file and the line of its Spanish summary the ``--edit`` mode changes (the preview's benchmark edits it too)."""


def _editor(root: Path) -> Callable[[int], None]:
    """``edit(n)``: the ``n``-th edit of :data:`EDITED`'s summary (a word more each time, so every build sees a change)."""
    path = root / EDITED[0]
    text = path.read_text(encoding="utf-8")
    assert EDITED[1] in text, f"{path} no longer holds the line the benchmark edits"

    def edit(n: int) -> None:
        path.write_text(text.replace(EDITED[1], EDITED[1][:-1] + f" (edición {n + 1})."), encoding="utf-8")
    return edit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--content", default=str(HERE.parents[1] / "content"))
    ap.add_argument("--edit", action="store_true", help="time the build after one edit of a term's summary")
    ap.add_argument("--clean", action="store_true", help="time `kb build --clean` (every page rendered)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        root, edit = Path(args.content).resolve(), None
        if args.edit:
            shutil.copytree(root, Path(tmp) / "content")
            root = Path(tmp) / "content"
            edit = _editor(root)
        subprocess.run([sys.executable, "-m", "kb", "--content", str(root), "build", "--config", str(REPO / "mkdocs.yml"),
                        "--site-dir", str(Path(tmp) / "site-kb")], env=env, check=True, capture_output=True)  # caches and site made
        fig = site_figures(root, env, Path(tmp), args.runs, edit, args.clean)
    print(("after one edit of a term's summary" if args.edit else "content unchanged between builds")
          + ("; kb build --clean (every page rendered)" if args.clean else "; pages copied from the last build where unchanged"))
    print(f"pages {fig['pages']:.0f} (both languages), runs {fig['site_runs']:.0f}, load average {os.getloadavg()[0]:.1f}")
    print(f"kb build {fig['site']:.1f} s, plain MkDocs same pages {fig['plain']:.1f} s (medians)")
    print(f"ratio {fig['ratio_med']:.2f}x (range {fig['ratio_min']:.2f}-{fig['ratio_max']:.2f}x; budget {BUDGET}x)")
    print(f"CPU kb build {fig['site_cpu']:.1f} s, plain {fig['plain_cpu']:.1f} s, ratio {fig['cpu_ratio']:.2f}x (medians)")
    print(f"peak memory kb / plain {fig['site_mem']:.0f} / {fig['plain_mem']:.0f} MiB")


if __name__ == "__main__":
    main()
