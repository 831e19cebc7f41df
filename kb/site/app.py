"""The installable site: each language's web app manifest and icons, and, once every language is
built, the service worker and each language's list of what saving a game for offline play stores.

- ``<lang>/manifest.webmanifest``: the app's name in that language, its icons, theme colour and start
  page (the language's home), scope the whole site.
- ``kb-icon-192.png``, ``kb-icon-512.png`` (at the site's root, one copy for every language; in ``<lang>/`` for a
  language built alone that is not the first): a die's face, drawn here (no image file to keep); the 192 one is
  also the pages' tab icon (the theme's ``favicon``); ``kb-icon-maskable-192.png``, ``-512.png``: the same face with
  its pips inside the safe zone, for launchers that cut the icon to a circle or another shape.
- ``kb-sw.js`` (the site's root): ``worker/kb-sw.js`` with this build's version, a hash of every other
  file of the site, so that a new build is a new worker whose caches replace the old ones, each
  language's offline pages (:func:`offline_page`), which it shows offline for a page saved nowhere or no page at all,
  and each language's games and pages outside the games' folders, by which it tells the two apart.
- ``<lang>/kb-offline.json``: the version and, per game, its name and the files its saved copy holds (its
  pages, the language's home and concept map when its pages link there, search data, tooltips and the pages'
  styles and scripts) with their sizes and each file's content hash; apart, the calculators' runtime (``runtime``: its
  files, 9 MB), which a game whose pages have a calculator the page's Python answers (its ``runtime``: true) offers to
  save too, by a second button (docs/site.md, "Installable and offline").
- each game's page, ``<lang>/<game>/index.html``: the save buttons' words and sizes (:func:`offline_meta`, the sizes
  written in by :func:`write_offline`), so that a visit sizes the buttons without fetching the list.

Pure apart from :func:`write_offline`, which reads the built site and writes into it.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any, Iterable, NamedTuple
from urllib.parse import quote

from kb.core.files import Ours, atomic_write
from kb.core.locale import decimal_mark, pgettext
from kb.site.calc_runtime import FOLDER as RUNTIME

__all__ = ["MANIFEST", "ICONS", "ICON_FILES", "FAVICON", "SAFE_ZONE", "THEME_COLOUR", "WORKER", "MARK", "ours", "manifest", "icon_png", "manifest_links", "offline_meta", "write_offline", "without_alternates", "defer_theme_bundle", "own_palette", "script_loader"]

MANIFEST = "manifest.webmanifest"
ICONS = (192, 512)
FAVICON = 192
"""The size of the icon the pages show in the browser's tab (``favicon``): the app's own die, not the theme's."""
SAFE_ZONE = 0.4
"""The radius, as a share of the side, of the circle a launcher always keeps of a ``maskable`` icon (W3C manifest
spec, "icon masks"): the maskable icons' pips stay well inside it (:func:`icon_png`)."""
_MASKABLE_SCALE = 0.7
"""How much closer to the centre a maskable icon draws the pips (their far edge at 0.26 of the side from it)."""
THEME_COLOUR = "#4051b5"
"""Material's default primary colour (indigo), the header's."""
WORKER = "kb-sw.js"
OFFLINE = "kb-offline.json"
MARK = ".kb-site"
"""The file every build of a site writes at its folder's top: a build replaces a folder only when it has one (or is
empty, or is not there), so a mistyped site folder never takes a folder of the user's with it (:func:`ours`)."""
OFFLINE_LABELS = ("offline_save", "offline_saving", "offline_saved", "offline_saved_button", "offline_update",
                  "offline_failed", "offline_no_connection", "offline_full", "offline_full_title")
IN_PAGE = b"data-kb-py="
"""What a calculator the page's Python answers carries in its page (kb/site/calc.py:form_html): a game whose pages
have one offers to save the runtime with it."""
CONCEPTS = "concepts.html"
HASH = 12
"""Hex digits of SHA-256 that name a file's bytes in ``kb-offline.json``'s ``hashes`` (kb-sw.js compares them)."""
_SOURCE = Path(__file__).resolve().parent / "worker" / WORKER
_SKIP = (".map", ".gz", "sitemap.xml", "robots.txt")


