"""Caches of parsed and linked content, keyed by file content, kept beside the index (``.kb-cache/``).

Two layers: per file, the parsed and schema-checked entry (reused when the file's size and
modification time, or else its content hash, are unchanged); and for the whole tree, the links,
glossary and diagnostics (reused when every file's hash and the engine's own code are unchanged).

Caches hold data, never code: JSON written by :mod:`kb.core.codec`, which builds nothing but plain
values and the engine's own dataclasses. The header (format and engine version) is checked before
anything is decoded. A cache file that is damaged or foreign is ignored and rewritten, with one line
saying so (logger ``kb.cache``); a file or folder in the way of the cache folders is removed the same
way. A cache written by another engine version is simply stale: rebuilt without a word.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import sysconfig
from functools import cache
from pathlib import Path
from typing import Any, Callable, Hashable

from kb.core import codec
from kb.core.diagnostics import format_path
from kb.core.files import atomic_write, remove_tree, sweep_temp

__all__ = ["beside", "cache_dir", "shared_cache_dir", "user_key", "run_key", "KeyFn", "TAG", "code_version", "engine_files", "engine_stamp", "engine_record", "same_engine", "load", "save", "tree_key", "ensure_dir", "remove", "prune", "report",
           "Memo", "FORMAT"]

FORMAT = "kb-cache/1"
"""The cache file format; with the engine version, the header every cache file must carry."""


def _log(level: str, message: str) -> None:
    """Say ``message`` on the ``kb.cache`` logger (``logging`` is imported only when there is something to say)."""
    import logging

    getattr(logging.getLogger("kb.cache"), level)(message)


TAG = "CACHEDIR.TAG"
"""The file that marks a cache folder (the Cache Directory Tagging Specification: backup tools skip it); a file in
the way of a cache's folders is removed only below a folder so marked, or named ``.kb-cache``."""
_TAG = b"Signature: 8a477f597d28d172789f06886806bc55\n# kb-rules: parsed and linked content, rebuilt when missing\n"


def beside(root: Path) -> Path | None:
    """``.kb-cache/`` beside the content folder ``root``, or ``None`` when that folder is not writable or lies
    inside an installed package. The adapters (``kb.api.cache_base``) fall back to the user's cache folder:
    finding that reads the environment (``XDG_CACHE_HOME``, ``HOME``), which the core does not."""
    root = Path(root).resolve()
    installed = {Path(p).resolve() for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])}
    if os.access(root.parent, os.W_OK) and not any(root.is_relative_to(p) for p in installed):
        return root.parent / ".kb-cache"
    return None


def cache_dir(root: Path, area: str, base: str | os.PathLike[str] | None = None) -> Path:
    """``<base>/<area>/<root hash>``: ``base`` as the adapter found it (``$KB_CACHE``, else :func:`beside`, else the
    user's cache folder), or without one :func:`beside` the content. :class:`ValueError` when neither is there."""
    top = Path(base) if base else beside(Path(root))
    if top is None:
        raise ValueError(f"no cache folder given, and none can be made beside {format_path(Path(root))}")
    _tag(top)
    return top / area / hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:12]


def shared_cache_dir(area: str, base: str | os.PathLike[str]) -> Path:
    """``<base>/<area>``, for what no content changes (the analysis of a language's common words): every content
    tree with the same cache folder shares it."""
    _tag(Path(base))
    return Path(base) / area


def _tag(top: Path) -> None:
    """Mark ``top`` as a cache folder (:data:`TAG`), when it is there and not yet marked; nothing when it cannot be."""
    tag = top / TAG
    if not tag.exists() and top.is_dir():
        try:
            atomic_write(tag, _TAG)
        except OSError:
            pass


def engine_files() -> list[Path]:
    """The files of the ``kb`` package that :func:`code_version` hashes: its code, its data and its gettext catalogs
    (the interface strings every kept page and calculator shows)."""
    return [Path(path) for path in _engine_paths()]


