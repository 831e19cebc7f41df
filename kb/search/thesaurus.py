"""The players' words for the rules' words, in both languages: a thesaurus read at query time (issue 31).

Players describe a situation in everyday words ("pegar un tiro", "quitarse de encima", "give up the phase")
where the rules use their own ("disparar", "retirarse", "pass"). Each line of :data:`TEXT` is
``lang: players' words -> rules' words``: a query word whose analysed term (the language's body analysis) is
the term of one of the players' words is looked up, besides itself, as each of the rules' words, in that
language's fields only, at :attr:`kb.search.ranking.Params.thesaurus_weight` of the field's weight, in the
word's own slot (a word met by its synonym counts as matched). One way only: the rules' words are not
widened back. General table-top vocabulary only: no game, faction or unit is named here (the engine knows no
game); a game's own players' names belong to its entries' ``also_called``.

A pack adds its own lines, in the same format, in ``content/thesaurus.txt`` (:data:`PACK_FILE`, docs/packs.md): read
after the engine's (:func:`pack_lines`, kept in the index's ``meta.json``), checked by ``kb check`` (:func:`check`).

The browser reads the same table from the exported data, resolved word by word for the word list's keys
(:func:`kb.search.export`), so the API and the site agree query by query.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from kb.core.diagnostics import Diagnostic, diag, hint
from kb.core.model import LANGS, Entry, Location, iter_texts

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


Line = tuple[str, tuple[str, ...], tuple[str, ...]]
"""One line of a table: (language, players' words, rules' words), words folded."""
PACK_FILE = "thesaurus.txt"
"""A pack's own lines, in the content folder (``content/thesaurus.txt``), added to :data:`TEXT` (docs/packs.md)."""


def parse(text: str) -> list[tuple[int, str, Line | None]]:
    """Each line of ``text`` that says something, as (line number, the line, its :data:`Line` or ``None`` when it is
    not ``lang: words -> words``); blank lines and ``#`` comments are left out. The language is not checked."""
    out: list[tuple[int, str, Line | None]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((number, line, _line(line)))
    return out


def _line(line: str) -> Line | None:
    from kb.core.terms import fold

    def words(side: str) -> tuple[str, ...]:
        return tuple(fold(w.strip().lower()) for w in side.split(",") if w.strip())

    lang, colon, rest = line.partition(":")
    said, arrow, meant = rest.partition("->")
    found = (lang.strip(), words(said), words(meant))
    return found if colon and arrow and "->" not in meant and all(found) else None


def lines(extra: tuple[Line, ...] = ()) -> list[Line]:
    """:data:`TEXT` as (language, players' words, rules' words), words folded; then a pack's ``extra`` lines."""
    return [found for _, _, found in parse(TEXT) if found] + list(extra)


@lru_cache(maxsize=8)
def _starts(extra: tuple[Line, ...] = ()) -> dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]]:
    """(language, first two letters) → the lines' (players' word, rules' words) of that language so starting."""
    out: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
    for lang, said, meant in lines(extra):
        for word in said:
            out.setdefault((lang, word[:2]), []).append((word, meant))
    return out


@lru_cache(maxsize=4096)
def read_as(lang: str, term: str, analyse: Callable[[str, str], tuple[str, ...]],
            extra: tuple[Line, ...] = ()) -> tuple[str, ...]:
    """The rules' words a query word whose analysed term in ``lang`` is ``term`` is also read as: those of every line
    of ``lang`` with a players' word of that term (``analyse(lang, word)``: the language's body analysis), in order
    of first appearance (the engine's lines, then a pack's ``extra`` lines), the term's own word left out. Only the
    players' words sharing the term's first two letters are analysed (a stem keeps its word's first letters:
    ``tests/test_search.py`` checks every players' word), so a query process stems a handful of words, not the table."""
    found: list[str] = []
    for word, meant in _starts(extra).get((lang, term[:2]), ()):
        if term in analyse(lang, word):
            _add(found, [w for w in meant if analyse(lang, w) != (term,)])
    return tuple(found)


