"""Alternating activation: players take turns activating one unit each."""

from __future__ import annotations

from kb.mechanics import RuleError, Outcome, Trace, outcome, resolver, window


def alternate_order(order: list[str], units: dict[str, int]) -> list[str]:
    """Player names in activation order: one each in turn, skipping players with nothing left."""
    left = dict(units)
    out: list[str] = []
    while any(left.get(p, 0) > 0 for p in order):
        for p in order:
            if left.get(p, 0) > 0:
                out.append(p)
                left[p] -= 1
    return out


@resolver("activation.alternate",
          ranges={"units.*": {"minimum": 0, **window(0, 10)}},  # any count is taken; a calculator offers 0 to 10
          outputs={"order": "who activates at each turn",
                                           "run": "activations the last player makes alone at the end"})
def alternate(order: list[str], units: dict[str, int]) -> Outcome:
    """Alternate activations in ``order`` until every unit has activated once."""
    missing = [p for p in units if p not in order]
    if missing:
        raise RuleError("unknown-player", "{m} no {n:p:está|están} en el orden", "{m} {n:p:is|are} not in the order",
                        m=missing, n=len(missing), kind="impossible")
    seq = alternate_order(order, units)
    run = 0
    for p in reversed(seq):
        if p != seq[-1]:
            break
        run += 1
    trace = Trace()
    trace.add("Unidades: {units}", "Units: {units}", units=dict(units))
    trace.add("Activaciones: {seq}", "Activations: {seq}", seq=seq)
    if run > 1:
        trace.add("{p} activa sus {run} últimas seguidas", "{p} activates its last {run} in a row", p=seq[-1], run=run)
    return outcome(trace, order=seq, run=run if run > 1 else 0)


LABELS = {
    "order": ("orden de activación", "activation order"),
    "units": ("unidades por jugador", "units per player"),
    "run": ("activaciones seguidas del último jugador", "activations the last player makes in a row"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
