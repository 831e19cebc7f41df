"""The page's Python (issue 30): a calculator whose space no build enumerates, answered in the browser.

Pyodide (CPython compiled to WebAssembly) runs this module, the engine's ``kb.mechanics``, the game's own
``mechanics.py``, Babel and the catalogs *unchanged*, from the bundle :mod:`kb.site.calc_runtime` writes. For
one form, :class:`Calc` rebuilds the resolver's whole space from the example's inputs with the same
:func:`kb.mechanics.space.space` the build uses, calls the resolver with :func:`kb.mechanics.space.call` (the
worked examples' code) and words the answer with :class:`kb.site.calc_words.Words` (the build's wording). So
the answer shown is the resolver's, worded as a build-time answer would be; nothing of a rule is written again.

The same module runs under CPython in the tests (``tests/test_calc_py.py``), which compare it with the build.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any, Mapping

from kb.core.model import Text
from kb.mechanics import Context, Outcome, Registry, Resolver, defined, describe
from kb.mechanics.space import INTEGER, Refusal, Space, call, space
from kb.site.calc_words import Strings, Words, interned

__all__ = ["UNBOUNDED", "Calc", "extra", "resolver"]

UNBOUNDED = 10**30
"""A budget no space reaches: every number and choice of the form is a field."""


def resolver(name: str, games: Path | None = None) -> Resolver | None:
    """The resolver called ``name``: a generic one, else the one in ``games/<game>/mechanics.py`` (imported as the
    loader imports it, ``kb_game_<game>``)."""
    found = Registry.generic().get(name)
    if found is not None or games is None:
        return found
    game = name.split(".", 1)[0]
    modname = "kb_game_" + game.replace("-", "_")
    if modname not in sys.modules:
        spec = importlib.util.spec_from_file_location(modname, games / game / "mechanics.py")
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    module = sys.modules[modname]  # only the named one is described: another the loader refused cannot stop it
    func = next((f for f in defined(module) if f.__kb_resolver__[0] == name), None)  # type: ignore[attr-defined]
    return describe(func, getattr(module, "LABELS", None)) if func is not None else None


def extra(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The resolver's ``context`` when it reads one: the entry's data and the other entries it reads, as the build
    recorded them in ``spec["context"]`` (``{"entry": data, "entries": {id: data}}``); else nothing."""
    found = spec.get("context")
    if not found:
        return {}
    entries: Mapping[str, Any] = found["entries"]
    return {"context": Context(found["entry"], entries.get)}


class Calc:
    """One form: its resolver, its whole space around the example, its numbering and its words."""

    def __init__(self, spec: Mapping[str, Any], res: Resolver) -> None:
        self.res = res
        self.space: Space = space(res, spec["given"], UNBOUNDED, UNBOUNDED)
        self.order: list[int] = list(spec["order"])
        self.odds: int | None = spec["odds"]
        table = {k: Text(v[0], v[1]) for k, v in spec["names"].items()}
        self.words = Words(res, spec["own_names"], spec["lang"], table.get)
        self.extra = extra(spec)

    @classmethod
    def load(cls, spec_json: str, games: str) -> "Calc":
        """From the head's ``py`` part (JSON), the game modules under ``games``."""
        spec = json.loads(spec_json)
        res = resolver(spec["resolver"], Path(games))
        if res is None:
            raise LookupError(spec["resolver"])
        return cls(spec, res)

    def answer(self, positions: str | list[int]) -> str:
        """The answer at ``positions`` (each field's position among its values, in the numbering's order; a list or
        its JSON, as the page passes it) as a
        shard holds it: its strings, outcomes and ``index``; with an odds field, one per value of it (the odds
        table's rows, the other fields as set) and ``at`` the player's; JSON."""
        if isinstance(positions, str):
            positions = json.loads(positions)
        pos = [0] * len(self.order)
        for j, i in enumerate(self.order):
            pos[i] = int(positions[j])
        runs = [pos]
        at = 0
        if self.odds is not None:
            i = self.order[self.odds]
            at = pos[i]
            runs = [pos[:i] + [v] + pos[i + 1:] for v in range(len(self.space.variable[i].values))]
        strings, outcomes, index, seen = Strings(), list[list[Any]](), list[int](), dict[str, int]()
        found = [call(self.res, self.space.given(tuple(p)), self.extra) for p in runs]
        if self.odds is not None:
            found = [self.before_rolls(r, p, pos, found[at]) for r, p in zip(found, runs, strict=True)]
        for result in found:
            row = interned(self.words.outcome(result), strings)
            key = json.dumps(row)
            if key not in seen:
                seen[key] = len(outcomes)
                outcomes.append(row)
            index.append(seen[key])
        return json.dumps({"strings": strings.items, "outcomes": outcomes, "index": index, "at": at},
                          ensure_ascii=False, separators=(",", ":"))

    def before_rolls(self, result: Outcome | Refusal, p: list[int], pos: list[int], mine: Outcome | Refusal
                     ) -> Outcome | Refusal:
        """An odds table's row as the chance before rolling: a row the rolls as typed do not fit (refused: a save
        typed for a skill the typed roll misses) is answered with the rolls left out (every list of whole numbers
        empty), provided leaving them out keeps the chance at the player's own value (else they are not only rolls,
        and the row stays refused: a dash)."""
        if isinstance(result, Outcome) or not isinstance(mine, Outcome) or mine.chance is None:
            return result
        rolls = {str(f.path[0]) for f in self.space.variable if f.kind == INTEGER and isinstance(f.path[-1], int)}
        if not rolls:
            return result
        bare = self._without(pos, rolls)
        if not isinstance(bare, Outcome) or bare.probability != mine.probability:
            return result
        return self._without(p, rolls)

    def _without(self, p: list[int], rolls: set[str]) -> Outcome | Refusal:
        """The answer at ``p`` with the lists ``rolls`` empty."""
        given = self.space.given(tuple(p))
        return call(self.res, {**given, **{name: [] for name in rolls}}, self.extra)
