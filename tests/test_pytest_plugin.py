"""The pytest plugin: one item per example, located failures with inputs, expected vs actual and trace."""

from __future__ import annotations

import textwrap

import pytest

GAME = "id: g\nname: {es: G, en: G}\nsource_language: es\nsources:\n  - doc: seed.txt\n"
ENTRY = """\
id: g.shoot
kind: rule
game: g
title: {es: Disparo, en: Shot}
source: {doc: seed.txt, section: s}
examples:
  - id: hit
    mechanic: check.roll-under
    given: {target: 14, roll: 8}
    expect: {success: true}
  - id: miss
    mechanic: check.roll-under
    given: {target: 13, roll: 14, modifiers: {strength: -2}}
    expect: {success: {MISS}, target: 11}
  - id: odds
    mechanic: check.roll-over
    given: {target: 5}
    probability: 30/36
  - id: bad-roll
    mechanic: check.roll-under
    given: {target: 10, roll: 25}
    expect_error: {code: impossible-roll, kind: impossible}
"""


def make(pytester: pytest.Pytester, miss: str = "false") -> None:
    pytester.makefile(".yaml", **{"content/g/game": GAME})
    pytester.makefile(".yaml", **{"content/g/rules/shoot": ENTRY.replace("{MISS}", miss)})


def test_collects_one_item_per_example(pytester: pytest.Pytester) -> None:
    make(pytester)
    result = pytester.runpytest("--collect-only", "-q", "content")
    result.stdout.fnmatch_lines([
        "content/g/rules/shoot.yaml::g.shoot#hit",
        "content/g/rules/shoot.yaml::g.shoot#miss",
        "content/g/rules/shoot.yaml::g.shoot#odds",
        "content/g/rules/shoot.yaml::g.shoot#bad-roll",
        "4 tests collected*",
    ])


def test_passing_examples_pass(pytester: pytest.Pytester) -> None:
    make(pytester)
    pytester.runpytest("content").assert_outcomes(passed=4)


def test_a_wrong_expectation_fails_with_a_located_diff_and_trace(pytester: pytest.Pytester) -> None:
    make(pytester, miss="true")
    result = pytester.runpytest("content")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines([
        "content/g/rules/shoot.yaml:11: example 'miss' of 'g.shoot' failed",
        "  resolver: check.roll-under",
        "  given:",
        "    target = 13",
        "    roll = 14",
        "    modifiers = {'strength': -2}",
        "  expected vs actual:",
        "    success: expected True, got False",
        "  trace:",
        "    1. Modifier strength: -2 → 11",
        "    2. Needs 11 or less on 1d20 (11/20)",
        "    3. Rolls 14: failure",
    ])


def test_a_resolver_that_crashes_is_an_error_item_not_a_crash(pytester: pytest.Pytester) -> None:
    make(pytester)
    pytester.makefile(".py", **{"content/g/mechanics": textwrap.dedent("""\
        from kb.mechanics import resolver

        @resolver("g.broken", outputs={"x": "x"})
        def broken(a: int):
            return 1 / a
        """)})
    pytester.makefile(".yaml", **{"content/g/rules/broken": textwrap.dedent("""\
        id: g.broken
        kind: rule
        game: g
        title: {es: Roto, en: Broken}
        source: {doc: seed.txt, section: s}
        examples:
          - id: zero
            mechanic: g.broken
            given: {a: 0}
            expect: {x: 1}
        """)})
    result = pytester.runpytest("content")
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(["content/g/rules/broken.yaml:7: example 'zero' of 'g.broken' error",
                                 "  ZeroDivisionError: division by zero, at content/g/mechanics.py:5"])


def test_the_tree_of_a_folder_is_found_once_for_all_its_files(pytester: pytest.Pytester,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding the tree globs every folder above a file: asked per file, collecting a kind of 1,800 entries
    listed its folder 1,800 times (issue 28, docs/benchmarks.md "fourth round")."""
    import kb.pytest_plugin as plugin

    make(pytester)
    for n in range(5):
        pytester.makefile(".yaml", **{f"content/g/rules/shoot{n}": ENTRY.replace("{MISS}", "false")
                                      .replace("id: g.shoot", f"id: g.shoot{n}")})
    asked: list[str] = []
    find_root = plugin.find_root

    def counting(path):  # type: ignore[no-untyped-def]
        asked.append(str(path))
        return find_root(path)

    monkeypatch.setattr(plugin, "find_root", counting)
    result = pytester.runpytest("--collect-only", "-q", "content")
    result.stdout.fnmatch_lines(["24 tests collected*"])
    folders = {str(pytester.path / "content" / "g"), str(pytester.path / "content" / "g" / "rules")}
    assert len(asked) == len(folders), asked
