"""Where kb keeps its caches and what limits it runs under, found from the environment: the adapters' part.

The CLI, :meth:`kb.KnowledgeBase.load`, the MkDocs and pytest plugins call these and pass the answers into the
engine as arguments (issue 33 item 5: the core reads no environment, ``platformdirs`` included).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING

from kb.core import cache

if TYPE_CHECKING:
    from kb.examples.limits import ExampleLimits

__all__ = ["user_folder", "user_key", "resolve_cache_base", "example_limits"]


def user_folder(kind: str) -> Path:
    """The user's cache (``kind`` "cache") or data folder for kb: ``platformdirs``, which reads ``XDG_*`` and
    ``HOME``; the adapters ask it and pass the answer in (the core reads no environment)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("kb-rules") if kind == "cache" else platformdirs.user_data_dir("kb-rules"))


@functools.cache
def user_key() -> bytes:
    """This user's cache-signing key (:func:`kb.core.cache.user_key` in the user's data folder), read once per
    process and only when a cache file is read or written (a query on a fresh index asks for none)."""
    return cache.user_key(user_folder("data"))


def resolve_cache_base(root: Path, given: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder for the content at ``root``: ``given`` (``$KB_CACHE``), else ``.kb-cache/`` beside the
    content (:func:`kb.core.cache.beside`), else the user's cache folder."""
    return Path(given) if given else cache.beside(root) or user_folder("cache")


def example_limits(seconds: str | None) -> ExampleLimits:
    """The examples' limits, with ``seconds`` (``$KB_EXAMPLE_SECONDS``, a positive number) when given."""
    from kb.examples.limits import ExampleLimits  # not at the top: a query process needs no limits (signal, threading)

    if not seconds:
        return ExampleLimits()
    try:
        value = float(seconds)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ValueError(f"KB_EXAMPLE_SECONDS must be a positive number of seconds, not {seconds!r}")
    return ExampleLimits(seconds=value)