def _engine_paths() -> list[str]:
    """:func:`engine_files` as strings, in their order, found without entering the bytecode folders (a query process
    stats them all: :func:`engine_stamp`)."""
    here = str(Path(__file__).resolve().parents[1])  # the whole kb package
    found: list[str] = []
    for folder, subfolders, names in os.walk(here):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        found += [os.path.join(folder, n) for n in names if n.endswith((".py", ".json", ".po"))]
    return sorted(found, key=Path)


@cache
def code_version() -> str:
    """A hash of the engine's files (:func:`engine_files`): a new engine never reuses an old cache."""
    h = hashlib.sha256()
    for path in engine_files():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@cache
def engine_stamp() -> str:
    """A hash of the engine's files' names, sizes and modification times (:func:`engine_files`): what tells, without
    reading them, that they are as they were; when it differs, :func:`code_version` decides (a checkout that touched
    the files without changing them)."""
    h = hashlib.sha256()
    for path in _engine_paths():
        st = os.stat(path)
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def same_engine(recorded: Any) -> bool:
    """True when ``recorded`` (``[engine_stamp(), code_version()]`` as an output written by this engine keeps them)
    names this engine: its stamp, or else its code."""
    return (isinstance(recorded, list) and len(recorded) == 2
            and (recorded[0] == engine_stamp() or recorded[1] == code_version()))


def engine_record() -> list[str]:
    """What an output keeps to know the engine that wrote it (:func:`same_engine`)."""
    return [engine_stamp(), code_version()]


def tree_key(digests: dict[str, str]) -> str:
    """One hash for a whole tree's files and the engine."""
    h = hashlib.sha256(code_version().encode())
    for rel in sorted(digests):
        h.update(f"{rel}\0{digests[rel]}\n".encode())
    return h.hexdigest()[:24]


def report(path: Path, problem: str) -> None:
    """The one line that says a damaged cache file was ignored (it is rebuilt)."""
    _log("warning", f"kb: ignored a damaged cache file {format_path(path)} ({problem}); it is rebuilt")


def _header() -> dict[str, str]:
    return {"format": FORMAT, "engine": code_version()}