def ours(content: Path | None, project: Path) -> Ours:
    """The folders a site build may replace: marked (:data:`MARK`), or a site built before marks (it has the service
    worker, and the new build writes every name at its top); never one that is or holds the ``content`` folder, the
    ``project`` (the folder of ``mkdocs.yml``) or a ``.git``."""
    keep = (("the content folder", content),) if content is not None else ()
    return Ours(MARK, (*keep, ("the folder of mkdocs.yml", project)), before=WORKER)


def icon_name(size: int, maskable: bool = False) -> str:
    return f"kb-icon-{'maskable-' if maskable else ''}{size}.png"


ICON_FILES = tuple(icon_name(size, maskable) for maskable in (False, True) for size in ICONS)
"""The app's icons, the same in every language: one copy at the site's root when the first language is built with the
others (each language's manifest and pages point there), else in the language's own folder."""


def manifest(lang: str, icons: str = "") -> str:
    """The web app manifest of ``lang``'s pages (it sits at the language's root); ``icons``: the icons' folder relative
    to it (``../``: the site's root, the one copy every language's manifest names)."""
    name = pgettext(lang, "site", "site")
    data = {
        "id": f"/{lang}/", "name": name, "short_name": pgettext(lang, "site", "app_name"),
        "description": pgettext(lang, "site", "intro"), "lang": lang, "dir": "ltr",
        "start_url": "./index.html", "scope": "../", "display": "standalone",
        "theme_color": THEME_COLOUR, "background_color": "#ffffff",
        "icons": [{"src": icons + icon_name(s, maskable), "sizes": f"{s}x{s}", "type": "image/png",
                   "purpose": "maskable" if maskable else "any"} for maskable in (False, True) for s in ICONS],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def manifest_links(root: str, icon: str) -> str:
    """The head's links of a page whose language root is ``root`` (``../`` …); ``icon``: the 192 px icon's address from
    the page (the site root's copy, when there is one)."""
    return (f'<link rel="manifest" href="{root}{MANIFEST}">'
            f'<meta name="theme-color" content="{THEME_COLOUR}">'
            f'<link rel="apple-touch-icon" href="{icon}">')


@functools.lru_cache(maxsize=None)
def icon_png(size: int, maskable: bool = False) -> bytes:
    """A die's face showing five, white on the theme colour, ``size`` pixels square (PNG); ``maskable``: the pips drawn
    closer to the centre, well inside the :data:`SAFE_ZONE` a launcher's mask keeps, the colour reaching every edge."""
    bg = bytes.fromhex(THEME_COLOUR[1:])
    scale = _MASKABLE_SCALE if maskable else 1.0
    pips = [(0.5 + (x - 0.5) * scale, 0.5 + (y - 0.5) * scale) for x, y in
            [(0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)]]
    radius = 0.085 * scale * size
    rows = []
    for y in range(size):
        row = bytearray(bg * size)
        for px, py in pips:
            dy = y + 0.5 - py * size
            if dy * dy <= radius * radius:
                half = (radius * radius - dy * dy) ** 0.5
                lo, hi = max(0, round(px * size - half)), min(size, round(px * size + half))
                row[3 * lo:3 * hi] = b"\xff" * (3 * (hi - lo))
        rows.append(b"\x00" + bytes(row))  # filter: none

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def _files(root: Path, below: Path, skip: Iterable[Path] = ()) -> list[Path]:
    """The files under ``below`` (not under ``skip``), sorted, leaving out maps, gzip copies, sitemaps and robots.txt."""
    out = []
    skipped = tuple(skip)
    for dirpath, dirnames, filenames in os.walk(below):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if here / d not in skipped)
        out += [here / f for f in sorted(filenames) if not f.endswith(_SKIP)]
    return out


_H1 = re.compile(r"<h1\b")
_TAG = re.compile(r"<[^<>]*>")
"""A tag, as the heading's text drops it (``[^<>]``: no scan past the next ``<``, so a run of ``<`` costs one pass)."""


