"""The Python API as something to lean on: plain data, short reprs, errors that say what exists."""

from __future__ import annotations

import json

import pytest

import kb as kbpkg
from kb import KnowledgeBase, UnknownEntry, UnknownExample, UnknownValue


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load()


def test_every_public_type_converts_to_json(kb: KnowledgeBase) -> None:
    entry = kb.entry("malifaux.shooting-into-combat")
    term = kb.entry("malifaux.engaged")
    values = [entry, entry.title, entry.examples[0], entry.examples[0].location, term.term,
              kb.games["malifaux"], kb.backlinks("malifaux.engaged")[0], kb.concept("common.line-of-sight"),
              kb.run_examples(["malifaux.shooting-into-combat"])[0], *kb.diagnostics[:1]]
    for value in values:
        data = value.to_dict()
        assert isinstance(data, dict) and data
        assert json.loads(json.dumps(data)) == data, type(value).__name__
    assert entry.to_dict()["id"] == "malifaux.shooting-into-combat"
    assert entry.to_dict()["data"]["title"]["en"] == "Shooting into combat"


def test_reprs_are_short(kb: KnowledgeBase) -> None:
    entry = kb.entry("malifaux.shooting-into-combat")
    assert repr(entry) == "Entry('malifaux.shooting-into-combat', kind='rule', game='malifaux')"
    for value in (entry, entry.examples[0], kb.games["malifaux"], kb.concept("common.line-of-sight"),
                  kb.run_examples(["malifaux.shooting-into-combat"])[0]):
        assert len(repr(value)) < 120, repr(value)[:200]


def test_unknown_entries_and_examples_say_what_exists(kb: KnowledgeBase) -> None:
    with pytest.raises(UnknownEntry, match="did you mean 'malifaux.shooting-into-combat'"):
        kb.entry("malifaux.shooting-into-comabt")
    with pytest.raises(KeyError):  # an UnknownEntry is a KeyError too
        kb.run_example("malifaux.nope", "x")
    with pytest.raises(UnknownExample, match="has no example 'nope'.*its examples:"):
        kb.run_example("malifaux.shooting-into-combat", "nope")
    assert kb.get("malifaux.nope") is None  # get() stays the gentle lookup


def test_wrong_kinds_and_games_are_errors_not_empty_results(kb: KnowledgeBase) -> None:
    with pytest.raises(UnknownValue, match="unknown kind 'actions'; did you mean 'action'"):
        kb.filter(kind="actions")
    with pytest.raises(UnknownValue, match="did you mean 'malifaux'"):
        kb.filter(game="malifux")
    with pytest.raises(UnknownValue, match="unknown concept"):
        kb.concept("malifaux.engaged")
    assert kb.filter(game="malifaux", kind="rule")


def test_errors_and_results_are_exported() -> None:
    for name in ("UnknownEntry", "UnknownExample", "UnknownValue", "KbError", "NoContent", "ExampleResult",
                 "Diagnostic", "KnowledgeBase"):
        assert name in kbpkg.__all__ and getattr(kbpkg, name)


def test_cli_version_json_and_completion(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from kb.cli.main import run

    out, err = io.StringIO(), io.StringIO()
    assert run(["--version"], out, err) == 0
    assert capsys.readouterr().out.startswith("kb ")  # argparse prints the version itself
    for argv in (["check", "--json"], ["check", "--format", "json"], ["resolvers", "dice.", "--json"]):
        out = io.StringIO()
        assert run(argv, out, io.StringIO()) == 0, argv
        assert isinstance(json.loads(out.getvalue()), list)
    out = io.StringIO()
    assert run(["completion", "bash"], out, io.StringIO()) == 0
    assert "complete" in out.getvalue() and "search" in out.getvalue()


def test_output_survives_a_console_that_cannot_show_accents(tmp_path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "kb", "show", "malifaux.engagement"], env=env,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert b"Traceback" not in done.stderr and b"malifaux.engagement" in done.stdout


def test_i18n_ack_and_import_report_as_json(tmp_path) -> None:
    import io

    from kb.cli.main import run

    out = io.StringIO()
    assert run(["i18n", "ack", "malifaux.engaged", "--json"], out, io.StringIO()) == 0
    assert json.loads(out.getvalue()) == {"updated": []}           # already current: nothing written
    po = tmp_path / "m.po"
    assert run(["i18n", "export", "-o", str(po), "--game", "malifaux", "--no-history"], io.StringIO(), io.StringIO()) == 0
    out = io.StringIO()
    assert run(["i18n", "import", str(po), "--dry-run", "--json"], out, io.StringIO()) == 0
    report = json.loads(out.getvalue())
    assert report["dry_run"] is True and report["refused"] == [] and report["exit"] == 0