def load(path: Path, types: tuple[type, ...] = (), key: KeyFn | None = None) -> Any:
    """The object cached at ``path``, or ``None`` (missing, damaged, foreign, from another engine, signed with
    another key).

    ``types`` names the dataclasses of the caller's stage that the file may hold (see :mod:`kb.core.codec`);
    ``key`` gives the signing key (default :func:`run_key`).
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):  # those: said when the file is written
            report(path, exc.strerror or type(exc).__name__)  # e.g. a folder where the file should be
        return None
    try:
        return codec.loads(_verified(raw, (key or run_key)()), _header(), types)
    except codec.Damaged as exc:
        if not (_ours(raw) and not raw.startswith(codec.dumps(_header(), None)[:-len(',"data":null}')])):
            # an older engine's cache is simply stale; anything else is said
            report(path, str(exc))
        return None


_MAC = b"\n#mac:"


KeyFn = Callable[[], bytes]
"""What gives the key cache files are signed with: the adapters pass ``kb.api.user_key`` (the user's key, kept in
the user's data folder, outside every content tree)."""


def user_key(folder: Path) -> bytes:
    """This user's secret cache key, ``<folder>/cache.key`` (made once, mode 0600): a cache file planted in a
    repository's ``.kb-cache/`` cannot carry a valid signature. Where it cannot be kept, a key for this run only."""
    path = Path(folder) / "cache.key"
    try:
        return path.read_bytes()[:64] or _new_key(path)
    except OSError:
        return _new_key(path)


@cache
def run_key() -> bytes:
    """A key for this process only: what a caller that passes no key signs with (its caches are not reused by
    another run; the adapters pass the user's)."""
    import secrets

    return secrets.token_hex(32).encode()


def _new_key(path: Path) -> bytes:
    import secrets  # once per user, not in every process (issue 31)

    key = secrets.token_hex(32).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
    except FileExistsError:  # another process made it first
        return path.read_bytes()[:64] or key
    except OSError:
        pass
    return key


def _signed(body: bytes, key: bytes) -> bytes:
    return body + _MAC + hmac.new(key, body, hashlib.sha256).hexdigest().encode()


def _verified(raw: bytes, key: bytes) -> bytes:
    """The body of a cache file this user's engine signed; :class:`codec.Damaged` for any other (planted,
    copied from another machine, edited): its records are never trusted over the files they describe."""
    body, sep, mac = raw.rpartition(_MAC)
    if not sep:
        raise codec.Damaged("not signed by this engine")
    if not hmac.compare_digest(mac, hmac.new(key, body, hashlib.sha256).hexdigest().encode()):
        raise codec.Damaged("its signature does not match")
    return body


def _ours(raw: bytes) -> bool:
    """True when ``raw`` starts like a cache file of this format (an older engine wrote it)."""
    return raw.startswith(b'{"header":{"format":"' + FORMAT.encode() + b'"')


def _cache_base(folder: Path) -> Path | None:
    """The cache folder (a ``.kb-cache``, or one :func:`cache_dir` marked with :data:`TAG`) that holds ``folder``."""
    for probe in (folder, *folder.parents):
        if probe.name == ".kb-cache" or (probe / TAG).is_file():
            return probe
    return None


def ensure_dir(folder: Path) -> Path:
    """Make ``folder`` (inside a cache) a folder; a file in the way inside the cache is removed, with one line."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if folder.is_dir():
            return folder
    except (FileExistsError, NotADirectoryError):
        pass
    base = _cache_base(folder)
    if base is not None:
        for part in (*reversed(folder.relative_to(base).parents), folder.relative_to(base)):
            here = base / part
            if (here.exists() or here.is_symlink()) and not here.is_dir():
                report(here, "a file where the cache keeps a folder")
                here.unlink()
                break
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def remove(path: Path) -> None:
    """Remove a cache file (or whatever took its name)."""
    if path.is_dir() and not path.is_symlink():
        remove_tree(path)
    else:
        path.unlink(missing_ok=True)


def prune(folder: Path, keep: set[Path]) -> None:
    """Remove the cache files of ``folder`` but ``keep``; a folder that cannot be read (or files that cannot go)
    are left: a cache that cannot be tidied is not an error."""
    try:
        for old in [*folder.glob("*.json"), *folder.glob("*.pickle")]:
            if old not in keep:
                remove(old)
    except OSError as exc:
        _log("debug", f"kb: cache folder {folder} not tidied: {exc}")


def save(path: Path, obj: Any, types: tuple[type, ...] = (), key: KeyFn | None = None) -> None:
    """Write ``obj`` to ``path`` as cache JSON signed with ``key`` (default :func:`run_key`), atomically; a
    failure to write a cache is not an error."""
    try:
        data = codec.dumps(_header(), obj, types)
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold: no cache, not a crash
        _log("debug", f"kb: not caching {path}: {exc}")
        return
    try:
        ensure_dir(path.parent)
        if path.is_dir() and not path.is_symlink():
            report(path, "a folder where the cache keeps a file")
            remove_tree(path)
        sweep_temp(path.parent)
        atomic_write(path, _signed(data, (key or run_key)()))
    except OSError as exc:
        _log("debug", f"kb: cannot write the cache {path}: {exc}")


class Memo:
    """Per-entry results of whole-tree stages, reused while the entry and what it depends on are unchanged.

    A key is (stage, entry id, the entry file's hash, ``signature``): the signature names everything
    else the stage reads (the glossary, the titles), so editing one rule recomputes that rule only.
    """

    def __init__(self, previous: dict[Hashable, Any] | None, signature: str, digest_of: Callable[[Any], str]) -> None:
        self.previous = previous if isinstance(previous, dict) else {}
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
