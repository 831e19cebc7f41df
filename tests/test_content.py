"""The bundled content: checks clean, every example holds, every entry is bilingual and sourced."""

from __future__ import annotations

import io
from itertools import permutations

import pytest
from ruamel.yaml import YAML

from conftest import CONTENT, REPO
from kb import KnowledgeBase
from kb.core.model import Text
from kb.i18n.status import field_status

SEED_DIR = REPO.parent / "shared" / "seeds"
SEEDS = {p.name for p in SEED_DIR.glob("*.txt")} or None


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(CONTENT)


def test_bundled_content_has_no_errors(kb: KnowledgeBase) -> None:
    assert [d.format() for d in kb.diagnostics if d.severity == "error"] == []


def test_every_example_holds(kb: KnowledgeBase) -> None:
    failures = [r.diagnostic().format() for r in kb.run_examples() if not r.passed]
    assert failures == []


def test_every_field_is_translated_and_current(kb: KnowledgeBase) -> None:
    pending = [f"{st.entry} {st.field}: {st.status}" for e in kb.entries.values() for st in field_status(e)
               if st.status != "current"]
    assert pending == []


def test_every_entry_cites_a_seed_listed_by_its_game(kb: KnowledgeBase) -> None:
    for entry in kb.entries.values():
        if entry.kind == "concept":
            continue
        doc = entry.data["source"]["doc"]
        assert doc in {s["doc"] for s in kb.games[entry.game].data["sources"]}, entry.id
        if SEEDS:
            assert doc in SEEDS, entry.id


def test_files_are_stable_under_round_trip_writing() -> None:
    """Tools (translation import, ack) rewrite files with ruamel.yaml: the house style must survive it."""
    rt = YAML(typ="rt")
    rt.preserve_quotes = True
    rt.width = 4096
    rt.indent(mapping=2, sequence=4, offset=2)
    unstable = []
    for path in sorted(CONTENT.rglob("*.yaml")):
        original = path.read_bytes()
        out = io.BytesIO()
        rt.dump(rt.load(original), out)
        if out.getvalue() != original:
            unstable.append(str(path.relative_to(REPO)))
    assert unstable == []


def test_any_name_of_line_of_sight_reaches_the_same_concept(kb: KnowledgeBase) -> None:
    for name in ("LdV", "line of sight", "linea de vision", "LoS", "Línea de Visión"):
        concepts = {t.term.concept for t in kb.term(name) if t.term}
        assert concepts == {"common.line-of-sight"}, name


def test_the_concept_map_joins_the_recurring_ideas_and_every_game(kb: KnowledgeBase) -> None:
    recurring = ["engaged", "line-of-sight", "movement-points", "activation-marker", "first-player",
                 "sentry-overwatch", "initiative", "turn-sequence"]
    for slug in recurring:
        view = kb.concept(f"common.{slug}")
        assert view is not None and len(set(view.terms) | set(view.related)) >= 2, slug
    joined = {g for v in kb.concepts() for g in (*v.terms, *v.related)}
    assert joined == set(kb.games)


def test_every_game_has_its_turn_sequence_as_data(kb: KnowledgeBase) -> None:
    for game in kb.games:
        sequences = kb.filter(game=game, kind="sequence")
        assert sequences and all(s.data["sequence"]["steps"] for s in sequences), game


def test_files_parse_with_the_pure_python_parser_too() -> None:
    """libyaml accepts some flow scalars (a '?' before ',') that PyYAML's own parser rejects: content must suit both."""
    import yaml

    bad = []
    for path in sorted(CONTENT.rglob("*.yaml")):
        try:
            yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            bad.append(str(path.relative_to(REPO)))
    assert bad == []


COPY_RUN = 7  # words in a row shared with a seed that count as copying rather than restating


@pytest.mark.skipif(not SEED_DIR.is_dir(), reason="the seed texts (../shared/seeds) are not beside this checkout")
def test_spanish_is_written_in_our_own_words(kb: KnowledgeBase) -> None:
    """No Spanish text shares a run of 7 words with the seeds (case and accents ignored), read as the reader
    sees it: a link is its shown words (a bare ``{@kind id}`` the Spanish title of its target), so a sentence
    copied with a link around one of its words still counts. game.yaml and a ruling's ``authority`` cite
    titles of the source documents, so they may quote them."""
    import re

    import yaml

    from kb.core.model import iter_texts
    from kb.core.terms import fold
    from kb.view.entry import shown_links

    def titles(entry_id: str) -> Text | None:
        found = kb.get(entry_id)
        return found.title if found else None

    words = re.findall(r"\w+", " ".join(fold(p.read_text(encoding="utf-8")) for p in SEED_DIR.glob("*.txt")))
    runs = {tuple(words[i:i + COPY_RUN]) for i in range(len(words) - COPY_RUN + 1)}
    copied = []
    for path in sorted(CONTENT.rglob("*.yaml")):
        if path.name == "game.yaml":
            continue
        for where, text in iter_texts(yaml.safe_load(path.read_text(encoding="utf-8"))):
            if where == ("ruling", "authority"):
                continue  # the title of the article a ruling comes from, cited as written
            w = re.findall(r"\w+", fold(shown_links(text["es"], "es", titles)))
            if any(tuple(w[i:i + COPY_RUN]) in runs for i in range(len(w) - COPY_RUN + 1)):
                copied.append(f"{path.relative_to(REPO)} {where}")
    assert copied == []


def test_displacement_does_not_depend_on_the_order_models_are_listed(kb: KnowledgeBase) -> None:
    """The Hunt Begins: every listing order of the same square gives the same answer (issue 19)."""
    resolver = kb.registry.get("hunt-begins.displacement")
    occupants = {"power-loader-1": 2, "power-loader-2": 2, "power-loader-3": 2, "hound": 1}
    owners = {"power-loader-1": "marines", "power-loader-2": "marines", "power-loader-3": "marines", "hound": "predators"}
    for mover_points in (2, 3, 4):
        answers = {resolver.func(capacity=8, occupants={m: occupants[m] for m in order}, owners=owners,
                                 mover_points=mover_points, mover_owner="aliens").values["possible"]
                   for order in permutations(occupants)}
        assert len(answers) == 1, (mover_points, answers)


def test_the_sentry_example_names_its_own_inputs(kb: KnowledgeBase) -> None:
    """The Hunt Begins: the sentries' ``after`` (the action after which they react) is not the displacement's ``after``
    (occupancy points) that the module's shared labels gave it: the worked example read "Occupancy after 1"."""
    sentry, displacement = kb.registry.get("hunt-begins.sentry-interrupt"), kb.registry.get("hunt-begins.displacement")
    for lang in ("es", "en"):
        assert sentry.label("after", lang) != displacement.label("after", lang), lang
        assert "react" in sentry.label("after", "en")
