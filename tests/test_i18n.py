"""Translators' workflow: staleness per field, ack, glossary consistency, PO export and import."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import polib
import pytest

from conftest import CONTENT, cli
from kb import KnowledgeBase
from kb.i18n.po import WEBLATE_MARKUP_FLAG
from kb.i18n.status import field_status, owners, source_hash

H = source_hash

TERM = f"""\
    # yaml-language-server: $schema=../../../kb/schema/entry.schema.json
    id: g.engaged
    kind: term
    game: g
    title: {{es: Trabado, en: Engaged}}
    summary:
      es: Una miniatura está trabada si está a 1" de un enemigo.
      en: A model is engaged if it is within 1" of an enemy.
    source: {{doc: seed.txt, section: Combate}}
    term:
      forms:
        es: [trabado, trabado en combate]
        en: [engaged, engaged in combat]
      forbidden: {{en: [locked]}}
    i18n:
      en:
        title: {H("Trabado")}
        summary: {H('Una miniatura está trabada si está a 1" de un enemigo.')}
    """

KI = f"""\
    id: g.ki
    kind: term
    game: g
    title: {{es: Ki, en: Ki}}
    source: {{doc: seed.txt, section: Ki}}
    term:
      forms: {{es: [Ki], en: [Ki]}}
      do_not_translate: true
    i18n:
      en:
        title: {H("Ki")}
    """

SHOOT_TEXT_ES = ('Cuando una miniatura dispara contra un enemigo\n'
                 '{@term g.engaged|trabado}, el objetivo se elige al azar.\n')
SHOOT = f"""\
    # Disparar a un combate: comentario de cabecera
    id: g.shoot
    kind: rule
    game: g
    title: {{es: Disparar a un combate, en: Shooting into combat}}  # título corto
    summary:
      es: Si el objetivo está trabado, se elige al azar.
      en: If the target is engaged, it is picked at random.
    text:
      es: |
        Cuando una miniatura dispara contra un enemigo
        {{@term g.engaged|trabado}}, el objetivo se elige al azar.
      en: |
        When a model shoots at an enemy {{@term g.engaged|engaged}}
        with another, the target is picked at random.
    notes:
      es: El reglamento no dice qué pasa con las plantillas.
      en: The rulebook does not say what happens with templates.
    source: {{doc: seed.txt, section: Disparo}}  # sección
    examples:
      - id: lowest
        title: {{es: La carta más baja}}
        mechanic: cards.flip-select
        given: {{flips: {{a: 3, b: 5}}}}
        expect: {{target: a}}
    i18n:
      en:
        title: {H("Disparar a un combate")}
        summary: {H("Si el objetivo está trabado, se elige al azar.")}
        text: {H(SHOOT_TEXT_ES)}
        notes: {H("El reglamento no dice qué pasa con las plantillas.")}
    """

GAME = f"""\
    id: g
    name: {{es: Juego g, en: Game g}}
    source_language: es
    sources:
      - doc: seed.txt
    i18n:
      en:
        name: {H("Juego g")}
    """

FILES = {"g/game.yaml": GAME, "g/terms/engaged.yaml": TERM, "g/terms/ki.yaml": KI, "g/rules/shoot.yaml": SHOOT}
SHOOT_PATH = "content/g/rules/shoot.yaml"


@pytest.fixture
def root(tree: Callable[..., Path]) -> Path:
    """A small content tree in ``tmp_path/content``; the working directory is ``tmp_path``."""
    return tree(FILES)


def kb_(root: Path, *argv: str) -> tuple[int, str, str]:
    return cli("--content", str(root), *argv)


def statuses(root: Path) -> dict[tuple[str, str], str]:
    kb = KnowledgeBase.load(root)
    return {(st.entry, st.field): st.status for e in owners(kb.entries.values(), kb.games) for st in field_status(e)}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def export(root: Path, out: Path, *extra: str) -> polib.POFile:
    code, stdout, stderr = kb_(root, "i18n", "export", "--lang", "en", "-o", str(out), *extra)
    assert code == 0, stderr
    assert stdout.startswith(f"wrote {out}: ")
    return polib.pofile(str(out))


def entry(po: polib.POFile, context: str) -> polib.POEntry:
    found = [e for e in po if e.msgctxt == context]
    assert len(found) == 1, context
    return found[0]


def changed_lines(before: list[str], after: list[str]) -> list[tuple[str, str]]:
    assert len(before) == len(after), "\n".join(after)
    return [(a, b) for a, b in zip(before, after) if a != b]


# ---------------------------------------------------------------- staleness, status, ack


def test_fixture_is_current_except_the_untranslated_title(root: Path) -> None:
    st = statuses(root)
    assert st.pop(("g.shoot", "examples[lowest].title")) == "missing"
    assert set(st.values()) == {"current"}
    code, out, _ = kb_(root, "i18n", "status")
    assert code == 0
    assert out.splitlines() == [
        "game                   lang  fields  current  stale  missing",
        "g                      en         9        8      0        1",
        "content/g/rules/shoot.yaml:22:12: missing: g.shoot examples[lowest].title",
    ]
    assert kb_(root, "i18n", "status", "--check")[0] == 1


def test_status_prints_a_field_name_with_line_breaks_on_one_line(root: Path) -> None:
    edit(root / "g/rules/shoot.yaml", "id: lowest", 'id: "bad`\\n\\n# Forged\\nkb: forged \\u202e"')  # breaks the schema
    code, out, _ = kb_(root, "i18n", "status")
    assert code == 0
    assert out.splitlines()[2:] == [
        "content/g/rules/shoot.yaml:22:12: missing: g.shoot examples[bad`\\n\\n# Forged\\nkb: forged \\u202e].title"]


def test_spanish_edit_makes_only_that_field_stale(root: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    edit(path, "se elige al azar.\n  en: If", "se decide al azar.\n  en: If")
    st = statuses(root)
    assert st[("g.shoot", "summary")] == "stale"
    assert [k for k, v in st.items() if v == "stale"] == [("g.shoot", "summary")]
    code, out, _ = kb_(root, "i18n", "status", "--check", "--game", "g")
    assert code == 1
    assert "content/g/rules/shoot.yaml:8:7: stale: g.shoot summary" in out.splitlines()
    code, out, _ = kb_(root, "check")
    assert ("content/g/rules/shoot.yaml:8:7: warning[stale-translation]: English 'summary' is not marked as made "
            "from the current Spanish; update the English (kb i18n export, translate, kb i18n import), or run "
            "'kb i18n ack' only when the Spanish edit does not change the meaning") in out.splitlines()


def test_rewrapping_the_spanish_is_not_a_change(root: Path) -> None:
    edit(root / "g/rules/shoot.yaml", "dispara contra un enemigo\n    {@term", "dispara contra   un enemigo {@term")
    assert statuses(root)[("g.shoot", "text")] == "current"


def test_ack_records_the_new_hash_and_nothing_else(root: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    edit(path, "se elige al azar.\n  en: If", "se elige al azar (errata).\n  en: If")
    before = path.read_text(encoding="utf-8").splitlines()
    code, out, _ = kb_(root, "i18n", "ack", "g.shoot", "--field", "summary")
    assert (code, out.splitlines()) == (0, [f"updated {SHOOT_PATH}", "1 file(s) updated"])
    after = path.read_text(encoding="utf-8").splitlines()
    assert changed_lines(before, after) == [
        (f"    summary: {H('Si el objetivo está trabado, se elige al azar.')}",
         f"    summary: {H('Si el objetivo está trabado, se elige al azar (errata).')}"),
    ]
    assert statuses(root)[("g.shoot", "summary")] == "current"
    assert kb_(root, "i18n", "ack", "g")[1].splitlines() == ["0 file(s) updated"]
    assert kb_(root, "i18n", "ack", "g.nope")[0] == 2


def test_ack_of_a_field_no_named_entry_has_says_so_and_records_nothing(root: Path) -> None:
    """Audit-trans D8: `ack g.shoot --field sumary` said "0 file(s) updated", exit 0, as if there were nothing to do."""
    path = root / "g/rules/shoot.yaml"
    edit(path, "se elige al azar.\n  en: If", "se elige al azar (errata).\n  en: If")
    before = path.read_bytes()
    code, out, err = kb_(root, "i18n", "ack", "g.shoot", "--field", "summary", "--field", "sumary")
    assert (code, out) == (2, "")
    assert err.startswith("kb i18n ack: no translatable field 'sumary' in g.shoot; did you mean 'summary'? (its "
                          "fields: "), err
    assert err.endswith("); nothing recorded\n") and path.read_bytes() == before
    assert kb_(root, "i18n", "ack", "g", "--field", "sumary")[0] == 2


def test_a_wrapped_line_starting_1_paren_is_part_of_its_paragraph(root: Path, tmp_path: Path) -> None:
    """Audit-trans D7: the Spanish wraps «… entre 0,5 y» / «1) no hace falta elegir…»; the site reads one paragraph
    (a list starts its block), but the export took the second line for a list item and wrote the whole field as one
    message noted "The English does not have the paragraphs and list items of the Spanish", on every export."""
    from kb.i18n.units import split
    from kb.view.anchors import blocks

    spanish = "Elige un valor entre 0,5 y\n1) no hace falta elegir uno.\n\n- a\n- b\n2) c"
    assert [u.text for u in split(spanish)] == ["Elige un valor entre 0,5 y 1) no hace falta elegir uno.", "a", "b",
                                                "c"]
    assert len(split(spanish)) == len(blocks(spanish))
    edit(root / "g/rules/shoot.yaml", "es: El reglamento no dice qué pasa con las plantillas.",
         "es: |\n        El reglamento da un valor entre 0,5 y\n        1) no hace falta elegir uno.")
    item = entry(export(root, tmp_path / "en.po"), "g.shoot|notes")
    assert item.msgid == "El reglamento da un valor entre 0,5 y 1) no hace falta elegir uno."
    assert "does not have the paragraphs" not in item.comment


def test_ack_keeps_a_windows_files_line_endings(root: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    edit(path, "se elige al azar.\n  en: If", "se elige al azar (errata).\n  en: If")
    before = path.read_bytes().replace(b"\n", b"\r\n")  # saved on Windows
    path.write_bytes(before)
    assert kb_(root, "i18n", "ack", "g.shoot", "--field", "summary")[0] == 0
    after = path.read_bytes()
    assert after.count(b"\r\n") == after.count(b"\n") == before.count(b"\r\n")  # every line still CRLF
    assert len(changed_lines(before.split(b"\r\n"), after.split(b"\r\n"))) == 1  # the diff is the one line acked


def test_status_json_counts_per_game(root: Path) -> None:
    code, out, _ = kb_(root, "i18n", "status", "--json")
    data = json.loads(out)
    assert data["games"] == {"g": {"lang": "en", "fields": 9, "current": 8, "stale": 0, "missing": 1}}
    assert data["pending"] == [{"entry": "g.shoot", "field": "examples[lowest].title", "status": "missing",
                                "path": SHOOT_PATH, "line": 22, "column": 12}]
    assert kb_(root, "i18n", "status", "--game", "nope")[0] == 2


# ---------------------------------------------------------------- glossary consistency


GLOSSARY_RULE = f"""\
    id: g.melee
    kind: rule
    game: g
    title: {{es: Trabadas, en: Locking}}
    summary:
      es: Las miniaturas trabadas en combate no pueden disparar.
      en: Models locked in combat cannot shoot.
    text:
      es: Una miniatura que se trabó con otra gasta Ki para separarse.
      en: A model that engages another spends Ki to break away.
    notes:
      es: Dos miniaturas trabadas gastan Ki.
      en: Two models in melee spend energy.
    source: {{doc: seed.txt, section: Combate}}
    i18n:
      en:
        title: {H("Trabadas")}
        summary: {H("Las miniaturas trabadas en combate no pueden disparar.")}
        text: {H("Una miniatura que se trabó con otra gasta Ki para separarse.")}
        notes: {H("Dos miniaturas trabadas gastan Ki.")}
    """


def test_glossary_consistency_on_inflected_forms(tree: Callable[..., Path]) -> None:
    root = tree({**FILES, "g/rules/melee.yaml": GLOSSARY_RULE})
    code, out, _ = kb_(root, "check")
    found = [line for line in out.splitlines() if "[glossary-" in line]
    p = "content/g/rules/melee.yaml"
    assert found == [
        f"{p}:4:27: error[glossary-forbidden]: English 'title' uses 'Locking' for 'g.engaged'; write 'engaged'",
        f"{p}:4:27: warning[glossary-missing]: Spanish 'title' uses 'Trabadas' but the English does not say 'engaged'",
        f"{p}:7:7: warning[glossary-missing]: Spanish 'summary' uses 'trabadas en combate' but the English does not "
        "say 'engaged'",
        f"{p}:7:14: error[glossary-forbidden]: English 'summary' uses 'locked' for 'g.engaged'; write 'engaged'",
        f"{p}:13:7: warning[glossary-missing]: Spanish 'notes' uses 'trabadas' but the English does not say 'engaged'",
        f"{p}:13:7: warning[glossary-missing]: Spanish 'notes' uses 'Ki' but the English does not say 'Ki'",
    ]
    assert code == 1  # forbidden variants are errors
    # the bundled fixture (links count as the text they show) is consistent
    assert not [line for line in out.splitlines() if "[glossary-" in line and "shoot.yaml" in line]


# ---------------------------------------------------------------- PO export and import


def test_export_has_one_entry_per_field_with_notes_glossary_and_location(root: Path, tmp_path: Path) -> None:
    po = export(root, tmp_path / "en.po")
    assert [e.msgctxt for e in po] == [
        "g|name", "g.shoot|title", "g.shoot|summary", "g.shoot|text", "g.shoot|notes", "g.shoot|examples[lowest].title",
        "g.engaged|title", "g.engaged|summary", "g.ki|title",
    ]
    text = entry(po, "g.shoot|text")
    assert text.msgid == " ".join(SHOOT_TEXT_ES.split())  # the authors' line break is gone
    assert text.msgstr == "When a model shoots at an enemy {@term g.engaged|engaged} with another, the target is " \
                          "picked at random."
    assert text.occurrences == [("content/g/rules/shoot.yaml", "11")]
    assert text.comment.splitlines() == [
        "rule «Disparar a un combate», field 'text'.",
        "Keep {@kind id} links as they are; translate only the text after '|'.",
        "Glossary: trabado → engaged (g.engaged); never: locked",
    ]
    # the entry's notes once, on its first message; the game file's fields are messages too
    assert [e.msgctxt for e in po if "Notes on this" in e.comment] == ["g.shoot|title"]
    assert "Notes on this rule (for all its fields): El reglamento no dice qué pasa con las plantillas." in \
        " ".join(entry(po, "g.shoot|title").comment.split())
    name = entry(po, "g|name")
    assert (name.msgid, name.msgstr, name.occurrences) == ("Juego g", "Game g", [("content/g/game.yaml", "2")])
    assert name.comment.splitlines()[0] == "game «Juego g», field 'name'."
    assert entry(po, "g.shoot|examples[lowest].title").msgstr == ""
    assert not any("fuzzy" in e.flags for e in po)
    assert po.metadata["Language"] == "en"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d\+0000", po.metadata["POT-Creation-Date"])
    # the markup is a Weblate placeholder: the flag marks exactly the messages with links
    flagged = sorted(e.msgctxt for e in po if WEBLATE_MARKUP_FLAG in e.flags)
    assert flagged == sorted(e.msgctxt for e in po if "{@" in e.msgid) and "g.shoot|text" in flagged
    pot = export(root, tmp_path / "en.pot", "--template")
    assert "Language" not in pot.metadata and "POT-Creation-Date" in pot.metadata
    assert not any(e.msgstr for e in pot)


def test_msgfmt_accepts_the_export(root: Path, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt not installed (Debian package 'gettext'): cannot check the PO file")
    edit(root / "g/rules/shoot.yaml", "se elige al azar.\n  en: If", "se decide al azar.\n  en: If")
    out = tmp_path / "en.po"
    export(root, out)
    done = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_po_round_trip_changes_only_the_translated_fields_and_their_hashes(root: Path, tmp_path: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    edit(path, "dispara contra un enemigo\n", "dispara a un enemigo\n")  # the text turns stale
    po = export(root, tmp_path / "en.po")
    text = entry(po, "g.shoot|text")
    assert "fuzzy" in text.flags
    text.msgstr = ("When a model fires at an enemy {@term g.engaged|engaged}\n"
                   "with another, the target is picked at random.")
    text.flags.remove("fuzzy")
    entry(po, "g.shoot|summary").msgstr = "If the target is engaged, the target is picked at random."
    po.save(str(tmp_path / "en.po"))
    before = path.read_text(encoding="utf-8").splitlines()
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "en.po"))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"{SHOOT_PATH}: updated g.shoot summary: English and hash",
        f"{SHOOT_PATH}: updated g.shoot text: English and hash",
        "2 field(s) updated in 1 file(s); 0 refused, 0 unknown; skipped: 1 empty, 6 unchanged",
    ]
    after = path.read_text(encoding="utf-8").splitlines()
    new_hash = H("Cuando una miniatura dispara a un enemigo\n{@term g.engaged|trabado}, el objetivo se elige al azar.")
    assert changed_lines(before, after) == [
        ("  en: If the target is engaged, it is picked at random.",
         "  en: If the target is engaged, the target is picked at random."),
        ("    When a model shoots at an enemy {@term g.engaged|engaged}",
         "    When a model fires at an enemy {@term g.engaged|engaged}"),
        (f"    text: {H(SHOOT_TEXT_ES)}", f"    text: {new_hash}"),
    ]
    assert set(statuses(root).values()) == {"current", "missing"}


def test_import_adds_a_missing_translation_after_the_spanish(root: Path, tmp_path: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    po = export(root, tmp_path / "en.po")
    entry(po, "g.shoot|examples[lowest].title").msgstr = "The lowest card"
    po.save(str(tmp_path / "en.po"))
    before = path.read_text(encoding="utf-8").splitlines()
    assert kb_(root, "i18n", "import", str(tmp_path / "en.po"))[0] == 0
    after = path.read_text(encoding="utf-8").splitlines()
    assert [a for a in after if a not in before] == [
        "    title: {es: La carta más baja, en: The lowest card}",
        f"    examples[lowest].title: {H('La carta más baja')}",
    ]
    assert len(after) == len(before) + 1
    assert after[:3] == before[:3]  # the comments stay
    assert set(statuses(root).values()) == {"current"}


def test_unchanged_import_of_the_bundled_content_is_byte_identical(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns("__pycache__"))
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    export(root, tmp_path / "all.po", "--no-history")
    msgfmt = shutil.which("msgfmt")  # the bundled export is also valid gettext (when msgfmt is here to say so)
    if msgfmt is not None:
        done = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(tmp_path / "all.po")], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "all.po"))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("0 field(s) updated in 0 file(s); 0 refused, 0 unknown")
    assert {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} == before


def _message_line(po_path: Path, context: str) -> int:
    """The line where the message of ``context`` starts (its first comment), as the import locates a message."""
    lines = po_path.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgctxt "{context}"')
    while at > 0 and lines[at - 1].strip():
        at -= 1
    return at + 1


def test_import_refuses_an_entry_whose_spanish_changed_after_export(root: Path, tmp_path: Path) -> None:
    path = root / "g/rules/shoot.yaml"
    po = export(root, tmp_path / "en.po")
    entry(po, "g.shoot|summary").msgstr = "If the target is engaged, a card flip decides."
    entry(po, "g.engaged|summary").msgstr = "A model is engaged when within 1\" of an enemy."
    po.save(str(tmp_path / "en.po"))
    edit(path, "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    before = path.read_bytes()
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "en.po"))
    assert code == 1
    line = _message_line(tmp_path / "en.po", "g.shoot|summary")
    [refusal] = err.splitlines()
    assert refusal.startswith(f"{tmp_path / 'en.po'}:{line}: refused g.shoot|summary: the msgid is not this "
                              "paragraph's Spanish now (the Spanish changed after the export, or the msgid was edited)")
    # the advice is the guide's (merge, never export afresh over a file holding work)
    assert f"kb i18n export --template -o g.pot --game g; msgmerge --previous --update {tmp_path / 'en.po'} g.pot" \
        in refusal and "export again" not in refusal
    assert out.splitlines()[0] == "content/g/terms/engaged.yaml: updated g.engaged summary: English and hash"
    assert path.read_bytes() == before


def test_a_message_left_as_exported_whose_spanish_changed_is_skipped_not_refused(root: Path, tmp_path: Path) -> None:
    """Nothing of the translator's is at stake: the field is named as skipped (it stays stale), the import exits 0."""
    po_path = tmp_path / "en.po"
    export(root, po_path)
    edit(root / "g/rules/shoot.yaml", "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    code, out, err = kb_(root, "i18n", "import", "--dry-run", str(po_path))
    assert (code, err) == (0, "")
    assert f"{po_path}:{_message_line(po_path, 'g.shoot|summary')}: skipped g.shoot|summary: the Spanish changed " \
        "after the export and this message is as exported" in out.splitlines()
    assert out.splitlines()[-1].endswith("0 refused, 0 unknown; skipped: 1 empty, 1 spanish-changed, 7 unchanged")


def test_an_older_po_file_never_reverts_english_changed_after_its_export(root: Path, tmp_path: Path) -> None:
    """Two translators export on Monday; B improves a summary and imports; A, who touched another field, imports
    later: B's English stays (A's file still holds Monday's English of every field). When A changed that summary too,
    the field is refused, located, naming both texts, and nothing of it is written."""
    a_po, b_po = export(root, tmp_path / "a.po"), export(root, tmp_path / "b.po")
    assert entry(a_po, "g.engaged|summary").tcomment == "kb-en: " + H('A model is engaged if it is within 1" of an enemy.')
    entry(b_po, "g.engaged|summary").msgstr = "A model is engaged while within 1\" of an enemy (B IMPROVED)."
    b_po.save(str(tmp_path / "b.po"))
    assert kb_(root, "i18n", "import", str(tmp_path / "b.po"))[0] == 0
    entry(a_po, "g.engaged|title").msgstr = "Engaged (A)"
    a_po.save(str(tmp_path / "a.po"))
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "a.po"))
    assert (code, err) == (0, ""), out + err
    assert out.splitlines()[0] == "content/g/terms/engaged.yaml: updated g.engaged title: English and hash"
    assert "B IMPROVED" in (root / "g/terms/engaged.yaml").read_text(encoding="utf-8")
    assert "Engaged (A)" in (root / "g/terms/engaged.yaml").read_text(encoding="utf-8")
    # A changed the summary as well: a conflict, refused before anything of that field is written
    entry(a_po, "g.engaged|summary").msgstr = "A model is engaged when within 1\" of an enemy (A)."
    a_po.save(str(tmp_path / "a.po"))
    before = (root / "g/terms/engaged.yaml").read_bytes()
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "a.po"))
    assert code == 1
    assert err.splitlines() == [
        f"{tmp_path / 'a.po'}:{_message_line(tmp_path / 'a.po', 'g.engaged|summary')}: refused g.engaged|summary: the "
        "English in the content changed after this file was exported, and the file changes it too: content «A model "
        "is engaged while within 1\" of an enemy (B IMPROVED).», file «A model is engaged when within 1\" of an enemy "
        "(A).»; keep one: copy the content's English into msgstr, or delete the message's '# kb-en:' line to put "
        "yours in its place"]
    assert (root / "g/terms/engaged.yaml").read_bytes() == before
    # the record is gone (a file from before it, or the translator's choice): the file's English goes in
    entry(a_po, "g.engaged|summary").tcomment = ""
    a_po.save(str(tmp_path / "a.po"))
    code, _, err = kb_(root, "i18n", "import", str(tmp_path / "a.po"))
    assert code == 0 and err == (f"kb i18n import: warning: 1 message(s) of {tmp_path / 'a.po'} carry no '# kb-en:' "
                                 "record (a file exported before kb wrote one, or the line deleted): their English "
                                 "replaces the content's even where that changed after the export; check 'git diff' "
                                 "before committing\n")
    assert "(A)." in (root / "g/terms/engaged.yaml").read_text(encoding="utf-8")


