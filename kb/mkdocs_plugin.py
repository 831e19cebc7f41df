"""MkDocs adapter: the knowledge base as a bilingual site (``plugins: [kb]`` in ``mkdocs.yml``).

The build that ``mkdocs`` runs is the first language's (Spanish, pages under ``es/``, a root
``index.html`` redirecting there). After it, :meth:`KnowledgeBasePlugin.on_post_build` runs one
more MkDocs build per other language from the same ``mkdocs.yml`` into ``<site_dir>/<lang>/``, with
that language as the theme's, so each language has its own interface strings and its own search
index. Pages keep the same relative path in every language; each page's language switcher
(``extra.alternate``) points at the same page in the others.

What pages exist and what they say is decided by :mod:`kb.site`; this module only loads the
knowledge base once per build, hands the pages to MkDocs, reports problems and watches ``content/``.
Knowledge-base errors and failed worked examples are logged as warnings, so ``mkdocs build --strict``
fails on them; knowledge-base warnings are counted in one line (``fail_on_warnings: true`` turns them
into MkDocs warnings too).
"""

from __future__ import annotations

import functools
import html
import json
import os
import posixpath
import re
import time
from dataclasses import dataclass
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from kb.api import KnowledgeBase
from kb.core.locale import pgettext
from kb.mkdocs_defaults import apply_defaults, asset_files
from kb.site import app
from kb.examples.runner import ExampleResult
from kb.site.preview import data_name as table_name, script_tag, table_data
from kb.site.sanitise import sanitise
from kb.site.search_box import SearchData, data_name, meta_tag, search_data
from kb.site.pages import build_site
from kb.site.structure import LANGUAGES, Site, nav_config, results_by_entry

__all__ = ["KnowledgeBasePlugin", "KnowledgeBaseConfig"]

log = get_plugin_logger(__name__)


