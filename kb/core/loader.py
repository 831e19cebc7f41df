"""Find the content files, parse them, check them against the schema, build entries."""

from __future__ import annotations

import ast
import importlib.util
import dataclasses
import hashlib
import os
import re
import sys
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from kb.core import schema
from kb.core import cache
from kb.core._yaml import LIMITS, Limits, load_file, parse_bytes, read_bytes
from kb.core.diagnostics import Diagnostic, diag, format_path
from kb.core.files import digest as content_digest, file_digest, find_files
from kb.core.timelimit import SECONDS, TimeLimit, time_limit
from kb.mechanics import BadResolver, Registry, Resolver, defined, describe, first_line, label_problems
from kb.core.model import COMMON, LANGS, MAX_ID, Entry, Example, Game, Location, Marks, Term, Text, page_stem
from kb.core.validate import check_entry, check_game, control_characters

__all__ = ["COMMON", "MAX_ID", "Loaded", "find_files", "load_tree", "load_entry", "raised_at"]

MECHANICS = "mechanics.py"
"""A game's own resolvers live in ``content/<game>/mechanics.py``."""


@dataclass
class Loaded:
    """What loading a content tree produced."""

    root: Path
    """The content folder."""
    entries: dict[str, Entry] = field(default_factory=dict)
    """Entries by id (the first one, when an id is duplicated)."""
    games: dict[str, Game] = field(default_factory=dict)
    """Game metadata by game id."""
    registry: Registry = field(default_factory=Registry.generic)
    """Generic resolvers plus every game's own."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every problem found."""
    digests: dict[str, str] = field(default_factory=dict)
    """Content hash of each file, by path relative to ``root`` (for caches and incremental indexing)."""
    unloaded: dict[str, Path] = field(default_factory=dict)
    """Ids that files which gave no entry (they do not parse, or fail the schema) would have held -> the file:
    the ``id:`` line the file writes, and ``<game>.<file name>``. Links to them name the file as the cause."""
    records: dict[str, Any] = field(default_factory=dict, repr=False)
    """Each entry file's parse record (stamp, then entry, problems and digest), by relative path: a later load in the
    same process (``load_tree(before=...)``) starts from them instead of reading the parse cache's file."""
    limits: Limits | None = None
    """The limits the files were parsed within (records are reused only under the same)."""


def _text(value: Any, fallback: str) -> Text:
    if isinstance(value, dict) and isinstance(value.get("es"), str):
        en = value.get("en")
        return Text(value["es"], en if isinstance(en, str) else None)
    return Text(fallback)


def _examples(data: dict[str, Any], marks: Marks) -> tuple[Example, ...]:
    out = [_example(ex, i, marks) for i, ex in _first_copies(data.get("examples")) if isinstance(ex.get("mechanic"), str)]
    return tuple(out)


def _first_copies(examples: Any) -> list[tuple[int, dict[str, Any]]]:
    """The examples with an id, each id's first copy only: a later one with the same id is ``duplicate-item-id``
    and left out (not run, not shown), so the first is checked as if it were alone."""
    seen: set[str] = set()
    out = []
    for i, ex in enumerate(examples if isinstance(examples, list) else []):
        if isinstance(ex, dict) and isinstance(ex.get("id"), str) and ex["id"] not in seen:
            seen.add(ex["id"])
            out.append((i, ex))
    return out


def _example(ex: dict[str, Any], i: int, marks: Marks) -> Example:
    """The model of the ``i``-th example (its ``id`` and ``mechanic`` are strings); the schema reports the rest."""
    given: dict[str, Any] = ex["given"] if isinstance(ex.get("given"), dict) else {}
    tolerance = ex.get("tolerance")
    return Example(
        id=ex["id"], mechanic=ex["mechanic"], given=given, expect=ex["expect"] if isinstance(ex.get("expect"), dict) else None,
        expect_error=_refusal(ex, "code"), error_kind=_refusal(ex, "kind"), error_see=_refusal(ex, "see"),
        tolerance=tolerance if isinstance(tolerance, (int, float)) else None,
        probability=schema.read_probability(ex.get("probability")), title=_text(ex["title"], ex["id"]) if "title" in ex else None,
        note=_text(ex["note"], "") if isinstance(ex.get("note"), dict) else None,
        index=i, location=marks.at(("examples", i)),
    )


