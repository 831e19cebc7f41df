"""Files on disk: finding content files and writing outputs atomically. Light: no parser is imported."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from kb.core.errors import KbError
from kb.core.diagnostics import CONTROL, Diagnostic, diag, format_path, printable
from kb.core.model import COMMON, Location

__all__ = ["find_files", "atomic_write", "Building", "Ours", "NotOurs", "sweep_building", "NotRegular", "sweep_temp", "abandoned", "TEMP_PREFIX", "digest", "file_digest", "default_content_root", "find_root", "content_root", "NoContent", "os_problem", "named"]


def _folders(here: Path, dirs: list[str], real_root: Path) -> tuple[list[str], list[Diagnostic]]:
    """The sub-folders to walk into (not hidden, ``_``-named or badly named) and the problems of the others
    and of links among them."""
    kept, problems = [], []
    for d in sorted(dirs):
        if d.startswith((".", "_")):
            continue
        bad = _name_problem(here, d)
        if bad:
            problems.append(bad)
            continue
        problem = _link_problem(here / d, real_root) if (here / d).is_symlink() else None
        if problem:
            problems.append(problem)
        kept.append(d)
    return kept, problems


def _yaml_file(here: Path, name: str, real_root: Path) -> tuple[Path | None, Diagnostic | None]:
    """A ``*.yaml``-like file of a folder: the path to load (a dangling link included: the loader says it cannot
    be read), or the problem that keeps it out (a bad name or ending, a link out, a special file)."""
    path = here / name
    bad = _name_problem(here, name)
    if bad:
        return None, bad
    if not name.endswith((".yaml", ".yml")):
        return None, diag("file-extension", Location(path), name=name)
    problem = _link_problem(path, real_root) if path.is_symlink() else None
    if problem:
        return None, problem
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if path.is_symlink():
            return path, None
        return None, diag("unreadable", Location(path), reason=exc.strerror or str(exc))
    if not stat.S_ISREG(mode):
        return None, diag("not-a-file", Location(path), kind=_special(mode))
    return path, None


def find_files(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    """Every ``*.yaml`` file below ``root`` in a stable order, and the problems met on the way.

    Folders and files whose names start with ``.`` or ``_`` are skipped. Reported: links leaving
    ``root`` or going round in a loop, folders that cannot be read, names that are not UTF-8,
    ``.YAML``-like endings, and special files (FIFOs, devices, sockets), which are never opened.
    """
    found: list[Path] = []
    problems: list[Diagnostic] = []
    real_root = root.resolve()

    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else root
        problems.append(diag("unreadable", Location(where), reason=exc.strerror or str(exc)))

    for folder, dirs, files in os.walk(root, followlinks=False, onerror=unreadable):
        here = Path(folder)
        if any(name.startswith(TEMP_PREFIX) for name in files):
            sweep_temp(here)  # what a killed `kb i18n import` or `ack` left
        dirs[:], dir_problems = _folders(here, dirs, real_root)
        problems += dir_problems
        for name in sorted(files):
            if name.startswith(".") or not name.lower().endswith((".yaml", ".yml")):
                continue
            path, problem = _yaml_file(here, name, real_root)
            if problem is not None:
                problems.append(problem)
            if path is not None:
                found.append(path)
    return found, problems


def _name_problem(here: Path, name: str) -> Diagnostic | None:
    """``file-name`` for a name that is not valid UTF-8 (the system gave it to us with surrogate escapes), or that
    holds a line break or another control character (it would forge the lines ``kb check`` prints): at the folder."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return diag("file-name", Location(here / _shown(name)), name=_shown(name), problem="is not valid UTF-8")
    bad = _NAME_CONTROL.search(name)
    if bad:
        return diag("file-name", Location(here), name=name, problem=f"holds the control character {printable(bad.group())}")
    return None


_NAME_CONTROL = re.compile(f"[\\t\\n{CONTROL.pattern[1:-1]}\\u2028\\u2029]")


