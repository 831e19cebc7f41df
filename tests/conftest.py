"""Shared helpers: small content trees written into tmp_path."""

from __future__ import annotations

import functools
import http.server
import io
import textwrap
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest

from kb.cli.main import run

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
MKDOCS = str(REPO / "mkdocs.yml")
"""The project's site settings, for building a content folder that has no mkdocs.yml beside it."""

GAME_YAML = """\
id: {game}
name: {{es: Juego {game}, en: Game {game}}}
source_language: es
sources:
  - doc: seed.txt
"""


SAMPLE = {
    "common/concepts/engaged.yaml": """\
        id: common.engaged
        kind: concept
        title: {es: Trabado, en: Engaged}
        summary: {es: Luchando cuerpo a cuerpo., en: Fighting hand to hand.}
        """,
    "common/concepts/line-of-sight.yaml": """\
        id: common.line-of-sight
        kind: concept
        title: {es: Línea de visión, en: Line of sight}
        """,
    "g/terms/engaged.yaml": """\
        id: g.engaged
        kind: term
        game: g
        title: {es: Trabado, en: Engaged}
        summary: {es: En combate cuerpo a cuerpo., en: In melee.}
        source: {doc: seed.txt, section: Combate}
        term:
          forms: {es: [trabado, trabada, trabados], en: [engaged]}
          concept: common.engaged
          concept_note: {es: Basta con estar a 1", en: Being within 1" is enough.}
        """,
    "g/terms/los.yaml": """\
        id: g.line-of-sight
        kind: term
        game: g
        title: {es: Línea de visión, en: Line of sight}
        source: {doc: seed.txt, section: Combate}
        term:
          forms: {es: [línea de visión], en: [line of sight]}
          abbreviations: {es: [LdV], en: [LoS]}
          concept: common.line-of-sight
        """,
    "g/rules/shoot.yaml": """\
        id: g.shoot
        kind: rule
        game: g
        title: {es: Disparar, en: Shooting}
        text:
          es: |
            Una miniatura trabada no dispara. Hace falta LdV; ver {@rule g.melee|combate}.
          en: |
            An engaged model does not shoot. It needs LoS; see {@rule g.melee|melee}.
        see_also: [g.melee]
        source: {doc: seed.txt, section: Disparo}
        examples:
          - id: hit
            title: {es: Impacto, en: Hit}
            mechanic: check.roll-under
            given: {target: 14, roll: 8}
            expect: {success: true, margin: 6}
            probability: 14/20
            note: {es: Un marine con CD 14 saca un 8., en: A marine with RC 14 rolls an 8.}
        """,
    "g/rules/melee.yaml": """\
        id: g.melee
        kind: rule
        game: g
        title: {es: Cuerpo a cuerpo, en: Melee}
        text: {es: Las miniaturas trabadas luchan., en: Engaged models fight.}
        source: {doc: seed.txt, section: Combate}
        """,
    "h/terms/engaged.yaml": """\
        id: h.locked
        kind: term
        game: h
        title: {es: Enzarzado, en: Locked}
        source: {doc: seed.txt, section: Melee}
        term:
          forms: {es: [enzarzado], en: [locked in combat]}
          abbreviations: {es: [LdV], en: [LoS]}
          concept: common.engaged
        """,
    "h/rules/melee.yaml": """\
        id: h.melee
        kind: rule
        game: h
        title: {es: Melé, en: Melee}
        text: {es: Una unidad enzarzada con LdV pelea., en: A unit locked in combat with LoS fights.}
        source: {doc: seed.txt, section: Melee}
        """,
}
"""A small valid tree: two games, terms with a shared concept, links and an example."""


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


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def served(directory: Path, handler: type[http.server.SimpleHTTPRequestHandler] = _Quiet) -> Iterator[str]:
    """``directory`` over HTTP on a free local port, for the browser tests: its base URL. ``handler``: a subclass of
    ``_Quiet`` (a test slowing or failing some requests)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def bundled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled content's site, built once for every browser test that reads it (none writes into it)."""
    return built_site(CONTENT, tmp_path_factory.mktemp("bundled") / "site")


@pytest.fixture(scope="session")
def fixture_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The small fixture pack's site (``tests/fixtures/site/content``), built once and served for every browser test
    that only reads it: its base URL."""
    with served(built_site(REPO / "tests" / "fixtures" / "site" / "content", tmp_path_factory.mktemp("fixture") / "site")) as url:
        yield url


def built_site(content: Path, out: Path) -> Path:
    """``kb build`` of ``content`` into ``out`` (a failed build fails the test with its output): ``out``."""
    code, stdout, stderr = cli("--content", str(content), "build", "--config", MKDOCS, "--site-dir", str(out))
    assert code == 0, stdout + stderr
    return out