def test_a_conflict_names_both_whole_texts_however_long(root: Path, tmp_path: Path) -> None:
    """Audit-trans D1: the refusal cut both texts at 120 characters, so a colleague's words at the end of a long
    English («(edited by a colleague)») never showed, in the text nor in --json. Both texts now come whole, and
    --json gives them as content_english and file_english."""
    a_po, b_po = export(root, tmp_path / "a.po"), export(root, tmp_path / "b.po")
    long = "A model is engaged while within 1\" of an enemy model, " + "and it stays engaged " * 8
    entry(b_po, "g.engaged|summary").msgstr = long + "(edited by a colleague)."
    b_po.save(str(tmp_path / "b.po"))
    assert kb_(root, "i18n", "import", str(tmp_path / "b.po"))[0] == 0
    entry(a_po, "g.engaged|summary").msgstr = long + "until it can see the other."
    a_po.save(str(tmp_path / "a.po"))
    code, _, err = kb_(root, "i18n", "import", str(tmp_path / "a.po"))
    assert code == 1
    assert f"content «{long}(edited by a colleague).», file «{long}until it can see the other.»" in err, err
    code, out, _ = kb_(root, "i18n", "import", "--json", str(tmp_path / "a.po"))
    refused = json.loads(out)["refused"]
    assert [(r["content_english"], r["file_english"]) for r in refused] == [
        (long + "(edited by a colleague).", long + "until it can see the other.")]


