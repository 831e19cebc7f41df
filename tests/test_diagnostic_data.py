"""A diagnostic is full data (issue 33): its code, severity, location and its template's arguments; the message is
rendered from them, so a tool reads the target of a problem from ``args`` and never parses the message."""

from __future__ import annotations

import json
import os

import pytest

from conftest import cli
from kb.core.diagnostics import render
from test_bad_input import CASES


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_message_is_rendered_from_the_diagnostics_own_arguments(name: str, tree) -> None:
    files, expected = CASES[name]
    root = tree(files)
    if name == "dangling link inside the content":
        os.symlink(root / "g" / "missing.yaml", root / "g" / "gone.yaml")
    code, out, err = cli("check", "--no-warnings", "--format", "json")
    data = json.loads(out)
    assert code == 1 and data, out + err
    for d in data:
        assert render(d["code"], d["args"]) == d["message"], d


def test_a_tool_reads_the_target_of_a_link_from_the_arguments(tree) -> None:
    files, _ = CASES[next(n for n, (_, lines) in CASES.items() if any("unresolved link to 'g.okk'" in ln for ln in lines))]
    tree(files)
    data = json.loads(cli("check", "--no-warnings", "--format", "json")[1])
    found = [d for d in data if d["code"] == "unresolved-link"]
    assert [d["args"]["target"] for d in found] == ["g.okk"] and "did you mean 'g.ok'" in found[0]["args"]["hint"]
