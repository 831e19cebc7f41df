"""Files on disk: finding content files and writing outputs atomically. Light: no parser is imported."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from kb.core.diagnostics import Diagnostic, diag
from kb.core.model import Location

__all__ = ["find_files", "atomic_write", "digest", "file_digest", "default_content_root", "find_root", "content_root", "NoContent"]


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


class NoContent(LookupError):
    """No content tree where one was looked for: the message says where, and how to give one."""


def default_content_root(start: Path | None = None) -> Path:
    """The content tree to work on: ``$KB_CONTENT``, else the tree holding ``start`` (the current folder)
    or a ``content/`` folder in it or in any folder above it. Raises :class:`NoContent` when there is none.
    """
    env = os.environ.get("KB_CONTENT")
    if env:
        return Path(env)
    here = Path(os.path.abspath(start if start is not None else Path.cwd()))
    for folder in (here, *here.parents):
        if _is_root(folder):
            return folder
        if _is_root(folder / "content"):
            return folder / "content"
    raise NoContent(f"no content found in {here} or any folder above it (a content folder holds "
                    "<game>/game.yaml files); run inside a rules pack, give --content PATH, or make a "
                    "pack with `kb init DIR`")


def content_root(path: Path) -> Path:
    """The content tree that ``path`` (a tree, a game folder or a file in one) belongs to; raises :class:`NoContent`."""
    found = find_root(path)
    if not _is_root(found):
        raise NoContent(f"{path}: not a content folder, nor inside one (a content folder holds "
                        "<game>/game.yaml files)")
    return found


def _is_root(folder: Path) -> bool:
    return folder.is_dir() and ((folder / "common").is_dir() or any(folder.glob("*/game.yaml")))


def find_root(path: Path) -> Path:
    """The content root holding ``path`` (a root, a game folder or a file); ``path`` itself if none is found."""
    absolute = Path(os.path.abspath(path))  # "rules/x.yaml" from inside a game folder finds the tree above
    probe = absolute if absolute.is_dir() else absolute.parent
    for folder in (probe, *probe.parents):
        if _is_root(folder):
            return folder if absolute == path else Path(os.path.relpath(folder))
    return path
