"""Damage: subtracting attack from life, alone or as an exchange."""

from __future__ import annotations

from kb.mechanics import Outcome, Trace, outcome, resolver, between, window


def hit(trace: Trace, who: tuple[str, str], life: int, damage: int, dies_below: int) -> tuple[int, bool]:
    """Subtract ``damage`` from ``life``; dead when the result is below ``dies_below``.

    ``who`` names the one hit in Spanish and English.
    """
    left = life - damage
    dead = left < dies_below
    trace.add("{who}: {life} − {damage} = {left}{dead}", "{who_en}: {life} − {damage} = {left}{dead_en}",
              who=who[0], who_en=who[1], life=life, damage=damage, left=left,
              dead=" (muere)" if dead else "", dead_en=" (dies)" if dead else "")
    return left, dead


@resolver("damage.apply",
          ranges={"life": {"minimum": 0, **window(0, 40)},  # any life is taken; a calculator offers 0 to 40
                  "damage": {"minimum": 0, **window(0, 40)},
                  "dies_below": between(0, 1)},  # a model dies below 1 life, or (some games) at 0 and below
          outputs={"life": "life left", "dead": "whether it dies"})
def apply(life: int, damage: int, dies_below: int = 1) -> Outcome:
    """Subtract damage from life."""
    trace = Trace()
    left, dead = hit(trace, ("Objetivo", "Target"), life, damage, dies_below)
    return outcome(trace, life=left, dead=dead)


@resolver("damage.exchange",
          ranges={"attacker_attack": {"minimum": 0, **window(0, 9)},  # any is taken; a calculator offers 0 to 9
                  "attacker_life": {"minimum": 0, **window(0, 9)},
                  "defender_attack": {"minimum": 0, **window(0, 9)},
                  "defender_life": {"minimum": 0, **window(0, 9)},
                  "dies_below": between(0, 1)},
          outputs={"attacker_life": "attacker's life left", "defender_life": "defender's life left",
                                      "attacker_dead": "whether the attacker dies", "defender_dead": "whether the defender dies"})
def exchange(attacker_attack: int, attacker_life: int, defender_attack: int, defender_life: int, dies_below: int = 1) -> Outcome:
    """Both sides deal their attack to the other at the same time."""
    trace = Trace()
    d_left, d_dead = hit(trace, ("Defensor", "Defender"), defender_life, attacker_attack, dies_below)
    a_left, a_dead = hit(trace, ("Atacante", "Attacker"), attacker_life, defender_attack, dies_below)
    return outcome(trace, attacker_life=a_left, defender_life=d_left, attacker_dead=a_dead, defender_dead=d_dead)


LABELS = {
    "life": ("vida", "life"),
    "damage": ("daño", "damage"),
    "dies_below": ("muere por debajo de", "dies below"),
    "dead": ("muere", "dies"),
    "attacker_attack": ("ataque del atacante", "attacker's attack"),
    "attacker_life": ("vida del atacante", "attacker's life"),
    "defender_attack": ("ataque del defensor", "defender's attack"),
    "defender_life": ("vida del defensor", "defender's life"),
    "attacker_dead": ("muere el atacante", "the attacker dies"),
    "defender_dead": ("muere el defensor", "the defender dies"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
