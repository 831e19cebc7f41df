"""What a first search downloads (phone audit 3, D8): the bundled content's search data as the site ships it
(:func:`kb.site.search_box.split`). The head holds what ranking reads; what only a result shows (title, URL, summary,
passages) comes in docs parts for the hits, and the spelling candidates in parts by first letter for a word the list
does not know. Joined with the parts a query reads, the engine gives what it gives on the whole data: the same hits
(ids, scores, order, URLs with their passage, summaries) and the same "did you mean" (run under Node)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from relevance import PLAYERS, queries

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "kb" / "site" / "assets" / "kb-search-engine.js"
HEAD_BOUND = 300_000
"""Bytes of the bundled content's Spanish head at most (it was 617 KB with every entry's texts and passages in it)."""

RUN = r"""
var api = require(process.argv[1]), input = JSON.parse(require("fs").readFileSync(0, "utf8"));
var whole = new api.Engine(input.whole), split = new api.Engine(input.head), read = {}, out = [];
input.queries.forEach(function (q) {
  var got, asked = [];
  for (var i = 0; i < 20; i++) {  /* as kb-search.js: the parts the engine found missing, then again */
    split.missing.clear();
    got = split.search(q, {});
    if (!split.missing.size) break;
    split.missing.forEach(function (n) { asked.push(n); read[n] = true; split.add(n, input.parts[n]); });
  }
  var want = whole.search(q, {});
  var strip = function (r) { return [r.didYouMean, r.total, r.hits.map(function (h) {
    return [h.id, h.score, h.url, h.title, h.summary, h.passage]; })]; };
  out.push({ q: q, same: JSON.stringify(strip(got)) === JSON.stringify(strip(want)), asked: asked,
             hits: got.hits.map(function (h) { return h.doc; }) });
});
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def shipped() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The bundled content's Spanish search data, whole and as the site splits it."""
    from kb import KnowledgeBase
    from kb.core.cache import shared_cache_dir
    from kb.search.export import export
    from kb.site.search_box import split

    kb = KnowledgeBase.load(REPO / "content")
    data = export(kb.search_reader(), "es", lambda i: i, {}, cache=shared_cache_dir("search-words", kb.cache_base))
    return data, split(json.loads(json.dumps(data)))


def test_the_head_holds_what_ranking_reads_and_no_entrys_texts(shipped) -> None:
    from kb.search.export import to_script

    _, parts = shipped
    head = parts[""]
    assert not {"title", "url", "summary", "summaryTerms", "passages"} & {k for d in head["docs"] for k in d}
    assert len(to_script("es", head).encode()) < HEAD_BOUND


def test_a_query_reads_the_hits_texts_and_one_letters_spelling_and_finds_what_the_whole_data_finds(shipped) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    data, parts = shipped
    typos = ["disparoo", "atacar enemgo", "hexagonso", "regenrate", "zzzqx"]
    asked = [i["q"] for i in queries(PLAYERS["tune"]) if i["lang"] == "es"][:40] + typos
    stdin = json.dumps({"whole": data, "head": parts[""], "parts": {k: v for k, v in parts.items() if k}, "queries": asked})
    out = json.loads(subprocess.run([node, "-e", RUN, str(ENGINE)], input=stdin, capture_output=True, text=True,
                                    check=True).stdout)
    assert [r["q"] for r in out if not r["same"]] == []
    starts = parts[""]["parts"]["docs"]
    spelling = sum(len(json.dumps(v)) for k, v in parts.items() if k.startswith("s"))
    for r in out:
        docs = {f"d{max(n for n, s in enumerate(starts) if s <= data['index'][h])}" for h in r["hits"]}
        assert {n for n in r["asked"] if n.startswith("d")} <= docs, r  # the hits' docs parts (not read before), no other
        letters = [n for n in r["asked"] if n.startswith("s")]
        assert sum(len(json.dumps(parts[n])) for n in letters) < spelling / 4, r  # a few letters' candidates
    assert any(n.startswith("d") for n in out[0]["asked"])  # the first query read its hits' texts
    assert any(n.startswith("s") for r in out for n in r["asked"])  # the typos did read spelling
