"""The last line of "content is data, never markup": an allow-list sanitiser (nh3) over each page's HTML.

The renderer already escapes everything content writes (``<``, ``>``, ``&``, ``[``, ``]``, ``{``,
``}``), so no text can become a tag, an attribute list or a link. This pass runs on the HTML that
MkDocs made of each generated page and keeps only the tags and attributes the knowledge base's own
Markdown produces: no ``on*`` handler, no ``style``, no ``tabindex``/``autofocus``, no script, no
``javascript:`` URL can reach a reader's browser even if a bug let one through the escaping.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

import nh3

__all__ = ["TAGS", "ATTRIBUTES", "URL_SCHEMES", "link", "sanitise", "url_problem"]

TAGS: frozenset[str] = frozenset({
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p", "pre", "s", "small", "span", "strong", "sub",
    "summary", "sup", "table", "caption", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
"""Tags the generated Markdown can produce (tables, lists, admonitions, details, abbreviations, anchors; ``del`` and
``ins``: the translators' page's word diff)."""

ATTRIBUTES: dict[str, set[str]] = {
    "*": {"id", "class", "title", "lang", "hidden"},
    "a": {"href", "data-kb-quickref"},
    "div": {"data-kb-stepper", "data-kb-words"},
    "span": {"data-kb-number", "aria-hidden"},
    "ol": {"start"},
    "details": {"open"},
    "th": {"style", "scope"},
    "td": {"style"},
}
"""Attributes kept, per tag (``*``: on every allowed tag). Nothing that runs script or moves focus; a table
cell's ``style`` keeps only ``text-align`` (what Markdown's column alignment writes); a ``span``'s ``aria-hidden``
hides a short name a screen reader reads whole beside it (the concept map's game column)."""
STYLE_PROPERTIES: frozenset[str] = frozenset({"text-align"})

URL_SCHEMES: frozenset[str] = frozenset({"http", "https", "mailto"})
"""Schemes a link may use; relative links (the site's own pages and anchors) are always kept."""


def sanitise(html: str) -> str:
    """``html`` with everything outside the allow-lists removed (comments too)."""
    return nh3.clean(html, tags=set(TAGS), attributes={k: set(v) for k, v in ATTRIBUTES.items()},
                     url_schemes=set(URL_SCHEMES), link_rel=None, strip_comments=True,
                     filter_style_properties=set(STYLE_PROPERTIES),
                     clean_content_tags={"script", "style"})


_SKIPPED = re.compile(r"[\x00-\x20\x7f]")
"""What a browser skips or strips in a URL (``java\tscript:`` is ``javascript:``): left out before its scheme is read."""
_URL_SAFE = "/:?#[]@!$&()*+,;=%~"
"""Characters a link keeps as they are; the rest (quotes, ``<``, ``>``, spaces, non-ASCII) are percent-encoded."""


_ENDS = "".join(map(chr, range(0x21)))
"""What a browser strips from both ends of a URL (the URL standard's "C0 control or space")."""


def link(url: str) -> str | None:
    """``url`` as a link the pages allow (relative, or one of :data:`URL_SCHEMES`), percent-encoded so that no quote
    or ``<`` is left in it; ``None`` for any other (``javascript:``, ``data:``, ``vbscript:``) or an unreadable one.
    Spaces, line breaks and control characters at either end are dropped, as a browser drops them from an ``href``
    (``" https://e.example"`` kept as ``%20https://…`` was a dead link to a page of the site)."""
    url = url.strip(_ENDS)
    try:
        scheme = urlsplit(_SKIPPED.sub("", url)).scheme.lower()
    except ValueError:
        return None
    return quote(url, safe=_URL_SAFE) if scheme in URL_SCHEMES or not scheme else None


NOT_IN_URL = re.compile(r"[\x00-\x20\x7f<>\"'`\\]")
"""What an address printed raw into a page's attribute may not hold: a quote or ``<``/``>`` would end the attribute or
the tag, a backtick ends one in old browsers, a space, a backslash or a control character is read differently by each
reader of it."""
_WHAT_URL = ("an http(s) address with a host, without spaces, quotes, <, >, backticks, backslashes or control "
             "characters")


def url_problem(url: object, relative: bool = False) -> str | None:
    """Why ``url`` may not be printed raw as an address (MkDocs' themes print ``mkdocs.yml``'s ``site_url``,
    ``repo_url``, ``extra_css``, the logo's path into their pages unescaped), as the end of a sentence naming it;
    None: it may. It must be an http(s) address with a host holding none of :data:`NOT_IN_URL` or, where ``relative``,
    a path of the site (no scheme) holding none of them either. The one check: the translators page's guide link
    (:func:`kb.site.translators.guide_url`) and the site's settings (:func:`kb.mkdocs_defaults.refused_setting`)."""
    what = f"{_WHAT_URL}, or a path of the site" if relative else _WHAT_URL
    if not isinstance(url, str):
        return f"is not text; it must be {what}"
    bad = NOT_IN_URL.search(url)
    if bad:
        return f"holds {bad.group()!r}; it must be {what}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # a port that is no number is refused here, not by the first reader of it
    except ValueError as exc:  # an unclosed "[" of an IPv6 host, a fullwidth "#" in the host
        return f"is not an address ({exc}); it must be {what}"
    if relative and not parts.scheme:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return f"is not {what}"
    return None
