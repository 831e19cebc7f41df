"""The compact store (kb/search/compact.py), what ``kb search`` reads: the same hits as the full path, for every query.

The full path (``KnowledgeBase.search``: Whoosh's index read through NumPy) and the fast one (one SQLite file read
with the standard library, plain-Python arithmetic) must return equal :class:`kb.search.query.Result` objects —
ids, order, scores to the last bit, snippets, passages, totals, counts by game, corrections — for every query of
every relevance set, in both languages and none; also after an update has left deleted documents in the index,
and with filters. A ``kb search`` process imports neither NumPy nor Whoosh's reader.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SAMPLE
from kb.api import KnowledgeBase
from kb.search import compact
from kb.search.index import SearchIndex
from relevance import BLIND, PLAYERS, fresh, queries

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "content"


def every_query() -> list[dict]:
    """Every query of every relevance set: the first set, the players' two parts, the fresh set's two."""
    return [*queries(), *queries(PLAYERS["tune"]), *queries(PLAYERS["heldout"]), *(item for path in BLIND.values() for part in ("tune", "held") for item in fresh(part, path))]


@pytest.fixture(scope="module")
def both():
    """(full reader, fast reader) of the bundled content's index."""
    kb = KnowledgeBase.load(CONTENT)
    full = kb.search_reader()
    index = SearchIndex(kb.root, full.current.parent)
    assert index.ensure(lambda: pytest.fail("fresh"), fast=True) == "fresh"
    return full, index.open(fast=True)


def test_fast_path_returns_the_full_paths_results_for_every_query_of_every_set(both) -> None:
    full, fast = both
    items = every_query()
    assert len(items) > 900  # 949 today
    differ = []
    for item in items:
        for lang in {item.get("lang"), None}:
            want, got = full.search(item["q"], lang=lang, limit=10), fast.search(item["q"], lang=lang, limit=10)
            if got != want:
                differ.append((item["q"], lang, [h.id for h in want.hits], [h.id for h in got.hits]))
    assert not differ, f"{len(differ)} queries differ, e.g. {differ[:3]}"


def test_fast_path_equal_with_filters_limits_and_fuzzy(both) -> None:
    full, fast = both
    cases = [("carga", {"game": "malifaux"}), ("linea de vision", {"kind": "term"}), ("disparo", {"limit": 3}),
             ("movimiento", {"limit": 40, "lang": "en"}), ("zzqxv", {}), ("iniciatvia", {}), ("LoS", {}),
             ("cover", {"game": "nothing-of-that-name"})]
    for text, filters in cases:
        want = full.search(text, **filters)
        assert fast.search(text, **filters) == want, (text, filters)
    assert any(full.search(t, **f).hits for t, f in cases)


def _same(index: SearchIndex, texts: tuple[str, ...]) -> None:
    full, fast = index.open(), index.open(fast=True)
    for text in texts:
        for lang in (None, "es", "en"):
            assert fast.search(text, lang=lang) == full.search(text, lang=lang), (text, lang)


def test_fast_path_equal_after_updates(tree, tmp_path: Path, monkeypatch) -> None:
    """An update by a fast caller rewrites the compact store; one by another caller (the API) removes it, and the
    next fast caller writes it from the index without loading the content."""
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree(SAMPLE, games=("g", "h"))
    index = SearchIndex(root)
    assert index.ensure(lambda: KnowledgeBase.load(root), fast=True) == "built"
    path = root / "h/rules/melee.yaml"
    texts = ("garras", "melee", "disparar trabado", "cuerpo a cuerpo", "LoS", "dispraar", "engaged", "pelea", "zarpas")
    path.write_text(path.read_text(encoding="utf-8").replace("pelea", "pelea con garras"), encoding="utf-8")
    assert index.ensure(lambda: KnowledgeBase.load(root), fast=True) == "updated"
    assert not index.open().searcher.reader().has_deletions()  # an update leaves none: it rewrites the documents
    _same(index, texts)
    assert [h.id for h in index.open(fast=True).search("garras").hits] == ["h.melee"]
    path.write_text(path.read_text(encoding="utf-8").replace("garras", "zarpas"), encoding="utf-8")
    assert index.ensure(lambda: KnowledgeBase.load(root)) == "updated"
    assert not (index.current / compact.FILE).exists()  # not left stale
    assert index.ensure(lambda: pytest.fail("only the compact store was wanting"), fast=True) == "fresh"
    _same(index, texts)
    assert [h.id for h in index.open(fast=True).search("zarpas").hits] == ["h.melee"]


def test_a_damaged_compact_store_or_index_is_said_and_replaced(tree, tmp_path: Path, monkeypatch, caplog) -> None:
    import logging

    caplog.set_level(logging.WARNING, logger="kb.cache")
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tree(SAMPLE, games=("g", "h"))
    index = SearchIndex(root)
    index.ensure(lambda: KnowledgeBase.load(root), fast=True)
    (index.current.resolve() / compact.FILE).write_bytes(b"not a database")
    assert compact.state(index.current.resolve()) == "unreadable"
    assert index.ensure(lambda: pytest.fail("the index is whole"), fast=True) == "fresh"
    assert compact.state(index.current.resolve()) == "ok"
    assert [h.id for h in index.open(fast=True).search("disparar").hits][:1] == ["g.shoot"]
    for seg in index.current.resolve().glob("*.seg"):  # Whoosh's files, which a fast reader does not open
        seg.write_bytes(seg.read_bytes()[:100])
    assert compact.state(index.current.resolve()) == "the index files changed since its compact store was written"
    assert SearchIndex(root).ensure(lambda: KnowledgeBase.load(root), fast=True) == "built"
    assert [h.id for h in index.open(fast=True).search("disparar").hits][:1] == ["g.shoot"]
    said = [r.getMessage() for r in caplog.records if r.name == "kb.cache"]
    assert len(said) == 2 and "compact.db" in said[0], said


