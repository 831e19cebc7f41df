"""The translators' page: per game, the fields current, stale and missing, and what changed.

Built from :func:`kb.i18n.report.status_report`, the data ``kb i18n status --json`` prints, so the
page and the command always agree. Each stale field shows, part by part (paragraph or list item, named as
the page and the PO file name it), what changed in the Spanish word by word (``<del>``/``<ins>``), beside
the English to review; when git history no longer has the earlier Spanish, the Spanish now and the English. A
change too long to compare word by word in bounded time (:data:`kb.i18n.units.MAX_COMPARED`) is shown whole, old
struck through and new underlined, with a note.
Each missing field is listed with a link. Shares are rounded down: a game with one stale field never reads
100 % current. Every text from the content is escaped before any markup is put around it. The translators' guide
(:data:`GUIDE`) is not on the site: the page names it, linked into the project's repository when ``mkdocs.yml`` gives
an http(s) ``repo_url`` (:func:`guide_url`).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import zip_longest
from typing import Any, Mapping
from urllib.parse import urlsplit

from kb.core.locale import pgettext
from kb.core.model import SOURCE_LANG, TARGET_LANG, field_key, iter_texts
from kb.i18n.history import History
from kb.i18n.report import STATES, status_report
from kb.i18n.units import Unit, aligned, opcodes, split
from kb.site.render import cell, code, escape, filled
from kb.site.sanitise import url_problem
from kb.site.structure import SiteContext, SitePage, entry_path, finish, relative

__all__ = ["PATH", "CONTEXT", "GUIDE", "GUIDE_PATH", "Words", "guide_url", "translators_page", "share", "word_diff"]

PATH = "translators.md"
"""Where the page lives in each language."""
CONTEXT = "translators"
"""The ``msgctxt`` of the page's own words in the site's gettext catalogs (``kb/locale/<lang>/LC_MESSAGES/kb.po``,
:mod:`kb.core.locale`), each asked for by a key as ``msgid``."""


class Words:
    """The page's words in one language: ``Words("es")["title"]`` is the catalog's ``msgctxt "translators"``
    ``msgid "title"`` in Spanish, as Markdown: escaped, so that a translator's ``*``, backtick, link or ``{: …}`` is
    shown as typed (no message holds markup: commands and marks are the engine's, filled in by :meth:`md`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def raw(self, key: str) -> str:
        """The message as the catalog has it: for the page's title and the menu (the theme escapes them)."""
        return pgettext(self.lang, CONTEXT, key)

    def __getitem__(self, key: str) -> str:
        return escape(self.raw(key))

    def md(self, key: str, values: Mapping[str, str]) -> str:
        """The message escaped, each ``{name}`` of ``values`` replaced by its value, the engine's Markdown."""
        return filled(self.raw(key), values)


GUIDE = "docs/translators.md"
"""The translators' guide, in the project's repository (the site does not carry it)."""
GUIDE_PATH = f"blob/HEAD/{GUIDE}"
"""Where a repository's web page shows :data:`GUIDE` under its ``repo_url`` (GitHub, Gitea, Forgejo: the file on the
default branch)."""


def guide_url(repo_url: str | None) -> str | None:
    """:data:`GUIDE`'s address in the repository at ``repo_url`` (``mkdocs.yml``'s): ``<repo_url>/`` :data:`GUIDE_PATH`;
    None without one, or for one that is not a plain http(s) address with a host (:func:`~kb.site.sanitise.url_problem`:
    no space, quote or control character), or that has a query or fragment to put the path after."""
    if not repo_url or url_problem(repo_url):
        return None
    parts = urlsplit(repo_url)
    return None if parts.query or parts.fragment else f"{repo_url.rstrip('/')}/{GUIDE_PATH}"


def _guide(repo_url: str | None) -> str:
    """The guide's name as code, a link to it when the repository's address is known: the address escaped into its
    attribute for HTML and for Markdown too (:func:`~kb.site.render.escape`: ``[e](…)``, ``*c*`` or ``{:…}`` in it
    are characters of the address, never a link, emphasis or attribute list inside the attribute)."""
    url = guide_url(repo_url)
    return f'<a href="{escape(url)}"><code>{GUIDE}</code></a>' if url else code(GUIDE)


def share(count: int, total: int) -> str:
    """``count`` with its share of ``total`` in whole percent, rounded down (``2280 (99 %)``, never 100 % while
    one is left out); a share under 1 % that is not nothing reads ``< 1 %``."""
    pct = 100 * count // total if total else 0
    return f"{count} (< 1 %)" if count and not pct else f"{count} ({pct} %)"


_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def word_diff(old: str, new: str) -> str:
    """``new`` escaped, with what ``old`` had and it does not in ``<del>`` and what it adds in ``<ins>``, word by
    word (a lone space between two changes joins them into one; runs of spaces count as one). Past
    :data:`kb.i18n.units.MAX_COMPARED` what lies between the common start and end is one change."""
    return _shown(_segments(old, new)[0])


def _shown(segments: list[tuple[bool, str, str]]) -> str:
    return "".join(_marked(was, now) if changed else escape(now) for changed, was, now in segments)


def _segments(old: str, new: str) -> tuple[list[tuple[bool, str, str]], bool]:
    """``(changed, old text, new text)`` runs that make ``old`` into ``new``, word by word, changes merged; and
    whether they are word by word (:func:`kb.i18n.units.opcodes`: a long rewrite is one change)."""
    a, b = _TOKEN.findall(" ".join(old.split())), _TOKEN.findall(" ".join(new.split()))  # a re-wrap is no change
    steps, exact = opcodes(a, b)
    parts = [(tag != "equal", "".join(a[i1:i2]), "".join(b[j1:j2])) for tag, i1, i2, j1, j2 in steps]
    for k in range(1, len(parts) - 1):  # "<del>a</del><ins>b</ins> <del>c</del>..." reads as one change
        if not parts[k][1].strip() and parts[k - 1][0] and parts[k + 1][0]:
            parts[k] = (True, *parts[k][1:])
    merged: list[tuple[bool, str, str]] = []
    for changed, was, now in parts:
        if changed and merged and merged[-1][0]:
            merged[-1] = (True, merged[-1][1] + was, merged[-1][2] + now)
        else:
            merged.append((changed, was, now))
    return merged, exact


def _marked(was: str, now: str) -> str:
    """A change, escaped: ``<del>was</del><ins>now</ins>``; the spaces around a part only added or only taken out
    are left unmarked."""
    if was and now:
        return f"<del>{escape(was)}</del><ins>{escape(now)}</ins>"
    text, tag = (was, "del") if was else (now, "ins")
    core = text.strip()
    if not core:
        return escape(text)
    lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    return f"{escape(lead)}<{tag}>{escape(core)}</{tag}>{escape(trail)}"


def translators_page(ctx: SiteContext, report: Mapping[str, Any] | None = None) -> SitePage:
    """The page in the context's language (``report``: a :func:`status_report`, made here when not given)."""
    kb = ctx.kb
    lab = Words(ctx.lang)
    data = report if report is not None else status_report(kb, history=History())
    names = {g: (kb.games[g].name.best(ctx.lang) if g in kb.games else g) for g in data["games"]}
    how = lab.md("how", {"guide": _guide(ctx.repo_url), "export": code(lab.raw("export_command")),
                         "import": code(lab.raw("import_command"))})
    intro = lab.md("intro", {"status": code("kb i18n status --json")})
    out = [f"# {lab['title']} {{#translators}}", "", intro, "", how, ""]
    out += _counts_table(lab, data["games"], names)
    if not data["pending"]:
        out += [lab["all_current"], ""]
    for g in data["games"]:
        rows = [r for r in data["pending"] if _game_of(kb, r["entry"]) == g]
        if rows:
            out += [f"## {escape(names[g])} {{#{g}}}", ""] + _game_pending(ctx, g, rows)
    return finish(ctx, PATH, lab.raw("title"), "\n".join(out))


def _counts_table(lab: Words, games: Mapping[str, Mapping[str, int]], names: Mapping[str, str]) -> list[str]:
    """The table of fields per game and state (shares of the game's fields), with a total row.

    Each cell also carries its column's name (``kb-tr-k``, shown only on a narrow screen, where the rows
    stack: kb.css), so on a phone every figure is read with its name and none is off to the side."""
    def row(name: str, counts: Mapping[str, int]) -> str:
        cells = [f"{counts['fields']}"] + [share(counts[k], counts["fields"]) for k in STATES]
        return f"| {name} | " + " | ".join(f'<span class="kb-tr-k">{cell(lab[k])}:</span> {c}'
                                           for k, c in zip(("fields", *STATES), cells, strict=True)) + " |"

    out = ['<div class="kb-tr-counts" markdown>', "",
           "| " + " | ".join(cell(lab[k]) for k in ("game", "fields", "current", "stale", "missing")) + " |",
           "|---|---:|---:|---:|---:|"]
    totals = dict.fromkeys(("fields", *STATES), 0)
    for g, counts in games.items():
        out.append(row(cell(escape(names[g])), counts))
        for k in totals:
            totals[k] += counts[k]
    return out + [row(f"**{cell(lab['total'])}**", totals), "", "</div>", ""]


def _game_pending(ctx: SiteContext, g: str, rows: list[Mapping[str, Any]]) -> list[str]:
    """One game's stale fields (each with what changed and its English) and missing fields."""
    lab = Words(ctx.lang)
    out: list[str] = []
    stale = [r for r in rows if r["status"] == "stale"]
    if stale:
        out += [f"### {lab['stale_list']} {{#{g}-stale}}", "",
                lab.md("legend", {"struck": f"<del>{lab['struck']}</del>", "underlined": f"<ins>{lab['underlined']}</ins>"}), ""]
        for r in stale:
            out += _stale_field(ctx, r)
    missing = [r for r in rows if r["status"] == "missing"]
    if missing:
        out += [f"### {lab['missing_list']} {{#{g}-missing}}", ""]
        out += [_heading(ctx, r, item=True) for r in missing] + [""]
    return out


def _stale_field(ctx: SiteContext, r: Mapping[str, Any]) -> list[str]:
    """A stale field: its heading, then each part that changed (named as the page and the PO name it), the
    Spanish word diff beside the English of that part; without the earlier Spanish, the whole field now."""
    lab = Words(ctx.lang)
    out = [_heading(ctx, r), ""]
    english = _english(ctx, r)
    new = split(r["source"])
    if r.get("previous") is None:
        return out + [lab["unknown"], ""] + _pair(lab["now"], _lines(new, SOURCE_LANG),
                                                  lab["english"], _lines(split(english or ""), TARGET_LANG))
    old = split(r["previous"])
    en = split(english or "")
    by_part = en if aligned(old, en) else None
    for i, j in _changes(old, new):
        where = _where(r["field"], old, new, i, j, ctx.lang)
        spanish = _spanish_change(old[i].text if i is not None else "", new[j].text if j is not None else "", lab)
        out += ([f"**{where}**", ""] if where else []) + _pair(lab["diff"], spanish, lab["english"],
                                                                _english_part(by_part, i, lab))
    if by_part is None:
        out += _pair("", [], lab["english_all"], _lines(en, TARGET_LANG))
    return out


def _spanish_change(was: str, now: str, lab: Words) -> list[str]:
    """A part's Spanish word by word; a change too long to compare so (one change between the common start and
    end) under a note that says so."""
    segments, exact = _segments(was, now)
    return ([] if exact else [f"*{lab['too_long']}*"]) + [_text(_shown(segments), SOURCE_LANG, escaped=True)]


def _where(field: str, old: list[Unit], new: list[Unit], i: int | None, j: int | None, lang: str) -> str:
    """The name of a changed part: its place and PO message (``List item 2 of 3 · PO message `text|p3```), its
    place in the earlier Spanish for a part taken out, nothing for a field of one paragraph (one PO message,
    named by the field alone)."""
    lab = Words(lang)
    if j is None:
        return f"{_places(old, lang)[i]}, {lab['removed']}" if i is not None else ""
    if len(new) == 1 and not new[j].prefix:
        return ""
    return f"{_places(new, lang)[j]} · {lab['message']} {code(f'{field}|p{j + 1}')}"


def _english_part(english: list[Unit] | None, i: int | None, lab: Words) -> list[str]:
    """The English of the earlier Spanish's part ``i`` when the English has the same parts, "none: this part is new"
    for a part added, nothing when the English's parts do not follow the Spanish ones (it is shown whole)."""
    if english is None:
        return []
    return [_text(english[i].text, TARGET_LANG)] if i is not None else [lab["no_english"]]


def _changes(old: list[Unit], new: list[Unit]) -> list[tuple[int | None, int | None]]:
    """The parts that differ, as (index in ``old``, index in ``new``): ``None`` for a part added or taken out."""
    a = [" ".join(u.text.split()) for u in old]
    b = [" ".join(u.text.split()) for u in new]
    out: list[tuple[int | None, int | None]] = []
    for tag, i1, i2, j1, j2 in opcodes(a, b)[0]:
        if tag != "equal":
            out += list(zip_longest(range(i1, i2), range(j1, j2)))
    return out


def _places(units: list[Unit], lang: str) -> list[str]:
    """Each part's name on the page: ``Paragraph 1 of 2``, ``List item 3 of 4`` (paragraphs and items counted
    apart, as the PO file's comments count them)."""
    kinds = ["item" if u.prefix else "paragraph" for u in units]
    seen: Counter[str] = Counter()
    out = []
    for kind in kinds:
        seen[kind] += 1
        out.append(Words(lang).md(kind, {"n": str(seen[kind]), "of": str(kinds.count(kind))}))
    return out


def _text(text: str, lang: str, escaped: bool = False) -> str:
    """A paragraph of content in its language (escaped here unless it already is): it starts with a tag, so no
    text of it can begin a list, a heading or a quote."""
    return f'<span lang="{lang}">{text if escaped else escape(text)}</span>'


def _lines(units: list[Unit], lang: str) -> list[str]:
    """A whole text, one paragraph or list item (with its marker) per paragraph of the page."""
    return [_text(u.prefix.strip() + (" " if u.prefix else "") + u.text, lang) for u in units] or ["—"]


def _pair(left: str, spanish: list[str], right: str, english: list[str]) -> list[str]:
    """The Spanish and the English side by side (one above the other on a narrow screen: kb.css); a side with
    nothing to show is left out."""
    out = ['<div class="kb-tr-pair" markdown>']
    for cls, label, paras in (("kb-tr-es", left, spanish), ("kb-tr-en", right, english)):
        if paras:
            out += [f'<div class="{cls}" markdown>', "", f"*{label}:*", ""]
            for p in paras:
                out += [p, ""]
            out += ["</div>"]
    return out + ["</div>", ""]


def _english(ctx: SiteContext, row: Mapping[str, Any]) -> str | None:
    """The English the field has now (the one to review), or None."""
    owner = ctx.kb.entries.get(row["entry"]) or ctx.kb.games.get(row["entry"])
    if owner is None:
        return None
    for path, text in iter_texts(owner.data):
        if field_key(owner.data, path) == row["field"]:
            en = text.get(TARGET_LANG)
            return en if isinstance(en, str) and en.strip() else None
    return None


def _game_of(kb: Any, owner: str) -> str:
    entry = kb.entries.get(owner)
    return entry.game if entry is not None else owner


def _heading(ctx: SiteContext, row: Mapping[str, Any], item: bool = False) -> str:
    """A link to the field's entry (or game page), its id and its field."""
    entry = ctx.kb.entries.get(row["entry"])
    if entry is not None:
        title, target = entry.title.best(ctx.lang), entry_path(entry)
    else:
        meta = ctx.kb.games.get(row["entry"])
        title, target = (meta.name.best(ctx.lang) if meta else row["entry"]), f"{row['entry']}/index.md"
    text = (f"[{escape(title)}]({relative(PATH, target)}) · {code(row['entry'])} · "
            f"{Words(ctx.lang)['field']} {code(row['field'])}")
    return ("- " if item else "#### ") + text