class KnowledgeBaseConfig(Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__ is untyped
    """Options of the ``kb`` plugin."""

    content = c.Optional(c.Type(str))
    """The content folder (default: ``$KB_CONTENT``, else ``content/`` beside ``mkdocs.yml``)."""
    languages = c.Type(list, default=list(LANGUAGES))
    """Languages to build, the first at ``/<lang>/`` by ``mkdocs`` itself, the others after it."""
    fail_on_warnings = c.Type(bool, default=False)
    """Report knowledge-base warnings (not only errors) as MkDocs warnings."""


@dataclass(frozen=True)
class _Loaded:
    """What the first build loads and the other languages' builds reuse."""

    kb: KnowledgeBase
    results: dict[str, dict[str, ExampleResult]]


@dataclass
class _Build:
    """The state of one language's build (MkDocs reuses plugin instances across configurations)."""

    lang: str
    primary: bool
    loaded: _Loaded
    site: Site
    started: float
    search: SearchData | None = None

    @property
    def prefix(self) -> str:
        """Where this build puts its pages inside its site_dir: ``es/`` for the first language."""
        return f"{self.lang}/" if self.primary else ""


class KnowledgeBasePlugin(BasePlugin[KnowledgeBaseConfig]):  # type: ignore[no-untyped-call]  # as above
    """Generates every page of the site from the knowledge base.

    MkDocs keeps one instance of a plugin that has startup hooks for every configuration it
    loads in a process (``mkdocs serve`` rebuilds, and the other languages' builds here), so the
    state of each build is kept per configuration object, never on the instance itself.
    """

    def __init__(self) -> None:
        self._builds: dict[int, _Build] = {}
        self._seeds: dict[int, tuple[str, _Loaded]] = {}
        self._content: str | None = None
        self._serving = False
        self._dirty = False
        self._shown: dict[tuple[str, str], str] = {}
        """While serving: (language, page path) -> the Markdown the last build gave MkDocs."""
        self._nav_shown: dict[str, tuple[Any, ...]] = {}
        self._search_kept: dict[str, SearchData] = {}

    # ------------------------------------------------------------------ events
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember whether this process serves a preview (its rebuilds then write only what changed)."""
        self._serving = command == "serve"
        self._dirty = dirty

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        langs = self.config.languages
        if not langs or any(lg not in LANGUAGES for lg in langs):
            raise PluginError(f"kb: 'languages' must list some of {', '.join(LANGUAGES)}")
        started = time.monotonic()
        seed = self._seeds.pop(id(config), None)
        if seed is None:
            self._builds.clear()
            lang, loaded = langs[0], self._load(config)
        else:
            lang, loaded = seed
        apply_defaults(config, lang)
        names = config.site_name.split(" · ")  # "Reglas · Rules": each language's build shows its own name
        if len(names) == len(langs):
            config.site_name = names[langs.index(lang)]
        config.theme["language"] = lang
        config.site_description = pgettext(lang, "site", "intro")  # the fallback meta description, in this language
        toc = config.mdx_configs.setdefault("toc", {})
        if toc.get("permalink"):
            toc["permalink_title"] = pgettext(lang, "label", "permalink")  # the ¶ link's tooltip
        site = build_site(loaded.kb, loaded.results, lang)
        build = self._builds[id(config)] = _Build(lang, seed is None, loaded, site, started)
        config.nav = nav_config(site.nav, build.prefix)
        log.info(f"{lang}: building {len(site.pages)} pages")
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        build = self._builds[id(config)]
        same_nav = self._nav_shown.get(build.lang) == build.site.nav
        self._nav_shown[build.lang] = build.site.nav
        unchanged = 0
        for page in build.site.pages:
            file = File.generated(config, build.prefix + page.path, content=page.markdown)
            if self._serving and same_nav and self._shown.get((build.lang, page.path)) == page.markdown:
                file.is_modified = _unmodified  # type: ignore[method-assign]  # a dirty rebuild leaves its page as written
                unchanged += 1
            if self._serving:
                self._shown[(build.lang, page.path)] = page.markdown
            files.append(file)
        if unchanged:
            log.info(f"{build.lang}: {len(build.site.pages) - unchanged} page(s) changed")
        started = time.monotonic()
        kept = self._search_kept.get(build.lang) if self._serving else None
        build.search = kept or search_data(build.loaded.kb, build.loaded.kb.search_reader(), build.lang)
        if self._serving:
            self._search_kept[build.lang] = build.search
        files.append(File.generated(config, build.prefix + data_name(build.lang), content=build.search.script))
        log.info(f"{build.lang}: search data {len(build.search.script.encode()) / 1e6:.2f} MB "
                 f"in {time.monotonic() - started:.1f} s")
        files.append(File.generated(config, build.prefix + table_name(build.lang),
                                    content=table_data(build.loaded.kb, build.lang)))
        files.append(File.generated(config, build.prefix + app.MANIFEST, content=app.manifest(build.lang)))
        for size in app.ICONS:
            files.append(File.generated(config, build.prefix + app.icon_name(size), content=app.icon_png(size)))
        asset_files(files, config)
        for unused in [f for f in files if _unused(f.src_uri)]:
            files.remove(unused)
        if build.primary:
            files.append(File.generated(config, "index.html",
                                        content=_redirect(self.config.languages, config.use_directory_urls)))
        return files

    @event_priority(-100)  # after every other plugin has changed the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """The last line: every page's HTML through the allow-list sanitiser (no script, no handler, no style)."""
        return sanitise(html)

    def on_page_context(self, context: TemplateContext, *, page: Page, config: MkDocsConfig,
                        nav: Navigation) -> TemplateContext:
        """Point the language switcher at this same page in every language; a game's pages' titles name the game."""
        build = self._builds[id(config)]
        src = page.file.src_uri.removeprefix(build.prefix)
        game = build.loaded.kb.games.get(src.split("/")[0]) if "/" in src else None
        if game is not None and not src.endswith("/index.md") and page.title:
            page.meta["title"] = f"{page.title} · {html.escape(game.name.best(build.lang))}"  # «Entrada · Juego»
        url = _url(page.file.src_uri.removeprefix(build.prefix), config.use_directory_urls)
        config.extra["alternate"] = [
            {"name": LANGUAGES[lg], "lang": lg, "link": (self._root_of(build, lg) + url) or "./"}
            for lg in self.config.languages
        ]
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Tell the page where its language's search data is (read by ``kb-search.js``)."""
        build = self._builds[id(config)]
        if "</head>" not in output:
            return output
        output = _compact_nav(output)
        tag = script_tag(build.lang, build.prefix, page.file.dest_uri)
        tag += app.manifest_links(posixpath.relpath(build.prefix or ".", posixpath.dirname(page.file.dest_uri) or ".") + "/")
        if build.search is not None:
            tag += meta_tag(build.search, page.file.src_uri.removeprefix(build.prefix))
        return output.replace("</head>", tag + "</head>", 1)

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        """Watch ``content/``; rebuilds write only the pages an edit changed (MkDocs' dirty build).

        ``mkdocs serve`` rebuilds everything after each edit (15–20 s on the bundled content); the
        rebuilds here reload the knowledge base through its file cache, regenerate the pages' Markdown
        and let MkDocs write only the pages whose Markdown changed (all of them when the menu changed).
        ``mkdocs serve --clean`` keeps MkDocs' own full rebuilds.
        """
        server.watch(self._content or self._content_root(config))
        if config.config_file_path and config.site_url:
            server.builder = functools.partial(_dirty_rebuild, config.config_file_path, config.site_dir,
                                               config.site_url, config.strict)
        return server

    @event_priority(-200)  # after every other plugin has finished this language's build
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        build = self._builds.pop(id(config))
        log.info(f"{build.lang}: built in {time.monotonic() - build.started:.1f} s")
        if build.primary:
            for lang in self.config.languages[1:]:
                self._build_language(config, lang, build.loaded)
            version = app.write_offline(config.site_dir, self.config.languages)
            log.info(f"service worker and offline lists written (version {version})")

    # ------------------------------------------------------------------ helpers
    def _root_of(self, build: _Build, lang: str) -> str:
        """The root of ``lang``'s pages, relative to the root of ``build``'s site_dir."""
        if build.primary:
            return f"{lang}/"
        return "" if lang == build.lang else f"../{lang}/"

    def _content_root(self, config: MkDocsConfig) -> str:
        base = os.path.dirname(config.config_file_path or "mkdocs.yml")
        if self.config.content:
            return os.path.join(base, self.config.content)
        return os.environ.get("KB_CONTENT") or os.path.join(base, "content")

    def _load(self, config: MkDocsConfig) -> _Loaded:
        root = self._content = self._content_root(config)
        if not os.path.isdir(root):
            raise PluginError(f"kb: content folder not found: {root}")
        kb = KnowledgeBase.load(root)
        warnings = 0
        for d in kb.diagnostics:
            if d.severity == "error" or self.config.fail_on_warnings:
                log.warning(d.format())
            else:
                warnings += 1
                log.debug(d.format())
        if warnings:
            log.info(f"{warnings} knowledge-base warning(s); 'kb check' lists them")
        results = kb.run_examples()
        for r in results:
            if not r.passed:
                log.warning(r.diagnostic().format())
        ok = sum(r.passed for r in results)
        log.info(f"{len(kb.entries)} entries loaded; {ok} of {len(results)} worked examples verified")
        return _Loaded(kb, results_by_entry(results))

    def _build_language(self, config: MkDocsConfig, lang: str, loaded: _Loaded) -> None:
        """Run a whole MkDocs build of ``lang`` into ``<site_dir>/<lang>`` from the same ``mkdocs.yml``."""
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        if not config.config_file_path:
            raise PluginError("kb: building the other languages needs the path of mkdocs.yml")
        sub = load_config(config.config_file_path, site_dir=os.path.join(config.site_dir, lang),
                          docs_dir=config.docs_dir, strict=config.strict,
                          site_url=(config.site_url + f"{lang}/") if config.site_url else None)
        plugin = next((p for p in sub.plugins.values() if isinstance(p, KnowledgeBasePlugin)), None)
        if plugin is None:  # pragma: no cover - the same mkdocs.yml lists the plugin
            raise PluginError("kb: the plugin is missing from the other language's configuration")
        plugin._seeds[id(sub)] = (lang, loaded)
        sub.theme["language"] = lang
        build(sub, dirty=self._dirty)  # plugins of this process are already started: no startup/shutdown events


def _url(path: str, directory_urls: bool) -> str:
    """The URL of page ``path`` (``a/b.md``) relative to its language's root."""
    stem = path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem if directory_urls else stem + "index.html"
    return f"{stem}/" if directory_urls else f"{stem}.html"


_UNUSED = ("assets/javascripts/lunr/", "assets/javascripts/workers/")


def _unused(src_uri: str) -> bool:
    """A theme file no page loads: the theme's search (lunr and its worker; the engine's search replaces
    it) and source maps."""
    return src_uri.startswith(_UNUSED) or src_uri.endswith(".map")


def _unmodified() -> bool:
    return False


def _dirty_rebuild(config_file: str, site_dir: str, site_url: str, strict: bool) -> None:
    """``mkdocs serve``'s rebuild, dirty: the configuration read afresh, only changed pages written."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file, site_dir=site_dir, strict=strict)
    config.site_url = site_url
    for plugin in config.plugins.values():  # the process's kb instance: its other languages' builds too
        if isinstance(plugin, KnowledgeBasePlugin):
            plugin._serving, plugin._dirty = True, True
    build(config, serve_url=site_url, dirty=True)


_NAV_START = '<nav class="md-nav md-nav--primary"'
_NAV_END = '<div class="md-sidebar md-sidebar--secondary"'
_SPACES = re.compile(r"\s+")


def _compact_nav(output: str) -> str:
    """The page with the theme's menu's runs of whitespace made single spaces (as a browser shows them).

    The menu lists the current kind's entries; its template's indentation was more than half its weight.
    """
    start = output.find(_NAV_START)
    end = output.find(_NAV_END, start)
    if start < 0 or end < 0:
        return output
    return output[:start] + _SPACES.sub(" ", output[start:end]) + output[end:]


def _redirect(langs: list[str], directory_urls: bool) -> str:
    """The root page: to the language the reader chose before (``localStorage``), else the first of the
    browser's languages the site has, else the first language; without scripts, links to each."""
    pages = {lg: f"{lg}/" if directory_urls else f"{lg}/index.html" for lg in langs}
    links = " · ".join(f'<a href="{url}" hreflang="{lg}">{LANGUAGES[lg]}</a>' for lg, url in pages.items())
    script = ("(function(){var p=" + json.dumps(pages) + ",l=null;"
              "try{l=localStorage.getItem('kb-lang')}catch(e){}"
              "if(!p[l]){var n=navigator.languages||[navigator.language||''];"
              "for(var i=0;i<n.length&&!p[l];i++){l=String(n[i]).slice(0,2).toLowerCase()}}"
              f"location.replace((p[l]||p[{json.dumps(langs[0])}])+location.hash)}})();")
    return (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{LANGUAGES[langs[0]]} · '
            f'{" · ".join(LANGUAGES[lg] for lg in langs[1:])}</title>'
            f'<script>{script}</script></head><body><p>{links}</p></body></html>\n')
