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
        raise RuleError("no-sequence", "{name} no es una secuencia", "{name} is not a sequence", name=name)
    body = data["sequence"]
    return list(numbered_steps(body.get("steps", []) if isinstance(body, Mapping) else []))


def _cite(context: Context, sequence: str | None, step: str | None) -> str:
    """The rule a step of the trace applies: the sequence's step ``<sequence id>#<step id>``."""
    seq = sequence or str(context.entry.get("id", ""))
    return f"{seq}#{step}" if step else seq


def _find(steps: list[tuple[Mapping[str, Any], Number]], step: str) -> int:
    for i, (s, _) in enumerate(steps):
        if s.get("id") == step:
            return i
    raise RuleError("unknown-step", "no hay paso «{step}»", "there is no step “{step}”", step=step, kind="impossible")


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
    rule = _cite(context, sequence, step)
    if allows:
        trace.add("El paso {n} ({step}) permite: {allows}", "Step {n} ({step}) allows: {allows}", rule=rule,
                  n=_shown(number), step=step, allows=allows)
    else:
        trace.add("El paso {n} ({step}) no permite ninguna acción", "Step {n} ({step}) allows no action", rule=rule,
                  n=_shown(number), step=step)
    if ok:
        trace.add("En este paso se permite {action}", "This step allows {action}", rule=rule, action=action)
    else:
        trace.add("En este paso no se permite {action}", "This step does not allow {action}", rule=rule, action=action)
    return outcome(trace, allowed=ok, number=number, actions=allows)


@resolver("procedure.order", outputs={"order": "the items sorted by the sequence",
                                      "numbers": "each item's step number as the rulebook prints it"})
def order(context: Context, items: list[str], sequence: str | None = None) -> Outcome:
    """Sort step ids into the order the sequence fixes."""
    steps = _steps(context, sequence)
    pos = {s: _find(steps, s) for s in items}
    ordered = sorted(items, key=pos.__getitem__)
    trace = Trace()
    trace.add("Orden fijado por la secuencia: {order}", "Order fixed by the sequence: {order}",
              rule=_cite(context, sequence, None), order=ordered)
    return outcome(trace, order=ordered, numbers=[steps[pos[s]][1] for s in ordered])


@resolver("procedure.next-step", outputs={"next": "the step that follows (absent after the last)",
                                          "number": "the number of the step that follows, as the rulebook prints it"})
def next_step(context: Context, step: str, sequence: str | None = None) -> Outcome:
    """Which step follows ``step``, and its number."""
    steps = _steps(context, sequence)
    i = _find(steps, step)
    trace = Trace()
    if i + 1 >= len(steps):
        trace.add("El paso {n} ({step}) es el último: no le sigue ninguno", "Step {n} ({step}) is the last: none follows it",
                  rule=_cite(context, sequence, step), n=_shown(steps[i][1]), step=step)
        return outcome(trace, next=None, number=None)
    nxt, number = steps[i + 1][0]["id"], steps[i + 1][1]
    trace.add("Tras el paso {n} ({step}) viene el paso {m} ({next})", "After step {n} ({step}) comes step {m} ({next})",
              rule=_cite(context, sequence, nxt), n=_shown(steps[i][1]), step=step, m=_shown(number), next=nxt)
    return outcome(trace, next=nxt, number=number)


LABELS = {
    "step": ("paso", "step"),
    "sequence": ("secuencia", "sequence"),
    "next": ("paso siguiente", "next step"),
    "number": ("número de paso", "step number"),
    "items": ("pasos a ordenar", "steps to order"),
    "order": ("orden", "order"),
    "numbers": ("números de paso", "step numbers"),
    "action": ("acción", "action"),
    "allowed": ("se puede hacer", "allowed"),
    "actions": ("acciones que permite el paso", "actions the step allows"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
