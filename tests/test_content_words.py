"""Words of the bundled packs a player reads (audit at the table, round 2, defects 4 and 9): the seed's own names for
stats and actions, no machine-made phrasing, and the names players search by."""

from __future__ import annotations

import pytest

from conftest import CONTENT
from kb import KnowledgeBase


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(CONTENT)


def test_warlords_names_its_card_stat_and_flipping_as_the_seed_does(kb: KnowledgeBase) -> None:
    """Seed 003: the stat is «ATQ» (Daño de combate) and a troop is «volteada» (Táctica), never «Atacar 2» nor «girar».
    In English it is the Attack, as an English player says it (ATQ is what the card prints, said once in the text)."""
    names = kb._names("warlords-of-terra")
    assert (names("attack").es, names("attack").best("en")) == ("ATQ", "Attack")  # a troop's `attack: 4` in examples
    assert names("flip").es == "voltear"  # the Attack action's cost, in the quick reference
    assert names("warlords-of-terra.attack").es == "Atacar"  # the action keeps its own title
    combat = kb.registry.get("warlords-of-terra.combat")
    assert combat is not None and combat.label("attack", "es") == "ATQ" and combat.label("attack", "en") == "Attack"
    exchange = kb.registry.get("warlords-of-terra.damage-exchange")
    assert exchange is not None and exchange.label("attacker_attack", "en") == "attacker's Attack"
    damage = kb.entries["warlords-of-terra.combat-damage"]
    assert "Attack} (ATQ on the card)" in damage.best("text", "en") and "Attack vs Life" in damage.also_called("en")
    move = kb.registry.get("warlords-of-terra.move")
    assert move is not None and move.label("flip_ability", "es") == "usa una habilidad de volteo"


def test_warlords_diverts_one_mana_not_a_unit(kb: KnowledgeBase) -> None:
    """Seed 003, Fase de recursos: «desviar UNO de los manás» (some heroes ask for gold)."""
    e = kb.entries["warlords-of-terra.gathering-resources"]
    assert "desviar un maná al Poder del Héroe" in e.text("text").es and "una unidad" not in e.text("text").es
    assert "divert one mana to the Hero's Power" in e.best("text", "en")


def test_malifaux_first_player_summary_says_what_it_does(kb: KnowledgeBase) -> None:
    e = kb.entries["malifaux.first-player"]
    assert "fuente" not in e.text("summary").es and "source" not in e.best("summary", "en")
    assert "Segundo Jugador" in e.text("summary").es
    assert "cómo se decide" in e.text("notes").es  # the seed never says how the First Player is decided


@pytest.mark.parametrize("query", ["estacionario", "unidad estacionaria"])
def test_starcraft_stationary_is_found_by_the_players_word(kb: KnowledgeBase, query: str) -> None:
    """Seed 001, Inicio de ronda: «Todas las unidades ganan STATIONARY»; a Spanish player says «estacionario»."""
    e = kb.entries["starcraft-tmg.stationary"]
    assert "estacionario" in e.data["also_called"]["es"]
    hits = kb.search(query, lang="es", game="starcraft-tmg").hits
    assert hits and hits[0].id == "starcraft-tmg.stationary", [h.id for h in hits[:3]]


def test_no_player_facing_text_names_an_error_code() -> None:
    """A phone audit (2026-12-07, D14) read «(error roll-off-tie)» and «las comprobaciones de esta entrada se niegan a
    decidirlo» in a Spanish note: a resolver's refusal code and the site's checks are developer words, not the game's."""
    import re

    dev = re.compile(r"\(error [a-z][a-z0-9-]*\)|comprobaciones de esta entrada|checks of this entry", re.IGNORECASE)
    found = [f"{p}:{n}" for p in sorted(CONTENT.glob("*/**/*.yaml"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if dev.search(line)]
    assert found == []