def _refusal(ex: dict[str, Any], part: str) -> str | None:
    """A part of ``expect_error``: a mapping ``{code, kind, see}``, or a bare code (which has no kind)."""
    value = ex.get("expect_error")
    if isinstance(value, str):
        return value if part == "code" else None
    found = value.get(part) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def _term(entry_id: str, game: str, block: Any) -> Term:
    """The glossary facet of a term entry (empty when its block is not a mapping: the schema says so)."""
    if not isinstance(block, dict):
        block = {}

    def lists(key: str) -> dict[str, tuple[str, ...]]:
        value = block.get(key) or {}
        return {lang: tuple(x for x in v if isinstance(x, str)) for lang, v in value.items() if isinstance(v, list)} \
            if isinstance(value, dict) else {}

    concept = block.get("concept")
    return Term(entry_id, game, lists("forms"), lists("abbreviations"), concept if isinstance(concept, str) else None,
                block.get("do_not_translate") is True, lists("forbidden"))


def load_entry(path: Path, namespace: str, limits: Limits = LIMITS) -> tuple[Entry | None, list[Diagnostic], str]:
    """Parse and schema-check one entry file; returns the entry (if it has an id), problems, digest."""
    raw, found = read_bytes(path, limits)
    if raw is None:
        return None, found, ""
    digest = content_digest(raw)
    data, marks, found = parse_bytes(raw, path, limits)
    if not isinstance(data, dict):
        return None, found + _not_mapping(data, marks, found), digest
    data, controls = control_characters(data, marks)
    found += controls + schema.validate(data, marks)
    if not isinstance(data.get("id"), str) or len(data["id"]) > MAX_ID:
        return None, found, digest
    kind: str = data["kind"] if isinstance(data.get("kind"), str) else "rule"
    game: str = data["game"] if isinstance(data.get("game"), str) else namespace
    entry = Entry(
        id=data["id"], kind=kind, game=game, title=_text(data.get("title"), data["id"]), data=data, marks=marks,
        examples=_examples(data, marks), term=_term(data["id"], game, data.get("term")) if kind == "term" else None,
    )
    return entry, found, digest


