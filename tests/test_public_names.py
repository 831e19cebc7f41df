"""Every name the package says it exports can be imported from ``kb``."""

from __future__ import annotations

import kb


def test_every_public_name_imports() -> None:
    for name in kb.__all__:
        assert getattr(kb, name) is not None, name
