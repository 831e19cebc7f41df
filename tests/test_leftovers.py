"""What killed runs leave is swept at the next run; atomic writes keep the file's mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import cli

OK = "id: g.ok\nkind: rule\ngame: g\ntitle: {es: Bien, en: Fine}\nsource: {doc: seed.txt, section: s}\n"


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_temporary_files_of_a_killed_writer_are_swept_by_the_next_run(tree) -> None:
    root = tree({"g/a.yaml": OK})
    dead = root / "g" / f".kb-tmp-{_dead_pid()}-a.yaml.x1y2"
    live = root / "g" / ".kb-tmp-1-a.yaml.x3y4"  # process 1 is alive: its file may be in use
    dead.write_text("half a file", encoding="utf-8")
    live.write_text("being written", encoding="utf-8")
    code, out, err = cli("check")
    assert code == 0, out + err
    assert not dead.exists()
    assert live.exists()


def test_folders_of_a_killed_build_are_swept_at_once(tmp_path: Path) -> None:
    from kb.core.files import sweep_building

    target = tmp_path / "site"
    dead = tmp_path / f".site.building-{_dead_pid()}-abc"
    live = tmp_path / ".site.building-1-def"
    old = tmp_path / f".site.old-{_dead_pid()}"
    for folder in (dead, live, old):
        (folder / "es").mkdir(parents=True)
    sweep_building(target)
    assert not dead.exists() and not old.exists()
    assert live.exists()


def test_atomic_write_keeps_the_mode_and_leaves_nothing_behind(tmp_path: Path) -> None:
    from kb.core.files import atomic_write

    path = tmp_path / "a.yaml"
    path.write_text("x: 1\n", encoding="utf-8")
    for mode in (0o644, 0o664, 0o600):
        os.chmod(path, mode)
        atomic_write(path, b"x: 2\n")
        assert path.stat().st_mode & 0o777 == mode
    new = tmp_path / "new.yaml"
    atomic_write(new, b"x: 3\n")
    assert new.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "new.yaml"]


def test_ack_keeps_the_mode(tree) -> None:
    root = tree({"g/a.yaml": OK})
    path = root / "g" / "a.yaml"
    os.chmod(path, 0o644)
    code, out, err = cli("--content", str(root), "i18n", "ack", "--all")
    assert code == 0, out + err
    assert "i18n:" in path.read_text(encoding="utf-8")
    assert path.stat().st_mode & 0o777 == 0o644


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
