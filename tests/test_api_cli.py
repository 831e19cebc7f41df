"""The query API and the kb command on a small, valid content tree."""

from __future__ import annotations

from pathlib import Path

import json

import pytest

from conftest import CONTENT, SAMPLE, cli

FILES = SAMPLE
from kb import KnowledgeBase, UnknownValue

@pytest.fixture
def kb(tree) -> KnowledgeBase:
    root = tree(FILES, games=("g", "h"))
    return KnowledgeBase.load(root)


def test_loads_without_errors(kb: KnowledgeBase) -> None:
    assert [d.format() for d in kb.diagnostics if d.severity == "error"] == []
    assert kb.ok
    assert sorted(kb.games) == ["g", "h"]
    assert kb.get("g.shoot").title.en == "Shooting"
    assert kb.get("nope") is None
    assert [e.id for e in kb.filter(game="g", kind="rule")] == ["g.melee", "g.shoot"]


def test_links_and_backlinks(kb: KnowledgeBase) -> None:
    assert [(lk.target, lk.type, lk.field) for lk in kb.links_from("g.shoot")] == [
        ("g.melee", "rule", "text"), ("g.melee", "see_also", "see_also")]
    assert sorted(lk.source for lk in kb.backlinks("g.melee")) == ["g.shoot", "g.shoot"]
    assert [lk.source for lk in kb.backlinks("common.engaged")] == ["g.engaged", "h.locked"]


def test_term_lookup_in_any_language_case_and_accents(kb: KnowledgeBase) -> None:
    assert [t.id for t in kb.term("linea de vision")] == ["g.line-of-sight"]
    assert [t.id for t in kb.term("line of sight", lang="en")] == ["g.line-of-sight"]
    assert [t.id for t in kb.term("LdV")] == ["g.line-of-sight", "h.locked"]
    assert [t.id for t in kb.term("ldv", lang="es")] == ["g.line-of-sight", "h.locked"]
    assert [t.id for t in kb.term("TRABADAS")] == []
    assert [t.id for t in kb.term("Trabados")] == ["g.engaged"]


def test_concept_gathers_terms_per_game(kb: KnowledgeBase) -> None:
    view = kb.concept("common.engaged")
    assert view is not None
    assert {g: [t.id for t in ts] for g, ts in view.terms.items()} == {"g": ["g.engaged"], "h": ["h.locked"]}
    with pytest.raises(UnknownValue):
        kb.concept("g.shoot")


def test_detection_is_exact_and_whole_words(kb: KnowledgeBase) -> None:
    found = kb.graph.terms.detect("Destrabado no, trabada sí; la LdV y ldv.", "es")
    assert [(m.term, m.form) for m in found] == [("g.engaged", "trabada"), ("g.line-of-sight", "LdV"), ("h.locked", "LdV")]


def test_warnings_for_lonely_concepts_and_unused_terms(kb: KnowledgeBase) -> None:
    warnings = [d.format() for d in kb.diagnostics if d.code in ("lonely-concept", "unused-term")]
    assert warnings == [
        "content/common/concepts/line-of-sight.yaml:1:1: warning[lonely-concept]: concept 'common.line-of-sight' is "
        "named or linked by only 1 game(s); a concept connects games",
    ]


def test_a_rule_linking_a_concept_joins_its_game_to_it(tree) -> None:
    files = {**SAMPLE, "h/rules/melee.yaml": SAMPLE["h/rules/melee.yaml"].replace(
        "source: {doc: seed.txt, section: Melee}", "see_also: [common.line-of-sight]\n        source: {doc: seed.txt, section: Melee}")}
    kb = KnowledgeBase.load(tree(files, games=("g", "h")))
    assert [d.code for d in kb.diagnostics if d.code == "lonely-concept"] == []
    view = kb.concept("common.line-of-sight")
    assert {g: [e.id for e in es] for g, es in view.related.items()} == {"h": ["h.melee"]}
    assert list(view.terms) == ["g"]


def test_examples_run_with_exact_odds(kb: KnowledgeBase) -> None:
    [result] = kb.run_examples(["g.shoot"])
    assert result.passed
    assert result.outcome is not None and str(result.outcome.probability) == "7/10"


