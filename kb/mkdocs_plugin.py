"""MkDocs adapter: the knowledge base as a bilingual site (``plugins: [kb]`` in ``mkdocs.yml``).

One MkDocs build makes one language's site, the plugin's ``language`` (default: the first of ``languages``).
The first language's pages go under ``<site_dir>/<lang>/`` with a root ``index.html`` redirecting to the
reader's language; another language's build puts its whole site in ``<site_dir>/<lang>/``. ``kb build``
runs one build per language, one after the other from the same ``mkdocs.yml``, then writes the service
worker over all of them; ``mkdocs build`` and ``mkdocs serve`` make the one language. Pages keep the same
relative path in every language; each page's language switcher (``extra.alternate``) points at the same
page in the others.

Only MkDocs' documented events and objects are used: no build inside a build, no patched method, no
other object's private state (docs/architecture.md, "The MkDocs adapter").

What pages exist and what they say is decided by :mod:`kb.site`; this module only loads the
knowledge base (once per process and content folder, again on each rebuild of ``mkdocs serve``), hands
the pages to MkDocs, reports problems and watches ``content/``. Knowledge-base errors and failed worked
examples are logged as warnings, so ``mkdocs build --strict`` fails on them; knowledge-base warnings are
counted in one line (``fail_on_warnings: true`` turns them into MkDocs warnings too).
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from kb.api import KnowledgeBase
from kb.core.cache import cache_dir
from kb.core.diagnostics import Diagnostic, diag, printable
from kb.i18n.catalogs import catalog_problems
from kb.core.files import Building, NotOurs, os_problem
from kb.core.locale import pgettext
from kb.i18n.history import History
from kb.mkdocs_defaults import SCRIPTS, THEME_FAVICON, apply_defaults, as_text, asset_files, asset_names, refused_setting, set_site_url
from kb.core.model import Location
from kb.site import app, calc_runtime, sitemap
from kb.examples.runner import ExampleResult
from kb.site.docs_folder import docs_problem
from kb.site.findable import front_matter_title
from kb.site.notfound import Menu, not_found_menu, not_found_page
from kb.site.reader_language import pick_language
from kb.site.preview import data_tag, table_data
from kb.site.rendered import Record, fingerprint, renamed_version, shell
from kb.site.calc import SCRIPT as CALC_SCRIPT, CalcSite, Working, calc_site, needs_runtime, with_forms
from kb.site.outputs import AREA, cached, content_key, kept, previous, runtime_key
from kb.site.sanitise import sanitise
from kb.site.search_box import SearchData, data_name, meta_tag, search_data
from kb.site.pages import Basis, basis, build_site
from kb.site.structure import LANGUAGES, NavNode, Site, SitePage, nav_config, results_by_entry

__all__ = ["KnowledgeBasePlugin", "KnowledgeBaseConfig", "pyodide_folder", "DIAGNOSTIC"]

log = get_plugin_logger(__name__)
DIAGNOSTIC = "kb_diagnostic"
"""The log record attribute (``extra``) of a line that is a located diagnostic, with its own severity
(``error[example-failed]``): ``kb build`` prints it without MkDocs' ``WARNING -`` level."""
_AS_DIAGNOSTIC = {DIAGNOSTIC: True}

THEME = Path(__file__).resolve().parent / "site" / "theme"
"""The plugin's templates, found after the theme's own (a pack's ``custom_dir`` and Material come first)."""
PAGE_TEMPLATE = "kb-page.html"


