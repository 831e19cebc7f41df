"""The site at the table: what listing every entry in the menu costs, and how fast `mkdocs serve` shows an edit.

    .venv/bin/python tests/benchmarks/site_bench.py [--runs 1] [--skip-serve] [--skip-menu] [--full-serve]

1. Builds the bundled content's site (both languages) in this process with the menu as shipped
   (each game's entries grouped by kind, Material's ``navigation.prune``) and, for comparison, with
   the menu of before (games and glossaries only), and prints for each: build time, the site's size,
   the mean page size and the menu's bytes on one entry page.
2. Runs ``mkdocs serve --dirty`` (and with ``--full-serve`` plain ``mkdocs serve``) on a copy of the bundled content
   (``KB_CONTENT``; the worktree's caches, ``KB_CACHE``), edits one entry's YAML (its Spanish summary) and
   prints the seconds from the edit until the rebuilt page holds the new text (with the load average), and how many log
   lines the rebuild wrote (budget, issue 21: 3 s, no flood of lines), and the server's CPU seconds for it. With
   ``--plain``, plain MkDocs serves the same Spanish Markdown beside it (no ``kb`` plugin; an edit of the page's
   ``.md``), the two servers' edits interleaved: the baseline, side by side under the same load.

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
    nodes = [NavNode(pages.word(ctx, "home"), "index.md")]
    for game, meta in sorted(ctx.kb.games.items()):
        nodes.append(NavNode(meta.name.best(ctx.lang), f"{game}/index.md",
                             (NavNode(pages.word(ctx, "glossary"), f"{game}/glossary.md"),)))
    nodes.append(NavNode(pages.word(ctx, "concepts"), "concepts.md"))
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


class _Server:
    """One ``mkdocs serve`` child process, and the file an edit changes to show ``mark`` on the page at ``path``."""

    def __init__(self, name: str, args: list[str], path: str, edited: Path, place: str,
                 env: dict[str, str] | None = None) -> None:
        self.name, self.path, self.edited, self.place = name, path, edited, place
        self.original = edited.read_text(encoding="utf-8")
        self.port = _free_port()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([str(Path(sys.executable).parent / "mkdocs"), "serve", *args,
                                      "-a", f"127.0.0.1:{self.port}"], cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT,
                                     env={**os.environ, **(env or {})})

    def wait_up(self) -> float:
        started = time.perf_counter()
        while True:
            try:
                urllib.request.urlopen(self.url, timeout=2).read()
                return time.perf_counter() - started
            except OSError:
                if self.proc.poll() is not None or time.perf_counter() - started > 1200:
                    self.log.seek(0)
                    tail = self.log.read().decode("utf-8", "replace")[-3000:]
                    raise SystemExit(f"{self.name}: mkdocs serve did not come up:\n{tail}") from None
                time.sleep(0.5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.path}"

    def edit(self, n: int) -> tuple[float, float, int]:
        """Seconds from the save until the page shows the mark, the server's CPU seconds in that time, and the
        lines the rebuild logged."""
        cpu = _cpu(self.proc.pid)
        mark = f"Marca de prueba {n} {os.getpid()}"
        self.log.seek(0, 2)
        before = self.log.tell()
        edited = re.sub(self.place, rf"\g<1>{mark}. ", self.original, count=1)
        assert mark in edited, "could not place the mark"
        self.edited.write_text(edited, encoding="utf-8")
        t0 = time.perf_counter()
        while mark not in _page(self.url):
            if time.perf_counter() - t0 > 300:
                raise SystemExit(f"{self.name}: the edit never showed")
            time.sleep(0.05)
        shown, cpu = time.perf_counter() - t0, _cpu(self.proc.pid) - cpu
        time.sleep(0.5)
        self.log.seek(before)
        lines = len(self.log.read().decode("utf-8", "replace").splitlines())
        self.edited.write_text(self.original, encoding="utf-8")
        t0 = time.perf_counter()
        while mark in _page(self.url) and time.perf_counter() - t0 < 300:  # the next edit waits for this rebuild
            time.sleep(0.1)
        return shown, cpu, lines

    def stop(self) -> None:
        self.edited.write_text(self.original, encoding="utf-8")
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _plain_docs(tmp: Path) -> Path:
    """The Spanish site's generated Markdown written out as files with a plain MkDocs configuration (same theme,
    extensions and menu, no ``kb`` plugin), as ``build_bench.py`` builds it: what plain MkDocs previews."""
    import yaml

    from kb import KnowledgeBase
    from kb.site.pages import build_site
    from kb.site.structure import nav_config

    kb = KnowledgeBase.load(REPO / "content")
    site = build_site(kb, kb.run_examples(), "es")
    docs = tmp / "docs"
    for page in site.pages:
        path = docs / page.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page.markdown, encoding="utf-8")
    shutil.copytree(REPO / "kb" / "site" / "assets", docs, dirs_exist_ok=True)
    base = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    cfg = {**base, "docs_dir": str(docs), "plugins": [p for p in base["plugins"] if p != "kb"],
           "nav": nav_config(site.nav), "theme": {**base["theme"], "language": "es"}}
    path = tmp / "mkdocs-plain.yml"
    path.write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    return path


def serve_edit(*flags: str, edits: int = 2, plain: bool = False) -> None:
    # livereload stays on: with --no-livereload MkDocs watches nothing and never rebuilds
    print(f"== 2. mkdocs serve {' '.join(flags)}: an edit of one YAML file until its page shows it"
          + (", against plain MkDocs serving the same Markdown (an edit of the page's .md), edits interleaved"
             if plain else ""))
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"  # a copy: the worktree stays clean (another process may rebase it)
        shutil.copytree(REPO / "content", content)
        servers = [_Server("kb", list(flags), ENTRY, content / EDITED.relative_to(REPO / "content"),
                           r"(summary:\s*\n\s*es:\s*\|?\s*)",
                           {"KB_CONTENT": str(content), "KB_CACHE": os.environ.get("KB_CACHE", str(REPO / ".kb-cache"))})]
        if plain:
            cfg = _plain_docs(Path(tmp))
            servers.append(_Server("plain", [*flags, "-f", str(cfg)], ENTRY.removeprefix("es/"),
                                   Path(tmp) / "docs" / "malifaux" / "engaged.md", r"(\n---\n)"))
        try:
            for server in servers:
                print(f"  {server.name}: first build served after {server.wait_up():.1f} s "
                      f"(load average {os.getloadavg()[0]:.1f})", flush=True)
            for n in range(edits):
                for server in servers:
                    time.sleep(1.5)
                    shown, cpu, lines = server.edit(n)
                    print(f"  {server.name} edit {n + 1}: shown after {shown:.2f} s, {cpu:.2f} s "
                          f"of the server's CPU (budget 3 s; load average {os.getloadavg()[0]:.1f}); the rebuild "
                          f"logged {lines} lines", flush=True)
        finally:
            for server in servers:
                server.stop()


def _cpu(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--skip-serve", action="store_true")
    parser.add_argument("--skip-menu", action="store_true")
    parser.add_argument("--edits", type=int, default=2, help="edits timed per server (default 2)")
    parser.add_argument("--full-serve", action="store_true", help="also time plain `mkdocs serve` (full rebuilds)")
    parser.add_argument("--plain", action="store_true",
                        help="time plain MkDocs serving the same Markdown beside it, edits interleaved")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if not args.skip_menu:
        menu_cost(args.runs)
    if not args.skip_serve:
        serve_edit("--dirty", edits=args.edits, plain=args.plain)  # only the pages an edit changed are written (the preview as docs/site.md runs it)
        if args.full_serve:
            serve_edit(edits=args.edits, plain=args.plain)  # MkDocs' default: the whole language rebuilt after each edit


if __name__ == "__main__":
    main()
