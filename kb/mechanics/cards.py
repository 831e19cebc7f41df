"""Card flips that pick one candidate."""

from __future__ import annotations

from kb.mechanics import RuleError, Outcome, Trace, outcome, resolver


@resolver("cards.flip-select", outputs={"target": "the chosen candidate (absent while a tie is open)",
                                        "tied": "candidates sharing the deciding value (absent when one alone has it)"})
def flip_select(flips: dict[str, int], lowest: bool = True, choice: str | None = None) -> Outcome:
    """One card per candidate; the lowest (or highest) value is chosen, ties settled by ``choice``."""
    if not flips:
        raise RuleError("no-candidates", "no hay candidatos", "there are no candidates", kind="impossible")
    trace = Trace()
    trace.add("Cartas: {flips}", "Cards: {flips}", flips=dict(flips))
    best = min(flips.values()) if lowest else max(flips.values())
    tied = [k for k, v in flips.items() if v == best]
    trace.add("Valor {which} {best}: {tied}", "{which_en} value {best}: {tied}", best=best, tied=tied,
              which="más bajo" if lowest else "más alto", which_en="Lowest" if lowest else "Highest")
    if len(tied) == 1:  # nothing is tied: a single candidate is never shown as "tied" (audit D19)
        return outcome(trace, target=tied[0], tied=None)
    if choice is None:
        trace.add("Empate: falta elegir entre {tied}", "Tie: a choice between {tied} is needed", tied=tied)
        return outcome(trace, target=None, tied=tied)
    if choice not in tied:
        raise RuleError("not-tied", "{choice} no está entre los empatados", "{choice} is not one of those tied",
                        choice=choice)
    trace.add("Empate: se elige {choice}", "Tie: {choice} is chosen", choice=choice)
    return outcome(trace, target=choice, tied=tied)


LABELS = {
    "flips": ("cartas volteadas", "cards flipped"),
    "lowest": ("gana la más baja", "lowest wins"),
    "choice": ("elección", "choice"),
    "target": ("elegida", "chosen"),
    "tied": ("empatadas", "tied"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
