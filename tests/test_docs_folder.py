"""A pack's ``docs/`` (MkDocs' docs_dir, copied into the site as it is): links, devices, loops, large files, names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kb.site import docs_folder
from kb.site.docs_folder import docs_problem


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "img").mkdir(parents=True)
    (tmp_path / "docs" / "img" / "a.png").write_bytes(b"png")
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n", encoding="utf-8")
    (tmp_path / "docs" / "kb.css").write_text("/* the pack's own */\n", encoding="utf-8")
    return tmp_path / "docs"


def _said(docs: Path) -> str:
    found = docs_problem(docs)
    assert found is not None
    assert found.code == "docs-file" and "\n" not in found.format()
    return f"{found.location.path}: {found.message}"


def test_regular_files_folders_and_a_link_to_a_file_inside_pass(docs: Path) -> None:
    os.symlink("img/a.png", docs / "same.png")
    assert docs_problem(docs) is None
    assert docs_problem(docs.parent / "none") is None


@pytest.mark.parametrize("plant, said", [
    (lambda d: os.symlink(d.parent / "secret.txt", d / "notes.txt"), "notes.txt: it is a symbolic link to "),
    (lambda d: os.symlink("../secret.txt", d / "notes.txt"),
     "notes.txt: it is a symbolic link to ../secret.txt, outside the docs folder; put the file itself there"),
    (lambda d: os.symlink("/dev/urandom", d / "img" / "rand.bin"), "img/rand.bin: it is a symbolic link to /dev/urandom"),
    (lambda d: os.symlink("..", d / "img" / "up"), "img/up: it is a symbolic link to a folder (..); put the folder"),
    (lambda d: os.symlink("loop", d / "loop"), "loop: it is a symbolic link that loops (loop)"),
    (lambda d: os.symlink("gone.png", d / "img" / "b.png"), "img/b.png: it is a symbolic link that points to nothing "
                                                            "(gone.png); put the file itself there"),
    (lambda d: (os.mkfifo(d / "img" / "pipe"), os.symlink("pipe", d / "img" / "p")),
     "img/p: it is a symbolic link to a FIFO (pipe); put the file itself there"),
    (lambda d: os.mkfifo(d / "img" / "pipe"), "img/pipe: it is a FIFO; only regular files and folders"),
    (lambda d: (d / os.fsdecode(b"a\xffb.txt")).write_text("y"), "a\\xffb.txt: its name is not valid UTF-8; rename it"),
    (lambda d: (d / "kb-search.js").write_text("evil()"),
     "kb-search.js: it would replace the engine's own assets/kb-search.js; rename it (names starting 'kb-' are the engine's)"),
    (lambda d: (d / "kb-sw.js").write_text("evil()"), "kb-sw.js: it would replace the engine's own worker/kb-sw.js"),
    (lambda d: (d / "kb-offline.json").write_text("{}"), "kb-offline.json: it would replace a kb-* name the engine keeps"),
])
def test_an_entry_that_is_not_a_plain_file_of_its_own_is_refused_naming_it(docs: Path, plant, said: str) -> None:
    (docs.parent / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    plant(docs)
    assert said in _said(docs)


@pytest.mark.parametrize("target", ["elsewhere", "docs-real", "gone"])
def test_a_docs_folder_that_is_a_link_is_refused_naming_it(tmp_path: Path, docs: Path, target: str) -> None:
    """The folder itself a symbolic link (to a folder outside the pack, one beside it, or nothing): MkDocs would copy
    whatever it names; refused in one line naming the folder, whatever it holds."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    docs.rename(tmp_path / "docs-real")
    os.symlink(tmp_path / target, docs)
    assert _said(docs) == (f"{docs}: it is a symbolic link to {tmp_path / target}, not a folder; put the folder itself "
                           "there (the docs folder is copied into the site as it is)")


def test_a_file_larger_than_the_limit_is_refused(docs: Path) -> None:
    assert docs_folder.LIMIT == 50 * 1024 * 1024
    (docs / "img" / "big.png").write_bytes(b"x" * 26)
    found = docs_problem(docs, limit=25)
    assert found is not None and "it is 26 bytes, more than the 25 a file of the site may be" in found.message
    assert found.location.path == docs / "img" / "big.png"
    (docs / "img" / "big.png").write_bytes(b"x" * 25)
    assert docs_problem(docs, limit=25) is None


def test_a_link_to_a_file_inside_larger_than_the_limit_is_refused(docs: Path) -> None:
    (docs / "img" / "big.bin").write_bytes(b"x" * 26)
    (docs / "big.bin").symlink_to("img/big.bin")
    found = docs_problem(docs, limit=25)
    assert found is not None and f"{found.location.path}: {found.message}" == (
        f"{docs / 'big.bin'}: it is 26 bytes, more than the 25 a file of the site may be; make it smaller"
        " (the docs folder is copied into the site as it is)")


def test_only_the_top_of_docs_is_kept_for_the_engines_names(docs: Path) -> None:
    """``img/kb-search.js`` replaces nothing of the engine's (its files are at the site's root)."""
    (docs / "img" / "kb-search.js").write_text("mine()", encoding="utf-8")
    assert docs_problem(docs) is None


def test_the_engine_may_name_its_own_assets_as_docs_dir() -> None:
    assert docs_problem(Path(docs_folder.__file__).parent / "assets") is None