def _first_heading(page: str) -> str | None:
    """The HTML of ``page``'s first ``<h1>``, up to its ``</h1>`` or its permalink, if it has one. Found with ``find``,
    in one pass: the regular expression it replaces scanned to the end of the page from every ``<h1``, so a ``docs/``
    page of 80 KB of ``<h1>`` held the build 45 s (and 1 MB hours)."""
    at = _H1.search(page)
    start = page.find(">", at.end()) + 1 if at else 0
    if start <= 0:
        return None
    ends = [i for i in (page.find('<a class="headerlink"', start), page.find("</h1>", start)) if i >= 0]
    return page[start:min(ends)] if ends else None


class _Read(NamedTuple):
    """What a build takes from one file of the site, read once (:func:`_facts`)."""
    digest: str
    """The hex SHA-256 of its bytes: the version is made of every file's, the offline lists keep :data:`HASH` digits."""
    concepts: bool
    """A page (``.html``) that links the concept map."""
    in_page: bool
    """A page (``.html``) with a calculator its page's Python answers (:data:`IN_PAGE`)."""
    title: str | None
    """An ``index.html``'s first heading's text (:func:`_first_heading`: a game's name), ``None`` when it has none or
    is another file (no other page's title is asked: not read for nothing)."""


def _read(path: Path, data: bytes | None = None) -> _Read:
    """``path``'s :class:`_Read`, from one read of its bytes (``data``: those bytes, read already)."""
    data = path.read_bytes() if data is None else data
    if path.suffix != ".html":
        return _Read(hashlib.sha256(data).hexdigest(), False, False, None)
    found = _first_heading(data.decode("utf-8", "replace")) if path.name == "index.html" else None
    title = html.unescape(_TAG.sub("", found)).strip() if found is not None else None
    return _Read(hashlib.sha256(data).hexdigest(), CONCEPTS.encode() in data, IN_PAGE in data, title)


def _facts(path: Path, reads: dict[Path, _Read]) -> _Read:
    """``path``'s :class:`_Read`, read once per build: kept in ``reads``, the build's table."""
    if path not in reads:
        reads[path] = _read(path)
    return reads[path]


def _version(site: Path, reads: dict[Path, _Read]) -> str:
    """A hash of every file of the site but the worker (its path and its bytes' hash), from the build's table: the
    offline lists take their hashes from the same reads, so no file is read twice."""
    digest = hashlib.sha256()
    for path in _files(site, site):
        if path.name != WORKER:
            digest.update(str(path.relative_to(site)).encode() + b"\0" + _facts(path, reads).digest.encode() + b"\0")
    return digest.hexdigest()[:16]


def _game_name(index: Path, reads: dict[Path, _Read] | None = None) -> str:
    """The title of a game's built ``index.html`` (its folder's name when it has none)."""
    title = _facts(index, {} if reads is None else reads).title
    return index.parent.name if title is None else title


def _url_path(path: Path, home: Path) -> str:
    """``path`` as a URL relative to ``home``, percent-encoded: the scripts resolve the list's paths as URLs, where a
    file name's ``%``, ``#`` or ``?`` would mean something else (``docs/a#b.css`` fetched ``a``)."""
    return quote(os.path.relpath(path, home).replace(os.sep, "/"), safe="/")


def _game_dirs(home: Path, games: Iterable[str] | None) -> list[Path]:
    """The games' folders in a language's site: each folder with an ``index.html`` that is a game's (``games``: the
    knowledge base's; a pack's ``docs/x/index.html`` is no game), every such folder when they are not said."""
    named = None if games is None else set(games)
    return [d for d in home.iterdir() if d.is_dir() and (d / "index.html").is_file() and (named is None or d.name in named)]


