"""A build's outputs kept between commands, keyed by everything they are made from (issue 33: a warm build).

A language's pages, search data and calculators' data are each a pure function of the content tree (every file's
hash), the engine's code and a few named inputs (the language, the git commit the translations' status reads, whether
Pyodide is installed). :func:`kept` reuses what an earlier command made from exactly those inputs, from
``<cache>/site/<root hash>/<name>-<key>.json`` (:mod:`kb.core.cache`: signed JSON, written atomically), and makes it
otherwise; a new value replaces the older files of its name, so one state per name is kept. Nothing is written when
the value was found: a warm build rewrites no cache. :func:`previous` reads that one state whatever its key: the pages
made after an edit take from it those the edit cannot have changed (:func:`kb.site.pages.unchanged_pages`).

:func:`runtime_key` names the inputs of the calculators' Pyodide runtime (:mod:`kb.site.calc_runtime`), which are
outside the content: the installed Pyodide's files (path, size, modification time), Babel's version, the engine's
code and the games' ``mechanics.py``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from kb.core import cache

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["AREA", "kept", "cached", "previous", "forget_others", "content_key", "runtime_key"]

AREA = "site"
"""The cache area (:func:`kb.core.cache.cache_dir`) of the kept outputs."""

T = TypeVar("T")


def content_key(kb: "Linked", *inputs: str) -> str:
    """One hash of the whole tree's files, the engine's code and ``inputs``."""
    h = hashlib.sha256(cache.tree_key(dict(kb.digests)).encode())
    for part in inputs:
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:24]


def kept(kb: "Linked", name: str, key: str, make: Callable[[], T], shape: Callable[[Any], bool],
         types: tuple[type, ...] = ()) -> tuple[T, bool]:
    """The value ``make()`` gives for ``key``: from the cache when an earlier command wrote it (and it has the
    ``shape`` written), else made and written. Returns it and whether it came from the cache."""
    found = cached(kb, name, key, shape, types)
    if found is not None:
        return found, True
    folder = cache.cache_dir(kb.root, AREA, kb.cache_base)
    path = folder / f"{name}-{key}.json"
    value = make()
    try:
        for old in folder.glob(f"{name}-*.json"):
            if old != path and old.name[len(name) + 1:-len(".json")].isalnum():  # this name's, not a longer name's
                cache.remove(old)
    except OSError:
        pass  # a cache that cannot be tidied is not an error
    cache.save(path, value, types, kb.cache_key)
    return value, False


def forget_others(kb: "Linked", prefix: str, names: set[str]) -> None:
    """Remove the kept files whose name starts with ``prefix`` but is none of ``names`` (each ``<prefix>...``): what an
    older engine or a game no longer there wrote under a name nobody writes now, which :func:`kept`'s own tidying (a
    name's older keys) never reaches."""
    folder = cache.cache_dir(kb.root, AREA, kb.cache_base)
    try:
        for old in folder.glob(f"{prefix}*.json"):
            stem = old.name[:-len(".json")]
            if not any(stem.startswith(f"{n}-") and stem[len(n) + 1:].isalnum() for n in names):
                cache.remove(old)
    except OSError:
        pass  # a cache that cannot be tidied is not an error


def cached(kb: "Linked", name: str, key: str, shape: Callable[[Any], bool], types: tuple[type, ...] = ()) -> Any:
    """What :func:`kept` wrote for ``name`` and ``key`` (of the ``shape`` written), or ``None``."""
    found = cache.load(cache.cache_dir(kb.root, AREA, kb.cache_base) / f"{name}-{key}.json", types, kb.cache_key)
    return found if found is not None and shape(found) else None


def previous(kb: "Linked", name: str, shape: Callable[[Any], bool], types: tuple[type, ...] = ()) -> Any:
    """What :func:`kept` last wrote for ``name``, whatever its key (of the ``shape`` written, by this engine), or
    ``None``: the state an earlier command made, from which the caller takes what it can tell is still the same
    (``kb build`` after an edit: :func:`kb.site.pages.unchanged_pages`)."""
    folder = cache.cache_dir(kb.root, AREA, kb.cache_base)
    try:
        paths = sorted(folder.glob(f"{name}-*.json"))
    except OSError:
        return None
    for path in paths:
        if path.name[len(name) + 1:-len(".json")].isalnum():  # this name's, not a longer name's
            found = cache.load(path, types, kb.cache_key)
            if found is not None and shape(found):
                return found
    return None


def runtime_key(folder: Path | None, content: Path) -> str:
    """The inputs of :func:`kb.site.calc_runtime.runtime_files` (``folder``: the Pyodide it reads, ``None``: none)."""
    import babel

    h = hashlib.sha256(f"{cache.code_version()}\0{babel.__version__}\0{folder}".encode())
    if folder is not None:
        for path in sorted(folder.iterdir()):
            if path.is_file():
                st = path.stat()
                h.update(f"\0{path.name}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    for path in sorted(content.glob("*/mechanics.py")):
        h.update(b"\0" + os.fsencode(path.parent.name) + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:24]
