"""The engine's NumPy scoring against Whoosh's own BM25F, for every query of the relevance sets (issue 33).

:func:`kb.search.query.score` reads postings and field lengths as arrays (through
:mod:`kb.search.whoosh_access`, partly below Whoosh's public API) and computes BM25 itself. Here the same
query plan is scored with Whoosh's ``scoring.BM25F`` scorer on Whoosh's public matchers, posting by
posting, and combined as :mod:`kb.search.ranking` documents it (``coordination × Σ weight × bm25``);
both must give the same documents with the same scores. An upgrade that changed what the array reads
return fails here, not silently in the ranking.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from whoosh import scoring

from kb.api import KnowledgeBase
from kb.search import query as q, ranking, whoosh_access
from relevance import BLIND, PLAYERS, fresh, queries

P = ranking.DEFAULTS

CONTENT = Path(__file__).resolve().parents[1] / "content"


def every_query() -> list[dict]:
    """Every query of every relevance set: the first set, the players' two parts, the fresh set's two."""
    return [*queries(), *queries(PLAYERS["tune"]), *queries(PLAYERS["heldout"]), *(item for path in BLIND.values() for part in ("tune", "held") for item in fresh(part, path))]


@pytest.fixture(scope="module")
def reader():
    return KnowledgeBase.load(CONTENT).search_reader()


def whoosh_bm25f(s, slots: list[q.Slot]) -> dict[int, float]:
    """Each matching document's score by Whoosh's BM25F scorer, clause by clause, with coordination."""
    n = s.doc_count_all()
    total = np.zeros(n)
    matched = np.zeros(n, dtype=np.int64)
    counted = 0
    for slot in slots:
        hit: set[int] = set()
        found = False
        for (fieldname, term), weight in slot.clauses.items():
            if not s.doc_frequency(fieldname, term):
                continue
            found = True
            field = fieldname.rsplit("_", 1)[0]
            scorer = scoring.BM25F(B=P.bm25_b[field], K1=P.bm25_k1).scorer(s, fieldname, term)
            m = s.postings(fieldname, term)
            while m.is_active():
                total[m.id()] += weight * scorer.score(m)
                hit.add(m.id())
                m.next()
        if slot.counts and found:
            matched[sorted(hit)] += 1
            counted += 1
    return {int(d): float(total[d] * ranking.coordination(int(matched[d]), counted, P.coordination))
            for d in np.flatnonzero(total)}


def test_the_array_scores_are_whooshs_bm25f_for_every_relevance_query(reader) -> None:
    s = reader.searcher
    n = s.doc_count_all()
    ones, alive = np.ones(n), np.array([not s.reader().is_deleted(d) for d in range(n)])
    items = every_query()
    assert len(items) > 200  # the sets are there: a missing file would make this test compare nothing
    compared = 0
    for item in items:
        words = ranking.query_words(item["q"])
        if not words:
            continue
        vocab = q._stats(s).words(reader.expander, P)
        fixed = q.corrections(s, words, item.get("lang"), P, vocab)
        slots = q.plan(words, fixed, reader.expander.alternatives(" ".join(words)), P, vocab)
        docs, values = q.score(s, slots, ones, alive, P)
        ours = dict(zip(docs.tolist(), values.tolist(), strict=True))
        theirs = {d: v for d, v in whoosh_bm25f(s, slots).items() if alive[d]}
        assert ours.keys() == theirs.keys(), item["q"]
        for d, v in theirs.items():
            assert ours[d] == pytest.approx(v, rel=1e-9, abs=1e-12), (item["q"], d)
        compared += bool(theirs)
    assert compared > 0.9 * len(items)


def test_the_fast_reads_give_what_the_public_api_gives(reader) -> None:
    """The block and column reads equal Whoosh's public per-posting and per-document answers."""
    r = reader.searcher.reader()
    fields = [f"{name}_{lang}" for name in ranking.FIELDS for lang in q.LANGS]
    for fieldname in fields:
        assert whoosh_access.field_lengths(r, fieldname) == whoosh_access.field_lengths(r, fieldname, fast=False)
        for term, _info in list(r.iter_field(fieldname))[:40]:
            text = term.decode("utf-8") if isinstance(term, bytes) else term

            def flat(fast: bool, fieldname: str = fieldname, text: str = text) -> list[tuple[int, float]]:
                # deleted documents are left in by the fast read (its callers drop them): compare the live ones
                return [(offset + i, float(tf)) for offset, ids, tfs in whoosh_access.blocks(r, fieldname, text, fast)
                        for i, tf in zip(ids, tfs, strict=True) if not r.is_deleted(offset + i)]
            assert flat(True) == flat(False), (fieldname, text)
