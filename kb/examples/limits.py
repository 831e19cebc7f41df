"""Bounded work for worked examples: limits on what an example may give, and a time limit per run.

``kb check`` reports an example whose inputs pass a limit (``limit-exceeded``, at the value), and the
runner refuses to run it; every run has a time limit (``example-timeout``), so no example can hang
a check, a test run or a build (the timer, :mod:`kb.core.timelimit`, also bounds a game's mechanics
import). The dice limits live with the dice (:mod:`kb.mechanics.dice`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kb.core.model import DataPath
from kb.core.timelimit import SECONDS, TimeLimit, time_limit

__all__ = ["ExampleLimits", "EXAMPLE_LIMITS", "TimeLimit", "time_limit", "over_limits"]


@dataclass(frozen=True)
class ExampleLimits:
    """What one worked example may ask of a resolver."""

    max_items: int = 100
    """Items in any list or mapping of ``given`` (the size of what a resolver may enumerate)."""
    max_number: int = 1_000_000
    """Largest absolute value of any number in ``given``."""
    max_text: int = 1_000
    """Longest text in ``given``, in characters."""
    seconds: float = SECONDS
    """Time one example may run (``example-timeout``); a game's mechanics module may take as long to import."""


EXAMPLE_LIMITS = ExampleLimits()


def over_limits(given: Any, limits: ExampleLimits = EXAMPLE_LIMITS, path: DataPath = ()) -> list[tuple[DataPath, str]]:
    """Every (data path inside ``given``, what is too big) of an example's inputs."""
    out: list[tuple[DataPath, str]] = []
    if isinstance(given, (list, dict)):
        if len(given) > limits.max_items:
            out.append((path, f"{len(given)} items; the limit is {limits.max_items}"))
        items = given.items() if isinstance(given, dict) else enumerate(given)
        for key, value in items:
            out += over_limits(value, limits, path + (key,))
    else:
        problem = _scalar_over(given, limits)
        if problem:
            out.append((path, problem))
    return out


def _scalar_over(given: Any, limits: ExampleLimits) -> str | None:
    """What is too big about one value: a number past ±``max_number``, a long text, dice past the dice limits."""
    if isinstance(given, bool) or given is None:
        return None
    if isinstance(given, (int, float)):
        return f"the number {_short(given)}; the limit is ±{limits.max_number:,}" if abs(given) > limits.max_number else None
    if isinstance(given, str):
        if len(given) > limits.max_text:
            return f"a text of {len(given)} characters; the limit is {limits.max_text}"
        from kb.mechanics import dice  # here, not at the top: kb.api imports ExampleLimits, and a query needs no dice (nor Babel)

        return dice.over_limits(given)
    return None


def _short(number: float) -> str:
    text = str(number) if not isinstance(number, int) or number.bit_length() < 64 else f"of {number.bit_length()} bits"
    return text[:30]