def test_a_translator_goes_on_in_the_same_file_after_an_import(root: Path, tmp_path: Path) -> None:
    """The import brings the records of the messages it wrote up to date (only those lines of the PO file change), so a
    later change to the same message in the same file is the translator's again, not a conflict with their import."""
    po_path = tmp_path / "en.po"
    po = export(root, po_path)
    entry(po, "g.engaged|summary").msgstr = "A model is engaged while within 1\" of an enemy."
    po.save(str(po_path))
    before = po_path.read_text(encoding="utf-8").splitlines()
    assert kb_(root, "i18n", "import", "--dry-run", str(po_path))[0] == 0
    assert po_path.read_text(encoding="utf-8").splitlines() == before  # a dry run writes nothing
    assert kb_(root, "i18n", "import", str(po_path))[0] == 0
    after = po_path.read_text(encoding="utf-8").splitlines()
    assert changed_lines(before, after) == [
        ("# kb-en: " + H('A model is engaged if it is within 1" of an enemy.'),
         "# kb-en: " + H('A model is engaged while within 1" of an enemy.'))]
    po = polib.pofile(str(po_path))
    entry(po, "g.engaged|summary").msgstr = "A model is engaged while it is within 1\" of an enemy."
    po.save(str(po_path))
    code, out, err = kb_(root, "i18n", "import", str(po_path))
    assert (code, err) == (0, ""), out + err
    assert "while it is within" in (root / "g/terms/engaged.yaml").read_text(encoding="utf-8")


def test_the_record_of_the_exported_english_survives_msgmerge_and_translate_toolkit(root: Path,
                                                                                    tmp_path: Path) -> None:
    """The record is a translator comment: msgmerge keeps the translator's file's (also of a message whose Spanish
    changed), translate-toolkit keeps it on save; a new message gets the template's record of the English now."""
    msgmerge = shutil.which("msgmerge")
    if msgmerge is None:
        pytest.skip("msgmerge (Debian package 'gettext') is needed")
    po = export(root, tmp_path / "en.po")
    record = entry(po, "g.shoot|summary").tcomment
    edit(root / "g/rules/shoot.yaml", "se elige al azar.\n  en: If", "se elige al azar entre ellos.\n  en: If")
    assert kb_(root, "i18n", "export", "--template", "-o", str(tmp_path / "g.pot"))[0] == 0
    subprocess.run([msgmerge, "--quiet", "--previous", "--update", str(tmp_path / "en.po"), str(tmp_path / "g.pot")],
                   check=True)
    merged = entry(polib.pofile(str(tmp_path / "en.po")), "g.shoot|summary")
    assert merged.tcomment == record and "fuzzy" in merged.flags
    store = _tt("pypo").pofile.parsefile(str(tmp_path / "en.po"))  # type: ignore[attr-defined]
    store.savefile(str(tmp_path / "tt.po"))
    assert entry(polib.pofile(str(tmp_path / "tt.po")), "g.shoot|summary").tcomment == record


