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

import os
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
from kb.mkdocs_defaults import apply_defaults
from kb.examples.runner import ExampleResult
from kb.site.sanitise import sanitise
from kb.site.search_box import SearchData, data_name, meta_tag, search_data
from kb.site.structure import LANGUAGES, Site, build_site, nav_config, results_by_entry

__all__ = ["KnowledgeBasePlugin", "KnowledgeBaseConfig"]

log = get_plugin_logger(__name__)


class KnowledgeBaseConfig(Config):
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


class KnowledgeBasePlugin(BasePlugin[KnowledgeBaseConfig]):
    """Generates every page of the site from the knowledge base.

    MkDocs keeps one instance of a plugin that has startup hooks for every configuration it
    loads in a process (``mkdocs serve`` rebuilds, and the other languages' builds here), so the
    state of each build is kept per configuration object, never on the instance itself.
    """

    def __init__(self) -> None:
        self._builds: dict[int, _Build] = {}
        self._seeds: dict[int, tuple[str, _Loaded]] = {}
        self._content: str | None = None

    # ------------------------------------------------------------------ events
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Nothing to prepare: the knowledge base is loaded by each build (``on_config``)."""

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
        apply_defaults(config)
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
        for page in build.site.pages:
            files.append(File.generated(config, build.prefix + page.path, content=page.markdown))
        started = time.monotonic()
        build.search = search_data(build.loaded.kb, build.lang)
        files.append(File.generated(config, build.prefix + data_name(build.lang), content=build.search.script))
        log.info(f"{build.lang}: search data {len(build.search.script.encode()) / 1e6:.2f} MB "
                 f"in {time.monotonic() - started:.1f} s")
        if build.primary:
            target = f"{build.lang}/" if config.use_directory_urls else f"{build.lang}/index.html"
            files.append(File.generated(config, "index.html", content=_redirect(target)))
        return files

    @event_priority(-100)  # after every other plugin has changed the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """The last line: every page's HTML through the allow-list sanitiser (no script, no handler, no style)."""
        return sanitise(html)

    def on_page_context(self, context: TemplateContext, *, page: Page, config: MkDocsConfig,
                        nav: Navigation) -> TemplateContext:
        """Point the language switcher at this same page in every language."""
        build = self._builds[id(config)]
        url = _url(page.file.src_uri.removeprefix(build.prefix), config.use_directory_urls)
        config.extra["alternate"] = [
            {"name": LANGUAGES[lg], "lang": lg, "link": (self._root_of(build, lg) + url) or "./"}
            for lg in self.config.languages
        ]
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Tell the page where its language's search data is (read by ``kb-search.js``)."""
        build = self._builds[id(config)]
        if build.search is None or "</head>" not in output:
            return output
        tag = meta_tag(build.search, page.file.src_uri.removeprefix(build.prefix))
        return output.replace("</head>", tag + "</head>", 1)

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        server.watch(self._content or self._content_root(config))
        return server

    @event_priority(-200)  # after every other plugin has finished this language's build
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        build = self._builds.pop(id(config))
        log.info(f"{build.lang}: built in {time.monotonic() - build.started:.1f} s")
        if build.primary:
            for lang in self.config.languages[1:]:
                self._build_language(config, lang, build.loaded)

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
        build(sub)  # plugins of this process are already started: no startup/shutdown events here


def _url(path: str, directory_urls: bool) -> str:
    """The URL of page ``path`` (``a/b.md``) relative to its language's root."""
    stem = path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem if directory_urls else stem + "index.html"
    return f"{stem}/" if directory_urls else f"{stem}.html"


def _redirect(target: str) -> str:
    return (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>Redirecting</title>'
            f'<meta http-equiv="refresh" content="0; url={target}"></head>'
            f'<body><a href="{target}">{target}</a></body></html>\n')
