"""Faults of the machine (issue 28): a full disk, a read-only tree, an unreadable file.

Each command says it in one line naming the file and the system's reason, exits non-zero, prints no
traceback and leaves what was there as it was: the content files, the previous site, the index served.

Two layers. In process (everywhere): the write layer raises ``OSError(ENOSPC)`` as a full disk does
(``os.fsync`` under :func:`kb.core.files.atomic_write`; the index writer; standard output). End to end,
where the machine allows it: a real full file system (a 16 MiB tmpfs, mounted when this user may mount),
a real read-only one (a read-only bind mount as root, else modes) and files this user cannot read (modes;
as root, the commands run without the capabilities that let root read any file). Where it does not
allow it, the test is skipped with the reason.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import polib
import pytest

from conftest import MKDOCS, REPO, SAMPLE, cli, run

FULL = "No space left on device"


def _enospc(*_args: object, **_kw: object) -> None:
    raise OSError(errno.ENOSPC, FULL)  # as the system says it: no file named


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _translated_po(tmp_path: Path) -> Path:
    """A PO export of the tree with one English title changed."""
    path = tmp_path / "en.po"
    code, out, err = cli("i18n", "export", "-o", str(path))
    assert code == 0, out + err
    po = polib.pofile(str(path))
    item = next(e for e in po if e.msgctxt == "h.melee|title")
    item.msgstr = "Close combat"
    po.save(str(path))
    return path


# ---------------------------------------------------------------- in process


def test_a_full_disk_refuses_the_import_field_by_field_and_writes_nothing(tree, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.core.files

    root = tree(SAMPLE, games=("g", "h"))
    po = _translated_po(tmp_path)
    before = _snapshot(root)
    monkeypatch.setattr(kb.core.files.os, "fsync", _enospc)
    code, out, err = cli("i18n", "import", str(po))
    assert code == 1
    assert err.splitlines() == [f"{po}: refused h.melee|title: not written: cannot write content/h/rules/melee.yaml: "
                                f"{FULL}"]
    assert out.splitlines()[-1].startswith("0 field(s) updated in 0 file(s); 1 refused")
    assert _snapshot(root) == before  # nothing half-written, no temporary file left


def test_a_full_disk_stops_ack_with_one_line(tree, monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.core.files

    root = tree(SAMPLE, games=("g", "h"))
    before = _snapshot(root)
    monkeypatch.setattr(kb.core.files.os, "fsync", _enospc)
    code, out, err = cli("i18n", "ack", "--all")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("kb i18n ack: content/") and err.endswith(f".yaml: {FULL}\n")
    assert _snapshot(root) == before


def test_a_full_disk_keeps_the_index_served(tree, monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.search.query

    root = tree(SAMPLE, games=("g", "h"))
    assert cli("search", "melé")[0] == 0
    melee = root / "h" / "rules" / "melee.yaml"
    melee.write_text(melee.read_text(encoding="utf-8").replace("pelea", "pelea siempre"), encoding="utf-8")
    with monkeypatch.context() as patched:
        patched.setattr(kb.search.query, "write", _enospc)
        code, out, err = cli("search", "melé")
    assert (code, out) == (2, "")
    [line] = err.splitlines()
    assert line.startswith("kb search: cannot write the search index: ") and line.endswith(
        f": {FULL}; the index as it was is kept (KB_CACHE may name a folder with room, that you may write)")
    assert "/search/" in line  # the index's folder, since the system named no file
    code, out, err = cli("search", "melé")
    assert code == 0 and "h.melee" in out and "updated" in err  # the old index was whole: updated, not rebuilt


class _FullStream(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, FULL)


@pytest.mark.parametrize("argv", [("show", "h.melee"), ("search", "melé"), ("check", "--json")])
def test_a_full_disk_under_standard_output_is_one_line(argv: tuple[str, ...], tree) -> None:
    tree(SAMPLE, games=("g", "h"))
    err = io.StringIO()
    code = run(list(argv), _FullStream(), err)
    assert code == 2
    assert err.getvalue().splitlines()[-1] == f"kb {argv[0]}: standard output: {FULL}"


def test_the_console_script_says_a_full_standard_output_once(tree) -> None:
    """Output left in the buffer when the command ends is flushed by ``main``; its failure is said once, and
    Python's own flush at exit has nothing left to fail on."""
    tree(SAMPLE, games=("g", "h"))
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "kb", "check", "--json"], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=os.getcwd())
    assert proc.returncode == 2
    assert proc.stderr in (f"kb check: standard output: {FULL}\n", f"kb: standard output: {FULL}\n")  # said once