def test_export_and_glossary_never_write_over_work_or_the_content(root: Path, tmp_path: Path) -> None:
    """A PO file holding translations not imported yet, a file of another tool, anything in the content folder: the
    export and the glossary refuse it (exit 2, nothing written); an untouched earlier export or glossary is replaced;
    --force replaces any file outside the content folder."""
    po_path = tmp_path / "wip.po"
    po = export(root, po_path)
    export(root, po_path)  # an untouched export: replaced
    entry(po, "g.shoot|title").msgstr = "Shooting into a melee (work in progress)"
    po.save(str(po_path))
    before = po_path.read_bytes()
    code, out, err = kb_(root, "i18n", "export", "-o", str(po_path))
    assert (code, out) == (2, "") and po_path.read_bytes() == before
    assert err.startswith(f"kb i18n export: {po_path} holds 1 translation(s) that are not in the content (the first: "
                          f"g.shoot|title, line {_message_line(po_path, 'g.shoot|title')}): a fresh export would lose "
                          "them; import it first, or bring it up to date with 'kb i18n export --template -o X.pot' and "
                          f"'msgmerge --previous --update {po_path} X.pot'") and "--force" in err
    assert kb_(root, "i18n", "import", str(po_path))[0] == 0
    export(root, po_path)  # imported: nothing of it would be lost
    game = root / "g" / "game.yaml"
    yaml_before = game.read_bytes()
    for argv in (("export", "-o", str(game)), ("export", "--force", "-o", str(game)),
                 ("glossary", "--force", "-o", str(root / "g" / "terms" / "engaged.yaml")),
                 ("glossary", "-o", str(root / "g" / "new.tbx"))):
        code, out, err = kb_(root, "i18n", *argv)
        assert code == 2 and "is in the content folder" in err and "nothing was written" in err, argv
    assert game.read_bytes() == yaml_before and not (root / "g" / "new.tbx").exists()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    for argv in (("export", "-o", str(notes)), ("glossary", "-o", str(notes)), ("glossary", "--format", "csv", "-o",
                                                                                 str(notes))):
        code, _, err = kb_(root, "i18n", *argv)
        assert code == 2 and "exists and is not a" in err and notes.read_text(encoding="utf-8") == "mine\n", argv
    for fmt in ("tbx", "csv"):  # a glossary of ours is replaced
        assert kb_(root, "i18n", "glossary", "--format", fmt, "-o", str(tmp_path / f"g.{fmt}"))[0] == 0
        assert kb_(root, "i18n", "glossary", "--format", fmt, "-o", str(tmp_path / f"g.{fmt}"))[0] == 0
    assert kb_(root, "i18n", "export", "--force", "-o", str(notes))[0] == 0
    assert "X-Generator: kb i18n export" in notes.read_text(encoding="utf-8")


@pytest.mark.parametrize("english, at, problem", [
    ('Engaged: a model within 1" of an enemy.', None, "0 bold span(s) (**…**) where the Spanish has 1"),
    ('**Engaged: a model within 1" of an enemy.', "**", "'**' is opened and not closed (the page would show it)"),
    ('**Engaged:** a model within 1" of an *enemy.', "*enemy", "'*' is opened and not closed (the page would show it)"),
])
def test_emphasis_dropped_or_left_open_is_reported_at_the_mark(root: Path, tmp_path: Path, english: str,
                                                                at: str | None, problem: str) -> None:
    """A bold label dropped from a paragraph, or an unclosed '**' (literal asterisks on the page): a warning, located,
    the field still imported (as a dropped link is)."""
    edit(root / "g/terms/engaged.yaml", "es: Una miniatura está trabada si está a 1\" de un enemigo.",
         "es: '**Trabada:** una miniatura está trabada si está a 1\" de un enemigo.'")
    po_path = tmp_path / "en.po"
    po = export(root, po_path)
    item = entry(po, "g.engaged|summary")
    item.msgstr, item.flags = english, [f for f in item.flags if f != "fuzzy"]  # reviewed
    po.save(str(po_path))
    code, out, err = kb_(root, "i18n", "import", "--dry-run", str(po_path))
    assert code == 0, out + err
    line, col = _po_position(po_path, f'msgstr "{english[:12]}', at or english[:12])
    assert err.splitlines() == [f"en.po:{line}:{col}: warning[emphasis-changed]: English 'summary': {problem}; keep "
                                "the emphasis markup of the Spanish [g.engaged|summary]"]
    assert "would update g.engaged summary: English and hash" in out


@pytest.mark.parametrize("english, reason", [
    ("3. If the target is engaged, it is picked at random.", "the English starts with a list marker ('3.'), which the "
     "import puts back itself; remove it"),
    ("- If the target is engaged, it is picked at random.", "the English starts with a list marker ('-')"),
    ("If the target is engaged,\n\nit is chosen at random.", "the English holds a blank line, but this message is one "
     "paragraph or list item (the Spanish's structure is kept); write it as one paragraph"),
    ("If the target is engaged:\n- it is picked at random.", "the English holds a line starting a list item ('-')"),
])
def test_a_paragraph_message_cannot_change_the_fields_structure(root: Path, tmp_path: Path, english: str,
                                                                reason: str) -> None:
    """A list marker or a blank line typed in the message of one paragraph would double a marker, turn a paragraph
    into a list item, or be folded away: refused at the message, nothing written. A line break alone is wrapping."""
    po_path = tmp_path / "en.po"
    po = export(root, po_path)
    entry(po, "g.shoot|summary").msgstr = english
    po.save(str(po_path))
    before = (root / "g/rules/shoot.yaml").read_bytes()
    code, _, err = kb_(root, "i18n", "import", str(po_path))
    assert code == 1
    [line] = err.splitlines()
    assert line.startswith(f"{po_path}:{_message_line(po_path, 'g.shoot|summary')}: refused g.shoot|summary: {reason}")
    assert (root / "g/rules/shoot.yaml").read_bytes() == before
    entry(po, "g.shoot|summary").msgstr = "If the target is engaged,\nit is picked at random by a flip."
    po.save(str(po_path))
    assert kb_(root, "i18n", "import", str(po_path))[0] == 0
    assert "it is picked at random by a flip." in (root / "g/rules/shoot.yaml").read_text(encoding="utf-8")


def test_each_paragraphs_reference_is_its_own_line_and_comments_never_break_an_id(tmp_path: Path) -> None:
    """'#:' of each paragraph or list item names the line where it starts in the Spanish, not the field's first line
    (a tool's "open reference" lands on it); '#.' lines break at spaces, never inside an id."""
    code, _, err = cli("--content", str(CONTENT), "i18n", "export", "--no-history", "--game", "malifaux",
                       "-o", str(tmp_path / "m.po"))
    assert code == 0, err
    po = polib.pofile(str(tmp_path / "m.po"))
    yaml_lines = (CONTENT / "malifaux/rules/shooting-into-combat.yaml").read_text(encoding="utf-8").splitlines()
    es_line = yaml_lines.index("text:") + 2  # "  es: |" then the text
    texts = [e for e in po if (e.msgctxt or "").startswith("malifaux.shooting-into-combat|text|p")]
    assert len(texts) > 3
    starts = [int(e.occurrences[0][1]) for e in texts]
    assert starts[0] == es_line + 1 and starts == sorted(set(starts))
    for item, line in zip(texts, starts):  # the line holds the paragraph's first words (a list item: after its marker)
        assert " ".join(item.msgid.split()[:2]) in " ".join(yaml_lines[line - 1].split()), (item.msgctxt, line)
    # extracted comments are wrapped at spaces only: never inside an id or a field name (tools join the lines)
    comments = [line for line in (tmp_path / "m.po").read_text(encoding="utf-8").splitlines() if line.startswith("#.")]
    assert not [line for line in comments if re.search(r"[\w.\[]-$", line)]
    assert any("(malifaux.projectile-attack)" in line for line in comments)


