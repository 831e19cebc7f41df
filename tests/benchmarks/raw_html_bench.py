"""The ``raw-html`` linter on one 240 KB text, the worst shapes the old pattern met (issue 28).

Run: ``.venv/bin/python tests/benchmarks/raw_html_bench.py``. Each shape is a whole file's text checked by
``kb check`` (``RAW_HTML.search``); budget 0.5 s per shape (the old pattern took 3.9 s on 20 KB of "<a" and spaces, 15-20 s on a 240 KB file).
Measured 2026-12-01, load average ~9 on 2 shared cores: worst shape 0.03 s (ampersands 0.02 s, the rest < 0.002 s).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kb.core.validate import RAW_HTML  # noqa: E402

SIZE = 240_000
BUDGET = 0.5
SHAPES = {
    "tag then spaces, no '>'": "<a" + " " * SIZE,
    "many open tags, no '>'": "<a " * (SIZE // 3),
    "many '<' and letters": "<a<b" * (SIZE // 4),
    "ampersands and words": ("&" + "x" * 50) * (SIZE // 51),
    "spaces between '<' and text": "< " * (SIZE // 2),
    "plain prose": "una frase corriente sin marcas, " * (SIZE // 32),
}


def main() -> int:
    worst = 0.0
    for name, text in SHAPES.items():
        start = time.perf_counter()
        RAW_HTML.search(text)
        spent = time.perf_counter() - start
        worst = max(worst, spent)
        print(f"{name:32} {len(text):>7} chars  {spent:.4f} s")
    print(f"worst {worst:.4f} s, budget {BUDGET} s")
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