def test_a_build_that_cannot_write_keeps_the_previous_site(tree, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs.commands.build

    tree(SAMPLE, games=("g", "h"))
    site = tmp_path / "site"
    code, out, err = cli("build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, out + err
    before = _snapshot(site)
    monkeypatch.setattr(mkdocs.commands.build.utils, "write_file", _enospc)
    code, out, err = cli("build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 1
    assert "Traceback" not in out + err
    assert err.splitlines()[-1] == f"kb build: failed, the previous site is kept: the site: {FULL}"
    assert _snapshot(site) == before
    assert not [p.name for p in tmp_path.iterdir() if ".building-" in p.name]


# ---------------------------------------------------------------- end to end, on real file systems


def _kb(*argv: str, cwd: Path, env: dict[str, str], prefix: tuple[str, ...] = ()) -> tuple[int, str, str]:
    """``kb`` in its own process, on the tree ``cwd/content`` (``kb build`` with the project's mkdocs.yml)."""
    site = ("--config", MKDOCS) if argv[:1] == ("build",) else ()
    proc = subprocess.run([*prefix, sys.executable, "-m", "kb", "--content", "content", *argv, *site], capture_output=True,
                          text=True, cwd=cwd,
                          env=env, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def _mount(*argv: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    return subprocess.run(["mount", *argv], capture_output=True).returncode == 0


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 32 MiB tmpfs (root only; skipped where this machine cannot mount one): room for the first build (site and
    caches, about 17 MB of the sample), then filled to the last byte."""
    where = tmp_path / "disk"
    where.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=32m", "tmpfs", str(where)):
        pytest.skip("cannot mount a small file system here (not root, or no mount permission)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(folder: Path) -> None:
    """Fill the file system to the last byte (a disk already full fails at ``open``: full all the same)."""
    try:
        with open(folder / "filler", "wb") as fh:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
    except OSError as exc:
        assert exc.errno == errno.ENOSPC


def _pack(where: Path, tree) -> tuple[Path, dict[str, str]]:
    """The sample tree copied into ``where``, its cache there too."""
    root = tree(SAMPLE, games=("g", "h"))
    shutil.copytree(root, where / "content")
    env = {**os.environ, "KB_CACHE": str(where / "cache"), "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(REPO)}
    return where / "content", env


@pytest.mark.slow
def test_a_real_full_disk_gives_one_line_per_command_and_damages_nothing(disk: Path, tree, tmp_path: Path) -> None:
    content, env = _pack(disk, tree)
    po = _translated_po(tmp_path)
    here = dict(cwd=disk, env=env)
    code, out, err = _kb("build", "--site-dir", str(disk / "site"), **here)
    assert code == 0, out + err
    melee = content / "h" / "rules" / "melee.yaml"
    melee.write_text(melee.read_text(encoding="utf-8").replace("pelea", "pelea siempre"), encoding="utf-8")
    site, files = _snapshot(disk / "site"), _snapshot(content)
    shutil.rmtree(disk / "cache" / "search")  # the index must be written again
    _fill(disk)
    said = {}
    for argv in [("check",), ("show", "h.melee"), ("test",), ("search", "melé"),
                 ("build", "--site-dir", str(disk / "site")), ("i18n", "import", str(po)),
                 ("i18n", "ack", "--all"), ("i18n", "export", "-o", str(disk / "out.po")),
                 ("i18n", "glossary", "-o", str(disk / "out.tbx")), ("new", "rule", "h.charge")]:
        code, out, err = _kb(*argv, **here)
        assert "Traceback" not in out + err, argv
        said[argv[0] if argv[0] != "i18n" else argv[1]] = (code, [ln for ln in err.splitlines() if FULL in ln])
    for name in ("check", "show", "test"):  # they write only caches: a cache that cannot be written is not an error
        assert said[name] == (0, []), name
    for name in ("search", "build", "ack", "export", "glossary", "new", "import"):
        code, lines = said[name]
        assert code != 0 and lines, name
        assert all(re.search(rf"(cache|content|{re.escape(str(disk))})/\S+: {FULL}", ln) for ln in lines), (name, lines)
    assert said["export"][1] == [f"kb i18n export: cannot write {disk / 'out.po'}: {FULL}"]
    assert _snapshot(disk / "site") == site and _snapshot(content) == files
    assert not [p for p in disk.rglob("*") if p.name.startswith((".kb-tmp-", ".site.building-"))]
    assert not (disk / "out.po").exists()


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(a folder to fill, the same folder read-only): a read-only bind mount as root, modes otherwise."""
    src, view = tmp_path / "rw", tmp_path / "ro"
    src.mkdir()
    view.mkdir()
    if os.geteuid() != 0:
        yield src, src  # made read-only by modes once filled (see _freeze)
        return
    if not (_mount("--bind", str(src), str(view)) and _mount("-o", "remount,ro,bind", str(view))):
        subprocess.run(["umount", str(view)], check=False, capture_output=True)
        pytest.skip("root here, and no read-only bind mount may be made: modes would not stop root")
    try:
        yield src, view
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


def _freeze(folder: Path) -> None:
    if os.geteuid() != 0:
        for p in [folder, *folder.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222)


@pytest.mark.slow
def test_a_first_build_that_cannot_write_says_no_site_was_written(tree, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit-cli defect 13: with no previous site, a failed build does not claim to keep one."""
    import mkdocs.commands.build

    tree(SAMPLE, games=("g", "h"))
    monkeypatch.setattr(mkdocs.commands.build.utils, "write_file", _enospc)
    code, out, err = cli("build", "--config", MKDOCS, "--site-dir", str(tmp_path / "site"))
    assert code == 1 and "Traceback" not in out + err
    assert err.splitlines()[-1] == f"kb build: failed, no site was written: the site: {FULL}"


def test_a_read_only_tree_gives_one_line_per_command_and_damages_nothing(read_only, tree, tmp_path: Path) -> None:
    src, view = read_only
    content, env = _pack(src, tree)
    env["KB_CACHE"] = str(view / "cache")
    po = _translated_po(tmp_path)
    (src / "site").mkdir()
    (src / "site" / "index.html").write_text("previous\n", encoding="utf-8")
    (src / "site" / ".kb-site").write_text("", encoding="utf-8")  # an earlier build's: one a build may replace
    _freeze(src)
    files = _snapshot(content)
    here = dict(cwd=view, env=env)
    for argv, code, line in [
            (("check",), 0, None),
            (("search", "melé"), 2, "kb search: cannot write the search index: "),
            (("build", "--site-dir", str(view / "site")), 1, "kb build: failed, the previous site is kept: site: "),
            (("i18n", "import", str(po)), 1, f"{po}: refused h.melee|title: not written: cannot write content/h/rules"),
            (("i18n", "ack", "--all"), 2, "kb i18n ack: content/"),
            (("new", "rule", "h.charge"), 2, "kb new: content/h/rules/charge.yaml: "),
            (("i18n", "export", "-o", str(view / "out.po")), 2, f"kb i18n export: cannot write {view / 'out.po'}: ")]:
        got, out, err = _kb(*argv, **here)
        assert "Traceback" not in out + err, argv
        assert got == code, (argv, out, err)
        if line is not None:
            [said] = [ln for ln in err.splitlines() if ln.startswith(line)]
            assert "Read-only file system" in said or "Permission denied" in said, said
    assert (src / "site" / "index.html").read_text(encoding="utf-8") == "previous\n"
    assert _snapshot(content) == files


def _without_root_reads() -> tuple[str, ...]:
    """A prefix that runs a command unable to read what its modes forbid: nothing for another user; as root,
    ``setpriv`` without the two capabilities that let root read any file."""
    if os.geteuid() != 0:
        return ()
    if not shutil.which("setpriv"):
        pytest.skip("root here, and no setpriv to run without the capabilities that ignore file modes")
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search")


def test_files_that_cannot_be_read_are_located_errors(tree, tmp_path: Path) -> None:
    prefix = _without_root_reads()
    root = tree(SAMPLE, games=("g", "h"))
    env = {**os.environ, "KB_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    here = dict(cwd=tmp_path, env=env, prefix=prefix)
    assert _kb("check", **here)[0] == 0  # the cache now holds every file: it must not answer for an unreadable one
    po = _translated_po(tmp_path)
    (root / "h" / "rules" / "melee.yaml").chmod(0)
    po.chmod(0)
    unreadable = "content/h/rules/melee.yaml:1:1: error[unreadable]: cannot read file: Permission denied"
    code, out, err = _kb("check", **here)
    assert code == 1 and unreadable in out.splitlines()
    code, out, err = _kb("show", "h.melee", **here)
    assert (code, out) == (2, "") and err.splitlines() == ["kb show: no entry 'h.melee'; did you mean 'g.melee'?", unreadable]
    code, out, err = _kb("i18n", "import", str(po), **here)
    assert (code, out, err) == (2, "", "kb i18n import: en.po: Permission denied\n")  # as diagnostics name files


def test_search_says_which_files_it_cannot_read_and_leaves_them_out(tree, tmp_path: Path) -> None:
    """A chmod keeps a file's stamp: the index's manifest would call the tree unchanged and serve the file's old
    entries without a word. Said as ``kb check`` says it, exit 1, the results of the rest still printed."""
    prefix = _without_root_reads()
    root = tree(SAMPLE, games=("g", "h"))
    env = {**os.environ, "KB_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    here = dict(cwd=tmp_path, env=env, prefix=prefix)
    code, out, _ = _kb("search", "melé", **here)
    assert code == 0 and "h.melee" in out and "g.melee" in out  # the index holds both
    (root / "h" / "rules" / "melee.yaml").chmod(0)
    unreadable = "content/h/rules/melee.yaml:1:1: error[unreadable]: cannot read file: Permission denied"
    for _ in range(2):  # the run that updates the index, and the next, which finds it fresh
        code, out, err = _kb("search", "melé", **here)
        assert code == 1 and unreadable in err.splitlines(), err
        assert "g.melee" in out and "h.melee" not in out
    (root / "g").chmod(0)
    code, out, err = _kb("search", "melé", "--json", **here)
    assert code == 1 and "content/g:1:1: error[unreadable]: cannot read file: Permission denied" in err.splitlines()
    assert "Traceback" not in err and '"g.melee"' not in out
    (root / "g").chmod(0o755)
    (root / "h" / "rules" / "melee.yaml").chmod(0o644)
    code, out, err = _kb("search", "melé", **here)
    assert code == 0 and "error" not in err and "h.melee" in out and "g.melee" in out


# ---------------------------------------------------------------- mkdocs build (MkDocs' own command)


def _mkdocs_build(site: Path, *more: str) -> tuple[int, str]:
    """``mkdocs build`` in process, the repository's mkdocs.yml on ``$KB_CONTENT``: (exit code, all it said)."""
    from click.testing import CliRunner
    from mkdocs.__main__ import cli as mkdocs_cli

    result = CliRunner().invoke(mkdocs_cli, ["build", "-f", str(REPO / "mkdocs.yml"), "-d", str(site), *more])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)  # no traceback
    return result.exit_code, result.output


@pytest.mark.parametrize("more", [(), ("--dirty",)])
def test_mkdocs_build_that_cannot_write_is_one_line_and_keeps_the_previous_site(
        more: tuple[str, ...], tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs.commands.build

    root = tree(SAMPLE, games=("g", "h"))
    monkeypatch.setenv("KB_CONTENT", str(root))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    site = tmp_path / "site"
    code, said = _mkdocs_build(site, *more)
    assert code == 0 and (site / "es" / "h" / "melee.html").is_file(), said
    before = _snapshot(site)
    with monkeypatch.context() as patched:
        patched.setattr(mkdocs.commands.build.utils, "write_file", _enospc)
        code, said = _mkdocs_build(site, *more)
    assert code == 1 and said.splitlines()[-1] == f"Error: kb: the build failed, the previous site is kept: the site: {FULL}"
    assert _snapshot(site) == before  # MkDocs empties site_dir (or, dirty, writes over it): the plugin builds beside it
    (root / "h" / "rules" / "melee.yaml").write_text("id: [\n", encoding="utf-8")
    code, said = _mkdocs_build(site, "--strict", *more)  # a failed strict build keeps it too
    assert code == 1 and "Aborted with" in said and _snapshot(site) == before, said
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []
    code, said = _mkdocs_build(site, *more)  # a plain build goes past the error: swapped in whole
    assert code == 0 and (site / "es" / "g" / "melee.html").is_file()
    assert (site / "es" / "h" / "melee.html").exists() == bool(more)  # a dirty build leaves the stale page, as MkDocs does
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []


@pytest.mark.slow
@pytest.mark.parametrize("more", [(), ("--dirty",)])
def test_mkdocs_build_on_a_real_full_disk_is_one_line_and_keeps_the_previous_site(more: tuple[str, ...], disk: Path,
                                                                                   tree) -> None:
    content, env = _pack(disk, tree)
    env["KB_CONTENT"] = str(content)
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", *more, "-f", str(REPO / "mkdocs.yml"), "-d", str(disk / "site")]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=disk, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    site = _snapshot(disk / "site")
    melee = content / "h" / "rules" / "melee.yaml"
    melee.write_text(melee.read_text(encoding="utf-8").replace("pelea", "pelea siempre"), encoding="utf-8")
    _fill(disk)
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=disk, env=env, timeout=600)
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    said = [ln for ln in proc.stderr.splitlines() if FULL in ln]  # said by the plugin, or logged by MkDocs (dirty:
    assert len(said) == 1 and re.fullmatch(  # the copy of the previous site fails while the build is configured)
        rf"(Error: |ERROR +- +)kb: the build failed, the previous site is kept: (the site|(site|cache)/\S+): {FULL}",
        said[0]), proc.stderr
    assert _snapshot(disk / "site") == site
    assert not [p for p in disk.iterdir() if p.name.startswith(".site.")]


# ---------------------------------------------------------------- mkdocs serve (MkDocs' own dev server)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize("more", [(), ("--dirty",), ("--clean",)])
def test_mkdocs_serve_on_a_real_full_disk_is_one_line_and_keeps_the_preview(more: tuple[str, ...], disk: Path,
                                                                            tree) -> None:
    """A rebuild on a full disk (the server's own site folder and the cache on the 16 MiB tmpfs) says one line and
    the folder the server shows keeps the previous build, whole (MkDocs' server holds its answers while a rebuild
    has failed: the folder is what it shows once it answers); once there is room, the next edit shows."""
    import time
    import urllib.request

    content, env = _pack(disk, tree)
    env.update(KB_CONTENT=str(content), TMPDIR=str(disk))  # MkDocs serves from a temporary folder
    port = _free_port()
    log = disk.parent / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", *more, "-f", str(REPO / "mkdocs.yml"),
                                 "-a", f"127.0.0.1:{port}"], cwd=disk, env=env, stdout=out, stderr=subprocess.STDOUT)

    def page(name: str) -> str:
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/es/{name}", timeout=5).read().decode("utf-8")
        except OSError:
            return ""

    def said() -> str:
        return log.read_text(encoding="utf-8", errors="replace")

    def wait_for(check: object, what: str) -> None:
        deadline = time.monotonic() + 300
        while not check():  # type: ignore[operator]
            assert proc.poll() is None, f"mkdocs serve stopped:\n{said()[-3000:]}"
            assert time.monotonic() < deadline, f"{what}:\n{said()[-3000:]}"
            time.sleep(0.3)

    melee = content / "h" / "rules" / "melee.yaml"
    try:
        wait_for(lambda: "pelea" in page("h/melee.html"), "the first build was never served")
        time.sleep(1.0)  # the watcher is up once the server serves
        [served] = [p for p in disk.iterdir() if p.name.startswith("mkdocs_")]
        before = _snapshot(served)
        _fill(disk)
        melee.write_text(melee.read_text(encoding="utf-8").replace("pelea", "pelea siempre"), encoding="utf-8")
        wait_for(lambda: "An error happened during the rebuild" in said(), "the rebuild never failed")
        assert _snapshot(served) == before  # the previous build, whole
        (disk / "filler").unlink()
        melee.write_text(melee.read_text(encoding="utf-8").replace("pelea siempre", "pelea a menudo"), encoding="utf-8")
        wait_for(lambda: "pelea a menudo" in page("h/melee.html"), "the edit never showed once there was room")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    text = said()
    assert "Traceback" not in text, text[-3000:]
    assert re.search(rf"^kb: the build failed, the previous site is kept: \S+: {FULL}$", text, re.M), text[-3000:]
    assert not [p for p in disk.rglob("*") if ".building-" in p.name]


@pytest.mark.slow
def test_mkdocs_serve_that_cannot_build_at_all_on_a_full_disk_is_one_line(disk: Path, tree) -> None:
    content, env = _pack(disk, tree)
    env.update(KB_CONTENT=str(content), TMPDIR=str(disk))
    _fill(disk)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "serve", "--dirty", "-f", str(REPO / "mkdocs.yml"),
                           "-a", f"127.0.0.1:{_free_port()}"], cwd=disk, env=env, capture_output=True, text=True,
                          timeout=600)
    said = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "Traceback" not in said, said[-3000:]
    [line] = [ln for ln in said.splitlines() if FULL in ln]  # MkDocs' Abort, printed on standard output
    assert re.fullmatch(rf"kb: (the build failed, the previous site is kept|cannot serve): \S+: {FULL}", line), said
