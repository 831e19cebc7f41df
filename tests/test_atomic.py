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

from conftest import REPO
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
    argv = [kb, "--content", str(SITE_FIXTURE), "build", "--site-dir", str(target)]
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