def _shown(name: str) -> str:
    """A name that cannot be printed as it is, with its undecodable bytes as ``\\xNN``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _special(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def _link_problem(path: Path, real_root: Path) -> Diagnostic | None:
    """Why a symbolic link cannot be followed (a loop, or a target outside the content), if it cannot."""
    try:
        target = path.resolve(strict=False)
    except (RuntimeError, OSError):
        return diag("unreadable", Location(path), reason="symbolic link loop")
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return diag("unreadable", Location(path), reason="symbolic link loop")
    try:
        target.relative_to(real_root)
        return None
    except ValueError:
        return diag("symlink-outside", Location(path), target=os.readlink(path))


def digest(raw: bytes) -> str:
    """The short content hash that caches and the index manifest key files by."""
    return hashlib.sha256(raw).hexdigest()[:16]


def file_digest(path: Path) -> str:
    """:func:`digest` of a file's bytes; empty when it cannot be read."""
    try:
        return digest(path.read_bytes())
    except OSError:
        return ""


TEMP_PREFIX = ".kb-tmp-"
"""Temporary files of :func:`atomic_write` are named ``.kb-tmp-<pid>-<name>.<random>`` (hidden, skipped by the
loader); those a killed run left are removed by :func:`sweep_temp` at the next run."""


class NotRegular(KbError, OSError):
    """An output path names something that is not a regular file (a link, a FIFO, a device, a folder): never replaced."""

    __str__ = OSError.__str__  # errno, message and path, as an OSError says them


def _writable_target(path: Path) -> int | None:
    """The permission bits of the regular file at ``path`` (None when there is none); :class:`NotRegular` for
    anything else there. A symbolic link is refused, not followed: the output must be named as it is."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else _special(st.st_mode)
    raise NotRegular(errno.EEXIST, f"{kind} is there; only a regular file is replaced (nothing was written)", str(path))


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` beside ``path`` and rename it into place: readers never see half a file.

    Only a regular file is replaced: a symbolic link, FIFO, device or folder at ``path`` raises
    :class:`NotRegular` (an ``OSError``) and nothing is written. The file keeps its permission bits (a new
    file gets the usual ones, as the umask allows). The folder must exist: a mistyped output path is an
    error, not a new folder. On any failure (a full disk, a read-only folder) the temporary file is removed.
    """
    mode = _writable_target(path)
    if mode is None:
        mode = 0o666 & ~_umask()
    import tempfile  # a query process writes nothing: not imported by it (issue 31)

    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-{path.name[:100]}.", dir=path.parent)
    except OSError as exc:  # a read-only folder: say which file could not be written, not the temporary name
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):  # a full disk: the file meant, not the temporary one (nor no file at all)
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def abandoned(name: str, prefix: str, mtime: float, older_than: float = 600.0) -> bool:
    """True for a temporary file or folder (``<prefix><pid>-...``) whose writer is gone.

    The writer's process id is in the name: when no such process runs, it was killed. A name without
    one (or a process id in use again) is judged by age instead.
    """
    pid_text = name[len(prefix):].split("-", 1)[0]
    if pid_text.isdigit() and int(pid_text) != os.getpid():
        try:
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            return True
        except OSError:
            pass
    return time.time() - mtime > older_than


def sweep_temp(folder: Path) -> int:
    """Remove the temporary files killed writers left in ``folder``; returns how many."""
    removed = 0
    try:
        leftovers = [p for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)]
    except OSError:
        return 0
    for leftover in leftovers:
        try:
            st = leftover.lstat()
            if stat.S_ISREG(st.st_mode) and abandoned(leftover.name, TEMP_PREFIX, st.st_mtime):
                leftover.unlink()
                removed += 1
        except OSError:
            pass
    return removed


class NotOurs(KbError, ValueError):
    """A folder a build may not replace (:class:`Ours`): the message says why; nothing was written.
    ``removable``: the folder may go if its owner says so (not the content, the project or a git repository)."""

    def __init__(self, message: str, removable: bool) -> None:
        super().__init__(message)
        self.removable = removable

    def advice(self, option: str) -> str:
        """The reason and what to do: delete the folder (when it may go) or name another one with ``option``."""
        what = "delete it yourself if nothing in it is needed, or choose" if self.removable else "choose"
        return f"{self}; {what} another folder with {option}"


