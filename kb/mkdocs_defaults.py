"""What the site's pages need from MkDocs, supplied by the ``kb`` plugin: a user's ``mkdocs.yml`` names only
the site and the plugin (``site_name: …`` and ``plugins: [kb]``); settings it does give are kept.

Applied in the plugin's ``on_config``: the Material theme (when the config left MkDocs' default theme),
the theme features the pages use, the Markdown extensions the generated Markdown is written for, the
site's stylesheet (its scripts are left to the plugin's loader), and file URLs that work from disk. And the
settings the theme prints into every page as text (:func:`as_text`): a ``mkdocs.yml`` is written by hand or copied,
and Material prints ``site_name`` raw in the header, the menu, the title and an ``aria-label``.
"""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from markupsafe import Markup, escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.theme import Theme

from kb.core.diagnostics import printable
from kb.core.locale import pgettext
from kb.site.sanitise import link, sanitise, url_problem

__all__ = ["ASSETS", "EXTENSIONS", "FEATURES", "SCRIPTS", "SITE_URL", "TEXTS", "apply_defaults", "as_text", "asset_files",
           "asset_names", "refused_setting", "set_site_url"]

ASSETS = Path(__file__).resolve().parent / "site" / "assets"
"""The site's static files (stylesheet, search scripts): added to every build whose docs_dir lacks them."""
SCRIPTS = ("kb-search-engine.js", "kb-search.js", "kb-palette.js", "kb-table.js", "kb-offline.js", "kb-stepper.js")
"""The search box (the engine's search in the browser), the light/dark toggle (the theme's palette component's work
without its style recomputations, issue 29), then the page helpers (copy-link, previews, keyboard tooltips, the
language switch keeping the anchor), the installable site, a sequence's stepper; docs/site.md. In load order: each
page's loader (``kb.site.app.script_loader``) adds them once the page has loaded, never as the theme's tags."""

FEATURES = ("navigation.indexes", "navigation.sections", "navigation.prune",
            "navigation.top", "navigation.tracking", "navigation.footer", "toc.follow")
"""Material features the generated pages rely on. Never ``content.tooltips``: it builds the tooltip of a cut-off
menu, contents, header or footer item with ``innerHTML`` from the item's text, so an escaped ``<svg/onload=…>``
in a title becomes live on hover or Tab; without it the theme writes the plain ``title`` attribute (text, shown
by the browser) and kb-table.js builds the glossary tooltips with ``textContent`` (docs/site.md)."""

THEME_FAVICON = "assets/images/favicon.png"
"""Material's own tab icon (its ``mkdocs_theme.yml``): a configuration that leaves it gets the app's icon instead."""

REFUSED = ("content.tooltips",)
"""Material features taken out even when a pack's mkdocs.yml asks for them: they turn content text into markup."""

EXTENSIONS: dict[str, dict[str, Any]] = {
    "abbr": {}, "admonition": {}, "attr_list": {}, "md_in_html": {}, "tables": {},
    "toc": {"permalink": True}, "pymdownx.details": {}, "pymdownx.superfences": {},
}
"""Markdown extensions the generated Markdown is written for, with their settings."""


SITE_URL = "http://127.0.0.1:8000/"
"""Where the site is read when neither ``mkdocs.yml`` (``site_url``) nor ``$KB_SITE_URL`` says: the address of
``mkdocs serve`` and of ``python3 -m http.server -d site``. The canonical links and sitemaps are absolute from it,
so a site put on a host of its own is built with ``KB_SITE_URL=https://host/path/`` (docs/site.md)."""


def set_site_url(config: MkDocsConfig) -> str:
    """The site's absolute URL, ending in ``/``: ``mkdocs.yml``'s ``site_url``, else ``$KB_SITE_URL``, else ``SITE_URL``."""
    url = config.site_url or os.environ.get("KB_SITE_URL") or SITE_URL
    config.site_url = url if url.endswith("/") else url + "/"
    return config.site_url


