"""The glossary for translation tools: TBX (OmegaT, Weblate, Poedit's glossary) and CSV.

TBX-Basic (TBX v2, ISO 30042:2008 ``martif``): one ``termEntry`` per glossary term, its game
(``subjectField``), then per language (``langSet``) the definition (the term's summary, links
shown as text) and one ``tig`` per written form, abbreviation and forbidden form. The first form is the preferred term; other forms and the
abbreviations are admitted; forbidden forms are ``deprecatedTerm-admn-sts``. A term kept in its
Spanish wording (``do_not_translate``) lists the Spanish forms on the English side too, with a note.

Neither writer can emit what its reader would misread: characters XML 1.0 forbids (C0 controls but
tab and line breaks, lone surrogates, U+FFFE/U+FFFF) are dropped from TBX text, and a CSV cell that
a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) gets a leading apostrophe, as OWASP and translate-toolkit's ``escape_formulas`` do.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from kb.core.model import LANGS, SOURCE_LANG, TARGET_LANG, Entry, Term, Text
from kb.i18n.status import normalise, visible_text

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["FORMATS", "GlossaryTerm", "glossary", "to_tbx", "to_csv", "CSV_COLUMNS", "xml_text", "xml_id", "csv_cell"]

FORMATS = ("tbx", "csv")
"""The formats ``kb i18n glossary`` writes."""
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
CSV_COLUMNS = ("source", "target", "context", "developer_comments", "game", "source_forms", "target_forms",
               "source_abbreviations", "target_abbreviations", "source_forbidden", "target_forbidden",
               "do_not_translate", "definition_target")
"""The CSV header. The first four are the names translate-toolkit (and so Weblate) reads: the preferred
Spanish and English, the term's id and its Spanish definition; the rest are ignored by those tools."""
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NOT_NAME = re.compile(r"[^\w.\-]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (no reader accepts them, escaped or not)."""
    return _XML_BAD.sub("", text)


def xml_id(text: str) -> str:
    """``text`` as an XML ``ID`` (an NCName): other characters become ``_``, and ``_`` leads one that cannot start it."""
    out = _NOT_NAME.sub("_", xml_text(text))
    return out if out[:1].isalpha() or out[:1] == "_" else "_" + out


def csv_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs as a formula (a leading apostrophe when it starts like one)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _sub(parent: ET.Element, tag: str, text: str, **attrs: str) -> None:
    ET.SubElement(parent, tag, attrs).text = xml_text(text)


def _tig(parent: ET.Element, text: str, term_type: str, status: str) -> None:
    sec = ET.SubElement(parent, "tig")
    _sub(sec, "term", text)
    _sub(sec, "termNote", term_type, type="termType")
    _sub(sec, "termNote", status, type="administrativeStatus")


def _lang_set(entry: ET.Element, t: GlossaryTerm, lang: str) -> None:
    """The ``langSet`` of one language of a term: its definition, forms, abbreviations and forbidden forms."""
    sec = ET.SubElement(entry, "langSet", {XML_LANG: lang})
    definition = t.definition.get(lang) if t.definition is not None else None
    if definition:
        _sub(sec, "descrip", definition, type="definition")
    for i, form in enumerate(t.forms(lang)):
        _tig(sec, form, "fullForm", "preferredTerm-admn-sts" if i == 0 else "admittedTerm-admn-sts")
    for abbr in t.term.abbreviations.get(lang, ()):
        _tig(sec, abbr, "abbreviation", "admittedTerm-admn-sts")
    for bad in t.term.forbidden.get(lang, ()):
        _tig(sec, bad, "fullForm", "deprecatedTerm-admn-sts")


def to_tbx(terms: Iterable[GlossaryTerm], title: str) -> str:
    """A TBX-Basic (v2) document (``martif``), UTF-8 with an XML declaration."""
    root = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: SOURCE_LANG})
    header = ET.SubElement(root, "martifHeader")
    desc = ET.SubElement(header, "fileDesc")
    _sub(ET.SubElement(desc, "titleStmt"), "title", title)
    ET.SubElement(ET.SubElement(desc, "sourceDesc"), "p").text = "Written by 'kb i18n glossary' from the knowledge base."
    ET.SubElement(ET.SubElement(header, "encodingDesc"), "p", type="XCSURI").text = "TBXBasicXCSV02.xcs"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for t in terms:
        entry = ET.SubElement(body, "termEntry", id=xml_id(t.id))
        _sub(entry, "descrip", t.game_name, type="subjectField")
        if t.term.do_not_translate:
            _sub(entry, "note", "Do not translate: write the Spanish wording in English too.")
        for lang in LANGS:
            if t.forms(lang) or t.term.abbreviations.get(lang) or t.term.forbidden.get(lang):
                _lang_set(entry, t, lang)  # a language without a term (not yet translated) is left out
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def to_csv(terms: Iterable[GlossaryTerm]) -> str:
    """One row per term; several forms in one cell are separated by ``; ``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")  # RFC 4180: a CR or LF inside a cell is then quoted
    writer.writerow(CSV_COLUMNS)
    for t in terms:
        es, en = t.forms(SOURCE_LANG), t.forms(TARGET_LANG)
        writer.writerow([csv_cell(cell) for cell in [
            es[0] if es else "", en[0] if en else "", t.id, t.definition.es if t.definition else "", t.game,
            "; ".join(es), "; ".join(en),
            "; ".join(t.term.abbreviations.get(SOURCE_LANG, ())), "; ".join(t.term.abbreviations.get(TARGET_LANG, ())),
            "; ".join(t.term.forbidden.get(SOURCE_LANG, ())), "; ".join(t.term.forbidden.get(TARGET_LANG, ())),
            "yes" if t.term.do_not_translate else "no",
            (t.definition.en or "") if t.definition else "",
        ]])
    return buf.getvalue()
