"""JSON for the caches: plain data and a closed list of the engine's own frozen dataclasses, never code.

Decoding builds only the types named in :data:`TYPES` (by their fields, through their constructors)
and JSON's own values; any other shape raises :class:`Damaged`. Nothing is imported, called or
evaluated by name, so a planted or damaged cache file can at worst be refused.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from kb.core.errors import KbError
from kb.core.diagnostics import Diagnostic
from kb.core.model import Entry, Example, Location, Marks, Term, Text

__all__ = ["Damaged", "TYPES", "dumps", "loads"]


class Damaged(KbError, ValueError):
    """A cache file that is not what this engine writes."""


TYPES: tuple[type, ...] = (Location, Text, Example, Term, Entry, Diagnostic)
"""Dataclasses any cache may hold; a caller above the core names its own (``types=``), e.g. links."""
_TAG = "\u0000t"


def _enc(value: Any, types: dict[str, type]) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [_enc(v, types) for v in value]
    if isinstance(value, dict):
        return _enc_dict(value, types)
    return _enc_tagged(value, types)


def _enc_dict(value: dict[Any, Any], types: dict[str, type]) -> dict[str, Any]:
    """A dict of string keys as itself, any other as ``{TAG: "map", "v": [[key, value]...]}``."""
    if all(isinstance(k, str) and k != _TAG for k in value):
        return {k: _enc(v, types) for k, v in value.items()}
    return {_TAG: "map", "v": [[_enc(k, types), _enc(v, types)] for k, v in value.items()]}


def _enc_tagged(value: Any, types: dict[str, type]) -> dict[str, Any]:
    """A value JSON has no type for, as ``{TAG: its type, "v": its parts}``."""
    for cls, tag, parts in _TAGGED:
        if isinstance(value, cls):
            return {_TAG: tag, "v": parts(value, types)}
    name = type(value).__name__
    if types.get(name) is type(value):
        fields = dataclasses.fields(value)  # type: ignore[arg-type]  # one of `types`: a dataclass
        return {_TAG: name, "v": {f.name: _field(getattr(value, f.name), types) for f in fields}}
    raise TypeError(f"cannot cache a {name}")


def _enc_marks(value: Marks, _: dict[str, type]) -> list[Any]:
    """Compact: ``[path, values, keys]``, each table ``[line, column, *data path]`` per mark."""
    rows = [[[lc[0], lc[1], *p] for p, lc in table.items()] for table in (value.values, value.keys)]
    return [str(value.path), *rows]


_TAGGED: tuple[tuple[type, str, Callable[[Any, dict[str, type]], Any]], ...] = (
    (tuple, "tuple", lambda v, types: [_enc(x, types) for x in v]),
    (frozenset, "frozenset", lambda v, types: sorted((_enc(x, types) for x in v), key=repr)),
    (Fraction, "fraction", lambda v, _: [v.numerator, v.denominator]),
    (Path, "path", lambda v, _: str(v)),
    (Marks, "marks", _enc_marks),
)
"""(type, tag, its parts) of the values that are neither JSON nor one of the cached dataclasses."""


def _field(value: Any, types: dict[str, type]) -> Any:
    """A dataclass field: plain data (an entry's YAML data, an example's inputs) is kept as it is."""
    if isinstance(value, dict) and value and _plain(value):
        return {_TAG: "raw", "v": value}
    return _enc(value, types)


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and k != _TAG and _plain(v) for k, v in value.items())
    return False


def _marks(body: Any) -> Marks:
    path, values, keys = body
    tables = [{tuple(row[2:]): (int(row[0]), int(row[1])) for row in rows} for rows in (values, keys)]
    return Marks(Path(str(path)), *tables)


def _dec(value: Any, types: dict[str, type]) -> Any:
    if isinstance(value, list):
        return [_dec(v, types) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get(_TAG)
    if tag is None:
        return {k: _dec(v, types) for k, v in value.items()}
    body: Any = value.get("v")
    try:
        decode = _DECODERS.get(tag) if isinstance(tag, str) else None
        return decode(body, types) if decode is not None else _dec_dataclass(tag, body, types)
    except Damaged:
        raise
    except (TypeError, ValueError, ZeroDivisionError, KeyError) as exc:
        raise Damaged(f"bad {str(tag)[:40]}: {exc}") from None


def _dec_dataclass(tag: Any, body: Any, types: dict[str, type]) -> Any:
    """One of the cached dataclasses, from its fields; :class:`Damaged` for an unknown type or field."""
    cls = types.get(tag) if isinstance(tag, str) else None
    if cls is None or not isinstance(body, dict):
        raise Damaged(f"unknown type {str(tag)[:40]!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    if set(body) - names:
        raise Damaged(f"unexpected fields in {tag}")
    return cls(**{k: _dec(v, types) for k, v in body.items()})


_DECODERS: dict[str, Callable[[Any, dict[str, type]], Any]] = {
    "map": lambda body, types: {_hashable(_dec(k, types)): _dec(v, types) for k, v in body},
    "tuple": lambda body, types: tuple(_dec(v, types) for v in body),
    "frozenset": lambda body, types: frozenset(_hashable(_dec(v, types)) for v in body),
    "fraction": lambda body, _: Fraction(int(body[0]), int(body[1])),
    "path": lambda body, _: Path(str(body)),
    "raw": lambda body, _: body,
    "marks": lambda body, _: _marks(body),
}
"""Tag → decoder of the tagged values (the rest are the cached dataclasses)."""


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        raise Damaged("a list where a key was expected")
    return value


def _types(extra: tuple[type, ...]) -> dict[str, type]:
    return {cls.__name__: cls for cls in (*TYPES, *extra)}


def dumps(header: dict[str, Any], obj: Any, types: tuple[type, ...] = ()) -> bytes:
    """``obj`` as JSON bytes, after ``header`` (checked by :func:`loads` before anything is decoded)."""
    return json.dumps({"header": header, "data": _enc(obj, _types(types))}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(raw: bytes, header: dict[str, Any], types: tuple[type, ...] = ()) -> Any:
    """The object in ``raw``; :class:`Damaged` unless it is JSON written with exactly ``header``."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Damaged(f"not JSON ({type(exc).__name__})") from None
    if not isinstance(doc, dict) or set(doc) != {"header", "data"}:
        raise Damaged("not a cache file of this engine")
    if doc["header"] != header:
        raise Damaged("written by another engine version")
    try:
        return _dec(doc["data"], _types(types))
    except RecursionError:
        raise Damaged("nested too deeply") from None
