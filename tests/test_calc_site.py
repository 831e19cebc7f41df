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
from kb.site.calc import calc_site
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


def test_each_space_has_one_answer_per_combination(built) -> None:
    _, site = built
    for path, text in site.files.items():
        assert "<" not in text and site.sizes[path] == len(text.encode())
        data = json.loads(text.split("]=", 1)[1].rstrip(";\n"))
        for space in data["spaces"].values():
            assert len(space["index"]) == math.prod(f["n"] for f in space["fields"])
            assert max(space["index"]) < len(data["outcomes"])


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
