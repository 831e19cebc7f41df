"""The bundled packs' quick references (audit at the table, round 2, defect 11): the numbers a player asks most are
there, each once, and no row that says nothing."""

from __future__ import annotations

import pytest

from conftest import CONTENT
from kb import KnowledgeBase
from kb.site.pages import build_site
from kb.site.quickref import quickref_path


@pytest.fixture(scope="module")
def numbers() -> dict[str, list[str]]:
    """Each game's «Cifras y modificadores» rows, in Spanish."""
    kb = KnowledgeBase.load(CONTENT)
    site = build_site(kb, [], "es")
    out = {}
    for game in kb.games:
        md = site.page(quickref_path(game)).markdown
        section = md.partition("{#qr-numbers}")[2].partition("\n## ")[0]
        out[game] = [line for line in section.splitlines() if line.startswith("| [")]
    return out


@pytest.mark.parametrize("row", [
    "| [Apuntar](aim.md) | +4 | al primer chequeo de CD del disparo |",  # seed 000, Marines básicas: Apuntar
    "| [Ocultación](concealment.md) | −10 |",  # seed 000, Aliens básicas: Ocultación («-10 CD en vez de -4»)
    "| [Tratamiento de heridas](treating-wounds.md) | 10 o menos en 1D20 |",  # seed 000, Depredadores: «≤10»
])
def test_hunt_begins_gives_the_numbers_players_ask(numbers: dict[str, list[str]], row: str) -> None:
    assert any(line.startswith(row) for line in numbers["hunt-begins"]), numbers["hunt-begins"]


def test_battletech_lists_each_climbing_modifier_once(numbers: dict[str, list[str]]) -> None:
    """Seed 002, Reglas de escalada: +1 (two hands) / +2 (one hand) while climbing, shown under the climbing 'Mech."""
    rows = numbers["battletech-solaris"]
    assert [r for r in rows if "escalando con" in r or "escala con" in r] == [
        "| [Un 'Mech que está escalando](climbing-mech.md) | +1 | Chequeos de pilotaje mientras escala con dos actuadores de mano. |",
        "| [Un 'Mech que está escalando](climbing-mech.md) | +2 | Chequeos de pilotaje mientras escala con un solo actuador de mano. |"]
    assert [r for r in rows if "(paved-and-ice.md)" in r] == [
        "| [Pavimento y hielo](paved-and-ice.md) | Costes: pavimento: 1, hielo: 1 | |"]  # no «0» row; its label with it
