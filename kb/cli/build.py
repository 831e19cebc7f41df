"""``kb build``: one MkDocs build per language, one after the other, with progress lines, replacing the site atomically.

The site is built into a temporary sibling of the target folder; only a successful build is
swapped in (two renames), so a failed build leaves the previous site as it was.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

from kb.core.diagnostics import printable
from kb.core.files import Building, NotOurs, os_problem

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from kb.core.diagnostics import Diagnostic
    from kb.mkdocs_plugin import KnowledgeBasePlugin

__all__ = ["config_beside", "build"]


def config_beside(content: Path) -> Path:
    """The ``mkdocs.yml`` of a content folder: the one in the folder that holds it (a pack's, or the project's)."""
    return Path(os.path.abspath(content)).parent / "mkdocs.yml"


def _said(config_file: Path) -> dict[str, object] | None:
    """``mkdocs.yml`` as YAML says it (None when it cannot be read or is no mapping: MkDocs reports the file itself)."""
    import yaml

    try:
        said = yaml.safe_load(config_file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return None
    return said if isinstance(said, dict) else None


def _docs_dir(config_file: Path) -> dict[str, str]:
    """A pack's ``mkdocs.yml`` may name no ``docs_dir`` and have no ``docs/``: the site's own assets serve."""
    said = _said(config_file)
    if said is not None and "docs_dir" not in said and not (config_file.parent / "docs").is_dir():
        from kb.mkdocs_defaults import ASSETS

        return {"docs_dir": str(ASSETS)}
    return {}


def _load(config_file: Path, strict: bool) -> MkDocsConfig:
    """``config_file`` loaded by MkDocs for ``kb build``, refused in one line naming the setting when the theme would
    print one of its addresses, paths or font names raw unsafely (:func:`kb.mkdocs_defaults.refused_setting`), or when
    MkDocs' own check cannot read an address (``urlsplit``'s ``ValueError``: ``repo_url: 'http://[x/'``, a fullwidth
    ``#`` in ``site_url``'s host; a traceback before, audit-hostile3 8)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    from kb.mkdocs_defaults import refused_setting

    try:
        config = load_config(str(config_file), strict=strict, **_docs_dir(config_file))
    except ValueError as exc:
        said = refused_setting(_said(config_file) or {}, str(config_file))
        raise ConfigurationError(said or f"{config_file}: {printable(str(exc))}") from None
    refused = refused_setting(config, str(config_file))  # the plugin's on_config refuses it too, in two lines
    if refused:
        raise ConfigurationError(refused)
    return config


class _Lines(logging.Handler):
    """Writes log records as ``prefix message`` lines, below ``below`` severity only; a record with the attribute
    ``bare`` (a located diagnostic, which says its own severity) without the prefix."""

    def __init__(self, stream: TextIO, prefix: str, below: int = logging.CRITICAL + 1, bare: str = "") -> None:
        super().__init__(logging.DEBUG)
        self.stream, self.prefix, self.below, self.bare = stream, prefix, below, bare
        self.warnings = 0
        """How many warnings (or worse) it wrote."""
        self.error = ""
        """The last error it wrote (MkDocs logs a plugin's ``PluginError`` so, then aborts with "a BuildError")."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < self.below:
            self.warnings += record.levelno >= logging.WARNING
            self.error = record.getMessage() if record.levelno >= logging.ERROR else self.error
            prefix = "" if getattr(record, self.bare, False) else self.prefix
            self.stream.write(f"{prefix}{record.getMessage()}\n")
            self.stream.flush()


class _ExactDirty(logging.Filter):
    """Drops MkDocs' warning that a dirty build may leave menus and links stale: ``kb build``'s dirty build renders
    every page whose inputs changed, the menu among them (:mod:`kb.site.rendered`; tested equal to the clean build),
    and a warning would fail ``--strict``."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def build(config_file: Path, site_dir: Path | None, strict: bool, content: Path | None,
          out: TextIO, err: TextIO, clean: bool = False) -> int:
    """Build the site; returns 0 on success, 1 when the build failed (the old site is kept), 2 when the site folder is
    not one a build may replace (:func:`kb.site.app.ours`: nothing is done). Pages whose inputs did
    not change since the last build of the same folder are taken from it (:mod:`kb.site.rendered`); ``clean``: every
    page rendered."""
    from mkdocs.exceptions import MkDocsException

    from kb.mkdocs_plugin import DIAGNOSTIC
    from kb.site.app import ours
    from kb.site.docs_folder import docs_problem

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    mk = logging.getLogger("mkdocs")
    progress = _Lines(out, "", below=logging.WARNING)
    problems = _Lines(err, "WARNING - ", bare=DIAGNOSTIC)
    problems.setLevel(logging.WARNING)
    kb_log = logging.getLogger("mkdocs.plugins.kb")
    old_level = mk.level
    mk.setLevel(logging.INFO)
    mk.addHandler(problems)
    kb_log.addHandler(progress)
    exact = _ExactDirty()
    dirty_log = logging.getLogger("mkdocs.commands.build")
    dirty_log.addFilter(exact)
    start = time.monotonic()
    building: Building | None = None
    found: KnowledgeBasePlugin | None = None
    target: Path | None = None
    try:
        config = _load(config_file, strict)
        target = Path(site_dir or config.site_dir).resolve()
        refused = docs_problem(Path(config.docs_dir))  # before any work: MkDocs would follow its links
        if refused is not None:
            err.write(f"kb build: {_failed(target)}: {refused.format()}\n")
            return 1
        found = _plugin(config)
        building = Building(target, ours(_content(found, config, content), config_file.parent))
        notes = _build_languages(config, lambda: _load(config_file, strict),
                                 building, content, clean)
        building.commit()
        if found is not None:
            found.keep_records()  # only a site in place is one the next build may copy pages from
        target, building = building.target, None
        out.write(f"kb build: site written to {target} in {time.monotonic() - start:.1f} s\n")
        for note in notes:  # the build's own warnings (the runtime missing), last, where a reader sees them
            err.write(f"kb build: {note.format()}\n")
        return 0
    except NotOurs as exc:  # before any work, or at the swap
        err.write(f"kb build: refused, nothing was written: {exc.advice('--site-dir')}\n")
        return 2
    except MkDocsException as exc:
        err.write(f"kb build: {_failed(target)}: {_failure(exc, strict, found, problems)}\n")
        return 1
    except OSError as exc:  # a full disk, a read-only folder: the temporary folder goes, the old site stays
        shown = building.problem(exc, "the site") if building is not None else os_problem(exc, "the site")
        err.write(f"kb build: {_failed(target)}: {shown}\n")
        return 1
    finally:
        if building is not None:
            building.discard()
        kb_log.removeHandler(progress)
        mk.removeHandler(problems)
        dirty_log.removeFilter(exact)
        mk.setLevel(old_level)


