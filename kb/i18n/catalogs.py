"""The site's words catalogs checked as the site reads them (``kb/locale/<lang>/LC_MESSAGES/kb.po``).

A mistake in a catalog does not stop a build: a fuzzy or empty message is left out and the page shows its key
(``title``), a placeholder lost or renamed (``{total}`` for ``{n}``) is printed as written. :func:`catalog_problems`
finds them, each located at its ``file.po:line``, for ``kb check`` and ``kb build`` (and the tests)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

import polib

from kb.core.diagnostics import Diagnostic, diag, format_path, printable
from kb.core.locale import LANGS, catalog_path
from kb.core.model import Location
from kb.i18n.po import string_problem

__all__ = ["catalog_problems", "placeholders", "with_spanish_notes", "SPANISH_NOTE"]

Key = tuple[str | None, str]
"""A message of the catalogs: its ``msgctxt`` and ``msgid``."""

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def placeholders(text: str) -> list[str]:
    """A message's ``{name}`` placeholders, sorted (a doubled brace is text, not a placeholder)."""
    return sorted(_PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


class _Catalog:
    """One language's catalog as polib reads it, with its lines (to locate a ``msgstr``)."""

    def __init__(self, lang: str, path: Path, po: polib.POFile, lines: list[str]) -> None:
        self.lang, self.path, self.lines = lang, path, lines
        self.entries: dict[Key, polib.POEntry] = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
        self.nplurals = _nplurals(po.metadata.get("Plural-Forms", ""))

    def at(self, entry: polib.POEntry, starting: str = "msgid ") -> Location:
        """Where ``entry``'s first line starting with ``starting`` is (its ``msgid``, else where it starts)."""
        rows = self.rows(entry, starting)
        return Location(self.path, rows[0] + 1 if rows else entry.linenum or 1, 1)

    def rows(self, entry: polib.POEntry, starting: str) -> list[int]:
        """The rows (from 0) of ``entry``'s lines starting with ``starting``, each with the string lines after it."""
        rows: list[int] = []
        for i in range(max(0, (entry.linenum or 1) - 1), len(self.lines)):
            line = self.lines[i]
            if line.startswith(starting) or (rows and rows[-1] == i - 1 and line.startswith('"')):
                rows.append(i)
            elif rows and not line.startswith(("msgstr", '"')) or not line.strip():
                break
        return rows

    def at_placeholder(self, entry: polib.POEntry, expected: frozenset[str]) -> Location:
        """Where the first placeholder of ``entry``'s translation that ``expected`` lacks is, else its ``msgstr``."""
        for row in self.rows(entry, "msgstr"):
            odd = next((m for m in _PLACEHOLDER.finditer(self.lines[row]) if m.group() not in expected), None)
            if odd is not None:
                return Location(self.path, row + 1, odd.start() + 1)
        return self.at(entry, "msgstr")


def _nplurals(header: str) -> int | None:
    m = re.search(r"nplurals\s*=\s*(\d+)", header)
    return int(m.group(1)) if m else None


def catalog_problems(paths: Mapping[str, Path] | None = None) -> list[Diagnostic]:
    """Every mistake of the catalogs ``paths`` (language -> ``kb.po``; the engine's own by default) that the site
    would show as a wrong text: a string misread, a fuzzy or empty message, a plural form too many or missing, a
    message one catalog lacks, a translation whose ``{name}`` placeholders differ from its message's."""
    paths = paths if paths is not None else {lang: catalog_path(lang) for lang in LANGS}
    found: list[Diagnostic] = []
    catalogs = [c for c in (_read(lang, path, found) for lang, path in paths.items()) if c is not None]
    for catalog in catalogs:
        for entry in catalog.entries.values():
            found += _entry_problems(catalog, entry)
    found += _missing(catalogs) + _placeholder_problems(catalogs)
    return sorted(found, key=lambda d: (str(d.location.path), d.location.line, d.code))


def _read(lang: str, path: Path, found: list[Diagnostic]) -> _Catalog | None:
    """The catalog of ``path``, or None with the reason it cannot be read added to ``found``."""
    if not path.is_file():
        return None
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        found.append(diag("encoding", Location(path, line, exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1),
                          byte=raw[exc.start]))
        return None
    bad = string_problem(text)
    if bad is not None:
        found.append(diag("catalog-syntax", Location(path, bad[0], bad[1]), problem=bad[2]))
        return None
    return _Catalog(lang, path, polib.pofile(text), text.splitlines())


def _name(entry: polib.POEntry) -> str:
    """How a message is named: ``'title' (msgctxt 'translators')``."""
    return f"'{entry.msgid}'" + (f" (msgctxt '{entry.msgctxt}')" if entry.msgctxt is not None else "")


def _texts(entry: polib.POEntry) -> list[str]:
    """The translation of ``entry``: its one ``msgstr``, or its plural forms."""
    return [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)] if entry.msgid_plural else [entry.msgstr]


