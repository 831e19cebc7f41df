"""Print every entry's players' words (also_called, questions, typed) beside its summary, one pack at a time.

For a reviewer reading them against the entry and its seed (docs/players-words.md):
``python tests/queries/words.py battletech-solaris | less``; the count of items goes to stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

FIELDS = ("also_called", "questions", "typed")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: words.py PACK (a folder of content/)", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parents[2] / "content" / argv[0]
    if not root.is_dir():
        print(f"{root}: error: no such pack", file=sys.stderr)
        return 2
    n = 0
    for path in sorted(root.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.name == "game.yaml" or not isinstance(data, dict):
            continue
        items = [(f, lang, x) for f in FIELDS for lang in ("es", "en") for x in (data.get(f) or {}).get(lang) or []]
        if not items:
            continue
        n += len(items)
        print(f"=== {data.get('id')} ({data.get('kind')}) {path.relative_to(root.parents[1])}")
        for lang in ("es", "en"):
            print(f"  summary[{lang}]: {(data.get('summary') or {}).get(lang, '')}")
        print(f"  source: {data.get('source')}")
        for f, lang, x in items:
            print(f"  {f}[{lang}]: {x}")
    print(f"{n} items", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
