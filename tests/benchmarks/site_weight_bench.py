"""A first visit on a phone, side by side with plain MkDocs + Material built from the same Markdown.

    .venv/bin/python tests/benchmarks/site_weight_bench.py [--lighthouse [--lighthouse-runs 3]] [--runs 3]

Builds the bundled content's site (``kb build``) and, from the same generated Markdown of the Spanish
pages, a plain Material site (theme ``material``, its own search plugin, the same Markdown extensions,
no web fonts, no ``kb`` plugin). Serves both on 127.0.0.1 and, in Chromium at 390×844, for six page
kinds (home, game, glossary, rule, action, term):

1. *first-load bytes*: the raw bytes of every response of a first visit (fresh profile) until the network
   is idle, search not opened, the service worker's own fetches included (Playwright reports them on
   the context);
2. with ``--lighthouse``: Lighthouse's mobile preset (``npm install --prefix ~/.cache/kb-lh
   lighthouse``, Debian's Chromium), Performance and Accessibility, both sites; with ``--lighthouse-runs N``
   each page N times, ours and plain Material's alternating, each run's scores and metrics printed and the
   median score reported (one run moves by 10-20 points under load on a shared machine);
3. *search answering* on a cached visit at 4× CPU (CDP ``Emulation.setCPUThrottlingRate``): the page
   visited once, then opened again; "/" pressed as soon as the page allows and a query typed; the time
   from navigation start until the first result is shown (median of ``--runs``).

Budgets (issue 29): first-load bytes of an entry page within 1.5× plain Material's; Lighthouse mobile
Performance >= 90 and within 5 points of plain Material; Accessibility 100; search within 1.5 s.
Printed, never asserted (docs/site.md keeps the figures).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from kb import KnowledgeBase  # noqa: E402
from kb.cli.main import run as kb_run  # noqa: E402
from kb.mkdocs_defaults import EXTENSIONS  # noqa: E402
from kb.site.pages import build_site  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}
LIGHTHOUSE = next((p for p in (Path.home() / ".cache" / d / "node_modules" / ".bin" / "lighthouse" for d in ("kb-lh", "kb-lighthouse"))
                   if p.exists()), Path.home() / ".cache" / "kb-lh" / "node_modules" / ".bin" / "lighthouse")
PAGES = {  # kind: path under es/
    "home": "index.html", "game": "malifaux/index.html", "glossary": "malifaux/glossary.html",
    "rule": "malifaux/engagement.html", "action": "malifaux/charge-action.html", "term": "malifaux/engaged.html",
}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve(root: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def plain_material(kb: KnowledgeBase, out: Path) -> Path:
    """The Spanish pages' Markdown built by MkDocs + Material alone, into ``out/site/es``."""
    docs = out / "docs"
    site = build_site(kb, kb.run_examples(), "es")
    for page in site.pages:
        path = docs / page.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page.markdown, encoding="utf-8")
    config = {"site_name": "Reglas", "docs_dir": str(docs), "site_dir": str(out / "site" / "es"),
              "use_directory_urls": False, "theme": {"name": "material", "language": "es", "font": False},
              "plugins": ["search"], "markdown_extensions": [{k: v} if v else k for k, v in EXTENSIONS.items()]}
    (out / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(out / "mkdocs.yml")], check=True,
                   stderr=subprocess.DEVNULL)
    return out / "site"


THEME_SEARCH = ("search_index.json", "/workers/search.", "/lunr/")


def first_load(playwright, url: str, profile: Path) -> tuple[int, int, int]:
    """(bytes, requests, bytes without the theme's search) of a first visit in a fresh profile until the
    network is idle. The last is "plain Material" as issue 29 counts it: the page, the theme's CSS and JS."""
    ctx = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS,
                                                       viewport=PHONE, is_mobile=True, has_touch=True)
    total, count, bare = [0], [0], [0]

    def done(request) -> None:
        sizes = request.sizes()
        size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        total[0] += size
        count[0] += 1
        bare[0] += 0 if any(s in request.url for s in THEME_SEARCH) else size

    ctx.on("requestfinished", done)
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="networkidle")
        page.wait_for_timeout(1500)  # the service worker's install and its "keep" fetches
        page.wait_for_load_state("networkidle")
    finally:
        ctx.close()
    return total[0], count[0], bare[0]