class KnowledgeBaseConfig(Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__ is untyped
    """Options of the ``kb`` plugin."""

    content = c.Optional(c.Type(str))
    """The content folder (default: ``$KB_CONTENT``, else ``content/`` beside ``mkdocs.yml``)."""
    languages = c.Type(list, default=list(LANGUAGES))
    """The site's languages; the first is at ``/<lang>/`` with the root page redirecting to it."""
    language = c.Optional(c.Type(str))
    """The language this build makes (default: the first of ``languages``); ``kb build`` sets each in turn."""
    fail_on_warnings = c.Type(bool, default=False)
    """Report knowledge-base warnings (not only errors) as MkDocs warnings."""
    pyodide = c.Optional(c.Type(str))
    """The pinned Pyodide's folder, for the large calculators (default: ``$KB_PYODIDE_DIR``, else
    ``~/.cache/kb-pyodide/node_modules/pyodide``); ``off``: build without it."""
    still_working = c.Type((int, float), default=10)
    """Seconds between the progress lines of a step still working (the calculators' answers: a slow resolver)."""


def pyodide_folder(given: str | None = None) -> tuple[str, Path | None]:
    """Where the build looks for the pinned Pyodide and what it found there (``None``: not installed, or ``off``).
    ``given`` (the plugin's ``pyodide`` option) first, then ``$KB_PYODIDE_DIR``, then the user's home folder: the
    environment is read here, in the adapter, and the folder passed to :func:`kb.site.calc.calc_site`."""
    where = given or os.environ.get("KB_PYODIDE_DIR") or str(calc_runtime.default_dir(Path.home()))
    return where, (None if where == "off" else calc_runtime.runtime_dir(Path(where).expanduser()))


@dataclass(frozen=True)
class _Loaded:
    """The knowledge base and its worked examples' results, loaded once for every language's build."""

    root: str
    kb: KnowledgeBase
    results: dict[str, dict[str, ExampleResult]]
    head: str = ""
    """The git commit the content is at (``""`` without git): the translations' status reads its history."""
    parts: tuple[str, ...] = ()
    """The games and the shared concepts that have entries: the parts of the pages' helpers' data (once, not per page)."""
    said: str = ""
    """What the worked examples gave (each one's status and error), a part of the kept pages' key (:mod:`kb.site.outputs`)."""
    reported: set[str] = field(default_factory=set, compare=False)
    """The calculators' problems already logged for this load (each language's build finds the same ones)."""


@dataclass
class _Build:
    """The state of the build under way (builds run one at a time: ``on_config`` starts one)."""

    lang: str
    primary: bool
    loaded: _Loaded
    site: Site
    started: float
    root_url: str
    every_name: str = ""
    """The site's name in every language («Reglas · Rules»), escaped: the "page not found" page's header."""
    own_name: str = ""
    """The build's own site name while the 404 page is rendered with :attr:`every_name`."""
    shared_scope: bool = False
    """The theme's storage (the reader's light/dark choice) is set per page to the site's root (:func:`_site_scope`)."""
    at_root: frozenset[str] = frozenset()
    """The static files (paths from the build's root) this build does not write: the first language's copies at the
    site's root are the same files, and its pages load those (:func:`_root_url`, :func:`_loading_ours`)."""
    icons_at_root: frozenset[str] = frozenset()
    """The app's icons, when this build writes none: the first language's at the site's root (:meth:`KnowledgeBasePlugin._add_icons`)."""
    search: SearchData | None = None
    calc: CalcSite | None = None
    kept: dict[str, tuple[Path, Any]] | None = None
    """Pages copied from the last ``kb build`` (:mod:`kb.site.rendered`), by source path: their file in this build and
    their title (what MkDocs reads from the front matter of a page it renders)."""
    rendered: set[str] = field(default_factory=set)
    """The pages MkDocs rendered (``on_post_page``), by source path."""
    record: Record | None = None
    """What the last build of the site folder rendered, and (:attr:`record_next`) what this one does."""
    record_next: Record | None = None

    @property
    def prefix(self) -> str:
        """Where this build puts its pages inside its site_dir: ``es/`` for the first language."""
        return _prefix(self.lang, self.primary)


def _prefix(lang: str, primary: bool) -> str:
    """Where a language's build puts its pages inside its site_dir: ``es/`` for the first language (whose site_dir is the
    site's), nothing for the others (each built into its own ``<lang>/``)."""
    return f"{lang}/" if primary else ""


@dataclass
class _Beside:
    """``mkdocs build``'s site, built beside its folder and put in its place whole when the command ends well."""

    building: Building
    config: MkDocsConfig
    live: bool
    built: bool = False

    def end(self, keep: bool) -> None:
        """Swap the new site in (``keep``) or drop it; an ``OSError`` (a full disk) is one located line."""
        self.config.site_dir = str(self.building.target)
        try:
            if keep:
                self.building.commit()
            else:
                self.building.discard()
        except NotOurs as exc:  # at the swap: a site made before marks, with names the new one does not write
            self.building.discard()
            raise _failed(exc.advice("site_dir"), self.live) from exc
        except OSError as exc:
            raise self.failed(exc) from exc

    def failed(self, exc: OSError) -> Exception:
        return _failed(self.building.problem(exc, "the site"), self.live)


def _check_docs(config: MkDocsConfig, live: bool) -> None:
    """Before any work: the docs folder's entries (:func:`kb.site.docs_folder.docs_problem`); MkDocs follows its links."""
    refused = docs_problem(Path(config.docs_dir))
    if refused is not None:
        raise _failed(refused.format(), live)


def _failed(problem: str, live: bool) -> Exception:
    """A failed build in one line. While serving (``live``), MkDocs' dev server prints a traceback for anything but
    a ``SystemExit``: there, MkDocs' ``Abort`` (one line, and the server goes on showing the previous build)."""
    message = f"kb: the build failed, the previous site is kept: {problem}"
    return Abort(message) if live else PluginError(message)


def _strict_stops(config: MkDocsConfig, warned: list[Diagnostic]) -> None:
    """``--strict`` with content problems logged as warnings (errors, failed examples): stop before rendering a page,
    in MkDocs' words (``kb build`` counts them in its own), as MkDocs would stop after rendering every page."""
    if config.strict and warned:
        raise Abort(f"Aborted with {len(warned)} warnings in strict mode!")


class KnowledgeBasePlugin(BasePlugin[KnowledgeBaseConfig]):  # type: ignore[no-untyped-call]  # as above
    """Generates every page of one language's site from the knowledge base.

    Having ``on_startup``, the instance lives for the whole process (MkDocs' documented behaviour for
    ``mkdocs serve``; ``kb build`` starts it once for all its languages): the loaded knowledge base is
    kept between builds of one command, and while serving, what the last build gave MkDocs.
    """

    def __init__(self) -> None:
        self._build: _Build | None = None
        self._loaded: _Loaded | None = None
        self._ran: tuple[KnowledgeBase, list[ExampleResult]] | None = None
        """The last load's knowledge base and its examples' results (a rebuild runs only the examples an edit changed)."""
        self._serving = False
        self._sources: _Sources | None = None
        self._made: dict[str, tuple[Site, Basis, Path]] = {}
        """While serving dirty: each language's last site, what it was made from and the content folder."""
        self.swap_site = False
        """Build beside ``site_dir`` and swap the whole folder in when the build ends well, so a failed build (a full
        disk, ``--strict``) keeps the previous site: ``mkdocs build``, ``gh-deploy`` and ``mkdocs serve``, ``--dirty``
        or not (a dirty build starts from a copy of the previous site). ``kb build``, which builds every language
        into a folder of its own and swaps that in, turns it off."""
        self._dirty = False
        self._live = False
        """Each build is swapped in as soon as it is written (``mkdocs serve``: the server shows ``site_dir``), not
        when the command ends (``mkdocs build``, after MkDocs' ``--strict`` verdict and what ``gh-deploy`` does)."""
        self._beside: _Beside | None = None
        self._pyodide: tuple[str, Path | None] | None = None
        self._runtime_files: dict[str, str] | None = None
        self._runtime_shared = False
        """The first language's build of this command wrote the runtime at the site's root."""
        self._root_files: dict[str, str] | None = None
        """The theme's and the engine's static files the first language's build of this command wrote at the site's
        root (path -> source file): a later language's build leaves out its copies of the same files (audit-phone3 D9:
        switching language downloaded the theme's style and scripts, and ours, again)."""
        self.warned: list[Diagnostic] = []
        """The content's problems the last load logged as MkDocs warnings (its errors, failed examples, and with
        ``fail_on_warnings`` its warnings): ``kb build --strict`` counts them when MkDocs aborts."""
        self.notes: list[Diagnostic] = []
        """The command's warnings about the build itself (not the content): ``warning[calc-runtime]``. ``kb build``
        prints them again when it ends."""
        self.incremental: tuple[Path, Path] | None = None
        """``kb build`` into a folder (``(site, building)``: the site there now, the folder being built in its place,
        which ``mkdocs_build`` gets ``dirty``): pages whose inputs did not change since the last build of ``site`` are
        copied from it, not rendered (:mod:`kb.site.rendered`)."""
        self.games: tuple[str, ...] = ()
        """The games of the knowledge base the last build loaded (``kb build`` lists only them for offline use)."""
        self.render_all = False
        """With :attr:`incremental`: copy no page (``kb build --clean``), yet record what was rendered."""
        self._page_sources: str | None = None
        self._records: list[tuple[Path, Record, KnowledgeBase]] = []
        """What each language's build renders, and where it is kept: written by :meth:`keep_records` once the site is
        in place."""

    # ------------------------------------------------------------------ events
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """A new command: forget what an earlier one loaded. ``mkdocs serve --dirty`` gets page sources on disk."""
        self._loaded, self._ran, self._made, self._records = None, None, {}, []
        self._pyodide, self._runtime_files, self._runtime_shared, self.notes = None, None, False, []
        self._root_files = None
        self._serving = self._live = command == "serve"  # `mkdocs serve --clean` says "build": see on_serve
        self._dirty = dirty
        self.swap_site = command in ("build", "gh-deploy", "serve")
        if self._serving and dirty:
            try:
                self._sources = _Sources(tempfile.mkdtemp(prefix="kb-serve-"))
            except OSError as exc:  # a full disk
                raise PluginError(f"kb: cannot serve: {os_problem(exc, 'the temporary folder')}") from exc

    def on_shutdown(self) -> None:
        beside, self._beside = self._beside, None
        if beside is not None:  # the build and what the command did with it (gh-deploy) ended well
            beside.end(keep=beside.built)
        if self._sources is not None:
            self._sources.refresh.wait()
            shutil.rmtree(self._sources.folder, ignore_errors=True)
        self._sources, self._loaded, self._ran, self._build, self._made = None, None, None, None, {}
        if self._page_sources is not None:
            shutil.rmtree(self._page_sources, ignore_errors=True)
            self._page_sources = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if self._sources is not None:
            self._sources.refresh.wait()  # a rebuild starts once the last edit's search data is made
        langs, lang = self.site_languages()
        refused = refused_setting(config, config.config_file_path or "mkdocs.yml")
        if refused:  # before the theme sees it: it prints these raw into every page
            raise PluginError(f"kb: {refused}")
        _check_docs(config, self._live)
        started = time.monotonic()
        loaded = self._load(config)
        _strict_stops(config, self.warned)
        primary = lang == langs[0]
        root_url = set_site_url(config)
        if not primary:  # the other languages' sites sit inside the first's
            config.site_dir = os.path.join(config.site_dir, lang)
            config.site_url = f"{root_url}{lang}/"
        apply_defaults(config, lang, favicon=app.icon_name(app.FAVICON))  # at the site's root (:meth:`_add_icons`)
        every_name = Markup.escape(config.site_name)  # the 404 page's, which is in every language
        names = config.site_name.split(" · ")  # "Reglas · Rules": each language's build shows its own name
        if len(names) == len(langs):
            config.site_name = names[langs.index(lang)]
        config.theme["language"] = lang
        config.site_description = pgettext(lang, "site", "intro")  # the fallback meta description, in this language
        as_text(config)  # the theme prints the site's name raw: escaped here, shown as typed
        toc = config.mdx_configs.setdefault("toc", {})
        if toc.get("permalink"):
            toc["permalink_title"] = pgettext(lang, "label", "permalink")  # the ¶ link's tooltip
        site = self._site(loaded, lang, config.repo_url)
        build = self._build = _Build(lang, primary, loaded, site, started, root_url, every_name=every_name)
        build.shared_scope = _shares_scope(config, primary)
        config.nav = nav_config(site.nav, build.prefix)
        self._build_beside(config)
        return config

    def site_languages(self) -> tuple[list[str], str]:
        """The site's languages and the one this build makes, as the plugin's settings say, refused in one line naming
        the setting when they are not languages of the knowledge base (a list in the list: audit-hostile3 8), each once."""
        langs = self.config.languages
        known = all(isinstance(lg, str) and lg in LANGUAGES for lg in langs)
        if not langs or not known or len(set(langs)) < len(langs):
            raise PluginError(f"kb: the plugin's 'languages' must list some of {', '.join(LANGUAGES)}, each once, "
                              f"not {printable(repr(langs))}")
        lang = self.config.language or langs[0]
        if lang not in langs:
            raise PluginError(f"kb: 'language' must be one of 'languages' ({', '.join(langs)}), not {printable(repr(lang))}")
        return langs, lang

    def _site(self, loaded: _Loaded, lang: str, repo_url: str | None = None) -> Site:
        """The language's pages: as an earlier command made them from the same content, else made (and kept), taking
        from the last state made (while serving dirty, the last build's; else the one kept by an earlier command)
        the pages an edit cannot have changed (:func:`kb.site.pages.unchanged_pages`). ``repo_url``: ``mkdocs.yml``'s, part
        of the kept pages' key (the translators' page links its guide there)."""
        made = 0

        def make(before: tuple[Site, Basis] | None) -> tuple[Site, Basis]:
            nonlocal made
            site = build_site(loaded.kb, loaded.results, lang, before, loaded.head, repo_url)
            old = {id(p) for p in before[0].pages} if before is not None else set()
            made = sum(id(p) not in old for p in site.pages)
            return site, basis(loaded.kb, loaded.results, loaded.head)

        def shape(v: Any) -> bool:
            return isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], Site) and isinstance(v[1], Basis)

        types = (Site, SitePage, NavNode, Basis)
        before = self._made.get(lang) if self._sources is not None else None
        if before is not None and before[2] == loaded.kb.root:
            site, _ = make(before[:2])
        else:
            name = f"pages-{lang}"
            (site, _), found = kept(loaded.kb, name, content_key(loaded.kb, lang, loaded.head, loaded.said, repo_url or ""),
                                   lambda: make(previous(loaded.kb, name, shape, types)), shape, types)
        if self._sources is not None:
            self._made[lang] = (site, basis(loaded.kb, loaded.results, loaded.head), loaded.kb.root)
        log.info(f"{lang}: building {len(site.pages)} pages ({made} made from the content)")
        return site

    def _build_beside(self, config: MkDocsConfig) -> None:
        if not self.swap_site or self._beside is not None:
            return
        try:
            ours = app.ours(Path(self.content_root(config)), Path(os.path.dirname(config.config_file_path or "mkdocs.yml")))
            building = Building(Path(config.site_dir).resolve(), ours)
        except NotOurs as exc:
            raise _failed(exc.advice("site_dir"), self._live) from exc
        except OSError as exc:  # a read-only folder
            raise _failed(os_problem(exc, "the site"), self._live) from exc
        if self._dirty:  # MkDocs' dirty build writes only what changed: over a copy of the previous site
            try:
                building.copy_target()
            except OSError as exc:  # a full disk
                building.discard()
                raise _failed(building.problem(exc, "the site"), self._live) from exc
        self._beside = _Beside(building, config, self._live)
        config.site_dir = str(building.folder)

    def on_build_error(self, *, error: Exception) -> None:
        """A failed build (a full disk, ``--strict``) leaves the previous site as it was; a fault of the machine is
        one located line (MkDocs' own command prints a traceback for it)."""
        beside, self._beside = self._beside, None
        if beside is None:
            return
        beside.end(keep=False)
        if isinstance(error, OSError):
            raise beside.failed(error) from error

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        build = self._current()
        started = time.monotonic()
        build.search, found, stale = self._search(build)
        search_seconds = time.monotonic() - started
        if self._sources is not None:
            changed = self._sources.update(build, config, files, stale=stale)
            log.info(f"{build.lang}: {changed} page(s) changed")
        elif self.incremental is None:
            for page in build.site.pages:
                files.append(File.generated(config, build.prefix + page.path, content=page.markdown))
        self._add_data(build, config, files, found, search_seconds)
        if self._sources is None and self.incremental is not None:
            self._keep_pages(build, config, files, *self.incremental)
        asset_files(files, config)
        for unused in [f for f in files if _unused(f, config)]:
            files.remove(unused)
        self._share_static(build, config, files)
        if build.primary:
            files.append(File.generated(config, "index.html",
                                        content=_redirect(self.config.languages, config.use_directory_urls)))
            files.append(File.generated(config, "robots.txt", content=sitemap.robots(build.root_url, self.config.languages)))
        return files

    def _share_static(self, build: _Build, config: MkDocsConfig, files: Files) -> None:
        """The first language's build notes its static files (the theme's, the engine's styles and scripts: at the
        site's root); a later language's build of the same command leaves out each of its own that is the same file
        (the same path from the same source). A language built alone that is not the first keeps its copies."""
        shareable = {f.dest_uri: f for f in files if _shareable(f, config)}
        if build.primary:
            self._root_files = {path: f.abs_src_path or "" for path, f in shareable.items()}
            return
        if self._root_files is None:
            return
        same = frozenset(path for path, f in shareable.items() if self._root_files.get(path) == f.abs_src_path)
        for path in same:
            files.remove(shareable[path])
        build.at_root = same | build.icons_at_root  # and the app's icons, which this build did not write

    def _add_data(self, build: _Build, config: MkDocsConfig, files: Files, found: bool, seconds: float) -> None:
        """The language's search data (made again when the content changed, also while serving), previews, manifest
        and icons."""
        search = build.search
        assert search is not None  # on_files made it
        for path, script in search.scripts.items():
            files.append(File.generated(config, build.prefix + path, content=script))
        head = len(search.scripts[data_name(build.lang)].encode())
        log.info(f"{build.lang}: search data {sum(len(s.encode()) for s in search.scripts.values()) / 1e6:.2f} MB "
                 f"(head {head / 1e6:.2f} MB, {len(search.scripts) - 1} parts{', kept' if found else ''}) "
                 f"in {seconds:.1f} s")
        for path, text in table_data(build.loaded.kb, build.lang).items():
            files.append(File.generated(config, build.prefix + path, content=text))
        self._add_calculators(build, config, files)
        self._add_icons(build, config, files)

    def _add_icons(self, build: _Build, config: MkDocsConfig, files: Files) -> None:
        """The manifest and the app's icons: the icons at the root of the build's site_dir, the site's for the first
        language; a later language's build of the same command writes none and its manifest and pages name the first's
        (switching language fetched the same icons again from ``en/``); a language built alone keeps its own."""
        shared = not build.primary and self._root_files is not None
        at_site_root = build.primary or shared
        files.append(File.generated(config, build.prefix + app.MANIFEST,
                                    content=app.manifest(build.lang, "../" if at_site_root else "")))
        if shared:
            build.icons_at_root = frozenset(app.ICON_FILES)
            return
        for size in app.ICONS:
            for maskable in (False, True):
                files.append(File.generated(config, app.icon_name(size, maskable), content=app.icon_png(size, maskable)))

    def _search(self, build: _Build) -> tuple[SearchData, bool, bool]:
        """The language's search data, as an earlier command made it from the same content, else made (and kept). While
        serving dirty, a rebuild after an edit shows the last build's data at once and makes the new data beside the
        server (:class:`_Refresh`), which then asks for one more rebuild: that one finds it kept. Returns the data, whether
        it was kept, and whether it is the last build's (stale)."""
        kb, lang = build.loaded.kb, build.lang
        key = content_key(kb, lang, repr(kb.ranking), *_SEARCH_WITH)

        def shape(v: Any) -> bool:
            return isinstance(v, SearchData) and v.lang == lang

        def keep() -> tuple[SearchData, bool]:
            return kept(kb, f"search-{lang}", key, lambda: search_data(kb, kb.search_reader(), lang), shape,
                        (SearchData,))

        shown = self._sources.search.get(lang) if self._sources is not None else None
        stale = False
        if self._sources is None or shown is None:
            search, found = keep()
        else:
            found_search = cached(kb, f"search-{lang}", key, shape, (SearchData,))
            found = found_search is not None
            if found_search is None:
                # the index brought up to date beside the server too: the next build waits for it (on_config)
                self._sources.refresh.later(keep)
                search, stale = shown, True
                log.info(f"{lang}: search data of the last build shown; the edit's is being made")
            else:
                search = found_search
        if self._sources is not None:
            self._sources.search[lang] = search
        return search, found, stale

    def _add_calculators(self, build: _Build, config: MkDocsConfig, files: Files) -> None:
        """The calculators' data scripts, a head and shards per space (kb/site/calc.py; the answers are worked out once
        for every language of the command; made again when the content changed, also while serving)."""
        started = time.monotonic()
        if self._pyodide is None:  # once per command
            self._pyodide = pyodide_folder(self.config.pyodide)
        where, runtime = self._pyodide
        # one copy of the runtime (9 MB) for the site, at its root, written by the first language's build: a later
        # language of the same command points there; a language built alone (not the first) keeps its own copy
        shared = build.primary or self._runtime_shared
        size = (sum(len(text.encode()) for text in self._runtime(build, runtime).values())
                if runtime is not None and needs_runtime(build.loaded.kb) else 0)
        build.calc = self._calc_site(build, runtime is not None, f"../{calc_runtime.FOLDER}" if shared else calc_runtime.FOLDER,
                                     size)
        if build.calc.python and runtime is not None and (build.primary or not shared):
            self._add_runtime(build, config, files, runtime)
        self._note_held(build.calc.held, where)
        self._report_calc(build.loaded, build.calc.failed)
        for path, text in build.calc.files.items():
            files.append(File.generated(config, build.prefix + path, content=text))
        log.info(f"{build.lang}: {sum(map(len, build.calc.forms.values()))} calculators, {len(build.calc.files)} data "
                 f"files, {sum(build.calc.sizes.values()) / 1e6:.2f} MB ({len(build.calc.made)} of "
                 f"{len(build.loaded.parts)} parts made) in {time.monotonic() - started:.1f} s")

    def _calc_site(self, build: _Build, in_page: bool, runtime: str, size: int) -> CalcSite:
        """The language's calculators, each game's part as an earlier command made it from the same inputs
        (:func:`kb.site.calc.calc_site` with ``keep``), else made and kept; also while serving. ``size``: the
        runtime's bytes, which a form the page's Python answers says it downloads the first time."""
        working = Working()
        with _still_working(f"{build.lang}: still working out the calculators' answers", "each calculator calls "
                            "its resolver once for every combination of its inputs: a resolver slow to answer makes it long",
                            self.config.still_working, lambda: str(working)):
            return calc_site(build.loaded.kb, build.lang, in_page, runtime, keep=True, working=working, size=size)

    def _note_held(self, held: int, where: str) -> None:
        """``warning[calc-runtime]``, once per command, when forms were held for want of the runtime (not ``off``)."""
        if held and where != "off" and not any(n.code == "calc-runtime" for n in self.notes):
            self._note(diag("calc-runtime", Location(Path(where)), count=held, version=calc_runtime.PYODIDE,
                            where=where, command=calc_runtime.INSTALL))

    def _report_calc(self, loaded: _Loaded, found: list[Diagnostic]) -> None:
        """The calculators whose resolver failed or stalled (``calc-failed``, ``calc-stalled``, ``calc-page-stalled``),
        logged as the content's problems are (:meth:`_report`: errors as MkDocs warnings, so ``--strict`` fails), once
        per load (each language's build finds them again)."""
        for d in found:
            line = d.format()
            if line in loaded.reported:
                continue
            loaded.reported.add(line)
            if d.severity == "error" or self.config.fail_on_warnings:
                log.warning(line, extra=_AS_DIAGNOSTIC)
            else:
                log.info(line)

    def _add_runtime(self, build: _Build, config: MkDocsConfig, files: Files, runtime: Path) -> None:
        """The page's Python (kb/site/calc_runtime.py) at this build's site_dir: the site's root for the first language
        (its prefix left out)."""
        runtime_files = self._runtime(build, runtime)
        for path, text in runtime_files.items():
            files.append(File.generated(config, path, content=text))
        self._runtime_shared = build.primary
        size = sum(len(text.encode()) for text in runtime_files.values())
        log.info(f"{build.lang}: the calculators' runtime (Pyodide {calc_runtime.PYODIDE}), {size / 1e6:.2f} MB, written "
                 f"{'at the site root for every language' if build.primary else 'for this language alone'}")

    def _runtime(self, build: _Build, runtime: Path) -> dict[str, str]:
        """The runtime's files (:func:`kb.site.calc_runtime.runtime_files`), read once per command (kept while serving,
        as the data is, by their own inputs: the installed Pyodide, the engine, the mechanics)."""
        if self._runtime_files is None:
            root = Path(build.loaded.kb.root)
            self._runtime_files = kept(build.loaded.kb, "runtime", runtime_key(runtime, root),
                                       lambda: calc_runtime.runtime_files(root, runtime), lambda v: isinstance(v, dict))[0]
        return self._runtime_files

    def _keep_pages(self, build: _Build, config: MkDocsConfig, files: Files, site: Path, folder: Path) -> None:
        """Add the pages to ``files`` as sources on disk; copy into ``folder`` from ``site`` each page the last build of
        ``site`` rendered from the same inputs (:meth:`kb.site.rendered.Record.kept`), its source made older than the
        copy so that MkDocs' dirty build leaves it alone; every other page is rendered."""
        kb = build.loaded.kb
        if self._page_sources is None:
            self._page_sources = tempfile.mkdtemp(prefix="kb-build-")
        # the menu names every page and game (a section's index page is titled as its section), so a title or a game
        # that changes, or a game that gains or loses its helpers' data (its first or last entry), changes every page
        said = [build.lang, self.config.languages, nav_config(build.site.nav, build.prefix), config.site_url,
                config.use_directory_urls]
        key = shell(config.config_file_path, config.theme.dirs, [str(THEME)], said)
        record_path = Record.path(cache_dir(kb.root, AREA, kb.cache_base), build.lang, site)
        build.record, build.record_next = Record.read(record_path, kb.cache_key), Record(key, {}, "", str(site))
        self._records.append((record_path, build.record_next, kb))  # completed by _recorded
        build.kept = {}
        for page in build.site.pages:
            uri = build.prefix + page.path
            source = os.path.join(self._page_sources, build.lang, uri)
            os.makedirs(os.path.dirname(source), exist_ok=True)
            with open(source, "w", encoding="utf-8") as out:
                out.write(page.markdown)
            file = File.generated(config, uri, abs_src_path=source)
            rel = os.path.relpath(file.abs_dest_path, folder)
            printed = fingerprint(page.markdown, json.dumps(_forms(build, file)))
            build.record_next.pages[rel] = [printed]
            if not self.render_all and build.record.kept(key, rel, printed, site):
                os.makedirs(os.path.dirname(file.abs_dest_path), exist_ok=True)
                shutil.copy2(site / rel, file.abs_dest_path)
                os.utime(source, ns=(0, 0))
                build.kept[uri] = (Path(file.abs_dest_path), front_matter_title(page.markdown))
            files.append(file)
        log.info(f"{build.lang}: {len(build.kept)} of {len(build.site.pages)} pages kept from the last build")

    def _recorded(self, build: _Build) -> None:
        """After the language's build: the kept pages name the new search data; the record of what was built gets the
        version (and, once the site is in place, each page's file: :meth:`keep_records`)."""
        record, now = build.record, build.record_next
        assert record is not None and now is not None and build.kept is not None and build.search is not None
        now.version = build.search.version
        for uri, (path, _) in build.kept.items():
            if uri in build.rendered or record.version == now.version:
                continue
            src = uri.removeprefix(build.prefix)
            old = meta_tag(SearchData(build.lang, {}, record.version, build.search.one_game), src)
            if not renamed_version(path, old, meta_tag(build.search, src)):
                raise PluginError(f"kb: the page {uri} kept from the last build does not name its search data as "
                                  f"that build wrote it; build again with 'kb build --clean'")

    def keep_records(self) -> None:
        """``kb build``, its site in place: what it rendered, each page's file as it is now (after what the build
        writes into pages once every language is built: a game's save sizes, :func:`kb.site.app.write_offline`), for
        the next build of the folder (:mod:`kb.site.rendered`)."""
        for path, record, kb in self._records:
            record.stat_pages()
            record.write(path, kb.cache_key)
        written = {path for path, _, _ in self._records}
        for folder, key in {(path.parent, kb.cache_key) for path, _, kb in self._records}:
            Record.forget_gone(folder, key, written)
        self._records = []

    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        """A page kept from the last build is not read (MkDocs' dirty build): where the menu gives it no title, its
        title (which its neighbours' footers show) as its front matter gives it, as reading it would."""
        kept = self._current().kept or {}
        for file in files.documentation_pages() if kept else []:
            if file.src_uri in kept and file.page is not None and file.page.title is None:  # the menu names none
                file.page.title = kept[file.src_uri][1]
        return nav

    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """Make the pages' template (``kb/site/theme/kb-page.html``) and its filters known to the theme."""
        env.loader = jinja2.ChoiceLoader([env.loader, jinja2.FileSystemLoader(str(THEME))] if env.loader
                                         else [jinja2.FileSystemLoader(str(THEME))])
        env.filters["kb_spaces"] = _spaces
        env.filters["kb_no_alternates"] = _no_alternates
        env.filters["kb_defer_bundle"] = _defer_bundle
        env.filters["kb_own_palette"] = _own_palette
        env.filters["kb_footer_labels"] = _footer_labels
        if self._current().at_root:  # the theme's links to its files, and to our stylesheet: the site root's copies
            env.filters["url"] = _root_url(env.filters["url"], self._current().at_root)
        for file in files.documentation_pages():
            problem = _template_problem(env, file.page, config) if file.page is not None else None
            if problem:
                raise PluginError(problem)
        return env

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A generated page is rendered by ``kb-page.html`` (the theme's page, its sidebars' whitespace collapsed); an
        entry's calculators' heading is left out when its calculators are (:func:`kb.site.calc.with_forms`)."""
        if config.theme.name == "material" and "template" not in page.meta:
            page.meta["template"] = PAGE_TEMPLATE
        if page.file.generated_by is None:  # a page of the pack's docs/: its front matter is printed raw by the theme
            _front_matter_as_text(page)
        build = self._current()
        return with_forms(markdown, _forms(build, page.file), build.lang)

    @event_priority(-100)  # after every other plugin has changed the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """The last line: every page's HTML through the allow-list sanitiser (no script, no handler, no style)."""
        if page.file.generated_by is None and "title" not in page.meta:  # a docs/ page titled by its heading or name
            page.meta["title"] = _title_as_html(page, html)
        return sanitise(html)

    def on_page_context(self, context: TemplateContext, *, page: Page, config: MkDocsConfig,
                        nav: Navigation) -> TemplateContext:
        """Point the language switcher at this same page in every language; a game's pages' titles name the game,
        unless it is the site's only game (the site's name follows every title: the game's name said it again)."""
        build = self._current()
        src = page.file.src_uri.removeprefix(build.prefix)
        games = build.loaded.kb.games
        game = games.get(src.split("/")[0]) if "/" in src and len(games) > 1 else None
        if game is not None and not src.endswith("/index.md") and page.title:
            page.meta["title"] = f"{page.title} · {html.escape(game.name.best(build.lang))}"  # «Entrada · Juego»
        # percent-encoded as MkDocs' own links are: the theme prints it raw, and a docs/ file's name may hold '"' or '<'
        url = quote(_url(page.file.src_uri.removeprefix(build.prefix), config.use_directory_urls), safe="/")
        config.extra["alternate"] = [
            {"name": LANGUAGES[lg], "lang": lg, "link": (_root_of(build, lg) + url) or "./"}
            for lg in self.config.languages
        ]
        if build.shared_scope:
            config.extra["scope"] = _site_scope(str(context["base_url"]))
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Tell the page where its language's search data is (read by ``kb-search.js``); our scripts, by the loader."""
        build = self._current()
        build.rendered.add(page.file.src_uri)
        if "</head>" not in output:
            return output
        here = posixpath.dirname(page.file.dest_uri) or "."
        tag = data_tag(build.lang, build.prefix, page.file.dest_uri, _table_parts(build, page.file.src_uri))
        forms = _forms(build, page.file)
        if forms:  # engine markup, every value escaped, put in after the sanitiser (which keeps forms out of content)
            output = _CALC_SLOT.sub(lambda m: forms[int(m.group(1))] if int(m.group(1)) < len(forms) else "", output)
        icon = app.icon_name(192)
        tag += app.manifest_links(posixpath.relpath(build.prefix or ".", here) + "/",
                                  _from_folder(icon, here, icon in build.at_root))
        if _game_home(build, page.file.src_uri):  # the save buttons' words and sizes (kb.site.app.offline_meta)
            tag += app.offline_meta(build.lang)
        if build.search is not None:
            tag += meta_tag(build.search, page.file.src_uri.removeprefix(build.prefix))
        calculator = any(f.startswith("<form") for f in forms or [])  # not for a calculator left out
        output = app.single_title(output, config.site_name)
        return _loading_ours(output, here, calculator, build.at_root).replace("</head>", tag + "</head>", 1)

    def on_template_context(self, context: TemplateContext, *, template_name: str, config: MkDocsConfig) -> TemplateContext:
        """The "page not found" page's menu: each language's home and games, in its own language
        (:func:`kb.site.notfound.not_found_menu`), not the build's language's whole menu (a dead link is in no language)."""
        build = self._build
        if template_name == "404.html" and build is not None:
            root = urlsplit(build.root_url).path
            homes = {lg: root + url for lg, url in _homes(self.config.languages, config.use_directory_urls).items()}
            order = [build.lang] + [lg for lg in self.config.languages if lg != build.lang]
            games = {game: {lg: meta.name.best(lg) for lg in order} for game, meta in build.loaded.kb.games.items()}
            context["nav"] = _navigation(not_found_menu(order, homes, games), context["nav"])
            build.own_name, config.site_name = config.site_name, build.every_name  # back in on_post_template
        return context

    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        """The language's sitemap: every page, absolute from ``site_url``, with its twins in every language; the
        "page not found" page in every language (:func:`kb.site.notfound.not_found_page`)."""
        build = self._build
        if template_name == "404.html" and build is not None:
            config.site_name = build.own_name or config.site_name
            root = urlsplit(build.root_url).path
            homes = {lg: root + url for lg, url in _homes(self.config.languages, config.use_directory_urls).items()}
            return not_found_page(output_content, build.lang, root, homes, str(build.every_name))
        if template_name != "sitemap.xml" or build is None:
            return output_content
        urls = [_url(page.path, config.use_directory_urls) for page in build.site.pages]
        return sitemap.sitemap(urls, build.lang, build.root_url, self.config.languages)

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        """Watch ``content/``: an edit rebuilds the preview (``mkdocs serve --dirty``: only the pages it changed)."""
        server.watch(self.content_root(config))
        if self._sources is not None:
            server.watch(str(self._sources.refresh.folder))  # the search data made after an edit: one more rebuild
        beside, self._beside = self._beside, None  # `mkdocs serve --clean`: its first build, now shown
        if beside is not None:
            beside.end(keep=beside.built)
        self._live = True
        return server

    @event_priority(-200)  # after every other plugin has finished this language's build
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        build = self._current()
        self._build = None
        if build.record_next is not None and self.incremental is not None:
            self._recorded(build)
        if self._beside is not None and self._live:
            beside, self._beside = self._beside, None
            beside.end(keep=True)
        elif self._beside is not None:
            self._beside.built = True  # swapped in at on_shutdown: MkDocs' --strict may still fail the build
        if self._sources is not None:
            self._sources.refresh.start()  # the edit's search data, beside the server now that the site is shown
        log.info(f"{build.lang}: built in {time.monotonic() - build.started:.1f} s")

    # ------------------------------------------------------------------ helpers
    def _note(self, found: Diagnostic) -> None:
        """A warning about the build: a MkDocs warning (``--strict`` fails) only with ``fail_on_warnings``, as the
        content's warnings are; else an info line, which ``kb build`` repeats on stderr when it ends."""
        self.notes.append(found)
        if self.config.fail_on_warnings:
            log.warning(found.format(), extra=_AS_DIAGNOSTIC)
        else:
            log.info(found.format())

    def _current(self) -> _Build:
        if self._build is None:  # pragma: no cover - MkDocs runs on_config first
            raise PluginError("kb: a build event came before the build's configuration")
        return self._build

    def content_root(self, config: MkDocsConfig) -> str:
        """The content folder of ``config``: the plugin's ``content`` (beside ``mkdocs.yml``), else ``$KB_CONTENT``,
        else ``content/`` beside ``mkdocs.yml``."""
        base = os.path.dirname(config.config_file_path or "mkdocs.yml")
        if self.config.content:
            return os.path.join(base, self.config.content)
        return os.environ.get("KB_CONTENT") or os.path.join(base, "content")

    def _load(self, config: MkDocsConfig) -> _Loaded:
        """The knowledge base of this command (loaded again for each rebuild of ``mkdocs serve``, ``--clean`` or not)."""
        root = self.content_root(config)
        if self._loaded is not None and self._loaded.root == root and not self._live:  # `serve --clean` too
            return self._loaded
        if not os.path.isdir(root):
            raise PluginError(f"kb: content folder not found: {root}")
        before = self._ran if self._loaded is not None and self._loaded.root == root else None
        kb = KnowledgeBase.load(root, before=before[0] if before is not None else None)
        results = self._report(kb, before)
        self._loaded = _Loaded(root, kb, results_by_entry(results), History().state(Path(root)),
                               tuple(sorted({e.game for e in kb.entries.values()})), _said(results))
        self.games = tuple(sorted(kb.games))
        return self._loaded

    def _report(self, kb: KnowledgeBase, before: tuple[KnowledgeBase, list[ExampleResult]] | None) -> list[ExampleResult]:
        """Log the knowledge base's problems (errors as warnings) and run its worked examples, logging failures.
        On a rebuild (``before``: the last load and its results), only the examples an edit can have changed run."""
        warnings, self.warned = 0, []
        for d in [*kb.diagnostics, *catalog_problems()]:  # the site's words too: a mistake there shows on every page
            if d.severity == "error" or self.config.fail_on_warnings:
                self.warned.append(d)
                log.warning(d.format(), extra=_AS_DIAGNOSTIC)
            else:
                warnings += 1
                log.debug(d.format())
        if warnings:
            log.info(f"{warnings} knowledge-base warning(s); 'kb check' lists them")
        if before is None:
            results = kb.run_examples()
            ran = len(results)
        else:
            results, ran = kb.run_examples_since(*before)
        self._ran = (kb, results)
        for r in results:
            if not r.passed:
                self.warned.append(r.diagnostic())
                log.warning(self.warned[-1].format(), extra=_AS_DIAGNOSTIC)
        ok = sum(r.passed for r in results)
        log.info(f"{len(kb.entries)} entries loaded; {ok} of {len(results)} worked examples verified ({ran} run)")
        return results


