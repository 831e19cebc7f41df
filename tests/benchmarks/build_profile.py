"""Where one language's `kb build` spends its time: cProfile over one MkDocs build of the ``kb`` plugin (issue 33).

    .venv/bin/python tests/benchmarks/build_profile.py [--lang es] [--top 40] [--out build.prof]

Runs what ``kb build`` runs for one language (``on_startup``, then MkDocs' ``build`` with the plugin's
``language`` set) under :mod:`cProfile`, into a temporary site folder, and prints the wall time, the load
average, the cumulative seconds of the build's stages (the plugin's hooks and the functions below them
that cost most) and the top functions by cumulative time. Printed, never asserted (the machine is shared).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

STAGES = [
    ("load: KnowledgeBase.load", "kb/api.py", "load"),
    ("load: run the worked examples", "kb/api.py", "run_examples"),
    ("load: run again the examples an edit changed", "kb/api.py", "run_examples_since"),
    ("pages: build_site (Markdown of every page)", "kb/site/pages.py", "build_site"),
    ("search: index brought up to date", "kb/api.py", "search_reader"),
    ("search: browser export", "kb/site/search_box.py", "search_data"),
    ("page helpers: table_data", "kb/site/preview.py", "table_data"),
    ("calculators: calc_site", "kb/site/calc.py", "calc_site"),
    ("sanitiser: on_page_content", "kb/mkdocs_plugin.py", "on_page_content"),
    ("page context + post page (kb hooks)", "kb/mkdocs_plugin.py", "on_post_page"),
    ("MkDocs: Markdown to HTML", "mkdocs/structure/pages.py", "render"),
    ("MkDocs: templates (Jinja)", "mkdocs/commands/build.py", "_build_page"),
]
"""(label, file ending, function name) of the stages reported, read from the profile's cumulative times."""


def _stage_times(stats: pstats.Stats) -> list[tuple[str, float, int]]:
    table = stats.stats  # type: ignore[attr-defined]  # pstats keeps its table there
    out = []
    for label, file, name in STAGES:
        found = [(ct, nc) for (f, _, fn), (_, nc, _, ct, _) in table.items() if f.endswith(file) and fn == name]
        out.append((label, sum(ct for ct, _ in found), sum(nc for _, nc in found)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="es")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--out", help="also write the raw profile here (for snakeviz, pstats)")
    args = ap.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from kb.mkdocs_plugin import KnowledgeBasePlugin

    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(str(REPO / "mkdocs.yml"))
        config.site_dir = tmp
        plugin = next(p for p in config.plugins.values() if isinstance(p, KnowledgeBasePlugin))
        plugin.config.language = args.lang
        load_before = os.getloadavg()[0]
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        config.plugins.on_startup(command="build", dirty=False)
        try:
            mkdocs_build(config)
        finally:
            config.plugins.on_shutdown()
            profile.disable()
        wall = time.perf_counter() - started
    if args.out:
        profile.dump_stats(args.out)
    stats = pstats.Stats(profile)
    print(f"one {args.lang} build: {wall:.1f} s wall under cProfile (load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after)")
    print("stages (cumulative seconds under the profiler, calls; the search export and the calculators run inside "
          "on_files, MkDocs' Markdown and templates per page):")
    for label, seconds, calls in _stage_times(stats):
        print(f"  {seconds:7.1f} s  {calls:6d}  {label}")
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
