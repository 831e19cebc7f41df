"""Nothing vanishes, nothing hangs: broken files, filters that match nothing and misbehaving resolvers
make ``kb test``, pytest and ``kb build --strict`` fail with located messages."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conftest import MKDOCS, cli

SHOOT = """\
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
  - id: odds
    mechanic: check.roll-over
    given: {target: 5}
    probability: 30/36
"""
OTHER = SHOOT.replace("g.shoot", "g.other").replace("Disparo", "Otro")
BROKEN = SHOOT.replace("g.shoot", "g.broken").replace("kind: rule", "kind: [rule")
MECHANICS = """\
import sys
from kb.mechanics import Trace, outcome, resolver


@resolver("g.exits", outputs={"x": "x"})
def exits(a: int):
    sys.exit(0)


@resolver("g.garbage", outputs={"x": "x"})
def garbage(a: int):
    return {"x": a}


@resolver("g.forever", outputs={"x": "x"})
def forever(a: int):
    while True:
        try:
            a += 1
        except Exception:  # cannot swallow the time limit
            pass
"""


def _misbehaving(name: str) -> str:
    return textwrap.dedent(f"""\
        id: g.{name}
        kind: rule
        game: g
        title: {{es: {name}, en: {name}}}
        source: {{doc: seed.txt, section: s}}
        examples:
          - id: run
            mechanic: g.{name}
            given: {{a: 1}}
            expect: {{x: 1}}
        """)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short time limit per example, so the test of the limit does not wait five seconds: passed as the
    adapters pass it (``$KB_EXAMPLE_SECONDS``, read by ``KnowledgeBase.load``), not patched into a module."""
    monkeypatch.setenv("KB_EXAMPLE_SECONDS", "0.5")


def test_a_file_that_does_not_load_fails_kb_test(tree) -> None:
    tree({"g/rules/shoot.yaml": SHOOT, "g/rules/broken.yaml": BROKEN})
    code, out, _ = cli("test")
    assert code == 1
    assert out.splitlines() == [
        "content/g/rules/broken.yaml:3:5: error[yaml-syntax]: invalid YAML: while parsing a flow sequence did not "
        "find expected ',' or ']'",
        "2 passed, 0 failed, 1 problem(s) in files that do not load",
    ]
    code, out, _ = cli("test", "g")  # the game's run too
    assert code == 1 and "broken.yaml:3:5" in out


def test_an_example_filter_that_matches_nothing_is_an_error(tree) -> None:
    tree({"g/rules/shoot.yaml": SHOOT})
    code, out, err = cli("test", "g.shoot#hitt")
    assert code == 2
    assert err == ("kb test: content/g/rules/shoot.yaml:6: 'g.shoot' has no example 'hitt'; did you mean 'hit'? "
                   "(its examples: hit, odds)\n")


def test_a_file_and_an_example_id_run_that_example_only(tree) -> None:
    """``kb test FILE#EXAMPLE``, as ``kb show ID#ANCHOR``: the example of the entry the file holds."""
    tree({"g/rules/shoot.yaml": SHOOT, "g/rules/other.yaml": OTHER})
    code, out, _ = cli("test", "content/g/rules/shoot.yaml#odds", "--json")
    assert code == 0
    assert [(r["entry"], r["example"]) for r in json.loads(out)] == [("g.shoot", "odds")]
    code, out, _ = cli("test", "content/g/rules/shoot.yaml#hit", "content/g/rules/other.yaml")
    assert (code, out) == (0, "3 passed, 0 failed\n")


@pytest.mark.parametrize("selector, said", [
    ("content/g/rules/shoot.yaml#hitt", "kb test: content/g/rules/shoot.yaml:6: 'g.shoot' has no example 'hitt'; "
                                        "did you mean 'hit'? (its examples: hit, odds)\n"),
    ("content/g/rules/none.yaml#hit", "kb test: content/g/rules/none.yaml: no such file or folder\n"),
    ("content/g/rules#hit", "kb test: content/g/rules: a folder; name an example by its entry's file (FILE#EXAMPLE) "
                            "or id (ID#EXAMPLE)\n"),
    ("content/g/rules/broken.yaml#hit", "content/g/rules/broken.yaml:3:5: error[yaml-syntax]: invalid YAML: while "
                                        "parsing a flow sequence did not find expected ',' or ']'\n"
                                        "kb test: content/g/rules/broken.yaml: no entry is loaded from this file\n"),
])
def test_a_file_and_an_example_id_that_name_nothing_are_a_located_error(tree, selector: str, said: str) -> None:
    tree({"g/rules/shoot.yaml": SHOOT, "g/rules/broken.yaml": BROKEN})
    code, out, err = cli("test", selector)
    assert (code, out, err) == (2, "", said)


