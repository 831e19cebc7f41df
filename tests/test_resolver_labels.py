"""Every word of the resolvers' vocabulary (input, output, input value) has a Spanish and an English label."""

from __future__ import annotations

import io

import pytest

from kb.api import KnowledgeBase
from kb.cli.main import run as kb_run
from kb.mechanics import Registry, Trace, outcome, resolver


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load()


def test_every_input_output_and_value_has_both_labels(kb) -> None:
    missing = []
    for name in kb.registry.names():
        r = kb.registry.get(name)
        for word in r.vocabulary():
            for lang in ("es", "en"):
                text = r.label(word, lang)
                if not (text and text.strip()):
                    missing.append(f"{name}: {word} ({lang})")
    assert not missing, missing


def test_a_missing_label_is_found() -> None:
    import types

    mod = types.ModuleType("fake_game")
    mod.LABELS = {"speed": ("velocidad", "speed")}

    @resolver("fake.move", outputs={"zones": "zones moved"})
    def move(speed: int, mode: str = "walk"):
        return outcome(Trace(), zones=speed)

    move.__module__ = "fake_game"
    mod.move = move
    (r,) = Registry.scan(mod)
    assert r.label("speed", "es") == "velocidad"
    assert r.label("zones", "es") is None and r.label("mode", "en") is None
    assert set(r.vocabulary()) == {"speed", "mode", "zones"}


def test_decorator_labels_win_over_the_module_ones() -> None:
    import types

    mod = types.ModuleType("fake_game2")
    mod.LABELS = {"speed": ("velocidad", "speed")}

    @resolver("fake.run", outputs={}, labels={"speed": ("velocidad al correr", "running speed")})
    def run(speed: int):
        return outcome(Trace())

    run.__module__ = "fake_game2"
    mod.run = run
    (r,) = Registry.scan(mod)
    assert r.label("speed", "es") == "velocidad al correr"


def test_kb_resolvers_shows_the_labels() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert kb_run(["resolvers", "check.roll-under"], out, err) == 0
    text = out.getvalue()
    assert "target: número objetivo / target number" in text
    assert "success: éxito / success" in text
