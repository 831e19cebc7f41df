"""A pack's ``docs/`` (MkDocs' ``docs_dir``, copied into the site as it is), checked before any work.

MkDocs follows symbolic links and copies what it finds: a link to a file outside the pack would publish that file,
one to ``/dev/urandom`` or a folder link that loops would fill the disk. So ``docs/`` must be a folder, not a link to
one, and every entry of it must be a
regular file or a folder (a link only to a regular file inside ``docs/``), of at most :data:`LIMIT` bytes, with a
UTF-8 name, and none at its top may take a name of the engine's own files (``kb-*``, :data:`ENGINE`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from kb.core.diagnostics import Diagnostic, diag
from kb.core.files import _special
from kb.core.model import Location

__all__ = ["LIMIT", "ENGINE", "docs_problem"]

LIMIT = 50 * 1024 * 1024
"""The largest file ``docs/`` may hold (the site's files are read whole to be hashed for offline use)."""
ENGINE = "kb-"
"""The prefix of the engine's own files at the site's root (scripts, the worker, the offline lists)."""
_ASSETS = Path(__file__).resolve().parent / "assets"
_WORKER = Path(__file__).resolve().parent / "worker"


def docs_problem(docs: Path, limit: int = LIMIT) -> Diagnostic | None:
    """The first entry of ``docs`` that may not go into the site (``docs-file``), if any; ``None`` when there is no
    such folder. Nothing is opened: entries are only looked at (``lstat``) and links resolved. ``limit``: the largest
    file, in bytes."""
    if docs.is_symlink():  # MkDocs would copy what it names, wherever that is (the checks below look inside it)
        return _refused(docs, f"it is a symbolic link to {os.readlink(docs)}, not a folder", "put the folder itself there")
    if not docs.is_dir():
        return None
    real = docs.resolve()
    own = real == _ASSETS  # the project's own site serves the package's assets as its docs_dir
    for folder, dirs, files in os.walk(docs, followlinks=False):
        here = Path(folder)
        for name in sorted(dirs) + sorted(files):
            found = _entry(here / name, real, limit) or (None if own or here != docs else _engine_name(here / name))
            if found is not None:
                return found
    return None


def _entry(path: Path, real: Path, limit: int) -> Diagnostic | None:
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:  # the system's surrogate escapes of bytes that are not UTF-8
        return _refused(path, "its name is not valid UTF-8", "rename it")
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return _link(path, real, limit)
    if stat.S_ISDIR(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        return _refused(path, f"it is {_special(st.st_mode)}", "only regular files and folders are copied into the site")
    return _size(path, st.st_size, limit)


def _link(path: Path, real: Path, limit: int) -> Diagnostic | None:
    """A symbolic link may only name a regular file inside ``docs/`` (never a folder: MkDocs would walk it, and a
    loop forever); it is resolved and looked at, never read."""
    target = os.readlink(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        why = "loops" if exc.errno == errno.ELOOP else "points to nothing"
        return _refused(path, f"it is a symbolic link that {why} ({target})", "put the file itself there")
    try:
        path.resolve(strict=True).relative_to(real)
    except (ValueError, OSError, RuntimeError):
        return _refused(path, f"it is a symbolic link to {target}, outside the docs folder", "put the file itself there")
    if not stat.S_ISREG(st.st_mode):
        what = "folder" if stat.S_ISDIR(st.st_mode) else "file"
        return _refused(path, f"it is a symbolic link to {_special(st.st_mode)} ({target})", f"put the {what} itself there")
    return _size(path, st.st_size, limit)


def _size(path: Path, size: int, limit: int) -> Diagnostic | None:
    if size <= limit:
        return None
    return _refused(path, f"it is {size} bytes, more than the {limit} a file of the site may be", "make it smaller")


def _engine_name(path: Path) -> Diagnostic | None:
    """A name at the top of ``docs/`` the engine's files take (``kb-*``): it would replace the engine's script."""
    if not path.name.startswith(ENGINE):
        return None
    theirs = next((f for f in (_ASSETS / path.name, _WORKER / path.name) if f.is_file()), None)
    said = f"the engine's own {theirs.parent.name}/{theirs.name}" if theirs else f"a {ENGINE}* name the engine keeps"
    return _refused(path, f"it would replace {said}", f"rename it (names starting '{ENGINE}' are the engine's)")


def _refused(path: Path, problem: str, fix: str) -> Diagnostic:
    shown = Path(os.fsencode(path).decode("utf-8", "backslashreplace"))
    return diag("docs-file", Location(shown), problem=problem, fix=fix)
