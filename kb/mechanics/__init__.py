"""Resolvers: typed, documented, pure functions that compute what a rule says.

A resolver is a plain function decorated with :func:`resolver`. Its parameters are the inputs an
example gives (checked against the type hints before the call), it returns an :class:`Outcome`
made with :func:`outcome`, and it explains itself step by step in both languages through a
:class:`Trace`. A rule violation is raised as :class:`RuleError` with a stable code that an
example can expect. Nothing here is global: a :class:`Registry` is built per knowledge base from
the generic modules below and each game's own ``content/<game>/mechanics.py``.
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Literal, Mapping

from kb.core.model import Text

__all__ = [
    "Step",
    "Trace",
    "Outcome",
    "RuleError",
    "Context",
    "Resolver",
    "Registry",
    "resolver",
    "outcome",
    "GENERIC_MODULES",
]

GENERIC_MODULES = ("dice", "checks", "cards", "procedures", "activation", "damage")
"""Modules of this package that hold generic resolvers."""


@dataclass(frozen=True)
class Step:
    """One step of an explanation, already worded in both languages."""

    text: Text
    """What happened, per language."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """The numbers and names the step used."""


class Trace:
    """Collects the steps a resolver takes, worded in Spanish and English."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, es: str, en: str, **values: Any) -> None:
        """Add a step; ``{name}`` fields in both templates are filled from ``values``."""
        shown = {k: _show(v) if isinstance(v, (bool, list, tuple)) else v for k, v in values.items()}
        self.steps.append(Step(Text(es.format(**shown), en.format(**shown)), values))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "✔" if value else "✘"
    if isinstance(value, (list, tuple)):
        return ", ".join(_show(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Outcome:
    """What a resolver computed."""

    values: Mapping[str, Any]
    """Named outputs, plain data."""
    trace: tuple[Step, ...]
    """The explanation."""
    probability: Fraction | None = None
    """Exact probability of success, for checks that have one."""


def outcome(trace: Trace, odds: Fraction | None = None, /, **values: Any) -> Outcome:
    """Build an :class:`Outcome` from a trace, the exact odds of success (if any) and named outputs."""
    return Outcome(values, tuple(trace.steps), odds)


class RuleError(Exception):
    """A rule forbids what the inputs describe; ``code`` is what ``expect_error`` matches."""

    def __init__(self, code: str, es: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = Text(es, en)


@dataclass(frozen=True)
class Context:
    """Read-only view of the knowledge base given to resolvers that declare a ``context`` parameter."""

    entry: Mapping[str, Any]
    """The data of the entry whose example is running."""
    lookup: Callable[[str], Mapping[str, Any] | None]
    """Data of another entry by id (``None`` if absent)."""


@dataclass(frozen=True)
class Resolver:
    """A registered resolver and what it accepts and returns."""

    name: str
    """Registered name, ``<area>.<name>`` or ``<game>.<name>``."""
    func: Callable[..., Outcome]
    """The function."""
    inputs: Mapping[str, Any]
    """JSON Schema of each input, from the type hints."""
    required: frozenset[str]
    """Inputs without a default."""
    outputs: Mapping[str, str]
    """Output names and what each means."""
    wants_context: bool
    """True when the function takes a ``context`` parameter."""

    @property
    def doc(self) -> str:
        """First paragraph of the docstring."""
        return (inspect.getdoc(self.func) or "").split("\n\n")[0]

    @property
    def schema(self) -> dict[str, Any]:
        """JSON Schema of the whole ``given`` mapping."""
        return {"type": "object", "properties": dict(self.inputs), "required": sorted(self.required)}


def resolver(name: str, *, outputs: Mapping[str, str]) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Mark a function as a resolver named ``name`` that returns the named ``outputs``."""

    def mark(func: Callable[..., Outcome]) -> Callable[..., Outcome]:
        func.__kb_resolver__ = (name, dict(outputs))  # type: ignore[attr-defined]
        return func

    return mark


def _json_schema(hint: Any) -> dict[str, Any]:
    """JSON Schema for a parameter type hint (the small set resolvers use)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    simple = {int: "integer", float: "number", bool: "boolean", str: "string"}
    if hint in simple:
        return {"type": simple[hint]}
    if hint is Any:
        return {}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_json_schema(a) for a in args]}
    if hint is type(None):
        return {"type": "null"}
    if origin in (list, tuple, Iterable) or hint in (list, tuple):
        return {"type": "array", "items": _json_schema(args[0])} if args else {"type": "array"}
    if origin in (dict, Mapping) or hint is dict:
        return {"type": "object", "additionalProperties": _json_schema(args[1])} if args else {"type": "object"}
    raise TypeError(f"unsupported parameter type {hint!r}")


def _describe(func: Callable[..., Outcome]) -> Resolver:
    name, outputs = func.__kb_resolver__  # type: ignore[attr-defined]
    hints = typing.get_type_hints(func)
    inputs: dict[str, Any] = {}
    required: set[str] = set()
    wants_context = False
    for pname, param in inspect.signature(func).parameters.items():
        if pname == "context":
            wants_context = True
            continue
        inputs[pname] = _json_schema(hints.get(pname, Any))
        if param.default is inspect.Parameter.empty:
            required.add(pname)
    return Resolver(name, func, inputs, frozenset(required), outputs, wants_context)


class Registry:
    """Named resolvers for one knowledge base."""

    def __init__(self, resolvers: Iterable[Resolver] = ()) -> None:
        self._by_name: dict[str, Resolver] = {r.name: r for r in resolvers}

    @staticmethod
    def scan(module: types.ModuleType) -> list[Resolver]:
        """Every resolver defined in ``module`` (not those it merely imports)."""
        return [_describe(obj) for obj in vars(module).values()
                if callable(obj) and hasattr(obj, "__kb_resolver__") and getattr(obj, "__module__", None) == module.__name__]

    @classmethod
    def generic(cls) -> "Registry":
        """A registry holding the engine's generic resolvers."""
        import importlib

        found: list[Resolver] = []
        for mod in GENERIC_MODULES:
            found += cls.scan(importlib.import_module(f"{__name__}.{mod}"))
        return cls(found)

    def add(self, resolvers: Iterable[Resolver]) -> None:
        """Register more resolvers (a game's)."""
        for r in resolvers:
            self._by_name[r.name] = r

    def get(self, name: str) -> Resolver | None:
        """The resolver called ``name``."""
        return self._by_name.get(name)

    def names(self) -> list[str]:
        """All registered names, sorted."""
        return sorted(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)
