"""Pages kept from the last ``kb build`` of a site folder: only the pages whose inputs changed are rendered again.

A page's HTML is a function of two things: what every page of its language shares (the engine, the theme and its
templates, MkDocs and the packages that render, ``mkdocs.yml``, the menu, which names every page and game: the
:func:`shell` key) and what is its own (its Markdown and its calculators' forms: its :func:`fingerprint`), plus the
search data's version, which every page names. After a build, :class:`Record` keeps,
per language and site folder, the shell key, each page's fingerprint and the size and time of the file written, and
the search data's version. The next build of the same folder copies a page from the site in place when the shell and
its fingerprint are unchanged and the file is still the one written (MkDocs' own dirty build then leaves it alone:
its source is older than the copy), renders every other page, and names the new search version in the kept pages
(:func:`renamed_version`). The result is the clean build's, file for file (``tests/test_outputs.py``); ``kb build
--clean`` renders every page (issue 33: the build after an edit).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sysconfig
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from kb.core import cache

__all__ = ["Record", "fingerprint", "shell", "renamed_version", "RENDERING"]

RENDERING = ("mkdocs", "mkdocs-material", "mkdocs-material-extensions", "Markdown", "pymdown-extensions", "Jinja2",
             "MarkupSafe", "Pygments", "nh3", "Babel")
"""The packages whose version changes what a page's HTML is (a new one renders every page again)."""


def _digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:32]


def fingerprint(markdown: str, *own: str) -> str:
    """What one page is rendered from besides the :func:`shell`: its Markdown and ``own`` (its calculators' forms)."""
    return _digest([markdown, *own])


def _installed() -> tuple[str, ...]:
    """The folders installed packages live in (their files are named by the packages' versions instead)."""
    paths = sysconfig.get_paths()
    return tuple(os.path.join(os.path.realpath(paths[k]), "") for k in ("purelib", "platlib"))


def _files_of(folders: Iterable[str], own: Iterable[str]) -> list[str]:
    """Every file under ``folders`` as ``path size mtime``, but for installed packages' folders (a theme's package
    has its version in :func:`_versions`), and every file under ``own`` (the plugin's templates): a pack's
    overrides and the plugin's templates, changed or not."""
    out, installed = [], _installed()
    for folder in [*(f for f in folders if not os.path.join(os.path.realpath(f), "").startswith(installed)), *own]:
        for top, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(top, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                out.append(f"{path} {st.st_size} {st.st_mtime_ns}")
    return out


def _versions() -> list[str]:
    """The rendering packages' versions (:data:`RENDERING`) and every installed MkDocs theme's."""
    names = set(RENDERING) | {ep.dist.name for ep in metadata.entry_points(group="mkdocs.themes") if ep.dist}
    out = []
    for name in sorted(names):
        try:
            out.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name}=-")
    return out


def shell(config_file: str | None, theme_dirs: Iterable[str], own: Iterable[str], said: Any) -> str:
    """The key of what every page of a language shares: the engine's code (:func:`kb.core.cache.code_version`), the
    theme's folders (``theme_dirs``: the pack's overrides, Material's) and the plugin's templates (``own``), the
    rendering packages' versions, ``mkdocs.yml`` and ``said`` (the language, the menu, the site's address: JSON)."""
    text = ""
    if config_file:
        try:
            text = Path(config_file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = "\0unreadable"
    return _digest([cache.code_version(), *_files_of(theme_dirs, own), *_versions(), text,
                    json.dumps(said, sort_keys=True, ensure_ascii=False, default=str)])


@dataclass
class Record:
    """One language's last build of one site folder: the shell key, each page (by its path under the site folder) as
    ``[fingerprint, size, mtime_ns]``, the search data's version the pages name, and the site folder itself (so a
    record whose folder is gone can be told and removed: :meth:`forget_gone`)."""

    shell: str = ""
    pages: dict[str, list[Any]] = field(default_factory=dict)
    version: str = ""
    site: str = ""

    @staticmethod
    def path(cache_folder: Path, lang: str, site: Path) -> Path:
        """Where the record of ``lang``'s pages in the site folder ``site`` is kept."""
        return cache_folder / f"rendered-{lang}-{hashlib.sha256(str(site).encode()).hexdigest()[:16]}.json"

    @classmethod
    def read(cls, path: Path, key: cache.KeyFn | None) -> "Record":
        """The record at ``path`` signed with ``key`` (:mod:`kb.core.cache`), or an empty one (missing, damaged,
        another engine's: every page is rendered)."""
        found = cache.load(path, key=key)
        if not (isinstance(found, list) and len(found) == 4 and isinstance(found[1], dict)
                and all(isinstance(found[i], str) for i in (0, 2, 3))):
            return cls()
        return cls(found[0], found[1], found[2], found[3])

    def stat_pages(self) -> None:
        """Each page's size and time as its file in the site folder has them now (a page not there keeps none)."""
        for rel, row in self.pages.items():
            try:
                st = os.stat(Path(self.site) / rel)
            except OSError:
                continue
            row[1:] = [st.st_size, st.st_mtime_ns]

    def write(self, path: Path, key: cache.KeyFn | None) -> None:
        cache.save(path, [self.shell, self.pages, self.version, self.site], key=key)

    @classmethod
    def forget_gone(cls, cache_folder: Path, key: cache.KeyFn | None, written: set[Path]) -> None:
        """Remove the records of site folders that are no longer there (a folder built once and deleted since), and
        those that cannot say their folder (damaged, another engine's): each would only make its folder's next build
        render every page, as a missing record does. ``written``: the records this build wrote (not read again)."""
        try:
            for path in cache_folder.glob("rendered-*.json"):
                if path in written:
                    continue
                site = cls.read(path, key).site
                if not site or not os.path.isdir(site):
                    cache.remove(path)
        except OSError:
            pass  # a cache that cannot be tidied is not an error

    def kept(self, shell: str, rel: str, printed: str, site: Path) -> bool:
        """Whether the page at ``rel`` (its :func:`fingerprint` ``printed``) can be taken from ``site`` as it is: the
        same shell and fingerprint, and the file there still the regular file the last build wrote (its size and time;
        never a link)."""
        row = self.pages.get(rel)
        if shell != self.shell or not row or row[0] != printed:
            return False
        try:
            st = os.lstat(site / rel)
        except OSError:
            return False
        return stat.S_ISREG(st.st_mode) and [st.st_size, st.st_mtime_ns] == row[1:]  # our file, not a link put there


def renamed_version(path: Path, old_tag: str, new_tag: str) -> bool:
    """Put ``new_tag`` in place of ``old_tag`` (the page's search tag, naming the last version) in the page at ``path``,
    written anew (never through a link). False when the page does not hold ``old_tag`` exactly once."""
    raw, old = path.read_bytes(), old_tag.encode()
    if raw.count(old) != 1:
        return False
    path.unlink()
    path.write_bytes(raw.replace(old, new_tag.encode()))
    return True
