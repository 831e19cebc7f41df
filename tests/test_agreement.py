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
