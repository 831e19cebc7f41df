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
              kb.run_examples(["malifaux.shooting-into-combat"])[0], *kb.diagnostics[:1],
              kb.run_examples(["malifaux.shooting-into-combat"])[0].outcome, kb.search("disparo"),
              kb.search("disparo").hits[0], kb.registry, kb.registry.get("dice.odds"),
              *kb.passages("malifaux.shooting-into-combat")[:2]]
    for value in values:
        data = value.to_dict()
        assert isinstance(data, dict) and data
        assert json.loads(json.dumps(data)) == data, type(value).__name__
    assert entry.to_dict()["id"] == "malifaux.shooting-into-combat"
    assert entry.to_dict()["data"]["title"]["en"] == "Shooting into combat"
    odds = kb.registry.get("dice.odds")
    assert odds is not None and odds.to_dict()["labels"]["dice"]["en"]
    assert kb.registry.to_dict()["resolvers"][0] == kb.registry.get(kb.registry.names()[0]).to_dict()


def _kb_classes(hint: object) -> set[type]:
    """The classes of ``kb`` a return annotation names (inside list[...], Mapping[..., ...], X | None)."""
    import typing

    args = typing.get_args(hint)
    if args:
        return set().union(*map(_kb_classes, args))
    return {hint} if isinstance(hint, type) and hint.__module__.startswith("kb.") else set()


def test_every_type_the_api_returns_has_to_dict() -> None:
    """Walks the public methods and properties of KnowledgeBase: each kb class they return has ``to_dict()``
    (the search index handle of ``search_reader()`` and the KnowledgeBase itself are not data)."""
    import dataclasses
    import inspect
    import typing

    from kb.search.index import Reader
    from kb.search.query import Passage, Result
    from kb.search.ranking import Params

    def returned(cls: type) -> set[type]:
        """The kb classes that ``cls``'s public methods and properties return and its dataclass fields hold."""
        hints: list[object] = []
        for name, member in inspect.getmembers(cls):
            func = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
            if not name.startswith("_") and inspect.isfunction(func):
                hints.append(typing.get_type_hints(func, localns={"Reader": Reader, "Result": Result, "Params": Params,
                                                                  "Passage": Passage}).get("return"))
        if dataclasses.is_dataclass(cls):  # less the side tables to_dict() leaves out (Entry.marks)
            skip = getattr(cls, "_plain_skip", ())
            hints += [h for f, h in typing.get_type_hints(cls).items() if f not in skip]
        return set().union(set(), *map(_kb_classes, hints))

    found, todo = {KnowledgeBase}, [KnowledgeBase]
    while todo:  # KnowledgeBase's results, what those hold (Result.hits: Hit...) and return (Registry.get: Resolver)
        held = returned(todo.pop()) - found
        found |= held
        todo += held
    found -= {KnowledgeBase, Reader}
    assert {"Hit", "Outcome", "Text", "Example", "Location", "Resolver"} <= {c.__name__ for c in found}, found
    missing = sorted(c.__name__ for c in found if not callable(getattr(c, "to_dict", None)))
    assert not missing, missing


def test_an_entry_as_plain_text_is_what_kb_show_prints(kb: KnowledgeBase) -> None:
    import io

    from kb.cli.main import run

    text = kb.text("malifaux.shooting-into-combat", "en")
    assert text.startswith("Shooting into combat\n====")
    assert "{@" not in text and "<" not in text and "](" not in text  # no markup, no Markdown links
    out = io.StringIO()
    assert run(["show", "malifaux.shooting-into-combat", "--lang", "en"], out, io.StringIO()) == 0
    assert out.getvalue() == text
    assert kb.text("malifaux.shooting-into-combat") != text  # Spanish by default
    with pytest.raises(UnknownEntry):
        kb.text("malifaux.nope")
    with pytest.raises(UnknownValue, match="language"):
        kb.text("malifaux.shooting-into-combat", "fr")


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
                 "Diagnostic", "KnowledgeBase", "InvalidArgument", "RuleError"):
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


def test_json_keeps_its_accents_on_a_console_that_cannot_show_them() -> None:
    """Plain text may fall back to '?' on an ASCII console; ``--json`` is data, and writes ``\\u00f3`` instead
    (audit-cli 2)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "kb", "show", "malifaux.engagement", "--json"], env=env,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    data = json.loads(done.stdout.decode("ascii"))
    summary = KnowledgeBase.load().entry("malifaux.engagement").data["summary"]["es"]
    assert not summary.isascii() and data["summary"]["es"] == summary


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


@pytest.mark.parametrize("call, says", [
    (lambda kb: kb.search("LoS", limit=0), "limit must be a whole number of 1 or more, not 0"),
    (lambda kb: kb.search("LoS", limit=True), "limit must be a whole number of 1 or more, not True"),
    (lambda kb: kb.search(None), "query must be text, not None"),
    (lambda kb: kb.text(None), "entry_id must be an entry id (text), not None"),
    (lambda kb: kb.entry(None), "entry_id must be an entry id (text), not None"),
    (lambda kb: kb.odds("2d6", at_least="5"), "at_least must be a whole number or None, not '5'"),
    (lambda kb: kb.odds(None), "dice must be a dice expression (text) such as 2d6, not None"),
])
def test_a_wrong_argument_is_a_kb_error_that_names_it(kb: KnowledgeBase, call, says: str) -> None:
    """Audit-cli defect 9: never a raw builtin error from inside (``'NoneType' object is not subscriptable``), but the
    KbError family's InvalidArgument, still a ValueError and a TypeError for callers that caught those."""
    with pytest.raises(kbpkg.InvalidArgument) as err:
        call(kb)
    assert str(err.value) == says
    assert isinstance(err.value, kbpkg.KbError) and isinstance(err.value, ValueError) and isinstance(err.value, TypeError)


def test_odds_raises_the_exported_rule_error_its_docstring_names() -> None:
    with pytest.raises(kbpkg.RuleError) as err:
        KnowledgeBase.odds("2d")
    assert err.value.code == "bad-dice" and isinstance(err.value, kbpkg.KbError)
    assert "kb.RuleError" in (KnowledgeBase.odds.__doc__ or "")
