"""The package ships ``py.typed``: ``mypy --strict kb`` (files and settings in pyproject.toml) must be clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict"],  # files and settings: [tool.mypy] in pyproject.toml
                          cwd=REPO, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout


CLIENT = '''\
from kb import KnowledgeBase

kb = KnowledgeBase.load()
result = kb.search("linea de vision", limit=3)
first = result.{hits}[0]
title: str = first.{id}
shape: dict[str, object] = result.to_dict()
print(title, first.score + 1.0, result.did_you_mean, shape)
'''


def _strict(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    client = tmp_path / "client.py"
    client.write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
                           str(client)], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MYPY_FORCE_COLOR": "0", "MYPYPATH": str(REPO)})  # editable installs hide kb


def test_mypy_strict_catches_a_misspelt_search_attribute_in_a_client(tmp_path: Path) -> None:
    good = _strict(tmp_path, CLIENT.format(hits="hits", id="id"))
    assert good.returncode == 0, good.stdout[-3000:]
    bad = _strict(tmp_path, CLIENT.format(hits="hitz", id="idd"))
    assert bad.returncode == 1
    assert '"Result" has no attribute "hitz"' in bad.stdout, bad.stdout[-3000:]
