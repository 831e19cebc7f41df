"""The caches hold data, never code, and heal: every kind of damage is ignored and rebuilt, with one line.

Each case builds the caches with a first ``kb search`` (parsed files, linked state, memo, search
index) with ``kb check`` and ``kb search``, damages them one way, and runs both again: the same results, exit 0, and exactly one
line saying a damaged cache was ignored (none for a cache an older engine wrote: that is only stale).
A third run says nothing: the cache was rebuilt.
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
from pathlib import Path
from typing import Callable

import pytest

from conftest import SAMPLE, cli
from kb.search.index import VERSION


class _Planted:
    """Unpickling this runs code: a planted pickle must never be unpickled."""

    def __reduce__(self):
        return (Path.write_text, (Path(os.environ["KB_PWNED"]), "pwned"))


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert found, pattern
    return found[0]


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def _replace(text: str | bytes) -> Callable[[Path], None]:
    def do(path: Path) -> None:
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return do


def _to_folder(path: Path) -> None:
    path.unlink()
    (path / "x").mkdir(parents=True)


def _header_json(data: str) -> bytes:
    from kb.core.cache import FORMAT, code_version

    return f'{{"header":{{"format":"{FORMAT}","engine":"{code_version()}"}},"data":{data}}}'.encode()


PARSE, LINKED, MEMO, SEARCH = "parse/*/files.json", "linked/*/[0-9a-f]*.json", "linked/*/memo.json", "search/*"

# name -> (what to damage under .kb-cache, how, damage lines expected); a file written by hand carries no signature
# (kb/core/cache.py): it is said, as any damage, unless an older engine wrote it
DAMAGE: dict[str, tuple[str, Callable[[Path], None], int]] = {
    "parse: truncated": (PARSE, _truncate, 1),
    "parse: empty file": (PARSE, _replace(b""), 1),
    "parse: not JSON": (PARSE, _replace(b"\x00\xff garbage"), 1),
    "parse: a JSON list": (PARSE, _replace("[1, 2, 3]"), 1),
    "parse: a planted pickle": (PARSE, lambda p: p.write_bytes(pickle.dumps(_Planted())), 1),
    "parse: a folder": (PARSE, _to_folder, 1),
    "parse: an unknown type": (PARSE, _replace(_header_json('{"\\u0000t":"os.system","v":{"command":"x"}}')), 1),
    "parse: wrongly shaped records": (PARSE, _replace(_header_json('{"g/rules/shoot.yaml":5,"x":[1,2]}')), 1),
    "parse: an older engine": (PARSE, _replace('{"header":{"format":"kb-cache/1","engine":"0000"},"data":{}}'), 0),
    "linked: truncated": (LINKED, _truncate, 1),
    "linked: wrongly shaped": (LINKED, _replace(_header_json('{"links":3,"concepts":[],"problems":{}}')), 1),
    "linked: a folder": (LINKED, _to_folder, 1),
    "memo: truncated": (MEMO, _truncate, 1),
    "memo: a list": (MEMO, _replace(_header_json("[1,2]")), 1),
    "search: manifest truncated": (SEARCH + "/current/manifest.json", _truncate, 1),
    "search: manifest wrongly shaped": (SEARCH + "/current/manifest.json",
                                        lambda p: p.write_text(f'{{"version": {VERSION}, "files": {{"a": 1}}}}'), 1),
    "search: meta.json wrongly shaped": (SEARCH + "/current/meta.json", _replace('{"names": 1}'), 1),
    "search: manifest a list": (SEARCH + "/current/manifest.json", _replace("[]"), 1),
    "search: manifest missing": (SEARCH + "/current/manifest.json", lambda p: p.unlink(), 0),
    "search: synonyms truncated": (SEARCH + "/current/synonyms.json", _truncate, 1),
    "search: synonyms wrongly shaped": (SEARCH + "/current/synonyms.json", _replace('{"groups": 5}'), 1),
    "search: synonyms missing": (SEARCH + "/current/synonyms.json", lambda p: p.unlink(), 1),
    "search: current an empty folder": (SEARCH + "/current", lambda p: (p.unlink(), p.mkdir()), 1),
    "search: current a dangling link": (SEARCH + "/current", lambda p: (p.unlink(), p.symlink_to("gen-gone")), 0),
    "search: current a file": (SEARCH + "/current", lambda p: (p.unlink(), p.write_text("x")), 1),
    "search: index files truncated": (SEARCH + "/current/*.seg", _truncate, 1),
    "search: lock a folder": (SEARCH + "/lock", lambda p: (p.unlink(), p.mkdir()), 1),
    "search: its folder a file": (SEARCH, lambda p: (shutil.rmtree(p), p.write_text("x")), 1),
    ".kb-cache a file": (".", lambda p: (shutil.rmtree(p), p.write_text("x")), 1),
    ".kb-cache/parse a file": ("parse", lambda p: (shutil.rmtree(p), p.write_text("x")), 1),
    ".kb-cache/search a file": ("search", lambda p: (shutil.rmtree(p), p.write_text("x")), 1),
}
AFTER_AN_EDIT = {"memo: truncated", "memo: a list", "search: lock a folder"}
"""Damage found only once a content file changed (the memo and the lock serve only an update)."""


@pytest.fixture
def sample(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("KB_CACHE", raising=False)
    monkeypatch.setenv("KB_PWNED", str(tmp_path / "pwned"))
    return tree(SAMPLE, games=("g", "h"))


def _search(caplog: pytest.LogCaptureFixture) -> tuple[str, list[str]]:
    """``kb check`` (parsed and linked caches) then ``kb search`` (the index): their output and damage lines."""
    caplog.clear()
    code, checked, err = cli("check")
    assert code == 0 and "Traceback" not in err, checked + err
    code, out, err = cli("search", "trabado")
    assert code == 0 and "Traceback" not in err, out + err
    return checked + out, [r.getMessage() for r in caplog.records if r.name == "kb.cache"]


def test_at_least_24_kinds_of_damage() -> None:
    assert len(DAMAGE) >= 24


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_damaged_cache_is_ignored_and_rebuilt(name: str, sample: Path, tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="kb.cache")
    before, lines = _search(caplog)
    assert "g.engaged" in before and lines == []
    where, damage, expected = DAMAGE[name]
    base = tmp_path / ".kb-cache"
    damage(_one(base, where) if where != "." else base)
    if name in AFTER_AN_EDIT:
        with open(sample / "g" / "rules" / "melee.yaml", "a", encoding="utf-8") as fh:
            fh.write("# edited\n")
    after, lines = _search(caplog)
    assert after == before
    assert len(lines) == expected, lines
    assert all("ignored a damaged cache file" in line for line in lines)
    again, lines = _search(caplog)
    assert again == before and lines == []
    assert not (tmp_path / "pwned").exists()
    assert not list(base.rglob("*.pickle"))


def test_a_planted_pickle_is_never_unpickled(sample: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The old cache names too: a pickle there is not read (the caches are JSON now)."""
    from kb.core.cache import cache_dir

    for area, name in (("parse", "files.pickle"), ("linked", "memo.pickle")):
        folder = cache_dir(sample, area, os.environ.get("KB_CACHE"))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(pickle.dumps(_Planted()))
    code, out, err = cli("check")
    assert code == 0, out + err
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("signature", ["none", "another key"])
def test_a_planted_parse_record_is_never_trusted_over_the_file(signature: str, sample: Path) -> None:
    """A record carrying a broken file's digest and the good file's entry (issue 28): once it made check --strict
    pass a YAML syntax error and build publish the cached text. Records are signed with this user's key."""
    import hashlib
    import hmac

    from kb.core import cache, codec
    from kb.core.files import digest

    assert cli("check")[0] == 0  # the cache now holds the good record
    path = _one(Path(cache.cache_dir(sample, "parse", os.environ.get("KB_CACHE"))).parent.parent, PARSE)
    from kb.places import user_key

    body = cache._verified(path.read_bytes(), user_key())  # signed with the key the adapters pass
    records = codec.loads(body, cache._header())
    rel = "g/rules/melee.yaml"
    broken = (sample / rel).read_bytes() + b"  bad: [unclosed\n"
    (sample / rel).write_bytes(broken)
    stamp, (entry, found, _) = records[rel]
    records[rel] = (None, (entry, found, digest(broken)))
    planted = codec.dumps(cache._header(), records)
    if signature == "another key":
        planted += b"\n#mac:" + hmac.new(b"not this user's key", planted, hashlib.sha256).hexdigest().encode()
    path.write_bytes(planted)
    code, out, _ = cli("check", "--strict")
    assert code == 1
    assert "content/g/rules/melee.yaml:" in out and "error[yaml-syntax]" in out


def test_the_parse_cache_serves_each_set_of_limits_its_own_answer(tree, tmp_path: Path, monkeypatch) -> None:
    """The parse cache is used whatever the limits, keyed by them: a file too large under small limits stays
    refused under them and loads under the defaults, each from its own cache file."""
    from kb.core._yaml import Limits
    from kb.core.loader import load_tree

    root = tree(SAMPLE)
    small = Limits(max_bytes=64)

    def codes(limits: Limits | None = None) -> set[str]:
        loaded = load_tree(root, limits or Limits(), cache_base=tmp_path / "cache")
        return {d.code for d in loaded.diagnostics}

    assert "file-too-large" in codes(small)
    assert "file-too-large" not in codes()
    assert "file-too-large" in codes(small)  # not the defaults' cached entries
    names = sorted(p.name for p in (tmp_path / "cache").rglob("files*.json"))
    assert len(names) == 2 and "files.json" in names
