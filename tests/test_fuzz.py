"""Property-based fuzzing: random documents and queries raise nothing but the project's own diagnostics.

A bounded run is part of the unit tests. The longer run:
``KB_FUZZ=long .venv/bin/python -m pytest tests/test_fuzz.py`` (50x the examples).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb import KnowledgeBase
from kb.core._yaml import parse_bytes
from kb.core.diagnostics import CODES
from kb.search.index import Expander
from kb.core.schema import validate

SCALE = 50 if os.environ.get("KB_FUZZ") == "long" else 1
FUZZ = settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

yaml_chars = st.text(alphabet=st.sampled_from(list("abc:-[]{}&*!|>'\"#\t\n ,?%@`\\0123é\x00\x07\ufeff")), max_size=200)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(
        ["id", "kind", "game", "title", "es", "en", "text", "examples", "given", "expect", "mechanic", "term", "forms",
         "see_also", "source", "doc", "section", "sequence", "steps", "x"]), inner, max_size=6)), max_leaves=30)


@FUZZ
@given(st.one_of(yaml_chars.map(lambda s: s.encode("utf-8", "surrogatepass")), st.binary(max_size=300)))
def test_yaml_loader_never_raises(raw: bytes) -> None:
    data, marks, found = parse_bytes(raw, Path("f.yaml"))
    assert all(d.code in CODES for d in found)
    if data is None and not found:  # a null document: the loader says it is not a mapping
        from kb.core.loader import _not_mapping

        assert [d.code for d in _not_mapping(data, marks, found)] == ["not-a-mapping"]


@FUZZ
@given(documents)
def test_schema_validation_never_raises(doc) -> None:
    import yaml

    text = yaml.safe_dump({"doc": doc}, allow_unicode=True)
    data, marks, found = parse_bytes(text.encode(), Path("f.yaml"))
    doc = data.get("doc") if isinstance(data, dict) else data
    problems = validate(doc, marks)
    for d in problems:
        assert d.code in CODES
    from jsonschema import Draft202012Validator

    from kb.core.schema import is_valid, schema_text

    full = not any(True for _ in Draft202012Validator(__import__("json").loads(schema_text())).iter_errors(doc))
    assert is_valid(doc) == full  # the fast path agrees with the full validator


@FUZZ
@given(st.dictionaries(st.sampled_from(["id", "kind", "game", "title", "text", "examples", "term", "see_also",
                                        "source", "sequence", "i18n", "tags"]), documents, max_size=8))
def test_whole_pipeline_never_raises(tmp_path_factory, doc) -> None:
    import yaml

    root = tmp_path_factory.mktemp("fuzz") / "content"
    (root / "g").mkdir(parents=True)
    (root / "g" / "game.yaml").write_text("id: g\nname: {es: G}\nsource_language: es\nsources:\n  - doc: s\n")
    (root / "g" / "a.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True))
    kb = KnowledgeBase.load(root, use_cache=False)
    assert all(d.code in CODES for d in kb.diagnostics)
    kb.run_examples()


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    from conftest import SAMPLE
    import textwrap

    root = tmp_path_factory.mktemp("idx") / "content"
    for rel, body in SAMPLE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(body), encoding="utf-8")
    for game in ("g", "h"):
        (root / game / "game.yaml").write_text(f"id: {game}\nname: {{es: G}}\nsource_language: es\nsources:\n  - doc: seed.txt\n")
    kb = KnowledgeBase.load(root)
    from kb.search.index import SearchIndex

    index = SearchIndex(root, tmp_path_factory.mktemp("cache"))
    index.ensure(lambda: kb)
    return index


@FUZZ
@given(st.text(max_size=120))
def test_search_queries_never_raise(sample_index, query: str) -> None:
    result = sample_index.search(query, limit=5)
    assert len(result.hits) <= 5


@FUZZ
@given(st.text(alphabet=st.sampled_from(list('abcLoS "()*?~^:+-ORANDNOT\\/[]{}')), max_size=60))
def test_query_syntax_characters_never_raise(sample_index, query: str) -> None:
    sample_index.search(query)
    Expander({"groups": [["LoS", "line of sight"]], "abbreviations": ["LoS"]}).alternatives(query)


def _entries() -> list:
    import yaml

    from conftest import CONTENT

    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(CONTENT.rglob("*.yaml"))
            if p.name != "game.yaml"][::7]


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


@FUZZ
@given(st.data())
def test_fast_and_full_validators_agree_on_mutated_real_entries(data) -> None:
    import copy
    import json

    from jsonschema import Draft202012Validator

    from kb.core.schema import is_valid, schema_text

    doc = copy.deepcopy(data.draw(st.sampled_from(ENTRIES)))
    path = data.draw(st.sampled_from(list(_paths(doc))[1:]))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(scalars | st.lists(scalars, max_size=2) | st.dictionaries(st.text(max_size=5), scalars, max_size=2))
    full = not any(True for _ in Draft202012Validator(json.loads(schema_text())).iter_errors(doc))
    assert is_valid(doc) == full


ENTRIES = _entries()
