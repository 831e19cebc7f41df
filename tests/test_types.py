"""The package ships ``py.typed``: ``mypy kb`` (configured in pyproject.toml) must be clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"],  # files and settings: [tool.mypy] in pyproject.toml
                          cwd=REPO, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
