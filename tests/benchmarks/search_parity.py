"""Browser against API, query by query: the site's search engine (kb-search-engine.js, run by Node on the data
the site exports) and ``KnowledgeBase.search`` on every query of every relevance set.

    .venv/bin/python tests/benchmarks/search_parity.py [--show N]

Prints, per set and language, how many queries give the same top-10 entry ids in the same order, and
how many the same first hit; ``--show`` lists up to N differing queries of the tuning parts and
relevance.yaml (never of a held-back part). Needs ``node`` on the PATH.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from kb import KnowledgeBase  # noqa: E402
from kb.search.export import export  # noqa: E402
from relevance import PLAYERS, fresh, queries  # noqa: E402

ENGINE = REPO / "kb" / "site" / "assets" / "kb-search-engine.js"
RUN = """
const E = require(process.argv[1]);
const engine = new E.Engine(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")));
const qs = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
process.stdout.write(JSON.stringify(qs.map(q => engine.search(q, {limit: 10}).hits.map(h => [h.id, h.score]))));
"""


def sets() -> dict[str, list[tuple[str, str]]]:
    """(query, language) of every set; relevance.yaml has no language: each query runs in both."""
    out = {"relevance.yaml": [(i["q"], lang) for i in queries() for lang in ("es", "en")]}
    for part, path in PLAYERS.items():
        out[f"players-{part}"] = [(i["q"], i["lang"]) for i in queries(path)]
    for part in ("tune", "held"):
        out[f"fresh-{part}"] = [(i["q"], i["lang"]) for i in fresh(part)]
    return out


def browser(data: dict, texts: list[str], tmp: Path) -> list[list[str]]:
    """The top-10 ids the browser's engine gives for each query, on ``data``."""
    (tmp / "data.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp / "q.json").write_text(json.dumps(texts), encoding="utf-8")
    done = subprocess.run(["node", "-e", RUN, str(ENGINE), str(tmp / "data.json"), str(tmp / "q.json")],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _same(a: list, b: list, rel: float = 1e-9) -> bool:
    """The same ids in the same order, each score within ``rel`` of the other's."""
    return len(a) == len(b) and all(x[0] == y[0] and abs(x[1] - y[1]) <= rel * max(abs(x[1]), abs(y[1])) for x, y in zip(a, b))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    kb = KnowledgeBase.load(REPO / "content")
    reader = kb.search_reader()
    data = {lang: export(reader, lang, lambda i: i, {}) for lang in ("es", "en")}
    shown = 0
    print(f"{'set':<16} {'lang':<4} {'queries':>7} {'same top 10 and scores':>23} {'same first':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, items in sets().items():
            for lang in ("es", "en"):
                texts = [q for q, lg in items if lg == lang]
                if not texts:
                    continue
                site = browser(data[lang], texts, Path(tmp))
                api = [[[h.id, h.score] for h in kb.search(q, lang=lang, limit=10).hits] for q in texts]
                same = sum(_same(a, b) for a, b in zip(api, site, strict=True))
                first = sum([x[0] for x in a[:1]] == [x[0] for x in b[:1]] for a, b in zip(api, site, strict=True))
                print(f"{name:<16} {lang:<4} {len(texts):>7} {same:>23} {first:>10}")
                for q, a, b in zip(texts, api, site, strict=True):
                    if a != b and shown < args.show and not name.endswith(("held", "heldout")):
                        shown += 1
                        print(f"    {q!r}\n      api  {a[:4]}\n      site {b[:4]}")


if __name__ == "__main__":
    main()
