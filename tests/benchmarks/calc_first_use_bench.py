"""A calculator's first use in the browser (issue 30): from a field's change to the answer shown.

    .venv/bin/python tests/benchmarks/calc_first_use_bench.py SITE [--page es/warlords-of-terra/area-strike.html]
                                                                  [--runs 2] [--rates 1 4]

SITE is a folder made by ``kb build`` with the Pyodide runtime. For each run, each address (``file://`` and
http from a local server) and each CPU throttling rate (CDP ``Emulation.setCPUThrottlingRate``), a fresh
Chromium context opens the page, waits for its forms to be ready, changes the first number of the first
in-page (``data-kb-py``) form and times, in the page, the change event to ``data-kb-busy`` cleared: the first
change loads the runtime (its download and start are part of the figure), the second is a later change.
Prints one line per measurement with the load average beside it (the machine is shared).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import threading
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
CHANGE = """([first]) => new Promise(done => {
  const form = document.querySelector('form[data-kb-py]');
  const field = form.querySelector('input[type=number][data-kb-field]');
  const now = Number(field.value || field.min);
  const started = performance.now();
  field.value = String(first ? (now === Number(field.max) ? Number(field.min) : now + 1) : Number(field.min));
  field.dispatchEvent(new Event('change', {bubbles: true}));
  const poll = setInterval(() => { if (!form.dataset.kbBusy) { clearInterval(poll); done(performance.now() - started); } }, 10);
})"""
READY = "[...document.querySelectorAll('form[data-kb-resolver]')].every(f => f.dataset.kbReady)"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--page", default="es/warlords-of-terra/area-strike.html")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--rates", type=float, nargs="+", default=[1, 4])
    args = parser.parse_args()
    site = args.site.resolve()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    urls = [(site / args.page).as_uri(), f"http://127.0.0.1:{server.server_address[1]}/{args.page}"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(args.runs):
                for url in urls:
                    for rate in args.rates:
                        context = browser.new_context(viewport={"width": 390, "height": 844})
                        page = context.new_page()
                        page.set_default_timeout(180_000)
                        cdp = context.new_cdp_session(page)
                        page.goto(url)
                        page.wait_for_function(READY)
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                        first, later = page.evaluate(CHANGE, [True]), page.evaluate(CHANGE, [False])
                        print(f"{url.split(':')[0]:5} {rate:g}x CPU: first use {first / 1000:.2f} s, a later change "
                              f"{later:.0f} ms (load average {os.getloadavg()[0]:.1f})", flush=True)
                        context.close()
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
