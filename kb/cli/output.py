"""What the ``kb`` commands print as JSON, kept true on any console."""

from __future__ import annotations

import json
from typing import Any, TextIO


def write_json(out: TextIO, data: Any, indent: int | None = 2, **options: Any) -> None:
    """``data`` as JSON on ``out``, then a line break: its characters as they are, or written as ``\\u00ed`` escapes
    when ``out``'s encoding cannot hold them (a console set to ASCII or cp1252). Plain text falls back to ``?`` there;
    JSON must keep its data."""
    text = json.dumps(data, ensure_ascii=False, indent=indent, **options)
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(data, ensure_ascii=True, indent=indent, **options)
    out.write(text + "\n")
