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
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from .api import KnowledgeBase
from .examples import ExampleResult
from .site import LANGUAGES, Site, build_site, nav_config, results_by_entry

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


class KnowledgeBasePlugin(BasePlugin[KnowledgeBaseConfig]):
    """Generates every page of the site from the knowledge base."""

    def __init__(self) -> None:
        self.lang: str | None = None
        """The language this build makes; ``None`` until ``on_config`` (then the first language)."""
        self.loaded: _Loaded | None = None
        """Set by the first build on the plugin of each later language's build."""
        self.site: Site | None = None
        self.started = 0.0
        self.command = "build"

    # ------------------------------------------------------------------ events
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        langs = self.config.languages
        if not langs or any(lg not in LANGUAGES for lg in langs):
            raise PluginError(f"kb: 'languages' must list some of {', '.join(LANGUAGES)}")
        self.lang = self.lang or langs[0]
        self.started = time.monotonic()
        if self.loaded is None:
            self.loaded = self._load(config)
        config.theme["language"] = self.lang
        self.site = build_site(self.loaded.kb, self.loaded.results, self.lang)
        config.nav = nav_config(self.site.nav, self._prefix)
        log.info(f"{self.lang}: building {len(self.site.pages)} pages")
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.site is not None
        for page in self.site.pages:
            files.append(File.generated(config, self._prefix + page.path, content=page.markdown))
        if self._primary:
            target = f"{self.lang}/" if config.use_directory_urls else f"{self.lang}/index.html"
            files.append(File.generated(config, "index.html", content=_redirect(target)))
        return files

    def on_page_context(self, context: dict[str, Any], *, page: Page, config: MkDocsConfig, nav: Any) -> dict[str, Any]:
        """Point the language switcher at this same page in every language."""
        rel = page.file.src_uri.removeprefix(self._prefix)
        url = _url(rel, config.use_directory_urls)
        config.extra["alternate"] = [
            {"name": LANGUAGES[lg], "lang": lg, "link": (self._root_of(lg) + url) or "./"}
            for lg in self.config.languages
        ]
        return context

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        server.watch(str(self._content_root(config)))
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        log.info(f"{self.lang}: built in {time.monotonic() - self.started:.1f} s")
        if not self._primary:
            return
        for lang in self.config.languages[1:]:
            self._build_language(config, lang)

    # ------------------------------------------------------------------ helpers
    @property
    def _primary(self) -> bool:
        return self.lang == self.config.languages[0]

    @property
    def _prefix(self) -> str:
        """Where this build puts its pages inside its site_dir: ``es/`` for the first language."""
        return f"{self.lang}/" if self._primary else ""

    def _root_of(self, lang: str) -> str:
        """The root of ``lang``'s pages, relative to this build's root."""
        first = self.config.languages[0]
        if self._primary:
            return f"{lang}/"
        return "" if lang == self.lang else ("../" + (f"{first}/" if lang == first else f"{lang}/"))

    def _content_root(self, config: MkDocsConfig) -> str:
        if self.config.content:
            return os.path.join(os.path.dirname(config.config_file_path or "."), self.config.content)
        if os.environ.get("KB_CONTENT"):
            return os.environ["KB_CONTENT"]
        return os.path.join(os.path.dirname(config.config_file_path or "."), "content")

    def _load(self, config: MkDocsConfig) -> _Loaded:
        root = self._content_root(config)
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

    def _build_language(self, config: MkDocsConfig, lang: str) -> None:
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
        plugin.lang, plugin.loaded = lang, self.loaded
        plugin.config.content, plugin.config.languages = self.config.content, self.config.languages
        sub.theme["language"] = lang
        sub.plugins.on_startup(command="build", dirty=False)
        try:
            build(sub)
        finally:
            sub.plugins.on_shutdown()


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
