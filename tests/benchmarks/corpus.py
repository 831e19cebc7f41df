"""A deterministic synthetic corpus in the project's own format: N bilingual entries with links, terms, examples.

``generate(root, n, seed)`` writes ``root/<game>/...`` for ten games plus shared concepts; every
entry is valid, translated (with current hashes) and linked, so ``kb check`` reports no error and
the corpus exercises the same code paths as the real content.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kb.i18n.status import source_hash  # noqa: E402
from kb.core.model import field_key, iter_texts  # noqa: E402

ES = ("ataque movimiento disparo combate carga miniatura unidad tirada dado objetivo alcance fase turno ronda jugador "
      "acción habilidad terreno pantano bosque colina agua herida armadura escudo energía marcador iniciativa visión "
      "cobertura distancia casilla hexágono modificador resultado éxito fallo daño vida velocidad zona amenaza tropa "
      "héroe hechizo carta mazo oro maná lugar reserva despliegue coherencia puntos victoria misión").split()
EN = ("attack movement shooting combat charge model unit roll die target range phase turn round player action ability "
      "terrain swamp woods hill water wound armour shield energy marker initiative sight cover distance square hex "
      "modifier result success failure damage life speed zone threat troop hero spell card deck gold mana place "
      "reserve deployment coherency points victory mission").split()
GAMES = 10
CONCEPTS = 20


def _sentence(rng: random.Random, words: list[str], n: int) -> str:
    return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _stamp(data: dict) -> dict:
    data["i18n"] = {"en": {field_key(data, p): source_hash(t["es"]) for p, t in iter_texts(data) if "en" in t}}
    return data


def _dump(data: dict, indent: int = 0) -> str:
    """A tiny YAML writer for the generator's own plain data (mappings, lists, str, int, bool)."""
    pad = " " * indent
    lines = []
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"{pad}{key}:")
            lines.append(_dump(value, indent + 2))
        elif isinstance(value, list):
            lines.append(f"{pad}{key}:")
            for item in value:
                if isinstance(item, dict):
                    body = _dump(item, indent + 6).splitlines()
                    lines.append(f"{pad}    - {body[0].strip()}")
                    lines += body[1:]
                else:
                    lines.append(f"{pad}    - {_scalar(item)}")
        else:
            lines.append(f"{pad}{key}: {_scalar(value)}")
    return "\n".join(lines)


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _quote(str(value))


def _text(rng: random.Random, links: list[str], forms: list[tuple[str, str]], words: int) -> dict[str, str]:
    es = _sentence(rng, ES, words)
    en = _sentence(rng, EN, words)
    for target in links:
        es += f" Véase {{@rule {target}}}."
        en += f" See {{@rule {target}}}."
    for f_es, f_en in forms:
        es += f" Afecta a {f_es}."
        en += f" It affects {f_en}."
    return {"es": es, "en": en}


def generate(root: Path, n: int, seed: int = 0) -> int:
    """Write a corpus of about ``n`` entries under ``root``; returns the number of entry files."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "common" / "concepts").mkdir(parents=True, exist_ok=True)
    for c in range(CONCEPTS):
        data = {"id": f"common.concept-{c}", "kind": "concept",
                "title": {"es": f"Concepto {c}", "en": f"Concept {c}"},
                "summary": {"es": _sentence(rng, ES, 8), "en": _sentence(rng, EN, 8)}}
        (root / "common" / "concepts" / f"concept-{c}.yaml").write_text(_dump(_stamp(data)) + "\n", encoding="utf-8")
    per_game = max(n // GAMES, 12)
    written = CONCEPTS
    for g in range(GAMES):
        game = f"game-{g}"
        folder = root / game
        (folder / "rules").mkdir(parents=True, exist_ok=True)
        (folder / "terms").mkdir(parents=True, exist_ok=True)
        (folder / "game.yaml").write_text(
            f"id: {game}\nname: {{es: Juego {g}, en: Game {g}}}\nsource_language: es\nsources:\n    - doc: seed-{g}.txt\n",
            encoding="utf-8")
        n_terms = max(per_game // 10, CONCEPTS)
        terms = []
        for t in range(n_terms):
            stem_es, stem_en = f"vocablo{g}x{t}", f"word{g}x{t}"
            terms.append((stem_es, stem_en))
            data = {"id": f"{game}.term-{t}", "kind": "term", "game": game,
                    "title": {"es": stem_es.capitalize(), "en": stem_en.capitalize()},
                    "summary": {"es": _sentence(rng, ES, 10), "en": _sentence(rng, EN, 10)},
                    "source": {"doc": f"seed-{g}.txt", "section": f"§{t}"},
                    "term": {"forms": {"es": [stem_es, stem_es + "s"], "en": [stem_en, stem_en + "s"]},
                             "abbreviations": {"es": [f"V{g}X{t}"], "en": [f"W{g}X{t}"]},
                             "concept": f"common.concept-{t % CONCEPTS}",
                             "concept_note": {"es": _sentence(rng, ES, 6), "en": _sentence(rng, EN, 6)}}}
            (folder / "terms" / f"term-{t}.yaml").write_text(_dump(_stamp(data)) + "\n", encoding="utf-8")
            written += 1
        n_rules = per_game - n_terms
        for r in range(n_rules):
            links = [f"{game}.rule-{rng.randrange(n_rules)}" for _ in range(rng.randint(0, 2))]
            used = [terms[rng.randrange(len(terms))] for _ in range(rng.randint(1, 2))]
            data = {"id": f"{game}.rule-{r}", "kind": "rule", "game": game,
                    "title": {"es": _sentence(rng, ES, 3)[:-1], "en": _sentence(rng, EN, 3)[:-1]},
                    "summary": {"es": _sentence(rng, ES, 14), "en": _sentence(rng, EN, 14)},
                    "text": _text(rng, links, used, 60),
                    "source": {"doc": f"seed-{g}.txt", "section": f"§{r}"}}
            if r % 3 == 0:
                target, roll = rng.randint(5, 15), rng.randint(1, 20)
                data["examples"] = [{"id": "check", "title": {"es": "Chequeo", "en": "Check"},
                                     "mechanic": "check.roll-under", "given": {"target": target, "roll": roll},
                                     "expect": {"success": roll <= target}, "probability": f"{target}/20"}]
            (folder / "rules" / f"rule-{r}.yaml").write_text(_dump(_stamp(data)) + "\n", encoding="utf-8")
            written += 1
    return written


if __name__ == "__main__":  # python tests/benchmarks/corpus.py DIR N
    print(generate(Path(sys.argv[1]), int(sys.argv[2])), "files")
