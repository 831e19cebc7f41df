"""Search relevance on the bundled content: the set in relevance.yaml must be answered well.

Floors: MRR >= 0.9 and recall@3 >= 0.95. A player reads the first three lines of an answer; 95 %
of questions must have the rule there, and the right rule should usually be the first line (an
MRR of 0.9 allows roughly one query in ten to find it second or third).
"""

from __future__ import annotations

import pytest

from conftest import CONTENT
from kb import KnowledgeBase
from relevance import measure, queries

MRR_FLOOR, RECALL_FLOOR = 0.9, 0.95


@pytest.fixture(scope="module")
def kb(tmp_path_factory) -> KnowledgeBase:
    import os

    os.environ["KB_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        kb = KnowledgeBase.load(CONTENT)
        kb.search("x")  # build the index once
        yield kb
    finally:
        del os.environ["KB_CACHE"]


def test_the_set_is_large_and_varied() -> None:
    items = queries()
    assert len(items) >= 80
    assert len({i["q"] for i in items}) == len(items)


def test_every_expected_entry_exists(kb: KnowledgeBase) -> None:
    assert [(i["q"], x) for i in queries() for x in i["expect"] if x not in kb.entries] == []


def test_relevance_floors(kb: KnowledgeBase) -> None:
    result = measure(lambda q: [h.id for h in kb.search(q, limit=10).hits])
    report = "\n".join(f"  {q!r}: want {want}, got {got}" for q, want, got in result["misses"])
    assert result["mrr"] >= MRR_FLOOR and result["recall@3"] >= RECALL_FLOOR, (
        f"MRR {result['mrr']:.3f}, recall@3 {result['recall@3']:.3f}; misses:\n{report}")
