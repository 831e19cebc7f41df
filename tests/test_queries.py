"""The players' query set (tests/queries/) is well formed and answers only with entries that exist.

A renamed or deleted entry id, a misspelt style or language, a query written twice or too many
queries that are just an entry title make this test fail with the located message of
tests/queries/stats.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import CONTENT

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("query_stats", HERE / "queries" / "stats.py")
stats = sys.modules.setdefault("query_stats", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(stats)


@pytest.fixture(scope="module")
def checked():
    return stats.validate(stats.FILES, CONTENT)


def test_the_bundled_query_set_is_valid(checked):
    queries, errors = checked
    assert errors == []
    assert len(queries) >= 330


def test_the_held_back_part_is_every_third_query(checked):
    queries, _ = checked
    held = sum(1 for q in queries if q.part == "heldout")
    assert held == len(queries) // 3  # i % 3 == 2 over the written order


def test_the_report_gives_every_count(checked):
    queries, _ = checked
    text = stats.report(queries, CONTENT)
    for word in (*stats.STYLES, *stats.LANGS, "hunt-begins", "malifaux", "Exactly an entry title"):
        assert word in text


def _write(tmp_path: Path, body: str) -> dict[str, Path]:
    tune = tmp_path / "tune.yaml"
    tune.write_text(body, encoding="utf-8")
    held = tmp_path / "held.yaml"
    held.write_text("queries: []\n", encoding="utf-8")
    return {"tune": tune, "heldout": held}


@pytest.fixture
def errors_of(tmp_path, monkeypatch):
    monkeypatch.setattr(stats, "MIN_PER_STYLE", 0)  # small files: only the item checks
    monkeypatch.setattr(stats, "MIN_PER_GAME", 0)
    return lambda body: stats.validate(_write(tmp_path, body), CONTENT)[1]


GOOD = ('  - {q: "my mech sinks in the bog", lang: en, game: battletech-solaris, style: paraphrase, '
        "expect: [battletech-solaris.swamp-stuck]}\n")


def test_the_style_and_game_floors_are_checked(tmp_path):
    errors = stats.validate(_write(tmp_path, "queries:\n" + GOOD), CONTENT)[1]
    assert any("error[too-few]" in e and "'typo'" in e for e in errors), errors
    assert any("error[too-few]" in e and "'malifaux'" in e for e in errors), errors


def test_a_good_item_passes(errors_of):
    assert errors_of("queries:\n" + GOOD) == []


@pytest.mark.parametrize("bad, code", [
    (GOOD.replace("swamp-stuck", "swamp-stuck-renamed"), "unknown-id"),
    (GOOD.replace("battletech-solaris.swamp-stuck", "malifaux.engagement"), "other-game"),
    (GOOD.replace("style: paraphrase", "style: slang"), "value"),
    (GOOD.replace("lang: en", "lang: fr"), "value"),
    (GOOD.replace("game: battletech-solaris", "game: battletech"), "value"),
    (GOOD.replace("expect: [battletech-solaris.swamp-stuck]", "expect: []"), "value"),
    (GOOD.replace("lang: en, ", ""), "field"),
    (GOOD.replace("lang: en", "lang: en, tags: [x]"), "field"),
    (GOOD + GOOD.replace("my mech sinks", "My  mech SINKS"), "duplicate"),
])
def test_each_fault_is_reported_where_it_is(errors_of, tmp_path, bad, code):
    errors = errors_of("queries:\n" + bad)
    assert errors, bad
    assert any(f"error[{code}]" in e for e in errors), errors
    assert all(e.startswith(str(tmp_path / "tune.yaml") + ":") for e in errors)
    assert all(":2:" in e or ":3:" in e for e in errors), errors  # the line of the item


def test_too_many_exact_titles_fail(errors_of):
    body = "queries:\n" + GOOD + ('  - {q: "Pantano", lang: es, game: battletech-solaris, '
                                  "style: keyword, expect: [battletech-solaris.swamp]}\n")
    errors = errors_of(body)  # one query in two is exactly a title: 50 % > 15 %
    assert any("error[exact-titles]" in e for e in errors), errors


def test_an_unreadable_file_is_a_located_error(errors_of, tmp_path):
    errors = errors_of("queries:\n  - {q: [unclosed\n")
    assert len(errors) == 1 and "error[unreadable]" in errors[0], errors
    assert errors[0].startswith(str(tmp_path / "tune.yaml") + ":")