def _not_mapping(data: Any, marks: Marks, found: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostic for a file whose document is not a mapping (none when parsing already said why)."""
    if data is None and any(d.severity == "error" for d in found):
        return []
    kind = "list" if isinstance(data, list) else ("null value" if data is None else "single value")
    return [diag("not-a-mapping", marks.at(()), found=kind)]


def _load_game(folder: Path, limits: Limits) -> tuple[Game | None, list[Diagnostic]]:
    path = folder / "game.yaml"
    if not path.exists() and not path.is_symlink():
        return None, [diag("missing-game-meta", Location(folder), game=folder.name)]
    data, marks, found = load_file(path, limits)
    if not isinstance(data, dict):
        return None, found + _not_mapping(data, marks, found)
    data, controls = control_characters(data, marks)
    found += controls + schema.validate(data, marks, "game")
    game = Game(folder.name, _text(data.get("name"), folder.name), data, marks)
    return game, found + check_game(game)


class _Exit(SystemExit):
    """``os._exit`` called while a game's mechanics module is imported."""


@contextmanager
def _no_exit() -> Iterator[None]:
    """While a mechanics module is imported, ``os._exit`` (which ends the process at once, with no exception
    to catch: every command, pytest included, would stop with the code it gives, 0 a silent green) raises
    :class:`_Exit` instead, so the import is reported (docs/reliability.md)."""
    import posix

    def refuse(code: int = 0) -> None:
        raise _Exit(f"os._exit({code!r})")

    saved = os._exit
    os._exit = posix._exit = refuse  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = posix._exit = saved


def _load_mechanics(folder: Path, registry: Registry, seconds: float) -> list[Diagnostic]:
    path = folder / MECHANICS
    if not path.exists() and not path.is_symlink():
        return []
    if not path.is_file():  # a FIFO or device would block the import; a dangling link cannot be read
        return [diag("mechanics-import", Location(path), reason="not a regular file")]
    game = folder.name
    modname = "kb_game_" + game.replace("-", "_")
    try:
        module = _import(modname, path, seconds)
    except (Exception, SystemExit, TimeLimit) as exc:  # a broken (exiting, endless) game module is a located diagnostic
        sys.modules.pop(modname, None)  # nothing of a half-imported module stays
        failure = _import_failure(exc, path, seconds)
        registry.unloaded[game] = failure.location.line
        return [failure]
    return _malformed_labels(module, path) + _register(module, game, path, registry)


def _register(module: Any, game: str, path: Path, registry: Registry) -> list[Diagnostic]:
    """Add the game's resolvers to ``registry``, each once; one the engine cannot call, one named outside
    ``<game>.``, a name given twice and unlabelled words are problems, located at the resolver's definition."""
    shared = getattr(module, "LABELS", None)
    problems: list[Diagnostic] = []
    first: dict[str, int] = {}
    for func in defined(module):
        line = first_line(func)
        try:
            r = describe(func, shared)
        except BadResolver as exc:
            problems.append(diag("resolver-signature", Location(path, line), name=func.__kb_resolver__[0],  # type: ignore[attr-defined]
                                 func=func.__name__, problem=exc.problem))
            continue
        if not r.name.startswith(game + "."):
            problems.append(diag("resolver-prefix", Location(path, line), name=r.name, game=game))
        elif r.name in first:
            problems.append(diag("duplicate-resolver", Location(path, line), name=r.name, first=first[r.name]))
        else:
            first[r.name] = line
            registry.add([r])
            problems += [p for p in [_unlabelled(r, path)] if p is not None]
    return problems


def _malformed_labels(module: Any, path: Path) -> list[Diagnostic]:
    """Each malformed entry of the module's ``LABELS`` (its resolvers are registered without it), at its line."""
    if not hasattr(module, "LABELS"):
        return []
    found = label_problems(module.LABELS)
    places = _label_places(path) if found else {}
    return [diag("label-format", Location(path, *places.get(word, places.get(None, (1, 1)))),
                 where="LABELS" if word is None else f"LABELS[{word!r}]", problem=problem) for word, problem in found]


def _label_places(path: Path) -> dict[Any, tuple[int, int]]:
    """Where the module assigns ``LABELS`` (key ``None``) and each of its literal keys: (line, column)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    places: dict[Any, tuple[int, int]] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, "target", None)
        if not (isinstance(target, ast.Name) and target.id == "LABELS"):
            continue
        places[None] = (node.lineno, node.col_offset + 1)
        value = getattr(node, "value", None)
        for key in value.keys if isinstance(value, ast.Dict) else ():
            if isinstance(key, ast.Constant):
                places[key.value] = (key.lineno, key.col_offset + 1)
    return places


def _import(modname: str, path: Path, seconds: float) -> Any:
    """The game's mechanics module, imported from ``path`` under ``modname`` within ``seconds`` (it may not exit the
    process, nor loop for ever)."""
    spec = importlib.util.spec_from_file_location(modname, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    with _no_exit(), time_limit(seconds):
        spec.loader.exec_module(module)
    return module


def _import_failure(exc: BaseException, path: Path, seconds: float) -> Diagnostic:
    """``mechanics-import`` at the module's line that raised (exited, or was running when its time ran out)."""
    here = os.path.abspath(path)
    if isinstance(exc, SyntaxError) and os.path.abspath(exc.filename or "") == here:  # Python's own line and column
        return diag("mechanics-import", Location(path, exc.lineno or 1, exc.offset or 1),
                    reason=f"{type(exc).__name__}: {exc.msg}")
    return diag("mechanics-import", Location(path, raised_at(exc, here) or getattr(exc, "lineno", 1) or 1),
                reason=_why(exc, seconds))


