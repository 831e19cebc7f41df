"""The site's search box: size of its data, time until it answers, and its growth with the content.

    .venv/bin/python tests/benchmarks/site_search_bench.py [--runs 5] [--sizes 5000]

1. Builds the bundled content's site and prints, per language, the size of its search data
   (the head ``<lang>/kb-search-<lang>.js`` and all its parts, uncompressed and gzipped) and the time to export it.
2. Opens pages in headless Chromium (over http and from ``file://``) and prints, as medians of
   ``--runs`` visits, when search is usable (the engine built on the data: the
   ``kb-search-ready`` performance mark) in milliseconds after the page's load event starts and after
   navigation start, for the first page of a visit (the data script loaded and parsed) and for the
   next page (the visit's copy from sessionStorage); and a query's time in the page.
3. For each of ``--sizes`` (a synthetic corpus from corpus.py), the search data's size per language
   and the engine's build time in Chromium.

Budgets (issue 18): usable within 300 ms of a page load; data of the bundled content at most
1.5 MB per language, uncompressed. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from corpus import generate  # noqa: E402
from kb import KnowledgeBase  # noqa: E402
from kb.cli.main import run as kb_run  # noqa: E402
from kb.site.search_box import data_name, search_data  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
ASSETS = REPO / "kb" / "site" / "assets"
READY = """() => {
  const mark = performance.getEntriesByName("kb-search-ready")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  return [mark.startTime, mark.startTime - nav.loadEventStart];
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def sizes(kb: KnowledgeBase) -> dict[str, tuple[int, int, float, int, str]]:
    """Per language: (bytes of all parts, gzipped, export seconds, bytes of the head, the head's script)."""
    out = {}
    for lang in ("es", "en"):
        start = time.perf_counter()
        data = search_data(kb, kb.search_reader(), lang)
        took = time.perf_counter() - start
        raw = [s.encode() for s in data.scripts.values()]
        head = data.scripts[data_name(lang)]
        out[lang] = (sum(map(len, raw)), sum(len(gzip.compress(r)) for r in raw), took, len(head.encode()), head)
    return out


def visit_times(browser, urls: list[str], runs: int) -> dict[str, list[float]]:
    """Medians of: ready after load (first page, next page), ready after navigation start, one query."""
    first, second, first_nav, query = [], [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(urls[0])
        page.locator("button.kb-search__open").focus()  # the data loads when the reader reaches for search
        page.wait_for_selector('html[data-kb-search="ready"]', state="attached")
        page.wait_for_load_state("load")
        nav, after = page.evaluate(READY)
        first.append(after)
        first_nav.append(nav)
        page.goto(urls[1])
        page.locator("button.kb-search__open").focus()  # the data loads when the reader reaches for search
        page.wait_for_selector('html[data-kb-search="ready"]', state="attached")
        page.wait_for_load_state("load")
        second.append(page.evaluate(READY)[1])
        query.append(page.evaluate("""() => { const e = window.kbSearch.state.engine, t = performance.now();
            for (const q of ["linea de vision", "¿puedo disparar a un combate?", "pantnao", "LoS"]) e.search(q);
            return (performance.now() - t) / 4; }"""))
        context.close()
    med = statistics.median
    return {"first": med(first), "next": med(second), "first_nav": med(first_nav), "query": med(query)}


def engine_build_ms(browser, script: Path) -> float:
    """Milliseconds to parse a data script's JSON and build the engine, in Chromium."""
    page = browser.new_page()
    page.goto((ASSETS / "kb.css").as_uri())
    page.add_script_tag(path=str(ASSETS / "kb-search-engine.js"))
    page.evaluate("() => { window.kbSearchData = (lang, text) => { window.__text = text; }; }")
    page.add_script_tag(path=str(script))
    took = page.evaluate("""() => { const t = performance.now();
        new window.kbSearchEngine.Engine(JSON.parse(window.__text)); return performance.now() - t; }""")
    page.close()
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="5000", help="synthetic corpus sizes ('' for none)")
    args = ap.parse_args()
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        site = Path(tmp) / "site"
        assert kb_run(["--content", str(REPO / "content"), "build", "--site-dir", str(site)],
                      open(os.devnull, "w"), open(os.devnull, "w")) == 0
        kb = KnowledgeBase.load(REPO / "content")
        print(f"bundled content: {len(kb.entries)} entries")
        for lang, (raw, gz, took, head, _) in sizes(kb).items():
            print(f"  {lang}: search data {raw / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped, head {head / 1e6:.2f} MB), "
                  f"exported in {took:.1f} s")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        for name, root in (("http", base), ("file", site.as_uri())):
            for lang in ("es", "en"):
                t = visit_times(browser, [f"{root}/{lang}/index.html", f"{root}/{lang}/malifaux/index.html"], args.runs)
                print(f"  {name} {lang}: usable {t['first']:.0f} ms after load on a visit's first page "
                      f"({t['first_nav']:.0f} ms after navigation start), {t['next']:.0f} ms on the next page; "
                      f"query {t['query']:.1f} ms")
        for lang in ("es", "en"):
            print(f"  {lang}: engine built on the head in {engine_build_ms(browser, site / lang / f'kb-search-{lang}.js'):.0f} ms")
        server.shutdown()
        for n in [int(x) for x in args.sizes.split(",") if x]:
            root = Path(tmp) / f"corpus-{n}" / "content"
            generate(root, n)
            big = KnowledgeBase.load(root)
            print(f"synthetic corpus: {len(big.entries)} entries")
            for lang, (raw, gz, took, head, text) in sizes(big).items():
                script = Path(tmp) / f"data-{n}-{lang}.js"
                script.write_text(text, encoding="utf-8")
                print(f"  {lang}: search data {raw / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped, head {head / 1e6:.2f} MB), "
                      f"exported in {took:.1f} s; engine built on the head in {engine_build_ms(browser, script):.0f} ms")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
