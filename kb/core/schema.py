"""The JSON Schemas shipped with the package, turned into located diagnostics."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from kb.core.diagnostics import Diagnostic, diag, hint, suggest
from kb.core.model import KINDS, DataPath, Location, Marks

__all__ = ["schema_text", "validate", "validate_at", "is_valid", "where", "found"]

_TYPES = {
    "object": "a mapping (key: value)",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}
ONE_LINE = "^[^\n\u2028\u2029]*(?!\n)$"
"""The schemas' pattern of a text shown on one line (a title, a name, a heading): no line break in it."""
_BREAK = re.compile("[\n\u2028\u2029]")
FRACTION = r"^\d+(/\d+)?(?!\n)$"
"""The schema's pattern of a probability: a fraction written as text (``30/36``, ``1``)."""
_PATTERNS = {
    r"^[0-9a-f]{12}(?!\n)$": "12 lowercase hexadecimal digits (written by 'kb i18n ack')",
    FRACTION: "a fraction such as 30/36",
    "^[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]*$":
        "a number with its sign (+1); a value with words is written per language ({es: +1 VdA, en: +1 RoF})",
}


def fraction_hint(value: Any) -> str:
    """``"; write it as a fraction: 3/5"`` for a decimal probability (``0.6``, ``'0.6'``), else an empty string."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return ""
    try:
        near = Fraction(str(value)).limit_denominator(1000)
    except (ValueError, ZeroDivisionError):
        return ""
    return f"; write it as a fraction: {near.numerator}/{near.denominator}" if 0 <= near <= 1 else ""


def read_probability(value: Any) -> Fraction | None:
    """A written probability as the schema takes it: a text fraction (:data:`FRACTION`: ``30/36``, ``1``), else None
    (``'0.6'``, ``0.6``, ``1``, ``1/0``). What the loader gives an example, so ``kb test`` runs only the probabilities
    ``kb check`` accepts."""
    if not (isinstance(value, str) and re.match(FRACTION, value)):
        return None
    top, _, bottom = value.partition("/")
    return Fraction(int(top), int(bottom or 1)) if int(bottom or 1) else None


def probability_problem(at: Location, path: DataPath, value: Any) -> Diagnostic | None:
    """``invalid-value`` at a written probability that is not a text fraction from 0/1 to 1/1, else None: the one
    judge of a probability, whose message ``kb check`` and ``kb test`` both say."""
    chance = read_probability(value)
    if chance is not None and chance <= 1:
        return None
    if chance is None and not (isinstance(value, str) and re.match(FRACTION, value)):
        return _not_a_fraction(at, path, value)
    return diag("invalid-value", at, where=where(path), value=repr(value), expected=IN_RANGE, hint="")


IN_RANGE = "a fraction from 0/1 to 1/1 such as 30/36"
"""What a probability written as a fraction but beyond 1 (``3/2``) or over 0 (``1/0``) should be."""


def _not_a_fraction(at: Location, path: DataPath, value: Any) -> Diagnostic:
    """``invalid-value`` at a probability not written as a text fraction (``0.6``, ``'0.6'``), with the one to write."""
    return diag("invalid-value", at, where=where(path), value=repr(value), expected=_PATTERNS[FRACTION],
                hint=fraction_hint(value))


def schema_text(name: str = "entry") -> str:
    """The JSON text of a shipped schema (``entry`` or ``game``)."""
    return resources.files("kb").joinpath(f"schema/{name}.schema.json").read_text(encoding="utf-8")


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_text(name)))


@cache
def _fast(name: str) -> tuple[Any, type[Exception]]:
    """The same schema compiled to Python by fastjsonschema: a quick yes for valid documents.

    Only a document it rejects goes through jsonschema, which reports every error with its path.
    (The shipped schemas use no keyword whose meaning differs between draft 7 and 2020-12; the
    fuzz tests check that both validators agree.)
    """
    import fastjsonschema

    # the exception class travels with the compiled function: a module imported again later (as pytest's
    # in-process runs do) would bring a class of the same name that the function does not raise
    return fastjsonschema.compile(json.loads(schema_text(name))), fastjsonschema.JsonSchemaException


def top_keys(name: str = "entry") -> frozenset[str]:
    """The keys a shipped schema allows at the top of a document (an entry's ``summary``, ``examples``...)."""
    return frozenset(_validator(name).schema.get("properties", {}))


def is_valid(data: Any, name: str = "entry") -> bool:
    """True when ``data`` satisfies the schema (fast path)."""
    check, rejected = _fast(name)
    try:
        check(data)
        return True
    except rejected:
        return False


def where(path: DataPath) -> str:
    """A data path as authors write it: ``examples[2].given``; ``the entry`` for the root."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return f"'{out}'" if out else "the entry"


def found(value: Any) -> str:
    """How a value reads in a message: 'text \'5\'', 'a list'..."""
    for name, kind in (("true or false", bool), ("a whole number", int), ("a number", float), ("text", str),
                       ("a list", list), ("a mapping", dict)):
        if isinstance(value, kind):
            return f"{name} {value!r}" if isinstance(value, (str, int, float)) and not isinstance(value, bool) else name
    return "empty" if value is None else type(value).__name__


def _misspelt(errors: list[ValidationError]) -> set[tuple[DataPath, str]]:
    """The allowed keys an unknown key of the same mapping is a near miss of (``givne`` for ``given``), by the mapping's
    path: a required one of them reported missing is that typo again, which the unknown key's line already names."""
    out: set[tuple[DataPath, str]] = set()
    for err in errors:
        allowed = err.schema.get("properties", {}) if err.validator == "additionalProperties" else {}
        if allowed and isinstance(err.instance, dict):
            out |= {(tuple(err.absolute_path), near) for key in err.instance
                    if key not in allowed and (near := suggest(str(key), allowed)) is not None}
    return out


def _convert(err: ValidationError, marks: Marks, misspelt: set[tuple[DataPath, str]] | None = None) -> list[Diagnostic]:
    """``err`` as located diagnostics; a required field in ``misspelt`` (:func:`_misspelt`) is not reported missing.
    A value valid under none of an ``anyOf``'s branches, where only one branch takes its type, has that branch's
    problem (a modifier's ``"+1 VdA"``: the text's pattern, not "valid under none")."""
    near = [e for e in err.context or () if e.validator != "type"] if err.validator == "anyOf" else []
    return _convert(near[0], marks, misspelt) if len(near) == 1 else _converted(err, marks, misspelt)


def _converted(err: ValidationError, marks: Marks, misspelt: set[tuple[DataPath, str]] | None) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    at = marks.at(path)
    kind = err.validator
    if kind == "additionalProperties":
        allowed = err.schema.get("properties", {})
        return [
            diag("unknown-key", marks.at(path + (key,), key=True), key=key, where=where(path), hint=hint(key, allowed))
            for key in err.instance
            if key not in allowed
        ]
    if kind == "required":
        return [
            diag("missing-field", at, field=name, where=where(path))
            for name in err.validator_value
            if isinstance(err.instance, dict) and name not in err.instance and (path, name) not in (misspelt or set())
        ]
    if err.schema.get("pattern") == FRACTION and kind in ("type", "pattern"):  # one line, with the fraction to write
        return [_not_a_fraction(at, path, err.instance)]
    if kind == "type":
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        expected = " or ".join(str(_TYPES.get(t, t)) for t in wanted)
        return [diag("wrong-type", at, where=where(path), expected=expected, found=found(err.instance))]
    if kind == "enum":
        if path == ("kind",):
            return [diag("unknown-kind", at, kind=err.instance, valid=", ".join(KINDS), hint=hint(str(err.instance), KINDS))]
        choices = [str(c) for c in err.validator_value]
        return [diag("invalid-value", at, where=where(path), value=repr(err.instance),
                     expected="one of: " + ", ".join(choices), hint=hint(str(err.instance), choices))]
    if kind == "pattern" and err.validator_value == ONE_LINE and isinstance(err.instance, str):
        off = _BREAK.search(err.instance)
        return [diag("line-break", marks.at_offset(path, err.instance, off.start() if off else 0), where=where(path))]
    if kind == "pattern":
        if err.validator_value in _PATTERNS:
            return [diag("invalid-value", at, where=where(path), value=repr(err.instance), expected=_PATTERNS[err.validator_value])]
        if "." in err.validator_value:  # the id pattern
            return [diag("invalid-id", at, where=where(path), value=err.instance)]
        return [diag("invalid-value", at, where=where(path), value=repr(err.instance),
                     expected="use lowercase letters, digits and hyphens")]
    if kind == "maxLength":
        return [diag("invalid-value", at, where=where(path), value=f"text of {len(err.instance)} characters",
                     expected=f"the most allowed is {err.validator_value}")]
    if kind in ("minLength", "minItems"):
        return [diag("invalid-value", at, where=where(path), value="an empty value", expected="write something")]
    if kind == "minimum":
        return [diag("invalid-value", at, where=where(path), value=repr(err.instance),
                     expected=f"the least allowed is {err.validator_value}")]
    return [diag("schema", at, where=where(path), problem=err.message)]


def _one_per_value(errors: list[ValidationError]) -> list[ValidationError]:
    """``errors`` without the type error of a value that also breaks an ``enum`` (``rule_type: 5``): one line for one
    mistake, the one that lists the allowed values."""
    listed = {tuple(e.absolute_path) for e in errors if e.validator == "enum"}
    return [e for e in errors if e.validator != "type" or tuple(e.absolute_path) not in listed]


def validate(data: Any, marks: Marks, name: str = "entry") -> list[Diagnostic]:
    """Every schema problem of ``data``, located with ``marks``."""
    if is_valid(data, name):
        return []
    found: list[Diagnostic] = []
    seen: set[tuple[str, str, int, int]] = set()
    errors = _one_per_value(list(_validator(name).iter_errors(data)))
    misspelt = _misspelt(errors)
    for err in errors:
        for d in _convert(err, marks, misspelt):
            key = (d.code, d.message, d.location.line, d.location.column)
            if key not in seen:
                seen.add(key)
                found.append(d)
    return found


def validate_at(data: Any, marks: Marks, at: DataPath, value: Any, name: str = "entry") -> list[Diagnostic]:
    """The schema's problems with ``value`` put at ``at`` in ``data`` (which is left as it is): what writing it
    would make wrong there (a translated title too long, say), and nothing about the rest of the file."""
    def put(node: Any, rest: DataPath) -> Any:
        if not rest:
            return value
        if isinstance(node, dict):
            return {**node, rest[0]: put(node.get(rest[0]), rest[1:])}
        if isinstance(node, list) and isinstance(rest[0], int) and rest[0] < len(node):
            return [put(v, rest[1:]) if i == rest[0] else v for i, v in enumerate(node)]
        return node

    errors = _validator(name).iter_errors(put(data, at))
    return [d for err in errors if tuple(err.absolute_path)[:len(at)] == at for d in _convert(err, marks)]