def raised_at(exc: BaseException, path: str) -> int | None:
    """The line of the file at ``path`` (absolute) that raised ``exc``: its innermost frame in that file, if any."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == path]
    return frames[-1].lineno if frames else None


def _why(exc: BaseException, seconds: float) -> str:
    """Why a mechanics module did not load, in words."""
    if isinstance(exc, _Exit):
        return f"{exc}: the module exits"
    if isinstance(exc, TimeLimit):
        return (f"the module did not finish loading within {seconds:g} s, the time a mechanics module may take "
                "(it was stopped at this line: an endless loop?)")
    if isinstance(exc, SystemExit):
        return f"SystemExit({exc.code!r}): the module exits"
    return f"{type(exc).__name__}: {exc}"


def _unlabelled(r: Resolver, path: Path) -> Diagnostic | None:
    """The words of ``r``'s vocabulary (inputs, outputs, input values) missing a Spanish or English label, if any:
    a page would show the bare word («lamp_out: no» on a Spanish page)."""
    missing = [f"{word} ({lang})" for word in r.vocabulary() for lang in LANGS if not (r.label(word, lang) or "").strip()]
    if not missing:
        return None
    return diag("resolver-label", Location(path, first_line(r.func)), name=r.name, words=", ".join(missing))


def load_tree(root: Path, limits: Limits = LIMITS, use_cache: bool = True,
              cache_base: str | os.PathLike[str] | None = None, before: Loaded | None = None,
              key: cache.KeyFn | None = None, seconds: float = SECONDS) -> Loaded:
    """Load every game, entry and game mechanics module below ``root``, collecting every problem.

    Parsed files are reused from the cache (:mod:`kb.cache`, under ``cache_base`` when given, signed with ``key``) when they have
    not changed, or from ``before`` (an earlier load of the same folder in this process: its records in memory,
    the cache's file not read). Paths are absolute (diagnostics print them relative to the working directory).
    Each game's mechanics module must finish loading within ``seconds`` (the worked examples' limit).
    """
    root = Path(os.path.abspath(root))
    out = Loaded(root=root, limits=limits)
    if not root.is_dir():
        out.diagnostics.append(diag("unreadable", Location(root), reason="not a folder"))
        return out
    files, out.diagnostics[:0] = find_files(root)
    if len(files) > limits.max_files:
        out.diagnostics.append(diag("too-many-entries", Location(root), limit=limits.max_files))
        return out
    _load_games(root, files, limits, out, seconds)
    cache_path = cache.cache_dir(root, "parse", cache_base) / _parse_cache_name(limits)
    previous = _previous(cache_path, use_cache, before, out, key)
    current = out.records = _load_entries(root, files, previous, limits, out)
    if use_cache and current != previous:
        cache.save(cache_path, current, key=key)
    return out


def _previous(cache_path: Path, use_cache: bool, before: Loaded | None, out: Loaded,
              key: cache.KeyFn | None) -> dict[str, Any]:
    """The parse records to start from: ``before``'s (same folder and limits), else the cache file's, else none."""
    if not use_cache:
        return {}
    if before is not None and before.root == out.root and before.limits == out.limits:
        return before.records
    previous = cache.load(cache_path, key=key)
    return previous if isinstance(previous, dict) else {}


def _load_games(root: Path, files: list[Path], limits: Limits, out: Loaded, seconds: float) -> None:
    """Each game folder's ``game.yaml`` and mechanics module into ``out`` (and the module's digest)."""
    namespaces = sorted({p.relative_to(root).parts[0] for p in files if len(p.relative_to(root).parts) > 1})
    for ns in namespaces:
        if ns == COMMON:
            continue
        game, found = _load_game(root / ns, limits)
        out.diagnostics += found
        if game is not None:
            out.games[ns] = game
        out.diagnostics += _load_mechanics(root / ns, out.registry, seconds)
    for ns in namespaces:
        if (root / ns / MECHANICS).is_file():
            out.digests[f"{ns}/{MECHANICS}"] = file_digest(root / ns / MECHANICS)


def _load_entries(root: Path, files: list[Path], previous: dict[str, Any], limits: Limits, out: Loaded) -> dict[str, Any]:
    """Every entry file into ``out`` (parsed, or from ``previous`` when unchanged); returns the cache's new records."""
    current: dict[str, Any] = {}
    pages: dict[str, Entry] = {}  # page stem -> the entry writing it (two entries, one page: page-collision)
    for path in files:
        rel = path.relative_to(root)
        if rel.name == "game.yaml" and len(rel.parts) == 2:
            out.digests[str(rel)] = file_digest(path)
            continue
        if len(rel.parts) < 2:
            out.diagnostics.append(diag("misplaced-file", Location(path), common=COMMON))
            continue
        current[str(rel)] = _cached_entry(path, rel, previous.get(str(rel)), limits)
        entry, found, digest = current[str(rel)][1]
        out.digests[str(rel)] = digest
        out.diagnostics += found
        if entry is None:
            out.unloaded.update(dict.fromkeys(_claimed_ids(path, rel), path))
            continue
        out.diagnostics += check_entry(entry, rel.parts[0], out.games.get(rel.parts[0]), COMMON)
        clash = _clash(entry, out.entries, pages)
        if clash is not None:
            out.diagnostics.append(clash)
            continue
        pages[page_stem(entry.kind, entry.game, entry.id)] = entry
        out.entries[entry.id] = entry
    return current


