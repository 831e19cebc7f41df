"""Search relevance on the bundled content: regression floors on the three relevance sets.

- relevance.yaml (the project's first set): MRR >= 0.93 and recall@3 >= 0.95. A player reads the
  first three lines of an answer; 95 % of questions must have the rule there.
- The players' set (tests/queries/), tuning and held-back parts: floors set just below the figures
  measured when the ranking was last changed (docs/search.md), so that a change that makes search
  worse fails. A failure lists the misses of the tuning part only: the held-back part is never
  looked at query by query (nothing may be tuned on it); its figure is the one that counts.
"""

from __future__ import annotations

import re

import pytest

from conftest import CONTENT
from kb import KnowledgeBase
from kb.core.terms import fold
from relevance import BLIND, FRESH, PLAYERS, fresh, judgments, measure, queries

MRR_FLOOR, RECALL_FLOOR = 0.93, 0.95
PLAYERS_FLOORS = {"tune": (0.89, 0.95), "heldout": (0.91, 0.95)}
"""(MRR, recall@3) floors of each part of the players' set."""
FRESH_FLOORS = {"tune": (0.88, 0.94), "held": (0.88, 0.93)}
"""(MRR, recall@3) floors of the fresh set's parts (issue 31), just below the figures in docs/search.md. Set again
when the set grew by 240 blind questions (f424b64; the ranking unchanged): tune 0.895 / 0.957, held 0.893 / 0.948."""


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


@pytest.mark.parametrize("part", sorted(PLAYERS_FLOORS))
def test_players_set_floors(kb: KnowledgeBase, part: str) -> None:
    items = queries(PLAYERS[part])
    assert len(items) >= 100
    result = measure(lambda q, lang: [h.id for h in kb.search(q, lang=lang, limit=10).hits], items, with_lang=True)
    mrr, recall = PLAYERS_FLOORS[part]
    styles = ", ".join(f"{k} {v['mrr']:.3f}" for k, v in result["by_style"].items())
    report = "" if part == "heldout" else "; misses:\n" + "\n".join(
        f"  {q!r}: want {want}, got {got}" for q, want, got in result["misses"])
    assert result["mrr"] >= mrr and result["recall@3"] >= recall, (
        f"{part}: MRR {result['mrr']:.3f}, recall@3 {result['recall@3']:.3f}; by style: {styles}{report}")


def test_the_fresh_set_keeps_its_fixed_split() -> None:
    """Issue 31's set: held back = every third item, as written in its README; ids exist (checked below)."""
    import yaml

    items = yaml.safe_load(FRESH.read_text(encoding="utf-8"))
    assert len(items) >= 300 and [i["n"] for i in items] == list(range(1, len(items) + 1))
    assert all(i["split"] == ("held" if i["n"] % 3 == 0 else "tune") for i in items)
    assert {i["lang"] for i in items} == {"es", "en"} and all(i["answer"] for i in items)


KNOWN_REPEATS = {("fresh", 18), ("fresh", 30), ("fresh", 75), ("fresh", 180), ("fresh", 201), ("fresh", 207),
                 ("fresh", 237), ("fresh", 369), ("fresh", 372), ("fresh", 378), ("fresh", 426), ("blind2", 129),
                 ("blind2", 141), ("players", "¿cuántas veces puede curarse el depredador?"),
                 ("players", "zone of influence"), ("players", "¿puedo disparar a un combate?"),
                 ("players", "elevation difference engagement range"), ("players", "suerte herradura")}
"""Held-back items whose words (folded) are those of a query some set tunes on (docs/search.md, issue 31's thirteenth
session): most are short names two writers wrote alike ("LdV", "hull breach"); one, "hechizo subito", is the same
set's tuning item n 283. Found after their figures had been read, so kept and reported (the fresh held-back figure
without them: 219 items); a new held-back item may not join them."""


def _key(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text.lower())))


def test_no_new_held_back_item_repeats_a_query_the_ranking_is_tuned_on() -> None:
    tuned = {_key(i["q"]) for path in BLIND.values() for i in fresh("tune", path)}
    tuned |= {_key(i["q"]) for i in (*queries(PLAYERS["tune"]), *queries())}
    held = [(name, i["n"], i["q"]) for name, path in BLIND.items() for i in fresh("held", path)]
    held += [("players", i["q"], i["q"]) for i in queries(PLAYERS["heldout"])]
    repeats = {(name, n) for name, n, q in held if _key(q) in tuned}
    assert repeats - KNOWN_REPEATS == set(), "held-back items repeating a tuning query's words"
    assert KNOWN_REPEATS - repeats == set(), "a known repeat is gone: take it off KNOWN_REPEATS"


@pytest.mark.parametrize("part", sorted(FRESH_FLOORS))
def test_fresh_set_floors(kb: KnowledgeBase, part: str) -> None:
    items = fresh(part)
    assert [(i["q"], x) for i in items for x in i["expect"] if x not in kb.entries] == []
    result = measure(lambda q, lang: [h.id for h in kb.search(q, lang=lang, limit=10).hits], items, with_lang=True)
    mrr, recall = FRESH_FLOORS[part]
    report = "" if part == "held" else "; misses:\n" + "\n".join(
        f"  {q!r}: want {want}, got {got}" for q, want, got in result["misses"])
    assert result["mrr"] >= mrr and result["recall@3"] >= recall, (
        f"fresh {part}: MRR {result['mrr']:.3f}, recall@3 {result['recall@3']:.3f}{report}")


def test_pooled_judgments_name_held_back_items_and_entries(kb: KnowledgeBase) -> None:
    """The pooled judgments (tests/queries/pooled) judge held-back items only, of entries that exist, with a known
    verdict, one row per pair; a control is one of the item's expected entries, a pooled pair never is."""
    rows = judgments()
    assert rows
    held = {(name, i["n"]): i for name, path in BLIND.items() for i in fresh("held", path)}
    pairs = [(r["set"], r["n"], r["entry"]) for r in rows]
    assert len(pairs) == len(set(pairs)), "a pair judged twice"
    wrong = [r for r in rows if (r["set"], r["n"]) not in held or r["entry"] not in kb.entries
             or r["verdict"] not in ("yes", "partly", "no") or not r["why"]
             or r["control"] != (r["entry"] in held[(r["set"], r["n"])]["expect"])]
    assert wrong == []