def test_run_examples_refuses_a_selector_that_names_nothing(kb: KnowledgeBase) -> None:
    """A typo is an error, never an empty list that ``all(r.passed ...)`` reads as success; a bare string is one
    selector, not its letters (audit-cli 1)."""
    from kb import KbError, UnknownEntry, UnknownExample

    assert [r.example.id for r in kb.run_examples("g.shoot")] == ["hit"]
    assert [r.example.id for r in kb.run_examples(["g"])] == ["hit"]
    assert [r.example.id for r in kb.run_examples(["g.shoot#hit"])] == ["hit"]
    with pytest.raises(UnknownValue, match="unknown game 'gg'; did you mean 'g'"):
        kb.run_examples(["gg"])
    with pytest.raises(UnknownEntry, match="no entry 'g.shot'; did you mean 'g.shoot'"):
        kb.run_examples(["g.shoot", "g.shot"])
    with pytest.raises(UnknownExample) as raised:
        kb.run_examples(["g.shoot#hti"])
    with pytest.raises(UnknownExample) as direct:
        kb.run_example("g.shoot", "hti")
    assert str(raised.value) == str(direct.value) and "did you mean 'hit'" in str(raised.value)
    with pytest.raises(KbError):
        kb.run_examples(["g#hit"])  # ID#EXAMPLE names an entry's example, not a game's


