"""The finite space of a resolver's inputs around one worked example, and every outcome in it.

A calculator on the site lets a player change an example's numbers and choices. The answers are the
resolver's own, computed at build time: :func:`space` turns the resolver's inputs (their JSON Schema,
with the ranges the resolver declares) and an example's ``given`` into :class:`Field` s, each with the
finite tuple of values it takes; :func:`enumerate_space` calls the resolver once for every combination.
A combination is numbered in mixed radix, the first field most significant (:meth:`Space.number`), so a
page only turns the fields' values into positions and the positions into a number to find its answer.

What is not a player's number or choice stays at the example's value (a ``fixed`` field): texts (ids of
models, steps, players), numbers with no declared range, and fields that would take the space over
``budget`` combinations (the fields are taken in the form's order: the inputs, then the values inside
mappings and lists, which keep the example's keys and length).
"""

from __future__ import annotations

import copy
import inspect
import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping

from kb.core.model import Example
from kb.mechanics import COVERS, KEYS_FROM, WINDOW, Outcome, Resolver, RuleError, key_sources

__all__ = ["MAX_COMBINATIONS", "WHOLE_SPACE", "ABSENT", "FAILED", "RAISED", "STALLED", "UNTRIED", "Field", "Space", "Refusal", "space", "enumerate_space", "call", "answer", "plain",
           "takes_choices", "calculator_examples", "unranged"]

MAX_COMBINATIONS = 8192
"""Most combinations one calculator enumerates when its whole space is past ``WHOLE_SPACE`` (the build's time and
the data's size grow with it; a page loads only the shard of them its inputs need, kb/site/calc.py)."""

WHOLE_SPACE = 3 * MAX_COMBINATIONS
"""A space whose every number and choice fits in this many combinations is enumerated whole: every field editable.
Past it, ``MAX_COMBINATIONS`` holds (a space held in part anyway gains nothing from more combinations)."""

FIXED, INTEGER, NUMBER, BOOLEAN, ENUM = "fixed", "integer", "number", "boolean", "enum"

ROW_ROOM = 4
"""Rows a form offers for a list of mappings of numbers or choices (rolls by player, then each re-roll of a tie): the
example's own and room for more up to this many, each row holding an item per name the example's rows give, each
added or removed (before 2026-12-07 a form had the example's rows and names only, calculator audit C2)."""

LIST_ROOM = 6
"""Items a form offers for a list of numbers or choices whose length the resolver does not declare (no
:func:`~kb.mechanics.items`): the example's own, and room for more up to this many, each added or removed by the
player (rolls per check, saves per hit: before 2026-12-07 a form had exactly the example's, calculator audit C1)."""


class _Absent:
    """The value of an item a player has not added (a list's item or a mapping's entry: :attr:`Field.item`)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __deepcopy__(self, memo: Any) -> "_Absent":
        return self


ABSENT = _Absent()
"""An item's first value: not in the list or the mapping (the player may add it)."""


@dataclass(frozen=True)
class Field:
    """One value of the inputs a form shows."""

    name: str
    """The form's name for it: the input (``roll``), a key inside a mapping (``attacker.attack``), a list's item (``rolls[]``)."""
    path: tuple[str | int, ...]
    """Where it sits in ``given``: the input's name, then keys and list positions."""
    key: str
    """What labels it: the innermost mapping key or the input's name."""
    kind: str
    """``integer``, ``number``, ``boolean``, ``enum`` or ``fixed`` (stays at the example's value)."""
    values: tuple[Any, ...]
    """The values it takes, in order (``None``: not given); a fixed field's one value."""
    bounds: Mapping[str, Any]
    """The declared range (``minimum``, ``maximum``, ``multipleOf``) of a number, with ``x-kb-covers`` when it is the
    calculator's own coverage (:func:`~kb.mechanics.covers`) rather than the rule's; empty otherwise."""
    item: str | None = None
    """``list`` or ``map`` for an item of an input whose length or keys the resolver declares (``items``,
    ``keys_of``) or a list of numbers whose length it leaves open; ``rows`` for a name's item in a row of a list of
    mappings (``path``: the input, the row, the name): its first value is :data:`ABSENT` and the input is made of the
    items present, in the form's order (none: the input left out when it is optional, else empty; a row with none
    present is left out)."""

    @property
    def optional(self) -> bool:
        """True when "not given" is one of its values."""
        return self.kind != FIXED and None in self.values