def offline_index(site: Path, lang: str, langs: list[str], version: str,
                  reads: dict[Path, _Read] | None = None, game_ids: Iterable[str] | None = None) -> dict[str, Any]:
    """What saving each game of ``lang`` stores: paths relative to the language's root, with sizes. The files
    outside the game's folder are the same for every game (kb-sw.js keeps one copy of them). ``hashes``: each
    listed file's bytes (the first :data:`HASH` hex digits of its SHA-256), so that a new build's worker takes a
    file whose bytes did not change from the copy an older build saved instead of fetching it again. ``reads``: the
    build's table of files already read (:func:`_facts`), filled here; :func:`write_offline` hands every language the
    one :func:`_version` filled, so no file is read again (not even one both languages list, the calculators' runtime)."""
    reads = {} if reads is None else reads
    home = site / lang
    game_dirs = _game_dirs(home, game_ids)
    shell, runtime = _shared(site, home, langs, game_dirs)
    games = {}
    hashes: dict[str, str] = {}
    for game in sorted(d.name for d in game_dirs):
        games[game], listed = _game_entry(home, game, shell, bool(runtime), reads)
        hashes.update((rel, _facts(p, reads).digest[:HASH]) for rel, p in listed if rel not in hashes)
    out: dict[str, Any] = {"version": version, "lang": lang, "games": games, "hashes": hashes}
    if runtime:
        listed = [(_url_path(p, home), p) for p in runtime]
        out["runtime"] = {"files": [[rel, p.stat().st_size] for rel, p in listed],
                          "bytes": sum(p.stat().st_size for p in runtime)}
        hashes.update((rel, _facts(p, reads).digest[:HASH]) for rel, p in listed)
    return out


def _shared(site: Path, home: Path, langs: list[str], game_dirs: list[Path]) -> tuple[list[Path], list[Path]]:
    """The files every game of the language at ``home`` uses, but for its pages: the language's data and, at the
    site's root, the styles and scripts (the theme's and ours, one copy that every language's pages load); and apart,
    the calculators' runtime (saved by the second button)."""
    found = _files(site, site, [site / lg for lg in langs]) + _files(site, home, game_dirs)
    shell = [p for p in found if p.suffix != ".html" and p.name not in (WORKER, OFFLINE, MARK)]  # the marker: not the site
    runtime = [p for p in shell if _in_runtime(p, site, home)]
    return [p for p in shell if p not in runtime], runtime


def _in_runtime(path: Path, site: Path, home: Path) -> bool:
    """Whether ``path`` is a file of the calculators' runtime: under the site's ``kb-py/`` (one copy for every
    language) or the language's own (a language built alone)."""
    return any(path.is_relative_to(top / RUNTIME) for top in (site, home))


def _pages(home: Path, own: list[Path], reads: dict[Path, _Read]) -> list[Path]:
    """A game's files (``own``) with the language's home and, when one of its pages links there, the concept map."""
    linked = (home / CONCEPTS).is_file() and any(_facts(p, reads).concepts for p in own)
    return [home / "index.html"] + ([home / CONCEPTS] if linked else []) + own


def _game_entry(home: Path, game: str, shell: list[Path], runtime: bool,
                reads: dict[Path, _Read]) -> tuple[dict[str, Any], list[tuple[str, Path]]]:
    """A game's part of the offline list (its name, files with sizes, their sum; ``runtime``: true when a page of it
    has a calculator the page's Python answers and the site has the runtime to save with it) and its files, each
    as (path in the list, file); ``reads``: the build's table (:func:`_facts`)."""
    own = _files(home, home / game)
    listed = [(_url_path(p, home), p) for p in _pages(home, own, reads) + shell]
    sizes = [(rel, p.stat().st_size) for rel, p in listed]
    entry = {"name": _game_name(home / game / "index.html", reads), "files": [list(f) for f in sizes],
             "bytes": sum(size for _, size in sizes)}
    if runtime and any(_facts(p, reads).in_page for p in own):
        entry["runtime"] = True
    return entry, listed


_FALLBACK_SCRIPT = "".join(line.strip() for line in """(function (games) {
  var lang = document.documentElement.lang, path = location.pathname, at = path.lastIndexOf("/" + lang + "/");
  var root = at < 0 ? "" : path.slice(0, at + lang.length + 2), game = at < 0 ? "" : path.slice(root.length).split("/")[0];
  if (at >= 0) document.getElementById("kb-home").href = root + "index.html";
  document.getElementById("kb-back").addEventListener("click", function (ev) {
    if (history.length > 1) { ev.preventDefault(); history.back(); }
  });
  if (Object.prototype.hasOwnProperty.call(games, game)) {
    var line = document.getElementById("kb-game"), link = line.querySelector("a");
    link.href = root + game + "/index.html";
    link.textContent = games[game];
    line.hidden = false;
  }
})(__GAMES__);""".splitlines())


