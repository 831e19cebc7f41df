"""Search knows where you are: from each game's page, is that game's entry first?

    .venv/bin/python tests/benchmarks/site_context_bench.py

Builds the bundled content's site, serves it, and from each game's page (``<lang>/<game>/index.html``)
types queries in words several games share into the search box (Chromium at 390×844). Counts, for the
(page, query) pairs where the page's game has a result, how often it is first, and how often the
first result of the page's game was first in the engine's own order (the home page's, no game).
Printed, never asserted.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from kb.cli.main import run as kb_run  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
QUERIES = {"es": ["trabado", "linea de vision", "iniciativa", "cobertura", "carga", "terreno dificil", "disparo"],
           "en": ["engaged", "line of sight", "initiative", "cover", "charge", "difficult terrain", "shooting"]}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def ids(page, url: str, query: str) -> list[str]:
    page.goto(url)
    page.keyboard.press("/")
    box = page.locator("input.kb-search__input")
    box.fill(query)
    page.wait_for_function("document.querySelectorAll('a.kb-search__hit').length > 0 || "
                           "document.querySelector('.kb-search__status').textContent !== ''")
    return page.eval_on_selector_all("a.kb-search__hit", "els => els.map(e => e.dataset.kbId)")


def main() -> int:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        site = Path(tmp) / "site"
        assert kb_run(["--content", str(REPO / "content"), "build", "--site-dir", str(site)],
                      open(os.devnull, "w"), open(os.devnull, "w")) == 0
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block").new_page()
        games = sorted(d.name for d in (site / "es").iterdir() if (d / "index.html").is_file())
        pairs = first = before = 0
        for lang, queries in QUERIES.items():
            for q in queries:
                everywhere = ids(page, f"{base}/{lang}/index.html", q)
                for game in games:
                    if not any(i.startswith(game + ".") for i in everywhere):
                        continue
                    got = ids(page, f"{base}/{lang}/{game}/index.html", q)
                    pairs += 1
                    first += got[0].startswith(game + ".")
                    before += everywhere[0].startswith(game + ".")
        print(f"{pairs} (page, query) pairs where the page's game answers; its entry first: {first} "
              f"(in the engine's own order: {before})")
        browser.close()
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
