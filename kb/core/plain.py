"""Plain data from the engine's types: ``to_dict()`` gives dicts, lists, strings, numbers, booleans and None.

``json.dumps(x.to_dict())`` works for every public type. Paths become strings, fractions ``"n/d"``
strings, locations ``{"path", "line", "column"}``; a field listed in a class's ``_plain_skip`` (side
tables such as line marks) is left out.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import PurePath
from typing import Any, Mapping

__all__ = ["plain", "Plain"]


def plain(value: Any) -> Any:
    """``value`` as JSON-able plain data."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (Fraction, PurePath)):
        return _scalar(value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and not isinstance(value, type):
        return to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    return _collection(value)


def _collection(value: Any) -> Any:
    """A mapping as a dict, a sequence or set as a list (a set sorted), anything else as its text."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [plain(v) for v in items]
    return str(value)


def _scalar(value: Fraction | PurePath) -> str:
    """A fraction as ``n/d``, a path as its text."""
    return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else str(value)


def _fields(value: Any) -> dict[str, Any]:
    skip = getattr(type(value), "_plain_skip", ())
    return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name not in skip}


class Plain:
    """Mixin: ``to_dict()`` from the dataclass fields (less ``_plain_skip``)."""

    _plain_skip: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """This object as JSON-able plain data."""
        return _fields(self)