@contextmanager
def _still_working(what: str, why: str, every: float, now: Callable[[], str] = str) -> Iterator[None]:
    """Say ``what`` every ``every`` seconds while the block runs, with the time so far, what it is at ``now`` (when it
    says) and ``why`` it may take long: a long step is never silent."""
    done, started = threading.Event(), time.monotonic()

    def tell() -> None:
        while not done.wait(every):
            at = now()
            log.info(f"{what}, {time.monotonic() - started:.0f} s so far{', now ' + at if at else ''} ({why})")

    teller = threading.Thread(target=tell, daemon=True)
    teller.start()
    try:
        yield
    finally:
        done.set()
        teller.join()


class _Sources:
    """``mkdocs serve --dirty``: the pages' Markdown as files, rewritten only when their text (or the menu)
    changed, so that MkDocs' dirty build (``File.is_modified``: the source newer than the page) writes only
    the pages an edit changed."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.shown: dict[tuple[str, str], str] = {}
        self.nav: dict[str, tuple[Any, ...]] = {}
        self.search: dict[str, SearchData] = {}
        """Each language's search data as the last build wrote it."""
        self.stale: dict[str, set[str]] = {}
        """Per language, the pages written while it showed the last build's search data."""
        self.refresh = _Refresh(Path(folder) / "refresh")

    def update(self, build: _Build, config: MkDocsConfig, files: Files, stale: bool = False) -> int:
        """Add the build's pages to ``files``, backed by their source files; how many were rewritten. ``stale``: the
        build shows the last build's search data (:class:`_Refresh`): the pages it rewrites are rewritten again by the
        first build that has the new data, so that they name its version."""
        same_nav = self.nav.get(build.lang) == build.site.nav
        self.nav[build.lang] = build.site.nav
        again = self.stale.setdefault(build.lang, set()) if stale else self.stale.pop(build.lang, set())
        changed = 0
        for page in build.site.pages:
            uri = build.prefix + page.path
            path = os.path.join(self.folder, build.lang, uri)
            if not same_nav or self.shown.get((build.lang, uri)) != page.markdown or (not stale and uri in again):
                if stale:
                    again.add(uri)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as out:
                    out.write(page.markdown)
                self.shown[(build.lang, uri)] = page.markdown
                changed += 1
            files.append(File.generated(config, uri, abs_src_path=path))
        return changed


