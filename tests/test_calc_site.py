"""The calculators' forms and data (issue 30), without a browser: one form per entry and resolver in both
languages, first filled with the entry's first example and showing the resolver's answer for it; the data
scripts hold one index entry per combination; content reaches a form only escaped."""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path

import pytest

from kb.api import KnowledgeBase
from kb.mechanics import RuleError
from kb.mechanics.space import plain, takes_choices
from kb.site import calc_runtime
from kb.site.calc import IN_PAGE, calc_site
from kb.site.structure import entry_path

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


@pytest.fixture(scope="module", params=["es", "en"])
def built(request, kb):
    return request.param, calc_site(kb, request.param)


def _answer(kb, entry, ex):
    res = kb.registry.get(ex.mechanic)
    from kb.mechanics import Context
    extra = {"context": Context(entry.data, lambda i: e.data if (e := kb.get(i)) else None)} if res.wants_context else {}
    try:
        return {k: plain(v) for k, v in res.func(**dict(ex.given), **extra).values.items()}
    except RuleError as err:
        return {"error": err.code, "kind": err.kind}


def test_every_entry_gets_a_form_per_resolver_first_filled_with_its_example(kb, built) -> None:
    lang, site = built
    wanted = {}
    for e in kb.entries.values():
        for ex in e.examples:
            if takes_choices(kb.registry.get(ex.mechanic)):
                wanted.setdefault((entry_path(e), ex.mechanic), (e, ex))
    found = {}
    for page, forms in site.forms.items():
        for form in forms:
            name = re.search(r'data-kb-resolver="([^"]+)"', form).group(1)
            found[(page, name)] = form
    assert set(found) == set(wanted)
    assert len({m for _, m in wanted}) >= 59
    for key, form in found.items():
        entry, ex = wanted[key]
        shown = json.loads(html.unescape(re.search(r'data-kb-outcome="([^"]*)"', form).group(1)))
        assert shown == json.loads(json.dumps(_answer(kb, entry, ex))), key
        names = {n.split(".")[0].split("[")[0] for n in re.findall(r' name="([^"]+)"', form)}
        assert names <= set(kb.registry.get(ex.mechanic).inputs), key


def _data(text: str) -> dict:
    return json.loads(text.split("]=", 1)[1].rstrip(";\n"))


def test_each_space_has_one_answer_per_combination_in_its_shards(built) -> None:
    _, site = built
    assert all(site.sizes[path] == len(text.encode()) for path, text in site.files.items())
    assert all("<" not in text for path, text in site.files.items() if not path.startswith("kb-py/pyodide"))  # data only
    heads = {re.search(r'data-kb-file="([^"]+)"', f).group(1) for fs in site.forms.values() for f in fs}
    assert heads and heads <= set(site.files)  # (a head's key may be all digits, like a shard's number)
    shards = {p for p in site.files if re.search(r"-\d+\.js$", p) and p.rsplit("-", 1)[0] + ".js" in heads}
    assert set(site.files) == heads | shards | {p for p in site.files if p.startswith("kb-py/")}
    for head in heads:
        data = _data(site.files[head])
        total, n = math.prod(f["n"] for f in data["fields"]), 0
        if "py" in data:  # answered by the page's Python: no shards, the runtime beside the pages
            assert total > IN_PAGE and not any(p.startswith(head.removesuffix(".js") + "-") for p in site.files), head
            assert {"kb-py/kb-py-wasm.js", "kb-py/kb-py-bundle.js", "kb-py/pyodide.js"} <= set(site.files)
            continue
        assert total <= 3 * 8192 or calc_runtime.available() is False, head
        assert data["shard"] % (data["fields"][-1]["n"] if data["fields"] else 1) == 0  # whole runs of the odds field
        while (path := head.removesuffix(".js") + f"-{n}.js") in site.files:
            shard = _data(site.files[path])
            assert len(shard["index"]) == min(data["shard"], total - n * data["shard"]), path
            assert max(shard["index"]) < len(shard["outcomes"])
            n += 1
        assert n * data["shard"] >= total > (n - 1) * data["shard"], head


@pytest.fixture
def tree(tree, monkeypatch):
    """A content tree built without the page's Python: its spaces are enumerated (and cached) by the build."""
    monkeypatch.setattr(calc_runtime, "available", lambda: False)
    return tree


GAME_NAMED = {"g/a.yaml": """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: check.roll-over
    given: {target: 7, modifiers: {g.cover: 1}}
    expect: {target: 8}
""", "g/cover.yaml": """\
id: g.cover
kind: term
game: g
title: {es: Cobertura, en: Cover}
summary: {es: Algo que tapa., en: Something in the way.}
source: {doc: seed.txt, section: s}
"""}


def test_a_second_build_reads_the_cache_and_gives_the_same_data(tree) -> None:
    root = tree(GAME_NAMED)
    first = calc_site(KnowledgeBase.load(root), "es")
    second = calc_site(KnowledgeBase.load(root), "es")  # a new load: nothing remembered but the cache files
    assert (first.computed, first.cached) == (1, 0) and (second.computed, second.cached) == (0, 1)
    assert second.files == first.files and second.forms == first.forms


def test_one_enumeration_words_every_language(tree) -> None:
    root = tree(GAME_NAMED)
    kb = KnowledgeBase.load(root)
    es, en = calc_site(kb, "es"), calc_site(kb, "en")
    assert (es.computed, en.computed, en.cached) == (1, 0, 0)  # the English words were made with the Spanish
    assert any("Cover" in text for text in en.files.values()) and len(en.kept) == 1
    assert calc_site(KnowledgeBase.load(root), "en").cached == 1  # and cached, not tidied away by its own build


def test_a_renamed_id_is_worded_again_not_read_from_the_cache(tree) -> None:
    root = tree(GAME_NAMED)
    calc_site(KnowledgeBase.load(root), "en")
    cover = root / "g" / "cover.yaml"
    cover.write_text(cover.read_text().replace("en: Cover}", "en: Shelter}"))
    again = calc_site(KnowledgeBase.load(root), "en")
    assert again.computed == 1
    assert any("Shelter" in text for text in again.files.values()) and not any("Cover" in t for t in again.files.values())


def test_a_planted_or_edited_cache_file_is_never_served(tree, caplog) -> None:
    root = tree(GAME_NAMED)
    calc_site(KnowledgeBase.load(root), "es")
    [record] = (root.parent / ".kb-cache" / "calc").rglob("*-es.json")
    raw = record.read_bytes()
    record.write_bytes(raw.replace(b'"Cobertura"', b'"<img src=x onerror=alert(1)>"'))  # its signature no longer fits
    again = calc_site(KnowledgeBase.load(root), "es")
    assert again.computed == 1 and not any("onerror" in text for text in again.files.values())
    assert "ignored a damaged cache file" in caplog.text


def test_content_reaches_a_form_only_escaped(tree) -> None:
    root = tree({"g/a.yaml": """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: check.roll-over
    given: {target: 7, modifiers: {"<img src=x onerror=alert(1)>": 1}}
    expect: {target: 8}
"""})
    site = calc_site(KnowledgeBase.load(root), "es")
    form = site.forms["g/ok.md"][0]
    assert "<img" not in form and "&lt;img src=x onerror=alert(1)&gt;" in form