URL_SETTINGS = (("site_url",), ("repo_url",))
"""Addresses the theme prints raw into every page (the canonical link and, on the 404 page, every asset's; the
repository's link): an http(s) address with a host, no quote, ``<``, space… (:func:`~kb.site.sanitise.url_problem`).
Refused otherwise, never escaped nor dropped: the build makes absolute URLs from ``site_url`` (canonical links,
sitemaps), and an escaped address would be escaped again where the theme does escape."""
PATH_SETTINGS = (("edit_uri",), ("edit_uri_template",), ("theme", "logo"), ("theme", "favicon"))
"""Paths or addresses the theme prints raw (the edit link, the logo's ``<img src>``, the tab icon's ``<link href>``):
a path of the site or an http(s) address, by the same rule; so is each of ``extra_css``."""
FONT_SETTINGS = (("theme", "font", "text"), ("theme", "font", "code"))
"""Font names the theme prints raw into a Google Fonts ``<link>`` and an inline ``<style>``: :data:`FONT_NAME` only."""
FONT_NAME = re.compile(r"[A-Za-z0-9 +-]+")
ICON_NAME = re.compile(r"[a-z0-9-]+(/[a-z0-9-]+)*")
"""A theme icon's name (``material/weather-night``): the palette toggle's ``icon`` and each of ``theme.icon``, which
Material includes as the template ``.icons/<icon>.svg`` (a quote in one ended the build with "[Errno None] None")."""
ICON_LISTS = (("extra", "social"), ("extra", "analytics", "feedback", "ratings"))
"""Lists of ``extra`` whose items each name an ``icon`` Material includes (the social links, the feedback's ratings)."""
ICON_KEY = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
"""A ``theme.icon`` key's dotted name (``admonition.note``), which Material prints raw in an inline ``<style>``."""

Check = Callable[[Any], "str | None"]


def refused_setting(settings: Mapping[str, Any], where: str = "mkdocs.yml") -> str | None:
    """The first setting of ``settings`` (a loaded configuration, or ``mkdocs.yml``'s YAML as read) that the theme
    would print raw and that is not safe there, as one line naming ``where``, the setting and why (a ``site_url`` with
    ``"><img onerror>`` ran script on every page: audit-hostile3 1); None when none is. ``$KB_SITE_URL`` too, when
    ``site_url`` leaves the site's address to it (:func:`set_site_url`)."""
    for name, value, check in _checked(settings, where):
        problem = None if value is None or value is False or value == "" else check(value)
        if problem:
            return f"{name}: {printable(repr(value))} {problem}"
    return None


def _checked(settings: Mapping[str, Any], where: str) -> Iterator[tuple[str, Any, Check]]:
    """Each setting :func:`refused_setting` checks: its name as said, its value (None: not set), its check."""
    yield from ((f"{where}: {'.'.join(p)}", _setting(settings, p), url_problem) for p in URL_SETTINGS)
    relative: Check = partial(url_problem, relative=True)
    yield from ((f"{where}: {'.'.join(p)}", _setting(settings, p), relative) for p in PATH_SETTINGS)
    css = settings.get("extra_css")
    yield from ((f"{where}: extra_css[{n}]", item, relative) for n, item in enumerate(css if isinstance(css, list) else []))
    yield from ((f"{where}: {'.'.join(p)}", _setting(settings, p), _font_problem) for p in FONT_SETTINGS)
    yield f"{where}: theme.direction", _setting(settings, ("theme", "direction")), _direction_problem
    yield from _icon_settings(settings, where)
    if not settings.get("site_url"):
        yield "$KB_SITE_URL", os.environ.get("KB_SITE_URL"), url_problem


def _icon_settings(settings: Mapping[str, Any], where: str) -> Iterator[tuple[str, Any, Check]]:
    """The icons Material includes by name (``.icons/<icon>.svg``): the palette toggles', ``theme.icon``'s (their keys
    too, printed in an inline ``<style>``), the social links' and the feedback ratings'."""
    yield from ((f"{where}: theme.palette[{n}].toggle.icon", _setting(option, ("toggle", "icon")), _icon_problem)
                for n, option in enumerate(_palette(_setting(settings, ("theme", "palette")))))
    icons = list(_leaves(_setting(settings, ("theme", "icon"))))
    yield from ((f"{where}: theme.icon", name, _icon_key_problem) for name, _ in icons)
    yield from ((f"{where}: theme.icon.{name}", value, _icon_problem) for name, value in icons)
    for path in ICON_LISTS:
        items = _setting(settings, path)
        yield from ((f"{where}: {'.'.join(path)}[{n}].icon", _setting(item, ("icon",)), _icon_problem)
                    for n, item in enumerate(items if isinstance(items, list) else []))


