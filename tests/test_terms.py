"""Folding and the inflection keys that glossary matching uses."""

from __future__ import annotations

import pytest

from kb.core.terms import fold, stem


def test_fold_keeps_positions() -> None:
    text = "Línea de VISIÓN, ñandú"
    assert fold(text) == "linea de vision, nandu"
    assert len(fold(text)) == len(text)


@pytest.mark.parametrize("a, b", [
    ("trabado", "trabadas"), ("trabado", "trabo"), ("lugar", "lugares"), ("accion", "acciones"),
    ("ataque", "ataques"), ("casilla", "casillas"), ("disparador", "disparadores"),
])
def test_spanish_inflections_meet(a: str, b: str) -> None:
    assert stem(a, "es") == stem(b, "es")


@pytest.mark.parametrize("a, b", [
    ("disparar", "disparador"), ("inicio", "iniciativa"), ("objeto", "objetivo"), ("laser", "las"),
])
def test_spanish_false_friends_stay_apart(a: str, b: str) -> None:
    assert stem(a, "es") != stem(b, "es")


def test_english_inflections_meet_and_function_words_do_not() -> None:
    assert stem("engaged", "en") == stem("engaging", "en") == stem("engages", "en")
    assert stem("the", "en") != stem("theme", "en")
