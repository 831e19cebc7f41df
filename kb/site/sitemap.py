"""Where search engines find the pages (issue 29): each language's ``sitemap.xml`` and the site's ``robots.txt``,
absolute from ``site_url``.

A language's sitemap lists every page of that language, each with its twins in every language
(``<xhtml:link rel="alternate" hreflang>``, the sitemap form of hreflang that search engines read as they read
the head's). The head carries no ``<link rel="alternate">``: for each one Material fetches ``sitemap.xml`` from the
linked page's folder, which fails from disk, from any other host than ``site_url`` and offline (docs/site.md).

Pure: text in, text out.
"""

from __future__ import annotations

from urllib.parse import quote
from xml.sax.saxutils import quoteattr, escape

__all__ = ["robots", "sitemap", "sitemap_path"]


def sitemap_path(lang: str, langs: list[str]) -> str:
    """Where ``lang``'s sitemap is, from the site's root: MkDocs writes it at its build's ``site_dir``, which
    for the first language is the site's root (its pages are under ``<lang>/``)."""
    return "sitemap.xml" if lang == langs[0] else f"{lang}/sitemap.xml"


def sitemap(urls: list[str], lang: str, root: str, langs: list[str]) -> str:
    """``lang``'s sitemap: each of ``urls`` (page URLs from a language's root, the same in every language) under
    ``root`` (the site's absolute URL, ending in ``/``), with its twin in every language of ``langs``."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">']
    for url in urls:
        path = quote(url, safe="/")
        lines.append(f"<url><loc>{escape(f'{root}{lang}/{path}')}</loc>")
        lines += [f'<xhtml:link rel="alternate" hreflang="{lg}" href={quoteattr(f"{root}{lg}/{path}")}/>' for lg in langs]
        lines.append("</url>")
    return "\n".join(lines + ["</urlset>", ""])


def robots(root: str, langs: list[str]) -> str:
    """The site's ``robots.txt``: everything may be read; where each language's sitemap is."""
    return "User-agent: *\nAllow: /\n" + "".join(f"Sitemap: {root}{sitemap_path(lg, langs)}\n" for lg in langs)
