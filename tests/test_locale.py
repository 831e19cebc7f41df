"""The engine's interface strings: gettext catalogs per language, numbers and plurals through Babel."""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import polib
import pytest

from kb.core.locale import LANGS, catalog_path, join, ngettext, number, pgettext, percent
from kb.mechanics import Trace

KB = Path(__file__).resolve().parent.parent / "kb"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt not installed")
@pytest.mark.parametrize("lang", LANGS)
def test_catalog_passes_msgfmt_check(lang: str) -> None:
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(catalog_path(lang))], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_catalogs_hold_the_same_messages_all_translated() -> None:
    keys = {}
    for lang in LANGS:
        po = polib.pofile(str(catalog_path(lang)))
        keys[lang] = {(e.msgctxt, e.msgid) for e in po}
        assert not po.untranslated_entries(), [e.msgid for e in po.untranslated_entries()]
        assert not po.fuzzy_entries()
    assert keys["es"] == keys["en"]


def test_every_label_the_code_asks_for_is_in_both_catalogs() -> None:
    asked = set()
    for path in (KB / "site").glob("*.py"):
        src = path.read_text(encoding="utf-8")
        asked |= {("label", k) for k in re.findall(r"\blabel\(['\"]([a-z_]+)['\"],", src)}
        asked |= {("site", k) for k in re.findall(r"\bt\(ctx, ['\"]([a-z_]+)['\"]\)", src)}
    assert len(asked) > 30
    for lang in LANGS:
        po = polib.pofile(str(catalog_path(lang)))
        have = {(e.msgctxt, e.msgid) for e in po}
        assert not asked - have, sorted(asked - have)


def test_numbers_percentages_lists_per_locale() -> None:
    assert percent(Fraction(63, 200), "es") == "31,5\u00a0%"
    assert percent(Fraction(63, 200), "en") == "31.5%"
    assert number(5.5, "es") == "5,5" and number(5.5, "en") == "5.5"
    assert join(["a", "b", "c"], "es") == "a, b y c"
    assert pgettext("es", "label", "see_also") == "Véase también"


def test_plurals_come_from_the_catalog() -> None:
    assert ngettext("es", "{n} entry", "{n} entries", 1) == "1 entrada"
    assert ngettext("es", "{n} entry", "{n} entries", 3) == "3 entradas"
    assert ngettext("en", "{n} entry", "{n} entries", 1) == "1 entry"


def test_trace_plural_fields_follow_the_number() -> None:
    trace = Trace()
    trace.add("Sobran {e} {e:p:punto|puntos}", "{e} {e:p:point|points} too many", e=1)
    trace.add("Sobran {e} {e:p:punto|puntos}", "{e} {e:p:point|points} too many", e=2)
    assert [s.text.es for s in trace.steps] == ["Sobran 1 punto", "Sobran 2 puntos"]
    assert trace.steps[1].say("en", str) == "2 points too many"


def test_lists_read_by_style_and_language_each_time() -> None:
    for _ in range(2):  # the second time from memory: the same words
        assert join(["a", "b", "c"], "es") == "a, b y c"
        assert join(["a", "b", "c"], "es", style="or") == "a, b o c"
        assert join(["a", "b", "c"], "en") == "a, b, and c"
        assert join(["a", "b", "c"], "en", style="or") == "a, b, or c"
    assert join([], "en") == ""


def test_the_engines_words_for_a_player_read_as_a_player_writes() -> None:
    """Audit 2, defect 9: the add button adds one row («Añadir tirada enfrentada», not «Añadir a …», which reads
    "add to the roll"), a checked example says what was checked (not «Comprobado en la compilación»), a field held
    fixed says so (not «valor del ejemplo»), another case names the rule that settles it (not «Es otro caso»)."""
    from kb.view.worked import refusal_sentence

    assert [pgettext(lang, "site", "calc_add").format(label="x") for lang in LANGS] == ["Añadir x", "Add x"]
    assert [pgettext(lang, "site", "calc_fixed") for lang in LANGS] == ["fijo en este ejemplo", "fixed in this example"]
    assert [pgettext(lang, "label", "verified") for lang in LANGS] == ["Comprobado: la regla da esta respuesta",
                                                                        "Checked: the rule gives this answer"]
    assert [refusal_sentence("elsewhere", "R.", "Tirada", lang) for lang in LANGS] == [
        "Esto lo resuelve otra regla: R. Consulta Tirada.", "Another rule settles this: R. See Tirada."]
    from kb.core.locale import ngettext

    home = [ngettext(lang, "{ok} of {n} worked example verified by this build.",
                     "{ok} of {n} worked examples verified by this build.", 551).format(ok=551) for lang in LANGS]
    assert home == ["551 de 551 ejemplos resueltos comprobados aplicando sus reglas.",
                    "551 of 551 worked examples checked by running their rules."]  # not «en esta compilación»
    assert not any(w in pgettext(lang, "site", "intro") for lang in LANGS for w in ("compilación", "build"))
    # a calculator's refusal names no entry: no dangling «Consulta .» (the built site had it in 5 answers' files)
    assert [refusal_sentence("elsewhere", "R.", None, lang) for lang in LANGS] == [
        "Esto lo resuelve otra regla: R.", "Another rule settles this: R."]