class _Refresh:
    """Work done beside the server after a rebuild (the search data of an edit), one at a time: when it is done, a file
    written in :attr:`folder` (which ``on_serve`` watches) makes ``mkdocs serve`` rebuild, and that build finds the
    result kept (:mod:`kb.site.outputs`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._thread: threading.Thread | None = None
        self._pending: Callable[[], object] | None = None
        self.done = 0
        """How many have ended (each writes ``done-<n>``)."""

    def later(self, work: Callable[[], object]) -> None:
        """Do ``work`` when the build has ended (:meth:`start`), so that it does not slow the build down."""
        self._pending = work

    def start(self) -> None:
        """Start the work the build asked for, if any (``on_post_build``)."""
        work, self._pending = self._pending, None
        if work is not None:
            self.wait()
            self._thread = threading.Thread(target=self._run, args=(work,), name="kb-refresh", daemon=True)
            self._thread.start()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception as exc:  # noqa: BLE001 - a failure here must not stop the server; the next edit tries again
            log.warning(f"kb: the search data of the edit could not be made: {exc}")
            return
        self.done += 1
        try:
            (self.folder / f"done-{self.done}").write_text(str(time.time()), encoding="utf-8")
        except OSError as exc:  # a full disk: the data is kept, the next rebuild shows it
            log.warning(f"kb: {os_problem(exc, 'the serve folder')}")

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the work under way, if any; whether none is left."""
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return False
            self._thread = None
        return True


