"""Ordered procedures read from the entry's own ``sequence`` steps."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from kb.mechanics import Context, RuleError, Trace, outcome, resolver

__all__ = ["flatten_steps"]


def flatten_steps(steps: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every step, nested ones right after their parent, in reading order."""
    for step in steps:
        yield step
        yield from flatten_steps(step.get("steps", []))


def _steps(context: Context, sequence: str | None) -> list[Mapping[str, Any]]:
    data = context.entry if sequence is None else context.lookup(sequence)
    if data is None or "sequence" not in data:
        name = sequence or data and data.get("id")
        raise RuleError("no-sequence", f"{name} no es una secuencia", f"{name} is not a sequence")
    return list(flatten_steps(data["sequence"]["steps"]))


def _find(steps: list[Mapping[str, Any]], step: str) -> int:
    for i, s in enumerate(steps):
        if s["id"] == step:
            return i
    raise RuleError("unknown-step", f"no hay paso '{step}'", f"there is no step '{step}'")


@resolver("procedure.step-allows", outputs={"allowed": "whether the action may be taken in the step",
                                            "number": "the step's position, from 1",
                                            "actions": "every action the step allows"})
def step_allows(context: Context, step: str, action: str, sequence: str | None = None):
    """May ``action`` be taken in ``step``? Reads the step's ``allows`` list."""
    steps = _steps(context, sequence)
    i = _find(steps, step)
    allows = list(steps[i].get("allows", []))
    ok = action in allows
    trace = Trace()
    trace.add("Paso {n} ({step}) permite: {allows}", "Step {n} ({step}) allows: {allows}", n=i + 1, step=step,
              allows=allows or ["—"])
    trace.add("{action}: {ok}", "{action}: {ok}", action=action, ok=ok)
    return outcome(trace, allowed=ok, number=i + 1, actions=allows)


@resolver("procedure.order", outputs={"order": "the items sorted by the sequence",
                                      "numbers": "each item's step position, from 1"})
def order(context: Context, items: list[str], sequence: str | None = None):
    """Sort step ids into the order the sequence fixes."""
    steps = _steps(context, sequence)
    pos = {s: _find(steps, s) for s in items}
    ordered = sorted(items, key=pos.__getitem__)
    trace = Trace()
    trace.add("Orden fijado por la secuencia: {order}", "Order fixed by the sequence: {order}", order=ordered)
    return outcome(trace, order=ordered, numbers=[pos[s] + 1 for s in ordered])


@resolver("procedure.next-step", outputs={"next": "the step that follows (absent after the last)",
                                          "number": "the step's position, from 1"})
def next_step(context: Context, step: str, sequence: str | None = None):
    """Which step follows ``step``."""
    steps = _steps(context, sequence)
    i = _find(steps, step)
    nxt = steps[i + 1]["id"] if i + 1 < len(steps) else None
    trace = Trace()
    trace.add("Tras {step} (paso {n}) viene {next}", "After {step} (step {n}) comes {next}", step=step, n=i + 1,
              next=nxt or "—")
    return outcome(trace, next=nxt, number=i + 1)
