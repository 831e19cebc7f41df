"""Files on disk: finding content files and writing outputs atomically. Light: no parser is imported."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from kb.core.diagnostics import Diagnostic, diag
from kb.core.model import Location

__all__ = ["find_files", "atomic_write", "digest", "file_digest", "default_content_root", "find_root"]


def find_files(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    """Every ``*.yaml`` file below ``root`` in a stable order; links leaving ``root`` are reported.

    Folders and files whose names start with ``.`` or ``_`` are skipped.
    """
    found: list[Path] = []
    problems: list[Diagnostic] = []
    real_root = root.resolve()
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        here = Path(folder)
        for d in list(dirs):
            if (here / d).is_symlink() and not _inside(here / d, real_root):
                problems.append(diag("symlink-outside", Location(here / d), target=os.readlink(here / d)))
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml")) or name.startswith("."):
                continue
            path = here / name
            if path.is_symlink() and not _inside(path, real_root):
                problems.append(diag("symlink-outside", Location(path), target=os.readlink(path)))
                continue
            found.append(path)
    return found, problems


def _inside(path: Path, real_root: Path) -> bool:
    try:
        path.resolve().relative_to(real_root)
        return True
    except (ValueError, OSError, RuntimeError):
        return False


def digest(raw: bytes) -> str:
    """The short content hash that caches and the index manifest key files by."""
    return hashlib.sha256(raw).hexdigest()[:16]


def file_digest(path: Path) -> str:
    """:func:`digest` of a file's bytes; empty when it cannot be read."""
    try:
        return digest(path.read_bytes())
    except OSError:
        return ""


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` beside ``path`` and rename it into place: readers never see half a file.

    The folder must exist: a mistyped output path is an error, not a new folder.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def default_content_root() -> Path:
    """``$KB_CONTENT``, else ``./content`` when it is a content tree, else the ``content/`` bundled beside the package."""
    env = os.environ.get("KB_CONTENT")
    if env:
        return Path(env)
    here = Path("content")
    if _is_root(here):
        return here
    return Path(__file__).resolve().parents[2] / "content"


def _is_root(folder: Path) -> bool:
    return folder.is_dir() and ((folder / "common").is_dir() or any(folder.glob("*/game.yaml")))


def find_root(path: Path) -> Path:
    """The content root holding ``path`` (a root, a game folder or a file); ``path`` itself if none is found."""
    probe = path if path.is_dir() else path.parent
    for folder in (probe, *probe.parents):
        if _is_root(folder):
            return folder
    return path