def test_import_skips_empty_and_fuzzy_reports_unknown_and_dry_run_writes_nothing(root: Path, tmp_path: Path) -> None:
    po = export(root, tmp_path / "en.po")
    title = entry(po, "g.shoot|title")
    title.msgstr = "Firing into a melee"
    title.flags.append("fuzzy")
    entry(po, "g.engaged|title").msgstr = "Engaged!"
    po.append(polib.POEntry(msgctxt="g.shot|text", msgid="Nada", msgstr="Nothing"))
    po.append(polib.POEntry(msgctxt="no separator", msgid="Nada", msgstr="Nothing"))
    po.save(str(tmp_path / "en.po"))
    files = {p: p.read_bytes() for p in root.rglob("*.yaml")}
    code, out, err = kb_(root, "i18n", "import", "--dry-run", str(tmp_path / "en.po"))
    assert code == 1
    at = {c: _message_line(tmp_path / "en.po", c) for c in ("g.shoot|title", "g.shoot|examples[lowest].title",
                                                            "g.shot|text", "no separator")}
    assert out.splitlines() == [
        "content/g/terms/engaged.yaml: would update g.engaged title: English and hash",
        # each skipped field named, with the message that holds it back (a dry run says which work would not go in)
        f"{tmp_path / 'en.po'}:{at['g.shoot|title']}: skipped g.shoot|title: this message is fuzzy; the field is "
        "imported when none of its messages is",
        f"{tmp_path / 'en.po'}:{at['g.shoot|examples[lowest].title']}: skipped g.shoot|examples[lowest].title: this "
        "message is untranslated; the field is imported when all of its messages are translated",
        "1 field(s) would update in 1 file(s); 0 refused, 2 unknown; skipped: 1 empty, 1 fuzzy, 6 unchanged",
    ]
    assert err.splitlines() == [  # located, with the nearest id
        f"{tmp_path / 'en.po'}:{at['g.shot|text']}: unknown context 'g.shot|text': no such entry; did you mean "
        "'g.shoot'?",
        f"{tmp_path / 'en.po'}:{at['no separator']}: unknown context 'no separator': not a kb context "
        "(<entry id>|<field>): is this a PO file of 'kb i18n export'?",
    ]
    assert {p: p.read_bytes() for p in root.rglob("*.yaml")} == files
    code, out, _ = kb_(root, "i18n", "import", "--dry-run", "--json", str(tmp_path / "en.po"))
    report = json.loads(out)
    assert report["unknown"][0] == {"context": "g.shot|text", "line": at["g.shot|text"],
                                    "reason": "no such entry; did you mean 'g.shoot'?"}
    assert report["skipped_fields"] == [
        {"context": "g.shoot|title", "line": at["g.shoot|title"], "reason": "fuzzy"},
        {"context": "g.shoot|examples[lowest].title", "line": at["g.shoot|examples[lowest].title"], "reason": "empty"}]


def test_an_entry_whose_file_does_not_load_is_named_as_such(root: Path, tmp_path: Path) -> None:
    """Its messages are not 'no such entry': the import says the file does not load, and where."""
    po = export(root, tmp_path / "en.po")
    entry(po, "g.engaged|title").msgstr = "Engaged!"
    po.save(str(tmp_path / "en.po"))
    path = root / "g/terms/engaged.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "bad: [unclosed\n", encoding="utf-8")
    code, _, err = kb_(root, "i18n", "import", "--dry-run", str(tmp_path / "en.po"))
    assert code == 1
    line = _message_line(tmp_path / "en.po", "g.engaged|title")
    [said] = [ln for ln in err.splitlines() if "'g.engaged|title'" in ln]
    assert said.startswith(f"{tmp_path / 'en.po'}:{line}: unknown context 'g.engaged|title': no entry 'g.engaged' is "
                           "loaded: its file does not load: content/g/terms/engaged.yaml:"), said


def test_import_usage_errors_exit_2(root: Path, tmp_path: Path) -> None:
    po = export(root, tmp_path / "en.po")
    po.metadata["Language"] = "fr"
    po.save(str(tmp_path / "fr.po"))
    code, _, err = kb_(root, "i18n", "import", str(tmp_path / "fr.po"))
    assert code == 2 and "only 'en' is imported" in err
    assert kb_(root, "i18n", "import", "missing.po") == (2, "", "kb i18n import: missing.po: no such file\n")
    (tmp_path / "bad.po").write_text("garbage\n", encoding="utf-8")
    code, _, err = kb_(root, "i18n", "import", str(tmp_path / "bad.po"))
    assert code == 2 and err.startswith(f"kb i18n import: cannot read {tmp_path / 'bad.po'}: Syntax error")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false",
                    *args], cwd=cwd, check=True, capture_output=True)


def test_stale_field_is_fuzzy_with_the_previous_spanish_from_git(root: Path, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "first")
    edit(root / "g/rules/shoot.yaml", "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    edit(root / "g/terms/engaged.yaml", "a 1\" de un enemigo.\n", "a 1\" o menos de un enemigo.\n")
    _git(tmp_path, "mv", "content/g/rules/shoot.yaml", "content/g/rules/shooting.yaml")  # history follows renames
    _git(tmp_path, "commit", "-q", "-a", "-m", "second")
    edit(root / "g/rules/shooting.yaml", "Disparar a un combate, en", "Disparar contra un combate, en")  # not committed
    # a hash that no version ever had: fuzzy, with nothing to show
    edit(root / "g/terms/ki.yaml", f"title: {H('Ki')}", "title: 000000000000")
    po = export(root, tmp_path / "en.po")
    summary = entry(po, "g.shoot|summary")
    assert summary.flags == ["fuzzy"]
    assert summary.msgid == "Si el objetivo está trabado, se decide volteando cartas."
    assert summary.previous_msgid == "Si el objetivo está trabado, se elige al azar."
    assert entry(po, "g.engaged|summary").previous_msgid == 'Una miniatura está trabada si está a 1" de un enemigo.'
    assert entry(po, "g.shoot|title").previous_msgid == "Disparar a un combate"
    ki = entry(po, "g.ki|title")
    assert ki.flags == ["fuzzy"] and ki.previous_msgid is None
    assert '#| msgid "Si el objetivo está trabado, se elige al azar."' in (tmp_path / "en.po").read_text(encoding="utf-8")
    code, out, _ = kb_(root, "i18n", "export", "-o", str(tmp_path / "again.po"))
    assert (code, out) == (0, f"wrote {tmp_path / 'again.po'}: 9 messages for 9 fields (4 current, 4 stale [3 with "
                               "the previous Spanish], 1 untranslated)\n")


LIST_ES = ("Mientras está trabada, una miniatura no puede\n{@term g.engaged|moverse} ni disparar.\n\n"
           "- No puede declarar cargas contra\n  miniaturas enemigas.\n- No puede retirarse.\n")
LIST = f"""\
    id: g.list
    kind: rule
    game: g
    title: {{es: Lista, en: List}}
    text:
      es: |
        Mientras está trabada, una miniatura no puede
        {{@term g.engaged|moverse}} ni disparar.

        - No puede declarar cargas contra
          miniaturas enemigas.
        - No puede retirarse.
      en: |
        While engaged, a model cannot {{@term g.engaged|move}} or
        shoot.

        - It cannot declare charges against enemy models, which
          would break the engagement.
        - It cannot withdraw.
    source: {{doc: seed.txt, section: X}}
    i18n:
      en:
        title: {H("Lista")}
        text: {H(LIST_ES)}
    """


def test_a_paragraph_the_spanish_gains_leaves_the_others_lines_as_they_are(tree: Callable[..., Path],
                                                                           tmp_path: Path) -> None:
    """Audit-trans D6: the Spanish gains a paragraph; the translator fills only the new (empty) message; the import
    re-wrapped the untouched list item too (its lines joined into one of 124 columns). The English units that did
    not change keep their lines."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    root = tree({"g/terms/engaged.yaml": TERM, "g/rules/list.yaml": LIST})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "first")
    path = root / "g/rules/list.yaml"
    edit(path, "ni disparar.\n\n", "ni disparar.\n\n    Este párrafo es nuevo.\n\n")
    po = export(root, tmp_path / "en.po")
    new = entry(po, "g.list|text|p2")
    assert (new.msgid, new.msgstr) == ("Este párrafo es nuevo.", "")
    new.msgstr = "This paragraph is new."
    po.save(str(tmp_path / "en.po"))
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "en.po"))
    assert code == 0, out + err
    text = path.read_text(encoding="utf-8")
    assert ("  en: |\n"
            "    While engaged, a model cannot {@term g.engaged|move} or\n"
            "    shoot.\n\n"
            "    This paragraph is new.\n\n"
            "    - It cannot declare charges against enemy models, which\n"
            "      would break the engagement.\n"
            "    - It cannot withdraw.\n") in text, text


def test_status_names_the_changed_parts_as_the_po_file_does(tree: Callable[..., Path], tmp_path: Path) -> None:
    """Audit-trans D14: `stale: … text (paragraphs 3)` was list item 2 (PO message `text|p3`, the site's "List item 2
    of 2"): status names each part as the PO file and the site do."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    root = tree({"g/terms/engaged.yaml": TERM, "g/rules/list.yaml": LIST})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "first")
    edit(root / "g/rules/list.yaml", "- No puede retirarse.", "- No puede retirarse ni huir.")
    edit(root / "g/terms/engaged.yaml", "a 1\" de un enemigo.\n", "a 1\" o menos de un enemigo.\n")
    code, out, _ = kb_(root, "i18n", "status", "--game", "g")
    assert code == 0
    stale = sorted(line.split(": ", 1)[1] for line in out.splitlines() if ": stale: " in line)
    assert stale == ["stale: g.engaged summary",  # one paragraph: one message, the field's
                     "stale: g.list text (text|p3: list item 2 of 2)"], out
    # a list item taken out of the Spanish: no part of the Spanish now changed, and the export has nothing fuzzy
    assert kb_(root, "i18n", "ack", "g")[0] == 0
    _git(tmp_path, "commit", "-q", "-a", "-m", "second")
    edit(root / "g/rules/list.yaml", "- No puede declarar cargas contra\n      miniaturas enemigas.\n", "")
    out = kb_(root, "i18n", "status", "--game", "g")[1]
    assert [line.split(": ", 1)[1] for line in out.splitlines() if ": stale: " in line] == [
        "stale: g.list text (list item 1 of 2 of the earlier Spanish taken out: importing drops its English)"], out