@dataclass(frozen=True)
class Space:
    """The fields of a calculator and the example it starts from."""

    resolver: str
    """The resolver's name."""
    base: Mapping[str, Any]
    """The example's inputs, with the defaults of inputs it leaves out that a field shows."""
    fields: tuple[Field, ...]
    """Every field, in the form's order (fixed ones included)."""

    @property
    def variable(self) -> tuple[Field, ...]:
        """The fields a player may change."""
        return tuple(f for f in self.fields if f.kind != FIXED)

    @property
    def size(self) -> int:
        """How many combinations the variable fields make."""
        return math.prod(len(f.values) for f in self.variable)

    def given(self, positions: tuple[int, ...]) -> dict[str, Any]:
        """The inputs for one combination (a position in each variable field's values)."""
        out = copy.deepcopy(dict(self.base))
        chosen = {id(f): f.values[pos] for f, pos in zip(self.variable, positions, strict=True)}
        items: dict[str, list[tuple[Field, Any]]] = {}
        for f in self.fields:
            value = chosen.get(id(f), f.values[0])
            if f.item is not None:
                items.setdefault(str(f.path[0]), []).append((f, value))
            elif id(f) in chosen:
                _put(out, f.path, value)
        for name, found in items.items():
            out[name] = _made(found, self.empty.get(name))
        return out

    @property
    def empty(self) -> dict[str, Any]:
        """What each input made of items is when none is present: ``None`` (left out) or an empty list or mapping."""
        return {str(f.path[0]): f.values[-1] for f in self.fields if f.item == _EMPTY}

    def shape(self) -> Any:
        """The example's inputs with every variable field's value left out (``None``): what the space keeps fixed."""
        out = copy.deepcopy(dict(self.base))
        for f in self.variable:
            if f.item is None:
                _put(out, f.path, None)
            else:
                out[str(f.path[0])] = None
        return out

    def number(self, positions: tuple[int, ...]) -> int:
        """The combination's number: mixed radix, the first variable field most significant."""
        n = 0
        for f, pos in zip(self.variable, positions, strict=True):
            n = n * len(f.values) + pos
        return n

    def positions(self, given: Mapping[str, Any]) -> tuple[int, ...] | None:
        """Each variable field's position for ``given`` (``None`` when a value is not one the space holds)."""
        out = []
        for f in self.variable:
            value = _get(given, f.path)
            if f.item is not None and value is _MISSING:
                value = ABSENT
            found = next((i for i, v in enumerate(f.values) if _same(v, value)), None)
            if found is None:
                return None
            out.append(found)
        return tuple(out)

    def combinations(self) -> Iterator[tuple[int, ...]]:
        """Every combination, in number order."""
        sizes = [len(f.values) for f in self.variable]
        for n in range(self.size):
            pos = []
            for size in reversed(sizes):
                n, r = divmod(n, size)
                pos.append(r)
            yield tuple(reversed(pos))


FAILED = "resolver-failed"
"""The code of an answer the resolver could not give: it raised something other than a :class:`RuleError`, returned
no outcome, or (the build's calculators) ran past the time limit. Not a refusal of the rules: a page says the
calculator cannot answer those numbers (:mod:`kb.site.calc_words`)."""

RAISED = "raised"
"""How a :data:`FAILED` answer failed (:attr:`Refusal.failure`): the resolver raised something other than a
:class:`RuleError`, or returned no outcome."""
STALLED = "stalled"
"""How a :data:`FAILED` answer failed: the call ran past the time limit (the build's calculators, kb/site/calc.py)."""
UNTRIED = "untried"
"""How a :data:`FAILED` answer failed: the resolver was not called, after too many calls past the time limit."""


@dataclass(frozen=True)
class Refusal:
    """A combination the resolver refuses: its rule error (or :data:`FAILED` when it raised anything else)."""

    code: str
    kind: str | None
    error: RuleError | None
    raised: str | None = None
    """What went wrong when the resolver failed (``ValueError: boom``), for the build's report; ``None`` otherwise."""
    failure: str | None = None
    """How the resolver failed, with :data:`FAILED`: :data:`RAISED`, :data:`STALLED` or :data:`UNTRIED` (what the
    build reports reads this, never the words of :attr:`raised`); ``None`` otherwise."""


