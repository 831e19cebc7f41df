"""The site at the table: what listing every entry in the menu costs, and how fast `mkdocs serve` shows an edit.

    .venv/bin/python tests/benchmarks/site_bench.py [--runs 1] [--skip-serve] [--skip-menu] [--full-serve]

1. Builds the bundled content's site (both languages) in this process with the menu as shipped
   (each game's entries grouped by kind, Material's ``navigation.prune``) and, for comparison, with
   the menu of before (games and glossaries only), and prints for each: build time, the site's size,
   the mean page size and the menu's bytes on one entry page.
2. Runs ``mkdocs serve --dirty`` (and with ``--full-serve`` plain ``mkdocs serve``) on the bundled content, edits one entry's YAML (its Spanish summary) and
   prints the seconds from the edit until the rebuilt page holds the new text (with the load average), and how many log
   lines the rebuild wrote (budget, issue 21: 3 s, no flood of lines).

Printed, never asserted; read ratios, not absolutes (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO)]

import logging  # noqa: E402

from kb.cli.build import build  # noqa: E402
from kb.site import pages  # noqa: E402
from kb.site.structure import NavNode  # noqa: E402

ENTRY = "es/malifaux/engaged.html"
EDITED = REPO / "content" / "malifaux" / "terms" / "engaged.yaml"


def _old_navigation(ctx):  # the menu before issue 21: games, their glossaries, the concept map
    nodes = [NavNode(pages.t(ctx, "home"), "index.md")]
    for game, meta in sorted(ctx.kb.games.items()):
        nodes.append(NavNode(meta.name.best(ctx.lang), f"{game}/index.md",
                             (NavNode(pages.t(ctx, "glossary"), f"{game}/glossary.md"),)))
    nodes.append(NavNode(pages.t(ctx, "concepts"), "concepts.md"))
    return tuple(nodes)


def _site_build(site_dir: Path) -> float:
    started = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        if build(REPO / "mkdocs.yml", site_dir, False, None, quiet, quiet):  # kb build: every language
            raise SystemExit("the site build failed")
    return time.perf_counter() - started


def _sizes(site_dir: Path) -> tuple[float, float, int]:
    files = list(site_dir.rglob("*.html"))
    total = sum(f.stat().st_size for f in site_dir.rglob("*") if f.is_file())
    page = (site_dir / ENTRY).read_text(encoding="utf-8")
    start = page.find('<nav class="md-nav md-nav--primary"')
    end = page.find('<div class="md-sidebar md-sidebar--secondary"', start)
    return total / 1e6, statistics.mean(f.stat().st_size for f in files) / 1e3, end - start


def menu_cost(runs: int) -> None:
    print("== 1. the menu: every entry grouped by kind (pruned) against games and glossaries only")
    real = pages.navigation
    for name, nav in (("entries in the menu", real), ("games only (before)", _old_navigation)):
        pages.navigation = nav
        times = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                times.append(_site_build(Path(tmp) / "site"))
                size, mean, menu = _sizes(Path(tmp) / "site")
        print(f"  {name:24} build {statistics.median(times):5.1f} s   site {size:5.1f} MB   "
              f"mean page {mean:5.1f} KB   menu on {ENTRY} {menu / 1e3:5.1f} KB")
    pages.navigation = real


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _page(url: str) -> str:
    """The page, or "" while the server is busy rebuilding (it answers once the build is done)."""
    try:
        return urllib.request.urlopen(url, timeout=30).read().decode("utf-8")
    except OSError:  # a timeout included
        return ""


def serve_edit(*flags: str, edits: int = 2) -> None:
    # livereload stays on: with --no-livereload MkDocs watches nothing and never rebuilds
    print(f"== 2. mkdocs serve {' '.join(flags)}: an edit of one YAML file until its page shows it")
    port = _free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "mkdocs"), "serve", *flags, "-a", f"127.0.0.1:{port}"],
                            cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    original = EDITED.read_text(encoding="utf-8")
    url = f"http://127.0.0.1:{port}/{ENTRY}"
    try:
        started = time.perf_counter()
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - started > 600:
                    raise SystemExit("mkdocs serve did not come up")
                time.sleep(0.5)
        print(f"  first build served after {time.perf_counter() - started:.1f} s (load average {os.getloadavg()[0]:.1f})")
        for n in range(edits):
            time.sleep(1.5)
            mark = f"Marca de prueba {n} {os.getpid()}"
            log.seek(0, 2)
            before = log.tell()
            edited = re.sub(r"(summary:\s*\n\s*es:\s*\|?\s*)", rf"\g<1>{mark}. ", original, count=1)
            assert mark in edited, "could not place the mark in the summary"
            EDITED.write_text(edited, encoding="utf-8")
            t0 = time.perf_counter()
            while mark not in _page(url):
                if time.perf_counter() - t0 > 120:
                    raise SystemExit("the edit never showed")
                time.sleep(0.05)
            shown = time.perf_counter() - t0
            time.sleep(0.5)
            log.seek(before)
            lines = log.read().decode("utf-8", "replace").splitlines()
            print(f"  edit {n + 1}: shown after {shown:.2f} s (budget 3 s; load average {os.getloadavg()[0]:.1f}); "
                  f"the rebuild logged {len(lines)} lines", flush=True)
            EDITED.write_text(original, encoding="utf-8")
    finally:
        EDITED.write_text(original, encoding="utf-8")
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--skip-serve", action="store_true")
    parser.add_argument("--skip-menu", action="store_true")
    parser.add_argument("--edits", type=int, default=2, help="edits timed per server (default 2)")
    parser.add_argument("--full-serve", action="store_true", help="also time plain `mkdocs serve` (full rebuilds)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if not args.skip_menu:
        menu_cost(args.runs)
    if not args.skip_serve:
        serve_edit("--dirty", edits=args.edits)  # only the pages an edit changed are written (the preview as docs/site.md runs it)
        if args.full_serve:
            serve_edit(edits=args.edits)  # MkDocs' default: the whole language rebuilt after each edit


if __name__ == "__main__":
    main()
