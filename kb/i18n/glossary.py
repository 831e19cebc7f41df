"""The glossary for translation tools: TBX (OmegaT, Weblate, Poedit's glossary) and CSV.

One ``termEntry`` per glossary term: its game (``subjectField``), then per language (``langSec``)
the definition (the term's summary, links shown as text) and one ``termSec`` per written form,
abbreviation and forbidden form. The first form is the preferred term; other forms and the
abbreviations are admitted; forbidden forms are ``deprecatedTerm-admn-sts``. A term kept in its
Spanish wording (``do_not_translate``) lists the Spanish forms on the English side too, with a note.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from kb.core.model import LANGS, SOURCE_LANG, TARGET_LANG, Entry, Term, Text
from kb.i18n.status import normalise, visible_text

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["FORMATS", "GlossaryTerm", "glossary", "to_tbx", "to_csv", "CSV_COLUMNS"]

FORMATS = ("tbx", "csv")
"""The formats ``kb i18n glossary`` writes."""
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
CSV_COLUMNS = ("es", "en", "id", "game", "es_forms", "en_forms", "es_abbreviations", "en_abbreviations",
               "es_forbidden", "en_forbidden", "do_not_translate", "definition_es", "definition_en")
"""The CSV header: the preferred Spanish and English first (what a tool reading two columns takes), then the rest."""


@dataclass(frozen=True)
class GlossaryTerm:
    """One term as translation tools see it."""

    id: str
    game: str
    game_name: str
    term: Term
    definition: Text | None

    def forms(self, lang: str) -> tuple[str, ...]:
        """Written forms in ``lang`` (the Spanish wording for a term not translated)."""
        if lang == TARGET_LANG and self.term.do_not_translate:
            return self.term.forms.get(TARGET_LANG) or self.term.forms.get(SOURCE_LANG, ())
        return self.term.forms.get(lang, ())


def glossary(kb: "Linked", game: str | None = None) -> list[GlossaryTerm]:
    """Every glossary term (of one game, or all), by game then id."""
    titles = {e.id: e.title for e in kb.entries.values()}
    out = []
    for e in sorted(kb.entries.values(), key=lambda e: (e.game, e.id)):
        if e.term is None or (game is not None and e.game != game):
            continue
        meta = kb.games.get(e.game)
        name = meta.name.best(SOURCE_LANG) if meta is not None else e.game
        out.append(GlossaryTerm(e.id, e.game, name, e.term, _definition(e, titles)))
    return out


def _definition(e: Entry, titles: dict[str, Text]) -> Text | None:
    summary = e.text("summary")
    if summary is None:
        return None
    en = visible_text(summary.en, TARGET_LANG, titles) if summary.en else None
    return Text(normalise(visible_text(summary.es, SOURCE_LANG, titles)), normalise(en) if en else None)


def _term_sec(parent: ET.Element, text: str, term_type: str, status: str) -> None:
    sec = ET.SubElement(parent, "termSec")
    ET.SubElement(sec, "term").text = text
    ET.SubElement(sec, "termNote", type="termType").text = term_type
    ET.SubElement(sec, "termNote", type="administrativeStatus").text = status


def to_tbx(terms: Iterable[GlossaryTerm], title: str) -> str:
    """A TBX-Basic document (``martif``), UTF-8 with an XML declaration."""
    root = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: SOURCE_LANG})
    header = ET.SubElement(root, "martifHeader")
    desc = ET.SubElement(header, "fileDesc")
    ET.SubElement(ET.SubElement(desc, "titleStmt"), "title").text = title
    ET.SubElement(ET.SubElement(desc, "sourceDesc"), "p").text = "Written by 'kb i18n glossary' from the knowledge base."
    ET.SubElement(ET.SubElement(header, "encodingDesc"), "p", type="XCSURI").text = "TBXBasicXCSV02.xcs"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for t in terms:
        entry = ET.SubElement(body, "termEntry", id=t.id)
        ET.SubElement(entry, "descrip", type="subjectField").text = t.game_name
        if t.term.do_not_translate:
            ET.SubElement(entry, "note").text = "Do not translate: write the Spanish wording in English too."
        for lang in LANGS:
            sec = ET.SubElement(entry, "langSec", {XML_LANG: lang})
            if t.definition is not None and t.definition.get(lang):
                ET.SubElement(sec, "descrip", type="definition").text = t.definition.get(lang)
            for i, form in enumerate(t.forms(lang)):
                _term_sec(sec, form, "fullForm", "preferredTerm-admn-sts" if i == 0 else "admittedTerm-admn-sts")
            for abbr in t.term.abbreviations.get(lang, ()):
                _term_sec(sec, abbr, "abbreviation", "admittedTerm-admn-sts")
            for bad in t.term.forbidden.get(lang, ()):
                _term_sec(sec, bad, "fullForm", "deprecatedTerm-admn-sts")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def to_csv(terms: Iterable[GlossaryTerm]) -> str:
    """One row per term; several forms in one cell are separated by ``; ``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in terms:
        es, en = t.forms(SOURCE_LANG), t.forms(TARGET_LANG)
        writer.writerow([
            es[0] if es else "", en[0] if en else "", t.id, t.game, "; ".join(es), "; ".join(en),
            "; ".join(t.term.abbreviations.get(SOURCE_LANG, ())), "; ".join(t.term.abbreviations.get(TARGET_LANG, ())),
            "; ".join(t.term.forbidden.get(SOURCE_LANG, ())), "; ".join(t.term.forbidden.get(TARGET_LANG, ())),
            "yes" if t.term.do_not_translate else "no",
            t.definition.es if t.definition else "", (t.definition.en or "") if t.definition else "",
        ])
    return buf.getvalue()
