"""A pack's own players' words (``content/thesaurus.txt``, docs/packs.md): added to the engine's table
(:mod:`kb.search.thesaurus`), read alike by the API and the browser's engine, checked by ``kb check`` line by line,
and followed by the search index when the file changes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import cli
from kb import KnowledgeBase

ENGINE = Path(__file__).resolve().parents[1] / "kb" / "site" / "assets" / "kb-search-engine.js"
RULES = {f"g/rules/{k}.yaml": (f"id: g.{k}\nkind: rule\ngame: g\ntitle: {{es: {t}, en: {t}}}\n"
                               f"text: {{es: {x}, en: {x}}}\nsource: {{doc: seed.txt, section: S}}\n")
         for k, (t, x) in {"shot": ("Uno", "disparar wumble."), "named": ("Wumble", "wumble.")}.items()}


def ids(result: Any) -> list[str]:
    return [h.id for h in result.hits]


def _browser(kb: KnowledgeBase, query: str, lang: str) -> list[list[Any]]:
    """The hits of ``query`` in kb-search-engine.js (under Node) on the data the site would ship for ``lang``."""
    from kb.search.export import export

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    data = export(kb.search_reader(), lang, lambda i: i, {})
    script = (f"var api = require({json.dumps(str(ENGINE))}); var e = new api.Engine(JSON.parse(require('fs')"
              ".readFileSync(0, 'utf8'))); console.log(JSON.stringify(e.search("
              f"{json.dumps(query)}, {{limit: 10}}).hits.map(function (h) {{ return [h.id, h.score]; }})));")
    out = subprocess.run([node, "-e", script], input=json.dumps(data), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_a_packs_players_word_finds_the_entry_in_the_api_and_the_browser(tree, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """"zurriagazo" (slang no word list holds) finds nothing until the pack's thesaurus reads it as "disparar"; then
    the API and the browser's engine give the same hits with the same scores."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree(RULES, games=("g",))
    assert ids(KnowledgeBase.load(root).search("zurriagazo", lang="es")) == []
    (root / "thesaurus.txt").write_text("# our players' words\nes: zurriagazo, zurriagazos -> disparar\n", encoding="utf-8")
    kb = KnowledgeBase.load(root)
    api = [[h.id, h.score] for h in kb.search("zurriagazo", lang="es").hits]
    assert [i for i, _ in api] == ["g.shot"]
    site = _browser(kb, "zurriagazo", "es")
    assert [i for i, _ in site] == ["g.shot"] and site[0][1] == pytest.approx(api[0][1], rel=1e-9)
    assert ids(kb.search("disparar balazo", lang="es"))[0] == "g.shot"  # the engine's table still reads


def test_the_index_follows_the_packs_thesaurus(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit of content/thesaurus.txt alone rebuilds the index (kb.search.index's manifest counts the file)."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree(RULES, games=("g",))
    (root / "thesaurus.txt").write_text("es: zurriagazo -> disparar\n", encoding="utf-8")
    reader = KnowledgeBase.load(root).search_reader()  # a reader kept open (kb serve's) follows the rebuild too
    assert ids(reader.search("zurriagazo", lang="es")) == ["g.shot"]
    (root / "thesaurus.txt").write_text("es: zurriagazo -> wumble\n", encoding="utf-8")
    assert ids(KnowledgeBase.load(root).search("zurriagazo", lang="es")) == ["g.named", "g.shot"]
    assert ids(reader.search("zurriagazo", lang="es")) == ["g.named", "g.shot"]
    (root / "thesaurus.txt").unlink()
    assert ids(KnowledgeBase.load(root).search("zurriagazo", lang="es")) == []


def test_kb_check_locates_each_problem_of_the_packs_thesaurus(tree) -> None:
    root = tree(RULES, games=("g",))
    (root / "thesaurus.txt").write_text(
        "es: zurriagazo -> disparar\n\n# a comment\nes zurriagazo disparar\nfr: tir -> disparar\n"
        "es: zurriagazo, pepinazo, pepinazo -> disparar, cañonear\nen: -> shoot\n", encoding="utf-8")
    code, out, err = cli("check", "--strict")
    assert code == 1 and "Traceback" not in out + err
    assert [line for line in out.splitlines() if "thesaurus.txt" in line] == [
        "content/thesaurus.txt:4:1: error[thesaurus-line]: 'es zurriagazo disparar' is not a line of the players' "
        "words: write 'lang: players' words -> rules' words' (words separated by commas)",
        "content/thesaurus.txt:5:1: error[thesaurus-language]: unknown language 'fr'; valid: es, en",
        "content/thesaurus.txt:6:1: warning[thesaurus-duplicate]: es players' word 'zurriagazo' is already listed on "
        "line 1: list it once",
        "content/thesaurus.txt:6:1: warning[thesaurus-duplicate]: es players' word 'pepinazo' is already listed on "
        "line 6: list it once",
        "content/thesaurus.txt:6:1: warning[thesaurus-unused]: es rules' word 'canonear' is in no es text of the pack: "
        "a players' word can never find an entry through it",
        "content/thesaurus.txt:7:1: error[thesaurus-line]: 'en: -> shoot' is not a line of the players' words: write "
        "'lang: players' words -> rules' words' (words separated by commas)"]
    (root / "thesaurus.txt").write_text("es: zurriagazo -> disparar\n", encoding="utf-8")
    assert cli("check", "--strict")[0] == 0
