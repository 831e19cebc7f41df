"""Shared helpers: small content trees written into tmp_path."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from kb.cli import run

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"

GAME_YAML = """\
id: {game}
name: {{es: Juego {game}, en: Game {game}}}
source_language: es
sources:
  - doc: seed.txt
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """Write files into a fresh content tree: ``tree({"g/rules/a.yaml": "..."})``; games get a game.yaml.

    The working directory becomes ``tmp_path`` so diagnostics print ``content/...`` paths.
    """
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "content"

    def write(files: dict[str, str | bytes], games: tuple[str, ...] = ("g",)) -> Path:
        root.mkdir(exist_ok=True)
        for game in games:
            (root / game).mkdir(exist_ok=True)
            (root / game / "game.yaml").write_text(GAME_YAML.format(game=game), encoding="utf-8")
        for rel, body in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(body, bytes):
                path.write_bytes(body)
            else:
                path.write_text(textwrap.dedent(body), encoding="utf-8")
        return root

    return write


def cli(*argv: str) -> tuple[int, str, str]:
    """Run the ``kb`` command in-process; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()