def test_an_example_filter_selects_only_its_entry(tree) -> None:
    tree({"g/rules/shoot.yaml": SHOOT, "g/rules/other.yaml": OTHER})
    code, out, _ = cli("test", "g.shoot#hit", "g.other")
    assert code == 0
    assert out.splitlines() == ["3 passed, 0 failed"]  # g.shoot#hit, and both of g.other


@pytest.mark.parametrize("name, line", [
    ("exits", "content/g/rules/exits.yaml:7:5: error[example-error]: example 'run' raised SystemExit(0), at "
               "content/g/mechanics.py:7"),
    ("garbage", "content/g/rules/garbage.yaml:7:5: error[example-error]: example 'run' raised bad outcome: a dict"),
    ("forever", "content/g/rules/forever.yaml:7:5: error[example-timeout]: example 'run' ran longer than 0.5 s, "
                "the limit per worked example"),
])
def test_a_misbehaving_resolver_fails_kb_test(name: str, line: str, tree, quick) -> None:
    tree({"g/mechanics.py": MECHANICS, f"g/rules/{name}.yaml": _misbehaving(name)})
    code, out, err = cli("test")
    assert code == 1, out + err
    assert out.splitlines() == [line, "0 passed, 1 failed"]


def test_a_mechanics_module_that_exits_fails_check_and_test(tree) -> None:
    tree({"g/mechanics.py": "import sys\nsys.exit(0)\n", "g/rules/shoot.yaml": SHOOT})
    line = ("content/g/mechanics.py:2:1: error[mechanics-import]: cannot load the game's mechanics module: "
            "SystemExit(0): the module exits")
    code, out, _ = cli("check", "--no-warnings")
    assert (code, out.splitlines()) == (1, [line])
    code, out, _ = cli("test")
    assert (code, out.splitlines()) == (1, [line, "2 passed, 0 failed, 1 problem(s) in files that do not load"])


def test_pytest_fails_on_a_file_that_does_not_load(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", **{"content/g/game": "id: g\nname: {es: G, en: G}\nsource_language: es\nsources:\n"
                                                    "  - doc: seed.txt\n"})
    pytester.makefile(".yaml", **{"content/g/rules/shoot": SHOOT, "content/g/rules/broken": BROKEN})
    pytester.makefile(".YAML", **{"content/g/rules/upper": OTHER})
    result = pytester.runpytest("content")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([
        "this file does not load, so its worked examples cannot run:",
        "  content/g/rules/broken.yaml:3:5: error?yaml-syntax?: *",
    ])
    result.stdout.fnmatch_lines(["  content/g/rules/upper.YAML:1:1: error?file-extension?: *"])


def test_pytest_fails_on_a_misbehaving_resolver_and_a_broken_mechanics_module(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", **{"content/g/game": "id: g\nname: {es: G, en: G}\nsource_language: es\nsources:\n"
                                                    "  - doc: seed.txt\n", "content/g/rules/exits": _misbehaving("exits")})
    pytester.makefile(".py", **{"content/g/mechanics": MECHANICS})
    result = pytester.runpytest("content")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["content/g/rules/exits.yaml:7: example 'run' of 'g.exits' error", "  SystemExit(0), at content/g/mechanics.py:7"])
    pytester.makefile(".py", **{"content/g/mechanics": "raise SystemExit(3)\n"})
    result = pytester.runpytest("content")
    result.assert_outcomes(failed=2)  # the game (its mechanics) and the example whose resolver is gone
    result.stdout.fnmatch_lines(["  content/g/mechanics.py:1:1: error?mechanics-import?: *SystemExit(3)*"])