def _failed(target: Path | None) -> str:
    """How a failed build ends, said truly: the previous site is kept when the site folder holds one (a build's mark,
    or a site built before marks), else no site was written (a first build); the former when the folder is not known
    yet (``mkdocs.yml`` did not load: nothing was touched)."""
    from kb.site.app import MARK, WORKER

    none = target is not None and not any(os.path.isfile(target / name) for name in (MARK, WORKER))
    return "failed, no site was written" if none else "failed, the previous site is kept"


def _failure(exc: Exception, strict: bool, found: KnowledgeBasePlugin | None, problems: _Lines) -> str:
    """Why MkDocs failed: its message, or a plugin's error it logged (not MkDocs' "Aborted with a BuildError!"), or
    when ``--strict`` aborted on the ``problems`` it logged, ours (not MkDocs' "Aborted with 1 warnings"): the
    content's errors and warnings, and the build's other warnings, each listed above."""
    from mkdocs.exceptions import Abort

    warnings = problems.warnings
    if str(exc) == "Aborted with a BuildError!" and problems.error:
        return problems.error.removeprefix("kb: ")
    if not (strict and warnings and isinstance(exc, Abort)):
        return str(exc)
    content = found.warned if found is not None else []
    parts = [_in_content(content)] if content else []
    if warnings > len(content):
        parts.append(f"{_count(warnings - len(content), 'other warning' if content else 'warning')} from the build")
    return f"--strict fails on {', and '.join(parts)} (listed above)"


def _in_content(found: list[Diagnostic]) -> str:
    """``1 error and 2 warnings in the content`` (a count of none left out)."""
    errors = sum(d.severity == "error" for d in found)
    counts = [_count(errors, "error"), _count(len(found) - errors, "warning")]
    return " and ".join(c for c in counts if not c.startswith("0 ")) + " in the content"


def _content(found: KnowledgeBasePlugin | None, config: MkDocsConfig, given: Path | None) -> Path | None:
    """The content folder the build reads: ``given``, else the plugin's."""
    return given if given is not None or found is None else Path(found.content_root(config))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _plugin(config: MkDocsConfig) -> KnowledgeBasePlugin | None:
    """The ``kb`` plugin of ``config`` (the same instance for every language: it has ``on_startup``), if any."""
    from kb.mkdocs_plugin import KnowledgeBasePlugin

    return next((p for p in config.plugins.values() if isinstance(p, KnowledgeBasePlugin)), None)


def _build_languages(first: MkDocsConfig, load: Callable[[], MkDocsConfig], building: Building,
                     content: Path | None, clean: bool = False) -> list[Diagnostic]:
    """One MkDocs build per language of the ``kb`` plugin into ``building``'s folder, the first language first,
    then the service worker over all of them. Without the plugin, one build. The plugin's warnings about the build
    itself (:attr:`KnowledgeBasePlugin.notes`). With the plugin, MkDocs' dirty builds into the new folder, the plugin
    copying from the site it replaces the pages it can keep (:attr:`KnowledgeBasePlugin.incremental`; none when
    ``clean``)."""
    from mkdocs.commands.build import build as mkdocs_build

    from kb.site import app

    site_dir = str(building.folder)
    found = _plugin(first)
    langs: list[str | None] = list(found.site_languages()[0]) if found is not None else [None]
    first.plugins.on_startup(command="build", dirty=False)  # once: the knowledge base is loaded once
    if found is not None:
        found.swap_site = False  # every language goes into site_dir, which is swapped in whole by build()
        found.incremental, found.render_all = (building.target, building.folder), clean
    try:
        for n, lang in enumerate(langs):
            config = first if n == 0 else load()
            config.site_dir = site_dir
            kb = _plugin(config)
            if kb is not None:
                kb.config.language = lang
                if content is not None:
                    kb.config.content = str(Path(content).resolve())
            mkdocs_build(config, dirty=found is not None)
    finally:
        first.plugins.on_shutdown()
    if found is None:
        return []
    version = app.write_offline(site_dir, [lg for lg in langs if lg], found.games)
    logging.getLogger("mkdocs.plugins.kb").info(f"service worker and offline lists written (version {version})")
    return list(found.notes)
