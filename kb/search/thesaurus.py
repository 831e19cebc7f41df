"""The players' words for the rules' words, in both languages: a thesaurus read at query time (issue 31).

Players describe a situation in everyday words ("pegar un tiro", "quitarse de encima", "give up the phase")
where the rules use their own ("disparar", "retirarse", "pass"). Each line of :data:`TEXT` is
``lang: players' words -> rules' words``: a query word whose analysed term (the language's body analysis) is
the term of one of the players' words is looked up, besides itself, as each of the rules' words, in that
language's fields only, at :attr:`kb.search.ranking.Params.thesaurus_weight` of the field's weight, in the
word's own slot (a word met by its synonym counts as matched). One way only: the rules' words are not
widened back. General table-top vocabulary only: no game, faction or unit is named here (the engine knows no
game); a game's own players' names belong to its entries' ``also_called``.

The browser reads the same table from the exported data, resolved word by word for the word list's keys
(:func:`kb.search.export`), so the API and the site agree query by query.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

TEXT = """
es: tiro, tiros, pegar, pego, pegarle, balazo, balear, acribillar, fuego -> disparar, disparo
es: pelea, peleando, pelearse, pegarse, mamporros, tortas, liado, liados, zurrando -> combate
es: pegado, pegados, pegadito, tocando -> adyacente, contacto
es: irme, irse, largarse, escapar, escapo, huir, huyo, quitarse, soltarse, alejarse, alejo -> retirarse, destrabarse, abandonar
es: romper, rompo, reventar, echar -> forzar
es: alas, volador, volando -> volar, vuela
es: elige, elijo, eliges, escoge -> escoger, elegir
es: empieza, arranca -> primer, iniciativa
es: chicos, chavales, muñecos, munecos, minis, bichos, tios -> miniaturas, unidades, modelos
es: bicho, muñeco, muneco, tio -> miniatura, unidad, modelo
es: plantarse, planto, paso -> pasar
es: andar, ando, caminar -> mover, movimiento
es: abalanzarse, lanzarse -> carga, cargar
es: vidas, aguante -> heridas, dano
es: matar, mato, cargarse, tumbar, palmar -> eliminar, destruir
es: pupa, herir, hiero -> dano, heridas
es: esconder, escondo, esconderse, escondido, ocultar, sigilo -> oculto, cobertura
es: tapado, taparse, cubrirse -> cobertura
es: veo, mirar -> linea, vision
es: lejos -> alcance, distancia
es: potenciar, mejorar -> bonificador, mejora
es: restar, resta, malus -> penalizador, modificador
es: compuerta -> puerta
es: conjuro, magia -> hechizo
es: enganchar, ponerle -> equipar
en: shot, shots, firing, blast, gun -> shoot
en: fighting, brawl, scrap, stuck, locked -> combat, engaged
en: touching, beside -> adjacent, contact
en: escape, flee, retreat, away -> disengage, leave
en: smash, bash, kick -> force
en: wings, winged, flyer -> flies, flying
en: pick, picks, decide, decides -> choose, chooses
en: starts, begins -> first, initiative
en: guys, dudes, minis, figures, mini, guy -> models, units, model
en: skip, skipping -> pass, passing
en: rush, rushing, dash -> charge
en: walk, walking -> move, movement
en: kill, kills, killed, wipe -> destroyed, eliminated
en: health, hp -> wounds, damage
en: hide, hiding, stealth, sneak -> hidden, concealment, cover
en: wall, behind -> cover
en: see, seeing, spot -> line, sight
en: far -> range, distance
en: boost, buff, improve -> bonus, equip
en: minus, malus -> penalty, modifier
en: hatch -> door
en: magic -> spell
en: attach, attaching -> equip, item
"""
"""The table, one line per group (``lang: players' words -> rules' words``; words as typed, accents optional)."""


def lines() -> list[tuple[str, list[str], list[str]]]:
    """:data:`TEXT` as (language, players' words, rules' words), words folded."""
    from kb.core.terms import fold

    def words(side: str) -> list[str]:
        return [fold(w.strip().lower()) for w in side.split(",") if w.strip()]

    out = []
    for line in TEXT.strip().splitlines():
        lang, _, rest = line.partition(":")
        said, _, meant = rest.partition("->")
        out.append((lang.strip(), words(said), words(meant)))
    return out


@lru_cache(maxsize=1)
def _starts() -> dict[tuple[str, str], list[tuple[str, list[str]]]]:
    """(language, first two letters) → the lines' (players' word, rules' words) of that language so starting."""
    out: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    for lang, said, meant in lines():
        for word in said:
            out.setdefault((lang, word[:2]), []).append((word, meant))
    return out


@lru_cache(maxsize=4096)
def read_as(lang: str, term: str, analyse: Callable[[str, str], tuple[str, ...]]) -> tuple[str, ...]:
    """The rules' words a query word whose analysed term in ``lang`` is ``term`` is also read as: those of every line
    of ``lang`` with a players' word of that term (``analyse(lang, word)``: the language's body analysis), in order
    of first appearance, the term's own word left out. Only the players' words sharing the term's first two letters
    are analysed (a stem keeps its word's first letters: ``tests/test_search.py`` checks every players' word), so a
    query process stems a handful of words, not the table."""
    found: list[str] = []
    for word, meant in _starts().get((lang, term[:2]), ()):
        if term in analyse(lang, word):
            _add(found, [w for w in meant if analyse(lang, w) != (term,)])
    return tuple(found)


def _add(found: list[str], words: list[str]) -> None:
    found += [w for w in words if w not in found]
