"""The calculators' enumeration with and without the remembered step texts (issue 30), side by side in one run.

    .venv/bin/python tests/benchmarks/calc_enum_bench.py [--rounds 3]

For three spaces of the bundled content (as the site makes them), the CPU time per resolver call of
``enumerate_space``, with ``Trace.add`` remembering worded steps (``kb.mechanics._worded``) and with it
wording every step afresh (as before), alternating the two, best of ``--rounds``. Note the load average.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from unittest import mock

import kb.mechanics as mechanics
from kb.api import KnowledgeBase
from kb.mechanics.space import answer, enumerate_space
from kb.site.calc import calculators

ROOT = Path(__file__).resolve().parents[2]
SPACES = [("warlords-of-terra.alert", "warlords-of-terra.combat"), ("hunt-begins.aim", "hunt-begins.attack"),
          ("malifaux.elevation-in-combat", "malifaux.combat-distance"), ("hunt-begins.seal-it", "hunt-begins.seal")]


def _run(calc) -> tuple[float, list]:
    mechanics._WORDED.clear()
    started = time.process_time()
    results = enumerate_space(calc.space, calc.resolver)
    return time.process_time() - started, results


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    rounds = ap.parse_args().rounds
    kb = KnowledgeBase.load(ROOT / "content")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for eid, name in SPACES:
        calc = next(c for c in calculators(kb.get(eid), kb.registry.get) if c.resolver.name == name)
        on, off = [], []
        for _ in range(rounds):
            t_on, r_on = _run(calc)
            with mock.patch.object(mechanics, "_is_plain", lambda value: False):  # nothing remembered
                t_off, r_off = _run(calc)
            assert [answer(r) for r in r_on] == [answer(r) for r in r_off]
            assert [[s.text for s in getattr(r, "trace", ())] for r in r_on] == [[s.text for s in getattr(r, "trace", ())] for r in r_off]
            on.append(t_on)
            off.append(t_off)
        n = calc.space.size
        print(f"{name} ({n} combinations): {min(off) / n * 1e6:.1f} µs a call afresh, {min(on) / n * 1e6:.1f} µs remembered, "
              f"{min(off) / min(on):.2f}×")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
