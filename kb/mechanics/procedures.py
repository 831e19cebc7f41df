"""Ordered procedures read from the entry's own ``sequence`` steps."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from kb.mechanics import Context, RuleError, Outcome, Trace, outcome, resolver

__all__ = ["flatten_steps", "numbered_steps"]

Number = int | str | None
"""A step's number as the rulebook prints it: ``3`` at the top level, ``"3.2"`` for a nested step, ``None``
for a step the rulebook leaves unnumbered."""


def flatten_steps(steps: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every step, nested ones right after their parent, in reading order."""
    for step, _ in numbered_steps(steps):
        yield step


def numbered_steps(steps: list[Mapping[str, Any]], prefix: str = "") -> Iterator[tuple[Mapping[str, Any], Number]]:
    """Every step in reading order with its number: siblings count from 1, a nested step carries its parent's
    number before a dot (``3.2``), and a step marked ``numbered: false`` gets none and is not counted."""
    n = 0
    for step in steps if isinstance(steps, list) else ():
        if not isinstance(step, Mapping):  # malformed content: the schema reports it, nothing here may crash
            continue
        number: Number = None
        if step.get("numbered", True) is not False:
            n += 1
            number = f"{prefix}.{n}" if prefix else n
        yield step, number
        yield from numbered_steps(step.get("steps", []), prefix if number is None else str(number))


def _steps(context: Context, sequence: str | None) -> list[tuple[Mapping[str, Any], Number]]:
    data = context.entry if sequence is None else context.lookup(sequence)
    if data is None or "sequence" not in data:
        name = sequence or data and data.get("id")
        raise RuleError("no-sequence", f"{name} no es una secuencia", f"{name} is not a sequence")
    body = data["sequence"]
    return list(numbered_steps(body.get("steps", []) if isinstance(body, Mapping) else []))


def _find(steps: list[tuple[Mapping[str, Any], Number]], step: str) -> int:
    for i, (s, _) in enumerate(steps):
        if s.get("id") == step:
            return i
    raise RuleError("unknown-step", "no hay paso «{step}»", "there is no step “{step}”", step=step)


def _shown(number: Number) -> str:
    return "—" if number is None else str(number)


@resolver("procedure.step-allows", outputs={"allowed": "whether the action may be taken in the step",
                                            "number": "the step's number as the rulebook prints it (3, 3.2; absent when unnumbered)",
                                            "actions": "every action the step allows"})
def step_allows(context: Context, step: str, action: str, sequence: str | None = None) -> Outcome:
    """May ``action`` be taken in ``step``? Reads the step's ``allows`` list."""
    steps = _steps(context, sequence)
    found, number = steps[_find(steps, step)]
    allows = list(found.get("allows", []))
    ok = action in allows
    trace = Trace()
    trace.add("Paso {n} ({step}) permite: {allows}", "Step {n} ({step}) allows: {allows}", n=_shown(number), step=step,
              allows=allows or ["—"])
    trace.add("{action}: {ok}", "{action}: {ok}", action=action, ok=ok)
    return outcome(trace, allowed=ok, number=number, actions=allows)


@resolver("procedure.order", outputs={"order": "the items sorted by the sequence",
                                      "numbers": "each item's step number as the rulebook prints it"})
def order(context: Context, items: list[str], sequence: str | None = None) -> Outcome:
    """Sort step ids into the order the sequence fixes."""
    steps = _steps(context, sequence)
    pos = {s: _find(steps, s) for s in items}
    ordered = sorted(items, key=pos.__getitem__)
    trace = Trace()
    trace.add("Orden fijado por la secuencia: {order}", "Order fixed by the sequence: {order}", order=ordered)
    return outcome(trace, order=ordered, numbers=[steps[pos[s]][1] for s in ordered])


@resolver("procedure.next-step", outputs={"next": "the step that follows (absent after the last)",
                                          "number": "the step's number as the rulebook prints it"})
def next_step(context: Context, step: str, sequence: str | None = None) -> Outcome:
    """Which step follows ``step``."""
    steps = _steps(context, sequence)
    i = _find(steps, step)
    nxt = steps[i + 1][0]["id"] if i + 1 < len(steps) else None
    trace = Trace()
    trace.add("Tras {step} (paso {n}) viene {next}", "After {step} (step {n}) comes {next}", step=step, n=_shown(steps[i][1]),
              next=nxt or "—")
    return outcome(trace, next=nxt, number=steps[i][1])


LABELS = {
    "step": ("paso", "step"),
    "sequence": ("secuencia", "sequence"),
    "next": ("paso siguiente", "next step"),
    "number": ("número de paso", "step number"),
    "items": ("pasos", "steps"),
    "order": ("orden", "order"),
    "numbers": ("números de paso", "step numbers"),
    "action": ("acción", "action"),
    "allowed": ("permitida", "allowed"),
    "actions": ("acciones permitidas", "actions allowed"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