STYLES = """\
    id: g.styles
    kind: rule
    game: g
    title: {es: "Título: uno", en: 'Title one'}
    summary:
      es: >-
        Resumen plegado
        en dos líneas.
      en: >-
        Folded summary
        on two lines.
    text:
      es: |-
        Sin salto final.
      en: |-
        No final break.
    notes:
      es: Una nota.
    source: {doc: seed.txt, section: X}
    """


def test_import_keeps_each_fields_yaml_style(tree: Callable[..., Path], tmp_path: Path) -> None:
    root = tree({"g/rules/styles.yaml": STYLES})
    po = export(root, tmp_path / "en.po")
    new = {"title": "Title: one", "summary": " ".join(["A folded summary long enough to wrap in the file."] * 4),
           "text": "No final line break.\nSecond line.", "notes": "A note\nover two lines."}
    for item in po:
        item.flags = []
        item.msgstr = new.get(item.msgctxt.split("|")[1], item.msgstr)
    po.save(str(tmp_path / "en.po"))
    assert kb_(root, "i18n", "import", str(tmp_path / "en.po"))[0] == 0
    text = (root / "g/rules/styles.yaml").read_text(encoding="utf-8")
    assert text.split("source:")[0] == (
        "id: g.styles\nkind: rule\ngame: g\n"
        "title: {es: \"Título: uno\", en: 'Title: one'}\n"
        "summary:\n  es: >-\n    Resumen plegado\n    en dos líneas.\n"
        "  en: >-\n"
        "    A folded summary long enough to wrap in the file. A folded summary long enough to wrap in the file.\n"
        "    A folded summary long enough to wrap in the file. A folded summary long enough to wrap in the file.\n"
        "text:\n  es: |-\n    Sin salto final.\n  en: |-\n    No final line break. Second line.\n"
        "notes:\n  es: Una nota.\n  en: A note over two lines.\n"
    )  # a line break inside a paragraph is the translator's wrapping: the Spanish here keeps each on one line
    kb = KnowledgeBase.load(root)
    assert kb.entries["g.styles"].data["summary"]["en"] == new["summary"]
    assert [st.status for st in field_status(kb.entries["g.styles"])] == ["current"] * 4



# ---------------------------------------------------------------- game files, checks on import


def test_game_file_texts_are_fields_in_status_export_and_import(root: Path, tmp_path: Path) -> None:
    game = root / "g/game.yaml"
    edit(game, "name: {es: Juego g, en: Game g}", "name: {es: Juego ge, en: Game g}")
    assert statuses(root)[("g", "name")] == "stale"
    code, out, _ = kb_(root, "i18n", "status", "--check")
    assert code == 1 and "content/g/game.yaml:2:26: stale: g name" in out.splitlines()
    po = export(root, tmp_path / "en.po")
    name = entry(po, "g|name")
    assert (name.msgid, name.msgstr, name.flags) == ("Juego ge", "Game g", ["fuzzy"])
    name.msgstr, name.flags = "Game ge", []
    po.save(str(tmp_path / "en.po"))
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "en.po"))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "content/g/game.yaml: updated g name: English and hash"
    text = game.read_text(encoding="utf-8")
    assert "name: {es: Juego ge, en: Game ge}" in text and f"    name: {H('Juego ge')}" in text
    assert statuses(root)[("g", "name")] == "current"
    edit(game, ", en: Game ge}", "}")  # the English gone: missing, and kb check says so
    assert statuses(root)[("g", "name")] == "missing"
    assert "content/g/game.yaml:2:7: warning[missing-translation]: no English translation for 'name'" in \
        kb_(root, "check")[1].splitlines()


def _po_position(po_path: Path, needle: str, word: str) -> tuple[int, int]:
    """(line, column) of ``word`` on the PO line holding ``needle``."""
    for n, line in enumerate(po_path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return n, line.index(word) + 1
    raise AssertionError(needle)


def test_import_refuses_a_forbidden_word_or_a_broken_link_where_it_stands_and_imports_the_rest(
        root: Path, tmp_path: Path) -> None:
    po_path = tmp_path / "en.po"
    po = export(root, po_path)
    entry(po, "g.shoot|summary").msgstr = "If the target is locked, it is picked at random."
    entry(po, "g.shoot|text").msgstr = "A shot at an enemy {@term g.nope|engaged} with another goes at random."
    entry(po, "g.engaged|summary").msgstr = "A model is engaged when within 1\" of an enemy."
    po.save(str(po_path))
    shoot = (root / "g/rules/shoot.yaml").read_bytes()
    code, out, err = kb_(root, "i18n", "import", str(po_path))
    assert code == 1
    line, col = _po_position(po_path, 'msgstr "If the target is locked', "locked")
    link_line, link_col = _po_position(po_path, "{@term g.nope", "{@term g.nope")
    assert err.splitlines() == [  # diagnostics name the PO file relative to the working directory, as kb check does
        f"en.po:{line}:{col}: error[glossary-forbidden]: English 'summary' uses 'locked' for 'g.engaged'; "
        "write 'engaged' [g.shoot|summary]",
        f"en.po:{line}:{col - 17}: warning[glossary-missing]: Spanish 'summary' uses 'trabado' but the English "
        "does not say 'engaged' [g.shoot|summary]",
        # a link to a target the Spanish does not link to: what to write is the Spanish's link (audit-trans D10: the
        # advice of its own error, 'write {@term g.nope}' or a near id, led elsewhere), said once (not also 'dropped')
        f"en.po:{link_line}:{link_col}: error[link-target-changed]: English 'text' links to 'g.nope', which its "
        "Spanish does not link to (it links to 'g.engaged'); keep the Spanish's {@kind id} and translate only the "
        "text after '|' [g.shoot|text]",
        f"{po_path}:{_message_line(po_path, 'g.shoot|summary')}: refused g.shoot|summary: 1 error(s) in its English "
        "(see above); nothing of field 'summary' was written",
        f"{po_path}:{_message_line(po_path, 'g.shoot|text')}: refused g.shoot|text: 1 error(s) in its English (see "
        "above); nothing of field 'text' was written",
    ]
    assert out.splitlines()[0] == "content/g/terms/engaged.yaml: updated g.engaged summary: English and hash"
    assert (root / "g/rules/shoot.yaml").read_bytes() == shoot


# ---------------------------------------------------------------- paragraph units


LONG_ES = ("Primer párrafo del texto, que el autor\nparte en dos líneas.\n\n"
           "- Un punto de la lista.\n- Otro punto, también partido\n  en dos líneas.\n\n"
           "Último párrafo.\n")
LONG = f"""\
    id: g.long
    kind: rule
    game: g
    title: {{es: Largo, en: Long}}
    text:
      es: |
        Primer párrafo del texto, que el autor
        parte en dos líneas.

        - Un punto de la lista.
        - Otro punto, también partido
          en dos líneas.

        Último párrafo.
      en: |
        First paragraph of the text, which the author
        splits over two lines.

        - One point of the list.
        - Another point, also split
          over two lines.

        Last paragraph.
    source: {{doc: seed.txt, section: X}}
    i18n:
      en:
        title: {H("Largo")}
        text: {H(LONG_ES)}
    """


def test_paragraph_units_through_msgmerge_keep_work_in_progress_and_change_only_those_paragraphs(
        tree: Callable[..., Path], tmp_path: Path) -> None:
    msgmerge = shutil.which("msgmerge")
    if msgmerge is None or shutil.which("git") is None:
        pytest.skip("msgmerge (Debian package 'gettext') and git are needed")
    root = tree({**FILES, "g/rules/long.yaml": LONG})
    path = root / "g/rules/long.yaml"
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "first")
    old = export(root, tmp_path / "old.po")
    units = [entry(old, f"g.long|text|p{n}") for n in (1, 2, 3, 4)]
    assert [u.msgid for u in units] == ["Primer párrafo del texto, que el autor parte en dos líneas.",
                                        "Un punto de la lista.", "Otro punto, también partido en dos líneas.",
                                        "Último párrafo."]
    assert units[0].msgstr == "First paragraph of the text, which the author splits over two lines."
    assert not [e for e in old if e.msgctxt == "g.long|text"]
    units[3].msgstr = "The last paragraph."  # work in progress, not imported yet
    old.save(str(tmp_path / "old.po"))
    # the author rewrites one list item and commits
    edit(path, "    - Otro punto, también partido\n      en dos líneas.\n",
         "    - Otro punto, también partido\n      en tres líneas cortas.\n")
    _git(tmp_path, "commit", "-q", "-a", "-m", "second")
    report = json.loads(kb_(root, "i18n", "status", "--json")[1])
    row = next(r for r in report["pending"] if r["entry"] == "g.long")
    assert (row["field"], row["status"], row["paragraphs"]) == ("text", "stale", [3])
    assert "en dos líneas" in row["previous"] and "en tres líneas cortas" in row["source"]
    code, _, err = kb_(root, "i18n", "export", "--template", "-o", str(tmp_path / "new.pot"))
    assert code == 0, err
    done = subprocess.run([msgmerge, "--quiet", "--previous", "-o", str(tmp_path / "merged.po"),
                           str(tmp_path / "old.po"), str(tmp_path / "new.pot")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    merged = polib.pofile(str(tmp_path / "merged.po"))
    p1, p2, p3, p4 = (entry(merged, f"g.long|text|p{n}") for n in (1, 2, 3, 4))
    assert [("fuzzy" in u.flags) for u in (p1, p2, p3, p4)] == [False, False, True, False]
    assert p4.msgstr == "The last paragraph."  # the work in progress survived
    assert p3.previous_msgid == "Otro punto, también partido en dos líneas."
    assert p3.msgid == "Otro punto, también partido en tres líneas cortas."
    p3.msgstr = "Another point, now with a different rule that takes more words than before to say it all."
    p3.flags.remove("fuzzy")
    merged.save(str(tmp_path / "merged.po"))
    before = path.read_text(encoding="utf-8").splitlines()
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "merged.po"))
    assert (code, err) == (0, "")
    assert "content/g/rules/long.yaml: updated g.long text: English and hash" in out.splitlines()
    after = path.read_text(encoding="utf-8").splitlines()
    new_hash = H(LONG_ES.replace("partido\n  en dos líneas.", "partido\n  en tres líneas cortas."))
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    assert removed == ["    - Another point, also split", "      over two lines.", "    Last paragraph.",
                       f"    text: {H(LONG_ES)}"]
    # the new item is wrapped as the field wraps (its longest line), with the list's indent; p4 stays on one line
    assert added == ["    - Another point, now with a different rule", "      that takes more words than before to say it",
                     "      all.", "    The last paragraph.", f"    text: {new_hash}"]
    assert statuses(root)[("g.long", "text")] == "current"