def _said(results: list[ExampleResult]) -> str:
    """A hash of what the worked examples gave: a timeout under load changes the pages, so it changes their key."""
    rows = sorted(repr((r.entry.id, r.example.id, r.status, r.error, r.details, r.mismatches)) for r in results)
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]


def _versions(*names: str) -> tuple[str, ...]:
    """The installed versions of ``names`` (what the search data is made with beside the engine: its index, its word
    lists)."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in names:
        try:
            out.append(f"{name}={version(name)}")
        except PackageNotFoundError:
            out.append(f"{name}=")
    return tuple(out)


_SEARCH_WITH = _versions("whoosh3", "whoosh", "wordfreq")
"""The packages the search data is made with, a part of its key."""


def _forms(build: _Build, file: File) -> list[str] | None:
    """The page's calculators' forms, put in its slots after the sanitiser."""
    return build.calc.forms.get(file.src_uri.removeprefix(build.prefix)) if build.calc else None


def _game_home(build: _Build, src_uri: str) -> bool:
    """Whether the page is a game's own page (``<game>/index.md``), which offers to save the game for offline play."""
    game, _, rest = src_uri.removeprefix(build.prefix).partition("/")
    return rest == "index.md" and game in build.loaded.kb.games


def _table_parts(build: _Build, src_uri: str) -> list[str]:
    """Whose previews and tooltips a page loads (kb/site/preview.py): a game's page, its game's and the shared
    concepts'; a page outside a game, every part."""
    src = src_uri.removeprefix(build.prefix)
    game = src.split("/")[0] if "/" in src else None
    parts = build.loaded.parts
    if game not in build.loaded.kb.games:
        return list(parts)
    return [g for g in parts if g == game or g not in build.loaded.kb.games]