OFFLINE_CASES = {"unsaved": "offline_page", "missing": "offline_missing"}
"""The worker's offline pages: a page saved nowhere, and a page of a saved game that its copy does not hold (no page
of the game: a wrong link; kb-sw.js tells them apart). Each one's words: ``<prefix>_title``, ``_text``, ``_game``."""


def offline_page(lang: str, games: dict[str, str], case: str = "unsaved") -> str:
    """The page the worker shows, offline, for a page of ``lang`` saved nowhere (it answers at that page's
    address): no connection and not saved, which game's button saves it (``games``: id -> name; the game is
    read from the address), a link back and one to the language's home (saved with every game); ``case``
    ``"missing"``: the game is saved and the page is not in its copy (no such page: the game's line names it). Its own
    small style, no theme file: it must show whatever is stored. It is no file of the site (no sitemap, no theme): the
    worker holds it."""
    def say(key: str) -> str:
        return html.escape(pgettext(lang, "site", key))
    words = OFFLINE_CASES[case]
    before, _, after = say(f"{words}_game").partition("{game}")
    data = json.dumps(games, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>{say(f"{words}_title")}</title><meta name="theme-color" content="{THEME_COLOUR}">'
            "<style>body{font:1rem/1.5 system-ui,sans-serif;margin:0 auto;max-width:36rem;padding:1.5rem 1rem;"
            f"color:#222;background:#fff}}h1{{font-size:1.4rem}}a{{color:{THEME_COLOUR}}}</style></head><body><main>"
            f'<h1>{say(f"{words}_title")}</h1><p>{say(f"{words}_text")}</p>'
            f'<p id="kb-game" hidden>{before}<a href="index.html"></a>{after}</p>'
            f'<p><a id="kb-back" href="index.html">{say("offline_page_back")}</a> · '
            f'<a id="kb-home" href="index.html">{say("offline_page_home")}</a></p>'
            f"</main><script>{_FALLBACK_SCRIPT.replace('__GAMES__', data)}</script></body></html>\n")


def _outside_pages(site: Path, lang: str, games: Iterable[str] | None) -> list[str]:
    """The pages of ``lang`` outside every game's folder (the home, the concept map, a pack's own pages…), as URLs
    relative to the language's root: offline, the worker tells such a page, not saved, from an address of no page."""
    home = site / lang
    return [_url_path(p, home) for p in _files(site, home, _game_dirs(home, games)) if p.suffix == ".html"]


SIZE_WIDTH = 15
"""Characters of each size a game's page says (``data-kb-bytes``, ``data-kb-runtime``: spaces, then the digits): the
page keeps its length when :func:`write_offline` writes the sizes in, so the sizes listed, its own among them, stay
true."""
_SIZES = re.compile(rb'(<meta name="kb-offline" [^<>]*?data-kb-bytes=")[ 0-9]{%d}(" data-kb-runtime=")[ 0-9]{%d}"'
                    % (SIZE_WIDTH, SIZE_WIDTH))


def _button_words(lang: str) -> dict[str, Any]:
    """The save buttons' words and the decimal mark of their sizes (kb-offline.js: no ``Intl`` at load)."""
    return {"lang": lang, "decimal": decimal_mark(lang), "labels": {k: pgettext(lang, "site", k) for k in OFFLINE_LABELS}}


def offline_meta(lang: str) -> str:
    """The ``<meta>`` of a game's page that gives kb-offline.js the save buttons' words and sizes (the game's, and the
    calculators' runtime's when the game offers it, else 0), so that a visit does not fetch the offline list
    (``kb-offline.json``, 86 KB on the bundled site, fetched on every game's page just to size the buttons:
    audit-phone3 D8). The sizes are 0 until :func:`write_offline` writes them in, once every file is built
    (:data:`SIZE_WIDTH`). The words are the catalogue's, escaped for the attribute here."""
    words = html.escape(json.dumps(_button_words(lang), ensure_ascii=False, separators=(",", ":")), quote=True)
    zero = "0".rjust(SIZE_WIDTH)
    return f'<meta name="kb-offline" content="{words}" data-kb-bytes="{zero}" data-kb-runtime="{zero}">'