@dataclass(frozen=True)
class Ours:
    """Which folders a :class:`Building` may replace whole: none there, an empty one, or one an earlier build made,
    known by the file ``mark`` every build writes into its folder. Never one that is or holds a folder of ``keep``
    (the content, the project) or a ``.git``. ``before``: a file the builds made before marks left at their folder's
    top; a folder with it and no mark is an earlier build's when the new build writes every name at its top."""

    mark: str
    keep: tuple[tuple[str, Path], ...] = ()
    """(what it is, the folder): ``("the content folder", Path("content"))``."""
    before: str | None = None

    def refusal(self, target: Path, built: Path | None = None) -> NotOurs | None:
        """Why ``target`` may not be replaced (``built``: the new folder, at the swap), or None."""
        kept = self._kept(target)
        if kept is not None or not os.path.lexists(target):
            return kept
        if not target.is_dir() or target.is_symlink():
            return NotOurs(f"{target} is not a folder", removable=True)
        names = set(os.listdir(target))
        if not names:
            return None
        if not self._earlier(names, built):
            return NotOurs(f"{target} is not empty and no earlier build made it (it has no {self.mark} file)",
                           removable=True)
        if any(".git" in dirs or ".git" in files for _, dirs, files in os.walk(target)):
            return NotOurs(f"{target} holds a git repository (.git)", removable=False)
        return None

    def _kept(self, target: Path) -> NotOurs | None:
        """``target`` is or holds a folder of :attr:`keep`."""
        here = Path(os.path.abspath(target))
        for name, folder in self.keep:
            if here == Path(os.path.abspath(folder)):
                return NotOurs(f"{target} is {name}", removable=False)
            if here in Path(os.path.abspath(folder)).parents:
                return NotOurs(f"{target} holds {name} ({folder})", removable=False)
        return None

    def _earlier(self, names: set[str], built: Path | None) -> bool:
        """A folder holding ``names`` is an earlier build's: it has the mark, or it was made before marks (at the swap,
        only when the new folder ``built`` has every one of its names at its top)."""
        if self.mark in names:
            return True
        return self.before in names and (built is None or names <= set(os.listdir(built)))