FRONT_MATTER_TEXTS = ("title", "description")
"""The front matter of a ``docs/`` page that Material prints raw (the menu, the heading, ``<title>``, the description's
``<meta>``): escaped once, shown as typed."""


def _front_matter_as_text(page: Page) -> None:
    for key in FRONT_MATTER_TEXTS:
        if key in page.meta and not isinstance(page.meta[key], Markup):
            page.meta[key] = Markup(html.escape(str(page.meta[key])))


def _title_as_html(page: Page, rendered: str) -> Markup:
    """A ``docs/`` page's title as the theme may print it: the text of its first heading when the page starts with one
    (MkDocs takes it from the rendered HTML, entities kept), else its file's name, escaped. As the page's front-matter
    title, so that ``<title>`` prints it as it is, not through ``striptags``, which would undo the escaping."""
    title = page.title or ""
    return Markup(title) if rendered.lstrip().startswith("<h1") else Markup(html.escape(title))


def _shares_scope(config: MkDocsConfig, primary: bool) -> bool:
    """Whether the build's pages set the theme's storage scope to the site's root (:func:`_site_scope`): a language
    built inside the first's, unless ``mkdocs.yml`` gives a scope of its own."""
    return not primary and "scope" not in config.extra


def _site_scope(base_url: str) -> str:
    """The site's root relative to a page of a language built inside the first's (``base_url``: to its own root). Material
    keeps the reader's choices (the light/dark palette) under its scope, by default the build's root: ``/en/`` for
    English and ``/`` for Spanish, so dark mode chosen in one language was lost in the other (audit-phone3 D22)."""
    return posixpath.join(base_url, "..")


