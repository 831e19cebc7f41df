"""``kb init`` and ``kb new``: a new rules pack, and new entries, from the templates in ``templates/``.

Templates are plain files with ``$placeholders`` (:class:`string.Template`); a text put into a YAML file goes in
as a YAML string (:func:`yaml_text`), never as it is. Nothing existing is ever overwritten: ``kb init`` wants an
empty or new folder, ``kb new`` a file that does not exist yet.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from importlib import resources
from pathlib import Path
from string import Template

from kb.core.diagnostics import hint, printable, suggest
from kb.core.errors import KbError
from kb.core.files import atomic_write
from kb.core.model import COMMON, MAX_ID
from kb.core.validate import slug_words

__all__ = ["ScaffoldError", "init_pack", "new_entry", "KIND_FOLDERS", "SLUG"]

KIND_FOLDERS = {"action": "actions", "ability": "abilities", "terrain": "terrain", "sequence": "sequences",
                "rule": "rules", "ruling": "rulings", "term": "terms"}
"""Where each kind of entry lives inside a game folder."""
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""A game or entry slug: lowercase letters, digits, single hyphens."""
MAX_GAME = 60
"""Longest game id (the schemas' ``maxLength``)."""
MAX_NAME = 400
"""Longest game name (the schemas' ``maxLength`` of a name)."""
BOTH = " · "
"""Between the two languages' names in ``mkdocs.yml``'s ``site_name`` (each language's pages show their own)."""

_PACK = {  # template -> path inside the pack (``$game`` filled in)
    "game.yaml": "content/$game/game.yaml",
    "sequence.yaml": "content/$game/sequences/turn.yaml",
    "action.yaml": "content/$game/actions/shoot.yaml",
    "ability.yaml": "content/$game/abilities/tough.yaml",
    "terrain.yaml": "content/$game/terrain/forest.yaml",
    "rule.yaml": "content/$game/rules/initiative-roll.yaml",
    "ruling.yaml": "content/$game/rulings/shooting-through-forest.yaml",
    "term.yaml": "content/$game/terms/line-of-sight.yaml",
    "term-initiative.yaml": "content/$game/terms/initiative.yaml",
    "mkdocs.yml": "mkdocs.yml",
    "README.md": "README.md",
    "gitignore": ".gitignore",
    "docs-gitkeep": "docs/.gitkeep",  # MkDocs wants its docs_dir to exist (``mkdocs serve`` aborts without it)
}


class ScaffoldError(KbError):
    """A pack or entry cannot be made as asked; the message says why and what to do."""


def _template(name: str) -> Template:
    return Template(resources.files("kb.cli").joinpath(f"templates/{name}").read_text(encoding="utf-8"))


def _schema_header(target: Path, schema_dir: Path, name: str) -> str:
    return Path(os.path.relpath(schema_dir / f"{name}.schema.json", target.parent)).as_posix()


def _write_new(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        raise ScaffoldError(f"{path}: already exists; nothing was overwritten")
    atomic_write(path, text.encode("utf-8"))


def yaml_text(text: str) -> str:
    """``text`` as a YAML double-quoted string (JSON's string is one): ``#``, ``:``, quotes, braces and commas stay
    text inside a flow mapping (``{es: …, en: …}``) as at a line's end, and ``yaml.safe_load`` gives ``text`` back.
    Non-ASCII letters are written as they are (an escaped one beyond U+FFFF would read back as two halves)."""
    return json.dumps(text, ensure_ascii=False)


def _name(option: str, name: str) -> str:
    """``name`` if a game's name can be it (one line of plain text, as the game schema says), else ScaffoldError
    naming the option and the character: a line break would add settings to ``mkdocs.yml`` and break the YAML."""
    bad = next((i for i, ch in enumerate(name) if printable(ch) != ch), None)
    if bad is not None:
        raise ScaffoldError(f"{option} '{printable(name)}': character {bad + 1} ({printable(name[bad])}) is a line break "
                            "or another control character; a game's name is one line of plain text (nothing was written)")
    if not name.strip():
        raise ScaffoldError(f"{option} is empty: give the game's name, e.g. {option} 'Escaramuza' (nothing was written)")
    if len(name) > MAX_NAME:
        raise ScaffoldError(f"{option} of {len(name)} characters: the most allowed is {MAX_NAME} (nothing was written)")
    if BOTH in name:
        raise ScaffoldError(f"{option} '{name}': '{BOTH}' separates the two languages' names in mkdocs.yml's "
                            "site_name; write another character (nothing was written)")
    return name


def _check_game(game: str) -> None:
    """Raise :class:`ScaffoldError` for a game slug ``kb init`` cannot make: too long, not a slug, or ``common``."""
    if len(game) > MAX_GAME:
        raise ScaffoldError(f"game of {len(game)} characters: the most allowed is {MAX_GAME}")
    if not SLUG.match(game):
        raise ScaffoldError(f"game '{game}': use lowercase letters, digits and hyphens, e.g. my-game")
    if game == COMMON:
        raise ScaffoldError(f"game '{game}': the name is reserved for the concepts every game shares "
                            f"(content/{COMMON}/); choose another, e.g. my-game")


def init_pack(folder: Path, game: str = "my-game", name_es: str = "Mi juego", name_en: str = "My game") -> list[Path]:
    """Make a rules pack in ``folder`` (new or empty): one game, one entry of each kind with a worked example,
    the JSON Schemas for editors, a five-line ``mkdocs.yml`` and a README with the two commands."""
    name_es, name_en = _name("--name-es", name_es), _name("--name-en", name_en)
    _check_game(game)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder}: exists and is not an empty folder; choose a new one (nothing was written)")
    schema_dir = folder / "schema"
    schema_dir.mkdir(parents=True, exist_ok=True)
    written = [schema_dir / f"{name}.schema.json" for name in ("entry", "game")]  # every file made is listed
    for schema in written:
        with resources.as_file(resources.files("kb").joinpath(f"schema/{schema.name}")) as src:
            shutil.copyfile(src, schema)
    for template, where in _PACK.items():
        path = folder / Template(where).substitute(game=game)
        kind = "game" if template == "game.yaml" else "entry"
        text = _template(template).substitute(
            game=game, name_es=yaml_text(name_es), name_en=yaml_text(name_en), names=f"{name_es}{BOTH}{name_en}",
            rules_es=yaml_text(f"Reglas de {name_es}"), rules_en=yaml_text(f"Rules of {name_en}"),
            site_name=yaml_text(f"{name_es}{BOTH}{name_en}"), schema_header=_schema_header(path, schema_dir, kind))
        _write_new(path, text)
        written.append(path)
    return written