def test_a_search_process_imports_neither_numpy_nor_whooshs_reader(tree, tmp_path: Path) -> None:
    root = tree(SAMPLE, games=("g", "h"))
    env = {**os.environ, "KB_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    probe = ("import sys; from kb.cli.main import main; code = main(['--content', sys.argv[1], 'search', 'dispraar']); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'asyncio', 'filelock', 'mkdocs', "
             "'jsonschema', 'yaml', 'rapidfuzz') or m in ('whoosh.index', 'whoosh.searching', 'whoosh.fields', 'whoosh.analysis'))); sys.exit(code)")
    for run in ("builds the index", "finds it fresh"):
        proc = subprocess.run([sys.executable, "-c", probe, str(root)], capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        *hits, imported = proc.stdout.splitlines()
        assert any("g.shoot" in line for line in hits), proc.stdout
        if run == "finds it fresh":
            assert imported == "[]", f"a fresh index's query imported {imported}"


def test_a_querys_analysis_is_whooshs_analyzer_for_every_field(both) -> None:
    """The query side analyses without ``whoosh.analysis`` (``query._analyse``); the index is written by Whoosh's
    analyzers (``query._schema``). Every query of every set and every indexed word, in every field, gives the same
    terms both ways."""
    from whoosh.analysis.filters import STOP_WORDS

    from kb.search import query

    assert query.WHOOSH_STOP_WORDS == STOP_WORDS
    full, _ = both
    reader = full.searcher.reader()
    texts = [item["q"] for item in every_query()] + ["Línea DE VISIÓN", "A13 2.5 x", "Ñandú, ¿qué? LoS las"]
    words = [t.decode() if isinstance(t, bytes) else t for lg in ("es", "en") for t, _ in reader.iter_field(f"spell_{lg}")]
    texts += [" ".join(words[i:i + 50]) for i in range(0, len(words), 50)]
    schema = query._schema()
    for fieldname in (*(f"{n}_{lg}" for lg in ("es", "en") for n in ("title", "names", "questions", "summary", "body")),
                      "spell_es", "spell_en"):
        analyzer = schema[fieldname].analyzer
        for text in texts:
            want = tuple(t.text for t in analyzer(text, mode="query"))
            assert query._analyse.__wrapped__(fieldname, text) == want, (fieldname, text)


def test_a_generations_json_is_read_once_while_its_stamp_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The freshness check and the reader's opening read ``meta.json`` once in a process (issue 31), and never serve
    it stale: a file replaced (a new inode) or rewritten (a new size or time) is read again, and a stamp under two
    seconds old is not trusted."""
    import json

    from kb.search import index

    reads: list[str] = []
    real = index.json.loads
    monkeypatch.setattr(index.json, "loads", lambda text, *a, **k: (reads.append(text), real(text, *a, **k))[1])
    meta = tmp_path / "meta.json"
    good = {"names": {}, "context": {}, "game_words": [], "games": ["g"]}
    meta.write_text(json.dumps(good))
    old = meta.stat().st_mtime - 60
    os.utime(meta, (old, old))
    assert index._meta(tmp_path) == good and index._meta(tmp_path) == good
    assert len(reads) == 1  # the second from memory
    replacement = tmp_path / "new.json"
    replacement.write_text(json.dumps({**good, "games": ["h"]}))
    os.utime(replacement, (old, old))
    replacement.replace(meta)  # same time, a new inode and size
    assert index._meta(tmp_path) == {**good, "games": ["h"]}
    meta.write_text('{"names": 1}')  # edited in place, just now: a new size, a fresh stamp
    assert index._meta(tmp_path) is None and index._meta(tmp_path) is None
    assert len(reads) == 4  # a fresh stamp is read each time


def test_a_query_process_parses_each_generation_file_once(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``kb search`` on a fresh index parses ``manifest.json`` (the freshness check, the files that do not load, the
    exit code), ``meta.json``, ``synonyms.json`` and the compact store's head (its check, then the reader) once each
    (issue 31: the manifest was parsed three times, the head twice)."""
    import io
    import json

    from kb.cli.main import run
    from kb.search import index as ix

    root = tree(SAMPLE, games=("g", "h"))
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    assert run(["--content", str(root), "search", "disparar"], io.StringIO(), io.StringIO()) == 0  # builds the index
    gen = next((tmp_path / "cache" / "search").glob("*/current")).resolve()
    old = gen.stat().st_mtime - 60  # stamps too fresh are never trusted: as an index served for a while
    for name in ("manifest.json", "meta.json", "synonyms.json", compact.FILE):
        os.utime(gen / name, (old, old))
    files = {name: (gen / name).read_text(encoding="utf-8") for name in ("manifest.json", "meta.json", "synonyms.json")}
    store = compact.Compact(gen)
    files["head"] = store._one("SELECT value FROM head WHERE key = 'head'", ())[0]
    store.close()
    monkeypatch.setattr(ix, "_READ", {})
    monkeypatch.setattr(compact, "_HEADS", {})
    reads: list[str] = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: (reads.append(text), real(text, *a, **k))[1])
    out = io.StringIO()
    assert run(["--content", str(root), "search", "disparar"], out, io.StringIO()) == 0
    assert "g.shoot" in out.getvalue()
    assert {name: reads.count(text) for name, text in files.items()} == dict.fromkeys(files, 1)