def _setting(settings: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` (``theme``, ``font``, ``text``), None where a level is not a mapping (``theme: material``,
    ``font: false``)."""
    for key in path:
        settings = settings.get(key) if isinstance(settings, Mapping) else None
    return settings


def _palette(options: Any) -> list[Any]:
    """The options of a ``theme.palette`` (Material takes one mapping or a list of them)."""
    return options if isinstance(options, list) else [options] if isinstance(options, Mapping) else []


def _leaves(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Each value under a mapping (``theme.icon``: ``logo``, ``admonition.note``…) with its dotted name."""
    if not isinstance(value, Mapping):
        yield prefix.rstrip("."), value
        return
    for key, item in value.items():
        yield from _leaves(item, f"{prefix}{key}.")


def _direction_problem(direction: Any) -> str | None:
    """``theme.direction``, which Material prints raw in ``<body dir="…">`` of every page (``ltr" onload="…`` ran)."""
    return None if direction in ("ltr", "rtl") else "is not a writing direction: ltr or rtl"


def _icon_key_problem(name: str) -> str | None:
    """A ``theme.icon`` key, which Material prints raw in an inline ``<style>`` (``--md-admonition-icon--<key>``)."""
    return None if ICON_KEY.fullmatch(name) else "is not an icon setting's name: letters, digits, - and _ only"


def _icon_problem(name: Any) -> str | None:
    return None if isinstance(name, str) and ICON_NAME.fullmatch(name) else (
        "is not an icon's name: lower-case letters, digits, - and / only")


def _font_problem(name: Any) -> str | None:
    return None if isinstance(name, str) and FONT_NAME.fullmatch(name) else (
        "is not a font's name: letters, digits, spaces, + and - only")


def palette(lang: str) -> list[dict[str, Any]]:
    """Material's light/dark palette with its toggle named in ``lang``, following the system's setting at first."""
    return [
        {"media": "(prefers-color-scheme: light)", "scheme": "default",
         "toggle": {"icon": "material/weather-night", "name": pgettext(lang, "site", "dark_mode")}},
        {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
         "toggle": {"icon": "material/weather-sunny", "name": pgettext(lang, "site", "light_mode")}},
    ]


def apply_defaults(config: MkDocsConfig, lang: str = "es", favicon: str | None = None) -> None:
    """Fill in what ``config`` leaves unsaid (never overriding what it says); interface words in ``lang``; ``favicon``
    (a path in the site) the tab's icon unless the configuration names one of its own."""
    if config.theme.name not in (None, "mkdocs", "material"):
        return _extensions(config)  # a theme chosen on purpose is left alone
    if config.theme.name != "material":
        config.theme = Theme(name="material", language=config.theme["locale"].language, font=False,
                             features=list(FEATURES))
    _theme(config, lang, favicon)
    config.extra.setdefault("generator", False)  # no English "Made with Material for MkDocs" on Spanish pages
    _extensions(config)
    _assets(config)
    config.use_directory_urls = False  # pages open from disk as a.html


TEXTS = ("site_name", "site_description", "site_author", "repo_name")
"""Settings MkDocs reads as plain text that the themes print without escaping: Material writes ``site_name`` raw in
the header's and the menu's titles, the page's ``<title>`` and the logo's ``aria-label``, ``site_description`` and
``site_author`` in ``<meta>`` attributes, ``repo_name`` beside the repository link. The palette's strings (:func:`_escaped`) are escaped too."""


def as_text(config: MkDocsConfig) -> None:
    """The settings of :data:`TEXTS` escaped once for the theme (a :class:`~markupsafe.Markup`, so the places that do
    escape, ``title="{{ config.site_name | e }}"``, leave it as it is): ``<b>`` or ``"`` in a site's name shows as
    typed on every page, never as a tag or the end of an attribute. ``copyright``, which Material documents as HTML
    (``&copy;``, a link), keeps only what the pages' allow-list keeps (:func:`kb.site.sanitise.sanitise`): no
    script, no handler, no ``javascript:`` link."""
    for key in TEXTS:
        if isinstance(config[key], str):
            config[key] = escape(config[key])
    if isinstance(config.copyright, str) and not isinstance(config.copyright, Markup):
        config.copyright = Markup(sanitise(config.copyright))
    _extra_as_text(config)
    if "palette" in config.theme:
        config.theme["palette"] = _escaped(config.theme["palette"])


def _escaped(value: Any) -> Any:
    """Every string in ``value`` escaped once: the palette's media query, colours and toggle's name, which Material
    prints raw into attributes (``aria-label="{{ option.toggle.name }}"``) of every page, from mkdocs.yml or from the
    catalog's ``dark_mode``/``light_mode``."""
    if isinstance(value, Mapping):
        return {key: _escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_escaped(item) for item in value]
    return escape(value) if isinstance(value, str) else value


EXTRA_HTML = frozenset({("consent", "description"), ("analytics", "feedback", "ratings", "*", "note")})
"""``extra`` fields Material documents as HTML (the cookie consent's description, a feedback rating's note with its
link): they keep what the pages' allow-list keeps (:func:`kb.site.sanitise.sanitise`)."""
EXTRA_LINKS = frozenset({("homepage",), ("social", "*", "link"), ("alternate", "*", "link")})
"""``extra`` fields Material prints raw as an ``href``: a relative, http(s) or mailto link (:func:`~kb.site.sanitise.link`),
else left out (the logo's link falls back to the home page)."""
EXTRA_SCRIPT = frozenset({("scope",), ("analytics", "property")})
"""``extra`` fields Material prints raw inside a JavaScript string of an inline script (the storage scope, the analytics
id): only the characters of a path or an id (:data:`SCRIPT_SAFE`), else left out (the theme's default)."""
SCRIPT_SAFE = re.compile(r"[\w./:~%@+-]*", re.ASCII)
EXTRA_LEFT = frozenset({"annotate", "version", "polyfills"})
"""``extra`` settings Material never prints as text: JSON (its ``tojson`` escapes ``<`` and quotes), script URLs
(``script_tag``, the pack author's code as ``extra_javascript`` is)."""


def _extra_as_text(config: MkDocsConfig) -> None:
    """Every string of ``extra`` that Material prints raw (the cookie consent's title, cookie names and actions, the
    social links' names, the status and tag names, the feedback's texts; the keys too, which it prints as a cookie's
    ``name``) escaped once, but :data:`EXTRA_HTML` sanitised, :data:`EXTRA_LINKS` checked as links and
    :data:`EXTRA_SCRIPT` checked as script strings: a consent title with ``<img onerror>``, a ``javascript:``
    social link or a scope with a ``"`` shows as text or is left out, never runs (docs/packs.md)."""
    for key in [k for k in config.extra if k not in EXTRA_LEFT]:
        value = _extra(config.extra[key], (key,))
        if value is None:
            del config.extra[key]
        else:
            config.extra[key] = value


def _extra(value: Any, path: tuple[str, ...]) -> Any:
    """``value`` (the setting at ``path`` in ``extra``, ``*`` for a list's item) safe to print raw; ``None``: left out."""
    if isinstance(value, dict):
        return _extra_dict(value, path)
    if isinstance(value, list):
        return [item for item in (_extra(v, (*path, "*")) for v in value) if item is not None]
    if isinstance(value, str) and not isinstance(value, Markup):
        return _extra_text(value, path)
    return value


def _extra_dict(value: dict[Any, Any], path: tuple[str, ...]) -> dict[Any, Any]:
    """A mapping of ``extra`` with its keys escaped too (Material prints a cookie's key as its ``name``)."""
    pairs = ((key, _extra(item, (*path, str(key)))) for key, item in value.items())
    return {escape(key) if isinstance(key, str) else key: item for key, item in pairs if item is not None}


def _extra_text(text: str, path: tuple[str, ...]) -> str | None:
    if path in EXTRA_HTML:
        return Markup(sanitise(text))
    if path in EXTRA_LINKS:
        url = link(text)
        return None if url is None else escape(url)
    if path in EXTRA_SCRIPT:
        return text if SCRIPT_SAFE.fullmatch(text) else None
    return escape(text)


def _theme(config: MkDocsConfig, lang: str, favicon: str | None) -> None:
    """Material's features (ours added, the refused ones taken out), a palette when none is said, and the app's icon
    as the tab's when the configuration keeps the theme's own (Material's logo: the installed app showed a die)."""
    features = config.theme["features"] if "features" in config.theme else []
    config.theme["features"] = [f for f in features if f not in REFUSED] + [f for f in FEATURES if f not in features]
    if not config.theme.get("palette"):
        config.theme["palette"] = palette(lang)
    if favicon and config.theme.get("favicon") in (None, THEME_FAVICON):
        config.theme["favicon"] = favicon


def _assets(config: MkDocsConfig) -> None:
    """Our stylesheet, after those the configuration lists; our scripts (``SCRIPTS``) out of the theme's list, where a
    ``mkdocs.yml`` names them: the plugin's loader adds them to each page once it has loaded
    (``kb.site.app.script_loader``), so that none is requested before the first paint (issue 29)."""
    if "kb.css" not in config.extra_css:  # the files come from docs_dir, else from the package (asset_files)
        config.extra_css.append("kb.css")
    config.extra_javascript[:] = [s for s in config.extra_javascript if str(s) not in SCRIPTS]


def _extensions(config: MkDocsConfig) -> None:
    for name, settings in EXTENSIONS.items():
        if name not in config.markdown_extensions:
            config.markdown_extensions.append(name)
            if settings:
                config.mdx_configs.setdefault(name, dict(settings))


def asset_names() -> frozenset[str]:
    """The names of the package's assets (``ASSETS``): the site's stylesheet and scripts."""
    return frozenset(path.name for path in ASSETS.iterdir() if path.is_file())


def asset_files(files: Files, config: MkDocsConfig) -> None:
    """Add the package's assets (``ASSETS``) that the docs_dir does not hold itself, so every page keeps its
    stylesheet and scripts whatever the pack's ``docs/`` holds (nothing, or a ``kb.css`` of its own)."""
    for path in sorted(ASSETS.iterdir()):
        if path.is_file() and files.get_file_from_path(path.name) is None:
            files.append(File(path.name, src_dir=str(ASSETS), dest_dir=config.site_dir,
                              use_directory_urls=config.use_directory_urls))
