"""The offline list's game names, read from each game's built page in one pass whatever the page holds."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kb.site.app import _game_name


@pytest.mark.parametrize("page, name", [
    ('<h1 id="x">Escaramuza <em>2</em><a class="headerlink" href="#x">¶</a></h1>', "Escaramuza 2"),
    ("<html><h1>Juego &amp; más</h1><h1>Otro</h1>", "Juego & más"),
    ("<h1>unclosed", "game"),
    ("<h1 no end", "game"),
    ("<p>no heading</p>", "game"),
])
def test_the_name_is_the_first_headings_text(tmp_path: Path, page: str, name: str) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "index.html").write_text(page, encoding="utf-8")
    assert _game_name(tmp_path / "game" / "index.html") == name


@pytest.mark.parametrize("page", ["<h1>" * 10_000, "<h1 " * 20_000, "<h1>" + "<" * 60_000 + "</h1>"])
def test_a_page_of_repeated_headings_is_read_in_one_pass(tmp_path: Path, page: str) -> None:
    """A pack's docs/x/index.html is such a page: 40 KB of ``<h1>`` took 10 s (quadratic), 1 MB hours."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "index.html").write_text(page, encoding="utf-8")
    started = time.monotonic()
    _game_name(tmp_path / "x" / "index.html")
    assert time.monotonic() - started < 1.0