def search_ms(playwright, url: str, profile: Path, runs: int) -> float:
    """Median ms from navigation start to the first result, on a cached visit at 4× CPU."""
    ctx = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS,
                                                       viewport=PHONE, is_mobile=True, has_touch=True)
    times = []
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="networkidle")  # the first visit: the data gets cached
        page.keyboard.press("/")
        page.locator("input.kb-search__input").press_sequentially("trabado")
        page.wait_for_selector("a.kb-search__hit")
        page.wait_for_timeout(1000)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        for _ in range(runs):
            page.goto(url, wait_until="commit")
            page.wait_for_selector("button.kb-search__open")
            page.keyboard.press("/")
            box = page.locator("input.kb-search__input")
            box.fill("trabado")
            page.wait_for_selector("a.kb-search__hit")
            times.append(page.evaluate("performance.now()"))
    finally:
        ctx.close()
    return statistics.median(times)


def lighthouse(url: str) -> dict[str, float] | str:
    """Lighthouse's mobile scores (0-100) of ``url`` and its metrics (FCP, LCP, TBT ms; CLS), or why it could not run."""
    if not LIGHTHOUSE.exists():
        return f"{LIGHTHOUSE} missing (npm install --prefix ~/.cache/kb-lh lighthouse)"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        run = subprocess.run([str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
                              "--only-categories=performance,accessibility",
                              "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"],
                             env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True, timeout=300)
        if run.returncode or not out.exists():
            return (run.stderr or run.stdout).strip().splitlines()[-1:] and (run.stderr or run.stdout).strip().splitlines()[-1]
        report = json.loads(out.read_text())
    scores: dict[str, float] = {k: round(100 * v["score"]) for k, v in report["categories"].items()}
    audits = report["audits"]
    for key, name in (("first-contentful-paint", "fcp"), ("largest-contentful-paint", "lcp"),
                      ("total-blocking-time", "tbt"), ("cumulative-layout-shift", "cls")):
        if key in audits and audits[key].get("numericValue") is not None:
            value = audits[key]["numericValue"]
            scores[name] = round(value, 3) if name == "cls" else round(value)
    return scores


def lighthouse_side_by_side(kind: str, ours: str, plain: str, runs: int) -> None:
    """``runs`` Lighthouse runs of a page on both sites, alternating; each run, then the medians of the scores."""
    got: dict[str, list[dict[str, float]]] = {"kb": [], "plain": []}
    for i in range(runs):
        for side, url in (("kb", ours), ("plain", plain)):
            result = lighthouse(url)
            print(f"lighthouse {kind:10} run {i + 1} {side:5} load {os.getloadavg()[0]:.1f} {result}", flush=True)
            if isinstance(result, dict):
                got[side].append(result)
    medians = {side: {k: statistics.median(r[k] for r in rs) for k in ("performance", "accessibility") if all(k in r for r in rs)}
               for side, rs in got.items() if rs}
    print(f"lighthouse {kind:10} median of {runs}: kb {medians.get('kb')} plain {medians.get('plain')}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lighthouse", action="store_true")
    ap.add_argument("--lighthouse-runs", type=int, default=1, help="Lighthouse runs per page and site, alternating")
    args = ap.parse_args()
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        tmp_path = Path(tmp)
        ours = tmp_path / "ours"
        assert kb_run(["--content", str(REPO / "content"), "build", "--site-dir", str(ours)],
                      open(os.devnull, "w"), open(os.devnull, "w")) == 0
        plain = plain_material(KnowledgeBase.load(REPO / "content"), tmp_path / "plain")
        (ours_url, s1), (plain_url, s2) = serve(ours), serve(plain)
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'page':10} {'kb bytes':>10} {'req':>4} {'plain bytes':>12} {'req':>4} {'ratio':>6} "
              f"{'plain w/o its search':>21} {'ratio':>6}")
        for kind, path in PAGES.items():
            a, na, _ = first_load(p, f"{ours_url}/es/{path}", tmp_path / f"p-{kind}-a")
            b, nb, bare = first_load(p, f"{plain_url}/es/{path}", tmp_path / f"p-{kind}-b")
            print(f"{kind:10} {a:>10,} {na:>4} {b:>12,} {nb:>4} {a / b:>6.2f} {bare:>21,} {a / bare:>6.2f}")
        ms = search_ms(p, f"{ours_url}/es/{PAGES['rule']}", tmp_path / "search", args.runs)
        print(f"search answering on a cached visit at 4x CPU: {ms:.0f} ms after navigation start "
              f"(median of {args.runs})")
        if args.lighthouse:
            for kind, path in PAGES.items():
                lighthouse_side_by_side(kind, f"{ours_url}/es/{path}", f"{plain_url}/es/{path}", args.lighthouse_runs)
        s1.shutdown()
        s2.shutdown()
        shutil.rmtree(tmp_path / "plain", ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