def new_entry(root: Path, kind: str, entry_id: str) -> Path:
    """Add entry ``entry_id`` (``<game>.<slug>``) of ``kind`` to the content tree ``root``, from a template."""
    if kind not in KIND_FOLDERS:
        raise ScaffoldError(f"kind '{kind}': use one of {', '.join(KIND_FOLDERS)}")
    game, _, slug = entry_id.partition(".")
    if len(entry_id) > MAX_ID:
        raise ScaffoldError(f"id of {len(entry_id)} characters: the most allowed is {MAX_ID}")
    games = sorted(p.parent.name for p in root.glob("*/game.yaml"))
    if not (SLUG.match(game) and SLUG.match(slug)):
        raise ScaffoldError(f"id '{entry_id}': write <game>.<slug>, lowercase with hyphens, "
                            f"e.g. {_example_id(game, slug, games)}{_games_hint(game, games)}")
    if game not in games:
        raise ScaffoldError(f"no game '{game}' in {root}{_games_hint(game, games)}; "
                            "make its folder with a game.yaml first")
    path = root / game / KIND_FOLDERS[kind] / f"{slug}.yaml"
    pack_schema = root.parent / "schema"
    schema_dir = pack_schema if (pack_schema / "entry.schema.json").is_file() else _installed_schema()
    words = slug_words(entry_id)
    text = _template("new-entry.yaml").substitute(
        id=entry_id, kind=kind, game=game, title_es=words.capitalize(), title_en=words.capitalize(),
        schema_header=_schema_header(path, schema_dir, "entry"), doc=yaml_text(_first_source(root / game / "game.yaml")),
        block=Template(_KIND_BLOCK.get(kind, "")).substitute(words=words))
    _write_new(path, text)
    return path


def _games_hint(game: str, games: list[str]) -> str:
    """The content's games, and the nearest to ``game`` when one is close (never a game the content lacks)."""
    if game in games:
        return ""
    near = hint(game, games) if game else ""
    return f"{near} (games: {', '.join(games) or 'none'})"


def _example_id(game: str, slug: str, games: list[str]) -> str:
    """An id to write instead of a malformed one: a real game of the content (the one named, the nearest, else the
    first) and the slug given (or, when none is usable, the one given as a game, or ``charge``)."""
    near = game if game in games else suggest(game, games)
    words = [w for w in (slug.lower(), "" if near else game.lower()) if SLUG.match(w)]
    return f"{near or (games[0] if games else 'my-game')}.{words[0] if words else 'charge'}"


def _first_source(game_file: Path) -> str:
    """The first document the game lists under ``sources`` (a new entry cites it), else ``rules.txt``."""
    import yaml

    try:
        data = yaml.safe_load(game_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return "rules.txt"  # kb check reports the game file itself
    sources = data.get("sources") if isinstance(data, dict) else None
    first = sources[0] if isinstance(sources, list) and sources else None
    doc = first.get("doc") if isinstance(first, dict) else None
    return doc if isinstance(doc, str) and doc.strip() else "rules.txt"


def _installed_schema() -> Path:
    return Path(str(resources.files("kb").joinpath("schema")))


_KIND_BLOCK = {
    "sequence": "sequence:\n  steps:\n    - id: first\n      title: {es: Nombre del primer paso, en: The first step's name}\n",
    "ruling": ("ruling:\n  question:\n    es: ¿Pregunta que hacen los jugadores?\n    en: The players' question?\n"
               "  answer:\n    es: La respuesta, en una o dos frases.\n    en: The answer, in a sentence or two.\n"),
    "term": "term:\n  forms:\n    es: [$words]\n    en: [$words]\n",
    "action": "action:\n  cost: 1\n",
}
