"""Atomic outputs: a killed index build leaves the previous index serving; searches answer during a rebuild."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import MKDOCS, REPO
from kb import KnowledgeBase
from kb.search.index import SearchIndex

sys.path.insert(0, str(REPO / "tests" / "benchmarks"))
from corpus import generate  # noqa: E402

BUILD = """
import sys
from kb import KnowledgeBase
from kb.search.index import SearchIndex
root = sys.argv[1]
SearchIndex(root).ensure(lambda: KnowledgeBase.load(root, use_cache=False))
"""


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "content"
    generate(root, 1200, seed=1)
    return root


def _rewrite_everything(root: Path, word: str) -> None:
    """Change most files so the next ensure() does a full build."""
    for path in root.glob("game-*/rules/*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("source:", f"tags:\n    - '{word}'\nsource:", 1), encoding="utf-8")


def _start_build(root: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", BUILD, str(root)], env=os.environ.copy())


def _wait_for_new_generation(index: SearchIndex, known: set[str], proc: subprocess.Popen) -> bool:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if {p.name for p in index.dir.glob("gen-*")} - known:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.slow
def test_killing_a_build_midway_keeps_the_previous_index(corpus: Path) -> None:
    index = SearchIndex(corpus)
    index.ensure(lambda: KnowledgeBase.load(corpus))
    served = index.current.resolve()
    before = [h.id for h in index.search("vocablo0x1", limit=5).hits]
    assert before
    for attempt in range(3):
        _rewrite_everything(corpus, f"rebuilt{attempt}")
        known = {p.name for p in index.dir.glob("gen-*")}
        proc = _start_build(corpus)
        started = _wait_for_new_generation(index, known, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert started, "the build finished before it could be killed"
        assert index.current.resolve() == served          # the swap never happened
        assert [h.id for h in index.search("vocablo0x1", limit=5).hits] == before
        assert index.search(f"rebuilt{attempt}").hits == ()  # the half-built index is not served
    assert index.ensure(lambda: KnowledgeBase.load(corpus)) == "built"
    assert index.search("rebuilt2").total > 0


@pytest.mark.slow
def test_searches_answer_while_the_index_is_rebuilt(corpus: Path) -> None:
    index = SearchIndex(corpus)
    index.ensure(lambda: KnowledgeBase.load(corpus))
    _rewrite_everything(corpus, "fresh")
    proc = _start_build(corpus)
    answers: list[int] = []
    errors: list[BaseException] = []

    def searcher() -> None:
        try:
            while proc.poll() is None or len(answers) < 4:
                answers.append(len(SearchIndex(corpus).search("vocablo0x1", limit=3).hits))
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=searcher) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    proc.wait()
    assert errors == []
    assert len(answers) >= 4 and all(n > 0 for n in answers)
    assert index.ensure(lambda: pytest.fail("the finished build left a fresh index")) == "fresh"


SITE_FIXTURE = REPO / "tests" / "fixtures" / "site" / "content"


@pytest.mark.slow
def test_killing_a_site_build_midway_keeps_the_previous_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    target = tmp_path / "site"
    kb = str(Path(sys.executable).with_name("kb"))
    argv = [kb, "--content", str(SITE_FIXTURE), "build", "--config", MKDOCS, "--site-dir", str(target)]
    subprocess.run(argv, check=True, capture_output=True, cwd=REPO)
    (target / "previous-build.txt").write_text("kept", encoding="utf-8")
    home = (target / "es" / "index.html").read_bytes()
    for _ in range(2):
        proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            building = list(tmp_path.glob(".site.building-*/es/*.html"))
            if building:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert building, "the build finished before it could be killed"
        assert (target / "previous-build.txt").read_text(encoding="utf-8") == "kept"
        assert (target / "es" / "index.html").read_bytes() == home
    subprocess.run(argv, check=True, capture_output=True, cwd=REPO)
    assert not (target / "previous-build.txt").exists()  # a finished build replaces the whole site


# ---------------------------------------------------------------- outputs the user names (-o PATH), issue 28


def _special_outputs(folder: Path) -> dict[str, Path]:
    """A FIFO, a symbolic link to a file, a folder and (when this user may make one) a character device like
    /dev/null, made in ``folder`` (the real /dev/null is never touched)."""
    made = {"fifo": folder / "fifo.out", "symlink": folder / "link.out", "folder": folder / "dir.out"}
    os.mkfifo(made["fifo"])
    (folder / "target.txt").write_text("keep\n", encoding="utf-8")
    os.symlink(folder / "target.txt", made["symlink"])
    made["folder"].mkdir()
    try:
        os.mknod(folder / "null.out", 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 3))
        made["device"] = folder / "null.out"
    except (PermissionError, OSError):
        pass
    return made


@pytest.mark.parametrize("command", [("i18n", "export", "-o"), ("i18n", "glossary", "-o")])
def test_an_output_that_is_not_a_regular_file_is_refused(command, tree, tmp_path: Path) -> None:
    from conftest import SAMPLE, cli

    tree(SAMPLE)
    for kind, path in _special_outputs(tmp_path).items():
        before = os.lstat(path)
        code, out, err = cli(*command, str(path))
        assert code == 2, (kind, out, err)
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"cannot write {path}: " in err and "only a regular file is replaced (nothing was written)" in err
        after = os.lstat(path)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode), kind  # the same thing is there
    assert (tmp_path / "target.txt").read_text(encoding="utf-8") == "keep\n"  # the link's target is untouched
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".kb-tmp-")]


def test_a_regular_output_is_replaced_and_keeps_its_mode(tree, tmp_path: Path) -> None:
    from conftest import SAMPLE, cli

    tree(SAMPLE)
    out_path = tmp_path / "out.po"
    assert cli("i18n", "export", "-o", str(out_path))[0] == 0  # an earlier export (only such a file is replaced)
    out_path.chmod(0o640)
    code, _, err = cli("i18n", "export", "-o", str(out_path))
    assert code == 0, err
    assert "msgid" in out_path.read_text(encoding="utf-8")
    assert out_path.stat().st_mode & 0o777 == 0o640


def test_a_full_disk_is_one_line_and_nothing_half_written(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import kb.core.files
    from conftest import SAMPLE, cli

    tree(SAMPLE)
    out_path = tmp_path / "out.po"
    out_path.write_text("old\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(kb.core.files.os, "fsync", full)
    for command in (("i18n", "export", "--force", "-o", str(out_path)),
                    ("i18n", "glossary", "--force", "-o", str(out_path))):
        code, out, err = cli(*command)
        assert code == 2
        assert err == f"kb {command[1]}: cannot write {out_path}: No space left on device\n".replace("kb ", "kb i18n ")
    assert out_path.read_text(encoding="utf-8") == "old\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".kb-tmp-")]
