"""Probe (issue 30): do the resolvers run under Brython (Python compiled to JavaScript in the page), from file://,
and give CPython's answers? How fast, how big?

Not a test and not part of the site: a measurement behind docs/site.md, "Calculators and odds tables". It writes a
page into a temporary folder holding Brython (``npm install --prefix ~/.cache/kb-brython brython@3``), the engine's
``kb.mechanics`` and three games' ``mechanics.py`` as Brython's module data, and inputs drawn at random from three of
the largest spaces; Chromium opens it from ``file://`` and the page calls each resolver on each input. The same
inputs are answered by CPython here, side by side.

Two stand-ins are needed for the engine to import at all, and the probe says so in its output (they are why this is
a probe, not the site's way): Brython has no Babel (``kb.mechanics`` reads only the plural rule from it; the stand-in
answers "one" for 1, the rule of both languages for integers) and its ``isinstance`` refuses ``typing.Mapping`` (the
probe adds ``from collections.abc import Mapping`` after the ``typing`` import of each module that needs it).

    .venv/bin/python tests/benchmarks/calc_brython_probe.py [--brython DIR] [--inputs 30]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.api import KnowledgeBase  # noqa: E402
from kb.mechanics.space import answer, call  # noqa: E402
from kb.site.calc import calculators  # noqa: E402

CASES = [("warlords-of-terra.area-strike", "warlords-of-terra.combat"), ("hunt-begins.rapid-fire", "hunt-begins.attack"),
         ("malifaux.engagement", "malifaux.engaged")]
ENGINE = ["kb/__init__.py", "kb/core/__init__.py", "kb/core/errors.py", "kb/core/diagnostics.py", "kb/core/model.py",
          "kb/core/plain.py", "kb/mechanics/__init__.py"] + [f"kb/mechanics/{m}.py" for m in
                                                              ("dice", "checks", "cards", "procedures", "activation", "damage", "space")]
BABEL_STAND_IN = ("class Locale:\n    @classmethod\n    def parse(cls, lang):\n        o = cls()\n"
                  "        o.plural_form = lambda n: 'one' if n == 1 else 'other'\n        return o\n")

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script src="brython.js"></script><script src="brython_stdlib.js"></script><script src="kb_vfs.js"></script>
<script src="cases.js"></script></head><body onload="window.T0 = performance.now(); brython()"><pre id="out">running</pre>
<script type="text/python">
import json
from importlib import import_module
from browser import document, window
t0 = window.performance.now()
from kb.mechanics import RuleError
from kb.mechanics.space import answer
imported = window.performance.now() - t0
report = {"start_ms": t0 - window.T0, "import_ms": imported, "cases": []}
for case in json.loads(window.JSON.stringify(window.CASES)):
    func = getattr(import_module(case["module"]), case["func"])
    t1 = window.performance.now()
    got = []
    for g in case["givens"]:
        try:
            got.append(answer(func(**g)))
        except RuleError as err:
            got.append({"error": err.code, "kind": err.kind})
    ms = (window.performance.now() - t1) / len(got)
    same = sum(json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) for a, b in zip(got, case["answers"]))
    report["cases"].append({"resolver": case["resolver"], "same": same, "of": len(got), "ms_per_call": ms})
document["out"].text = json.dumps(report)
</script></body></html>
"""


def module_data(root: Path) -> dict[str, list]:
    """Brython's module table (name -> [".py", source, imports, is_package]) for the engine and three games."""
    out: dict[str, list] = {}
    for rel in ENGINE:
        name = rel.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        out[name] = [".py", (root / rel).read_text(), []] + ([1] if rel.endswith("__init__.py") else [])
    for game in ("warlords-of-terra", "hunt-begins", "malifaux"):
        out["kb_game_" + game.replace("-", "_")] = [".py", (root / "content" / game / "mechanics.py").read_text(), []]
    for v in out.values():  # stand-in 2: Brython's isinstance refuses typing.Mapping
        v[1] = re.sub(r"^(from typing import .*\bMapping\b.*)$", r"\1\nfrom collections.abc import Mapping", v[1],
                      count=1, flags=re.M)
    out["babel"] = [".py", BABEL_STAND_IN, [], 1]  # stand-in 1: no Babel under Brython
    return out


def cases(kb: KnowledgeBase, n: int) -> list[dict]:
    rng = random.Random(30)
    out = []
    for eid, name in CASES:
        calc = next(c for c in calculators(kb.get(eid), kb.registry.get, budget=10**30) if c.resolver.name == name)
        sp = calc.space
        givens = [sp.given(tuple(rng.randrange(len(f.values)) for f in sp.variable)) for _ in range(n)]
        t = time.process_time()
        answers = [answer(call(calc.resolver, g)) for g in givens]
        us = (time.process_time() - t) / n * 1e6
        out.append({"resolver": name, "module": calc.resolver.func.__module__, "func": calc.resolver.func.__name__,
                    "space": sp.size, "givens": givens, "answers": answers, "cpython_us_per_call": us})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brython", type=Path, default=Path.home() / ".cache/kb-brython/node_modules/brython")
    ap.add_argument("--inputs", type=int, default=30)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    kb = KnowledgeBase.load(ROOT / "content")
    found = cases(kb, args.inputs)
    with tempfile.TemporaryDirectory() as tmp:
        page_dir = Path(tmp)
        sizes = {}
        for name in ("brython.js", "brython_stdlib.js"):
            (page_dir / name).write_bytes((args.brython / name).read_bytes())
            sizes[name] = (page_dir / name).stat().st_size
        (page_dir / "kb_vfs.js").write_text("__BRYTHON__.update_VFS(" + json.dumps(module_data(ROOT)) + ");\n")
        sizes["kb_vfs.js"] = (page_dir / "kb_vfs.js").stat().st_size
        (page_dir / "cases.js").write_text("window.CASES = " + json.dumps(found, default=str) + ";\n")
        (page_dir / "index.html").write_text(PAGE)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            pg = browser.new_page()
            t = time.time()
            pg.goto((page_dir / "index.html").as_uri())
            pg.wait_for_function("document.getElementById('out').textContent !== 'running'", timeout=600_000)
            wall = time.time() - t
            report = json.loads(pg.text_content("#out") or "{}")
            browser.close()
    print("stand-ins: babel.Locale (plural rule), collections.abc.Mapping for typing.Mapping")
    print("bytes:", sizes, "page wall %.1f s" % wall, "Brython start %.0f ms, import kb.mechanics %.0f ms"
          % (report["start_ms"], report["import_ms"]))
    for c, r in zip(found, report["cases"]):
        print(f"{c['resolver']}: space {c['space']:.3g}, same as CPython {r['same']}/{r['of']}, "
              f"Brython {r['ms_per_call']:.2f} ms/call, CPython {c['cpython_us_per_call']:.0f} us/call")
    return 0 if all(r["same"] == r["of"] for r in report["cases"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