def test_list_items_reordered_in_the_spanish_through_msgmerge_import_the_translators_work(
        tree: Callable[..., Path], tmp_path: Path) -> None:
    """msgmerge moves a message (and its '# kb-en:' record) to the paragraph its Spanish now is: the English it was
    exported with is still in the content, at another place, so the translator's English goes in, not a conflict."""
    msgmerge = shutil.which("msgmerge")
    if msgmerge is None:
        pytest.skip("msgmerge (Debian package 'gettext') is needed")
    root = tree({**FILES, "g/rules/long.yaml": LONG})
    path = root / "g/rules/long.yaml"
    old = export(root, tmp_path / "old.po", "--no-history")
    entry(old, "g.long|text|p4").msgstr = "The last paragraph."  # work in progress
    old.save(str(tmp_path / "old.po"))
    edit(path, "    - Un punto de la lista.\n    - Otro punto, también partido\n      en dos líneas.\n",
         "    - Otro punto, también partido\n      en dos líneas.\n    - Un punto de la lista.\n")
    assert kb_(root, "i18n", "export", "--template", "-o", str(tmp_path / "new.pot"))[0] == 0
    subprocess.run([msgmerge, "--quiet", "--previous", "-o", str(tmp_path / "merged.po"), str(tmp_path / "old.po"),
                    str(tmp_path / "new.pot")], check=True)
    merged = polib.pofile(str(tmp_path / "merged.po"))
    units = [entry(merged, f"g.long|text|p{n}") for n in range(1, 5)]
    assert [u.msgstr for u in units[1:]] == ["Another point, also split over two lines.", "One point of the list.",
                                             "The last paragraph."]  # each with its own record
    for unit in units:  # reviewed
        unit.flags = [f for f in unit.flags if f != "fuzzy"]
    merged.save(str(tmp_path / "merged.po"))
    code, out, err = kb_(root, "i18n", "import", str(tmp_path / "merged.po"))
    assert (code, err) == (0, ""), out + err
    english = KnowledgeBase.load(root, use_cache=False).entries["g.long"].data["text"]["en"]
    assert [line.strip() for line in english.splitlines()[3:]] == [  # the moved item keeps its lines (audit-trans D6)
        "- Another point, also split", "over two lines.", "- One point of the list.", "", "The last paragraph."]
    assert statuses(root)[("g.long", "text")] == "current"


def test_a_field_whose_english_has_other_paragraphs_is_one_unit(tree: Callable[..., Path], tmp_path: Path) -> None:
    root = tree({**FILES, "g/rules/long.yaml": LONG.replace("        Last paragraph.\n", "")
                .replace("          over two lines.\n\n", "          over two lines.\n")})
    po = export(root, tmp_path / "en.po")
    whole = entry(po, "g.long|text")
    assert whole.msgid == ("Primer párrafo del texto, que el autor parte en dos líneas.\n\n- Un punto de la lista.\n"
                           "- Otro punto, también partido en dos líneas.\n\nÚltimo párrafo.")
    assert "does not have the paragraphs" in " ".join(whole.comment.split())
    whole.msgstr = ("First paragraph.\n\n- One point.\n- Another point.\n\nLast paragraph.")
    po.save(str(tmp_path / "en.po"))
    assert kb_(root, "i18n", "import", str(tmp_path / "en.po"))[0] == 0
    kb = KnowledgeBase.load(root)
    assert kb.entries["g.long"].data["text"]["en"] == \
        "First paragraph.\n\n- One point.\n- Another point.\n\nLast paragraph.\n"
    assert statuses(root)[("g.long", "text")] == "current"


# ---------------------------------------------------------------- glossary for CAT tools


def test_glossary_exports_tbx_with_a_term_entry_per_term_and_csv(root: Path, tmp_path: Path) -> None:
    import csv
    import xml.etree.ElementTree as ET

    code, out, err = kb_(root, "i18n", "glossary", "--format", "tbx", "-o", str(tmp_path / "g.tbx"))
    assert code == 0, err
    tree_ = ET.parse(tmp_path / "g.tbx")
    martif = tree_.getroot()
    assert martif.tag == "martif"
    entries = martif.findall("./text/body/termEntry")
    assert sorted(e.get("id") for e in entries) == ["g.engaged", "g.ki"]
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    engaged = next(e for e in entries if e.get("id") == "g.engaged")
    secs = {s.get(lang): s for s in engaged.findall("langSet")}
    assert set(secs) == {"es", "en"}

    def terms(sec: ET.Element) -> list[tuple[str, str, str]]:
        return [(t.findtext("term"), t.findtext("termNote[@type='termType']"),
                 t.findtext("termNote[@type='administrativeStatus']")) for t in sec.findall("tig")]

    assert terms(secs["en"]) == [("engaged", "fullForm", "preferredTerm-admn-sts"),
                                 ("engaged in combat", "fullForm", "admittedTerm-admn-sts"),
                                 ("locked", "fullForm", "deprecatedTerm-admn-sts")]
    assert terms(secs["es"])[0] == ("trabado", "fullForm", "preferredTerm-admn-sts")
    assert secs["en"].findtext("descrip[@type='definition']") == 'A model is engaged if it is within 1" of an enemy.'
    assert engaged.findtext("descrip[@type='subjectField']") == "Juego g"
    ki = next(e for e in entries if e.get("id") == "g.ki")
    assert "Do not translate" in ki.findtext("note")
    code, out, _ = kb_(root, "i18n", "glossary", "--format", "csv", "-o", "-")
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert [(r["source"], r["target"], r["context"], r["target_forbidden"]) for r in rows] == [
        ("trabado", "engaged", "g.engaged", "locked"), ("Ki", "Ki", "g.ki", "")]
    assert rows[0]["source_forms"] == "trabado; trabado en combate"
    assert rows[0]["developer_comments"] == 'Una miniatura está trabada si está a 1" de un enemigo.'
    assert kb_(root, "i18n", "glossary", "--format", "tbx", "--game", "nope", "-o", "-")[0] == 2


# ---------------------------------------------------------------- the translators' page