def _entry_problems(catalog: _Catalog, entry: polib.POEntry) -> list[Diagnostic]:
    """A fuzzy message, an empty one, and a wrong number of plural forms."""
    if "fuzzy" in entry.flags:
        return [diag("catalog-fuzzy", catalog.at(entry), message=_name(entry), shown=entry.msgid)]
    if not all(_texts(entry)):
        return [diag("catalog-untranslated", catalog.at(entry), message=_name(entry), shown=entry.msgid)]
    forms = len(entry.msgstr_plural)
    if entry.msgid_plural and catalog.nplurals is not None and forms != catalog.nplurals:
        return [diag("catalog-plural-forms", catalog.at(entry, f"msgstr[{catalog.nplurals}]"), message=_name(entry), found=forms,
                     expected=catalog.nplurals)]
    return []


def _missing(catalogs: list[_Catalog]) -> list[Diagnostic]:
    """Each message a catalog has and another lacks, at the message in the catalog that has it."""
    return [diag("catalog-missing", have.at(entry), message=_name(entry), lang=lack.lang, path=format_path(lack.path))
            for have in catalogs for lack in catalogs if lack is not have
            for key, entry in have.entries.items() if key not in lack.entries]


def _said(entry: polib.POEntry) -> frozenset[str]:
    """The placeholders of a translation, all its plural forms together (a form may leave the number out:
    «un turno»)."""
    return frozenset(p for text in _texts(entry) for p in placeholders(text))


def _placeholder_problems(catalogs: list[_Catalog]) -> list[Diagnostic]:
    """Each translation whose placeholders are not its message's: those of the ``msgid`` when it has any (an English
    sentence), else (a key such as ``calc_range``) those of the same message in the other catalogs."""
    found = []
    for catalog in catalogs:
        for key, entry in catalog.entries.items():
            said = _said(entry)
            source, expected = _expected(catalog, key, entry, catalogs)
            if expected is not None and said != expected and _used(entry):
                found.append(diag("catalog-placeholder", catalog.at_placeholder(entry, expected), message=_name(entry),
                                  found=_shown(said), source=source, expected=_shown(expected)))
    return found


def _expected(catalog: _Catalog, key: Key, entry: polib.POEntry,
              catalogs: list[_Catalog]) -> tuple[str, frozenset[str] | None]:
    """What the placeholders of ``entry`` should be, and whose they are."""
    own = frozenset(placeholders(entry.msgid) + placeholders(entry.msgid_plural or ""))
    if own:
        return "its msgid", own
    for other in catalogs:
        theirs = other.entries.get(key)
        if other is not catalog and theirs is not None and _used(theirs) and _said(theirs) != _said(entry):
            return f"the {other.lang} catalog's ({format_path(other.path)}:{other.at(theirs, 'msgstr').line})", _said(theirs)
    return "", None


def _used(entry: polib.POEntry) -> bool:
    """Whether the site uses the translation of ``entry`` (it is neither fuzzy nor empty)."""
    return "fuzzy" not in entry.flags and all(_texts(entry))


def _shown(names: frozenset[str]) -> str:
    return " ".join(sorted(names)) or "none"


SPANISH_NOTE = "Spanish: "
"""How the English catalog's comment (``#.``) on a message whose msgid is a code key starts: the Spanish follows."""
_KEY = re.compile(r"[a-z][a-z0-9_]*")


def with_spanish_notes(english: polib.POFile, spanish: polib.POFile) -> int:
    """Give each message of the ``english`` catalog whose msgid is a code key (``intro``, ``quickref_intro``) a
    translator comment carrying the ``spanish`` catalog's text of it (``#. Spanish: …``; plural forms separated by
    `` | ``), so a translator sees the source words, not the key; other comment lines are kept. Returns how many
    messages changed (none when the comments are up to date). ``tools/catalog_comments.py`` writes them."""
    source = {(e.msgctxt, e.msgid): e for e in spanish if not e.obsolete}
    changed = 0
    for entry in english:
        es = source.get((entry.msgctxt, entry.msgid))
        if entry.obsolete or es is None or not _KEY.fullmatch(entry.msgid):
            continue
        note = SPANISH_NOTE + " | ".join(printable(text) for text in _texts(es))
        comment = "\n".join([line for line in entry.comment.splitlines() if not line.startswith(SPANISH_NOTE)] + [note])
        changed += comment != entry.comment
        entry.comment = comment
    return changed