def _sized(raw: bytes, game: int, runtime: int) -> bytes:
    """A game's page (``raw``) with its :func:`offline_meta`'s sizes set to ``game`` and ``runtime`` bytes."""
    def field(n: int) -> bytes:
        return str(n).rjust(SIZE_WIDTH).encode()
    return _SIZES.sub(lambda m: m[1] + field(game) + m[2] + field(runtime) + b'"', raw, count=1)


def _write_sizes(site: Path, lang: str, langs: list[str], games: Iterable[str] | None, reads: dict[Path, _Read]) -> None:
    """Each game's page of ``lang`` with what saving the game stores (:func:`offline_meta`), written anew only when a
    size changed; the build's table (``reads``) takes each page as it is now, from the bytes read or written here
    (each file read once per build)."""
    raw = {d.name: (d / "index.html").read_bytes() for d in _game_dirs(site / lang, games)}
    for game, data in raw.items():
        reads[site / lang / game / "index.html"] = _read(site / lang / game / "index.html", data)
    index = offline_index(site, lang, langs, "", reads, games)
    runtime = index.get("runtime", {}).get("bytes", 0)
    for game, entry in index["games"].items():
        page = site / lang / game / "index.html"
        sized = _sized(raw[game], entry["bytes"], runtime if entry.get("runtime") else 0)
        if sized != raw[game]:
            atomic_write(page, sized)
            reads[page] = _read(page, sized)


