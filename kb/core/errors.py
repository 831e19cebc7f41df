"""The errors the public API raises, each with a message that says what was asked and what exists.

Bad *content* is never an exception (it is a :class:`~kb.core.diagnostics.Diagnostic`); these are for a
caller who asks for something that is not there.
"""

from __future__ import annotations

from typing import Iterable

from kb.core.diagnostics import hint

__all__ = ["KbError", "InvalidArgument", "UnknownEntry", "UnknownExample", "UnknownValue"]


class KbError(Exception):
    """Root of every error `kb` raises on purpose (RuleError, SearchError, NoContent, RoundTripError,
    ScaffoldError, the API's Unknown* ...): catch this one to catch them all (tests/test_house.py)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnknownEntry(KbError, KeyError):
    """No entry has this id."""

    def __init__(self, entry_id: str, known: Iterable[str]) -> None:
        super().__init__(f"no entry '{entry_id}'{hint(entry_id, known)}")
        self.entry_id = entry_id


class UnknownExample(KbError, KeyError):
    """The entry has no worked example with this id."""

    def __init__(self, entry_id: str, example_id: str, known: Iterable[str]) -> None:
        known = list(known)
        listed = f" (its examples: {', '.join(known)})" if known else " (it has none)"
        super().__init__(f"entry '{entry_id}' has no example '{example_id}'{hint(example_id, known)}{listed}")
        self.entry_id, self.example_id = entry_id, example_id


class UnknownValue(KbError, ValueError):
    """A game, kind or language that does not exist: an error, never an empty result."""

    def __init__(self, what: str, value: object, known: Iterable[str]) -> None:
        known = sorted(known)
        super().__init__(f"unknown {what} '{value}'{hint(str(value), known)}; one of: {', '.join(known)}")
        self.what, self.value = what, value


class InvalidArgument(KbError, ValueError, TypeError):
    """An argument of the API that is of the wrong type (``search(None)``, ``odds("2d6", at_least="5")``) or out of
    its range (``search(q, limit=0)``). Also a ``ValueError`` and a ``TypeError``, the builtins these calls raised
    before, so code that catches either keeps working."""

    def __init__(self, name: str, value: object, expected: str) -> None:
        super().__init__(f"{name} must be {expected}, not {value!r}")
        self.name, self.value = name, value


def check_argument(name: str, value: object, kind: type | tuple[type, ...], expected: str) -> None:
    """Raise :class:`InvalidArgument` when ``value`` is not of ``kind`` (text, a whole number…); a ``bool`` never is
    (``True`` is no number of dice)."""
    if isinstance(value, bool) or not isinstance(value, kind):
        raise InvalidArgument(name, value, expected)
