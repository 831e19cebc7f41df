"""Caches of parsed and linked content, keyed by file content, kept beside the index (``.kb-cache/``).

Two layers: per file, the parsed and schema-checked entry (reused when the file's size and
modification time, or else its content hash, are unchanged); and for the whole tree, the links,
glossary and diagnostics (reused when every file's hash and the engine's own code are unchanged).
Caches are an optimisation only: any error reading them means "no cache". They hold pickles the
engine wrote itself; nothing in them comes from content authors as code.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sysconfig
from functools import cache
from pathlib import Path
from typing import Any, Callable, Hashable

import platformdirs

from kb.core.files import atomic_write

__all__ = ["cache_dir", "shared_cache_dir", "code_version", "load", "save", "tree_key", "Memo"]


def cache_dir(root: Path, area: str) -> Path:
    """``<base>/<area>/<root hash>``: the base is ``$KB_CACHE``, else ``.kb-cache/`` beside the content folder,
    else (that folder not writable, or inside an installed package) the user's cache folder."""
    return _base(Path(root).resolve()) / area / hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:12]


def _base(root: Path) -> Path:
    if os.environ.get("KB_CACHE"):
        return Path(os.environ["KB_CACHE"])
    installed = {Path(p).resolve() for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])}
    if os.access(root.parent, os.W_OK) and not any(root.is_relative_to(p) for p in installed):
        return root.parent / ".kb-cache"
    return Path(platformdirs.user_cache_dir("kb-rules"))


def shared_cache_dir(area: str) -> Path:
    """``$KB_CACHE/<area>``, else the user's cache folder: for what no content changes (the analysis of a
    language's common words), so that every content tree, and every test's, shares it."""
    if os.environ.get("KB_CACHE"):
        return Path(os.environ["KB_CACHE"]) / area
    return Path(platformdirs.user_cache_dir("kb-rules")) / area


@cache
def code_version() -> str:
    """A hash of the engine's source: a new engine never reuses an old cache."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parents[1]  # the whole kb package
    for path in sorted(here.rglob("*")):
        if path.suffix in (".py", ".json"):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def tree_key(digests: dict[str, str]) -> str:
    """One hash for a whole tree's files and the engine."""
    h = hashlib.sha256(code_version().encode())
    for rel in sorted(digests):
        h.update(f"{rel}\0{digests[rel]}\n".encode())
    return h.hexdigest()[:24]


def load(path: Path) -> Any:
    """The object pickled at ``path``, or ``None`` (missing, unreadable, from another engine)."""
    try:
        with open(path, "rb") as fh:
            version, obj = pickle.load(fh)
    except Exception:  # a damaged cache is no cache
        return None
    return obj if version == code_version() else None


def save(path: Path, obj: Any) -> None:
    """Pickle ``obj`` to ``path`` atomically; a failure to write a cache is not an error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, pickle.dumps((code_version(), obj), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        pass


class Memo:
    """Per-entry results of whole-tree stages, reused while the entry and what it depends on are unchanged.

    A key is (stage, entry id, the entry file's hash, ``signature``): the signature names everything
    else the stage reads (the glossary, the titles), so editing one rule recomputes that rule only.
    """

    def __init__(self, previous: dict[Hashable, Any] | None, signature: str, digest_of: Callable[[Any], str]) -> None:
        self.previous = previous or {}
        self.current: dict[Hashable, Any] = {}
        self.signature = signature
        self.digest_of = digest_of

    def __call__(self, stage: str, entry: Any, compute: Callable[[], Any]) -> Any:
        key = (stage, entry.id, self.digest_of(entry), self.signature)
        value = self.previous[key] if key in self.previous else compute()
        self.current[key] = value
        return value


def no_memo(stage: str, entry: Any, compute: Callable[[], Any]) -> Any:
    """A memo that remembers nothing."""
    return compute()
