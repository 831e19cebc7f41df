"""pytest adapter: every worked example in the content becomes its own test item.

Registered through the ``pytest11`` entry point, so plain ``pytest`` in the repository runs the
examples with the unit tests. Item ids carry the file, the entry id and the example id
(``content/malifaux/rules/x.yaml::malifaux.x#guild-guard``); a failure shows ``path:line``, the
inputs, expected against actual and the resolver's trace.

Nothing vanishes: a file that does not load (it does not parse, its id is taken, its game's
``game.yaml`` or ``mechanics.py`` is broken) becomes a failing item that prints the located errors,
so its examples cannot silently drop out of the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

from kb.core.errors import KbError
from kb.api import KnowledgeBase, find_root
from kb.core.diagnostics import Diagnostic, format_path
from kb.examples.runner import ExampleResult
from kb.core.model import Entry, Example

@dataclass
class _Tree:
    """A loaded tree, its entries and the problems of its files that do not load, by resolved file path: each
    file's collection looks its own up (going through every entry for every file was quadratic: pytest's
    collection of 20,000 entries did not finish, issue 28)."""

    kb: KnowledgeBase
    entries: dict[Path, list[Entry]]
    broken: dict[Path, list[tuple[int, Diagnostic]]]


_TREES = pytest.StashKey[dict[Path, _Tree]]()
_ROOTS = pytest.StashKey[dict[Path, Path]]()


def _root_of(config: pytest.Config, file_path: Path) -> Path:
    """``find_root`` once per folder: its files share it (asking for each of 20,000 files globbed every
    folder above each of them, a fifth of the collection's time)."""
    roots = config.stash.setdefault(_ROOTS, {})
    if file_path.parent not in roots:
        roots[file_path.parent] = find_root(file_path)
    return roots[file_path.parent]


def _tree_for(config: pytest.Config, root: Path) -> _Tree:
    cache = config.stash.setdefault(_TREES, {})
    if root not in cache:
        kb = KnowledgeBase.load(root)
        entries: dict[Path, list[Entry]] = {}
        for entry in kb.entries.values():
            entries.setdefault(entry.path.resolve(), []).append(entry)
        broken: dict[Path, list[tuple[int, Diagnostic]]] = {}
        for n, d in enumerate(kb.not_loaded()):
            broken.setdefault(Path(d.location.path).resolve(), []).append((n, d))
        cache[root] = _Tree(kb, entries, broken)
    return cache[root]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect entry files of a content tree (a folder whose game folders hold ``game.yaml``).

    ``game.yaml`` is collected too: it stands for its game's own files (itself and ``mechanics.py``).
    """
    if file_path.suffix.lower() not in (".yaml", ".yml"):
        return None
    root = _root_of(parent.config, file_path)
    if root == file_path or not root.is_dir():
        return None
    return ExampleFile.from_parent(parent, path=file_path, root=root)


class ExampleFile(pytest.File):
    """An entry file; its examples are the items."""

    def __init__(self, *, root: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.root = root

    def collect(self) -> Iterator[pytest.Item]:
        tree = _tree_for(self.config, self.root)
        target = self.path.resolve()
        mine = (target, target.with_name("mechanics.py")) if self.path.name == "game.yaml" else (target,)
        found = [pair for path in mine for pair in tree.broken.get(path, [])]
        broken = [d for _, d in sorted(found, key=lambda pair: pair[0])]  # in the order kb reports them
        if broken:
            yield NotLoadedItem.from_parent(self, name="not-loaded", problems=broken)
        for entry in tree.entries.get(target, []):
            for ex in entry.examples:
                yield ExampleItem.from_parent(self, name=f"{entry.id}#{ex.id}", kb=tree.kb, entry=entry, example=ex)


class NotLoaded(KbError):
    """Raised by the item of a file that does not load."""


class NotLoadedItem(pytest.Item):
    """A content file that gave no entry: it fails with its located errors."""

    def __init__(self, *, problems: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise NotLoaded()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if not isinstance(excinfo.value, NotLoaded):
            return super().repr_failure(excinfo)
        return "\n".join(["this file does not load, so its worked examples cannot run:"]
                         + [f"  {d.format()}" for d in self.problems])

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problems[0].location.line - 1, "file does not load"


class ExampleFailed(KbError):
    """Raised by an item whose example does not hold."""

    def __init__(self, result: ExampleResult) -> None:
        super().__init__(result.status)
        self.result = result


def _mismatch_lines(r: ExampleResult) -> list[str]:
    """Expected against actual values, then the result's other details."""
    lines = ["  expected vs actual:"] if r.mismatches else []
    lines += [f"    {name}: expected {want!r}, got {got!r}" for name, want, got in r.mismatches]
    return lines + [f"  {d}" for d in r.details if not any(d.startswith(f"{m[0]}:") for m in r.mismatches)]


class ExampleItem(pytest.Item):
    """One worked example, run against its resolver."""

    def __init__(self, *, kb: KnowledgeBase, entry: Entry, example: Example, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kb, self.entry, self.example = kb, entry, example

    def runtest(self) -> None:
        result = self.kb.run_example(self.entry.id, self.example.id)
        if not result.passed:
            raise ExampleFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if not isinstance(excinfo.value, ExampleFailed):
            return super().repr_failure(excinfo)
        r = excinfo.value.result
        loc = self.example.location
        lines = [
            f"{format_path(loc.path)}:{loc.line}: example '{self.example.id}' of '{self.entry.id}' {r.status}",
            f"  resolver: {self.example.mechanic}",
            "  given:",
            *(f"    {k} = {v!r}" for k, v in self.example.given.items()),
            *_mismatch_lines(r),
        ]
        if r.outcome and r.outcome.trace:
            lines.append("  trace:")
            lines += [f"    {i}. {s.text.en}" for i, s in enumerate(r.outcome.trace, 1)]
        return "\n".join(lines)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.example.location.line - 1, f"example {self.entry.id}#{self.example.id}"
