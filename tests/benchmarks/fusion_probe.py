"""Probe (issue 31 item 2, eleventh session): fuse the engine's ranking with a plain BM25 signal? TUNING parts only.

    .venv/bin/python tests/benchmarks/fusion_probe.py [--dump FILE.pkl] [--load FILE.pkl]

For every query of relevance.yaml, the players' tuning part and the fresh set's tuning part it runs
``KnowledgeBase.search(q, lang, limit=10)`` with the engine's kernels wrapped, and keeps, for every document the
query matched (after the game filters), the parts of its score: the summed per-field BM25 (``acc``), the entry
factor (kind prior, exact name, game context), the words matched and counted (coordination) and the proximity
factor. It also scores the same documents by a plain BM25 over the unstemmed spelling field (the document's whole
text, folded words) and notes FTS5's ranking on the same text (``search_bench.build_fts``). Variants re-compose
those parts offline (the default composition reproduces the engine's ranking exactly: checked) and are judged by
**2-fold cross-validation** (each variant's figure chosen on the even items of the three sets pooled, scored on
the odd ones, and the other way round; ``rerank_probe.py``'s split), and by items up / down per set against the
engine; a variant "PASSES" when it is better out of sample on all three sets in both folds.

The engine runs with ``coverage_boost=0`` (the ranking before this session kept field coverage): the ``cover_*``
variants add it back. Variants (``GRIDS``; ``engine`` = ``acc × factor × coordination⁴ × proximity``, each signal max-normalised per query
where mixed): ``rrf_acc`` / ``rrf_spell`` (reciprocal-rank fusion ``1/(k + rank) + w/(k + rank')`` with the plain
per-field BM25 sum ``acc``, or with the spelling field's BM25), ``mix_acc`` / ``mix_spell`` / ``mix_stem*`` (convex
mix ``(1 − a) × engine + a × signal``; ``stem``: the stemmed fields taken as one document, Robertson IDF; ``stem_w``:
Whoosh's IDF; ``stem_t``: with the thesaurus' terms), ``mul_spell`` (``engine × (1 + γ × spell)``), ``coord`` (the
coordination power), ``coord_soft`` (a lower power only for queries of many matched words), ``mixc_*`` (power and mix
together), ``cover_*`` (the second stage's field coverage, ``× (1 + β × the most query words one field holds / words)``
over title + questions, title, questions, or title + names + questions: kept as ``Params.coverage_boost``), ``exact``
(the exact-name boost lowered), ``rrf_fts5`` (FTS5's own ranking fused: a diagnostic, not
buildable). ``--dump`` keeps the captured parts, ``--load`` re-scores them without the index (seconds).
The held-back parts are never read here.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sqlite3
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(HERE)]

from kb import KnowledgeBase  # noqa: E402
from kb.core.terms import fold  # noqa: E402
from kb.search import query as Q  # noqa: E402
from kb.search import ranking  # noqa: E402
from relevance import PLAYERS, fresh, queries, rank  # noqa: E402

CAP: dict = {}


def _score(s, slots, factor, keep, p):
    """query.score, keeping its parts."""
    st = Q._stats(s)
    k1 = p.bm25_k1
    acc = np.zeros(st.n)
    matched = np.zeros(st.n, dtype=np.int64)
    counted = 0
    for slot in slots:
        hit = np.zeros(st.n, dtype=bool) if slot.counts else None
        found = False
        for (fieldname, term), weight in slot.clauses.items():
            ids, tfs, df = st.postings(fieldname, term)
            if not df:
                continue
            found = True
            scale = weight * ranking.idf(st.n, df) * (k1 + 1)
            norms = st.norms(fieldname, k1, p.bm25_b[fieldname.rsplit("_", 1)[0]])
            acc[ids] += scale * tfs / (tfs + norms[ids])
            if hit is not None:
                hit[ids] = True
        if hit is not None and found:
            matched += hit
            counted += 1
    coord = np.array([ranking.coordination(m, counted, p.coordination) for m in range(counted + 1)])
    docs = np.flatnonzero((acc != 0) & keep)
    CAP.update(acc=acc[docs], matched=matched[docs], counted=counted, factor=np.asarray(factor)[docs], docs=docs,
               nslots=len(slots), slots=[(dict(sl.clauses), sl.counts) for sl in slots])
    return docs, acc[docs] * factor[docs] * coord[matched[docs]]


_PROX = Q._KERNELS.proximity


COVER = {"tq": ("title", "questions"), "t": ("title",), "q": ("questions",), "tnq": ("title", "names", "questions")}


def _proximity(st, docs, values, said, p, vocab):
    out = _PROX(st, docs, values, said, p, vocab)
    langs, lang_ix = st.codes["lang"]
    cov = {k: np.zeros(len(docs)) for k in COVER}
    for i in np.lexsort((docs, -values))[:p.proximity_depth]:
        doc = int(docs[i])
        lg = langs[lang_ix[doc]]
        ws = [vocab.terms(w, lg) for w in said]
        ws = [t for t in ws if t]
        if not ws:
            continue
        held = {name: sum(1 for t in ws if any(Q._positions(st, f"{name}_{lg}", x, doc) for x in t))
                for name in ("title", "names", "questions")}
        for k, names in COVER.items():
            cov[k][i] = max(held[n] for n in names) / len(ws)
    CAP.update(cov=cov)
    CAP.update(pdocs=np.asarray(docs), pre=np.asarray(values), post=np.asarray(out), said=list(said))
    return out


def spell_bm25(st, lengths, said, docs, langs, lang_ix, k1=1.2, b=0.75):
    """Plain BM25 over the unstemmed spelling field (the whole text of the document's language, folded words),
    Robertson-Sparck Jones IDF floored at 0 (what FTS5 does), each word once."""
    out = np.zeros(len(docs))
    words = sorted({fold(w.lower()) for w in said})
    for lg in ("es", "en"):
        f = f"spell_{lg}"
        fl, avg = lengths[f]
        n_lang = int((np.asarray(lang_ix) == langs.index(lg)).sum())
        for w in words:
            ids, tfs, df = st.postings(f, w)
            if not df:
                continue
            idf = max(math.log((n_lang - df + 0.5) / (df + 0.5)), 1e-6)
            tf = np.zeros(st.n)
            tf[ids] = tfs
            t = tf[docs]
            out += idf * t * (k1 + 1) / (t + k1 * (1 - b + b * fl[docs] / avg))
    return out


def stem_bm25(st, doclen, slots, docs, lang_ix, langs, k1=1.2, b=0.75, idf_kind="rsj", own_only=True):
    """Plain BM25 over the stemmed fields taken as one document: per counting slot, the term frequencies of its own
    clauses (the thesaurus' left out with ``own_only``) summed over the document's five fields, the document's length
    the sum of its fields' lengths, df the documents of that language holding any of them."""
    out = np.zeros(len(docs))
    lang_ix = np.asarray(lang_ix)
    for clauses, counts in slots:
        if not counts:
            continue
        tf = np.zeros(st.n)
        for (fieldname, term), weight in clauses.items():
            name = fieldname.rsplit("_", 1)[0]
            if own_only and abs(weight - ranking.DEFAULTS.field_weights[name]) > 1e-9:
                continue
            ids, tfs, df = st.postings(fieldname, term)
            if df:
                tf[ids] += tfs
        for li in range(len(langs)):
            mask = lang_ix == li
            df = int(((tf > 0) & mask).sum())
            if not df:
                continue
            n_lang = int(mask.sum())
            idf = (max(math.log((n_lang - df + 0.5) / (df + 0.5)), 1e-6) if idf_kind == "rsj"
                   else math.log(n_lang / (df + 1)) + 1)
            t = np.where(mask[docs], tf[docs], 0.0)
            dl, avg = doclen
            out += idf * t * (k1 + 1) / (t + k1 * (1 - b + b * dl[docs] / avg[lang_ix[docs]]))
    return out


def collect(dump: Path | None) -> list[dict]:
    kb = KnowledgeBase.load(REPO / "content", ranking=replace(ranking.DEFAULTS, coverage_boost=0.0))  # as before it
    Q._KERNELS = replace(Q._KERNELS, score=_score, proximity=_proximity)
    sets = {"relevance.yaml": [dict(q, lang=None) for q in queries()], "players-tune": queries(PLAYERS["tune"]),
            "fresh-tune": fresh("tune")}
    kb.search("warm up")
    from kb.search import whoosh_access
    from search_bench import build_fts
    from fts_lookup import lookup

    tmp = tempfile.mkdtemp()
    build_fts(kb, Path(tmp) / "fts.db")
    db = sqlite3.connect(Path(tmp) / "fts.db")
    rows = []
    for name, items in sets.items():
        for pos, item in enumerate(items):
            CAP.clear()
            hits = [h.id for h in kb.search(item["q"], lang=item.get("lang"), limit=10).hits]
            rows.append(dict(set=name, pos=pos, q=item["q"], lang=item.get("lang"), style=item.get("style"),
                             game=item.get("game"), expect=list(item["expect"]), hits=hits, cap=dict(CAP),
                             fts=lookup(db, item["q"], limit=40)))
    # the statistics of the open searcher (the same one every query used)
    st = next(iter(Q._STATS.values()))
    entries, entry_ix = st.codes["entry"]
    langs, lang_ix = st.codes["lang"]
    kinds, kind_ix = st.codes["kind"]
    lengths = {}
    for lg in ("es", "en"):
        fl = np.array(whoosh_access.field_lengths(st.reader, f"spell_{lg}"), dtype=np.float64)
        mask = np.asarray(lang_ix) == langs.index(lg)
        lengths[f"spell_{lg}"] = (fl, fl[mask].mean())
    dl = np.zeros(st.n)
    for lg in ("es", "en"):
        for name in ranking.FIELDS:
            dl += np.array(st._lengths(f"{name}_{lg}"), dtype=np.float64)
    avg = np.array([dl[np.asarray(lang_ix) == i].mean() for i in range(len(langs))])
    doclen = (dl, avg)
    for r in rows:
        c = r["cap"]
        if "docs" not in c:
            continue
        d = c["docs"]
        c["entry"] = [entries[i] for i in np.asarray(entry_ix)[d]]
        c["kind"] = [kinds[i] for i in np.asarray(kind_ix)[d]]
        c["spell"] = spell_bm25(st, lengths, c.get("said", []), d, langs, lang_ix)
        c["stem"] = stem_bm25(st, doclen, c["slots"], d, lang_ix, langs)
        c["stem_w"] = stem_bm25(st, doclen, c["slots"], d, lang_ix, langs, idf_kind="whoosh")
        c["stem_t"] = stem_bm25(st, doclen, c["slots"], d, lang_ix, langs, own_only=False)
        prox = np.ones(len(d))
        if "pdocs" in c and len(c["pdocs"]):
            where = {int(x): i for i, x in enumerate(d)}
            for x, a, b in zip(c["pdocs"], c["pre"], c["post"], strict=True):
                prox[where[int(x)]] = b / a if a else 1.0
        c["prox"] = prox
        c["cov"] = {k: v for k, v in c["cov"].items()}
    if dump:
        dump.write_bytes(pickle.dumps(rows))
    return rows


# ---------------------------------------------------------------- re-composition


def coordination(matched, counted, power):
    return ((1 + matched) / (1 + counted)) ** power if counted else np.ones_like(matched, dtype=float)


def entry_rank(c, values, expect):
    """Rank of the first expected entry (one per entry, its best document, ties by document number), top 10."""
    d = c["docs"]
    order = np.lexsort((d, -values))
    seen = []
    for i in order:
        e = c["entry"][i]
        if e not in seen:
            seen.append(e)
            if len(seen) == 10:
                break
    return rank(seen, expect), seen


def engine_values(c, power=4.0):
    return c["acc"] * c["factor"] * coordination(c["matched"], c["counted"], power) * c["prox"]


def ranks_of(values):
    """1-based rank of each document by value (ties by position: document number order is the array's)."""
    order = np.argsort(-values, kind="stable")
    r = np.empty(len(values))
    r[order] = np.arange(1, len(values) + 1)
    return r


def variant(kind, theta):
    """A function (row cap) -> document values."""
    def f(c):
        base = engine_values(c)
        if kind == "engine":
            return base
        if kind == "rrf_acc":  # reciprocal-rank fusion with the plain per-field BM25 sum (same clauses)
            k, w = theta
            return 1 / (k + ranks_of(base)) + w / (k + ranks_of(c["acc"]))
        if kind == "rrf_spell":
            k, w = theta
            return 1 / (k + ranks_of(base)) + w / (k + ranks_of(c["spell"]))
        if kind == "mix_acc":  # convex mix of max-normalised scores
            a = theta
            return (1 - a) * base / base.max() + a * c["acc"] / c["acc"].max()
        if kind.startswith("mix_") and kind[4:] in ("spell", "stem", "stem_w", "stem_t"):
            a = theta
            s = c[kind[4:]]
            return (1 - a) * base / base.max() + a * (s / s.max() if s.max() > 0 else s)
        if kind == "coord":  # coordination power
            return c["acc"] * c["factor"] * coordination(c["matched"], c["counted"], theta) * c["prox"]
        if kind == "coord_soft":  # power theta[0] when the query has >= theta[1] counted words
            p = theta[0] if c["counted"] >= theta[1] else 4.0
            return c["acc"] * c["factor"] * coordination(c["matched"], c["counted"], p) * c["prox"]
        if kind in ("mixf_spell", "mixf_acc"):  # the signal times the entry factor (priors kept, no coordination)
            a = theta
            s = c[kind[5:]] * c["factor"]
            return (1 - a) * base / base.max() + a * (s / s.max() if s.max() > 0 else s)
        if kind in ("mixc_spell", "mixc_stem"):  # coordination power and a convex mix together
            power, a = theta
            v = c["acc"] * c["factor"] * coordination(c["matched"], c["counted"], power) * c["prox"]
            s = c[kind[5:]]
            return (1 - a) * v / v.max() + a * (s / s.max() if s.max() > 0 else s)
        if kind == "rrf_fts5":  # diagnostic: FTS5's own entry ranking fused (not buildable: another index)
            k, w = theta
            pos = {e: i for i, e in enumerate(c["fts"])}
            fr = np.array([pos.get(e, 1e9) + 1 for e in c["entry"]], dtype=float)
            return 1 / (k + ranks_of(base)) + w / (k + fr)
        if kind.startswith("cover_"):  # field coverage in the second stage (the best proximity_depth documents)
            return base * (1 + theta * c["cov"][kind[6:]])
        if kind == "exact":  # the exact-name boost (3.0) lowered; exact documents told by their factor (3.0, x1.6)
            ex = np.isin(np.round(c["factor"], 6), (3.0, 4.8)) & (np.array(c["kind"]) != "concept")
            f = np.where(ex, c["factor"] * theta / 3.0, c["factor"])
            return c["acc"] * f * coordination(c["matched"], c["counted"], 4.0) * c["prox"]
        if kind == "mul_spell":  # engine × (1 + γ spell/max)
            s = c["spell"]
            return base * (1 + theta * (s / s.max() if s.max() > 0 else s))
        raise ValueError(kind)
    return f


def evaluate(rows, fn):
    out = []
    for r in rows:
        c = r["cap"]
        if "docs" not in c or not len(c["docs"]):
            out.append(0.0)
            continue
        c["fts"] = r["fts"]
        k, _ = entry_rank(c, fn(c), r["expect"])
        out.append(1 / k if k else 0.0)
    return np.array(out)


GRIDS = {
    "rrf_acc": [(k, w) for k in (5, 10, 20, 60) for w in (0.1, 0.25, 0.5, 1.0)],
    "rrf_spell": [(k, w) for k in (5, 10, 20, 60) for w in (0.1, 0.25, 0.5, 1.0)],
    "mix_acc": [0.05, 0.1, 0.2, 0.3, 0.5],
    "mix_spell": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mix_stem": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mix_stem_w": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mix_stem_t": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mixf_spell": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mixf_acc": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
    "mixc_spell": [(pw, a) for pw in (2.0, 3.0, 4.0) for a in (0.1, 0.15, 0.2, 0.25, 0.3)],
    "mixc_stem": [(pw, a) for pw in (2.0, 3.0, 4.0) for a in (0.1, 0.15, 0.2, 0.25, 0.3)],
    "rrf_fts5": [(k, w) for k in (5, 10, 60) for w in (0.25, 0.5, 1.0)],
    **{f"cover_{k}": [0.1, 0.25, 0.5, 0.75, 1.0] for k in COVER},
    "exact": [1.0, 1.5, 2.0, 2.5, 4.0],
    "mul_spell": [0.1, 0.25, 0.5, 1.0, 2.0],
    "coord": [1.0, 2.0, 3.0, 5.0],
    "coord_soft": [(p, n) for p in (1.0, 2.0, 3.0) for n in (4, 5, 6, 8)],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--load", type=Path)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    rows = pickle.loads(args.load.read_bytes()) if args.load else collect(args.dump)
    names = ["relevance.yaml", "players-tune", "fresh-tune"]
    set_of = np.array([r["set"] for r in rows])
    fold_of = np.array([r["pos"] % 2 for r in rows])
    base = evaluate(rows, variant("engine", None))
    truth = np.array([(1 / k if (k := rank(r["hits"], r["expect"])) else 0.0) for r in rows])
    print("re-composition reproduces the engine:", bool(np.allclose(base, truth)), f"({int((base != truth).sum())} differ)")
    fts = np.array([(1 / k if (k := rank(r["fts"][:10], r["expect"])) else 0.0) for r in rows])
    print(f"{'variant':<34}" + "".join(f"{n:>28}" for n in names) + "   folds (chosen: set MRR before -> after)")
    print(f"load average {__import__('os').getloadavg()[0]:.1f}")
    print(f"{'engine':<34}" + "".join(f"{base[set_of == n].mean():>28.3f}" for n in names))
    print(f"{'FTS5 (same text)':<34}" + "".join(f"{fts[set_of == n].mean():>28.3f}" for n in names))
    for kind, grid in GRIDS.items():
        if args.only and kind not in args.only:
            continue
        scored = {theta: evaluate(rows, variant(kind, theta)) for theta in grid}
        # 2-fold: choose on one half (pooled), score on the other
        cv = np.zeros(len(rows))
        notes = []
        wins = True
        for held in (0, 1):
            train, test = fold_of != held, fold_of == held
            theta = max(grid, key=lambda t: (scored[t][train].mean(), -grid.index(t)))
            cv[test] = scored[theta][test]
            per = []
            for n in names:
                m = test & (set_of == n)
                before, after = base[m].mean(), scored[theta][m].mean()
                wins &= after > before
                per.append(f"{before:.3f}->{after:.3f}")
            notes.append(f"fold{held}: {theta} " + " ".join(per))
        updown = []
        for n in names:
            m = set_of == n
            updown.append(f"{cv[m].mean():.3f} +{int((cv[m] > base[m]).sum())}/-{int((cv[m] < base[m]).sum())}")
        print(f"{kind + ' (2-fold CV)':<34}" + "".join(f"{u:>28}" for u in updown) + "   " + "; ".join(notes)
              + ("   PASSES" if wins else ""))
        best = max(grid, key=lambda t: scored[t].mean())
        for theta in grid:
            v = scored[theta]
            print(f"   {str(theta):<31}" + "".join(
                f"{v[set_of == n].mean():>18.3f} +{int((v[set_of == n] > base[set_of == n]).sum()):>2}"
                f"/-{int((v[set_of == n] < base[set_of == n]).sum()):<3}" for n in names) + ("  *" if theta == best else ""))


if __name__ == "__main__":
    main()
