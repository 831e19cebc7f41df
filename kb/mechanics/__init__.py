"""Resolvers: typed, documented, pure functions that compute what a rule says.

A resolver is a plain function decorated with :func:`resolver`. Its parameters are the inputs an
example gives (checked against the type hints before the call), it returns an :class:`Outcome`
made with :func:`outcome`, and it explains itself step by step in both languages through a
:class:`Trace`. A rule violation is raised as :class:`RuleError` with a stable code that an
example can expect. Nothing here is global: a :class:`Registry` is built per knowledge base from
the generic modules below and each game's own ``content/<game>/mechanics.py``.
"""

from __future__ import annotations

import functools
import inspect
import string
import sys
import types
import typing
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Literal, Mapping

from babel import Locale

from kb.core.diagnostics import printable
from kb.core.errors import KbError
from kb.core.model import Text
from kb.core.plain import Plain

__all__ = [
    "Step",
    "Trace",
    "Chance",
    "Outcome",
    "RuleError",
    "KINDS_OF_NO",
    "Context",
    "Resolver",
    "Registry",
    "BadResolver",
    "defined",
    "describe",
    "first_line",
    "label_problems",
    "resolver",
    "outcome",
    "between",
    "covers",
    "COVERS",
    "window",
    "rolled_on",
    "WINDOW",
    "ROLLED_ON",
    "allowed",
    "items",
    "keys_of",
    "KEYS_FROM",
    "KEYS_EVERY",
    "key_sources",
    "entry_ids",
    "ENTRY_IDS",
    "GENERIC_MODULES",
]

GENERIC_MODULES = ("dice", "checks", "cards", "procedures", "activation", "damage")
"""Modules of this package that hold generic resolvers."""


@dataclass(frozen=True)
class Step(Plain):
    """One step of an explanation, already worded in both languages."""

    text: Text
    """What happened, per language."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """The numbers and names the step used."""
    templates: tuple[str, str] | None = None
    """The Spanish and English wording with ``{name}`` fields, kept so a page can fill them in its language."""
    rule: str | None = None
    """The rule the step applies when it is not the example's own entry: an entry id (``<game>.<id>`` or,
    within the game, ``<id>``), optionally with ``#<step id>`` for a step of a sequence."""

    def say(self, lang: str, show: Callable[[Any], str]) -> str:
        """The step in ``lang``, each plain ``{name}`` field shown by ``show`` (names, numbers per locale).

        A field with a format spec (``{value:+d}``) keeps Python's formatting of that spec.
        """
        if self.templates is None:
            return self.text.best(lang)
        return _Fill(show, lang).vformat(self.templates[0 if lang == "es" else 1], (), self.values)


class _Fill(string.Formatter):
    """Fills a step's template: plain fields through ``show``; ``{n:p:impacto|impactos}`` picks the word
    that goes with the number ``n`` by the language's plural rule (CLDR, through Babel); ``{d:none:ninguna}`` says
    an empty list or mapping (or nothing at all) in the template's own words, which agree with the noun they stand
    for (``ninguna`` tropa, ``nada``), and shows any other value as a plain field."""

    def __init__(self, show: Callable[[Any], str], lang: str) -> None:
        self.show = show
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("none:"):
            empty = value is None or (isinstance(value, (list, tuple, Mapping)) and not value)
            return format_spec[5:] if empty else self.show(value)
        if format_spec.startswith("p:"):
            one, _, other = format_spec[2:].partition("|")
            return one if _plural_form(self.lang)(abs(value)) == "one" else (other or one)
        return format(value, format_spec) if format_spec else self.show(value)


@functools.cache
def _plural_form(lang: str) -> Callable[[Any], str]:
    """The language's CLDR plural rule (parsed once per language)."""
    return Locale.parse(lang).plural_form


