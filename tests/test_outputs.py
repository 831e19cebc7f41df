"""A build's outputs kept between commands (kb/site/outputs.py, issue 33: the warm build): reused only for the same
inputs, written once, replaced when the content changes, remade when the cache file is damaged."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import cli
from kb.api import KnowledgeBase
from kb.site.outputs import AREA, content_key, kept

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"


def _kb(tmp_path: Path) -> KnowledgeBase:
    content = tmp_path / "content"
    if not content.exists():
        shutil.copytree(FIXTURE, content)
    return KnowledgeBase.load(content, cache_base=tmp_path / "cache")


def test_an_output_is_made_once_per_key_and_a_hit_writes_nothing(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    made: list[str] = []

    def make(value: str):
        return lambda: made.append(value) or {"text": value}

    key = content_key(kb, "es")
    first, found = kept(kb, "thing-es", key, make("one"), lambda v: isinstance(v, dict))
    assert (first, found, made) == ({"text": "one"}, False, ["one"])
    [path] = (tmp_path / "cache" / AREA).rglob("thing-es-*.json")
    stamp = path.stat().st_mtime_ns
    again, found = kept(kb, "thing-es", key, make("two"), lambda v: isinstance(v, dict))
    assert (again, found, made) == ({"text": "one"}, True, ["one"])  # not made again
    assert path.stat().st_mtime_ns == stamp  # and not written again
    other, found = kept(kb, "thing-es", content_key(kb, "en"), make("three"), lambda v: isinstance(v, dict))
    assert (other, found) == ({"text": "three"}, False)
    assert [p.name for p in path.parent.glob("thing-es-*.json")] != [path.name] and not path.exists()  # one state kept


def test_the_key_follows_the_content_and_a_damaged_file_is_made_again(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    key = content_key(kb, "es")
    assert content_key(kb, "es") == key and content_key(kb, "es", "other input") != key
    aim = kb.root / "mini" / "actions" / "aim.yaml"
    aim.write_text(aim.read_text(encoding="utf-8").replace("una acción", "dos acciones"), encoding="utf-8")
    assert content_key(_kb(tmp_path), "es") != key  # one file edited: another key
    kept(kb, "thing-es", key, lambda: {"text": "one"}, lambda v: isinstance(v, dict))
    [path] = (tmp_path / "cache" / AREA).rglob("thing-es-*.json")
    path.write_bytes(path.read_bytes().replace(b"one", b"owt"))  # the signature no longer matches
    value, found = kept(kb, "thing-es", key, lambda: {"text": "made"}, lambda v: isinstance(v, dict))
    assert (value, found) == ({"text": "made"}, False)
    value, found = kept(kb, "thing-es", key, lambda: {"text": "wrong"}, lambda v: isinstance(v, list))  # not its shape
    assert (value, found) == ({"text": "wrong"}, False)


def test_a_second_kb_build_reuses_the_outputs_and_an_edit_makes_them_again(tmp_path: Path, monkeypatch) -> None:
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))

    def build(name: str) -> tuple[str, Path]:
        out = tmp_path / name
        code, stdout, stderr = cli("--content", str(content), "build", "--site-dir", str(out))
        assert code == 0, stdout + stderr
        return stdout, out

    cold, first = build("first")
    warm, second = build("second")
    assert "(0 made from the content)" not in cold and "kept)" not in cold
    assert warm.count("(0 made from the content)") == 2 and warm.count("parts, kept)") == 2
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / p).read_bytes() == (second / p).read_bytes() for p in files)  # the same site
    aim = content / "mini" / "actions" / "aim.yaml"
    aim.write_text(aim.read_text(encoding="utf-8").replace("Apuntar cuesta una acción", "Apuntar cuesta tres acciones"),
                   encoding="utf-8")
    edited, third = build("third")
    assert "(0 made from the content)" not in edited and "kept)" not in edited
    assert "Apuntar cuesta tres acciones" in (third / "es" / "mini" / "aim.html").read_text(encoding="utf-8")
    assert "Apuntar cuesta tres acciones" in (third / "es" / "kb-search-es.js").read_text(encoding="utf-8")
