"""Mutation test of the worked-example checker's comparisons (issue 27): each mutant of kb/examples/runner.py
must fail tests/test_runner_teeth.py.

mutmut 2.5.1 runs here (``mutmut run --paths-to-mutate kb/examples/runner.py --runner "python -m pytest -x -q
tests/test_runner_teeth.py"``) but starts a new pytest per mutant: 26 mutants took 14 minutes on the shared
2-core machine, too slow for the ~300 it makes. This harness applies the same kinds of mutation (mutmut's
operators: comparison and boolean operators swapped, ``not`` dropped, numbers, strings, ``True``/``False``/``None``
changed, a call statement removed) to the functions that compare, and runs the tests in one process, the
mutant module standing in for ``kb.examples.runner``.

    .venv/bin/python tools/mutate_runner.py            # every mutant; exit 1 when one survives
    .venv/bin/python tools/mutate_runner.py _same _refusal_details   # only these functions
"""

from __future__ import annotations

import ast
import copy
import io
import sys
import types
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "kb" / "examples" / "runner.py"
TESTS = REPO / "tests" / "test_runner_teeth.py"
COMPARING = ("_same", "_refusal_details", "run_example", "check_examples")
"""The functions whose comparisons and checks the teeth tests guard."""

CONTENT_TEST = "test_the_documented_count_of_each_kind_is_the_bundled_contents"
"""The teeth test that loads the bundled content (docs/format.md's counts): it guards the data, not the
comparisons, and costs seconds a mutant; left out of the mutation run."""

EQUIVALENT = {
    ("_same", "True -> False", "strict=True"):
        "zip(..., strict=False) in _same: the lengths are compared first (len(expected) == len(actual) and ...), "
        "so zip never meets lists of unequal length",
}
"""Mutants that cannot change what the runner does, each with the reason: (function, mutation, a piece of the
mutated line) -> why. Reported, not counted as survivors."""

_SWAP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
         ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}


def _variants(node: ast.AST) -> list[tuple[str, ast.AST]]:
    """(description, replacement) for one node."""
    out: list[tuple[str, ast.AST]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _SWAP:
                new = copy.deepcopy(node)
                new.ops[i] = _SWAP[type(op)]()
                out.append((f"{type(op).__name__} -> {_SWAP[type(op)].__name__}", new))
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(("and <-> or", new))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("not dropped", copy.deepcopy(node.operand)))
    elif isinstance(node, ast.Constant) and not isinstance(node.value, str):
        if isinstance(node.value, bool):
            out.append((f"{node.value} -> {not node.value}", ast.Constant(not node.value)))
        elif isinstance(node.value, (int, float)):
            out.append((f"{node.value} -> {node.value + 1}", ast.Constant(node.value + 1)))
        elif node.value is None:
            out.append(("None -> ''", ast.Constant("")))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        out.append((f"{node.value!r} -> 'XX'", ast.Constant("XX" + node.value + "XX")))
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        out.append(("call removed", ast.Pass()))
    return out


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return self.replacement
        return super().visit(node)


def mutants(tree: ast.Module, functions: tuple[str, ...] = COMPARING) -> list[tuple[str, int, str, ast.Module]]:
    """(function, line, description, mutated tree) for every mutation inside ``functions``."""
    out = []
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name in functions):
            continue
        words = {id(n) for j in ast.walk(fn) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
        words |= {id(n) for j in ast.walk(fn) if isinstance(j, ast.Expr) and isinstance(j.value, ast.Constant)
                  for n in ast.walk(j)}  # a docstring, and the string inside it
        words |= {id(n) for j in ast.walk(fn) if isinstance(j, ast.arg) and j.annotation for n in ast.walk(j.annotation)}
        for node in ast.walk(fn):
            if id(node) in words:
                continue  # the words of a message (an f-string), a docstring, an annotation: not a comparison
            for what, new in _variants(node):
                mutated = copy.deepcopy(tree)
                # find the same node in the copy by position
                twin = next(n for n in ast.walk(mutated) if type(n) is type(node)
                            and getattr(n, "lineno", None) == getattr(node, "lineno", None)
                            and getattr(n, "col_offset", None) == getattr(node, "col_offset", None))
                mutated = _Replace(twin, new).visit(mutated)
                ast.fix_missing_locations(mutated)
                out.append((fn.name, getattr(node, "lineno", 0), what, mutated))
    return out


def killed(tree: ast.Module) -> bool:
    """True when the teeth tests fail with this runner."""
    module = types.ModuleType("kb.examples.runner")
    module.__file__ = str(SOURCE)
    sys.modules["kb.examples.runner"] = module  # before exec: dataclasses look their module up
    exec(compile(tree, str(SOURCE), "exec"), module.__dict__)
    sys.modules.pop("test_runner_teeth", None)
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:kb", "-k", f"not {CONTENT_TEST}", str(TESTS)])
    return code != 0


def main() -> int:
    sys.path.insert(0, str(REPO / "tests"))
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    if killed(tree):
        print("the tests fail on the unmutated runner")
        return 2
    functions = tuple(sys.argv[1:]) or COMPARING
    unknown = set(functions) - set(COMPARING)
    if unknown:
        print(f"not a comparing function: {', '.join(sorted(unknown))} (one of {', '.join(COMPARING)})")
        return 2
    found = mutants(tree, functions)
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    survivors, equivalent = [], []
    for f, line, what, t in found:
        if killed(t):
            continue
        why = next((w for (fn, mut, piece), w in EQUIVALENT.items() if (fn, mut) == (f, what) and piece in lines[line - 1]), None)
        (equivalent if why else survivors).append((f, line, what, why))
    for f, line, what, why in equivalent:
        print(f"equivalent: runner.py:{line} in {f}: {what} ({why})")
    for f, line, what, _ in survivors:
        print(f"survived: runner.py:{line} in {f}: {what}")
    print(f"{len(found)} mutants of {', '.join(functions)}: {len(found) - len(survivors) - len(equivalent)} killed, "
          f"{len(equivalent)} equivalent, {len(survivors)} survived")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