class Trace:
    """Collects the steps a resolver takes, worded in Spanish and English."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, es: str, en: str, *, rule: str | None = None, **values: Any) -> None:
        """Add a step; ``{name}`` fields in both templates are filled from ``values``; ``rule`` names the
        rule it applies when that is not the example's own entry (``Step.rule``).

        Values stay data: a page shows ids by their names and numbers the way its language writes them.
        """
        self.steps.append(Step(_worded(es, en, values), values, (es, en), rule))


_PLAIN = frozenset({str, int, float, bool, Fraction, type(None)})
_WORDED: dict[tuple[str, str, str], Text] = {}
_WORDED_MAX = 1 << 16


def _worded(es: str, en: str, values: Mapping[str, Any]) -> Text:
    """A step's text in both languages, remembered for the same templates and plain values (a calculator's
    enumeration words the same step thousands of times; ``Text`` is immutable, so sharing it is safe)."""
    key = (es, en, repr(values)) if _is_plain(values) else None
    found = _WORDED.get(key) if key is not None else None
    if found is None:
        found = Text(_Fill(_show, "es").vformat(es, (), values), _Fill(_show, "en").vformat(en, (), values))
        if key is not None:
            if len(_WORDED) >= _WORDED_MAX:
                _WORDED.clear()
            _WORDED[key] = found
    return found


def _is_plain(value: Any) -> bool:
    """Whether ``value`` is numbers, texts, yes/no and lists or mappings of them (its ``repr`` then names it)."""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if kind is list or kind is tuple:
        return all(_is_plain(v) for v in value)
    if kind is dict:
        return all(type(k) is str and _is_plain(v) for k, v in value.items())
    return False


def _show(value: Any) -> str:
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, bool):
        return "✔" if value else "✘"
    if isinstance(value, (list, tuple)):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True)
class Chance(Plain):
    """The exact probability of a named event, and how the engine can check it.

    ``event`` says in words what the probability measures ("herir con un disparo" / "wounding with
    one shot"). ``output`` and ``when`` tie it to the outputs: the event happened when
    ``values[output] == when``. With ``roll`` and ``dice`` (the input that decides it and what is
    rolled for it), the example runner runs the resolver once for every total of the dice and checks
    that the event's weight is the stated probability.
    """

    probability: Fraction
    """The exact probability."""
    event: Text
    """What it is the probability of, worded as a noun phrase in both languages."""
    output: str | None = None
    """The output that tells whether the event happened."""
    when: Any = True
    """The value of ``output`` that means it happened."""
    roll: str | None = None
    """The input that holds the roll deciding the event."""
    dice: str | None = None
    """The dice rolled for ``roll``, e.g. ``2d6``."""

    @classmethod
    def of(cls, probability: Fraction, es: str, en: str, *, output: str | None = None, when: Any = True,
           roll: str | None = None, dice: str | None = None) -> "Chance":
        """``Chance.of(p, "no quedar atrapada", "not getting stuck", output="stuck", when=False, roll="roll", dice="2d6")``."""
        return cls(Fraction(probability), Text(es, en), output, when, roll, dice)




@dataclass(frozen=True)
class Outcome(Plain):
    """What a resolver computed."""

    values: Mapping[str, Any]
    """Named outputs, plain data."""
    trace: tuple[Step, ...]
    """The explanation."""
    chance: Chance | None = None
    """The exact probability of a named event, for checks that have one."""

    @property
    def probability(self) -> Fraction | None:
        """The exact probability stated, if any."""
        return self.chance.probability if self.chance else None


def outcome(trace: Trace, odds: Chance | Fraction | None = None, /, **values: Any) -> Outcome:
    """Build an :class:`Outcome` from a trace, the chance of a named event (if any) and named outputs.

    A bare :class:`~fractions.Fraction` is accepted but names no event: an example that states a
    probability then fails, since the engine cannot say what the number is the probability of.
    """
    if odds is not None and not isinstance(odds, Chance):
        odds = Chance(Fraction(odds), Text("", ""))
    return Outcome(values, tuple(trace.steps), odds)


KINDS_OF_NO = ("forbidden", "unstated", "elsewhere", "impossible", "incomplete")
"""What a refusal means: ``forbidden`` — a rule forbids it (the example's entry, or the one it names);
``unstated`` — the source does not say, and the knowledge base will not invent a ruling (the message
says what is missing); ``elsewhere`` — another case, which another entry covers (the example names it);
``impossible`` — the situation cannot happen at the table (13 on 2D6, a phase the round does not have);
``incomplete`` — the situation lacks a fact the rule needs to settle it (a Roll-Off, a height, a choice)."""


class RuleError(KbError):
    """A resolver refuses the inputs; ``code`` and ``kind`` are what ``expect_error`` matches.

    ``kind`` is one of :data:`KINDS_OF_NO`: ``forbidden`` (the default: a rule forbids what the inputs
    describe), ``unstated`` (the source does not say what happens: the message says what is missing),
    ``elsewhere`` (another case, covered by another entry), ``impossible`` (the inputs describe what
    cannot happen), ``incomplete`` (the inputs lack a fact the rule needs: the message names it).

    Like :meth:`Trace.add`, the message may hold ``{name}`` fields filled from ``values``: a page then
    shows the ids among them by their names (``RuleError("same-type", "{a} y {b} son del mismo tipo",
    "{a} and {b} are of the same type", a=first, b=second)``).
    """

    def __init__(self, code: str, es: str, en: str, *, kind: str = "forbidden", **values: Any) -> None:
        if kind not in KINDS_OF_NO:
            raise ValueError(f"RuleError kind {kind!r}: one of {', '.join(KINDS_OF_NO)}")
        trace = Trace()
        if values:
            trace.add(es, en, **values)
            step = trace.steps[0]
        else:
            step = Step(Text(es, en))
        super().__init__(step.text.en)
        self.code = code
        self.kind = kind
        """``forbidden``, ``unstated``, ``elsewhere``, ``impossible`` or ``incomplete`` (:data:`KINDS_OF_NO`)."""
        self.text = step.text
        self.step = step
        """The message as a step: worded per language, with its values kept as data."""


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
    labels: Mapping[str, Text] = field(default_factory=dict)
    """Bilingual labels of its inputs, outputs and values (the decorator's over its module's ``LABELS``)."""

    def to_dict(self) -> dict[str, Any]:
        """``{name, inputs, required, outputs, doc, labels: {word: {es, en}}}``: input and output names, the
        required inputs, the docstring's first paragraph and every word's labels (``None`` where missing);
        what ``kb resolvers --json`` prints for each."""
        return {"name": self.name, "inputs": list(self.inputs), "required": sorted(self.required),
                "outputs": list(self.outputs), "doc": self.doc, "ranges": self.ranges(),
                "labels": {w: {"es": self.label(w, "es"), "en": self.label(w, "en")} for w in self.vocabulary()}}

    def ranges(self) -> dict[str, dict[str, Any]]:
        """The valid values of its inputs by path, as ``ranges=`` names them (``roll``, ``attacker.attack``,
        ``units.*``, ``rolls[]``): the ``minimum``, ``maximum``, ``multipleOf`` and ``enum`` keywords of the inputs'
        JSON Schema, where the declaration (and a ``Literal`` hint's values) put them; what ``kb resolvers`` shows."""
        found: dict[str, dict[str, Any]] = {}
        for name, schema in self.inputs.items():
            _ranges_at(schema, name, found)
        return found

    def label(self, key: str, lang: str) -> str | None:
        """The label of an input, output or value in ``lang`` (``None`` when none is declared)."""
        text = self.labels.get(key)
        return text.get(lang) if text else None

    def vocabulary(self) -> list[str]:
        """Every input name, output name and input enum value: what must carry labels in both languages."""
        words = list(self.inputs) + list(self.outputs)
        for schema in self.inputs.values():
            words += [str(v) for v in _enums(schema, named=False)]
        return list(dict.fromkeys(words))

    @property
    def doc(self) -> str:
        """First paragraph of the docstring."""
        return (inspect.getdoc(self.func) or "").split("\n\n")[0]

    @property
    def schema(self) -> dict[str, Any]:
        """JSON Schema of the whole ``given`` mapping."""
        return {"type": "object", "properties": dict(self.inputs), "required": sorted(self.required)}


Labels = Mapping[str, "tuple[str, str]"]
"""Bilingual labels: key (an input, an output or a value) -> (Spanish, English)."""

Ranges = Mapping[str, Mapping[str, Any]]
"""Valid values of inputs: a path (``roll``, ``attacker.attack``, ``defenders.*.life``, ``hit_rolls[]``) ->
the JSON Schema keywords that bound it (:func:`between`, :func:`allowed`)."""


def between(minimum: int | float, maximum: int | float, step: int | float | None = None) -> dict[str, Any]:
    """A number from ``minimum`` to ``maximum`` (both included), a multiple of ``step`` when one is given."""
    if minimum > maximum:
        raise ValueError(f"between({minimum}, {maximum}): the minimum is above the maximum")
    found: dict[str, Any] = {"minimum": minimum, "maximum": maximum}
    if step is not None:
        found["multipleOf"] = step
    return found


def covers(minimum: int | float, maximum: int | float, step: int | float | None = None) -> dict[str, Any]:
    """As :func:`between`, for a number the rules do not bound (hexes moved, a distance): the range is the
    calculator's own coverage, not the rule's. ``kb check`` still refuses an example's value outside it; the page's
    calculator says a value outside it is beyond what it covers, the rule setting no limit, rather than beyond
    what the rule takes."""
    return {**between(minimum, maximum, step), COVERS: True}


COVERS = "x-kb-covers"
"""The JSON Schema keyword (the engine's own) that :func:`covers` adds to a number."""


def window(minimum: int | float, maximum: int | float) -> dict[str, Any]:
    """The values a calculator offers for a number (from ``minimum`` to ``maximum``) without limiting what an example
    may give: for a generic input whose sensible values depend on the game (a target, a modifier, life), where
    :func:`between` would refuse another game's numbers. A value outside it is accepted by ``kb check`` and held
    fixed at the example's value in the calculator."""
    if minimum > maximum:
        raise ValueError(f"window({minimum}, {maximum}): the minimum is above the maximum")
    return {WINDOW: [minimum, maximum]}


WINDOW = "x-kb-window"
"""The JSON Schema keyword (the engine's own: a validator ignores it) that :func:`window` adds to a number."""


def rolled_on(dice_input: str) -> dict[str, Any]:
    """A number that is a total of the dice expression the input ``dice_input`` gives (or its default): ``kb check``
    refuses one those dice cannot roll (1d100: 1 to 100; 4d6: 4 to 24; :func:`kb.mechanics.dice.bounded_inputs`)."""
    return {ROLLED_ON: dice_input}


ROLLED_ON = "x-kb-rolled-on"
"""The JSON Schema keyword (the engine's own) that :func:`rolled_on` adds to a number."""


def items(minimum: int, maximum: int) -> dict[str, Any]:
    """A list of ``minimum`` to ``maximum`` items (``minItems``, ``maxItems``): a form offers that many, each added or
    removed by the player; none at all is the input left out (``None``) when the list is optional."""
    if not 0 <= minimum <= maximum:
        raise ValueError(f"items({minimum}, {maximum}): not a length range")
    return {"minItems": minimum, "maxItems": maximum}


def keys_of(*inputs: str, every: bool = False, one: bool = False) -> dict[str, Any]:
    """A mapping whose keys are among those the other ``inputs`` name (a text input's value, a mapping's keys, a
    list's items: ``keys_of("target", "distances")``): a form offers one entry per such key, each added or removed by
    the player, and ``kb check`` refuses an example's key that is none of them. On a text input (``choice: str | None``)
    its value is one of those keys: a form offers them in a list (the model a tie is settled for). ``every``: the
    rule wants every such key or none (both players' VP): a form adds them all at once and removes them all at once,
    never one by one (calculator audit C5). ``one``: the mapping holds exactly one entry, a key and its value (a
    decision, ``{player: action}``, in a list of them): a form offers it as one choice among every such key with
    every value its values take (``Ana: pasar``), so a player's own list of decisions can be written (audit C13)."""
    if not inputs:
        raise ValueError("keys_of(): names no input")
    return {KEYS_FROM: list(inputs), **({KEYS_EVERY: True} if every else {}),
            **({"minProperties": 1, "maxProperties": 1} if one else {})}


KEYS_FROM = "x-kb-keys-from"
"""The JSON Schema keyword (the engine's own: a validator ignores it) that :func:`keys_of` adds to a mapping."""

KEYS_EVERY = "x-kb-keys-every"
"""The JSON Schema keyword (the engine's own) that :func:`keys_of` adds with ``every``: every key or none."""


def key_sources(given: Mapping[str, Any], inputs: Iterable[str]) -> list[str]:
    """The keys a :func:`keys_of` mapping may take from ``given``, in order and once each: a text input's value, a
    mapping's keys, a list's texts."""
    found: list[str] = []
    for name in inputs:
        value = given.get(name)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, Mapping):
            found += [str(k) for k in value]
        elif isinstance(value, list):
            found += [v for v in value if isinstance(v, str)]
    return list(dict.fromkeys(found))


def allowed(*values: Any) -> dict[str, Any]:
    """One of ``values`` (for a text input that takes a few known values, such as ``2d6``)."""
    return {"enum": list(values)}


def entry_ids(*ids: str) -> dict[str, Any]:
    """One of ``ids``, each an entry's id (the actions a model may take): as :func:`allowed`, but a page shows each by
    its entry's name, so they need no label of the resolver's; a form offers them in a list (audit C13)."""
    if not ids:
        raise ValueError("entry_ids(): names no entry")
    return {"enum": list(ids), ENTRY_IDS: True}


ENTRY_IDS = "x-kb-entry-ids"
"""The JSON Schema keyword (the engine's own) that :func:`entry_ids` adds to an ``enum`` of entries' ids."""


def resolver(name: str, *, outputs: Mapping[str, str], labels: Labels | None = None, ranges: Ranges | None = None
             ) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Mark a function as a resolver named ``name`` that returns the named ``outputs``.

    ``labels`` gives (Spanish, English) labels for its inputs, outputs and values; keys not given
    here are looked up in the ``LABELS`` mapping of the resolver's module, which holds the words its
    resolvers share. ``ranges`` declares the valid values of inputs (:data:`Ranges`): they join the
    inputs' JSON Schema, so the checks of examples, the site's calculators and the docs read them.
    """

    def mark(func: Callable[..., Outcome]) -> Callable[..., Outcome]:
        func.__kb_resolver__ = (name, dict(outputs), dict(labels or {}), dict(ranges or {}))  # type: ignore[attr-defined]
        module = sys.modules.get(getattr(func, "__module__", ""))
        if module is not None:  # kept even when a later def takes its name: a name given twice is then reported
            vars(module).setdefault(_DEFINED, []).append(func)
        return func

    return mark


def _bound(schema: dict[str, Any], path: list[str], keywords: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``schema`` with ``keywords`` added at ``path`` (through ``anyOf`` branches other than ``null``)."""
    if "anyOf" in schema:
        return {**schema, "anyOf": _bound_branches(schema["anyOf"], path, keywords, where)}
    if not path:
        if keywords and set(keywords) <= _SHAPE_KEYWORDS.get(str(schema.get("type")), set()):
            return {**schema, **keywords}
        if schema.get("type") not in ("integer", "number", "string") and "enum" not in keywords:
            raise TypeError(f"range '{where}': bounds a {schema.get('type', 'value')}, not a number")
        return {**schema, **keywords}
    if path[0] == "[]":
        if schema.get("type") != "array":
            raise TypeError(f"range '{where}': '[]' on an input that is not a list")
        return {**schema, "items": _bound(dict(schema.get("items", {})), path[1:], keywords, where)}
    return _bound_key(schema, path, keywords, where)


def _bound_branches(branches: list[dict[str, Any]], path: list[str], keywords: Mapping[str, Any], where: str
                    ) -> list[dict[str, Any]]:
    """The branches of an ``anyOf`` (``int | bool``, ``int | None``), bounded where they can be; an error when none can."""
    out, problems = [], []
    for b in branches:
        try:
            out.append(b if b.get("type") == "null" else _bound(dict(b), path, keywords, where))
        except TypeError as exc:
            out.append(b)
            problems.append(exc)
    if problems and len(problems) == len([b for b in branches if b.get("type") != "null"]):
        raise problems[0]
    return out


def _bound_key(schema: dict[str, Any], path: list[str], keywords: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``_bound`` inside a mapping: key ``path[0]`` (``*``: any key)."""
    head, rest = path[0], path[1:]
    if schema.get("type") != "object":
        raise TypeError(f"range '{where}': '{head}' inside an input that is not a mapping")
    values = dict(schema.get("additionalProperties", {}))
    if head == "*":
        return {**schema, "additionalProperties": _bound(values, rest, keywords, where)}
    known = dict(schema.get("properties", {}))
    known[head] = _bound(dict(known.get(head, values)), rest, keywords, where)
    return {**schema, "properties": known}


def _split(path: str) -> list[str]:
    """``a.b[].c`` -> ``["a", "b", "[]", "c"]``."""
    parts: list[str] = []
    for piece in path.split("."):
        name, brackets = piece.partition("[]")[0], piece.count("[]")
        parts += ([name] if name else []) + ["[]"] * brackets
    return parts


_RANGE_KEYWORDS = ("minimum", "maximum", "multipleOf", "enum", "minItems", "maxItems", KEYS_FROM, KEYS_EVERY, WINDOW, ROLLED_ON,
                   COVERS, "minProperties", "maxProperties", ENTRY_IDS)

_SHAPE_KEYWORDS = {"array": {"minItems", "maxItems"}, "object": {KEYS_FROM, KEYS_EVERY, "minProperties", "maxProperties"}}
"""What bounds a list (:func:`items`) and a mapping (:func:`keys_of`) rather than a number."""


def _ranges_at(schema: Mapping[str, Any], path: str, found: dict[str, dict[str, Any]]) -> None:
    """Add to ``found`` the range keywords of ``schema`` (at ``path``) and of every schema inside it."""
    keywords = {k: schema[k] for k in _RANGE_KEYWORDS if k in schema}
    if keywords:
        found.setdefault(path, {}).update(keywords)
    for sub in schema.get("anyOf", []):
        _ranges_at(sub, path, found)
    for key, tail in (("items", "[]"), ("additionalProperties", ".*")):
        if isinstance(schema.get(key), Mapping):
            _ranges_at(schema[key], path + tail, found)
    for key, sub in (schema.get("properties") or {}).items():
        _ranges_at(sub, f"{path}.{key}", found)


def _enums(schema: Mapping[str, Any], named: bool = True) -> list[Any]:
    """The text values of ``schema``'s enums, at any depth; without those of :func:`entry_ids` unless ``named`` (a
    page shows an entry's id by its name: it needs no label)."""
    found = list(schema.get("enum", [])) if named or not schema.get(ENTRY_IDS) else []
    for sub in schema.get("anyOf", []):
        found += _enums(sub, named)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            found += _enums(schema[key], named)
    return [v for v in found if isinstance(v, str)]


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
    return _container_schema(hint, origin, args)


def _container_schema(hint: Any, origin: Any, args: tuple[Any, ...]) -> dict[str, Any]:
    """JSON Schema for a list (tuple, iterable) or a mapping hint, of its item type when it says one."""
    if origin in (list, tuple, Iterable) or hint in (list, tuple):
        return {"type": "array", "items": _json_schema(args[0])} if args else {"type": "array"}
    if origin in (dict, Mapping) or hint is dict:
        return {"type": "object", "additionalProperties": _json_schema(args[1])} if args else {"type": "object"}
    raise TypeError(f"unsupported parameter type {hint!r}")


_DEFINED = "__kb_resolvers__"
"""The module attribute where :func:`resolver` lists the functions it marks, in the order they are defined."""


class BadResolver(KbError, TypeError):
    """A resolver the engine cannot call or check as declared (``*args``, a parameter without a type hint or of a type
    it cannot check, a range that names no input, a malformed label): ``func`` and what is wrong, ``problem``."""

    def __init__(self, func: Callable[..., Any], problem: str) -> None:
        super().__init__(f"resolver '{func.__kb_resolver__[0]}' (def {func.__name__}): {problem}")  # type: ignore[attr-defined]
        self.func = func
        self.problem = problem


def first_line(func: Callable[..., Any]) -> int:
    """The line a function's definition starts at (its first decorator's), 1 when it has none."""
    return int(getattr(getattr(func, "__code__", None), "co_firstlineno", 1))


def defined(module: types.ModuleType) -> list[Callable[..., Outcome]]:
    """Every resolver defined in ``module`` (not those it merely imports), in the order of their definitions: those
    :func:`resolver` listed as it marked them (a function defined twice under one name is there twice) and those
    bound in the module."""
    found = [*vars(module).get(_DEFINED, ()), *(obj for obj in vars(module).values() if callable(obj)
                                                and hasattr(obj, "__kb_resolver__"))]
    own = {id(f): f for f in found if getattr(f, "__module__", None) == module.__name__}
    return sorted(own.values(), key=first_line)


def label_problems(labels: Any) -> list[tuple[Any, str]]:
    """What is malformed in a mapping of labels (a module's ``LABELS``, a decorator's ``labels=``): (the key, or
    ``None`` for the whole mapping; what is wrong). A label is a pair of texts, (Spanish, English), each plain text on
    one line: a control character, a bidi override or a zero-width one, or a line break, is refused as the same in
    a YAML name would be (pages and the terminal would show it as it is)."""
    if not isinstance(labels, Mapping):
        return [(None, f"is a {type(labels).__name__}, not a mapping of word: (Spanish, English)")]
    out: list[tuple[Any, str]] = []
    for word, pair in labels.items():
        if not isinstance(word, str):
            out.append((word, "is not a word (a text)"))
        elif (problem := _label_problem(pair)) is not None:
            out.append((word, problem))
    return out


def _label_problem(pair: Any) -> str | None:
    """What is wrong with one label (``None`` when nothing is)."""
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(isinstance(t, str) for t in pair)):
        return f"is {pair!r}, not a pair of texts (Spanish, English)"
    bad = next((c for c in map(_control, pair) if c), None)
    return None if bad is None else f"holds the control character {bad}; a label is plain text on one line"


def _control(text: Any) -> str | None:
    """The first control character of ``text`` (a bidi override, a zero-width one, a line break, a tab) as its
    escape (``\\x1b``), ``None`` when it holds none or is not a text."""
    return next((printable(c) for c in text if printable(c) != c), None) if isinstance(text, str) else None


def _words_problem(name: str, outputs: Mapping[Any, Any], inputs: Mapping[str, Any]) -> str | None:
    """What is not plain text on one line among a resolver's name, its ``outputs=`` names and descriptions and its
    inputs' values (a ``Literal``'s, a range's ``enum``): the pages, the calculators and the terminal show them, so a
    control character in one is refused as in a label (``None`` when there is none)."""
    if _control(name):
        return f"its name holds the control character {_control(name)}; a resolver's name is plain text on one line"
    for word, description in outputs.items():
        bad = _control(word) or _control(description)
        if bad:
            return f"outputs= {word!r} holds the control character {bad}; an output and its description are plain text on one line"
    for pname, schema in inputs.items():
        bad_value = next((v for v in _enums(schema) if _control(v)), None)
        if bad_value is not None:
            return (f"its parameter '{pname}' has the value {bad_value!r}, which holds the control character "
                    f"{_control(bad_value)}; a value is plain text on one line")
    return None


def _parameter_problem(pname: str, param: inspect.Parameter, hints: Mapping[str, Any]) -> str | None:
    """Why the engine cannot call or check a resolver's parameter (``None`` when it can)."""
    star = _STARS.get(param.kind)
    if star:
        return f"it takes {star}{pname}; a resolver takes named parameters only, each with a type hint"
    if param.kind is inspect.Parameter.POSITIONAL_ONLY:
        return f"its parameter '{pname}' is positional-only (before /); the engine passes every input by name"
    if pname not in hints:
        return f"its parameter '{pname}' has no type hint; write one (int, float, bool, str, a Literal, lists and mappings of them)"
    try:
        _json_schema(hints[pname])
    except TypeError:
        return (f"its parameter '{pname}' has the type {_hint_name(hints[pname])}, which the engine cannot check; use int, "
                "float, bool, str, a Literal, or lists and mappings of them")
    return None


_STARS: dict[Any, str] = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}


def _hint_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else repr(hint)


def describe(func: Callable[..., Outcome], shared: Labels | None = None) -> Resolver:
    """The :class:`Resolver` a function marked by :func:`resolver` declares, with its module's shared labels;
    :class:`BadResolver` when the engine cannot call or check it as declared."""
    name, outputs, own, ranges = func.__kb_resolver__  # type: ignore[attr-defined]
    inputs, required, wants_context = _parameters(func)
    for path, keywords in ranges.items():
        top, *rest = _split(path)
        if top not in inputs:
            raise BadResolver(func, f"range '{path}' names no input")
        try:
            inputs[top] = _bound(inputs[top], rest, keywords, path)
        except TypeError as exc:
            raise BadResolver(func, str(exc)) from None
    problem = _words_problem(name, outputs, inputs)
    if problem:
        raise BadResolver(func, problem)
    return Resolver(name, func, inputs, frozenset(required), outputs, wants_context, _labels(func, shared, own))


def _parameters(func: Callable[..., Outcome]) -> tuple[dict[str, Any], set[str], bool]:
    """A resolver's inputs (name -> JSON Schema), the required ones, and whether it takes ``context``."""
    try:
        hints = typing.get_type_hints(func)
    except Exception as exc:  # a hint naming what does not exist
        raise BadResolver(func, f"its type hints cannot be read: {type(exc).__name__}: {exc}") from None
    inputs: dict[str, Any] = {}
    required: set[str] = set()
    wants_context = False
    for pname, param in inspect.signature(func).parameters.items():
        if pname == "context":
            wants_context = True
            continue
        problem = _parameter_problem(pname, param, hints)
        if problem:
            raise BadResolver(func, problem)
        inputs[pname] = _json_schema(hints[pname])
        if param.default is inspect.Parameter.empty:
            required.add(pname)
    return inputs, required, wants_context


def _labels(func: Callable[..., Outcome], shared: Any, own: Mapping[str, Any]) -> dict[str, Text]:
    """The decorator's labels over the module's well-formed ``LABELS`` (a malformed one is its loader's to report)."""
    for word, problem in label_problems(own):
        raise BadResolver(func, f"labels= {'' if word is None else repr(word) + ' '}{problem}")
    bad = {word for word, _ in label_problems(shared)}
    usable = {k: v for k, v in shared.items() if k not in bad} if isinstance(shared, Mapping) else {}
    return {k: Text(es, en) for k, (es, en) in {**usable, **own}.items()}


class Registry:
    """Named resolvers for one knowledge base."""

    def __init__(self, resolvers: Iterable[Resolver] = ()) -> None:
        self._by_name: dict[str, Resolver] = {r.name: r for r in resolvers}
        self.unloaded: dict[str, int] = {}
        """Each game whose mechanics module did not load -> the line it broke at (``error[mechanics-import]``): its
        resolvers are missing, and an example naming one says why."""

    @staticmethod
    def scan(module: types.ModuleType) -> list[Resolver]:
        """Every resolver defined in ``module`` (not those it merely imports; :func:`defined`), described
        (:class:`BadResolver` for the first the engine cannot call)."""
        shared = getattr(module, "LABELS", None)
        return [describe(func, shared) for func in defined(module)]

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

    def to_dict(self) -> dict[str, Any]:
        """``{"resolvers": [Resolver.to_dict()...]}``, sorted by name."""
        return {"resolvers": [self._by_name[n].to_dict() for n in self.names()]}

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)
