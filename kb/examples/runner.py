"""Worked examples: checked against their resolver's signature, then run and compared."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from jsonschema import Draft202012Validator

from kb.core.diagnostics import Diagnostic, diag, format_path, hint
from kb.core.loader import raised_at
from kb.examples.limits import EXAMPLE_LIMITS, TimeLimit, over_limits, time_limit
from kb.mechanics import KEYS_EVERY, KEYS_FROM, Context, Outcome, Registry, Resolver, RuleError, Step, first_line, key_sources
from kb.mechanics.dice import bounded_inputs, distribution, parse
from kb.mechanics.space import calculator_examples, unranged
from kb.core.model import Entry, Example, Location
from kb.core.schema import FRACTION, found, probability_problem, where

__all__ = ["ExampleResult", "check_examples", "out_of_range", "describe_range", "describe_length", "describe_keys", "check_chance", "run_example", "run_examples", "run_examples_again", "select", "Selection",
           "parse_selectors"]


@dataclass(frozen=True, repr=False)
class ExampleResult:
    """The result of running one example."""

    entry: Entry
    """The entry that holds the example."""
    example: Example
    """The example."""
    status: str
    """``passed``, ``failed`` or ``error``."""
    outcome: Outcome | None = None
    """What the resolver computed (absent when it raised)."""
    mismatches: tuple[tuple[str, Any, Any], ...] = ()
    """(output, expected, actual) for each difference."""
    error: str | None = None
    """A code, always: the rule error's code when the resolver refused (``too-far``), else what went wrong —
    ``unknown-resolver``, ``limit-exceeded``, ``invalid-probability``, ``invalid-example`` (inputs the resolver
    cannot be called with), ``timeout``, ``resolver-raised`` (an
    exception or exit, named in :attr:`details`), ``bad-outcome`` (not made with ``outcome()``)."""
    details: tuple[str, ...] = field(default_factory=tuple)
    """Human-readable lines explaining a failure."""
    message: Step | None = None
    """What the rule error said, in both languages (when the resolver refused the inputs)."""
    kind: str | None = None
    """What the refusal means, when the resolver refused: ``forbidden``, ``unstated``, ``elsewhere``, ``impossible`` or ``incomplete``."""
    seconds: float | None = None
    """The time limit the example ran out of (``timeout`` only)."""

    @property
    def see(self) -> str | None:
        """The entry the refusal points to (from the example: the forbidding rule, or the other case's entry)."""
        return self.example.error_see if self.kind else None

    @property
    def passed(self) -> bool:
        """True when the example holds."""
        return self.status == "passed"

    def diagnostic(self) -> Diagnostic:
        """The failure as a located diagnostic."""
        if self.error == "timeout":
            return diag("example-timeout", self.example.location, id=self.example.id, seconds=f"{self.seconds or 0:g}")
        if self.error in _NOT_RUN:
            return diag("example-not-run", self.example.location, id=self.example.id, problem="; ".join(self.details))
        code = "example-error" if self.status == "error" and self.error != "invalid-example" else "example-failed"
        said = self.details[0] if self.error in _SAID_IN_DETAILS and self.details else self.error
        return diag(code, self.example.location, id=self.example.id, error=said, details="; ".join(self.details))

    def explanation(self) -> list[str]:
        """A failed example's inputs and the trace of what its resolver did (English), as ``kb test`` prints them under
        its line: ``given: a = 1, b = 2``, then each step, numbered; nothing for an example that passed or did not run.
        A step's text over several lines keeps them, each indented under its number (a line of it at column 0 would
        read as a line of ``kb test``'s own)."""
        if self.status != "failed":
            return []
        given = ", ".join(f"{k} = {v!r}" for k, v in self.example.given.items()) or "nothing"
        steps = self.outcome.trace if self.outcome else ()
        return [f"given: {given}"] + (["trace:"] if steps else []) + [
            line for i, s in enumerate(steps, 1) for line in _numbered(f"  {i}. ", s.text.best("en"))]

    def __repr__(self) -> str:
        return f"ExampleResult({self.entry.id}#{self.example.id}, {self.status})"

    def to_dict(self) -> dict[str, Any]:
        """The result as plain, JSON-ready data (the same as :meth:`to_json`)."""
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        loc = self.example.location
        return {
            "entry": self.entry.id,
            "example": self.example.id,
            "status": self.status,
            "path": format_path(loc.path),
            "line": loc.line,
            "mechanic": self.example.mechanic,
            "given": dict(self.example.given),
            "expected": dict(self.example.expect or {}),
            "actual": dict(self.outcome.values) if self.outcome else None,
            "probability": str(self.outcome.probability) if self.outcome and self.outcome.probability is not None else None,
            "event": ({"es": self.outcome.chance.event.es, "en": self.outcome.chance.event.en}
                      if self.outcome and self.outcome.chance else None),
            "error": self.error,
            "kind": self.kind,
            "see": self.see,
            "details": list(self.details),
            # what kb test prints under a failure (explanation): the inputs are "given"; the resolver's steps
            "trace": ([{"es": step.text.es, "en": step.text.en} for step in self.outcome.trace]
                      if self.status == "failed" and self.outcome else None),
        }


def _raw(entry: Entry, ex: Example) -> Mapping[str, Any]:
    raw: Mapping[str, Any] = entry.data["examples"][ex.index]
    return raw


def check_examples(entries: Iterable[Entry], registry: Registry) -> list[Diagnostic]:
    """Every example against its resolver: name, inputs (names and types) and outputs."""
    entries = list(entries)
    out: list[Diagnostic] = []
    for entry in entries:
        for ex in entry.examples:
            base = ("examples", ex.index)
            out += _expectation_problems(entry, ex)
            out += _too_big(entry, ex)
            res = registry.get(ex.mechanic)
            if res is None:
                out.append(_unknown_resolver(entry, ex, registry))
                continue
            out += _input_problems(entry, ex, res)
            out += [diag("unknown-output", entry.marks.at(base + ("expect", name), key=True), resolver=res.name,
                         name=name, hint=hint(name, res.outputs) or f"; its outputs: {', '.join(res.outputs)}")
                    for name in (ex.expect or {}) if name not in res.outputs]
    return out + _fixed_calculators(entries, registry)


def _fixed_calculators(entries: Iterable[Entry], registry: Registry) -> list[Diagnostic]:
    """``calc-fixed`` at the ``def`` of each resolver whose calculator a reader could not change (every number of it
    has no declared range), once per resolver: its first such calculator named."""
    out: dict[str, Diagnostic] = {}
    for entry in entries:
        for ex, res in calculator_examples(entry.examples, registry.get):
            numbers = unranged(res, ex.given) if res.name not in out else []
            if numbers:
                ranges = "{" + ", ".join(f'"{n}": between(LOW, HIGH)' for n in numbers) + "}"
                out[res.name] = diag("calc-fixed", _defined_at(res), name=res.name, entry=entry.id, example=ex.id,
                                     numbers=", ".join(numbers), ranges=ranges)
    return list(out.values())


def _defined_at(res: Resolver) -> Location:
    """Where a resolver is defined: its ``def`` (its first decorator's) line."""
    return Location(Path(getattr(getattr(res.func, "__code__", None), "co_filename", "")), first_line(res.func))


def _expectation_problems(entry: Entry, ex: Example) -> list[Diagnostic]:
    """An example that expects nothing, a refusal without its kind (or, ``elsewhere``, its place), a bad probability."""
    base = ("examples", ex.index)
    raw = _raw(entry, ex)
    out = []
    if not any(k in raw for k in ("expect", "expect_error", "probability")):
        out.append(diag("no-expectation", ex.location, id=ex.id))
    if ex.expect_error and ex.error_kind is None:
        out.append(diag("error-kind-missing", entry.marks.at(base + ("expect_error",)), id=ex.id, error=ex.expect_error))
    if ex.error_kind == "elsewhere" and not ex.error_see:
        out.append(diag("error-see-missing", entry.marks.at(base + ("expect_error",)), id=ex.id))
    return out + _probability_problems(entry, ex, raw.get("probability"))


def _probability_problems(entry: Entry, ex: Example, written: Any) -> list[Diagnostic]:
    """A bad probability, when it is written as a fraction (one that is not is the schema's line, said once)."""
    checked = isinstance(written, str) and re.match(FRACTION, written)
    return [d for d in [_bad_probability(entry, ex) if checked else None] if d is not None]


def _too_big(entry: Entry, ex: Example) -> list[Diagnostic]:
    """``limit-exceeded`` at each input of an example too big to work out: what ``kb check`` says, and why ``kb test``
    does not run the example."""
    at = ("examples", ex.index, "given")
    return [diag("limit-exceeded", entry.marks.at(at + sub), where=where(at + sub), problem=problem)
            for sub, problem in over_limits(ex.given)]


def _bad_probability(entry: Entry, ex: Example) -> Diagnostic | None:
    """``invalid-value`` at an example's ``probability`` that is no text fraction from 0/1 to 1/1 (``None`` for one that
    is, or none): what ``kb check`` says (:func:`kb.core.schema.probability_problem`), and why ``kb test`` does not run
    the example."""
    raw = _raw(entry, ex)
    if not isinstance(raw, Mapping) or "probability" not in raw:
        return None
    at = ("examples", ex.index, "probability")
    return probability_problem(entry.marks.at(at), at, raw["probability"])


def _unknown_resolver(entry: Entry, ex: Example, registry: Registry) -> Diagnostic:
    """``unknown-resolver`` at an example's ``mechanic``: the nearest name, and where resolvers come from."""
    return diag("unknown-resolver", entry.marks.at(("examples", ex.index, "mechanic")), name=ex.mechanic,
                hint=hint(ex.mechanic, registry.names()), origin=_resolver_origin(entry, registry))


def _input_problems(entry: Entry, ex: Example, res: Resolver) -> list[Diagnostic]:
    """Inputs the resolver does not take, of the wrong type or out of its range, and required ones missing (from a
    ``given`` that is there: without one, the schema's line says so)."""
    base = ("examples", ex.index)
    out: list[Diagnostic] = []
    schemas = bounded_inputs(res, ex.given)
    for name in ex.given:
        if name not in res.inputs:
            out.append(diag("unknown-input", entry.marks.at(base + ("given", name), key=True), resolver=res.name,
                            name=name, hint=hint(name, res.inputs)))
            continue
        out += _value_problems(entry, ex, res, name, schemas[name])
    if "given" not in _raw(entry, ex):  # the schema reports the missing (or misspelt) 'given' itself, once
        return out + _key_problems(entry, ex, res)
    return out + _key_problems(entry, ex, res) + [
        diag("missing-input", entry.marks.at(base + ("given",)), resolver=res.name, name=name)
        for name in sorted(res.required - set(ex.given))]


def _value_problems(entry: Entry, ex: Example, res: Resolver, name: str, schema: Mapping[str, Any]) -> list[Diagnostic]:
    """The schema's problems with one input's value (one per place in it): out of range, or of the wrong type."""
    errors = {tuple(e.absolute_path): e for e in Draft202012Validator(schema).iter_errors(ex.given[name])}
    return [_input_error(entry, res, name, ("examples", ex.index, "given", name) + path, err) for path, err in errors.items()]


def _wrong_types(entry: Entry, ex: Example, res: Resolver) -> list[Diagnostic]:
    """``wrong-input-type`` at each input of the example the resolver takes but not of that type (a text where it
    declares a list): what ``kb check`` says, and why ``kb test`` does not run the example."""
    schemas = bounded_inputs(res, ex.given)
    return [d for name in ex.given if name in res.inputs
            for d in _value_problems(entry, ex, res, name, schemas[name]) if d.code == "wrong-input-type"]


def _input_error(entry: Entry, res: Resolver, name: str, sub: tuple[Any, ...], err: Any) -> Diagnostic:
    """A schema error of an input (one per value): out of the declared range, or of the wrong type."""
    bound = out_of_range(err)
    if bound is not None:
        return diag("input-out-of-range", entry.marks.at(sub), where=where(sub[2:]), value=repr(err.instance),
                    resolver=res.name, range=bound)
    choices = [str(v) for e in [err, *(err.context or ())] if e.validator == "enum" for v in e.validator_value]
    return diag("wrong-input-type", entry.marks.at(sub), name=name, resolver=res.name,
                expected=_describe(res.inputs[name]), problem=f"{where(sub[2:])} is {found(err.instance)}",
                hint=hint(str(err.instance), choices) if isinstance(err.instance, str) else "")


_BOUNDS = ("minimum", "maximum", "multipleOf")
_LENGTHS = ("minItems", "maxItems")


def out_of_range(err: Any) -> str | None:
    """What range a value breaks, worded (``from 2 to 12``), when the error is that (a number of the right type
    outside the resolver's declared range, possibly inside an ``anyOf`` such as ``int | None``); else ``None``."""
    candidates = [err] + [e for e in (err.context or ()) if err.validator == "anyOf"]
    for e in candidates:
        if e.validator in _BOUNDS:
            return describe_range(e.schema)
        if e.validator in _LENGTHS:
            return describe_length(e.schema)
    return None


def describe_range(schema: Mapping[str, Any]) -> str:
    """A declared range in words: ``from 2 to 12``, ``from 0 to 12 in steps of 0.5``."""
    text = f"from {schema.get('minimum', '-∞')} to {schema.get('maximum', '∞')}"
    return text + (f" in steps of {schema['multipleOf']}" if "multipleOf" in schema else "")


def describe_length(schema: Mapping[str, Any]) -> str:
    """A declared list length in words: ``from 1 to 6 items``."""
    return f"from {schema.get('minItems', 0)} to {schema.get('maxItems', '∞')} items"


def describe_keys(schema: Mapping[str, Any]) -> str:
    """A declared key set in words: ``keys among those of target, distances`` (a text input's: ``a name among …``)."""
    every = " (every one or none)" if schema.get(KEYS_EVERY) else " (one entry)" if schema.get("maxProperties") == 1 else ""
    return ("a name" if schema.get("type") == "string" else "keys") + " among those of " + ", ".join(schema.get(KEYS_FROM, [])) + every


def _key_problems(entry: Entry, ex: Example, res: Resolver) -> list[Diagnostic]:
    """Keys of a mapping input (or a text input's value) outside the set its declaration takes them from
    (:func:`kb.mechanics.keys_of`), when the inputs it names are given."""
    base = ("examples", ex.index)
    out: list[Diagnostic] = []
    for name, value in ex.given.items():
        schema = _keyed(res.inputs.get(name, {}))
        if schema is None or not any(ex.given.get(s) is not None for s in schema[KEYS_FROM]):
            continue
        known = set(key_sources(ex.given, schema[KEYS_FROM]))
        for path, key in _named_in(name, value, schema):
            if key not in known:
                out.append(diag("input-out-of-range", entry.marks.at(base + path, key=isinstance(value, Mapping)),
                                where=where(path), value=repr(key), resolver=res.name, range=describe_keys(schema)))
    return out


def _named_in(name: str, value: Any, schema: Mapping[str, Any]) -> list[tuple[tuple[str, ...], Any]]:
    """What a :func:`kb.mechanics.keys_of` input names, each with its place in ``given``: a mapping's keys, or a text
    input's value (the model a tie is settled for); nothing for a value of another type (the schema's check says so)."""
    if isinstance(value, Mapping) and schema.get("type") == "object":
        return [(("given", name, key), key) for key in value]
    return [(("given", name), value)] if isinstance(value, str) and schema.get("type") == "string" else []


def _keyed(schema: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The branch of an input's schema (a mapping's, a text's) that declares its keys, if any."""
    for branch in [schema, *schema.get("anyOf", [])]:
        if isinstance(branch, Mapping) and KEYS_FROM in branch:
            return branch
    return None


def _describe(schema: Mapping[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_describe(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    kind = schema.get("type", "any value")
    if kind == "array":
        return f"a list of {_describe(schema.get('items', {}))}"
    if kind == "object":
        return f"a mapping of {_describe(schema.get('additionalProperties', {}))}"
    return {"integer": "a whole number", "number": "a number", "boolean": "true or false", "string": "text",
            "null": "empty"}.get(kind, str(kind))


def _same(expected: Any, actual: Any, tol: float | None) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float, Fraction)):
        return math.isclose(float(expected), float(actual), rel_tol=0, abs_tol=tol or 0)
    return _same_parts(expected, actual, tol)


def _same_parts(expected: Any, actual: Any, tol: float | None) -> bool:
    """Lists item by item, mappings key by key (:func:`_same` within ``tol``), anything else by equality."""
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(_same(a, b, tol) for a, b in zip(expected, actual, strict=True))
    if isinstance(expected, dict) and isinstance(actual, Mapping):
        return expected.keys() == actual.keys() and all(_same(v, actual[k], tol) for k, v in expected.items())
    return bool(expected == actual)


def _not_an_outcome(result: Any) -> str | None:
    """What is wrong with a resolver's return value (``None`` when it is a proper outcome)."""
    if not isinstance(result, Outcome):
        return f"a {type(result).__name__}"
    if not isinstance(result.values, Mapping) or not all(isinstance(k, str) for k in result.values):
        return "an outcome whose values are not named"
    if result.probability is not None and not isinstance(result.probability, Fraction):
        return f"an outcome whose probability is a {type(result.probability).__name__}"
    return None


def _refusal_details(ex: Example, err: RuleError) -> tuple[str, ...]:
    """How a refusal differs from the one the example expects (nothing when it is the one)."""
    if not ex.expect_error:
        return (f"raised {err.code} ({err.kind}): {err.text.en}",)
    out = []
    if err.code != ex.expect_error:
        out.append(f"raised {err.code}: {err.text.en}; expected {ex.expect_error}")
    if err.kind != ex.error_kind:
        out.append(f"the refusal is of kind {err.kind}; expected {ex.error_kind}")
    return tuple(out)


def run_example(entry: Entry, ex: Example, registry: Registry,
                lookup: Callable[[str], Mapping[str, Any] | None] = lambda _id: None,
                seconds: float = EXAMPLE_LIMITS.seconds) -> ExampleResult:
    """Run one example (within ``seconds``, by default the limit per example) and compare what its resolver
    computes with what the example expects."""
    res = registry.get(ex.mechanic)
    if res is None:
        return ExampleResult(entry, ex, "error", error="unknown-resolver",
                             details=(_unknown_resolver(entry, ex, registry).message,))
    kwargs = dict(ex.given)
    if res.wants_context:
        kwargs["context"] = Context(entry.data, lookup)
    result = _unrunnable(entry, ex) or _uncallable(entry, ex, res) or _run(entry, ex, res, kwargs, seconds)
    if isinstance(result, ExampleResult):
        return result
    problem = _not_an_outcome(result)
    if problem:
        return ExampleResult(entry, ex, "error", error="bad-outcome",
                             details=(f"bad outcome: {problem}",
                                      f"the resolver returned {problem}, not an outcome made with outcome()"))
    details, mismatches = _compare(ex, result)
    details[:0] = _undeclared(result, res.outputs)
    odds = _odds(entry, ex, res, kwargs, result, seconds) if result.chance is not None else []
    if isinstance(odds, ExampleResult):
        return odds
    details += odds
    status = "failed" if details else "passed"
    return ExampleResult(entry, ex, status, result, tuple(mismatches), details=tuple(details))


def _odds(entry: Entry, ex: Example, res: Resolver, kwargs: Mapping[str, Any], result: Outcome,
          seconds: float) -> list[str] | ExampleResult:
    """The problems of the outcome's stated chance (:func:`check_chance`, which runs the resolver again for every
    total, within the same limits), or the error when one of those runs raised, exited or ran out of time: the
    example's own run succeeded, so its outcome is kept and the total named."""
    try:
        problems: list[str] = _timed(seconds, check_chance, res, kwargs, result)
        return problems
    except _OddsCrash as crash:
        return replace(_crashed(entry, ex, crash.exc, seconds, res, crash.when), outcome=result)
    except (Exception, SystemExit, TimeLimit) as exc:
        return replace(_crashed(entry, ex, exc, seconds, res), outcome=result)


def _timed(seconds: float, func: Callable[..., Any], *args: Any) -> Any:
    """``func(*args)`` within ``seconds`` (:class:`TimeLimit` beyond)."""
    with time_limit(seconds):
        return func(*args)


def _run(entry: Entry, ex: Example, res: Resolver, kwargs: dict[str, Any], seconds: float) -> Any:
    """What the resolver returns for the example's inputs, or the example's result when it refused (a
    :class:`RuleError`: passed when the example expects that refusal), ran out of time, raised or exited."""
    try:
        return _timed(seconds, lambda: res.func(**kwargs))
    except RuleError as err:
        said = _refusal_details(ex, err)
        return ExampleResult(entry, ex, "failed" if said else "passed", error=err.code, message=err.step,
                             kind=err.kind, details=said)
    except (Exception, SystemExit, TimeLimit) as exc:  # a resolver bug (or an exit): reported, never a crash of the run
        return _crashed(entry, ex, exc, seconds, res)


def _unrunnable(entry: Entry, ex: Example) -> ExampleResult | None:
    """The error of an example that is not run: inputs over the limits, a probability that is no fraction."""
    too_big = _too_big(entry, ex)
    if too_big:
        return ExampleResult(entry, ex, "error", error="limit-exceeded", details=tuple(d.message for d in too_big))
    bad = _bad_probability(entry, ex)
    if bad is not None:
        return ExampleResult(entry, ex, "error", error="invalid-probability", details=(bad.message,))
    return None


def _uncallable(entry: Entry, ex: Example, res: Resolver) -> ExampleResult | None:
    """The error of an example whose inputs the resolver cannot be called with (a misspelt ``given``, an input it does
    not take, a required one missing, one of the wrong type): the example's own problem, as ``kb check`` says it, not
    the call's TypeError nor what the resolver makes of the wrong value (a text iterated letter by letter)."""
    said = [f"{where(('given', name))}: resolver '{res.name}' takes no input '{name}'{hint(name, res.inputs)}"
            for name in ex.given if name not in res.inputs]
    said += [f"resolver '{res.name}' needs input '{name}'" for name in sorted(res.required - set(ex.given))]
    said += [f"line {d.location.line}: {d.message}" for d in _wrong_types(entry, ex, res)]
    if not said:
        return None
    return ExampleResult(entry, ex, "error", error="invalid-example", details=(*said, "kb check locates the example's problems"))


def _crashed(entry: Entry, ex: Example, exc: BaseException, seconds: float, res: Resolver, when: str = "") -> ExampleResult:
    """A resolver that ran out of time, raised or exited (``when``: the odds' run it did it in, worded)."""
    if isinstance(exc, TimeLimit):
        return ExampleResult(entry, ex, "error", error="timeout", seconds=seconds,
                             details=(f"ran longer than {seconds:g} s, the limit per worked example",))
    what = f"{type(exc).__name__}: {exc}" if not isinstance(exc, SystemExit) else f"SystemExit({exc.code!r})"
    source = getattr(getattr(res.func, "__code__", None), "co_filename", None)
    line = raised_at(exc, os.path.abspath(source)) if source else None
    at = f", at {format_path(Path(source))}:{line}" if source and line else ""
    return ExampleResult(entry, ex, "error", error="resolver-raised", details=(what + at + when,))


class _OddsCrash(Exception):
    """The resolver raised (or exited) on one of the totals the odds are checked over: ``exc``, and ``when`` it did."""

    def __init__(self, exc: BaseException, when: str) -> None:
        super().__init__(when)
        self.exc, self.when = exc, when


def _undeclared(result: Outcome, outputs: Mapping[str, str]) -> list[str]:
    """Each value the outcome holds that its resolver does not declare among its ``outputs`` (a misspelt name)."""
    return [f"the resolver returned '{name}', which it does not declare (declared: {', '.join(outputs) or 'none'})"
            for name in result.values if name not in outputs]


def _compare(ex: Example, result: Outcome) -> tuple[list[str], list[tuple[str, Any, Any]]]:
    """How the outcome differs from what the example expects: the details, and the mismatched (name, want, got)."""
    details: list[str] = []
    mismatches: list[tuple[str, Any, Any]] = []
    if ex.expect_error:
        details.append(f"expected error {ex.expect_error}, but the resolver succeeded")
    for name, want in (ex.expect or {}).items():
        got = result.values.get(name, "<absent>")
        if not _same(want, got, ex.tolerance):
            mismatches.append((name, want, got))
            details.append(f"{name}: expected {want!r}, got {got!r}")
    if ex.probability is not None:
        if result.probability is None:
            details.append("the resolver states no probability")
        elif result.probability != ex.probability:
            mismatches.append(("probability", str(ex.probability), str(result.probability)))
            details.append(f"probability: expected {ex.probability}, got {result.probability}")
    return details, mismatches


_NOT_RUN = ("unknown-resolver", "invalid-probability", "limit-exceeded")
"""Errors of an example that is not run: its details say the problem as ``kb check`` does."""

_SAID_IN_DETAILS = ("resolver-raised", "bad-outcome")
"""Errors whose diagnostic says what happened (the exception, the wrong value) rather than the code."""


def check_chance(res: Resolver, kwargs: Mapping[str, Any], result: Outcome) -> list[str]:
    """Problems with the probability a resolver states: it must name its event in both languages and,
    when it says which roll decides the event, equal the share of the dice's totals for which the
    resolver itself says the event happens."""
    ch = result.chance
    assert ch is not None
    if not (ch.event.es.strip() and (ch.event.en or "").strip()):
        return [f"{res.name} states a probability ({ch.probability}) without naming its event in both languages"]
    if ch.output is not None and ch.output not in res.outputs:
        return [f"{res.name}: the event's output '{ch.output}' is not one of its outputs"]
    if ch.output is None:
        return []
    problems = _certainty_problems(ch, result.values.get(ch.output))
    if ch.roll is None or ch.dice is None:
        return problems
    return problems + _roll_problems(res, kwargs, ch)


def _certainty_problems(ch: Any, happened: Any) -> list[str]:
    """A chance of 0 whose event happened, or of 1 whose event did not."""
    problems = []
    if ch.probability == 0 and happened == ch.when:
        problems.append(f"the chance of {ch.event.en} is 0, yet {ch.output} = {happened!r}")
    if ch.probability == 1 and happened is not None and happened != ch.when:
        problems.append(f"the chance of {ch.event.en} is 1, yet {ch.output} = {happened!r}")
    return problems


def _roll_problems(res: Resolver, kwargs: Mapping[str, Any], ch: Any) -> list[str]:
    """The stated chance against the share of the dice's totals for which the resolver says the event happens."""
    problems: list[str] = []
    ways = distribution(parse(ch.dice))
    hits, refused = _hits(res, kwargs, ch, ways)
    silent, lacking = refused["unstated"], refused["incomplete"]
    if silent:
        problems.append(f"the chance of {ch.event.en} cannot be exact: the rules do not say what happens when "
                        f"{ch.dice} gives {', '.join(map(str, silent))}")
    if lacking:
        problems.append(f"the chance of {ch.event.en} cannot be exact: the rule needs a fact the example does not give "
                        f"when {ch.dice} gives {', '.join(map(str, lacking))}")
    counted = Fraction(hits, sum(ways.values()))
    if counted != ch.probability:
        problems.append(f"the chance of {ch.event.en} is stated as {ch.probability}, but {ch.output} = {ch.when!r} "
                        f"for {counted} of the {ch.dice} rolls")
    return problems


def _hits(res: Resolver, kwargs: Mapping[str, Any], ch: Any, ways: Mapping[int, int]) -> tuple[int, dict[str, list[int]]]:
    """How many of the dice's ways make the event happen, and the totals refused as ``unstated`` (the source
    does not say what happens) or ``incomplete`` (the rule needs a fact the inputs lack): neither hits nor
    misses. A total refused otherwise (forbidden, impossible, elsewhere) cannot happen here: a miss."""
    hits = 0
    refused: dict[str, list[int]] = {"unstated": [], "incomplete": []}
    for total, n in ways.items():
        try:
            values = res.func(**{**kwargs, ch.roll: total}).values
        except RuleError as err:
            refused.get(err.kind, []).append(total)
            continue
        except (Exception, SystemExit) as exc:  # not the example's own inputs: said so
            raise _OddsCrash(exc, f", when the odds were checked with {ch.roll} = {total} ({ch.dice})") from exc
        hits += n * (values.get(ch.output) == ch.when)
    return hits, refused


@dataclass(frozen=True)
class Selection:
    """Which examples to run: selectors are entry ids, games or ``id#example``; none means all."""

    selectors: tuple[tuple[str, str | None], ...] = ()
    """(entry id or game, example id or ``None``) per selector."""

    def entry(self, entry: Entry) -> bool:
        """True when some selector names the entry or its game."""
        return not self.selectors or any(s in (entry.id, entry.game) for s, _ in self.selectors)

    def example(self, entry: Entry, ex: Example) -> bool:
        """True when some selector names this example (or the whole entry or game)."""
        return not self.selectors or any(s in (entry.id, entry.game) and x in (None, ex.id) for s, x in self.selectors)


def parse_selectors(selectors: Iterable[str]) -> Selection:
    """``["g.a#x", "h"]`` as a :class:`Selection`."""
    out = []
    for s in selectors:
        name, sep, example = s.partition("#")
        out.append((name, example if sep else None))
    return Selection(tuple(out))


def select(entries: Iterable[Entry], selectors: Iterable[str]) -> list[Entry]:
    """Entries matching any selector: an entry id, a game, or ``id#example``; all when none is given."""
    chosen = parse_selectors(selectors)
    return [e for e in entries if chosen.entry(e)]


def run_examples(entries: Iterable[Entry], registry: Registry, lookup: Callable[[str], Mapping[str, Any] | None],
                 selectors: Iterable[str] = (), seconds: float = EXAMPLE_LIMITS.seconds) -> list[ExampleResult]:
    """Run the selected examples (each selector: an entry id, a game or ``id#example``), each within ``seconds``."""
    chosen = parse_selectors(selectors)
    return [run_example(e, ex, registry, lookup, seconds) for e in entries if chosen.entry(e) for ex in e.examples
            if chosen.example(e, ex)]


def run_examples_again(entries: Iterable[Entry], registry: Registry,
                       lookup: Callable[[str], Mapping[str, Any] | None],
                       kept: Callable[[Entry], Sequence[ExampleResult] | None],
                       seconds: float = EXAMPLE_LIMITS.seconds) -> tuple[list[ExampleResult], int]:
    """Every example's result, as :func:`run_examples` gives them, and how many were run: an entry's results are
    taken from ``kept`` (what it returns for an entry whose file and resolvers did not change since they were
    run), except for an example whose resolver reads other entries (``context``), which is run again."""
    out: list[ExampleResult] = []
    ran = 0
    for entry in entries:
        before = kept(entry)
        same = before is not None and [r.example.id for r in before] == [ex.id for ex in entry.examples]
        for i, ex in enumerate(entry.examples):
            res = registry.get(ex.mechanic)
            if same and before is not None and res is not None and not res.wants_context:
                out.append(replace(before[i], entry=entry, example=ex))
                continue
            out.append(run_example(entry, ex, registry, lookup, seconds))
            ran += 1
    return out, ran


def _resolver_origin(entry: Any, registry: Registry) -> str:
    """Where resolvers come from, for an unknown one: the built-in ones and the game's ``mechanics.py`` (and its state)."""
    folder = next((p for p in entry.path.parents if p.name == entry.game), None)
    module = folder / "mechanics.py" if folder is not None else None
    if module is not None and entry.game in registry.unloaded:
        return (f" ({format_path(module)} did not load: error[mechanics-import] at its line {registry.unloaded[entry.game]};"
                " its resolvers are missing until it does)")
    if module is None or not module.is_file():
        where = f"; no {format_path(module)}" if module is not None else ""
        return f" (resolvers are kb's own, listed by 'kb resolvers', and those a game's mechanics.py registers{where})"
    return (f" (resolvers are kb's own, listed by 'kb resolvers', and those {format_path(module)} registers: it does not "
            "register this name)")


def _numbered(number: str, text: str) -> list[str]:
    """``text`` after ``number``, its further lines (``\\n``, ``\\r``, U+2028…) indented under its first."""
    first, *rest = text.splitlines() or [""]
    return [number + first] + [" " * len(number) + line for line in rest]