@pytest.mark.slow
def test_kb_build_strict_fails_on_each(tree, tmp_path: Path, quick) -> None:
    root = tree({"g/mechanics.py": MECHANICS, "g/rules/shoot.yaml": SHOOT, "g/rules/broken.yaml": BROKEN,
                 **{f"g/rules/{n}.yaml": _misbehaving(n) for n in ("exits", "garbage", "forever")}})
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--strict", "--site-dir", str(tmp_path / "site"))
    assert code == 1, out + err
    assert "Traceback" not in out + err
    for located in ("content/g/rules/broken.yaml:3:5: error[yaml-syntax]",
                    "content/g/rules/exits.yaml:7:5: error[example-error]",
                    "content/g/rules/garbage.yaml:7:5: error[example-error]",
                    "content/g/rules/forever.yaml:7:5: error[example-timeout]"):
        assert located in err, located


def test_ci_requires_the_browser_tests_whatever_the_install_did(tmp_path: Path) -> None:
    """``.ci/run`` with CI=true sets KB_REQUIRE_BROWSER=1 even when no Chromium could be installed."""
    import os
    import subprocess

    from conftest import REPO

    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    head = script.split('echo "== setting up .venv"')[0]  # the part that decides, without installing anything
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("bash", "dirname", "id"):
        os.symlink(subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip(), fake / tool)
    probe = head.replace('cd "$(dirname "$0")/.."', "") + '\necho "KB_REQUIRE_BROWSER=${KB_REQUIRE_BROWSER:-}"\n'
    env = {"PATH": str(fake), "CI": "true"}  # no chromium, no apt-get, no sudo on this PATH
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, env=env)
    assert out.stdout.strip().splitlines()[-1] == "KB_REQUIRE_BROWSER=1", out.stdout + out.stderr
    env["CI"] = "false"
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, env=env)
    assert out.stdout.strip().splitlines()[-1] == "KB_REQUIRE_BROWSER=", out.stdout + out.stderr


LOOPS = "from kb.mechanics import resolver\n\nx = 0\nwhile True:\n    x += 1\n"


def test_a_mechanics_module_that_loops_when_imported_fails_every_command_in_time(tree, quick) -> None:
    """The import has the examples' time limit (``$KB_EXAMPLE_SECONDS``): located at the line it was stopped at, and
    nothing of the half-imported module stays (docs/reliability.md)."""
    import sys

    tree({"g/mechanics.py": LOOPS, "g/rules/shoot.yaml": SHOOT})
    line = ("content/g/mechanics.py:{n}:1: error[mechanics-import]: cannot load the game's mechanics module: the module "
            "did not finish loading within 0.5 s, the time a mechanics module may take (it was stopped at this line: "
            "an endless loop?)")
    code, out, _ = cli("check", "--no-warnings")
    assert code == 1
    assert out.splitlines()[0] in (line.format(n=4), line.format(n=5))
    assert "kb_game_g" not in sys.modules
    code, out, _ = cli("test")
    assert code == 1
    assert out.splitlines()[-1] == "2 passed, 0 failed, 1 problem(s) in files that do not load"
    code, _, err = cli("search", "disparo")
    assert code == 1 and "error[mechanics-import]" in err


HITS = SHOOT.replace("g.shoot", "g.hits").replace("mechanic: check.roll-under", "mechanic: g.hit")


def test_kb_resolvers_and_kb_show_say_a_mechanics_module_that_does_not_load(tree) -> None:
    tree({"g/mechanics.py": "x = (1\n    + 2))\n", "g/rules/hits.yaml": HITS})
    line = "content/g/mechanics.py:2:9: error[mechanics-import]: cannot load the game's mechanics module: SyntaxError: unmatched ')'"
    code, out, err = cli("resolvers", "g")
    assert (code, out) == (1, "")
    assert err.splitlines() == [line, "kb resolvers: 1 problem(s) in games' mechanics.py (above): their resolvers "
                                      "are missing from this list"]
    code, out, err = cli("resolvers")
    assert code == 1 and "check.roll-under(" in out and err.splitlines()[0] == line  # what did load is still listed
    assert cli("resolvers", "dice.") == (0, cli("resolvers", "dice.")[1], "")  # another game's prefix: not concerned
    code, out, err = cli("show", "g.hits")
    assert code == 0 and out
    assert err.splitlines() == ["kb show: the results of example 'hit' are not computed: unknown resolver 'g.hit' "
                                "(content/g/mechanics.py did not load: error[mechanics-import] at its line 2; its "
                                "resolvers are missing until it does)", line]
