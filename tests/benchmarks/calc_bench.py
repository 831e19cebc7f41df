"""The calculators' budget (issue 30): time to enumerate and word every calculator, and the data per resolver.

    .venv/bin/python tests/benchmarks/calc_bench.py [CONTENT]

Prints, per language, the seconds calc_site takes (the first language enumerates; the second only words
the answers again; a space whose worded answers are in the cache, ``.kb-cache/calc``, is neither), how many
spaces came from the cache, the number of forms and data files, the total bytes, and the ten largest data files.
Note the load average beside the figures (the machine is shared).
"""

from __future__ import annotations

import os
import sys
import time

from kb.api import KnowledgeBase
from kb.mkdocs_plugin import pyodide_folder
from kb.site.calc import calc_site


def main(content: str = "content") -> None:
    kb = KnowledgeBase.load(content)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for lang in ("es", "en"):
        started = time.perf_counter()
        site = calc_site(kb, lang, pyodide_folder()[1] is not None)  # as kb build finds the runtime
        took = time.perf_counter() - started
        print(f"{lang}: {took:.1f} s, {sum(map(len, site.forms.values()))} forms on {len(site.forms)} pages, "
              f"{len(site.files)} data files, {sum(site.sizes.values()) / 1e6:.2f} MB; spaces from the cache "
              f"{site.cached}, enumerated {site.computed}")
    for path, size in sorted(site.sizes.items(), key=lambda x: -x[1])[:10]:
        print(f"  {size / 1e3:8.1f} KB  {path}")
    print(f"  median {sorted(site.sizes.values())[len(site.sizes) // 2] / 1e3:.1f} KB per data file")


if __name__ == "__main__":
    main(*sys.argv[1:])
