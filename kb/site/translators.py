"""The translators' page: per game, the share of fields current, stale and missing, and what changed.

Built from :func:`kb.i18n.report.status_report`, the data ``kb i18n status --json`` prints, so the
page and the command always agree. Each stale field shows the Spanish the English was made from
(when git history still has it) and the Spanish now; each missing field is listed with a link.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from kb.core.model import SOURCE_LANG
from kb.i18n.history import History
from kb.i18n.report import STATES, status_report
from kb.i18n.units import split
from kb.site.render import escape
from kb.site.structure import SiteContext, SitePage, entry_path, finish, relative

__all__ = ["PATH", "WORDS", "translators_page", "share"]

PATH = "translators.md"
"""Where the page lives in each language."""
WORDS: dict[str, dict[str, str]] = {
    "es": {
        "title": "Estado de la traducción",
        "intro": "El texto original está en español; el inglés se traduce campo a campo. Esta página cuenta, "
                 "por juego, los campos cuyo inglés está al día, los que se quedaron atrás porque el español "
                 "cambió y los que aún no tienen inglés: los mismos datos que da `kb i18n status --json`. "
                 "La guía para traductores está en `docs/translators.md`.",
        "game": "Juego", "fields": "Campos", "current": "Al día", "stale": "Desfasados", "missing": "Sin traducir",
        "total": "Total", "stale_list": "Campos desfasados", "missing_list": "Campos sin traducir",
        "before": "Antes", "now": "Ahora", "unknown": "(el historial no conserva el texto anterior)",
        "paragraphs": "párrafos cambiados", "field": "campo", "all_current": "Toda la traducción está al día.",
    },
    "en": {
        "title": "Translation status",
        "intro": "The original text is Spanish; the English is translated field by field. This page counts, per "
                 "game, the fields whose English is current, those left behind because the Spanish changed, and "
                 "those with no English yet: the same data `kb i18n status --json` prints. The translators' "
                 "guide is `docs/translators.md`.",
        "game": "Game", "fields": "Fields", "current": "Current", "stale": "Stale", "missing": "Missing",
        "total": "Total", "stale_list": "Stale fields", "missing_list": "Fields not translated",
        "before": "Before", "now": "Now", "unknown": "(the history no longer has the earlier text)",
        "paragraphs": "paragraphs changed", "field": "field", "all_current": "The whole translation is current.",
    },
}


def share(count: int, total: int) -> str:
    """``count`` with its share of ``total`` in whole percent: ``7 (78 %)``."""
    return f"{count} ({round(100 * count / total) if total else 0} %)"


def _quote(text: str, lang: str) -> list[str]:
    """A Spanish text as a Markdown block quote, one paragraph or list item per line, escaped (and marked as
    Spanish on a page in another language)."""
    units = split(text)
    wrap = (lambda s: f'<span lang="{SOURCE_LANG}">{s}</span>') if lang != SOURCE_LANG else (lambda s: s)
    return ["> " + wrap(escape(u.prefix.strip() + (" " if u.prefix else "") + u.text)) + ("  " if i < len(units) - 1 else "")
            for i, u in enumerate(units)] or ["> —"]


def _code(text: str) -> str:
    """``text`` as a code span (ids and field names are shown as written), whatever backticks it holds."""
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}" if "`" in text else f"`{text}`"


def translators_page(ctx: SiteContext, report: Mapping[str, Any] | None = None) -> SitePage:
    """The page in the context's language (``report``: a :func:`status_report`, made here when not given)."""
    kb = ctx.kb
    lab = WORDS[ctx.lang]
    data = report if report is not None else status_report(kb, history=History())
    names = {g: (kb.games[g].name.best(ctx.lang) if g in kb.games else g) for g in data["games"]}
    out = [f"# {lab['title']} {{#translators}}", "", lab["intro"], ""] + _counts_table(lab, data["games"], names)
    if not data["pending"]:
        out += [lab["all_current"], ""]
    for g in data["games"]:
        rows = [r for r in data["pending"] if _game_of(kb, r["entry"]) == g]
        if rows:
            out += [f"## {escape(names[g])} {{#{g}}}", ""] + _game_pending(ctx, g, rows)
    return finish(ctx, PATH, lab["title"], "\n".join(out))


def _counts_table(lab: Mapping[str, str], games: Mapping[str, Mapping[str, int]], names: Mapping[str, str]) -> list[str]:
    """The table of fields per game and state (shares of the game's fields), with a total row."""
    out = [f"| {lab['game']} | {lab['fields']} | {lab['current']} | {lab['stale']} | {lab['missing']} |",
           "|---|---:|---:|---:|---:|"]
    totals = dict.fromkeys(("fields", *STATES), 0)
    for g, counts in games.items():
        out.append(f"| {escape(names[g]).replace('|', '&#124;')} | {counts['fields']} | "
                   + " | ".join(share(counts[k], counts["fields"]) for k in STATES) + " |")
        for k in totals:
            totals[k] += counts[k]
    return out + [f"| **{lab['total']}** | {totals['fields']} | "
                  + " | ".join(share(totals[k], totals["fields"]) for k in STATES) + " |", ""]


def _game_pending(ctx: SiteContext, g: str, rows: list[Mapping[str, Any]]) -> list[str]:
    """One game's stale fields (each with the Spanish before and now) and missing fields."""
    lab = WORDS[ctx.lang]
    out: list[str] = []
    stale = [r for r in rows if r["status"] == "stale"]
    if stale:
        out += [f"### {lab['stale_list']} {{#{g}-stale}}", ""]
        for r in stale:
            out += _stale_field(ctx, r)
    missing = [r for r in rows if r["status"] == "missing"]
    if missing:
        out += [f"### {lab['missing_list']} {{#{g}-missing}}", ""]
        out += [_heading(ctx, r, item=True) for r in missing] + [""]
    return out


def _stale_field(ctx: SiteContext, r: Mapping[str, Any]) -> list[str]:
    """A stale field: its heading, the paragraphs that changed, the Spanish before (if known) and now."""
    lab = WORDS[ctx.lang]
    out = [_heading(ctx, r), ""]
    if r.get("paragraphs"):
        out += [f"*{lab['paragraphs']}:* {', '.join(map(str, r['paragraphs']))}", ""]
    out += [f"*{lab['before']}:*", ""]
    out += (_quote(r["previous"], ctx.lang) if r.get("previous") is not None else [lab["unknown"]]) + [""]
    return out + [f"*{lab['now']}:*", ""] + _quote(r["source"], ctx.lang) + [""]


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
    text = (f"[{escape(title)}]({relative(PATH, target)}) · {_code(row['entry'])} · "
            f"{WORDS[ctx.lang]['field']} {_code(row['field'])}")
    return ("- " if item else "#### ") + text