def write_offline(site_dir: str, langs: list[str], games: Iterable[str] | None = None) -> str:
    """Write each game's sizes into its page (:func:`offline_meta`), then the service worker (with each language's
    offline page) and each language's offline index into the built site; the version. ``games``: the knowledge base's
    games (else every folder with an ``index.html``)."""
    site = Path(site_dir)
    reads: dict[Path, _Read] = {}  # one table for the version and every language: each file read once per build
    for lang in langs:  # first: the version and the hashes are of the pages as written
        if (site / lang).is_dir():
            _write_sizes(site, lang, langs, games, reads)
    version = _version(site, reads)
    pages, known = {}, {}
    for lang in langs:
        if (site / lang).is_dir():
            index = offline_index(site, lang, langs, version, reads, games)
            atomic_write(site / lang / OFFLINE, (json.dumps(index, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
            names = {game: entry["name"] for game, entry in index["games"].items()}
            pages[lang] = {case: offline_page(lang, names, case) for case in OFFLINE_CASES}
            known[lang] = {"games": sorted(names), "pages": _outside_pages(site, lang, games)}
    source = _SOURCE.read_text(encoding="utf-8").replace("__KB_VERSION__", version)
    source = source.replace("__KB_SITE__", json.dumps(known, ensure_ascii=False))
    atomic_write(site / WORKER, source.replace("__KB_PAGES__", json.dumps(pages, ensure_ascii=False)).encode())
    return version


_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[a-z-]+">\n?')


def without_alternates(page: str) -> str:
    """``page`` without the theme's ``<link rel="alternate" hreflang>`` tags in its head. For each of them
    Material fetches ``sitemap.xml`` in the folder of the linked page (``es/malifaux/sitemap.xml``), which no
    site has: two failed fetches on every page (issue 29). The header's language switcher, built from the
    same ``extra.alternate``, stays."""
    return _ALTERNATE.sub("", page)


_BUNDLE = re.compile(r'(<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js")>')
_SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc=[^>]*>")


def defer_theme_bundle(block: str) -> str:
    """The theme's ``scripts`` block with Material's bundle ``defer``red: a parser-blocking script at the end of
    ``<body>`` made Lighthouse count the bundle as render-blocking, 0.7 s of simulated first paint on the home page,
    in one run in two (issue 29). Deferred scripts run in document order once the page is parsed, so the bundle still
    runs before the theme's ``DOMContentLoaded``; left as it is when a script after it is neither ``defer`` nor
    ``async`` (a pack's own, which may need the theme when it runs). Ours are not in the block: the page's loader
    adds them once the page has loaded (:func:`script_loader`)."""
    match = _BUNDLE.search(block)
    if not match:
        return block
    after = _SCRIPT_SRC.findall(block[match.end():])
    if any(" defer" not in tag and " async" not in tag for tag in after):
        return block
    return block[:match.end() - 1] + " defer>" + block[match.end():]


_LOADER = "".join(line.strip() for line in """(function (urls) {
  var early = window.kbEarly = [], started = false, held = false;
  function keep(ev) {
    if (window.kbEarly !== early) return;
    var t = ev.target, field = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    held = held || (!field && !(ev.ctrlKey || ev.metaKey || ev.altKey) && /^[/sS]$/.test(ev.key));
    if (held) { ev.preventDefault(); ev.stopPropagation(); }
    early.push(ev);
    start();
  }
  function start() {
    if (started) return;
    started = true;
    urls.forEach(function (url, i) {
      var tag = document.createElement("script");
      tag.src = url;
      tag.async = false;
      if (i === urls.length - 1) tag.onload = tag.onerror = function () { document.removeEventListener("keydown", keep, true); };
      document.body.appendChild(tag);
    });
  }
  document.addEventListener("keydown", keep, true);
  document.addEventListener("pointerdown", start, { capture: true, once: true, passive: true });
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
})(__URLS__);""".splitlines())


def script_loader(urls: list[str]) -> str:
    """The one inline ``<script>`` that loads our scripts (``urls``, relative to the page, in that order) once the
    page has loaded, or at once on the reader's first key or pointer: none of them is needed for the first paint, and
    Lighthouse's simulated LCP counted every script requested before it (80 KB of ours on slow 4G, about 1 s on the
    home page and the glossary; issue 29, docs/site.md). Added scripts with ``async = false`` run in the order they
    were added, so each still finds the ones before it (the engine before the search box). The keys pressed before
    ``kb-search.js`` ran are kept in ``window.kbEarly`` until it takes them (it sets ``window.kbEarly`` to ``null``,
    and the loader lets the next keys by) and replays them, so "/" or "s" and what is typed after it are not lost;
    from a key that opens search (the keys of ``kb-search.js``'s ``opens``) until then they go no further, or the
    theme's shortcuts would act on a query's letters ("p", "n": the previous and next page). Once the last script has
    loaded the loader stops listening. ``urls`` are the plugin's own (its list of scripts), never content's; written
    as JSON with no ``<`` left to end the script."""
    data = json.dumps(urls, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return "<script>" + _LOADER.replace("__URLS__", data) + "</script>"


_FOOTER_LABEL = re.compile(r'(class="md-footer__link md-footer__link--(?:prev|next)" aria-label=")([^"]*)"')


def footer_labels(footer: str) -> str:
    """The theme's footer with its previous/next links' ``aria-label`` reading the neighbour's title as it is: the
    theme escapes the title there, and the menu hands it over escaped already (the theme prints it raw in the link's
    visible text and elsewhere: :func:`kb.site.structure.nav_config`), so a screen reader spoke ``&lt;`` for ``<``.
    Both escapes undone, the label escaped once more for its attribute; the visible text is left as it is."""
    return _FOOTER_LABEL.sub(lambda m: f'{m[1]}{html.escape(html.unescape(html.unescape(m[2])), quote=True)}"', footer)


def single_title(page: str, site_name: str) -> str:
    """The page with its ``<title>`` «X - X» made «X»: a page named as the site (a one-game site's game page, the
    game's name being the site's) said the name twice. ``site_name`` as the theme prints it (escaped already)."""
    return page.replace(f"<title>{site_name} - {site_name}</title>", f"<title>{site_name}</title>", 1)


_PALETTE_FORM = '<form class="md-header__option" data-md-component="palette">'


def own_palette(header: str) -> str:
    """The theme's header with its light/dark toggle left to ``kb-palette.js``: the palette form's
    ``data-md-component="palette"`` becomes ``data-kb-palette``, so Material's bundle does not mount its palette
    component, which on every page load recomputed the whole page's style two or three times (0.2 s at 4x CPU on a
    rule page, issue 29: ``data-md-color-switching`` set on ``<body>`` and taken off at the next frame, the colours
    written again, the header's computed style read). The form, its inputs and labels, and the theme's inline script
    that applies the kept choice before the first paint stay as they are."""
    return header.replace(_PALETTE_FORM, '<form class="md-header__option" data-kb-palette>')

