"""Probe (issue 31, eleventh session): cross-game questions — a concept scored from its members. TUNING parts only.

    nice -n 5 .venv/bin/python tests/benchmarks/concept_probe.py [--depth 50]

For every query of relevance.yaml, the players' tuning part, the fresh set's tuning part and blind2's tuning part it
runs ``KnowledgeBase.search(q, lang, limit=depth)`` twice: as the engine does, and with the query read as speaking of
games in general (``query._games`` wrapped: concepts at ``Params.general_prior``, no game context) — the score a
concept would have if its prior were lifted. A variant applies only to a query **with no game context**: no game
named, none pointed to by its words, not already general (the engine's own ``_games`` says so). A concept's
**members** are the entries of its terms (``Graph.concepts``; with ``+links``, also the non-concept entries that link
to it). Variants, re-composed offline over the engine's hits:

- ``lift (N, k)``: when ≥ k of the top N hits are members of one concept, from ≥ 2 games, that concept takes its
  general-prior score (it enters the list, or moves, at that score);
- ``members max/sum (N, λ)``: every concept with members among the top N from ≥ 2 games scores
  ``max(own, λ × max (or sum) of those members' scores)``.

Each variant's figures are chosen on the even items of the four sets pooled and scored on the odd ones, then the
other way round (2-fold cross-validation, ``rerank_probe.py``'s split); it passes when it is better out of sample on
every set in both folds (equal where it cannot apply). The held-back parts are never read here.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from kb import KnowledgeBase  # noqa: E402
from kb.search import query as Q  # noqa: E402
from relevance import BLIND2, PLAYERS, fresh, queries  # noqa: E402


def collect(kb: KnowledgeBase, sets: dict[str, list[dict]], depth: int) -> list[dict]:
    """Per query: the engine's hits, the general run's concept scores, whether it has no game context."""
    real = Q._games
    seen: dict[str, tuple] = {}

    def watch(said, game, meta, p):  # type: ignore[no-untyped-def]
        out = real(said, game, meta, p)
        seen["games"] = out
        return out

    def general(said, game, meta, p):  # type: ignore[no-untyped-def]
        named, gen, ctx = real(said, game, meta, p)
        return (named, True, None) if not named and ctx is None and not game else (named, gen, ctx)

    rows = []
    for name, items in sets.items():
        for pos, item in enumerate(items):
            Q._games = watch
            seen.clear()
            hits = [(h.id, h.game, h.kind, h.score) for h in kb.search(item["q"], lang=item.get("lang"), limit=depth).hits]
            named, gen, ctx = seen.get("games", (frozenset(), False, None))
            Q._games = general
            ghits = {h.id: h.score for h in kb.search(item["q"], lang=item.get("lang"), limit=depth).hits
                     if h.kind == "concept"}
            Q._games = real
            rows.append({"set": name, "pos": pos, "expect": set(item["expect"]), "hits": hits, "general": ghits,
                         "free": not named and ctx is None and not gen, "game": item.get("game")})
    return rows


def members_of(kb: KnowledgeBase, links: bool) -> dict[str, set[str]]:
    """entry → the concepts it is a member of."""
    out: dict[str, set[str]] = {}
    for view in kb.concepts():
        cid = view.entry.id
        ids = {t.id for ts in view.terms.values() for t in ts}
        if links:
            ids |= {e.id for es in view.related.values() for e in es}
        for i in ids:
            out.setdefault(i, set()).add(cid)
    return out


def rerank(row: dict, variant: str, fig: tuple, member: dict[str, set[str]]) -> list[str]:
    hits = row["hits"]
    if not row["free"] or variant == "engine":
        return [h[0] for h in hits]
    scores = {h[0]: h[3] for h in hits}
    top = hits[:fig[0]]
    if variant == "spread":
        if len({g for _, g, kind, _ in top if kind != "concept"}) >= fig[1]:
            for c, s in row["general"].items():
                scores[c] = max(scores.get(c, 0.0), fig[2] * s)
        order = {h[0]: i for i, h in enumerate(hits)}
        return sorted(scores, key=lambda i: (-scores[i], order.get(i, len(hits))))
    by_concept: dict[str, list[tuple[str, str, float]]] = {}
    for hid, game, _, score in top:
        for c in member.get(hid, ()):
            by_concept.setdefault(c, []).append((hid, game, score))
    for c, ms in by_concept.items():
        if len({g for _, g, _ in ms}) < 2:
            continue
        if variant == "lift":
            if len(ms) >= fig[1] and c in row["general"]:
                scores[c] = max(scores.get(c, 0.0), row["general"][c])
        else:
            agg = max(s for *_, s in ms) if variant == "max" else sum(s for *_, s in ms)
            scores[c] = max(scores.get(c, 0.0), fig[1] * agg)
    order = {h[0]: i for i, h in enumerate(hits)}
    return sorted(scores, key=lambda i: (-scores[i], order.get(i, len(hits))))


def rr(ranked: list[str], expect: set[str]) -> float:
    for i, x in enumerate(ranked[:10], 1):
        if x in expect:
            return 1 / i
    return 0.0


GRIDS = {
    "spread": [(n, g, mu) for n in (3, 5, 10) for g in (2, 3, 4) if g <= n for mu in (0.25, 0.5, 0.75, 1.0)],
    "lift": [(n, k) for n in (3, 5, 10) for k in (2, 3, 4) if k <= n],
    "max": [(n, lam) for n in (3, 5, 10) for lam in (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)],
    "sum": [(n, lam) for n in (3, 5, 10) for lam in (0.1, 0.25, 0.35, 0.5, 0.75, 1.0)],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=50)
    ap.add_argument("--show", action="store_true", help="list the items each variant moves (set, position, game)")
    args = ap.parse_args()
    kb = KnowledgeBase.load(REPO / "content")
    sets = {"relevance.yaml": [dict(q, lang=None) for q in queries()], "players-tune": queries(PLAYERS["tune"]),
            "fresh-tune": fresh("tune"), "blind2-tune": fresh("tune", BLIND2)}
    rows = collect(kb, sets, args.depth)
    names = list(sets)
    base = [rr(rerank(r, "engine", (), {}), r["expect"]) for r in rows]
    print("queries: " + ", ".join(f"{n} {sum(r['set'] == n for r in rows)}" for n in names)
          + "; with no game context: " + ", ".join(f"{n} {sum(r['set'] == n and r['free'] for r in rows)}" for n in names))
    def mean(keep) -> str:  # type: ignore[no-untyped-def]
        got = [b for b, r in zip(base, rows, strict=True) if keep(r)]
        return f"{sum(got) / len(got):.3f} ({len(got)})" if got else "- (0)"

    print("engine: " + ", ".join(f"{n} {mean(lambda r, n=n: r['set'] == n)}" for n in names)
          + "; game none: " + ", ".join(f"{n} {mean(lambda r, n=n: r['set'] == n and r['game'] == 'none')}" for n in names)
          + "; of those with no game context: " + ", ".join(
              f"{n} {mean(lambda r, n=n: r['set'] == n and r['game'] == 'none' and r['free'])}" for n in names))
    for links in (False, True):
        member = members_of(kb, links)
        for variant, grid in GRIDS.items():
            if links and variant == "spread":
                continue  # no members: the same as without links
            label = f"{variant}{'+links' if links else ''}"
            got = {fig: [rr(rerank(r, variant, fig, member), r["expect"]) for r in rows] for fig in grid}
            out = [0.0] * len(rows)
            chosen, halves = [], []
            for held in (0, 1):
                train = [i for i, r in enumerate(rows) if r["pos"] % 2 != held]
                test = [i for i, r in enumerate(rows) if r["pos"] % 2 == held]
                best = max(grid, key=lambda f: (sum(got[f][i] for i in train) - sum(base[i] for i in train), -grid.index(f)))
                chosen.append(best)
                for i in test:
                    out[i] = got[best][i]
                half = []
                for n in names:
                    ids = [i for i in test if rows[i]["set"] == n]
                    b, v = sum(base[i] for i in ids) / len(ids), sum(out[i] for i in ids) / len(ids)
                    half.append(f"{b:.3f}->{v:.3f}")
                halves.append(" / ".join(half))
            cols = []
            for n in names:
                ids = [i for i, r in enumerate(rows) if r["set"] == n]
                up = sum(out[i] > base[i] + 1e-12 for i in ids)
                down = sum(out[i] < base[i] - 1e-12 for i in ids)
                none = [i for i in ids if rows[i]["game"] == "none"]
                gn = f" none {sum(out[i] for i in none) / len(none):.3f}" if none else ""
                cols.append(f"{n} {sum(out[i] for i in ids) / len(ids):.3f} +{up}/-{down}{gn}")
            print(f"{label:<10} chosen {chosen[0]} / {chosen[1]}: " + "; ".join(cols))
            print(f"{'':<10} fold 0 scored half: {halves[0]}   fold 1: {halves[1]}")
            strict = all(  # better, or unchanged on a half with no cross-game item (where it cannot apply)
                (sum(out[i] for i in ids) > sum(base[i] for i in ids) + 1e-12)
                or (all(out[i] == base[i] for i in ids) and not any(rows[i]["game"] == "none" for i in ids))
                for held in (0, 1) for n in names
                for ids in [[i for i, r in enumerate(rows) if r["pos"] % 2 == held and r["set"] == n]])
            print(f"{'':<10} passes: {'yes' if strict else 'no'}")
            if args.show:
                for i, r in enumerate(rows):
                    if out[i] != base[i]:
                        print(f"{'':<12}{r['set']} #{r['pos']} game {r['game']}: 1/rank {base[i]:.3f} -> {out[i]:.3f}")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