class Building:
    """A folder built beside ``target`` and put in its place whole (:meth:`commit`) or dropped (:meth:`discard`):
    a failed build leaves ``target`` as it was. Named ``.<target>.building-<pid>-<random>``; what killed builds
    left beside ``target`` is swept when the next one starts. An ``OSError`` (a read-only folder) names ``target``.
    ``ours``: ``target`` is replaced only when it is one of them (:class:`NotOurs` raised at once, before any
    work, and again at the swap); the new folder gets its mark."""

    def __init__(self, target: Path, ours: Ours | None = None) -> None:
        import tempfile

        self.target, self.ours = target, ours
        self._refuse()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            sweep_building(target)
            self.folder = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-{os.getpid()}-", dir=target.parent))
            self.folder.chmod(0o755)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(target)) from exc

    def copy_target(self) -> None:
        """Start from a copy of ``target`` (a dirty build writes only what changed), each file's time kept: what the
        build leaves alone stays as it was. A copy, not links: a writer opening a linked file would change ``target``."""
        import shutil

        first: list[OSError] = []  # copytree gathers its failures into one shutil.Error: the first one, as it was

        def copy(src: str, dst: str) -> object:
            if first:
                raise first[0]
            try:
                return shutil.copy2(src, dst)
            except OSError as exc:
                first.append(exc)
                raise

        if self.target.is_dir():
            try:
                shutil.copytree(self.target, self.folder, symlinks=True, dirs_exist_ok=True, copy_function=copy)
            except shutil.Error as exc:
                raise first[0] if first else OSError(errno.EIO, str(exc), str(self.target)) from exc

    def commit(self) -> None:
        """Put the folder in place of ``target``; the old one is deleted only once the new one is in place.

        Where the system can, the two folders are exchanged atomically, so ``target`` always exists
        and is always whole, even if the process is killed at that moment.
        """
        new, target = self.folder, self.target
        if self.ours is not None:
            (new / self.ours.mark).write_text("Made by a build: the next one replaces this folder whole.\n",
                                              encoding="utf-8")
            self._refuse(new)
        if target.exists() and _exchange(new, target):
            remove_tree(new)  # ``new`` now holds the previous folder
            return
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}.old-{os.getpid()}")
            remove_tree(old)
            os.rename(target, old)
        os.rename(new, target)
        if old is not None:
            remove_tree(old)

    def discard(self) -> None:
        remove_tree(self.folder)

    def _refuse(self, built: Path | None = None) -> None:
        refusal = self.ours.refusal(self.target, built) if self.ours is not None else None
        if refusal is not None:
            raise refusal

    def problem(self, exc: OSError, unnamed: str) -> str:
        """:func:`os_problem` of a failure while building, a file named at its place in ``target``."""
        def moved(name: object) -> object:
            return name.replace(str(self.folder), str(self.target), 1) if isinstance(name, str) else name

        return os_problem(OSError(exc.errno, exc.strerror, moved(exc.filename), None, moved(exc.filename2)), unnamed)


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2``); False where the system cannot."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    return bool(renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0)


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove the folder ``path`` and all it holds, what cannot go left (``shutil`` is imported only then: a query
    process removes nothing, issue 31)."""
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def sweep_building(target: Path) -> None:
    """Remove what killed builds left beside ``target``: their temporary folders, at once when the build's
    process is gone (its id is in the name), else once they are ten minutes old."""
    for kind in ("building", "old"):
        prefix = f".{target.name}.{kind}-"
        for leftover in target.parent.glob(prefix + "*"):
            try:
                if abandoned(leftover.name, prefix, leftover.lstat().st_mtime):
                    remove_tree(leftover)
            except OSError:
                pass


def named(exc: OSError, path: Path | str) -> OSError:
    """``exc``, or when it names no file (a ``write`` on a full disk), the same error naming ``path``."""
    if exc.filename is not None or exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))


def os_problem(exc: OSError, unnamed: str = "standard output") -> str:
    """A failed read or write in one line: the file (the destination of a copy) and the system's reason (``No
    space left on device``, ``Read-only file system``, ``Permission denied``); ``unnamed`` when it names none. The
    file is named as diagnostics name files (relative to the working folder when inside it)."""
    path = exc.filename2 if exc.filename2 is not None else exc.filename
    where = format_path(Path(os.fsdecode(path))) if isinstance(path, (str, bytes, os.PathLike)) else unnamed
    return f"{where}: {exc.strerror or exc}"


class NoContent(KbError, LookupError):
    """No content tree where one was looked for: the message says where, and how to give one."""


def default_content_root(start: Path | None = None, given: str | os.PathLike[str] | None = None) -> Path:
    """The content tree to work on: ``given`` (an adapter passes ``$KB_CONTENT``: the core reads no
    environment), else the tree holding ``start`` (the current folder)
    or a ``content/`` folder in it or in any folder above it. Raises :class:`NoContent` when there is none.
    """
    if given:
        return Path(given)
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
    """The content tree that ``path`` (a tree, a game folder or a file in one, or a pack: a folder whose ``content/``
    is a tree, as the current folder is taken) belongs to; raises :class:`NoContent`."""
    if not _is_root(path) and _is_root(path / "content"):
        return path / "content"
    found = find_root(path)
    if not _is_root(found):
        raise NoContent(f"{path}: not a content folder, nor inside one (a content folder holds "
                        "<game>/game.yaml files)")
    return found


def _is_root(folder: Path) -> bool:
    return folder.is_dir() and ((folder / COMMON).is_dir() or any(folder.glob("*/game.yaml")))


def find_root(path: Path) -> Path:
    """The content root holding ``path`` (a root, a game folder or a file); ``path`` itself if none is found."""
    absolute = Path(os.path.abspath(path))  # "rules/x.yaml" from inside a game folder finds the tree above
    probe = absolute if absolute.is_dir() else absolute.parent
    for folder in (probe, *probe.parents):
        if _is_root(folder):
            return folder if absolute == path else Path(os.path.relpath(folder))
    return path
