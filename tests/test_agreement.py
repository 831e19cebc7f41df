"""Each idea declared once: entry kinds and languages come from :mod:`kb.core.model`; every consumer agrees."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kb.cli.main import build_parser
from kb.cli.scaffold import KIND_FOLDERS
from kb.core import locale, model
from kb.core.validate import BLOCKS
from kb.search import query, ranking
from kb.site.pages import KIND_ORDER
from kb.site.search_box import kind_words
from kb.site.structure import LANGUAGES

KB = Path(__file__).resolve().parents[1] / "kb"
SCHEMA = json.loads((KB / "schema" / "entry.schema.json").read_text(encoding="utf-8"))


def _choices(*path: str) -> tuple[str, ...]:
    parser = build_parser()
    for name in path[:-1]:
        sub = next(a for a in parser._actions if a.dest == "command")  # argparse keeps subparsers there
        parser = sub.choices[name]
    action = next(a for a in parser._actions if a.dest == path[-1])
    return tuple(action.choices)


def test_the_kinds_are_the_models_everywhere() -> None:
    assert SCHEMA["properties"]["kind"]["enum"] == list(model.KINDS)
    assert model.GAME_KINDS == tuple(k for k in model.KINDS if k != "concept")
    assert tuple(KIND_FOLDERS) == model.GAME_KINDS  # kb new / kb init
    assert _choices("new", "kind") == model.GAME_KINDS
    assert sorted(KIND_ORDER) == sorted(model.GAME_KINDS)  # the game page's order of sections
    assert set(BLOCKS) < set(model.KINDS)
    for lang in model.LANGS:  # the search box's data: one word per kind, in the language
        assert list(kind_words(lang)) == list(model.KINDS)


def test_every_game_kind_has_a_template_and_a_word() -> None:
    templates = {p.stem for p in (KB / "cli" / "templates").glob("*.yaml")}
    assert set(model.GAME_KINDS) <= templates
    for lang in model.LANGS:
        words = kind_words(lang)
        assert all(words[k] and words[k] != k for k in model.KINDS), words  # the catalog names each kind


def test_the_languages_are_the_models_everywhere() -> None:
    assert locale.LANGS is model.LANGS and query.LANGS is model.LANGS and ranking.LANGS is model.LANGS
    assert tuple(LANGUAGES) == model.LANGS
    assert (model.SOURCE_LANG, model.TARGET_LANG) == model.LANGS
    assert list(SCHEMA["$defs"]["text"]["properties"]) == list(model.LANGS)
    assert _choices("show", "lang") == model.LANGS
    assert sorted(p.name for p in (KB / "locale").iterdir() if p.is_dir()) == sorted(model.LANGS)


def test_no_module_spells_the_languages_out_again() -> None:
    spelled = re.compile(r"""\(\s*["']es["']\s*,\s*["']en["']\s*\)|\[\s*["']es["']\s*,\s*["']en["']\s*\]""")
    found = [str(p.relative_to(KB)) for p in KB.rglob("*.py") if spelled.search(p.read_text(encoding="utf-8"))]
    assert found == ["core/model.py"]


def test_the_pinned_pyodide_is_one_version_everywhere() -> None:
    """Pyodide's version is written once (``kb/site/calc_runtime.py``): the README's first command installs that
    release with the very command ``kb build``'s warning gives, and ``.ci/run`` reads the version from the code."""
    from kb.site.calc_runtime import INSTALL, PYODIDE

    repo = KB.parent
    readme = (repo / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n```", readme, re.S)
    assert first is not None
    command = first.group(1)
    assert "\n" not in command and INSTALL in command and "kb build --strict" in command
    assert command.index("pip install") < command.index(INSTALL) < command.index("kb build")
    assert re.search(re.escape(INSTALL) + r" \|\| ", command)  # no npm: the command goes on to the build
    said = {*re.findall(r"pyodide@([0-9][0-9.]*)", readme), *re.findall(r"Pyodide ([0-9]+\.[0-9]+\.[0-9]+)", readme)}
    for doc in (repo / "docs").glob("*.md"):
        said |= set(re.findall(r"pyodide@([0-9][0-9.]*)", doc.read_text(encoding="utf-8")))
    assert said == {PYODIDE}
    ci = (repo / ".ci" / "run").read_text(encoding="utf-8")
    assert re.findall(r"pyodide@[0-9]|[0-9]+\.[0-9]+\.[0-9]+", ci) == []  # no version of its own
    assert "from kb.site.calc_runtime import PYODIDE" in ci and '"pyodide@$pyodide"' in ci


def test_the_readme_command_table_names_every_subcommand() -> None:
    """The README's table of the ``kb`` command has a row for each sub-command ``kb --help`` lists (audit-cli 10:
    ``kb docs`` was missing)."""
    readme = (KB.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("## The `kb` command", 1)[1].strip().split("\n\n", 1)[0]
    rows = set(re.findall(r"^\| `kb ([a-z0-9]+)", table, re.M))
    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert rows == set(commands)
