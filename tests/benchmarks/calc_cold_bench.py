"""The calculators' cold build, this tree against another checkout (issue 30), side by side in one run.

    .venv/bin/python tests/benchmarks/calc_cold_bench.py [OTHER_CHECKOUT] [--rounds 1]

Runs ``calc_site`` for both languages with an empty calculator cache (a fresh ``cache_base``), in a child process
per checkout (each its own ``kb``), alternating them; prints the CPU seconds of each, the calculator data per
language (without and with the page's Python runtime, ``kb-py/``), the forms answered in the page and the forms
with fields held at the example's value (a space past what the build enumerates, no page Python). Note the load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, tempfile, time
from kb.api import KnowledgeBase
from kb.mechanics.space import space
import kb.site.calc as C
kb = KnowledgeBase.load(sys.argv[1], cache_base=sys.argv[2])
out = {}
t = time.process_time()
import inspect
from pathlib import Path
passed_in = "in_page" in inspect.signature(C.calc_site).parameters  # the runtime found by the adapter, passed in
folder = None
if passed_in:
    from kb.mkdocs_plugin import pyodide_folder
    from kb.site.calc_runtime import runtime_files
    folder = pyodide_folder()[1]
for lang in ("es", "en"):
    site = C.calc_site(kb, lang, folder is not None) if passed_in else C.calc_site(kb, lang)
    if passed_in:  # written by the plugin, once for the site
        runtime = sum(len(text.encode()) for text in runtime_files(Path(kb.root), folder).values()) if site.python else 0
        site.sizes.update({"kb-py/": runtime})
    else:
        runtime = sum(v for p, v in site.sizes.items() if p.startswith("kb-py/"))
    out[lang] = {"data_mb": (sum(site.sizes.values()) - runtime) / 1e6, "runtime_mb": runtime / 1e6}
out["cpu_s"] = time.process_time() - t
held = in_page = forms = 0
for e in kb.entries.values():
    for c in (C.calculators(e, kb.registry.get, in_page=folder is not None) if passed_in else C.calculators(e, kb.registry.get)):
        forms += 1
        in_page += bool(getattr(c, "py", False))
        whole = space(c.resolver, c.example.given, 10**30, 10**30)
        held += len(c.space.variable) < len(whole.variable)
out.update(forms=forms, in_page=in_page, held_forms=held)
print(json.dumps(out))
"""


def run(checkout: Path, content: Path) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([str(checkout / ".venv/bin/python"), "-c", CHILD, str(content), cache], cwd=checkout,
                              capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(checkout)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("other", nargs="?", default="/work/main")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    content = ROOT / "content"
    print(f"load average {os.getloadavg()[0]:.1f}")
    for _ in range(args.rounds):
        for name, where in (("other", Path(args.other)), ("this", ROOT)):
            print(name, where, json.dumps(run(where, content)))
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sys.exit(main())
