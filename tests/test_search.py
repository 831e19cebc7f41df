"""Search: analysis, glossary expansion, typos, filters, and an index that stays fresh and whole."""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import SAMPLE, cli
from kb import KnowledgeBase
from kb.search.index import MAX_QUERY, Expander, SearchIndex


@pytest.fixture
def root(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    return tree(SAMPLE, games=("g", "h"))


def ids(result) -> list[str]:
    return [h.id for h in result.hits]


def test_accents_case_and_stemming(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    assert ids(kb.search("LINEA DE VISION"))[0] in ("g.line-of-sight", "common.line-of-sight")
    assert ids(kb.search("disparos"))[0] == "g.shoot"       # plural finds the singular (Spanish stem)
    assert ids(kb.search("shooting", lang="en"))[0] == "g.shoot"


def test_abbreviations_and_cross_language_through_the_glossary(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    assert "g.shoot" in ids(kb.search("LoS"))             # the Spanish text says LdV
    assert ids(kb.search("engaged", lang="es"))[:1] == ["g.engaged"]  # English word, Spanish text only
    assert "h.melee" in ids(kb.search("enzarzado"))


def test_lowercase_article_is_not_an_abbreviation(root: Path) -> None:
    expand = Expander({"groups": [["LoS", "line of sight"]], "abbreviations": ["LoS"]})
    assert expand.alternatives("los disparos") == []
    assert expand.alternatives("LoS") == ["line of sight"]
    assert expand.alternatives("la LoS y el alcance") == ["line of sight"]


def test_typos_give_did_you_mean_then_fuzzy(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    result = kb.search("dispraar")
    assert result.did_you_mean == "disparar" and ids(result)[0] == "g.shoot"
    assert kb.search("cuerpo a cuerpo").did_you_mean is None


def test_filters_and_counts_by_game(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    both = kb.search("melee")
    assert set(both.by_game) == {"g", "h"}
    assert {h.game for h in kb.search("melee", game="h").hits} == {"h"}
    assert {h.kind for h in kb.search("melee", kind="term").hits} <= {"term"}
    assert [h.title for h in kb.search("cuerpo a cuerpo", lang="en").hits][:1] == ["Melee"]


def test_with_no_language_asked_the_hits_speak_the_querys_language(root: Path) -> None:
    """No ``lang``: titles, snippets and passages in the language most of the query's words are words of (an English
    question is not answered in Spanish), Spanish when the words do not say; ``lang`` given wins."""
    kb = KnowledgeBase.load(root)
    english = kb.search("how does shooting work").hits[0]
    assert (english.id, english.title, english.lang) == ("g.shoot", "Shooting", "en")
    assert "engaged model" in english.snippet and english.passage and "engaged model" in english.passage.text
    spanish = kb.search("como funcionan los disparos").hits[0]
    assert (spanish.id, spanish.title, spanish.lang) == ("g.shoot", "Disparar", "es")
    assert kb.search("how does shooting work", lang="es").hits[0].title == "Disparar"
    assert kb.search("LoS").hits[0].lang == "es"  # says no language: Spanish, the source's
    code, out, _ = cli("search", "how does shooting work")
    assert code == 0 and out.startswith("1. Shooting  [g · rule]  g.shoot")


def test_snippets_mark_the_matched_words(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    hit = kb.search("trabada")
    assert any("**" in h.snippet for h in hit.hits)


def test_cli_json_and_text(root: Path) -> None:
    code, out, _ = cli("search", "disparar", "--json")
    data = json.loads(out)
    assert code == 0 and data["hits"][0]["id"] == "g.shoot"
    assert set(data["hits"][0]) >= {"id", "game", "kind", "title", "score", "snippet"}
    assert set(data) == {"query", "did_you_mean", "total", "by_game", "hits"} and data["query"] == "disparar"
    code, out, _ = cli("search", "disparar", "--lang", "en")
    assert out.startswith("1. Shooting  [g · rule]  g.shoot")
    code, out, _ = cli("search", "zzzzqqq")
    assert code == 0 and out == 'no results for "zzzzqqq": try fewer words, a rule\'s name, or the other language\n'
    for empty in ("", "  ", "¿?"):  # nothing to look for: a usage error that says why, not "no results"
        code, out, err = cli("search", empty)
        assert code == 2 and out == "" and "nothing to look for" in err
    code, _, err = cli("search", "x" * (MAX_QUERY + 10))
    assert code == 0 and "query cut" in err


def test_cli_names_the_files_whose_entries_it_cannot_search(root: Path) -> None:
    """A file that does not parse gives no entry to the index: ``kb search`` says which, as ``kb check`` does, and
    exits 1 after the results of the rest, on the run that builds the index and on the next, which finds it fresh;
    once the file is mended, no warning and exit 0."""
    path = root / "h/rules/melee.yaml"
    good = path.read_text(encoding="utf-8")
    path.write_text(good.replace("title:", "title: [unclosed", 1), encoding="utf-8")
    check = [line for line in cli("check")[1].splitlines() if line.startswith("content/h/rules/melee.yaml:")]
    assert check and "error[" in check[0]
    for _ in range(2):
        code, out, err = cli("search", "melee", "--json")
        assert code == 1 and "h.melee" not in out and "g.melee" in out
        assert check[0] in err.splitlines(), err
        assert "1 file(s) do not load" in err and "Traceback" not in err
    path.write_text(good, encoding="utf-8")
    code, out, err = cli("search", "melee", "--json")
    assert code == 0 and "h.melee" in out and "do not load" not in err and "error" not in err


def test_built_on_first_use_then_fresh_without_loading(root: Path) -> None:
    index = SearchIndex(root)
    assert index.changes()[0] == "missing"
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "built"
    assert index.ensure(lambda: pytest.fail("a fresh index must not load the content")) == "fresh"


def test_editing_one_file_reindexes_only_what_changed(root: Path) -> None:
    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root))
    path = root / "h/rules/melee.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("pelea", "pelea con garras"), encoding="utf-8")
    assert index.changes() == ("stale", {"h/rules/melee.yaml"})
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "updated"
    assert index.changes()[0] == "fresh"
    assert ids(index.search("garras")) == ["h.melee"]
    (root / "h/rules/melee.yaml").unlink()
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "updated"
    assert "h.melee" not in ids(index.search("garras"))


def test_touching_a_file_without_changing_it_keeps_the_index_fresh(root: Path) -> None:
    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root))
    os.utime(root / "g/rules/shoot.yaml", (1, 1))
    assert index.changes()[0] == "fresh"


EDITED_QUERIES = ["luchan", "combaten", "miniaturas trabadas", "engaged models fight", "models battle", "melee",
                  "cuerpo a cuerpo", "melé", "pelea", "enzarzado", "locked in combat", "LdV", "LoS", "línea de visión",
                  "disparar", "trabado", "unidad", "fights", "batle", "combate", "lucha trabada"]
"""Queries touching the words an edit changes or deletes (:func:`test_an_updated_index_ranks_as_a_fresh_build`)."""


@pytest.mark.parametrize("fast", [False, True])
def test_an_updated_index_ranks_as_a_fresh_build(root: Path, tmp_path: Path, fast: bool) -> None:
    """After edits, an updated index answers every query (ids, order, scores, snippets, corrections) and exports the
    browser's data exactly as an index built afresh from the same content: deleted documents counted in ``N`` and the
    document frequencies, or documents renumbered, would make the ranking depend on the editing history."""
    from kb.search.export import export

    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root), fast=fast)
    edited = root / "g/rules/melee.yaml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("luchan", "combaten").replace("fight", "battle"),
                      encoding="utf-8")
    (root / "h/rules/melee.yaml").unlink()
    assert index.ensure(lambda: KnowledgeBase.load(root), fast=fast) == "updated"
    fresh = SearchIndex(root, tmp_path / "fresh")
    assert fresh.ensure(lambda: KnowledgeBase.load(root), fast=fast) == "built"
    updated_reader, fresh_reader = index.open(fast=fast), fresh.open(fast=fast)
    for q in EDITED_QUERIES:
        for lang in (None, "es", "en"):
            assert updated_reader.search(q, lang=lang).to_dict() == fresh_reader.search(q, lang=lang).to_dict(), (q, lang)
    assert "h.melee" not in ids(updated_reader.search("melé")) and ids(updated_reader.search("combaten"))[0] == "g.melee"
    if not fast:  # the site's search data, exported from the reader the build keeps open
        from kb.places import user_key

        words = Path(__file__).resolve().parents[1] / ".kb-cache" / "search-words"  # the common words' analysis, kept
        for lang in ("es", "en"):
            assert (export(updated_reader, lang, lambda i: i, {"g": "G"}, cache=words, key=user_key)
                    == export(fresh_reader, lang, lambda i: i, {"g": "G"}, cache=words, key=user_key)), lang


