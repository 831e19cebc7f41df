"""Where a rebuild of ``mkdocs serve --dirty`` spends its time after one edit (issue 33, item 3).

    .venv/bin/python tests/benchmarks/serve_profile.py [--top 30] [--out serve.prof] [--no-profile]

Does in one process what ``mkdocs serve --dirty`` does (``mkdocs/commands/serve.py``): ``on_startup`` with
``command="serve", dirty=True``, a first build, then, after an edit of one entry's Spanish summary (on a copy of
``content/``), the configuration loaded again and a second dirty build, the one timed (under :mod:`cProfile`
unless ``--no-profile``). Prints its wall and CPU seconds with the load average, the stages (as
``build_profile.py`` reads them) and the top functions. Printed, never asserted (the machine is shared).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(HERE)]

from build_profile import _stage_times  # noqa: E402

EDITED = Path("malifaux") / "terms" / "engaged.yaml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--out", help="also write the raw profile here (for snakeviz, pstats)")
    ap.add_argument("--no-profile", action="store_true", help="time the rebuild without the profiler")
    ap.add_argument("--content-copy", default=os.path.join(tempfile.gettempdir(), "kb-serve-profile", "content"),
                    help="where the edited copy of content/ goes (replaced at each run)")
    args = ap.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    with tempfile.TemporaryDirectory() as tmp:
        content = Path(args.content_copy)  # the same folder each run: the calculators' cache (keyed by it) stays warm
        shutil.rmtree(content, ignore_errors=True)
        shutil.copytree(REPO / "content", content)
        os.environ["KB_CONTENT"] = str(content)  # read by the plugin when mkdocs.yml names no content
        os.environ.setdefault("KB_CACHE", str(REPO / ".kb-cache"))  # the worktree's warm caches
        site = Path(tmp) / "site"

        def config():  # what serve's get_config() does on every rebuild
            loaded = load_config(str(REPO / "mkdocs.yml"), site_dir=str(site))
            loaded.site_url = "http://127.0.0.1:8000/"
            return loaded

        first = config()
        first.plugins.on_startup(command="serve", dirty=True)
        try:
            started = time.perf_counter()
            mkdocs_build(first, serve_url="http://127.0.0.1:8000/", dirty=True)
            print(f"first build: {time.perf_counter() - started:.1f} s (load average {os.getloadavg()[0]:.1f})")
            path = content / EDITED
            text = path.read_text(encoding="utf-8")
            edited = re.sub(r"(summary:\s*\n\s*es:\s*\|?\s*)", r"\g<1>Marca de prueba. ", text, count=1)
            assert edited != text, "could not place the mark in the summary"
            path.write_text(edited, encoding="utf-8")
            load_before = os.getloadavg()[0]
            profile = cProfile.Profile()
            started, cpu = time.perf_counter(), time.process_time()
            cpu_start = cpu
            if not args.no_profile:
                profile.enable()
            mkdocs_build(config(), serve_url="http://127.0.0.1:8000/", dirty=True)
            profile.disable()
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            page = (site / "es" / "malifaux" / "engaged.html").read_text(encoding="utf-8")
            assert "Marca de prueba" in page, "the rebuilt page does not show the edit"
            # the edit's search data, made beside the server after the rebuild (kb.mkdocs_plugin._Refresh), then the
            # rebuild its end asks for (serve's watcher sees the file it writes), which finds that data kept
            refresh = next(p for p in first.plugins.values() if hasattr(p, "_sources"))._sources.refresh
            refresh.wait()
            mkdocs_build(config(), serve_url="http://127.0.0.1:8000/", dirty=True)
            searched_wall, searched_cpu = time.perf_counter() - started, time.process_time() - cpu_start
            assert "Marca de prueba" in (site / "es" / "kb-search-es.js").read_text(encoding="utf-8"), "stale search data"
        finally:
            first.plugins.on_shutdown()
    print(f"rebuild after one edit: {wall:.2f} s wall, {cpu:.2f} s CPU{'' if args.no_profile else ' under cProfile'} "
          f"(load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after)")
    print(f"search data of the edit served (made beside the server, then one more rebuild): {searched_wall:.2f} s wall, "
          f"{searched_cpu:.2f} s CPU after the edit (the process's CPU, every thread)")
    if args.no_profile:
        return
    if args.out:
        profile.dump_stats(args.out)
    stats = pstats.Stats(profile)
    for label, seconds, calls in _stage_times(stats):
        print(f"  {seconds:7.2f} s  {calls:6d}  {label}")
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
