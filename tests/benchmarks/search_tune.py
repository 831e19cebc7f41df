"""Tuning aid: the engine's figures on the TUNING parts only (fresh set, players' set) and relevance.yaml.

    .venv/bin/python tests/benchmarks/search_tune.py [--misses] [--set NAME=VALUE ...]

``--set`` overrides a figure of :class:`kb.search.ranking.Params` for this run (``--set coordination=2``,
``--set field_weights.title=3``) to compare variants. The held-back parts are never run here: their
figures come from ``search_bench.py`` and are reported, never tuned on. Both build the index afresh in a temporary
folder: an index updated in place keeps its deleted documents in ``N`` and the document frequencies until a merge (as
Whoosh and Lucene do), so its figures would depend on the edits made since it was built.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from kb import KnowledgeBase  # noqa: E402
from kb.search import ranking  # noqa: E402
from relevance import BLIND2, PLAYERS, fresh, measure, queries  # noqa: E402


def override(params: ranking.Params, spec: str) -> ranking.Params:
    name, value = spec.split("=", 1)
    if "." in name:
        table, key = name.split(".", 1)
        return replace(params, **{table: {**getattr(params, table), key: float(value)}})
    return replace(params, **{name: type(getattr(params, name))(float(value))})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    params = ranking.DEFAULTS
    for spec in args.set:
        params = override(params, spec)
    cache = tempfile.TemporaryDirectory(prefix="kb-tune-")  # a clean index, as a fresh checkout builds it
    kb = KnowledgeBase.load(REPO / "content", cache_base=cache.name, ranking=params)
    ours = lambda q, lang=None: [h.id for h in kb.search(q, lang=lang, limit=10).hits]  # noqa: E731
    sets = {"relevance.yaml": measure(ours), "players-tune": measure(ours, queries(PLAYERS["tune"]), with_lang=True),
            "fresh-tune": measure(ours, fresh("tune"), with_lang=True)}
    blind2 = fresh("tune", BLIND2)
    if blind2:
        sets["blind2-tune"] = measure(ours, blind2, with_lang=True)
    for name, res in sets.items():
        print(f"{name:<16} n={res['queries']:>3} MRR {res['mrr']:.3f} R@3 {res['recall@3']:.3f}")
    styles = sets["fresh-tune"]["by_style"]
    print("fresh-tune by style: " + ", ".join(f"{k} {v['mrr']:.3f}" for k, v in sorted(styles.items(), key=lambda kv: kv[1]["mrr"])))
    if args.misses:
        for q, want, got in sets["fresh-tune"]["misses"]:
            print(f"  {q!r}: want {want}, got {got}")


if __name__ == "__main__":
    main()
