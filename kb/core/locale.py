"""Words the engine writes itself, per language: gettext catalogs, numbers, percentages, lists.

The interface strings live in one gettext catalog per language, ``kb/locale/<lang>/LC_MESSAGES/kb.po``
(English ``msgid``s; ``msgctxt`` where one English word has two meanings). They are read with Babel and
compiled in memory on first use, so a translator edits a ``.po`` file and nothing else; the plural rule
of each catalog (its ``Plural-Forms`` header) drives :func:`ngettext`. Numbers, percentages and lists
go through Babel's CLDR data: ``31,5 %`` and ``a, b y c`` in Spanish, ``31.5%`` and ``a, b and c`` in English.
"""

from __future__ import annotations

from kb.core.model import LANGS
from typing import Literal, Mapping

import gettext as _gettext
import io
from contextlib import redirect_stdout
import re
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent, get_decimal_symbol

__all__ = ["LOCALE_DIR", "LANGS", "catalog_path", "translations", "gettext", "pgettext", "ngettext", "npgettext", "plural_forms", "decimal_mark",
           "number", "signed", "percent", "join", "fill"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/kb.po``."""
DOMAIN = "kb"


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (the English msgids themselves when there is none)."""
    path = catalog_path(lang)
    if not path.is_file():
        return _gettext.NullTranslations()
    with path.open("rb") as fh, redirect_stdout(io.StringIO()):  # Babel prints its doubts unlocated: `kb check`
        catalog = read_po(fh, locale=lang, domain=DOMAIN)        # and `kb build` say them at file.po:line
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


def gettext(lang: str, message: str) -> str:
    """``message`` (an English msgid) in ``lang``."""
    return translations(lang).gettext(message)


def pgettext(lang: str, context: str, message: str) -> str:
    """``message`` in ``lang``, in the sense ``context`` names (``msgctxt``)."""
    return translations(lang).pgettext(context, message)


def fill(template: str, values: Mapping[str, str]) -> str:
    """A catalog's ``template`` with each ``{name}`` of ``values`` replaced, any other brace left as it is: a
    translator's stray ``{x}`` or ``{n.__class__}`` is text, never a crash nor a lookup (``str.format`` would be)."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of the message that goes with ``n`` in ``lang``; ``{n}`` in it is filled with ``n``."""
    return translations(lang).ngettext(singular, plural, n).replace("{n}", number(n, lang))


def npgettext(lang: str, context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a ``msgctxt``."""
    return translations(lang).npgettext(context, singular, plural, n).replace("{n}", number(n, lang))


PLURAL_SPAN = 200
"""The numbers :func:`plural_forms` names a form for; from 100 on every catalog's plural rule repeats each hundred."""


def plural_forms(lang: str, context: str, singular: str, plural: str) -> dict[str, object]:
    """A plural message as a page's script picks its form, by the catalog's own rule (its ``Plural-Forms``) without
    evaluating it: ``forms``, the catalog's texts (``{n}`` left in), and ``pick``, the index in ``forms`` of the form
    for each n below :data:`PLURAL_SPAN`, one digit each (a number n beyond takes the form of ``100 + n % 100``)."""
    texts = [translations(lang).npgettext(context, singular, plural, n) for n in range(PLURAL_SPAN)]
    forms = list(dict.fromkeys(texts))
    return {"forms": forms, "pick": "".join(str(forms.index(t)) for t in texts)}


def number(value: int | float | Fraction, lang: str) -> str:
    """A number as ``lang`` writes it (CLDR): ``5,5`` / ``5.5``, ``12.000`` / ``12,000``; whole numbers without decimals."""
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return _decimal(type(value).__name__, value, lang)


@lru_cache(maxsize=8192)
def _decimal(_kind: str, value: int | float, lang: str) -> str:
    """Babel's formatting, remembered: the calculators word the same few numbers hundreds of thousands of times."""
    return format_decimal(value, locale=lang)


def decimal_mark(lang: str) -> str:
    """The mark between a number's whole part and its decimals in ``lang`` (CLDR): ``,`` / ``.``."""
    return str(get_decimal_symbol(lang))


def signed(value: int | float, lang: str) -> str:
    """A modifier with its sign: ``+2``, ``−1`` (a true minus sign)."""
    shown = number(abs(value), lang)
    return f"+{shown}" if value > 0 else (f"−{shown}" if value < 0 else shown)


def percent(value: Fraction | float, lang: str) -> str:
    """A probability as ``lang`` writes a percentage with one decimal: ``31,5 %`` / ``31.5%``."""
    pattern = Locale.parse(lang).percent_formats[None].pattern.replace("#,##0", "#,##0.#", 1)
    return format_percent(float(value), locale=lang, format=pattern)


def join(items: list[str], lang: str, style: Literal["standard", "or"] = "standard") -> str:
    """Items as a list in ``lang``: ``a, b y c`` / ``a, b, and c`` (``style="or"`` for alternatives)."""
    return _joined(tuple(items), lang, style) if items else ""


@lru_cache(maxsize=8192)
def _joined(items: tuple[str, ...], lang: str, style: Literal["standard", "or"]) -> str:
    """Babel's list pattern, remembered (like :func:`_decimal`: a calculator words the same lists again and again)."""
    return format_list(list(items), style=style, locale=lang)
