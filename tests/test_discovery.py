"""Where the commands find their content: the current folder upward, ``--content``, or a clear exit 2."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from kb import KnowledgeBase, NoContent
from kb.cli.main import run

FIXTURE = Path(__file__).parent / "fixtures" / "site" / "content"


def _kb(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(argv, out, err), out.getvalue(), err.getvalue()


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "pack" / "content")
    return tmp_path / "pack"


@pytest.mark.parametrize("command", [["test"], ["check"], ["search", "x"], ["show", "mini.aim"], ["resolvers"],
                                     ["i18n", "status"]])
def test_an_empty_folder_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KB_CONTENT", raising=False)
    code, out, err = _kb(command)
    assert code == 2
    assert "no content found in" in err and "kb init" in err
    assert "passed" not in out


def test_commands_find_the_pack_from_any_folder_inside_it(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KB_CONTENT", raising=False)
    monkeypatch.chdir(pack / "content" / "mini" / "rules")
    code, out, err = _kb(["check", "shooting.yaml"])  # a path relative to a folder inside a game
    assert code == 0, err
    assert "entries checked: 0 error(s)" in err
    code, out, _ = _kb(["test"])
    assert code == 0 and out.strip().endswith("0 failed") and not out.startswith("0 passed")


def test_content_option_must_name_a_content_tree(tmp_path: Path) -> None:
    code, _, err = _kb(["--content", str(tmp_path), "test"])
    assert code == 2 and "not a content folder" in err


def test_content_option_takes_a_pack_folder(pack: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--content PACK`` (the folder holding ``content/``) is the pack's content, as the current folder is taken
    (audit-packs 21)."""
    monkeypatch.chdir(tmp_path)
    code, _, err = _kb(["--content", str(pack), "check"])
    assert code == 0 and "not a content folder" not in err, err
    assert KnowledgeBase.load(pack).root == pack / "content"


def test_api_refuses_a_folder_without_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KB_CONTENT", raising=False)
    with pytest.raises(NoContent):
        KnowledgeBase.load()
    with pytest.raises(NoContent):
        KnowledgeBase.load(tmp_path)