def test_translators_page_shows_the_figures_of_status_json_and_what_changed_in_the_spanish(
        root: Path, tmp_path: Path) -> None:
    import re

    from kb.site.pages import build_site

    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "first")
    edit(root / "g/rules/shoot.yaml", "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    report = json.loads(kb_(root, "i18n", "status", "--json")[1])
    assert report["games"]["g"] == {"lang": "en", "fields": 9, "current": 7, "stale": 1, "missing": 1}
    kb = KnowledgeBase.load(root)
    for lang, heads in (("en", ("What changed in the Spanish", "English to review")),
                        ("es", ("Lo que cambió en el español", "Inglés que revisar"))):
        page = build_site(kb, [], lang).page("translators.md")
        assert page is not None
        cell = r'<span class="kb-tr-k">[^<]+</span> '
        rows = re.findall(rf"^\| (.+?) \| {cell}(\d+) \| {cell}(\d+) \((\d+) %\) \| {cell}(\d+) \((\d+) %\) \| "
                          rf"{cell}(\d+) \((\d+) %\) \|$", page.markdown, re.M)
        shown = {name: [int(x) for x in figures] for name, *figures in rows}
        for game, counts in report["games"].items():
            name = kb.games[game].name.best(lang)
            fields = counts["fields"]
            assert shown[name] == [fields, counts["current"], 100 * counts["current"] // fields,
                                   counts["stale"], 100 * counts["stale"] // fields,
                                   counts["missing"], 100 * counts["missing"] // fields]
        body = page.markdown
        stale = body[body.index("{#g-stale}"):body.index("{#g-missing}")]
        assert "g.shoot" in stale and "summary" in stale
        diff = stale[stale.index(f"*{heads[0]}:*"):stale.index(f"*{heads[1]}:*")]
        assert ('<span lang="es">Si el objetivo está trabado, se <del>elige al azar</del><ins>decide volteando cartas'
                "</ins>.</span>") in diff
        assert '<span lang="en">If the target is engaged, it is picked at random.</span>' in \
            stale.split(f"*{heads[1]}:*")[1]
        assert "`examples[lowest].title`" in body[body.index("{#g-missing}"):]  # ids and fields as code
    assert build_site(kb, [], "en").nav[-1].path == "translators.md"


def test_english_without_a_recorded_hash_finds_the_spanish_it_was_made_from_in_history(
        root: Path, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    path = root / "g/rules/shoot.yaml"
    edit(path, f"    summary: {H('Si el objetivo está trabado, se elige al azar.')}\n", "")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "written in both languages at once, never acknowledged")
    assert kb_(root, "i18n", "status", "--check")[1].count("stale") == 1  # the header only: nothing stale
    edit(path, "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    report = json.loads(kb_(root, "i18n", "status", "--json")[1])
    row = next(r for r in report["pending"] if r["field"] == "summary")
    assert (row["status"], row["previous"], row["paragraphs"]) == \
        ("stale", "Si el objetivo está trabado, se elige al azar.", [1])
    summary = entry(export(root, tmp_path / "en.po"), "g.shoot|summary")
    assert (summary.flags, summary.previous_msgid) == (["fuzzy"], "Si el objetivo está trabado, se elige al azar.")


def test_bundled_glossary_has_one_term_entry_per_term_and_import_refuses_markup(root: Path, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    code, _, err = cli("--content", str(CONTENT), "i18n", "glossary", "-o", str(tmp_path / "all.tbx"))
    assert code == 0, err
    ids = [e.get("id") for e in ET.parse(tmp_path / "all.tbx").getroot().findall("./text/body/termEntry")]
    kb = KnowledgeBase.load(CONTENT)
    assert sorted(ids) == sorted(e.id for e in kb.entries.values() if e.term is not None)
    po_path = tmp_path / "en.po"
    po = export(root, po_path)
    entry(po, "g.ki|title").msgstr = "Ki <b>power</b>"
    po.save(str(po_path))
    before = (root / "g/terms/ki.yaml").read_bytes()
    code, _, err = kb_(root, "i18n", "import", str(po_path))
    line, col = _po_position(po_path, 'msgstr "Ki <b>', "<b>")
    assert code == 1
    assert err.splitlines()[0] == (f"en.po:{line}:{col}: error[raw-html]: raw HTML '<b>' in 'title'; write plain text "
                                   "(markup is escaped on the site) [g.ki|title]")
    assert (root / "g/terms/ki.yaml").read_bytes() == before


# ---------------------------------------------------------------- other people's tools


def test_list_items_and_paragraphs_are_labelled_by_their_place_among_their_kind(
        tree: Callable[..., Path], tmp_path: Path) -> None:
    po = export(tree({**FILES, "g/rules/long.yaml": LONG}), tmp_path / "en.po")
    parts = [entry(po, f"g.long|text|p{n}").comment.splitlines()[0] for n in (1, 2, 3, 4)]
    assert [p.split(", ")[-1] for p in parts] == ["paragraph 1 of 2.", "list item 1 of 2.", "list item 2 of 2.",
                                                  "paragraph 2 of 2."]


def _tt(module: str) -> object:
    return pytest.importorskip(f"translate.storage.{module}", reason="translate-toolkit (test extra) not installed")


def test_translate_toolkit_reads_every_tbx_and_csv_term_and_the_tbx_validates(tmp_path: Path) -> None:
    etree = pytest.importorskip("lxml.etree")
    tbx, csvl10n = _tt("tbx"), _tt("csvl10n")
    kb = KnowledgeBase.load(CONTENT)
    terms = {e.id: e.term for e in kb.entries.values() if e.term is not None}
    for fmt in ("tbx", "csv"):
        assert cli("--content", str(CONTENT), "i18n", "glossary", "--format", fmt, "-o", str(tmp_path / f"g.{fmt}"))[0] == 0
    rng = etree.RelaxNG(etree.parse(str(Path(__file__).parent / "fixtures/tbx/tbx-basic-v2.rng")))
    assert rng.validate(etree.parse(str(tmp_path / "g.tbx"))), rng.error_log
    read = tbx.tbxfile.parsefile(str(tmp_path / "g.tbx")).units  # type: ignore[attr-defined]
    assert len(read) == len(terms)
    assert sorted((u.source, u.target) for u in read) == \
        sorted((t.forms["es"][0], (t.forms.get("en") or t.forms["es"])[0]) for t in terms.values())
    rows = csvl10n.csvfile.parsefile(str(tmp_path / "g.csv")).units  # type: ignore[attr-defined]
    assert len(rows) == len(terms)
    assert {u.getcontext(): u.source for u in rows} == {i: t.forms["es"][0] for i, t in terms.items()}


HOSTILE_TERM = """\
    id: g.hostile
    kind: term
    game: g
    title: {es: Hostil, en: Hostile}
    summary: {es: "=HYPERLINK(\\"http://x\\") \\x01 y \\x0b", en: "@SUM(A1) \\x1f"}
    source: {doc: seed.txt, section: X}
    term:
      forms: {es: ["=HYPERLINK(\\"http://x\\")", "hostil"], en: ["+cmd|' /C calc'!A0"]}
      abbreviations: {es: ["-2+3"], en: ["\\tTAB", "\\rCR"]}
    """


def test_glossary_neutralises_formula_cells_and_never_writes_invalid_xml(tree: Callable[..., Path],
                                                                          tmp_path: Path) -> None:
    import csv
    import io
    import xml.etree.ElementTree as ET

    root = tree({**FILES, "g/terms/hostile.yaml": HOSTILE_TERM})
    code, out, err = kb_(root, "i18n", "glossary", "--format", "csv", "-o", "-")
    assert code == 0, err
    row = next(r for r in csv.DictReader(io.StringIO(out, newline="")) if r["context"] == "g.hostile")
    assert row["source"] == "'=HYPERLINK(\"http://x\")" and row["target"] == "'+cmd|' /C calc'!A0"
    assert row["source_abbreviations"] == "'-2+3" and row["target_abbreviations"] == "'\tTAB; \\rCR"  # the loader writes a CR as \r
    assert row["developer_comments"].startswith("'=") and row["source_forms"].startswith("'=")
    for cells in csv.reader(io.StringIO(out, newline="")):
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    code, out, err = kb_(root, "i18n", "glossary", "--format", "tbx", "-o", "-")
    assert code == 0, err
    doc = ET.fromstring(out.encode("utf-8"))  # parses: no control character reached the XML
    hostile = next(e for e in doc.iter("termEntry") if e.get("id") == "g.hostile")
    assert [t.findtext("term") for t in hostile.iter("tig")][:2] == ['=HYPERLINK("http://x")', "hostil"]
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", out)


def test_po_edited_through_translate_toolkit_imports(root: Path, tmp_path: Path) -> None:
    pypo = _tt("pypo")
    po_path = tmp_path / "en.po"
    export(root, po_path)
    store = pypo.pofile.parsefile(str(po_path))  # type: ignore[attr-defined]
    unit = next(u for u in store.units if u.getcontext() == "g.shoot|text")
    assert "{@term g.engaged|" in unit.source
    unit.target = "When a model shoots at an {@term g.engaged|engaged} enemy, the target is chosen at random."
    title = next(u for u in store.units if u.getcontext() == "g.ki|title")
    title.target = "Ki"
    store.savefile(str(po_path))
    code, out, err = kb_(root, "i18n", "import", str(po_path))
    assert code == 0, err
    kb = KnowledgeBase.load(root)
    assert kb.entries["g.shoot"].data["text"]["en"].split() == unit.target.split()
    assert statuses(root)[("g.shoot", "text")] == "current"


def test_export_and_glossary_report_as_json(root: Path, tmp_path: Path) -> None:
    code, out, err = kb_(root, "i18n", "export", "-o", str(tmp_path / "en.po"), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report == {"output": str(tmp_path / "en.po"), "template": False, "game": None,
                      "messages": len(polib.pofile(str(tmp_path / "en.po"))), "fields": report["fields"],
                      "current": report["current"], "stale": 0, "previous": 0, "missing": 1}
    assert report["fields"] == report["current"] + 1
    code, out, err = kb_(root, "i18n", "glossary", "--format", "csv", "-o", "-", "--json")
    assert code == 0 and out.startswith("source,target,")
    assert json.loads(err) == {"output": "-", "format": "csv", "game": None, "terms": 2}


def test_the_kept_translation_check_is_redone_when_the_git_history_changes(root: Path, tmp_path: Path) -> None:
    """The translation stage reads git history (``written_from``), so its kept results are keyed by the commit the
    content is at (issue 33): the same files with a history added give the answer that history implies."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    path = root / "g/rules/shoot.yaml"
    edit(path, f"    summary: {H('Si el objetivo está trabado, se elige al azar.')}\n", "")
    written = path.read_text(encoding="utf-8")  # the English was written from this Spanish …
    edit(path, "se elige al azar.\n  en: If", "se decide volteando cartas.\n  en: If")
    now = path.read_text(encoding="utf-8")  # … which has changed since

    def stale() -> list[str]:
        return [d.message for d in KnowledgeBase.load(root).diagnostics if d.code == "stale-translation"]

    assert not any("'summary'" in m for m in stale())  # no history: nothing says what the English was made from
    path.write_text(written, encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "both languages, never acknowledged")
    path.write_text(now, encoding="utf-8")
    _git(tmp_path, "commit", "-q", "-am", "the Spanish changed")
    assert any("'summary'" in m for m in stale())  # the very same files as the first load, another history