def _made(found: list[tuple[Field, Any]], empty: Any) -> Any:
    """An input made of items: the present ones, in order (``empty`` when none is)."""
    present = [(f, v) for f, v in found if f.item != _EMPTY and v is not ABSENT]
    if not present:
        return copy.deepcopy(empty)
    if present[0][0].item == "list":
        return [v for _, v in present]
    if present[0][0].item == _ROWS:
        rows: dict[Any, dict[str, Any]] = {}
        for f, v in present:
            rows.setdefault(f.path[1], {})[str(f.path[2])] = v
        return list(rows.values())
    return {str(f.path[1]): v for f, v in present}


_ROWS = "rows"
"""The ``item`` of a name's field in a row of a list of mappings (:func:`_rows`)."""

_EMPTY = "empty"
"""The ``item`` of the fixed field that says what an input made of items is with none present (its one value)."""


def _same(a: Any, b: Any) -> bool:
    if a is ABSENT or b is ABSENT:
        return a is b
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _put(data: Any, path: tuple[str | int, ...], value: Any) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def _get(data: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return data


_MISSING = object()


def takes_choices(res: Resolver) -> bool:
    """True when some input, at any depth, is a number, a yes/no or one of named values."""
    return any(_has_choice(s) for s in res.inputs.values())


def calculator_examples(examples: Iterable[Example], resolver_of: Callable[[str], Resolver | None]
                        ) -> list[tuple[Example, Resolver]]:
    """The examples an entry's calculators start from: for each resolver its examples use that takes a number or a
    choice (:func:`takes_choices`), the first example of it whose inputs the resolver all takes, with the resolver."""
    out: dict[str, tuple[Example, Resolver]] = {}
    for ex in examples:
        res = resolver_of(ex.mechanic)
        if res is not None and ex.mechanic not in out and takes_choices(res) and not set(ex.given) - set(res.inputs):
            out[ex.mechanic] = (ex, res)
    return list(out.values())


def unranged(res: Resolver, given: Mapping[str, Any]) -> list[str]:
    """The numbers a calculator of ``res`` from ``given`` shows fixed at the example's values for want of a declared
    range, when that leaves it no field a reader can change (a form that only repeats the example); else none."""
    whole = space(res, given, whole=sys.maxsize)
    if whole.variable:
        return []
    numbers = (f.name for f in whole.fields if isinstance(f.values[0], (int, float)) and not isinstance(f.values[0], bool))
    return list(dict.fromkeys(numbers))


def _has_choice(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    if schema.get("type") in (INTEGER, NUMBER, BOOLEAN) or "enum" in schema:
        return True
    subs = list(schema.get("anyOf", [])) + list(schema.get("properties", {}).values())
    subs += [schema[k] for k in ("items", "additionalProperties") if k in schema]
    return any(_has_choice(s) for s in subs)


def _branch(schema: Mapping[str, Any], value: Any) -> tuple[Mapping[str, Any], bool]:
    """The branch of ``schema`` that ``value`` takes, and whether ``None`` is allowed."""
    if "anyOf" not in schema:
        return schema, schema.get("type") == "null"
    branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
    nullable = len(branches) < len(schema["anyOf"])
    if value is None:
        return (branches[0] if len(branches) == 1 else {}), nullable
    for b in branches:
        if _fits(b, value):
            return b, nullable
    return {}, nullable


def _fits(schema: Mapping[str, Any], value: Any) -> bool:
    kind = schema.get("type")
    if "enum" in schema:
        return value in schema["enum"]
    if isinstance(value, bool):
        return kind == BOOLEAN
    return {INTEGER: isinstance(value, int), NUMBER: isinstance(value, (int, float)), "string": isinstance(value, str),
            "array": isinstance(value, list), "object": isinstance(value, Mapping)}.get(str(kind), False)


def _offered(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The bounds a calculator offers for a number: its :func:`~kb.mechanics.window`, else its declared range;
    ``COVERS`` kept when they are the calculator's own (:func:`~kb.mechanics.covers`), not the rule's."""
    bounds = {k: schema[k] for k in _BOUNDS if k in schema}
    if WINDOW in schema:
        bounds.update(minimum=schema[WINDOW][0], maximum=schema[WINDOW][1])
    if schema.get(COVERS):
        bounds[COVERS] = True
    return bounds


def _numbers(schema: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """Every value a bounded number takes (``None`` when it declares no bounds)."""
    schema = {**schema, **_offered(schema)}
    if "minimum" not in schema or "maximum" not in schema:
        return None
    step = Fraction(str(schema.get("multipleOf", 1)))
    low, high = Fraction(str(schema["minimum"])), Fraction(str(schema["maximum"]))
    count = int((high - low) / step) + 1
    found = [low + i * step for i in range(count)]
    if schema.get("type") == INTEGER:
        return tuple(int(v) for v in found)
    return tuple(int(v) if v.denominator == 1 else float(v) for v in found)


def _items(name: str, schema: Mapping[str, Any], value: Any, given: Mapping[str, Any]) -> list[Field] | None:
    """The fields of an input whose length (``minItems``/``maxItems``) or keys (``keys_of``) the resolver declares:
    one per item it may hold, the example's present and the others :data:`ABSENT`, then a fixed field holding what
    the input is with no item (``None`` when it is optional). ``None`` when it declares neither, or its items are not
    bounded choices."""
    branches = schema.get("anyOf", [schema])
    nullable = any(b.get("type") == "null" for b in branches)
    shaped = next((b for b in branches if "maxItems" in b or KEYS_FROM in b), None) or _open_list(branches, value)
    if shaped is None or not (value is None or _fits(shaped, value)):
        return None
    if _row_schema(shaped) is not None:
        return _rows(name, shaped, value, nullable)
    kind, sub, slots, present = _slots(shaped, value, given)
    if len(present) > len(slots):
        return None
    out = []
    for slot in slots:
        field = _choice_field(f"{name}[]" if kind == "list" else f"{name}.{slot}", (name, slot),
                              name if kind == "list" else str(slot), sub, present.get(slot), kind)
        if field is None:
            return None
        out.append(field)
    return out + [Field(name, (name,), name, FIXED, (None if nullable else ([] if kind == "list" else {}),), {}, _EMPTY)]


def _open_list(branches: list[Mapping[str, Any]], value: Any) -> Mapping[str, Any] | None:
    """A list whose length the resolver leaves open, as one of :data:`LIST_ROOM` items (more when the example gives
    more); ``None`` when no branch is such a list."""
    found = next((b for b in branches if b.get("type") == "array" and isinstance(b.get("items"), Mapping)), None)
    if found is None:
        return None
    return {**found, "maxItems": max(LIST_ROOM, len(value) if isinstance(value, list) else 0)}


def _row_schema(shaped: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The schema of each value of a list of mappings of one kind of value (``list[dict[str, int]]``); else ``None``."""
    row = shaped.get("items") if shaped.get("type") == "array" else None
    if not isinstance(row, Mapping) or row.get("type") != "object" or row.get("properties"):
        return None
    sub = row.get("additionalProperties")
    return sub if isinstance(sub, Mapping) else None


def _rows(name: str, shaped: Mapping[str, Any], value: Any, nullable: bool) -> list[Field] | None:
    """The fields of a list of mappings (rolls by player, then each re-roll of a tie): for each of ``ROW_ROOM`` rows (or
    the example's, when more) an item per name its rows give, the example's present; ``None`` when the example names
    no one (no names to offer) or a value is not a bounded choice."""
    rows = [r for r in value or [] if isinstance(r, Mapping)]
    keys = list(dict.fromkeys(str(k) for r in rows for k in r))
    sub = _row_schema(shaped) or {}
    out: list[Field] = []
    for i in range(max(ROW_ROOM, len(rows))):
        row = _row_fields(name, i, keys, sub, rows[i] if i < len(rows) else {})
        if row is None:
            return None
        out += row
    if not out:
        return None
    return out + [Field(name, (name,), name, FIXED, (None if nullable else [],), {}, _EMPTY)]


def _row_fields(name: str, i: int, keys: list[str], sub: Mapping[str, Any], row: Mapping[str, Any]) -> list[Field] | None:
    """Row ``i``'s fields of :func:`_rows`, an item per name (``row``: the example's, empty past its rows); ``None`` when
    a value is not a bounded choice."""
    out = []
    for key in keys:
        field = _choice_field(f"{name}[].{key}", (name, i, key), key, sub, row.get(key), _ROWS)
        if field is None:
            return None
        out.append(field)
    return out


def _choice_field(name: str, path: tuple[str | int, ...], key: str, sub: Mapping[str, Any], value: Any,
                  item: str) -> Field | None:
    """An item of an input made of items (``item``: ``list``, ``map`` or ``rows``): a choice among :data:`ABSENT` and
    the values of ``sub`` that holds ``value``; ``None`` when it is not a bounded choice."""
    found = _choices(sub, value)
    if found is None:
        return None
    kind, values, bounds = found
    return Field(name, path, key, kind, (ABSENT,) + values, bounds, item)


def _slots(shaped: Mapping[str, Any], value: Any, given: Mapping[str, Any]
           ) -> tuple[str, Mapping[str, Any], list[Any], dict[Any, Any]]:
    """An input made of items: ``list`` or ``map``, its items' schema, every item it may hold (positions, keys) and
    the example's items by position or key."""
    if shaped.get("type") == "array":
        return "list", shaped.get("items", {}), list(range(int(shaped["maxItems"]))), dict(enumerate(value or []))
    present = dict(value or {})
    return ("map", shaped.get("additionalProperties", {}),
            list(dict.fromkeys([*key_sources(given, shaped[KEYS_FROM]), *map(str, present)])), present)


def _leaves(name: str, path: tuple[str | int, ...], key: str, schema: Mapping[str, Any], value: Any) -> list[Field]:
    branch, nullable = _branch(schema, value)
    kind = branch.get("type")
    if isinstance(value, Mapping) and kind == "object":
        known = branch.get("properties", {})
        return [f for k, v in value.items()
                for f in _leaves(f"{name}.{k}", path + (k,), str(k), known.get(k, branch.get("additionalProperties") or {}), v)]
    if isinstance(value, list) and kind == "array":
        return [f for i, v in enumerate(value) for f in _leaves(f"{name}[]", path + (i,), key, branch.get("items", {}), v)]
    return [_leaf(name, path, key, branch, value, nullable)]


def _leaf(name: str, path: tuple[str | int, ...], key: str, branch: Mapping[str, Any], value: Any, nullable: bool) -> Field:
    """One value: a choice among the schema's values, or fixed at ``value``."""
    found = _choices(branch, value)
    if found is None:
        return Field(name, path, key, FIXED, (value,), {})
    kind, values, bounds = found
    return Field(name, path, key, kind, ((None,) if nullable else ()) + values, bounds)


def _choices(branch: Mapping[str, Any], value: Any) -> tuple[str, tuple[Any, ...], dict[str, Any]] | None:
    """The kind, values and bounds of a choice that holds ``value`` (``None``: not a bounded choice)."""
    kind = str(branch.get("type", ""))
    bounds: dict[str, Any] = {}
    values: tuple[Any, ...] | None = None
    if "enum" in branch:
        kind, values = ENUM, tuple(branch["enum"])
    elif kind == BOOLEAN:
        values = (False, True)
    elif kind in (INTEGER, NUMBER):
        values, bounds = _numbers(branch), _offered(branch)
    if values is None or not (value is None or any(_same(v, value) for v in values)):
        return None
    return kind, values, bounds


_BOUNDS = ("minimum", "maximum", "multipleOf")


def space(res: Resolver, given: Mapping[str, Any], budget: int = MAX_COMBINATIONS, whole: int = WHOLE_SPACE) -> Space:
    """The calculator of ``res`` that starts from ``given`` (an example's inputs): every field when they fit in
    ``whole`` combinations, else those that fit in ``budget``."""
    params = inspect.signature(res.func).parameters
    base: dict[str, Any] = {}
    found: list[Field] = []
    for name, declared in res.inputs.items():
        schema = _named(declared, given)
        value = _start(name, schema, given, params[name].default)
        if value is _MISSING:
            continue
        base[name] = value
        found += _items(name, schema, value, given) or _leaves(name, (name,), name, schema, value)
    every = math.prod(len(f.values) for f in found if f.kind != FIXED)
    return Space(res.name, base, tuple(found) if every <= whole else _within(found, base, budget))


def _named(schema: Mapping[str, Any], given: Mapping[str, Any]) -> Mapping[str, Any]:
    """A text input declared with :func:`~kb.mechanics.keys_of` as a choice among the names the inputs it names give in
    ``given`` (an ``enum`` of them): the model a tie is settled for, one of those that got a card (phone audit 3,
    D19: it was held at the example's value, so a tie could not be settled); a list's items likewise, and a mapping of
    one entry as a choice among its entries (:func:`_one_entry`). Any other schema as it is."""
    if "anyOf" in schema:
        return {**schema, "anyOf": [_named(b, given) for b in schema["anyOf"]]}
    if schema.get("type") == "string" and KEYS_FROM in schema:
        return {"enum": key_sources(given, schema[KEYS_FROM])}
    if schema.get("type") == "array" and isinstance(schema.get("items"), Mapping):
        return {**schema, "items": _named(schema["items"], given)}
    if schema.get("maxProperties") == 1 and KEYS_FROM in schema:
        return _one_entry(schema, given)
    return schema


def _one_entry(schema: Mapping[str, Any], given: Mapping[str, Any]) -> Mapping[str, Any]:
    """A mapping of exactly one entry (:func:`~kb.mechanics.keys_of` with ``one``: a decision, ``{player: action}``)
    as a choice among every key its declaration names in ``given`` with every value of its values' ``enum``; as it
    is when its values are no such choice (then held at the example's value)."""
    values = (schema.get("additionalProperties") or {}).get("enum")
    if not values:
        return schema
    return {"enum": [{key: v} for key in key_sources(given, schema[KEYS_FROM]) for v in values]}


def _start(name: str, schema: Mapping[str, Any], given: Mapping[str, Any], default: Any) -> Any:
    """An input's value in the form as it starts: the example's, else its default; an absent mapping or list stays
    absent (:data:`_MISSING`: its keys and length are the example's to give) unless the resolver declares its items
    (then ``None``: the player may add them)."""
    if name in given:
        return given[name]
    if _items(name, schema, None, given) is not None:
        return None
    value = None if default is inspect.Parameter.empty else copy.deepcopy(default)
    return _MISSING if isinstance(value, (Mapping, list)) else value


def _within(found: list[Field], base: Mapping[str, Any], budget: int) -> tuple[Field, ...]:
    """The fields, those that would take the space over ``budget`` fixed at the example's value: the inputs
    themselves first, then the values inside mappings and lists, each in the form's order."""
    order = sorted(range(len(found)), key=lambda i: (len(found[i].path) > 1, i))
    kept, total = set(), 1
    for i in order:
        f = found[i]
        if f.kind != FIXED and total * len(f.values) <= budget:
            kept.add(i)
            total *= len(f.values)
    return tuple(f if i in kept or f.kind == FIXED else Field(f.name, f.path, f.key, FIXED, (_held(base, f),), {}, f.item)
                 for i, f in enumerate(found))


def _held(base: Mapping[str, Any], f: Field) -> Any:
    """The example's value of a field held fixed (an item it does not give: :data:`ABSENT`)."""
    value = _get(base, f.path)
    return ABSENT if f.item is not None and value is _MISSING else value


def enumerate_space(sp: Space, res: Resolver, context: Any = None) -> list[Outcome | Refusal]:
    """The resolver's answer for every combination of ``sp``, in number order."""
    out: list[Outcome | Refusal] = []
    extra = {"context": context} if res.wants_context else {}
    for pos in sp.combinations():
        out.append(call(res, sp.given(pos), extra))
    return out


def call(res: Resolver, given: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> Outcome | Refusal:
    """The resolver's answer for ``given``: its outcome, or its refusal."""
    try:
        result = res.func(**given, **(extra or {}))
    except RuleError as err:
        return Refusal(err.code, err.kind, err)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a resolver bug shows as a failed answer, never a broken build
        said = str(exc)[:200]  # one line of a report, not the resolver's whole message
        return Refusal(FAILED, None, None, f"raised {type(exc).__name__}: {said}" if said else f"raised {type(exc).__name__}",
                       RAISED)
    if isinstance(result, Outcome):
        return result
    return Refusal(FAILED, None, None, f"returned {type(result).__name__}, not an outcome", RAISED)


def plain(value: Any) -> Any:
    """An outcome's value as JSON-ready data: fractions as ``"n/d"``, tuples as lists, mappings as dicts."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def answer(result: Outcome | Refusal) -> dict[str, Any]:
    """What ``data-kb-outcome`` holds for a result: the outcome's values, or ``{"error": CODE, "kind": KIND}``."""
    if isinstance(result, Refusal):
        return {"error": result.code, "kind": result.kind}
    return {str(k): plain(v) for k, v in result.values.items()}