def _root_of(build: _Build, lang: str) -> str:
    """The root of ``lang``'s pages, relative to the root of ``build``'s site_dir."""
    if build.primary:
        return f"{lang}/"
    return "" if lang == build.lang else f"../{lang}/"


_CALC_SLOT = re.compile(r'<div class="kb-calc-slot" id="kb-calc-(\d+)"></div>')
"""A calculator's place on its page (kb.site.calc.slot), as the sanitiser leaves it."""


def _url(path: str, directory_urls: bool) -> str:
    """The URL of page ``path`` (``a/b.md``) relative to its language's root."""
    stem = path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem if directory_urls else stem + "index.html"
    return f"{stem}/" if directory_urls else f"{stem}.html"


_UNUSED = ("assets/javascripts/lunr/", "assets/javascripts/workers/")


def _unused(file: File, config: MkDocsConfig) -> bool:
    """A theme file no page loads: the theme's search (lunr and its worker; the engine's search replaces
    it), source maps, and Material's tab icon when neither the tab nor the logo shows it (:func:`_unused_favicon`)."""
    return file.src_uri.startswith(_UNUSED) or file.src_uri.endswith(".map") or _unused_favicon(file, config)


def _unused_favicon(file: File, config: MkDocsConfig) -> bool:
    """The theme's own ``favicon.png``, when the pages' tab icon is another (the app's die, ``apply_defaults``, or the
    pack's) and the logo is not it either: no page links it, and it went into every site and offline list."""
    shown = (config.theme.get("favicon"), config.theme.get("logo"))
    return file.src_uri == THEME_FAVICON and THEME_FAVICON not in shown and _from_theme(file, config)


