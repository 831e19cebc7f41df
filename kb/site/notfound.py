"""The site's "page not found" page: the theme's ``404.html`` as each language's build writes it (the first language's
at the site's root, which a static host serves for every address it has nothing at, whatever its language; the
others' in their folders, which some hosts serve for a missing address under them), its heading replaced by one part
per language of the site, each in its own ``lang``: not found, the missing address, a link to that language's home.
The build's language comes first; in the browser, the reader's (:data:`_PICK`: the address's language folder, else
the language the reader chose on the site, else the browser's, by :func:`kb.site.reader_language.pick_language`). The
address is shown as text (``textContent``), never as markup. Pure: the plugin's ``on_post_template`` hands it the page.
"""

from __future__ import annotations

import html
import json
import posixpath
import re

from kb.core.locale import pgettext
from kb.site.app import own_palette
from kb.site.reader_language import pick_language
from kb.site.structure import LANGUAGES

__all__ = ["THEME_HEADING", "not_found_page", "not_found_menu"]

Menu = list[tuple[str, list[tuple[str, str]]]]
"""A menu: sections, each a title and its links (label, address); titles and labels HTML, escaped already."""

THEME_HEADING = "<h1>404 - Not found</h1>"
"""Material's 404 content (its ``404.html``, in English whatever the language): what the parts replace. A page
without it (a pack's own ``404.html``) is left as it is."""

_PICK = "".join(line.strip() for line in r"""(function (d) {
  var box = document.getElementById("kb-404"), path = location.pathname, shown = path, mine = null;
  var first = (path.indexOf(d.root) === 0 ? path.slice(d.root.length) : path.slice(1)).split("/")[0];
  var pick = __PICK__;
  for (var j = 0; j < box.children.length; j++) { if (box.children[j].getAttribute("lang") === pick) mine = box.children[j]; }
  if (mine) box.insertBefore(mine, box.firstChild);
  try { shown = decodeURIComponent(path); } catch (e) {}
  shown = Array.from(shown.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "").replace(/\s/g, encodeURIComponent));
  shown = shown.length > d.most ? shown.slice(0, d.most - 1).join("") + "\u2026" : shown.join("");
  box.querySelectorAll(".kb-404__address").forEach(function (p) { p.querySelector("code").textContent = shown; p.hidden = false; });
})(__DATA__);""".splitlines())
"""Puts the reader's language's part first and shows the missing address in each (as text): its path only (the
browser's ``location.pathname``: no query, no fragment), decoded, with no control or format character (a U+202E could
turn the rest around), its spaces kept as ``%20`` and at most :data:`_MOST` characters (a crafted link's path is no
sentence: "This site has moved. Log in at…")."""

_DRAWER_LABEL = re.compile(r'<label class="md-header__button md-icon" for="__drawer">.*?</label>', re.S)
"""The theme's menu button in the header: a label, no tab stop, an unnamed image to a screen reader (audit-a11y L7).
The other pages' kb-table.js puts a named button in its place; here the page's two links home are the way on, and the
header has no menu button. The light/dark toggle is ``kb-palette.js``'s, as on every page (one named button)."""

_MOST = 80
"""The most characters of the missing address the page shows (the last of them an ellipsis when it is longer)."""