def test_check_exit_codes_and_json(tree) -> None:
    tree(FILES, games=("g", "h"))
    code, out, err = cli("check")
    assert code == 0 and "0 error(s)" in err
    code, out, _ = cli("check", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data and set(data[0]) == {"code", "severity", "path", "line", "column", "message", "args"}
    from kb.core.diagnostics import render
    assert all(render(d["code"], d["args"]) == d["message"] for d in data)  # the message is made from the data
    code, _, _ = cli("check", "--strict")
    assert code == 1  # warnings fail in strict mode
    code, _, err = cli("check", "no/such/place")
    assert code == 2 and "no such file" in err
    code, _, err = cli("check", "--format", "xml")
    assert code == 2 and "invalid choice" in err


def test_check_a_single_file_reports_only_that_file(tree) -> None:
    root = tree({**FILES, "g/rules/bad.yaml": "id: g.bad\nkind: rule\n"}, games=("g", "h"))
    code, out, err = cli("check", str(root / "g/rules/shoot.yaml"), "--no-warnings")
    assert code == 0 and out == ""
    assert err == "1 entries checked: 0 error(s), 0 warning(s)\n"  # the file's, not the tree's (audit-cli 11)
    assert cli("check", str(root / "h"))[2].startswith("2 entries checked:")
    code, out, _ = cli("check", str(root / "g/rules/bad.yaml"), "--no-warnings")
    assert code == 1
    assert out.splitlines() == [
        "content/g/rules/bad.yaml:1:1: error[missing-field]: missing required field 'title' in the entry",
        "content/g/rules/bad.yaml:1:1: error[missing-field]: missing required field 'game' in the entry",
        "content/g/rules/bad.yaml:1:1: error[missing-field]: missing required field 'source' in the entry",
    ]


def test_a_misspelt_given_is_one_located_error_that_names_it(tree) -> None:
    """``givne:`` for ``given:`` in a worked example: one line, at the typo, suggesting ``given`` (not also the missing
    ``given`` and each input the resolver then lacks)."""
    typo = FILES["g/rules/shoot.yaml"].replace("given: {target: 14, roll: 8}", "givne: {target: 14, roll: 8}")
    assert typo != FILES["g/rules/shoot.yaml"]
    root = tree({**FILES, "g/rules/shoot.yaml": typo}, games=("g", "h"))
    code, out, _ = cli("check", str(root / "g/rules/shoot.yaml"), "--no-warnings")
    assert code == 1 and out.splitlines() == [
        "content/g/rules/shoot.yaml:16:5: error[unknown-key]: unknown key 'givne' in 'examples[0]'; did you mean 'given'?"]
    far = FILES["g/rules/shoot.yaml"].replace("given: {target: 14, roll: 8}", "inputs: {target: 14, roll: 8}")
    tree({**FILES, "g/rules/shoot.yaml": far}, games=("g", "h"))  # no near miss: the missing field is said too
    code, out, _ = cli("check", str(root / "g/rules/shoot.yaml"), "--no-warnings")
    assert [line.split(": ", 1)[1] for line in out.splitlines()] == [
        "error[missing-field]: missing required field 'given' in 'examples[0]'",
        "error[unknown-key]: unknown key 'inputs' in 'examples[0]'"], out


def test_show_prints_the_entry_with_backlinks_and_odds(tree) -> None:
    tree(FILES, games=("g", "h"))
    code, out, _ = cli("show", "g.melee", "--lang", "en")
    assert code == 0
    assert out.startswith("Melee\n=====\n")
    assert "Referenced by\n-------------\n  - Shooting  [g.shoot]" in out  # the id beside the title
    code, out, _ = cli("show", "g.shoot")
    assert "Probabilidad de superar el chequeo: 7/10 ≈ 70\u00a0%." in out and "ver combate" in out
    for markup in ("{#", "!!!", "**", "](", "&#", "`"):
        assert markup not in out, markup
    assert "Un marine con CD 14 saca un 8." in out  # the example's note, in the reader's language
    code, out, _ = cli("show", "g.shoot", "--json")
    data = json.loads(out)
    assert data["id"] == "g.shoot" and data["example_results"][0]["status"] == "passed"
    code, _, err = cli("show", "g.shot")
    assert code == 2 and "did you mean 'g.shoot'?" in err


def test_test_command_reports_failures_with_location(tree) -> None:
    broken = FILES["g/rules/shoot.yaml"].replace("expect: {success: true, margin: 6}", "expect: {success: false, margin: 6}")
    tree({**FILES, "g/rules/shoot.yaml": broken}, games=("g", "h"))
    code, out, _ = cli("test")
    assert code == 1
    assert out.splitlines() == [
        "content/g/rules/shoot.yaml:13:5: error[example-failed]: example 'hit' failed: success: expected False, got True",
        "    given: target = 14, roll = 8",  # the inputs and the trace under the failure (docs/packs.md)
        "    trace:",
        "      1. Needs 14 or less on 1d20 (14/20)",
        "      2. Rolls 8: success",
        "0 passed, 1 failed",
    ]
    code, out, _ = cli("test", "--json")
    [failed] = json.loads(out)
    assert failed["status"] == "failed" and failed["given"] == {"target": 14, "roll": 8}  # the same inputs and trace
    assert [step["en"] for step in failed["trace"]] == ["Needs 14 or less on 1d20 (14/20)", "Rolls 8: success"]
    assert failed["trace"][1]["es"] and failed["trace"][1]["es"] != failed["trace"][1]["en"]
    code, _, err = cli("test", "g.nothing")
    assert code == 2 and "nothing matches" in err


def test_test_command_takes_a_file_or_folder_of_the_content(tree, tmp_path: Path) -> None:
    """``kb test content/g/rules/shoot.yaml`` (or a folder) runs the examples of the entries there, ids still work
    beside it; a missing path, or one outside the content folder, is a usage error (exit 2) that names it."""
    other = FILES["g/rules/shoot.yaml"].replace("id: g.shoot", "id: h.shoot").replace("game: g", "game: h").replace(
        "{@rule g.melee|combate}", "combate").replace("{@rule g.melee|melee}", "melee").replace("see_also: [g.melee]", "")
    tree({**FILES, "h/rules/shoot.yaml": other, "h/rules/broken.yaml": "id: [\n"}, games=("g", "h"))

    def ran(*argv: str) -> tuple[int, list[str]]:
        code, out, err = cli("test", "--json", *argv)
        assert code in (0, 1), err
        return code, [f"{r.get('entry', r.get('path'))}#{r.get('example', r['status'])}" for r in json.loads(out)]

    assert ran("content/g/rules/shoot.yaml") == (0, ["g.shoot#hit"])
    assert ran("content/g") == (0, ["g.shoot#hit"])
    assert ran("content/g/rules/melee.yaml") == (0, [])  # an entry without examples: none run, not all of them
    assert ran("content/g/rules/", "g.melee") == (0, ["g.shoot#hit"])
    assert ran("content/g/rules/melee.yaml", "h.shoot")[1] == [  # an id still reports its game's broken files
        "h.shoot#hit", "content/h/rules/broken.yaml#not-loaded"]
    code, results = ran("content/h/rules")  # the file there that does not load fails the run
    assert code == 1 and results == ["h.shoot#hit", "content/h/rules/broken.yaml#not-loaded"], results
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("id: x\n", encoding="utf-8")
    for given, said in ((str(outside), "not inside the content folder content"),
                        ("content/g/rules/nope.yaml", "no such file or folder")):
        code, out, err = cli("test", given)
        assert code == 2 and out == "" and err == f"kb test: {given}: {said}" + (
            "; give a file or folder under it (or --content)\n" if "inside" in said else "\n"), err


def test_a_trace_over_several_lines_stays_under_its_step(tree) -> None:
    """A resolver's step text with line breaks (``\\n``, ``\\r``, U+2028) in it: ``kb test`` prints every line of it
    indented under the step's number, never at column 0 where it would read as a line of its own (audit-hostile2 #5);
    ``--json`` keeps the text as it is."""
    mechanics = ("from kb.mechanics import Trace, outcome, resolver\n\n\n@resolver('g.two', outputs={'x': 'x'})\n"
                 "def two(a: int):\n    t = Trace()\n"
                 "    t.add('Uno\\nkb: dos', 'One\\nkb: all examples passed\\r\\u2028', rule=None)\n"
                 "    return outcome(t, x=a)\n")
    broken = SAMPLE["g/rules/shoot.yaml"].replace("mechanic: check.roll-under", "mechanic: g.two").replace(
        "given: {target: 14, roll: 8}", "given: {a: 0}").replace("expect: {success: true, margin: 6}", "expect: {x: 1}").replace(
        "probability: 14/20", "")
    tree({**SAMPLE, "g/mechanics.py": mechanics, "g/rules/shoot.yaml": broken}, games=("g", "h"))
    code, out, _ = cli("test", "g")
    assert code == 1
    assert out.splitlines()[1:] == [
        "    given: a = 0",
        "    trace:",
        "      1. One",
        "         kb: all examples passed",
        "         ",
        "0 passed, 1 failed",
    ], out
    code, out, _ = cli("test", "g", "--json")
    [failed] = json.loads(out)
    assert [step["en"] for step in failed["trace"]] == ["One\nkb: all examples passed\r\u2028"]


def test_an_example_kb_test_does_not_run_says_why_as_kb_check_does(tree) -> None:
    """A misspelt resolver, one of a mechanics.py that does not load, a probability that is no fraction: kb test's
    line carries kb check's own message (the name, did-you-mean, the module that did not load), never a bare code
    such as 'raised unknown-resolver' (audit-pack2 defect 2)."""
    shoot = FILES["g/rules/shoot.yaml"]
    tree({**FILES, "g/rules/shoot.yaml": shoot.replace("mechanic: check.roll-under", "mechanic: check.roll-undr"),
          "h/rules/odd.yaml": shoot.replace("id: g.shoot", "id: h.odd").replace("game: g", "game: h")
          .replace("mechanic: check.roll-under", "mechanic: h.odd").replace("{@rule g.melee|combate}", "combate")
          .replace("{@rule g.melee|melee}", "melee").replace("see_also: [g.melee]", "see_also: []"),
          "h/mechanics.py": "def broken(:\n"}, games=("g", "h"))

    def said(out: str, code: str) -> dict[str, str]:
        return {line.split(":", 1)[0]: line.split(f"[{code}]: ", 1)[1] for line in out.splitlines() if f"[{code}]" in line}

    _, checked, _ = cli("check", "--no-warnings")
    checked_says = said(checked, "unknown-resolver")
    assert checked_says["content/g/rules/shoot.yaml"] == (
        "unknown resolver 'check.roll-undr'; did you mean 'check.roll-under'? (resolvers are kb's own, listed by 'kb "
        "resolvers', and those a game's mechanics.py registers; no content/g/mechanics.py)")
    assert checked_says["content/h/rules/odd.yaml"] == (
        "unknown resolver 'h.odd' (content/h/mechanics.py did not load: error[mechanics-import] at its line 1; its "
        "resolvers are missing until it does)")
    code, out, _ = cli("test")
    assert code == 1 and {path: text.split(" was not run: ", 1)[1] for path, text in said(out, "example-not-run").items()
                          } == checked_says, out
    assert "raised unknown-resolver" not in out
    code, _, err = cli("show", "g.shoot")  # kb show says it as kb check does too: unknown, not "not loaded"
    assert code == 0 and err.splitlines() == ["kb show: the results of example 'hit' are not computed: "
                                              + checked_says["content/g/rules/shoot.yaml"]]
    tree({**FILES, "g/rules/shoot.yaml": shoot.replace("mechanic: check.roll-under", "mechanic: g.roll"),
          "g/mechanics.py": "LABELS = {}\n"}, games=("g", "h"))  # a module that loads: no "or it did not load" (defect 13)
    _, checked, _ = cli("check", "--no-warnings")
    assert ("error[unknown-resolver]: unknown resolver 'g.roll' (resolvers are kb's own, listed by 'kb resolvers', and "
            "those content/g/mechanics.py registers: it does not register this name)") in checked, checked
    tree({**FILES, "g/rules/shoot.yaml": shoot.replace("expect: {success: true, margin: 6}", "probability: 0.6")},
         games=("g", "h"))
    code, out, _ = cli("test")
    assert code == 1 and "content/g/rules/shoot.yaml:13:5: error[example-not-run]: example 'hit' was not run: " \
        "'examples[0].probability': 0.6 is not allowed; " in out, out


@pytest.mark.parametrize("written", ["'0.7'", "0.7", "1", "'abc'", "'7/5'", "1/0"])
def test_kb_test_refuses_a_probability_as_kb_check_does(tree, written: str) -> None:
    """``probability: '0.7'`` (text, not a fraction): kb check refused it, yet the loader read it as 7/10 and kb test
    ran (and passed) the example. Both now take a probability one way (the schema's fraction, from 0/1 to 1/1): kb test
    does not run it, and says kb check's own message."""
    shoot = FILES["g/rules/shoot.yaml"].replace("probability: 14/20", f"probability: {written}")
    tree({**FILES, "g/rules/shoot.yaml": shoot}, games=("g", "h"))
    code, checked, _ = cli("check", "--no-warnings")
    [line] = [x for x in checked.splitlines() if "probability" in x]
    assert code == 1 and line.startswith("content/g/rules/shoot.yaml:18:"), checked
    code, out, _ = cli("test", "g.shoot")
    assert code == 1 and out.splitlines() == [
        "content/g/rules/shoot.yaml:13:5: error[example-not-run]: example 'hit' was not run: "
        + line.split("error[invalid-value]: ", 1)[1], "0 passed, 1 failed"], out


def test_help_names_no_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    """A pack author reads ``kb --help`` in their own pack: its examples are placeholders (``<game>``), never one of
    the games this repository bundles."""
    from kb.cli.main import _COMMANDS

    def help_of(*argv: str) -> str:
        assert cli(*argv, "--help")[0] == 0
        return capsys.readouterr().out  # argparse prints help on sys.stdout

    games = [d.name for d in CONTENT.iterdir() if d.is_dir() and d.name != "common"]
    helps = {argv: help_of(*argv) for argv in [(), *((name,) for name in (*_COMMANDS, "i18n")),
                                               *(("i18n", a) for a in ("status", "ack", "export", "import", "glossary"))]}
    assert games and all(text.startswith("usage: kb") for text in helps.values())
    said = [(argv, game) for argv, text in helps.items() for game in games if game.split("-")[0] in text.lower()]
    assert not said, said
    assert "<game>." in helps[("show",)] and "<game>." in helps[("resolvers",)]


def test_usage_errors_exit_2(tree) -> None:
    tree(FILES, games=("g", "h"))
    assert cli()[0] == 2
    assert cli("frobnicate")[0] == 2
    assert cli("--help")[0] == 0


def test_a_usage_error_after_a_subcommand_shows_its_usage_and_the_nearest_word(tree) -> None:
    """``kb check --stirct``: the usage of ``kb check`` (not the top level's) and "did you mean"; the same for a
    misspelt command or choice, and a word left over after ``kb show ID`` (audit-cli 3 and 5)."""
    tree(FILES, games=("g", "h"))
    code, _, err = cli("check", "--stirct")
    assert code == 2 and "did you mean '--strict'?" in err and "usage: kb check " in err
    code, _, err = cli("show", "g.shoot", "extra")
    assert code == 2 and "unrecognized arguments: extra" in err and "usage: kb show " in err
    code, _, err = cli("i18n", "status", "--jsn")
    assert code == 2 and "did you mean '--json'?" in err and "usage: kb i18n status " in err
    assert "did you mean 'check'?" in cli("chek")[2]
    assert "did you mean 'rule'?" in cli("search", "x", "--kind", "Rule")[2]


def test_an_argument_that_names_nothing_exits_2_in_every_command(tree) -> None:
    """An unknown id, game, example or anchor is a usage error (exit 2) whichever command is given it; 1 is for
    problems found in the content (audit-cli 6)."""
    tree(FILES, games=("g", "h"))
    for argv in (("show", "nope.x"), ("show", "g.shot"), ("show", "g.shoot#nope"), ("test", "nope"),
                 ("test", "g.shot"), ("test", "g.shoot#nope"), ("i18n", "ack", "nope.x"), ("i18n", "status", "--game", "nope")):
        code, out, err = cli(*argv)
        assert (code, out) == (2, ""), (argv, err)


def test_resolvers_says_when_no_name_starts_with_the_prefix(tree) -> None:
    """``kb resolvers zzz`` is not a silent empty list (audit-cli 8)."""
    tree(FILES, games=("g", "h"))
    code, out, err = cli("resolvers", "dcie", "--json")
    assert (code, out) == (2, "") and err.startswith("kb resolvers: no resolver starts with 'dcie'; did you mean 'dice.'?")
    assert "check." in err
    code, out, _ = cli("resolvers", "dice.")
    assert code == 0 and out.startswith("dice.")


def test_build_help_says_what_strict_fails_on(capsys: pytest.CaptureFixture[str]) -> None:
    """Content warnings fail ``kb build --strict`` only with ``fail_on_warnings`` (docs/site.md, "Problems"): the help
    says so, not "any warning" (audit-cli 4)."""
    assert cli("build", "--help")[0] == 0
    options = capsys.readouterr().out.split("options:")[1]
    strict = " ".join(options.split("--strict", 1)[1].split("--clean")[0].split())
    assert "fail_on_warnings" in strict and "failed worked examples" in strict and "any warning" not in strict


def test_search_help_names_the_json_object_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """``kb search --json`` prints an object, not an array; its hits carry a passage (audit-cli 10)."""
    assert cli("search", "--help")[0] == 0
    said = " ".join(capsys.readouterr().out.split("options:")[1].split("--json", 1)[1].split())
    assert said.startswith("print a JSON object: query, did_you_mean, total, by_game and hits") and "passage" in said


def test_search_takes_an_unquoted_query_of_several_words(tree) -> None:
    """``kb search line of sight`` is ``kb search "line of sight"``, as a player types it (audit-cli 3)."""
    tree(FILES, games=("g", "h"))
    code, out, err = cli("search", "line", "of", "sight", "--json")
    assert code == 0, err
    assert json.loads(out) == json.loads(cli("search", "line of sight", "--json")[1])
    assert json.loads(out)["query"] == "line of sight" and json.loads(out)["hits"]


def test_search_takes_an_option_between_the_words_of_its_query(tree) -> None:
    """``kb search line --limit 1 of sight`` is ``kb search "line of sight" --limit 1``, not a usage error."""
    tree(FILES, games=("g", "h"))
    code, out, err = cli("search", "line", "--limit", "1", "of", "--json", "sight")
    assert code == 0, err
    assert json.loads(out) == json.loads(cli("search", "line of sight", "--limit", "1", "--json")[1])
    assert json.loads(out)["query"] == "line of sight" and len(json.loads(out)["hits"]) == 1
    code, _, err = cli("search", "line", "--limti", "1", "of")
    assert code == 2 and "did you mean '--limit'?" in err
    code, _, err = cli("search", "--limit", "1")
    assert code == 2 and "required: query" in err


def test_warnings_for_missing_english_and_unused_terms(tree) -> None:
    lonely = """\
        id: g.lonely
        kind: term
        game: g
        title: {es: Solitario}
        source: {doc: seed.txt, section: s}
        term:
          forms: {es: [solitario], en: [loner]}
        """
    tree({**SAMPLE, "g/terms/lonely.yaml": lonely}, games=("g", "h"))
    _, out, _ = cli("check", "content/g/terms/lonely.yaml")
    assert out.splitlines() == [
        "content/g/terms/lonely.yaml:1:1: warning[unused-term]: term 'g.lonely' is used by no other entry",
        "content/g/terms/lonely.yaml:4:8: warning[missing-translation]: no English translation for 'title'",
    ]


def test_no_unused_term_while_a_file_of_its_game_does_not_load(tree) -> None:
    """The file that did not load may use the term: only its own error is reported (audit-packs defect 19)."""
    lonely = """\
        id: g.lonely
        kind: term
        game: g
        title: {es: Solitario, en: Loner}
        source: {doc: seed.txt, section: s}
        term:
          forms: {es: [solitario], en: [loner]}
        """
    tree({"g/terms/lonely.yaml": lonely, "g/rules/broken.yaml": "id: g.broken\ntext: {es: \"solitario\"\n",
          "h/terms/alone.yaml": lonely.replace("g.lonely", "h.alone").replace("game: g", "game: h")}, games=("g", "h"))
    _, out, _ = cli("check")
    assert out.splitlines() == [
        "content/g/rules/broken.yaml:3:1: error[yaml-syntax]: invalid YAML: while parsing a flow mapping did not find "
        "expected ',' or '}'",
        "content/h/terms/alone.yaml:1:1: warning[unused-term]: term 'h.alone' is used by no other entry"]  # h loads


def test_a_resolver_that_raises_is_an_example_error(tree) -> None:
    mechanics = "from kb.mechanics import resolver\n\n\n@resolver('g.div', outputs={'x': 'x'})\ndef div(a: int):\n    return 1 // a\n"
    broken = SAMPLE["g/rules/shoot.yaml"].replace("mechanic: check.roll-under", "mechanic: g.div").replace(
        "given: {target: 14, roll: 8}", "given: {a: 0}").replace("expect: {success: true, margin: 6}", "expect: {x: 1}").replace(
        "probability: 14/20", "")
    tree({**SAMPLE, "g/mechanics.py": mechanics, "g/rules/shoot.yaml": broken}, games=("g", "h"))
    code, out, _ = cli("test", "g")
    assert code == 1
    assert out.splitlines() == [
        "content/g/rules/shoot.yaml:13:5: error[example-error]: example 'hit' raised ZeroDivisionError: "
        "integer division or modulo by zero, at content/g/mechanics.py:6",  # the line of mechanics.py that raised
        "0 passed, 1 failed",
    ]
    from kb.api import KnowledgeBase
    [result] = [r for r in KnowledgeBase.load(Path.cwd() / "content").run_examples() if r.example.id == "hit"]
    assert result.error == "resolver-raised"  # a code (issue 33); what was raised is in the details
    assert result.details == ("ZeroDivisionError: integer division or modulo by zero, at content/g/mechanics.py:6",)


def test_an_example_whose_given_has_the_wrong_type_is_not_run(tree) -> None:
    """A text where the resolver declares a list (audit-cli defect 7): not run (the resolver would read the text letter
    by letter), but reported as kb check reports it, in kb test and in run_examples()."""
    mechanics = ("from kb.mechanics import Trace, outcome, resolver\n\n\n@resolver('g.first', outputs={'x': 'x'})\n"
                 "def first(names: list[str]):\n    return outcome(Trace(), x=names[0])\n")
    wrong = SAMPLE["g/rules/shoot.yaml"].replace("mechanic: check.roll-under", "mechanic: g.first").replace(
        "given: {target: 14, roll: 8}", "given: {names: sentry}").replace(
        "expect: {success: true, margin: 6}", "expect: {x: sentry}").replace("probability: 14/20", "")
    tree({**SAMPLE, "g/mechanics.py": mechanics, "g/rules/shoot.yaml": wrong}, games=("g", "h"))
    said = "input 'names' of 'g.first' should be a list of text; 'given.names' is text 'sentry'"
    code, out, _ = cli("check", "content/g/rules/shoot.yaml", "--no-warnings")
    assert (code, out.splitlines()) == (1, [f"content/g/rules/shoot.yaml:16:20: error[wrong-input-type]: {said}"])
    code, out, _ = cli("test", "g")
    assert (code, out.splitlines()) == (1, [
        f"content/g/rules/shoot.yaml:13:5: error[example-failed]: example 'hit' failed: line 16: {said}; "
        "kb check locates the example's problems", "0 passed, 1 failed"])
    [result] = KnowledgeBase.load(Path.cwd() / "content").run_examples(["g.shoot"])
    assert (result.status, result.error, result.outcome) == ("error", "invalid-example", None)  # never run
    assert result.details == (f"line 16: {said}", "kb check locates the example's problems")


def test_a_full_ack_forgets_hashes_of_fields_that_are_gone(tree) -> None:
    melee = SAMPLE["g/rules/melee.yaml"].rstrip(" ") + "        i18n:\n          en:\n            summary: 0123456789ab\n"
    root = tree({**SAMPLE, "g/rules/melee.yaml": melee}, games=("g", "h"))
    code, out, _ = cli("i18n", "ack", "--all")
    assert code == 0 and "content/g/rules/melee.yaml" in out
    text = (root / "g/rules/melee.yaml").read_text(encoding="utf-8")
    assert "summary: 0123456789ab" not in text and "    title: " in text and "    text: " in text


_ARGVS = [["--content", "X", "search", "q", "--json"], ["search", "q", "--content", "Y", "--limit", "3"],
          ["--cont", "search", "check"], ["--content=check", "search", "x"], ["search", "--help"], ["-h"], [],
          ["--content"], ["search"], ["i18n", "status", "--json"], ["i18n"], ["check", "--strict"], ["bogus"],
          ["se", "q"], ["-h", "search"], ["--version", "search"], ["search", "q", "--limit", "0"], ["--version"], ["docs"], ["completion", "bash"],
          ["show", "a.b", "--lang", "en"], ["test", "a", "b#c"], ["search", "--", "-q"], ["new", "rule", "g.x"],
          ["search", "linea", "de", "vision"], ["check", "--stirct"], ["i18n", "status", "--jsn"], ["show", "a.b", "c"]]


@pytest.mark.parametrize("argv", _ARGVS, ids=" ".join)
def test_a_command_parses_as_with_every_command_built(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``run`` builds only the parser of the sub-command ``argv`` names (issue 31): the namespace, the usage error or
    the help it gives is the full parser's, whatever comes before the command (a ``--content`` named like one)."""
    import contextlib
    import io

    from kb.cli.main import _Usage, _command, build_parser

    def parsed(parser: object) -> tuple[object, ...]:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                return ("ok", sorted(vars(parser.parse_args(argv)).items(), key=str))  # type: ignore[attr-defined]
        except _Usage as exc:
            return ("usage", str(exc))
        except SystemExit as exc:
            return ("exit", exc.code, out.getvalue())

    assert parsed(build_parser(_command(argv))) == parsed(build_parser())
    named = _command(argv)
    assert named is None or named in argv  # and a command is named only as given
