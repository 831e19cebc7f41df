"""The lines of some functions and constants of a module, as a patch that adds them, for ``mutmut run
--use-patch-file`` (mutmut 2.5.1 mutates only the lines a patch adds): a mutation run over what a test is meant to
pin, not over a whole module (docs/reliability.md, "Mutation run over the sinks").

    python tests/mutation_patch.py kb/site/sanitise.py sanitise link url_problem > sinks.patch
    python tests/mutation_patch.py kb/site/notfound.py > notfound.patch        # no names: the whole module

Each name is a top-level ``def`` or assignment of the module; its lines run from its first to its last (its
decorators and docstring included: mutmut leaves docstrings alone).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def spans(source: str, names: list[str]) -> list[tuple[int, int]]:
    """The (first, last) line of each of ``names`` (every line when there are none), in the module's order."""
    lines = source.count("\n") + 1
    if not names:
        return [(1, lines)]
    found = {}
    for node in ast.parse(source).body:
        targets = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [
            t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
        for name in targets:
            found[name] = (node.lineno, node.end_lineno or node.lineno)
    missing = [n for n in names if n not in found]
    if missing:
        raise SystemExit(f"not defined at the top of the module: {', '.join(missing)}")
    return sorted(found[n] for n in names)


def patch(path: str, names: list[str]) -> str:
    """A unified diff that adds ``names``' lines of ``path`` (relative to the tree mutmut runs in)."""
    text = Path(path).read_text(encoding="utf-8")
    lines = text.splitlines()
    out = [f"--- a/{path}", f"+++ b/{path}"]
    for first, last in spans(text, names):
        last = min(last, len(lines))
        out.append(f"@@ -{first - 1},0 +{first},{last - first + 1} @@")
        out += ["+" + line for line in lines[first - 1:last]]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.stdout.write(patch(sys.argv[1], sys.argv[2:]))