def _spaces(html_text: str) -> Markup:
    r"""``html_text`` (the theme's already escaped sidebars) with its runs of whitespace made single spaces (what
    ``re.sub(r"\s+", " ", ...)`` gives: ``str.split`` splits on the same characters, in a fifth of the time)."""
    text = str(html_text)
    words = text.split()
    if not words:
        return Markup(" " if text else "")
    return Markup((" " if text[0].isspace() else "") + " ".join(words) + (" " if text[-1].isspace() else ""))


def _no_alternates(html_text: str) -> Markup:
    """The theme's ``site_meta`` block (already escaped) without its ``<link rel="alternate" hreflang>`` tags."""
    return Markup(app.without_alternates(str(html_text)))


def _own_palette(html_text: str) -> Markup:
    """The theme's header (already escaped) with its palette toggle left to ``kb-palette.js`` (``kb.site.app.own_palette``)."""
    return Markup(app.own_palette(str(html_text)))


def _footer_labels(html_text: str) -> Markup:
    """The theme's footer (already escaped) with its previous/next labels escaped once (``kb.site.app.footer_labels``)."""
    return Markup(app.footer_labels(str(html_text)))


def _loading_ours(output: str, here: str, calculator: bool, at_root: frozenset[str] = frozenset()) -> str:
    """A page (in the folder ``here``) with our scripts' loader before its ``</body>`` (``kb.site.app.script_loader``):
    ``SCRIPTS`` in their order, after ``kb-calc.js`` on a page with a calculator (only those load it); those of
    ``at_root`` from the site's root, one folder above the build's."""
    at = output.rfind("</body>")
    if at < 0:
        return output
    scripts = ([CALC_SCRIPT] if calculator else []) + list(SCRIPTS)
    urls = [_from_folder(script, here, script in at_root) for script in scripts]
    return output[:at] + app.script_loader(urls) + output[at:]


def _from_folder(path: str, here: str, at_root: bool) -> str:
    """``path`` (from the build's root; from the site's root, one folder above it, when ``at_root``) relative to the
    folder ``here`` (from the build's root). Anchored at made-up absolute folders: ``posixpath.relpath`` would read a
    leading ``..`` against the working folder."""
    return posixpath.relpath(posixpath.join("/site" if at_root else "/site/lang", path), posixpath.join("/site/lang", here))


def _shareable(file: File, config: MkDocsConfig) -> bool:
    """A static file the same in every language's build, which only the theme's templates (its own files) and the
    plugin (our styles and scripts, ``kb.mkdocs_defaults.ASSETS``' names) link to: never a page, a generated file or
    another file of ``docs_dir``, which its pages may link to by a relative path."""
    if file.generated_by is not None or file.is_documentation_page() or not file.abs_src_path:
        return False
    return file.src_uri in asset_names() or _from_theme(file, config)


def _from_theme(file: File, config: MkDocsConfig) -> bool:
    """A file of the theme's own folders (not the pack's ``docs_dir``, which may hold one of the same name)."""
    if not file.abs_src_path:
        return False
    source = os.path.abspath(file.abs_src_path)
    return any(source.startswith(os.path.join(os.path.abspath(d), "")) for d in config.theme.dirs)


def _root_url(url: Callable[..., str], at_root: frozenset[str]) -> Callable[..., str]:
    """MkDocs' ``url`` filter, but for the files of ``at_root`` (paths from the build's root): their copies at the site's
    root, one folder above the build's (a page's relative link, or the 404 page's absolute one from ``site_url``)."""
    @jinja2.pass_context
    def root_url(context: Any, value: Any) -> str:
        if str(value) not in at_root:
            return url(context, value)
        return posixpath.normpath(posixpath.join(url(context, "."), "..", str(value)))
    return root_url


def _defer_bundle(html_text: str) -> Markup:
    """The theme's ``scripts`` block (already escaped) with its bundle deferred (``kb.site.app.defer_theme_bundle``)."""
    return Markup(app.defer_theme_bundle(str(html_text)))


def _navigation(menu: Menu, theirs: Navigation | None) -> Navigation:
    """``menu`` as MkDocs' navigation (sections of links), keeping the theme's home page (its logo's link)."""
    items = []
    for title, links in menu:
        children: list[Any] = [Link(label, url) for label, url in links]
        section = Section(title, children)
        for child in children:
            child.parent = section
        items.append(section)
    nav = Navigation(items, [])
    nav.homepage = theirs.homepage if theirs is not None else None
    return nav


def _homes(langs: list[str], directory_urls: bool) -> dict[str, str]:
    """Each language's home, from the site's root."""
    return {lg: f"{lg}/" if directory_urls else f"{lg}/index.html" for lg in langs}


def _template_problem(env: jinja2.Environment, page: Page, config: MkDocsConfig) -> str | None:
    """Why the theme cannot render ``page`` with the template its front matter names (MkDocs' own failure there reads
    "[Errno None] None"), located at the front matter's line; ``None`` when it can, or names none."""
    name = page.meta.get("template")
    if name is None:
        return None
    try:
        env.get_template(name)
        return None
    except (jinja2.TemplateNotFound, TypeError, AttributeError):
        pass
    where = os.path.relpath(page.file.abs_src_path or page.file.src_uri, os.path.dirname(config.config_file_path or "."))
    return (f"kb: {printable(where)}:{_meta_line(page.file.abs_src_path, 'template')}: front matter 'template': "
            f"the theme has no template {printable(repr(name))} (name one of the theme's or custom_dir's, or leave "
            "'template' out)")


def _meta_line(path: str | None, key: str) -> int:
    """The line of ``path``'s front matter that sets ``key`` (1 when it cannot be read)."""
    try:
        with open(path or "", encoding="utf-8") as source:
            lines = source.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    return next((n for n, line in enumerate(lines, 1) if line.startswith(f"{key}:")), 1)


def _redirect(langs: list[str], directory_urls: bool) -> str:
    """The root page: to the language the reader chose before (``localStorage``), else the first of the
    browser's languages the site has, else the first language (:func:`kb.site.reader_language.pick_language`: only
    ``langs``, whatever is stored); without scripts, links to each."""
    pages = _homes(langs, directory_urls)
    links = " · ".join(f'<a href="{url}" hreflang="{lg}">{LANGUAGES[lg]}</a>' for lg, url in pages.items())
    script = (f"(function(){{var p={json.dumps(pages)},l={pick_language(langs)}||{json.dumps(langs[0])};"
              "location.replace(p[l]+location.hash)})();")
    return (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{LANGUAGES[langs[0]]} · '
            f'{" · ".join(LANGUAGES[lg] for lg in langs[1:])}</title>'
            f'<script>{script}</script></head><body><p>{links}</p></body></html>\n')
