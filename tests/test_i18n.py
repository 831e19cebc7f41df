"""Translators' workflow: staleness per field, ack, glossary consistency, PO export and import."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Callable

import polib
import pytest

from conftest import CONTENT, cli
from kb import KnowledgeBase
from kb.i18n.status import field_status, source_hash

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

FILES = {"g/terms/engaged.yaml": TERM, "g/terms/ki.yaml": KI, "g/rules/shoot.yaml": SHOOT}
SHOOT_PATH = "content/g/rules/shoot.yaml"


@pytest.fixture
def root(tree: Callable[..., Path]) -> Path:
    """A small content tree in ``tmp_path/content``; the working directory is ``tmp_path``."""
    return tree(FILES)


def kb_(root: Path, *argv: str) -> tuple[int, str, str]:
    return cli("--content", str(root), *argv)


def statuses(root: Path) -> dict[tuple[str, str], str]:
    kb = KnowledgeBase.load(root)
    return {(st.entry, st.field): st.status for e in kb.entries.values() for st in field_status(e)}


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
        "g                      en         8        7      0        1",
        "content/g/rules/shoot.yaml:22:12: missing: g.shoot examples[lowest].title",
    ]
    assert kb_(root, "i18n", "status", "--check")[0] == 1


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
            "from the current Spanish; review it, then run 'kb i18n ack'") in out.splitlines()


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


def test_status_json_counts_per_game(root: Path) -> None:
    import json

    code, out, _ = kb_(root, "i18n", "status", "--json")
    data = json.loads(out)
    assert data["games"] == {"g": {"lang": "en", "fields": 8, "current": 7, "stale": 0, "missing": 1}}
    assert data["pending"] == [{"entry": "g.shoot", "field": "examples[lowest].title", "status": "missing",
                                "path": SHOOT_PATH, "line": 22}]
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
        f"{p}:7:7: error[glossary-forbidden]: English 'summary' uses 'locked' for 'g.engaged'; write 'engaged'",
        f"{p}:7:7: warning[glossary-missing]: Spanish 'summary' uses 'trabadas en combate' but the English does not "
        "say 'engaged'",
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
        "g.shoot|title", "g.shoot|summary", "g.shoot|text", "g.shoot|notes", "g.shoot|examples[lowest].title",
        "g.engaged|title", "g.engaged|summary", "g.ki|title",
    ]
    text = entry(po, "g.shoot|text")
    assert text.msgid == SHOOT_TEXT_ES.rstrip("\n")
    assert text.msgstr.startswith("When a model shoots")
    assert text.occurrences == [("content/g/rules/shoot.yaml", "11")]
    assert text.comment.splitlines() == [
        "rule «Disparar a un combate», field 'text'.",
        "Keep {@kind id} links as they are; translate only the text after '|'.",
        "Notes: El reglamento no dice qué pasa con las plantillas.",
        "Glossary: trabado → engaged (g.engaged); never: locked",
    ]
    assert entry(po, "g.shoot|examples[lowest].title").msgstr == ""
    assert not any("fuzzy" in e.flags for e in po)
    assert po.metadata["Language"] == "en"


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
        "2 field(s) updated in 1 file(s); 0 refused, 0 unknown; skipped: 1 empty, 5 unchanged",
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
    assert err.splitlines() == [f"{tmp_path / 'en.po'}: refused g.shoot|summary: the Spanish changed after the "
                                "export; export again and translate the new text"]
    assert out.splitlines()[0] == "content/g/terms/engaged.yaml: updated g.engaged summary: English and hash"
    assert path.read_bytes() == before


def test_import_skips_empty_and_fuzzy_reports_unknown_and_dry_run_writes_nothing(root: Path, tmp_path: Path) -> None:
    po = export(root, tmp_path / "en.po")
    title = entry(po, "g.shoot|title")
    title.msgstr = "Firing into a melee"
    title.flags.append("fuzzy")
    entry(po, "g.engaged|title").msgstr = "Engaged!"
    po.append(polib.POEntry(msgctxt="g.gone|text", msgid="Nada", msgstr="Nothing"))
    po.append(polib.POEntry(msgctxt="no separator", msgid="Nada", msgstr="Nothing"))
    po.save(str(tmp_path / "en.po"))
    files = {p: p.read_bytes() for p in root.rglob("*.yaml")}
    code, out, err = kb_(root, "i18n", "import", "--dry-run", str(tmp_path / "en.po"))
    assert code == 1
    assert out.splitlines() == [
        "content/g/terms/engaged.yaml: would update g.engaged title: English and hash",
        "1 field(s) would update in 1 file(s); 0 refused, 2 unknown; skipped: 1 empty, 1 fuzzy, 5 unchanged",
    ]
    assert err.splitlines() == [
        f"{tmp_path / 'en.po'}: unknown context 'g.gone|text': no such entry and field",
        f"{tmp_path / 'en.po'}: unknown context 'no separator': no such entry and field",
    ]
    assert {p: p.read_bytes() for p in root.rglob("*.yaml")} == files


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
    assert (code, out) == (0, f"wrote {tmp_path / 'again.po'}: 8 entries (3 current, 4 fuzzy [3 with the previous "
                               "Spanish], 1 untranslated)\n")


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
        item.msgstr = new[item.msgctxt.split("|")[1]]
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
        "text:\n  es: |-\n    Sin salto final.\n  en: |-\n    No final line break.\n    Second line.\n"
        "notes:\n  es: Una nota.\n  en: |\n    A note\n    over two lines.\n"
    )
    kb = KnowledgeBase.load(root)
    assert kb.entries["g.styles"].data["summary"]["en"] == new["summary"]
    assert [st.status for st in field_status(kb.entries["g.styles"])] == ["current"] * 4

