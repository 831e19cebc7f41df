"""The root "page not found" page shows the site's name in every language («Reglas · Rules»): each language's name is
in its own ``lang`` where the header and the menu show it, and names the logo links, the page being the build's
language's (its ``<html lang>`` and the theme's labels); each language's part carries its own ``lang``."""

from __future__ import annotations

import re

from kb.site.notfound import THEME_HEADING, not_found_page

HOMES = {"es": "/es/index.html", "en": "/en/index.html"}
EVERY = "Reglas · R&amp;R"
THEME = ('<!doctype html>\n<html lang="es"><head><title>x</title></head><body><header>'
         f'<a href="/." title="{EVERY}" class="md-header__button md-logo" aria-label="{EVERY}" data-md-component="logo">'
         '<svg></svg></a><div class="md-header__topic">\n<span class="md-ellipsis">\n'
         f'    {EVERY}\n  </span></div></header><nav><label class="md-nav__title" for="__drawer">'
         f'<a href="/." title="{EVERY}" class="md-nav__button md-logo" aria-label="{EVERY}" data-md-component="logo">'
         f'<svg></svg>\n    </a>\n    {EVERY}\n  </label></nav>{THEME_HEADING}</body></html>')
MARKED = '<span lang="es">Reglas</span> · <span lang="en">R&amp;R</span>'


def test_the_sites_name_in_every_language_is_marked_with_each_language() -> None:
    page = not_found_page(THEME, "es", "/", HOMES, EVERY)
    assert '<html lang="es">' in page
    assert EVERY not in page.split("<title>", 1)[1].split("</title>", 1)[1]  # nowhere but the title
    assert page.count(MARKED) == 4  # the two logos' names, the header, the menu's title
    assert page.count(f'<span class="kb-sr">{MARKED}</span>') == 2
    assert "aria-label" not in page
    assert re.findall(r'<section lang="(\w+)">', page) == ["es", "en"]
    english = not_found_page(THEME.replace('lang="es"', 'lang="en"'), "en", "/", HOMES, EVERY)
    assert english.count(MARKED) == 4 and re.findall(r'<section lang="(\w+)">', english) == ["en", "es"]


def test_a_name_that_is_not_one_per_language_is_left_as_it_is() -> None:
    page = not_found_page(THEME.replace(EVERY, "Reglas"), "es", "/", HOMES, "Reglas")
    assert page.count('aria-label="Reglas"') == 2 and "kb-sr" not in page
