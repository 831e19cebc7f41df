"""The house shows its design: imports flow one way, down the stages, with no circle, visible or hidden.

Every ``import`` in ``kb/`` counts — at the top of a module, inside a function, or under
``TYPE_CHECKING`` — so a circle cannot hide in a function body or a type hint.
"""

from __future__ import annotations

import ast
from pathlib import Path

KB = Path(__file__).resolve().parents[1] / "kb"

LAYERS = [
    ["kb.core.plain", "kb.core.model"],
    ["kb.core.diagnostics", "kb.core.errors", "kb.core.files", "kb.core.cache", "kb.core._yaml", "kb.core.schema",
     "kb.core.validate", "kb.core.terms", "kb.core.loader", "kb.core", "kb.mechanics"],
    ["kb.link"],
    ["kb.examples"],
    ["kb.i18n"],
    ["kb.view"],
    ["kb.search"],
    ["kb.site"],
    ["kb.api", "kb.places"],
    ["kb.mkdocs_defaults", "kb.mkdocs_plugin", "kb.pytest_plugin", "kb.cli", "kb.__main__", "kb"],
]
"""Lowest first. A module may import its own layer's modules and lower ones; never a higher layer."""


def _module(path: Path) -> str:
    parts = list(path.relative_to(KB.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> tuple[int, str]:
    best = (-1, "")
    for level, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > len(best[1]):
                best = (level, name)
    assert best[0] >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return best


def _imports(path: Path, module: str) -> set[str]:
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "kb"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] == "kb":
                found.add(base)
                found |= {f"{base}.{a.name}" for a in node.names if (KB.parent / f"{base}.{a.name}".replace(".", "/")).with_suffix(".py").exists()
                          or (KB.parent / f"{base}.{a.name}".replace(".", "/")).is_dir()}
    return found


def _graph() -> dict[str, set[str]]:
    return {_module(p): _imports(p, _module(p)) for p in sorted(KB.rglob("*.py"))}


def test_no_module_imports_up_the_flow() -> None:
    upward = []
    for module, imported in _graph().items():
        if module == "kb":
            continue  # the package's face re-exports the public names lazily
        here = _layer(module)[0]
        for target in sorted(imported):
            if target != "kb" and _layer(target)[0] > here:
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_no_import_circles_between_modules() -> None:
    graph = {m: {t for t in ts if t in _graph_keys()} for m, ts in _graph().items() if m != "kb"}
    circles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start and len(path) > 1:
                    circles.append(" -> ".join(path + [start]))
                elif nxt not in seen and nxt != node:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    assert sorted(set(circles)) == []


def _graph_keys() -> set[str]:
    return {_module(p) for p in KB.rglob("*.py")}
