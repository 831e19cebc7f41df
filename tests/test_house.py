"""The house's figures, re-run by anyone: ruff's pyflakes and bug-prone rules, and radon's complexity.

``ruff check --select F,B kb`` must find nothing; ``radon cc kb`` must show no block of rank E or F,
and no more blocks of rank C or worse than :data:`MAX_C_OR_WORSE` (a ratchet: lower it as blocks are split).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

KB = Path(__file__).resolve().parents[1] / "kb"

MAX_C_OR_WORSE = 36
"""Blocks of ``kb/`` with cyclomatic complexity 11 or more (radon rank C..F); issue 33 aims at 40."""


def test_ruff_finds_no_pyflakes_or_bugbear_problem() -> None:
    pytest.importorskip("ruff")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "F,B", "--no-cache", "--output-format",
                           "concise", str(KB)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _blocks() -> list[tuple[str, str, int]]:
    """Every function, method and class of ``kb/`` as ``radon cc kb`` lists them: (where, rank, complexity)."""
    from radon.complexity import cc_rank, cc_visit

    out = set()
    for path in sorted(KB.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):  # methods come both alone and inside their class
            for b in (block, *getattr(block, "methods", [])):
                out.add((f"{path.relative_to(KB.parent)}:{b.lineno} {b.fullname}", cc_rank(b.complexity), b.complexity))
    return sorted(out)


def test_no_block_is_of_complexity_e_or_f() -> None:
    pytest.importorskip("radon")
    assert [b for b in _blocks() if b[1] in "EF"] == []


def test_blocks_of_complexity_c_or_worse_do_not_grow() -> None:
    pytest.importorskip("radon")
    heavy = sorted((b for b in _blocks() if b[1] in "CDEF"), key=lambda b: -b[2])
    assert len(heavy) <= MAX_C_OR_WORSE, "\n".join(f"{n} {r} ({c})" for n, r, c in heavy)


def test_every_error_the_package_defines_is_a_kb_error() -> None:
    """One family: a caller catches :class:`kb.core.errors.KbError` and gets every error ``kb`` raises on purpose."""
    import importlib
    import inspect
    import pkgutil

    import kb
    from kb.core.errors import KbError

    found = {}
    for info in pkgutil.walk_packages(kb.__path__, "kb."):
        if info.name == "kb.__main__":  # runs the CLI when imported
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name:
                found[f"{info.name}.{name}"] = obj
    assert {"kb.search.query.SearchError", "kb.mechanics.RuleError", "kb.core.files.NoContent",
            "kb.core._yaml.RoundTripError", "kb.cli.scaffold.ScaffoldError"} <= set(found)
    # private control flow (a module's own _Stop, _Usage) and TimeLimit, a BaseException on purpose so that a
    # resolver's `except Exception` cannot swallow its deadline, stay outside the family
    outside = {n for n, c in found.items() if not issubclass(c, KbError)}
    assert sorted(n for n in outside if not n.rpartition(".")[2].startswith("_")) == ["kb.core.timelimit.TimeLimit"]


def test_every_name_a_module_exports_exists() -> None:
    """``from kb.x import *`` works for every module: each name of an ``__all__`` is defined."""
    import importlib
    import pkgutil

    import kb

    missing = []
    for info in pkgutil.walk_packages(kb.__path__, "kb."):
        if info.name == "kb.__main__":
            continue
        module = importlib.import_module(info.name)
        missing += [f"{info.name}.{n}" for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert missing == []


ADAPTERS = ("mkdocs_plugin.py", "cli/build.py")
"""The MkDocs adapter and ``kb build``, which drives MkDocs."""


def _private_reads(path: Path) -> list[str]:
    """``obj._name`` in ``path`` where ``obj`` is not ``self``/``cls`` (another object's private state)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and str(node.args[1].value).startswith("_")):
            found.append(f"{path.name}:{node.lineno} {node.func.id}(…, {node.args[1].value!r})")
    return found


def test_the_mkdocs_adapter_touches_no_private_state_and_runs_no_build_inside_a_build() -> None:
    """Issue 33: documented hooks only. No other object's private attribute (``config._x``, ``plugin._seeds``),
    and the plugin never starts a build itself (``kb build`` runs one per language, one after the other)."""
    private = [hit for name in ADAPTERS for hit in _private_reads(KB / name)]
    assert private == []
    plugin = (KB / "mkdocs_plugin.py").read_text(encoding="utf-8")
    assert "mkdocs.commands" not in plugin and "load_config" not in plugin


def test_whoosh_is_read_below_its_public_api_in_one_module_only() -> None:
    """Issue 33: the array reads of Whoosh's internals (``m._ids``, ``leaf._perdoc`` …) live in
    ``kb/search/whoosh_access.py``, each with a public fallback; no other module of ``kb/`` reads a private attribute
    of another object in the search package."""
    private = [hit for path in sorted((KB / "search").glob("*.py")) if path.name != "whoosh_access.py"
               for hit in _private_reads(path)]
    assert private == []
    assert _private_reads(KB / "search" / "whoosh_access.py")  # the check sees them where they are


ENVIRONMENT_READERS = ("api.py", "places.py", "mkdocs_plugin.py", "mkdocs_defaults.py", "pytest_plugin.py", "__main__.py", "cli/")
"""The adapters (issue 33 item 5): the only modules of ``kb/`` that read the process's environment (``os.environ``,
``os.getenv``, the home folder) and pass what they read into the engine as arguments."""


def _environment_reads(path: Path) -> list[str]:
    """Where ``path`` reads the environment: ``os.environ`` (or ``environ`` imported from ``os``), ``os.getenv``,
    ``Path.home()``, ``expanduser``, ``platformdirs`` (the user's folders, from ``XDG_*`` and ``HOME``). ``{**os.environ, ...}``, the environment handed on whole to a child process
    (``kb/i18n/history.py``'s git), decides nothing here and is not counted."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    handed_on = {id(v) for node in ast.walk(tree) if isinstance(node, ast.Dict)
                 for k, v in zip(node.keys, node.values) if k is None}
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in (("os", "environ"), ("os", "environb"), ("os", "getenv"), ("Path", "home"),
                                              ("path", "expanduser"), ("Path", "expanduser")):
                name = f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.Attribute) and node.attr == "expanduser":
            name = ".expanduser"
        elif isinstance(node, ast.ImportFrom) and node.module in ("os", "os.path"):
            name = next((a.name for a in node.names if a.name in ("environ", "environb", "getenv", "expanduser")), None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):  # platformdirs reads XDG_*, HOME: the user's folders
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            name = next((f"import {m}" for m in modules if m.split(".")[0] == "platformdirs"), None)
        if name is not None and id(node) not in handed_on:
            found.append(f"{path.relative_to(KB.parent)}:{node.lineno} {name}")
    return found


def test_the_environment_is_read_only_by_the_adapters() -> None:
    """Issue 33 item 5: configuration at the edges. The CLI, the API, the MkDocs and pytest adapters read the
    environment and pass it in (``$KB_CACHE``, ``$KB_CONTENT``, ``$KB_PYODIDE_DIR`` …); no module of the engine
    reads it itself (``kb/site/calc_runtime.py`` did, and remembered the answer for the whole process)."""
    core = [p for p in sorted(KB.rglob("*.py"))
            if not any(p.relative_to(KB).as_posix().startswith(a) for a in ENVIRONMENT_READERS)]
    assert len(core) > 50 and KB / "site" / "calc_runtime.py" in core
    assert [hit for path in core for hit in _environment_reads(path)] == []
    assert _environment_reads(KB / "mkdocs_plugin.py")  # the check sees a read where one is
    assert [hit.split()[-1] for hit in _environment_reads(KB / "places.py")] == ["platformdirs"]  # and an import


TEST_TOOLS = ("stats",)
"""Modules of the tests' own tooling (``tests/queries/stats.py``): their figures are not the engine's."""


def _patched_constants(text: str) -> list[str]:
    """Each ``monkeypatch.setattr(obj, "NAME", ...)`` of ``text`` whose attribute is a module constant (upper case)."""
    import re

    return [f"{obj}.{name}" for obj, name in re.findall(r"monkeypatch\.setattr\(\s*([\w.]+)\s*,\s*[\"']([A-Z][A-Z0-9_]*)[\"']", text)
            if obj not in TEST_TOOLS]


def test_no_test_switches_the_engine_by_patching_a_module_constant() -> None:
    """Issue 33 item 5: no module global decides behaviour. A figure the engine runs under (the files a tree may hold,
    the time an example may take) is a parameter with a default (``Limits.max_files``, ``KnowledgeBase.load``'s
    ``example_limits``, ``run_example``'s ``seconds``); a test passes it, it does not patch ``MAX_FILES`` or
    ``EXAMPLE_LIMITS`` for the whole process."""
    tests = Path(__file__).parent
    found = [f"{p.relative_to(tests)}: {hit}" for p in sorted(tests.rglob("*.py")) if p.name != "test_house.py"
             for hit in _patched_constants(p.read_text(encoding="utf-8"))]
    assert found == []
    assert _patched_constants('monkeypatch.setattr(kb.core.loader, "MAX_FILES", 2)') == ["kb.core.loader.MAX_FILES"]
    assert _patched_constants('monkeypatch.setattr(stats, "MIN_PER_GAME", 0)') == []
