"""Python in the page for the calculators no build enumerates (issue 30): the Pyodide runtime and the engine's bundle.

Pyodide (CPython 3.13 compiled to WebAssembly, npm ``pyodide``, pinned as :data:`PYODIDE`, the one place its
version is written) is not committed: it is installed beside the build (:data:`INSTALL`, the README's first command
and ``.ci/run`` run it). Which folder holds it is the caller's to say (:func:`runtime_dir`): this module reads no
environment and remembers no folder; the MkDocs adapter (``kb/mkdocs_plugin.py``) reads ``KB_PYODIDE_DIR`` or its
``pyodide`` option, else :func:`default_dir`. Without it the site is built as before (every such form held in part
at the example's values, ``kb.mechanics.space.MAX_COMBINATIONS``) and the build warns (``warning[calc-runtime]``).

What the build writes under each language's ``kb-py/`` (:func:`runtime_files`), all read by ``<script src>`` so
that a page opened from ``file://`` runs them (Chromium refuses ``fetch`` of ``file://``): Pyodide's own
``pyodide.asm.js`` and ``pyodide.js``; its ``pyodide.asm.wasm`` (gzipped: 8.6 -> 2.8 MB, undone in the page by
``DecompressionStream``), ``python_stdlib.zip`` and lock file as base64 in ``kb-py-*.js`` scripts (``kb-calc-worker.js`` hands them to Pyodide in place of its fetches); and ``kb-py-bundle.js``, a
zip of the engine's modules the calculators need (``kb.mechanics``, ``kb.core``'s model and locale,
``kb.view.worked``, ``kb.site.calc_words``, ``kb.site.calc_py``), every game's ``mechanics.py``, the catalogs and
Babel with the Spanish and English locale data only. Loaded only when a player first changes such a form.
"""

from __future__ import annotations

import base64
import functools
import gzip
import io
import json
import zipfile
from pathlib import Path

from kb.core.locale import LANGS

__all__ = ["PYODIDE", "PREFIX", "INSTALL", "FOLDER", "default_dir", "runtime_dir", "runtime_files", "bundle"]

PYODIDE = "0.29.3"
"""The Pyodide release the site runs (its ``package.json`` must say so)."""

PREFIX = ".cache/kb-pyodide"
"""Where :data:`INSTALL` puts it, under the user's home folder (npm's ``--prefix``)."""

INSTALL = f"npm install --prefix ~/{PREFIX} pyodide@{PYODIDE}"
"""The command that installs it (the README's first command holds it word for word: tests/test_agreement.py)."""

FOLDER = "kb-py"
"""Where the runtime is written, under each language's root."""

_KB = Path(__file__).resolve().parents[1]
ENGINE = ("__init__.py", "core/__init__.py", "core/errors.py", "core/diagnostics.py", "core/model.py", "core/plain.py",
          "core/locale.py", "view/__init__.py", "view/worked.py", "site/__init__.py", "site/calc_words.py",
          "site/calc_py.py")
"""The engine's files the page's Python imports (with every ``kb/mechanics/*.py``)."""

_NEEDED = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.js", "pyodide.js", "pyodide-lock.json")
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def default_dir(home: Path) -> Path:
    """Where :data:`INSTALL` puts the package, under ``home`` (the adapter gives the user's home folder)."""
    return home / PREFIX / "node_modules" / "pyodide"


def runtime_dir(folder: Path | None) -> Path | None:
    """``folder`` when it holds the pinned Pyodide (the package's folder, or an npm ``--prefix`` holding it), else
    ``None``: a folder missing, of another version or without one of the files the page needs."""
    if folder is None:
        return None
    if not (folder / "package.json").is_file() and (folder / "node_modules" / "pyodide").is_dir():
        folder = folder / "node_modules" / "pyodide"
    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError):
        return None
    if version != PYODIDE or not all((folder / name).is_file() for name in _NEEDED):
        return None
    return folder


def _put(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, _ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def bundle(content: Path) -> bytes:
    """The zip the page's Python imports from: the engine's modules, the games' mechanics, the catalogs, Babel."""
    import babel

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for rel in ENGINE + tuple(f"mechanics/{p.name}" for p in sorted((_KB / "mechanics").glob("*.py"))):
            _put(zf, f"kb/{rel}", (_KB / rel).read_bytes())
        for lang in LANGS:
            rel = f"locale/{lang}/LC_MESSAGES/kb.po"
            _put(zf, f"kb/{rel}", (_KB / rel).read_bytes())
        for path in sorted(content.glob("*/mechanics.py")):
            _put(zf, f"games/{path.parent.name}/mechanics.py", path.read_bytes())
        home = Path(babel.__file__).parent
        data = {"locale-data/root.dat"} | {f"locale-data/{lang}.dat" for lang in LANGS}
        for path in sorted(home.rglob("*")):
            rel = path.relative_to(home).as_posix()
            if path.suffix == ".py" or rel == "global.dat" or rel in data:
                _put(zf, f"babel/{rel}", path.read_bytes())
    return buf.getvalue()


def _b64_script(name: str, data: bytes) -> str:
    return f'(window.KB_PY=window.KB_PY||{{}})[{json.dumps(name)}]="{base64.b64encode(data).decode()}";\n'


@functools.lru_cache(maxsize=2)
def _wasm_script(folder: Path, stamp: tuple[int, int]) -> str:
    """The wasm, gzipped (8.6 -> 2.8 MB) and as base64: worked out once per build command (both languages); a
    memo of the file's content, keyed by its folder and its ``stamp`` (size, modification time), deciding nothing."""
    return _b64_script("pyodide.asm.wasm.gz", gzip.compress((folder / "pyodide.asm.wasm").read_bytes(), 9, mtime=0))


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def runtime_files(content: Path, folder: Path) -> dict[str, str]:
    """The runtime's files (path under the language's root -> text) from ``folder``, a :func:`runtime_dir`."""
    lock = (folder / "pyodide-lock.json").read_text(encoding="utf-8")
    return {f"{FOLDER}/pyodide.asm.js": (folder / "pyodide.asm.js").read_text(encoding="utf-8"),
            f"{FOLDER}/pyodide.js": (folder / "pyodide.js").read_text(encoding="utf-8"),
            f"{FOLDER}/kb-py-wasm.js": _wasm_script(folder, _stamp(folder / "pyodide.asm.wasm")),
            f"{FOLDER}/kb-py-stdlib.js": _b64_script("python_stdlib.zip", (folder / "python_stdlib.zip").read_bytes()),
            f"{FOLDER}/kb-py-lock.js": f"window.KB_PY_LOCK={json.dumps(lock)};\n",
            f"{FOLDER}/kb-py-bundle.js": _b64_script("kb-bundle.zip", bundle(content))}