def test_an_index_another_engine_wrote_is_rebuilt(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is the engine's output as much as the content's: new code that reads or writes documents differently
    (an analyser, a field, the glossary's groups) never serves an index the old code wrote. The engine's files only
    touched (a checkout: new times, same bytes) keep it fresh."""
    from kb.core import cache

    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root))
    monkeypatch.setattr(cache, "engine_stamp", lambda: "touched")
    assert index.changes()[0] == "fresh"
    monkeypatch.setattr(cache, "code_version", lambda: "another engine")
    assert index.changes()[0] == "missing"
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "built"
    assert index.changes()[0] == "fresh" and ids(index.search("disparar"))[0] == "g.shoot"


def test_a_corrupt_index_is_rebuilt_never_served(root: Path) -> None:
    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root))
    gen = index.current.resolve()
    for f in gen.glob("*.seg"):
        f.write_bytes(b"garbage")
    for f in gen.glob("_MAIN_*.toc"):
        f.write_bytes(b"\x00broken")
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "built"
    assert ids(index.search("disparar"))[0] == "g.shoot"


def test_a_missing_generation_is_rebuilt(root: Path) -> None:
    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root))
    shutil.rmtree(index.current.resolve())
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "built"


def test_the_index_lives_outside_the_content(root: Path, tmp_path: Path) -> None:
    from kb.core.cache import cache_dir

    index = SearchIndex(root, cache_dir(root, "search", tmp_path / "cache"))  # the caller passes the cache folder
    index.ensure(lambda: KnowledgeBase.load(root))
    assert index.dir.is_relative_to(tmp_path / "cache")
    assert not any(p.suffix in (".seg", ".toc") for p in root.rglob("*"))


def test_a_term_wins_only_when_the_query_is_the_term(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    assert ids(kb.search("trabado"))[0] == "g.engaged"               # the query is the term's name
    assert ids(kb.search("LdV"))[0] in ("g.line-of-sight", "h.locked")
    assert ids(kb.search("¿puedo disparar estando trabado?"))[0] == "g.shoot"  # the rule that answers


CONTEXT = {
    "g/rules/charge.yaml": """\
        id: g.charge
        kind: rule
        game: g
        title: {es: Carga, en: Charge}
        text: {es: Una carga mueve y ataca., en: A charge moves and attacks.}
        source: {doc: seed.txt, section: Carga}
        """,
    "h/rules/charge.yaml": """\
        id: h.charge
        kind: rule
        game: h
        title: {es: Carga, en: Charge}
        text: {es: Una carga mueve y ataca., en: A charge moves and attacks.}
        source: {doc: seed.txt, section: Carga}
        """,
    "h/terms/bug.yaml": """\
        id: h.bug
        kind: term
        game: h
        title: {es: Bicho, en: Bug}
        summary: {es: Una criatura., en: A creature.}
        source: {doc: seed.txt, section: Bichos}
        term:
          forms: {es: [bicho, bichos], en: [bug, bugs]}
        """,
}


def test_the_query_words_set_the_game_context(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree(CONTEXT, games=("g", "h")))
    for text in ("carga con mis bichos", "my bug wants to charge"):
        result = kb.search(text)
        assert result.context == "h" and ids(result)[0] == "h.charge", text
    assert kb.search("carga").context is None
    assert ids(kb.search("carga con mis bichos", game="g")) == ["g.charge"]  # a filter overrides the context


NAMED = {**CONTEXT, "h/rules/charge-bugs.yaml": """\
        id: h.charge-bugs
        kind: rule
        game: h
        title: {es: Carga de bichos, en: Bug charge}
        text: {es: Los bichos cargan en manada; una carga de bichos mueve el doble., en: Bugs charge in packs; a bug charge moves twice as far.}
        source: {doc: seed.txt, section: Carga}
        """}


def test_the_game_named_in_the_query_counts_like_a_filter(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.search import ranking

    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree(NAMED, games=("g", "h"))
    for game, name in (("g", "Zorgon Wars"), ("h", "Blipper")):
        (root / game / "game.yaml").write_text(f"id: {game}\nname: {{es: {name}, en: {name}}}\nsource_language: es\n"
                                               "sources:\n  - doc: seed.txt\n", encoding="utf-8")
    kb = KnowledgeBase.load(root)
    assert ids(kb.search("carga de bichos"))[0] == "h.charge-bugs"          # no game named: the best match
    result = kb.search("carga de bichos en zorgon")                        # the query names g: g's entry first
    assert result.context == "g" and ids(result)[0] == "g.charge"
    assert ids(kb.search("carga de bichos en zorgon", game="h"))[0] == "h.charge-bugs"  # a filter overrides it
    assert set(kb.search("carga de bichos en zorgon").by_game) == {"g"}      # like a filter
    assert ids(kb.search("bichos en zorgon"))[0] == "h.bug"                 # unless nothing of the game matches
    monkeypatch.setattr(ranking, "named_games", lambda *_: frozenset())      # without the rule the other game's match wins
    assert ids(kb.search("carga de bichos en zorgon"))[0] == "h.charge-bugs"


def test_the_words_naming_the_game_are_not_searched(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's name in a query chose the game (it filters); its words are not searched too: an entry that only
    says the game's name does not match "carga de bichos en zorgon" (issue 31, ranking.searched_words)."""
    from kb.search import ranking

    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = {**NAMED, "g/rules/lore.yaml": NAMED["g/rules/charge.yaml"].replace("g.charge", "g.lore")
             .replace("{es: Carga, en: Charge}", "{es: Historia, en: Lore}")
             .replace("{es: Una carga mueve y ataca., en: A charge moves and attacks.}", "{es: Zorgon es un planeta., en: Zorgon is a planet.}")}
    root = tree(files, games=("g", "h"))
    for game, name in (("g", "Zorgon Wars"), ("h", "Blipper")):
        (root / game / "game.yaml").write_text(f"id: {game}\nname: {{es: {name}, en: {name}}}\nsource_language: es\n"
                                               "sources:\n  - doc: seed.txt\n", encoding="utf-8")
    kb = KnowledgeBase.load(root)
    result = kb.search("carga de bichos en zorgon")
    assert ids(result)[0] == "g.charge" and "g.lore" not in ids(result)
    assert ids(kb.search("zorgon"))[0] == "g.lore"  # nothing else left: the name is searched
    monkeypatch.setattr(ranking, "searched_words", lambda words, *_: list(range(len(words))))  # every word searched
    assert "g.lore" in ids(kb.search("carga de bichos en zorgon"))


GENERAL = {
    "common/concepts/wumbling.yaml": """\
        id: common.wumbling
        kind: concept
        title: {es: Wumbleo, en: Wumbling}
        summary: {es: Quandle wumble., en: Quandle wumble.}
        """,
    "g/terms/wumbling.yaml": """\
        id: g.wumbling
        kind: term
        game: g
        title: {es: Wumbleo g, en: Wumbling g}
        source: {doc: seed.txt, section: S}
        term:
          forms: {es: [wumbleo g], en: [wumbling g]}
          concept: common.wumbling
        """,
    "g/rules/wumble.yaml": """\
        id: g.wumble
        kind: rule
        game: g
        title: {es: Regla, en: Rule}
        text: {es: Quandle wumble zorp zorp zorp zorp., en: Quandle wumble zorp zorp zorp zorp.}
        source: {doc: seed.txt, section: S}
        """,
    "g/rules/games.yaml": """\
        id: g.games
        kind: rule
        game: g
        title: {es: Otra, en: Other}
        text: {es: En los juegos se juega., en: Games are played.}
        source: {doc: seed.txt, section: S}
        """,
}


def test_a_query_that_speaks_of_games_in_general_finds_the_concept(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"... en los juegos", "... in general" (ranking.speaks_generally, issue 31): the concept, the idea every game
    shares, outranks one game's rule with the same words (ranking.Params.general_prior); the words that said so are
    not searched. Without those words the rule wins (the concept's kind prior)."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree({**GENERAL, **CONTEXT}, games=("g", "h")))
    assert ids(kb.search("quandle wumble", lang="es"))[0] == "g.wumble"
    assert kb.search("carga con mis bichos").context == "h" and kb.search("carga con mis bichos en los juegos").context is None
    result = kb.search("quandle wumble en los juegos", lang="es")
    assert ids(result)[0] == "common.wumbling" and "g.games" not in ids(result)
    assert ids(kb.search("quandle wumble in general", lang="en"))[0] == "common.wumbling"
    assert ids(kb.search("quandle wumble en los juegos", lang="es", game="g"))[0] == "g.wumble"  # a game filter says otherwise
    prior = kb.search_reader().params.kind_prior
    assert ids(_variant(kb, general_prior=prior).search("quandle wumble en los juegos", lang="es"))[0] == "g.wumble"
    assert "g.games" in ids(_variant(kb, general_words=frozenset()).search("quandle wumble en los juegos", lang="es"))


MARKERS = {
    "common/concepts/marker.yaml": """\
        id: common.marker
        kind: concept
        title: {es: Marcador, en: Marker}
        summary: {es: Una ficha que se pone en la mesa., en: The turn marker is a token put on the table to track turns.}
        also_called: {en: [turn marker token, turn marker tile]}
        typed: {en: [turn marker, where does the turn marker go, turn marker token, who moves the turn marker, turn marker rules]}
        """,
    "g/terms/turn-marker.yaml": """\
        id: g.turn-marker
        kind: term
        game: g
        title: {es: Marcador de turno, en: Turn marker}
        source: {doc: seed.txt, section: S}
        term:
          forms: {es: [marcador de turno], en: [turn marker]}
          concept: common.marker
        """,
    **{f"{game}/terms/token.yaml": f"""\
        id: {game}.token
        kind: term
        game: {game}
        title: {{es: {es}, en: {en}}}
        source: {{doc: seed.txt, section: S}}
        term:
          forms: {{es: [{es.lower()}], en: [{en.lower()}]}}
          concept: common.marker
        """ for game, es, en in (("g", "Ficha", "Token"), ("h", "Fichas", "Tokens"))},
}


def test_one_games_title_names_its_term_a_title_games_share_names_the_concept(tree, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A query that is the whole title of one game's term ("turn marker", "first player marker") asks for that term,
    not for the concept that groups it with other games' terms: only the titles that two games or more give their
    terms (in any inflection: «Ficha», «Fichas») make the concept's name an exact one (issue 31)."""
    from kb.search.ranking import name_key

    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree(MARKERS, games=("g", "h")))
    assert ids(kb.search("turn marker", lang="en"))[0] == "g.turn-marker"  # the concept's words would win on their own
    names = kb.search_reader().meta.names
    assert names[name_key("Turn marker")] == ["g.turn-marker"]
    assert "common.marker" in names[name_key("Fichas")] and "common.marker" in names[name_key("Token")]
    assert "common.marker" in ids(kb.search("turn marker", lang="en"))  # still found, by its names and typed lines


def test_spelling_never_replaces_a_known_word(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    assert kb.search("tengo que disparar").did_you_mean is None  # "tengo" is Spanish, though not in the index
    assert kb.search("untap").did_you_mean is None                # an English word
    result = kb.search("dispraar a un enemigo")
    assert result.did_you_mean == "disparar a un enemigo" and ids(result)[0] == "g.shoot"


def test_unknown_language_and_game_name_the_accepted_ones(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree({"malifaux/rules/charge.yaml": CONTEXT["g/rules/charge.yaml"].replace("g.", "malifaux.").replace("game: g", "game: malifaux")},
                games=("malifaux",))
    kb = KnowledgeBase.load(root)
    with pytest.raises(ValueError, match="unknown language 'fr'; one of: en, es"):
        kb.search("carga", lang="fr")
    with pytest.raises(ValueError, match="unknown game 'malifux'; did you mean 'malifaux'"):
        kb.search("carga", game="malifux")
    code, _, err = cli("--content", str(root), "search", "carga", "--game", "malifux")
    assert code == 2 and "unknown game 'malifux'; did you mean 'malifaux'?" in err
    code, _, err = cli("--content", str(root), "search", "carga", "--lang", "fr")
    assert code == 2 and "choose from 'es', 'en'" in err


def test_a_long_lived_knowledge_base_survives_another_process_rebuilding(root: Path) -> None:
    import subprocess
    import sys

    kb = KnowledgeBase.load(root)
    assert ids(kb.search("disparar"))[0] == "g.shoot"
    code = ("import os, shutil, sys; from kb import KnowledgeBase; from kb.search.index import SearchIndex; "
            "from kb.core.cache import cache_dir; "
            "ix = SearchIndex(sys.argv[1], cache_dir(sys.argv[1], 'search', os.environ.get('KB_CACHE'))); "
            "shutil.rmtree(ix.current.resolve()); "
            "print(ix.ensure(lambda: KnowledgeBase.load(sys.argv[1])))")
    out = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True, env=os.environ)
    assert out.stdout.strip() == "built"
    assert ids(kb.search("disparar"))[0] == "g.shoot"   # reopened the new generation, no EmptyIndexError
    assert ids(kb.search("melee", game="h"))[0] == "h.melee"


def test_a_malformed_sequence_step_is_indexed_without_crashing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`allows` holding a number (the schema reports it) used to stop the index build with a TypeError."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).parent / "fixtures" / "site" / "content", content)
    turn = content / "mini" / "sequences" / "turn.yaml"
    text = turn.read_text(encoding="utf-8")
    assert "allows: [" in text
    turn.write_text(text.replace("allows: [", "allows: [7, ", 1), encoding="utf-8")
    kb = KnowledgeBase.load(content)
    assert any(d.severity == "error" and "turn.yaml" in d.format() for d in kb.diagnostics)
    assert "mini.turn-sequence" in ids(kb.search("turno"))


def test_typed_spellings_are_searched_but_never_shown(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = dict(SAMPLE)
    files["g/rules/melee.yaml"] = textwrap.dedent(SAMPLE["g/rules/melee.yaml"]) + (
        "questions: {es: ['¿Puedo huir de un combate?'], en: ['Can I leave a melee?']}\n"
        "typed: {es: [zarpazo fantasmal], en: [ghostly swipe]}\n")
    root = tree(files, games=("g", "h"))
    code, out, err = cli("check", str(root))
    assert code == 0 and "typed" not in out, out + err  # the field is known to the schema
    kb = KnowledgeBase.load(root)
    assert ids(kb.search("zarpazo fantasmal"))[0] == "g.melee"
    assert ids(kb.search("ghostly swipe", lang="en"))[0] == "g.melee"
    assert ids(kb.search("huir de un combate"))[0] == "g.melee"
    for lang in ("es", "en"):
        shown = cli("show", "g.melee", "--lang", lang)[1]
        assert "Puedo huir" in shown or "leave a melee" in shown
        assert "zarpazo" not in shown and "ghostly" not in shown


def test_a_word_the_index_does_not_hold_does_not_sink_the_query(root: Path) -> None:
    """Coordination counts only words some document holds (issue 31): adding a known English word that
    appears nowhere ("xylophone": never corrected, matches nothing) leaves every score as it was."""
    kb = KnowledgeBase.load(root)
    plain = [(h.id, h.score) for h in kb.search("disparar alcance", lang="es").hits]
    noisy = [(h.id, h.score) for h in kb.search("disparar alcance xylophone", lang="es").hits]
    assert plain and noisy == plain
    # a word the list holds (the index has it as written) whose terms no field holds: "Las", capitalised, is a name to
    # the names field (stop words kept there), and no name of this tree says "las"
    assert [(h.id, h.score) for h in kb.search("Las disparar alcance", lang="es").hits] == plain


def test_a_query_on_a_fresh_index_imports_no_builder_module(root: Path) -> None:
    """Issue 31: `kb search` on an index that is up to date imports neither the entry view (and jsonschema
    with it) nor filelock (and asyncio): only what a query needs; nor, since the fifth pass, RapidFuzz or the examples'
    limits (with signal and threading)."""
    import subprocess
    import sys

    import io

    from kb.cli.main import run

    KnowledgeBase.load(root).search("disparar")  # build the index
    assert run(["--content", str(root), "search", "disparar"], io.StringIO(), io.StringIO()) == 0  # its compact store
    unwanted = ("jsonschema", "filelock", "asyncio", "kb.view.entry", "kb.mechanics", "babel", "yaml", "wordfreq",
                "importlib.metadata", "platformdirs", "logging", "rapidfuzz",
                "kb.examples.limits", "threading", "signal")  # issue 31, fifth pass
    for query in ("disparar", "disparar zorbluk casa"):  # the second: words the index lacks, one a real word, one a typo
        probe = ("import sys, io; from kb.cli.main import run; "
                 f"code = run(['--content', {str(root)!r}, 'search', {query!r}], io.StringIO(), io.StringIO()); "
                 f"print(code, sorted(m for m in {unwanted!r} if m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split(None, 1)
        assert out == ["0", "[]\n"], (query, out)


def test_the_word_lists_file_answers_as_wordfreq(root: Path) -> None:
    """Issue 31: a generation's ``words.txt`` gives what ``wordfreq``'s own lists give (common, languages at the
    spelling guard's threshold and above); below its floor, or when the file is damaged or gone, ``wordfreq`` is asked."""
    from kb.search import words as wl
    from kb.search.index import WORDS

    kb = KnowledgeBase.load(root)
    kb.search("disparar")
    path = kb.search_reader().current.resolve() / WORDS
    common = wl.common_words()
    sample = sorted(set().union(*common.values()))[::97] + sorted(set().union(*wl.real_words(3.0).values()))[::53]
    sample += ["casa", "the", "tengo", "zorbluk", "breech", "frist", "a\tb", ""]
    for lists in (wl.Lists(path), wl.Lists(root / "missing.txt"), wl.Lists()):
        for zipf in (3.0, 4.2, 2.0):
            real = wl.real_words(zipf)
            for k in sample:
                assert lists.languages(k, zipf) == [lg for lg in ("es", "en") if k in real[lg]], (k, zipf, lists.path)
                assert lists.common(k) == any(k in c for c in common.values()), k
    read = wl.Lists(path)
    assert read._lines() and read.floor == 3.0  # the file was read, not wordfreq
    path.write_text("kb-words/1\t3.0\t1\tforeign\ncasa\t9.99\t\t1\n", encoding="utf-8")  # another wordfreq's
    assert not wl.Lists(path)._lines() and wl.Lists(path).languages("zorbluk", 3.0) == []


def _rules(words: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Rule files of game ``g``: id → (title, text), the same in both languages."""
    return {f"g/rules/{k}.yaml": (f"id: g.{k}\nkind: rule\ngame: g\ntitle: {{es: {t}, en: {t}}}\n"
                                  f"text: {{es: {x}, en: {x}}}\nsource: {{doc: seed.txt, section: S}}\n")
            for k, (t, x) in words.items()}


@pytest.fixture
def features(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KnowledgeBase:
    """A corpus where each ranking feature alone decides one comparison (issue 31: a test per feature)."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = _rules({
        "rare": ("Alfa", "zorbix wumble."), "common": ("Beta", "quandle wumble."),  # IDF
        **{f"filler{i}": (f"Relleno{i}", "quandle wumble.") for i in range(4)},
        "short": ("Gamma", "frobnic wumble."),                                       # length normalisation
        "long": ("Delta", "frobnic " + " ".join(f"palabra{i}" for i in range(20)) + "."),
        "titled": ("Glorp Tanto", "wumble."), "bodied": ("Otro", "glorp glorp glorp wumble."),  # field weights
        "both": ("Epsilon", "glorp zorbix wumble."),                                 # coordination
    })
    return KnowledgeBase.load(tree(files, games=("g",)))


def _score(kb: KnowledgeBase, query: str, entry: str) -> float:
    return next(h.score for h in kb.search(query, lang="es", limit=50).hits if h.id == entry)


def _variant(kb: KnowledgeBase, **changes: object) -> KnowledgeBase:
    """The same knowledge base whose search ranks with some of the tuned figures changed (ranking.Params)."""
    from dataclasses import replace

    from kb.search.ranking import DEFAULTS

    return KnowledgeBase.load(kb.root, ranking=replace(DEFAULTS, **changes))


def test_idf_a_rare_word_weighs_more_than_a_common_one(features: KnowledgeBase, monkeypatch) -> None:
    from kb.search import ranking
    assert _score(features, "zorbix quandle", "g.rare") > _score(features, "zorbix quandle", "g.common") * 1.2
    monkeypatch.setattr(ranking, "idf", lambda n, df: 1.0)  # the same comparison without IDF is a tie
    assert _score(features, "zorbix quandle", "g.rare") == pytest.approx(_score(features, "zorbix quandle", "g.common"))


def test_length_normalisation_a_short_text_beats_a_long_one(features: KnowledgeBase) -> None:
    assert _score(features, "frobnic", "g.short") > _score(features, "frobnic", "g.long") * 1.2
    flat = _variant(features, bm25_b={k: 0.0 for k in features.search_reader().params.bm25_b})
    assert _score(flat, "frobnic", "g.short") == pytest.approx(_score(flat, "frobnic", "g.long"))


def test_field_weights_a_title_beats_three_mentions_in_the_body(features: KnowledgeBase) -> None:
    assert _score(features, "glorp", "g.titled") > _score(features, "glorp", "g.bodied")
    flat = _variant(features, field_weights={k: 1.0 for k in features.search_reader().params.field_weights})
    assert _score(flat, "glorp", "g.titled") < _score(flat, "glorp", "g.bodied")


def test_coordination_the_entry_matching_every_word_wins(features: KnowledgeBase) -> None:
    one = _variant(features, proximity_boost=0.0)  # coordination alone decides (both words stand together in g.both)
    assert [h.id for h in one.search("glorp zorbix", lang="es").hits][0] == "g.both"
    flat = _variant(features, coordination=0.0, proximity_boost=0.0)  # without it, one word in a title outweighs both in a body
    assert [h.id for h in flat.search("glorp zorbix", lang="es").hits][0] == "g.titled"


def test_spelling_guard_a_known_word_is_never_corrected(features: KnowledgeBase) -> None:
    assert features.search("tamto", lang="es").did_you_mean == "tanto"  # a typo of an indexed word is corrected
    assert features.search("tango", lang="es").did_you_mean is None     # a common word of the language is left alone
    # a form the lists hold but rarely (Zipf 1.9-2.0, like "breech" or "frist": mostly typos) is corrected (issue 31)
    assert features.search("alpa", lang="es").did_you_mean == "alfa"


def test_players_questions_weigh_more_than_the_body(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word in a players' question outweighs the same word twice in another entry's text (field weight
    questions 3, body 1: a situation in a player's words is best met by a player's question)."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = _rules({"told": ("Dos", "zarpazo zarpazo wumble."), "asked": ("Uno", "wumble.")})
    files["g/rules/asked.yaml"] += "questions: {es: [zarpazo wumble], en: [zarpazo wumble]}\n"
    kb = KnowledgeBase.load(tree(files, games=("g",)))
    assert ids(kb.search("zarpazo", lang="es"))[0] == "g.asked"
    flat = _variant(kb, field_weights={**kb.search_reader().params.field_weights, "questions": 1.0})
    assert ids(flat.search("zarpazo", lang="es"))[0] == "g.told"


def test_the_players_words_are_read_as_the_rules_words(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thesaurus (kb.search.thesaurus, issue 31): "balazo" is a player's word for "disparar". It meets the rule
    in the word's own slot (the rule matches both words of "balazo wumble" and outranks a title that holds one),
    more lightly than the word itself, and one way only (a query of the rules' word finds no "balazo")."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree(_rules({"shot": ("Uno", "disparar wumble."), "named": ("Wumble", "wumble."),
                                         "said": ("Dos", "balazo zorp.")}), games=("g",)))
    assert ids(kb.search("balazo wumble", lang="es"))[0] == "g.shot"
    assert ids(_variant(kb, thesaurus_weight=0.0).search("balazo wumble", lang="es"))[0] == "g.named"
    assert ids(kb.search("balazo", lang="es"))[:2] == ["g.said", "g.shot"]  # its own word first, the rule's word after
    weight = kb.search_reader().params.thesaurus_weight  # the same length, the same df: the rule's word at its weight
    assert 0 < weight < 1 and _score(kb, "balazo", "g.shot") == pytest.approx(weight * _score(kb, "balazo", "g.said"))
    assert "g.said" not in ids(kb.search("disparar", lang="es"))


def test_every_players_word_of_the_thesaurus_is_found() -> None:
    """kb.search.thesaurus.read_as analyses only the players' words sharing a term's first two letters: each players'
    word's term keeps them (else its line would never be read), and each is read as some rules' word."""
    from kb.search import query, thesaurus

    lines = thesaurus.lines()
    assert len(lines) > 40 and {lang for lang, _, _ in lines} == {"es", "en"}
    for lang, said, meant in lines:
        for word in said:
            terms = query.analyse(f"body_{lang}", word)
            assert terms and all(t[:2] == word[:2] for t in terms), (lang, word, terms)
            assert set(query.read_as(lang, terms[0])) & set(meant) or all(query.analyse(f"body_{lang}", m) == terms for m in meant), (lang, word)


def test_a_correction_shares_the_first_letter(features: KnowledgeBase) -> None:
    """"xumble" is one edit from the indexed "wumble" but starts otherwise: no correction, nothing found
    (ranking.Params.same_prefix); a first letter is seldom the one mistyped, and sharing it keeps corrections near."""
    result = features.search("xumble", lang="es")
    assert result.did_you_mean is None and not result.hits
    assert _variant(features, same_prefix=0).search("xumble", lang="es").did_you_mean == "wumble"


def test_spelling_corrects_a_three_letter_word(features: KnowledgeBase) -> None:
    result = features.search("otr wumble", lang="es")  # "otr": one letter short of the title "Otro" ("hul", "luk")
    assert result.did_you_mean == "otro wumble" and result.hits[0].id == "g.bodied"


def test_spelling_draws_from_the_language_the_query_is_in(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo as near to a Spanish word as to an English one is corrected in the language the query's other words
    are in, whatever the reader's language; alone, in the reader's."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = {"g/rules/x.yaml": "id: g.x\nkind: rule\ngame: g\ntitle: {es: Uno, en: One}\n"
                               "text: {es: zumba carga., en: zumba cargo.}\nsource: {doc: seed.txt, section: S}\n"}
    kb = KnowledgeBase.load(tree(files, games=("g",)))
    assert kb.search("cargu", lang="es").did_you_mean == "carga"
    assert kb.search("cargu", lang="en").did_you_mean == "cargo"
    assert kb.search("cargu shooting model", lang="es").did_you_mean == "cargo shooting model"


def test_a_capitalised_word_is_a_name_a_lowercase_one_is_analysed_as_text() -> None:
    """"LoS" is looked up in the names as it is (stop words kept there); "los" is an article there too."""
    from kb.search.query import plan
    from kb.search.ranking import DEFAULTS

    assert ("names_es", "los") in plan(["LoS"], {}, (), DEFAULTS)[0].clauses
    assert ("names_es", "los") not in plan(["los"], {}, (), DEFAULTS)[0].clauses


def test_proximity_words_side_by_side_beat_the_same_words_apart(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second stage (issue 31): of two texts with the same words and lengths, the one where the query's words
    stand together ranks first; without it they tie."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree(_rules({"together": ("Uno", "glorp zorbix wumble quandle."),
                                         "apart": ("Dos", "glorp wumble zorbix quandle.")}), games=("g",)))
    assert _score(kb, "glorp zorbix", "g.together") > _score(kb, "glorp zorbix", "g.apart") * 1.5
    flat = _variant(kb, proximity_boost=0.0)
    assert _score(flat, "glorp zorbix", "g.together") == pytest.approx(_score(flat, "glorp zorbix", "g.apart"))


def test_field_coverage_the_entry_whose_question_says_the_whole_query_leads(tree, tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The second stage's field coverage (issue 31, eleventh session): each of the best documents is multiplied by
    ``1 + coverage_boost × (the most of the query's words one of its title or players' questions holds / its words)``.
    A players' question holding both words earns the whole boost, a title holding one of two half of it, words met
    only in the text none; without it the sibling whose summary and text say the words more often ranks first."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = _rules({"asked": ("Uno", "wumble."), "half": ("Glorp", "zorbix wumble."),
                    "told": ("Dos", "glorp zorbix glorp wumble.")})
    files["g/rules/asked.yaml"] += "questions: {es: [quandle glorp zorbix], en: [quandle glorp zorbix]}\n"
    files["g/rules/told.yaml"] += "summary: {es: glorp zorbix wumble., en: glorp zorbix wumble.}\n"  # the words twice over
    kb = KnowledgeBase.load(tree(files, games=("g",)))
    boost = kb.search_reader().params.coverage_boost
    flat = _variant(kb, coverage_boost=0.0)
    assert 0 < boost < 1
    q = "glorp zorbix"
    assert _score(kb, q, "g.asked") == pytest.approx((1 + boost) * _score(flat, q, "g.asked"))
    assert _score(kb, q, "g.half") == pytest.approx((1 + boost / 2) * _score(flat, q, "g.half"))
    assert _score(kb, q, "g.told") == pytest.approx(_score(flat, q, "g.told"))
    alone = _variant(kb, proximity_boost=0.0)  # the coverage stands without the proximity stage
    assert _score(alone, q, "g.asked") == pytest.approx((1 + boost) * _score(_variant(kb, proximity_boost=0.0, coverage_boost=0.0), q, "g.asked"))
    assert ids(kb.search(q, lang="es"))[:2] == ["g.asked", "g.told"]
    assert ids(flat.search(q, lang="es"))[:2] == ["g.told", "g.asked"]


def test_spelling_reaches_two_edits_in_a_long_word(features: KnowledgeBase) -> None:
    result = features.search("frabnoc", lang="es")  # two letters wrong in a seven-letter word
    assert result.did_you_mean == "frobnic" and result.hits[0].id == "g.short"


def test_a_hit_names_the_passage_that_answers(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    hit = kb.search("¿puedo disparar estando trabado?").hits[0]
    assert hit.id == "g.shoot" and hit.passage is not None
    assert hit.passage.anchor == "text-1" and "trabada no dispara" in hit.passage.text and "**trabada**" in hit.snippet
    example = kb.search("disparar con un marine que saca un 8").hits[0]
    assert example.id == "g.shoot" and example.passage is not None and example.passage.anchor == "example-hit"
    assert kb.search("shooting an engaged model", lang="en").hits[0].passage.text.startswith("An engaged model")
    data = hit.to_dict()["passage"]
    assert data == {"anchor": "text-1", "text": hit.passage.text}
    code, out, _ = cli("--content", str(root), "search", "disparar trabado", "--json")
    assert code == 0 and json.loads(out)["hits"][0]["passage"]["anchor"] == "text-1"


RULES = {**SAMPLE, "g/rules/staying-engaged.yaml": """\
        id: g.staying-engaged
        kind: rule
        game: g
        title: {es: Seguir trabado, en: Staying engaged}
        summary: {es: Una miniatura trabada sigue trabada hasta que se destraba., en: An engaged model stays engaged until it disengages.}
        text:
          es: |
            Trabado una vez, trabado siempre: la miniatura trabada no puede mover ni disparar mientras siga trabada.
            Quien queda trabado, trabado se queda.
          en: |
            Once engaged, always engaged: the engaged model can neither move nor shoot while it stays engaged.
        source: {doc: seed.txt, section: Combate}
        questions:
          es: ["¿Sigo trabado?", "¿Cuándo dejo de estar trabado?"]
          en: ["Am I still engaged?"]
        """,
    "g/rules/buzzer.yaml": """\
        id: g.buzzer
        kind: rule
        game: g
        title: {es: Aturdir, en: Stunning}
        summary: {es: Una miniatura aturdida pierde su turno., en: A stunned model loses its turn.}
        text: {es: El zumbador deja aturdido a quien toca., en: The buzzer stuns whoever it touches.}
        source: {doc: seed.txt, section: Aturdir}
        """,
    "g/rules/questions.yaml": """\
        id: g.questions
        kind: rule
        game: g
        title: {es: Preguntas de la mesa, en: Table questions}
        text:
          es: |
            ¿Qué pasa si puedo mover? ¿Qué significa contarlo? Pasa lo que pasa, puedo lo que puedo.
          en: |
            How can I tell when I can move? How can I count it?
        source: {doc: seed.txt, section: Mesa}
        """}


@pytest.fixture
def rules(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KnowledgeBase:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    return KnowledgeBase.load(tree(RULES, games=("g", "h")))


def test_the_exact_name_boost_lifts_a_term_over_a_rule_that_repeats_it(rules: KnowledgeBase) -> None:
    """A rule saying "trabado" eight times outweighs the term's title, unless the whole query is the term's name
    (ranking.Params.exact_name_boost); the game's name typed beside it does not change that ("trabado juego")."""
    assert ids(rules.search("trabado"))[0] == "g.engaged"
    assert ids(rules.search("trabado juego"))[0] == "g.engaged"          # "Juego g": a word of the game's name
    assert ids(rules.search("trabado mover"))[0] == "g.staying-engaged"  # not a name: the rule
    assert ids(_variant(rules, exact_name_boost=1.0).search("trabado"))[0] == "g.staying-engaged"


def test_question_words_are_no_words_of_the_query(rules: KnowledgeBase) -> None:
    from kb.search import ranking

    assert ranking.query_words("¿Cómo puedo disparar?") == ["disparar"]
    assert ranking.query_words("la LoS de el mech") == ["LoS", "mech"]  # lowercase stop words of either language out
    assert ranking.query_words("¿qué se hace si empatamos?") == ["empatamos"]  # the verbs of asking how a rule works
    assert ranking.query_words("how does overwatch work, what should happen") == ["overwatch"]
    question = "¿puedo disparar? ¿qué pasa? ¿qué significa?"
    assert ids(rules.search(question))[0] == "g.shoot"
    kept = _variant(rules, question_words=frozenset())               # "puedo", "pasa", "significa" would be words matched
    assert ids(kept.search(question))[0] == "g.questions"


def test_a_passage_tie_goes_to_the_first_in_reading_order(rules: KnowledgeBase) -> None:
    hit = rules.search("miniatura trabada sigue").hits[0]  # summary and text both say "miniatura trabada"; "sigue": its stem "sig" too
    assert hit.id == "g.staying-engaged" and hit.passage is not None and hit.passage.anchor == "summary"
    hit = rules.search("trabado siempre").hits[0]  # "siempre" is only in the text
    assert hit.passage is not None and hit.passage.anchor == "text-1"


def test_a_passage_is_chosen_by_the_weight_of_its_words_not_their_number(rules: KnowledgeBase) -> None:
    """"zumbador" is in one document, "miniatura" in many: the paragraph with the rare word is shown."""
    hit = rules.search("miniatura zumbador").hits[0]
    assert hit.id == "g.buzzer" and hit.passage is not None and hit.passage.anchor == "text-1"


def test_a_note_is_shown_only_when_it_holds_twice_the_rules_words(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notes name the rule's words while saying what the text leaves open: a note holding the query's words
    plus one more is not the answer, the rule's paragraph is (ranking.Params.passage_weights); with every section
    weighing alike the note would be shown."""
    from kb.search import ranking

    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    kb = KnowledgeBase.load(tree({**SAMPLE, "g/rules/flier.yaml": """\
        id: g.flier
        kind: rule
        game: g
        title: {es: Volador, en: Flier}
        summary: {es: Una tropa con alas., en: A troop with wings.}
        text: {es: La tropa que vuela ignora el área de amenaza enemiga., en: A flying troop ignores the enemy threat area.}
        notes:
          es: Al cargar, la tropa que vuela ignora también el área de amenaza; la guía no dice más.
          en: When charging, a flying troop ignores the threat area too; the guide says no more.
        source: {doc: seed.txt, section: Vuela}
        """}))
    query = "vuela ignora amenaza cargar"
    hit = kb.search(query, lang="es").hits[0]
    assert hit.id == "g.flier" and hit.passage is not None and hit.passage.anchor == "text-1"
    even = _variant(kb, passage_weights={}).search(query, lang="es").hits[0]
    assert even.id == "g.flier" and even.passage is not None and even.passage.anchor == "notes-1"
    assert ranking.passage_section("notes-12") == "notes" and ranking.passage_section("step-upkeep") == "step-upkeep"


def test_a_hit_is_shown_in_the_readers_language_whichever_matched(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    shown = kb.search("engaged", lang="es").hits[0]
    assert shown.id == "g.engaged" and shown.lang == "es" and shown.passage and shown.passage.text == "En combate cuerpo a cuerpo."
    shown = kb.search("trabado", lang="en").hits[0]
    assert shown.id == "g.engaged" and shown.lang == "en" and shown.passage and shown.passage.text == "In melee."


def test_when_nothing_matches_the_nearest_indexed_word_is_tried(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    result = kb.search("trabajo")  # a Spanish word (never corrected) that no document holds
    assert result.fuzzy and ids(result)[0] == "g.engaged"
    assert not kb.search("trabado").fuzzy


def test_glossary_alternatives_reach_another_games_term(root: Path) -> None:
    kb = KnowledgeBase.load(root)
    result = kb.search("linea de vision", game="h")  # h.locked says none of these words; LdV is one of its names
    assert ids(result) == ["h.locked"] and not result.fuzzy



def test_an_entry_is_ranked_and_shown_by_its_better_document(rules: KnowledgeBase) -> None:
    """Both documents of most entries match "trabado siempre" (the English ones through their names, which hold
    the Spanish titles); each entry ranks and scores by its better one, so the scores come best first."""
    hits = rules.search("trabado siempre").hits
    assert hits[0].id == "g.staying-engaged" and len(hits) >= 4
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_the_fts5_baseline_gets_the_engines_text_columns_and_weights(root: Path, tmp_path: Path) -> None:
    """The benchmarks' baseline (issue 31): FTS5 has the engine's fields as columns and ranks them with the engine's
    field weights, read from the database ``build_fts`` wrote, never copied by hand (a copy had drifted)."""
    import sqlite3
    import sys
    from dataclasses import replace

    from kb.search.ranking import DEFAULTS, FIELDS

    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    from fts_lookup import COLUMNS, lookup, weights
    from search_bench import build_fts

    tuned = {**DEFAULTS.field_weights, "title": 7.0, "questions": 0.5}
    kb = KnowledgeBase.load(root, ranking=replace(DEFAULTS, field_weights=tuned))
    build_fts(kb, tmp_path / "fts.db")
    db = sqlite3.connect(tmp_path / "fts.db")
    assert COLUMNS == FIELDS
    assert weights(db) == tuple(tuned[c] for c in COLUMNS)
    assert lookup(db, "disparar") and set(lookup(db, "disparar")) <= set(kb.entries)


def test_edit_distance_is_rapidfuzzs_osa() -> None:
    """``ranking.edit_distance`` is plain Python (RapidFuzz's import cost a one-query process more than the loop);
    it gives RapidFuzz's optimal-string-alignment figures, with and without a cut-off, on random words of a small
    alphabet (accents, repeats and transpositions come often) and on the corrections the docs name."""
    import random

    from rapidfuzz.distance import OSA

    from kb.search.ranking import edit_distance

    assert (edit_distance("ventja", "ventaja", 2), edit_distance("dispraar", "disparar", 2)) == (1, 1)
    assert edit_distance("abcdef", "ghijkl", 2) == 3 and edit_distance("ab", "abcde", 1) == 2
    rng = random.Random(31)
    for _ in range(20000):
        a, b = ("".join(rng.choice("abcñá") for _ in range(rng.randint(0, 8))) for _ in range(2))
        for limit in (None, 0, 1, 2, 3):
            assert edit_distance(a, b, limit) == OSA.distance(a, b, score_cutoff=limit), (a, b, limit)


def test_did_you_mean_shows_a_short_word_as_typed_unless_letters_are_only_added(tree, tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """"dmg" (players' shorthand for damage) is one letter from "dig": "did you mean" shows it as typed, while the long
    typo beside it is fixed; a short word whose correction only adds letters ("otr" → "otro") is still shown fixed.
    The display only (ranking.shown_corrections): the search takes the correction as before."""
    from kb.search import ranking

    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    files = {"g/rules/x.yaml": "id: g.x\nkind: rule\ngame: g\ntitle: {es: Uno, en: One}\n"
                               "text: {es: derrape dig., en: skidding dig.}\nsource: {doc: seed.txt, section: S}\n"}
    kb = KnowledgeBase.load(tree(files, games=("g",)))
    result = kb.search("skiding dmg", lang="en")
    assert result.did_you_mean == "skidding dmg" and ids(result) == ["g.x"]
    assert ranking.shown_corrections({"dmg": "dig", "hul": "hull", "skiding": "skidding"}, 4) == {
        "hul": "hull", "skiding": "skidding"}
    assert ranking.did_you_mean("dmg?", {"dmg": "dig"}, 4) is None


def test_the_browser_shows_the_same_did_you_mean() -> None:
    """kb-search-engine.js's didYouMean follows ranking.did_you_mean (run under Node when it is installed)."""
    import subprocess

    from kb.search import ranking

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    engine = Path(__file__).resolve().parents[1] / "kb" / "site" / "assets" / "kb-search-engine.js"
    cases = [("skiding dmg", {"skiding": "sliding", "dmg": "dig"}), ("dmg", {"dmg": "dig"}),
             ("otr wumble", {"otr": "otro"}), ("Hul", {"Hul": "hull"})]
    script = (f"var api = require({json.dumps(str(engine))}); var e = Object.create(api.Engine.prototype);"
              "e.rules = {spelling: {shown: %d}};"
              "console.log(JSON.stringify(%s.map(function (c) { return e.didYouMean(c[0].split(' '), c[1]); })));"
              % (ranking.DEFAULTS.shown_min_length, json.dumps(cases)))
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [ranking.did_you_mean(t, f, ranking.DEFAULTS.shown_min_length) for t, f in cases]
    assert json.loads(out) == ["sliding dmg", None, "otro wumble", "hull"]
def test_show_takes_the_anchor_a_search_hit_names(root: Path) -> None:
    """``kb show ID#ANCHOR`` with the anchor ``kb search --json`` gives a hit's passage (a paragraph, an example, a
    step) prints the entry, then that passage, as the search found it; an anchor the page lacks is said, with the
    nearest ones, exit 1."""
    for query, lang in (("marine con CD 14", "es"), ("engaged model does not shoot", "en")):
        code, out, _ = cli("search", query, "--lang", lang, "--json")
        hit = json.loads(out)["hits"][0]
        passage = hit["passage"]
        assert code == 0 and hit["id"] == "g.shoot" and passage["anchor"] != "summary", hit
        code, out, err = cli("show", f"g.shoot#{passage['anchor']}", "--lang", lang)
        assert code == 0 and err == "", err
        assert out.startswith(cli("show", "g.shoot", "--lang", lang)[1])  # the entry, as kb show ID prints it
        tail = out.split(f"\n#{passage['anchor']}\n", 1)[1]
        assert " ".join(tail.split()) == passage["text"], out
        code, out, _ = cli("show", f"g.shoot#{passage['anchor']}", "--lang", lang, "--json")
        assert code == 0 and json.loads(out)["passage"] == passage
    code, out, err = cli("show", "g.shoot#example-hitt")
    assert code == 2 and out == "" and err.startswith(
        "kb show: 'g.shoot' has no passage '#example-hitt'; did you mean 'example-hit'? (its anchors nearest: "), err