def _clash(entry: Entry, seen: Mapping[str, Entry], pages: Mapping[str, Entry]) -> Diagnostic | None:
    """``duplicate-id`` when an earlier entry has ``entry``'s id, ``page-collision`` when one writes its page."""
    if entry.id in seen:
        other = seen[entry.id].location
        return diag("duplicate-id", entry.marks.at(("id",)), id=entry.id, other=f"{format_path(other.path)}:{other.line}")
    page = page_stem(entry.kind, entry.game, entry.id)
    if page in pages and entry.kind != "concept":
        other_entry = pages[page]
        other = other_entry.location
        return diag("page-collision", entry.marks.at(("id",)), id=entry.id, page=page + ".html",
                    other_id=other_entry.id, other=f"{format_path(other.path)}:{other.line}")
    return None


_ID_LINE = re.compile(rb"^id:[ \t]*['\"]?([a-z0-9][a-z0-9.-]*)", re.M)


def _claimed_ids(path: Path, rel: Path) -> list[str]:
    """The ids a file that gave no entry meant to hold: ``<game>.<file name>`` and the one its ``id:`` line writes."""
    ids = [f"{rel.parts[0]}.{rel.stem}"]
    try:
        if path.is_file() and not path.is_symlink() and path.stat().st_size <= 1_000_000:
            ids += [m.decode() for m in _ID_LINE.findall(path.read_bytes())[:1]]
    except OSError:
        pass
    return ids


def _parse_cache_name(limits: Limits) -> str:
    """The parse cache of ``limits``: what a file gives depends on them, so each set of limits has its own."""
    if limits == LIMITS:
        return "files.json"
    key = hashlib.sha256(repr(dataclasses.astuple(limits)).encode()).hexdigest()[:12]
    return f"files-{key}.json"


def _hit_shape(hit: Any, path: Path) -> bool:
    """True when a cached record has the shape :func:`_cached_entry` writes, for ``path``."""
    if not (isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[1], tuple) and len(hit[1]) == 3):
        return False
    entry, found, digest = hit[1]
    return _entry_of(entry, path) and isinstance(digest, str) and _diagnostics(found)


def _entry_of(entry: Any, path: Path) -> bool:
    """True for no entry, or an entry of ``path``."""
    return entry is None or (isinstance(entry, Entry) and entry.path == path)


def _diagnostics(found: Any) -> bool:
    return isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found)


def _cached_entry(path: Path, rel: Path, hit: Any, limits: Limits) -> tuple[Any, tuple[Entry | None, list[Diagnostic], str]]:
    """(file stamp, parsed entry) of ``path``: from the cache when the file is unchanged, else parsed now."""
    try:
        st = path.stat()
        # a file changed within the last seconds may change again within the clock's granularity
        # with the same size ("racy git"): its stamp is not trusted, its content hash is checked
        stamp: Any = (st.st_mtime_ns, st.st_size) if time.time_ns() - st.st_mtime_ns > 2_000_000_000 else None
        if not os.access(path, os.R_OK):  # made unreadable since (chmod keeps the stamp): read it, and say it cannot be
            stamp = None
    except OSError:
        stamp = None
    usable = _hit_shape(hit, path)  # the cache file is the one of these limits (_parse_cache_name)
    if usable and stamp is not None and hit[0] == stamp:
        return stamp, hit[1]
    if usable:
        raw, _ = read_bytes(path, limits)
        if raw is not None and hit[1][2] == content_digest(raw):
            return stamp, hit[1]
    return stamp, load_entry(path, rel.parts[0], limits)
