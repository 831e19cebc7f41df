"""The sample pack ``kb init`` makes (one game), as a pack author from another group reads its output and its site:
an example id written twice, the Spanish side in Spanish, and a one-game site without a game's name repeated."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kb.cli.main import run


def kb(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("KB_CONTENT", raising=False)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    code, _, err = kb("init", str(tmp_path / "pack"), "--game", "skirmish", "--name-es", "Escaramuza",
                      "--name-en", "Skirmish")
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "pack")
    return tmp_path / "pack"


DUPLICATE = """\
  - id: tie-rolled-again
    title: {es: Copia, en: Copy}
    mechanic: dice.initiative
    given:
      rolls:
        - {ana: 1, bea: 4}
    expect: {order: [ana, bea], rerolls: 3}
"""
"""A second example with the sample's first example's id, one that would fail if it were run."""


def test_an_example_id_written_twice_checks_the_first_copy_and_reports_only_the_second(pack: Path) -> None:
    """The duplicate's result took the first copy's place (its trace, its "NO COMPROBADO" on the page, its failure in
    kb test under the shared id): now the first copy is run alone and the duplicate is only ``duplicate-item-id``."""
    rule = pack / "content/skirmish/rules/initiative-roll.yaml"
    first = rule.read_text(encoding="utf-8")
    rule.write_text(first + DUPLICATE, encoding="utf-8")
    line = first.count("\n") + 1
    code, out, _ = kb("check")
    assert code == 1 and (f"initiative-roll.yaml:{line}:9: error[duplicate-item-id]: duplicate example id "
                          "'tie-rolled-again' in this entry (first at line 14): the first is the one run and shown, "
                          "this copy is left out") in out, out
    code, out, _ = kb("test", "--json")
    mine = [r for r in json.loads(out) if r.get("entry") == "skirmish.initiative-roll"]
    assert [(r["example"], r["status"], r["line"]) for r in mine] == [("tie-rolled-again", "passed", 14)], mine
    code, out, _ = kb("show", "skirmish.initiative-roll", "--lang", "es")
    assert "Tiradas: Ana: 4 y Bea: 4." in out and "Comprobado" in out, out
    assert "NO COMPROBADO" not in out and "Copia" not in out and "Ana: 1 y Bea: 4" not in out, out