def not_found_page(page: str, lang: str, root: str, homes: dict[str, str], every_name: str = "") -> str:
    """The theme's 404 ``page`` of the ``lang`` build with a part per language of ``homes`` (language -> its home's
    address, absolute from the site's root path ``root``), ``lang``'s first; the title names the page in each. The
    page is ``lang``'s (its ``<html lang>``, the theme's labels); the site's name in every language (``every_name``,
    «Reglas · Rules», as the page prints it: escaped) is shown and named with each language's part in its ``lang``
    (:func:`_names_marked`)."""
    if THEME_HEADING not in page:
        return page
    page = _names_marked(page, every_name, list(homes))
    order = [lang] + [lg for lg in homes if lg != lang]
    data = json.dumps({"root": root, "most": _MOST}).replace("<", "\\u003c")
    script = _PICK.replace("__DATA__", data).replace("__PICK__", pick_language(list(homes), "first"))
    parts = "".join(_part(lg, homes[lg]) for lg in order)
    body = f'<div class="kb-404" id="kb-404">{parts}</div>'
    title = html.escape(" · ".join(pgettext(lg, "site", "not_found_title") for lg in order))
    page = page.replace(THEME_HEADING, body, 1).replace("<title>", f"<title>{title} · ", 1)
    page = own_palette(_DRAWER_LABEL.sub("", page, count=1))
    scripts = f'<script>{script}</script><script src="{html.escape(root)}kb-palette.js" defer></script>'
    at = page.rfind("</body>")  # the engine's script beside the theme's, out of the article (which holds content only)
    return page[:at] + scripts + page[at:] if at >= 0 else page + scripts


def _names_marked(page: str, every_name: str, langs: list[str]) -> str:
    """``page`` with the site's name in every language, ``every_name`` (one name per language of ``langs``, joined by
    « · », escaped), in a ``<span lang>`` per language where the header and the menu show it, and the logo links named
    by those spans (a hidden ``kb-sr`` text) instead of an ``aria-label`` in the page's language alone («Rules» read
    with a Spanish voice). Left as it is when the name is not one per language."""
    names = every_name.split(" · ")
    if not every_name or len(names) != len(langs):
        return page
    marked = " · ".join(_in(lg, html.unescape(name)) for lg, name in zip(langs, names, strict=True))
    name = re.escape(every_name)
    page = re.sub(f'(<a href="[^"]*") title="{name}" (class="md-(?:header|nav)__button md-logo") aria-label="{name}"'
                  '( data-md-component="logo">)', lambda m: f'{m[1]} {m[2]}{m[3]}<span class="kb-sr">{marked}</span>', page)
    return re.sub(f'(<span class="md-ellipsis">|</a>)(\\s*){name}(\\s*</(?:span|label)>)',
                  lambda m: m[1] + m[2] + marked + m[3], page)


def _part(lang: str, home: str) -> str:
    """One language's part: in its own ``lang``, the address line hidden until the script fills it."""
    def say(key: str) -> str:
        return html.escape(pgettext(lang, "site", key))
    before, _, after = say("not_found_address").partition("{address}")
    code = html.escape(lang)
    return (f'<section lang="{code}"><h1>{say("not_found_title")}</h1><p>{say("not_found_text")}</p>'
            f'<p class="kb-404__address" hidden>{before}<code dir="ltr"></code>{after}</p>'
            f'<p><a class="md-button" href="{html.escape(home)}" hreflang="{code}">{say("not_found_home")}</a></p>'
            "</section>")


def not_found_menu(order: list[str], homes: dict[str, str], games: dict[str, dict[str, str]]) -> Menu:
    """The 404 page's menu: a section per language of ``order`` (the build's first), named in its own language, with
    its home and each game's page (``games``: id -> language -> name), every title in its own ``lang``. The theme's menu
    was the build's language's whole tree: an English reader's dead link got a Spanish menu."""
    return [(_in(lang, LANGUAGES.get(lang, lang)),
             [(_in(lang, pgettext(lang, "site", "home")), homes[lang])]
             + [(_in(lang, names.get(lang, game)), _game_page(homes[lang], game)) for game, names in sorted(games.items())])
            for lang in order]


def _in(lang: str, text: str) -> str:
    """``text``, escaped, marked as ``lang``'s (a screen reader speaks it in that language)."""
    return f'<span lang="{html.escape(lang)}">{html.escape(text, quote=False)}</span>'


def _game_page(home: str, game: str) -> str:
    """A game's page beside its language's ``home`` address (``/es/index.html`` -> ``/es/<game>/index.html``)."""
    folder, name = posixpath.split(home)
    return posixpath.join(folder, game, name)