def _add(found: list[str], words: list[str]) -> None:
    found += [w for w in words if w not in found]


def pack_lines(root: Path) -> tuple[Line, ...]:
    """The lines of a pack's :data:`PACK_FILE` in the content folder ``root`` that :func:`check` finds well formed
    and of a known language (none when there is no such file, or it cannot be read)."""
    try:
        text = (root / PACK_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    return tuple(found for _, _, found in parse(text) if found and found[0] in LANGS)


def from_data(lines: list[list[Any]]) -> tuple[Line, ...]:
    """:func:`pack_lines` from the JSON it was written as (a generation's ``meta.json``)."""
    return tuple((lang, tuple(said), tuple(meant)) for lang, said, meant in lines)


def said_words(extra: Iterable[Line]) -> frozenset[str]:
    """The word list's keys of a pack's players' words: its own words (slang no word list holds), held as the
    glossary's are, in the API and the browser alike."""
    from kb.search.words import glossary_words

    return glossary_words(said for _, said, _ in extra)


def check(root: Path, entries: Iterable[Entry], analyse: Callable[[str, str], Iterable[str]]) -> list[Diagnostic]:
    """The problems of a pack's :data:`PACK_FILE`, each at its line: a line not ``lang: words -> words``, an unknown
    language, a players' word listed twice, a rules' word no entry's text of that language holds (``analyse``: the
    language's body analysis; such a word can never match)."""
    path = root / PACK_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        return [diag("unreadable", Location(path), reason=getattr(exc, "strerror", None) or str(exc))]
    held: dict[str, set[str]] | None = None
    seen: dict[tuple[str, str], int] = {}
    out: list[Diagnostic] = []
    for number, line, found in parse(text):
        at = Location(path, number)
        if found is None or found[0] not in LANGS:
            out.append(_malformed(at, line, found))
            continue
        held = held if held is not None else _held(entries, analyse)
        out += _repeated(at, found, seen)
        out += [diag("thesaurus-unused", at, lang=found[0], word=w) for w in found[2] if not held[found[0]] & set(analyse(found[0], w))]
    return out


def _malformed(at: Location, line: str, found: Line | None) -> Diagnostic:
    if found is None:
        return diag("thesaurus-line", at, line=line.strip())
    return diag("thesaurus-language", at, lang=found[0], valid=", ".join(LANGS), hint=hint(found[0], LANGS))


def _repeated(at: Location, found: Line, seen: dict[tuple[str, str], int]) -> list[Diagnostic]:
    """A players' word of ``found`` already listed (``seen``: (language, word) → its first line, updated)."""
    out = []
    for i, word in enumerate(found[1]):
        first = seen.setdefault((found[0], word), at.line)
        if first != at.line or word in found[1][:i]:
            out.append(diag("thesaurus-duplicate", at, lang=found[0], word=word, first=first))
    return out


def _held(entries: Iterable[Entry], analyse: Callable[[str, str], Iterable[str]]) -> dict[str, set[str]]:
    """Each language's analysed terms of the entries' texts, players' names and term forms."""
    chunks: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for entry in entries:
        for lang, value in _texts(entry):
            chunks.get(lang, set()).update(value.split())  # analysed chunk by chunk: the distinct ones once
    return {lang: {t for chunk in chunks[lang] for t in analyse(lang, chunk)} for lang in LANGS}


def _texts(entry: Entry) -> list[tuple[str, str]]:
    """(language, text) of each of an entry's texts, players' names and term forms."""
    texts = [(lang, value) for _, text in iter_texts(entry.data) for lang, value in text.items()]
    return texts + [(lang, said) for lang in LANGS for said in _names(entry, lang)]


def _names(entry: Entry, lang: str) -> tuple[str, ...]:
    forms = entry.term.forms.get(lang, ()) if entry.term else ()
    return (*entry.also_called(lang), *forms)
