"""PO import round-trips: what it writes reads back exactly as imported, or it refuses and writes nothing.

The round-trip writer follows YAML 1.2 and the engine's reader YAML 1.1, so translations such as
``No``, ``on`` or ``1:20`` must be quoted to stay text; control characters, a translation that would
push a file past its size limit and a PO file that is not UTF-8 are refused with a located message.
"""

from __future__ import annotations

import os
from pathlib import Path

import polib
import pytest

from conftest import cli
from kb.core.diagnostics import format_path

ENTRY = """\
id: g.{slug}
kind: rule
game: g
title: {{es: Título {slug}}}
summary: {{es: Resumen {slug}}}
source: {{doc: seed.txt, section: s}}
"""
TRICKY = ["No", "Yes", "on", "OFF", "y", "n", "~", "null", "1:20", "0x1F", "12e3", "1_000", "0b101", ".5", "-.inf",
          "2001-12-14", "'quoted'", "\"dq\"", "- a list?", "key: value", "# not a comment", "@at", "`tick`",
          "{: onclick=x}", "  padded  ", "tab\there"]
"""Translations a YAML 1.1 reader would not read back as the same text if written plain."""


@pytest.fixture
def content(tree) -> Path:
    return tree({f"g/rules/r{i}.yaml": ENTRY.format(slug=f"r{i}") for i in range(len(TRICKY) + 3)})


def _po(root: Path, tmp: Path) -> tuple[Path, polib.POFile]:
    path = tmp / "en.po"
    code, out, err = cli("--content", str(root), "i18n", "export", "--output", str(path))
    assert code == 0, out + err
    return path, polib.pofile(str(path))


def _item(po: polib.POFile, context: str) -> polib.POEntry:
    return next(e for e in po if e.msgctxt == context)


def _english(root: Path) -> dict[str, object]:
    from kb import KnowledgeBase

    kb = KnowledgeBase.load(root, use_cache=False)
    return {e.id: e.data["title"].get("en") for e in kb.entries.values()}


def test_tricky_translations_read_back_exactly_and_check_clean(content: Path, tmp_path: Path) -> None:
    path, po = _po(content, tmp_path)
    for i, text in enumerate(TRICKY):
        _item(po, f"g.r{i}|title").msgstr = text
    po.save(str(path))
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert (code, err) == (0, ""), out + err
    english = _english(content)
    # as imported: the import joins a paragraph's whitespace into single spaces, as the PO file shows it
    assert [english[f"g.r{i}"] for i in range(len(TRICKY))] == [" ".join(t.split()) for t in TRICKY]
    code, out, _ = cli("--content", str(content), "check", "--no-warnings")
    assert (code, out) == (0, "")


@pytest.mark.parametrize("field, text, reason, problem", [
    ("title", "bell\x07ringing", "control character U+0007 in the translation; remove it", None),
    ("title", "\x1b[31mred", "control character U+001B in the translation; remove it", None),
    ("title", "nul\x00l", "control character U+0000 in the translation; remove it", None),
    ("title", "Fine \u202eenif", "control character U+202E in the translation; remove it", None),  # a bidi override
    ("title", "zero\u200bwidth", "control character U+200B in the translation; remove it", None),
    ("summary", "x" * 1_000_000, "its English is 1000000 characters long; a message holds at most 20000", None),
    ("title", "T" * 500, "1 error(s) in its English", "error[invalid-value]: 'title.en': text of 500 characters is not "
     "allowed; the most allowed is 400"),
    ("summary", '# HEADING\n!!! danger "ADMON"\n    body', "1 error(s) in its English",
     "error[block-markup]: a heading ('# HEADING') in 'summary'"),
])
def test_refused_translations_write_nothing(field: str, text: str, reason: str, problem: str | None, content: Path,
                                            tmp_path: Path) -> None:
    path, po = _po(content, tmp_path)
    context = f"g.r0|{field}"
    _item(po, context).msgstr = text
    _item(po, "g.r1|title").msgstr = "Fine"
    po.save(str(path))
    target = content / "g" / "rules" / "r0.yaml"
    before = target.read_bytes()
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 1
    assert target.read_bytes() == before  # nothing written for the refused translation
    [line] = [ln for ln in err.splitlines() if ln.startswith(f"{path}:") and f": refused {context}: " in ln]
    assert reason in line
    if "control" in reason:  # located at the message, and the character at its line and column (audit-trans D12)
        assert line.startswith(f"{path}:{_item(po, context).linenum}: refused")
        row = next(n for n, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                   if n > _item(po, context).linenum and ln.startswith("msgstr"))
        [at] = [ln for ln in err.splitlines() if "error[control-character]: English 'title' holds the control" in ln]
        assert at.startswith(f"{path.name}:{row}:") and at.endswith(f"[{context}]")
        if text == "zero\u200bwidth":
            assert at.startswith(f"{path.name}:{row}:13: error[control-character]: English 'title' holds the control "
                                 "character \\u200b; write plain text")
    if problem:  # located in the PO file, as 'kb check' would word it
        assert [ln for ln in (out + err).splitlines() if problem in ln and ln.startswith(f"{path.name}:")], out + err
    assert _english(content)["g.r1"] == "Fine"  # the other translations go in
    code, out, _ = cli("--content", str(content), "check", "--no-warnings")
    assert (code, out) == (0, "")


def test_a_po_file_in_another_charset_is_refused(content: Path, tmp_path: Path) -> None:
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Título en español"
    po.save(str(path))
    raw = path.read_bytes().replace(b"charset=UTF-8", b"charset=ISO-8859-1")
    path.write_bytes(raw)
    before = {p: p.read_bytes() for p in content.rglob("*.yaml")}
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    line = raw[: raw.index(b"charset=ISO")].count(b"\n") + 1
    assert code == 2  # the whole file refused, as every such refusal (audit-trans D11)
    assert err == (f"{path}:{line}:1: the header says charset=ISO-8859-1, but kb reads and writes UTF-8 PO files; "
                   "convert it (msgconv -t UTF-8) and set charset=UTF-8; nothing imported\n")
    assert {p: p.read_bytes() for p in content.rglob("*.yaml")} == before


def test_a_po_file_that_is_not_utf8_is_refused(content: Path, tmp_path: Path) -> None:
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Título"
    po.save(str(path))
    raw = path.read_bytes().replace("Título".encode(), "Título".encode("latin-1"))
    path.write_bytes(raw)
    code, _, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 2  # the whole file refused, as every such refusal (audit-trans D11)
    assert err.startswith(f"{path}:") and "not valid UTF-8 (byte 0xed)" in err and err.endswith("nothing imported\n")


def test_import_keeps_the_file_mode(content: Path, tmp_path: Path) -> None:
    target = content / "g" / "rules" / "r0.yaml"
    os.chmod(target, 0o644)
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Title"
    po.save(str(path))
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 0, out + err
    assert target.stat().st_mode & 0o777 == 0o644
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_a_long_message_full_of_broken_links_is_located_in_one_pass(content: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A 200,000-character msgstr of '{@' took 32.7 s (each of its 100,000 problems walked the message again):
    the places of a message's characters are worked out once per message (issue 28)."""
    import kb.i18n.po
    from kb.i18n.po import MAX_PROBLEMS

    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "{@" * 3000
    po.save(str(path))
    passes: list[str] = []
    real = kb.i18n.po.msgstr_positions

    def counted(p, lines, item):  # type: ignore[no-untyped-def]
        passes.append(item.msgctxt)
        return real(p, lines, item)

    monkeypatch.setattr(kb.i18n.po, "msgstr_positions", counted)
    code, out, err = cli("--content", str(content), "i18n", "import", "--dry-run", str(path))
    problems = [line for line in (out + err).splitlines() if "error[malformed-link]" in line]
    assert len(problems) == MAX_PROBLEMS - 1  # the first ones (with the title's length); the refusal counts them all
    assert len([line for line in err.splitlines() if line.endswith("[g.r0|title]")]) == MAX_PROBLEMS
    assert "refused g.r0|title: 3001 error(s) in its English (the first 20 problems are above)" in err
    first, second = (p.split(": error")[0] for p in problems[:2])  # located: after the opening quote, 2 apart
    assert first.rsplit(":", 1)[0] == second.rsplit(":", 1)[0] and (first[-2:], second[-2:]) == (":2", ":4")
    assert passes.count("g.r0|title") == 1


def test_two_messages_for_one_field_are_refused_not_one_silently_kept(content: Path, tmp_path: Path) -> None:
    path, po = _po(content, tmp_path)
    item = _item(po, "g.r0|title")
    item.msgstr = "First"
    po.save(str(path))
    text = path.read_text(encoding="utf-8")
    path.write_text(text + '\nmsgctxt "g.r0|title"\nmsgid "' + item.msgid + '"\nmsgstr "Second"\n', encoding="utf-8")
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert "a second message for this field (the first is at line" in out + err
    assert _english(content)["g.r0"] is None  # neither was written
    assert "Traceback" not in out + err and code != 0


LINKED = """\
id: g.linked
kind: rule
game: g
title: {es: Enlazada}
summary: {es: "Mira {@rule g.r1|la primera} y {@rule g.r2|la segunda}."}
source: {doc: seed.txt, section: s}
"""


@pytest.fixture
def linked(tree) -> Path:
    return tree({"g/rules/linked.yaml": LINKED, **{f"g/rules/r{i}.yaml": ENTRY.format(slug=f"r{i}") for i in (1, 2, 3)}})


def _import_summary(root: Path, tmp: Path, english: str) -> tuple[int, str, str, polib.POEntry, Path]:
    path, po = _po(root, tmp)
    item = _item(po, "g.linked|summary")
    item.msgstr = english
    po.save(str(path))
    code, out, err = cli("--content", str(root), "i18n", "import", str(path))
    return code, out, err, _item(polib.pofile(str(path)), "g.linked|summary"), path


def _summary(root: Path) -> object:
    from kb import KnowledgeBase

    return KnowledgeBase.load(root, use_cache=False).entries["g.linked"].data["summary"].get("en")


def test_a_translation_that_redirects_a_link_is_refused_at_the_link(linked: Path, tmp_path: Path) -> None:
    """A translator's PO once changed where a page links without a word (issue 28)."""
    english = "See {@rule g.r1|the first} and {@rule g.r3|the second}."
    before = (linked / "g" / "rules" / "linked.yaml").read_bytes()
    code, out, err, item, path = _import_summary(linked, tmp_path, english)
    assert code == 1
    line = path.read_text(encoding="utf-8").splitlines().index(f'msgstr "{english}"') + 1
    column = len('msgstr "') + english.index("{@rule g.r3") + 1
    shown = format_path(path)  # as every diagnostic names a file
    assert err.splitlines() == [
        f"{shown}:{line}:{column}: error[link-target-changed]: English 'summary' links to 'g.r3', which its Spanish "
        "does not link to (it links to 'g.r1', 'g.r2'); keep the Spanish's {@kind id} and translate only the text "
        "after '|' [g.linked|summary]",  # not also 'g.r2' dropped: the wrong link is it (audit-trans D10)
        f"{path}:{item.linenum}: refused g.linked|summary: 1 error(s) in its English (see above); nothing of field 'summary' was "
        "written"]
    assert (linked / "g" / "rules" / "linked.yaml").read_bytes() == before


def test_a_link_of_the_wrong_kind_elsewhere_is_told_to_keep_the_spanish_link(linked: Path, tmp_path: Path) -> None:
    """Audit-trans D10: `{@term g.r3|…}` where the Spanish links `{@rule g.r2|…}` was told "write {@rule g.r3}",
    which the import then refused as a changed link; and a malformed link's excerpt was cut mid-word."""
    english = "See {@rule g.r1|the first} and {@term g.r3|the second}."
    code, _, err, _, path = _import_summary(linked, tmp_path, english)
    assert code == 1
    [error] = [ln for ln in err.splitlines() if "error[" in ln]
    assert "error[link-target-changed]: English 'summary' links to 'g.r3', which its Spanish does not link to (it " \
           "links to 'g.r1', 'g.r2'); keep the Spanish's {@kind id}" in error and "link-kind-mismatch" not in err
    english = "See {@rule g.r1|the first} and {@rule g.r2|the second, which is a link never closed at all."
    (tmp_path / "b").mkdir()  # a fresh export: the first file holds work not imported
    code, _, err, _, path = _import_summary(linked, tmp_path / "b", english)
    assert code == 1
    assert "malformed link '{@rule g.r2|the second, which is a link never…'" in err, err  # not cut at 'Charge a'



def test_a_dropped_link_is_reported_and_the_rest_imported(linked: Path, tmp_path: Path) -> None:
    english = "See the first and {@rule g.r2|the second}."
    code, out, err, _, path = _import_summary(linked, tmp_path, english)
    assert code == 0, out + err
    [warning] = err.splitlines()
    assert warning.startswith(f"{format_path(path)}:") and "warning[link-target-dropped]: Spanish 'summary' links to 'g.r1'" in warning
    assert _summary(linked) == english


def test_the_same_targets_in_another_order_import_cleanly(linked: Path, tmp_path: Path) -> None:
    english = "The second, {@rule g.r2|here}, follows {@rule g.r1|the first} ({@rule g.r1|again})."
    code, out, err, _, _ = _import_summary(linked, tmp_path, english)
    assert (code, err) == (0, ""), out + err
    assert _summary(linked) == english


def test_a_title_on_two_lines_is_imported_on_one(content: Path, tmp_path: Path) -> None:
    """A name is one line: the import writes a title's lines unwrapped, and checks what it writes."""
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Two\nlines"
    po.save(str(path))
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 0, out + err
    assert _english(content)["g.r0"] == "Two lines"
    assert cli("--content", str(content), "check", "--no-warnings")[:2] == (0, "")


def test_a_po_file_past_the_size_limit_is_refused_before_it_is_parsed(content: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser's time grows faster than the file (a 40 MB comment block: minutes): a file past
    ``MAX_PO_BYTES`` is refused, located, before polib sees it; one within it is read."""
    from kb.i18n.po import MAX_PO_BYTES, encoding_problem

    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Fine"
    po.save(str(path))
    assert encoding_problem(path, limit=path.stat().st_size) is None
    assert encoding_problem(path, limit=path.stat().st_size - 1) == (
        f"{path}:1:1: the file is larger than {path.stat().st_size - 1} bytes, the limit for a PO file; split it "
        "(msggrep) and import each part")
    with path.open("a", encoding="utf-8") as f:  # a comment block past the real limit
        line = "#. " + "x" * 1000 + "\n"
        f.write(line * (MAX_PO_BYTES // len(line) + 1))
    monkeypatch.setattr(polib, "pofile", lambda *a, **k: pytest.fail("parsed a PO file past the limit"))
    before = {p: p.read_bytes() for p in content.rglob("*.yaml")}
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 2
    assert err == (f"{path}:1:1: the file is larger than {MAX_PO_BYTES} bytes, the limit for a PO file; split it "
                   "(msggrep) and import each part; nothing imported\n")
    assert {p: p.read_bytes() for p in content.rglob("*.yaml")} == before


@pytest.mark.parametrize("old, new, problem", [
    ('msgctxt "g.r0|title"', 'msgctxt "g.r0|title', "the string is not closed on its line"),
    ('msgstr "Fine"', 'msgstr "Fine.\\q\\x41\\101"', "unknown escape '\\q' in the string"),
    ('#~ msgstr "Old"', '#~ msgstr "Old', "the string is not closed on its line"),
])
def test_a_po_string_polib_would_misread_is_a_located_error(content: Path, tmp_path: Path, old: str, new: str,
                                                             problem: str) -> None:
    """polib read an unterminated string without its last character and kept unknown escapes as typed (msgfmt rejects
    both): the file is refused at the string, nothing imported."""
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Fine"
    po.save(str(path))
    text = path.read_text(encoding="utf-8") + '\n#~ msgctxt "g.gone|title"\n#~ msgid "Viejo"\n#~ msgstr "Old"\n'
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index(new) + 1
    before = (content / "g" / "rules" / "r0.yaml").read_bytes()
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:{line}:") and problem in err and err.endswith("nothing imported\n"), err
    assert (content / "g" / "rules" / "r0.yaml").read_bytes() == before


def test_a_po_file_of_another_project_is_not_taken_for_ours(content: Path, tmp_path: Path) -> None:
    path = tmp_path / "foreign.po"
    path.write_text('msgid ""\nmsgstr ""\n"Project-Id-Version: some-other-app\\n"\n"Content-Type: text/plain; '
                    'charset=UTF-8\\n"\n\nmsgid "Open"\nmsgstr "Abrir"\n\nmsgid "Close"\nmsgstr "Cerrar"\n',
                    encoding="utf-8")
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert (code, out) == (2, "")
    assert err == (f"kb i18n import: {path} is not a PO file of 'kb i18n export' (no message has a context "
                   "<entry id>|<field>); nothing imported\n")


def test_a_po_file_full_of_errors_prints_a_bounded_report(content: Path, tmp_path: Path) -> None:
    """Every title a string of broken links: at most 20 problems per message and 200 lines in all, then how many
    more; --json lists every line's problem."""
    path, po = _po(content, tmp_path)
    titles = [item for item in po if (item.msgctxt or "").endswith("|title")]
    for item in titles:
        item.msgstr = "{@" * 30
    po.save(str(path))
    code, out, err = cli("--content", str(content), "i18n", "import", "--dry-run", str(path))
    assert code == 1
    lines = err.splitlines()
    total = len(titles) * 21  # 20 problems and the refusal, per message
    assert len(lines) == 201 and lines[-1] == f"... and {total - 200} more problem line(s) (--json lists them all)"
    code, out, _ = cli("--content", str(content), "i18n", "import", "--dry-run", "--json", str(path))
    report = __import__("json").loads(out)
    assert len(report["problems"]) + len(report["refused"]) == total


@pytest.mark.parametrize("text", ["", 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
                                  "# only a comment\n"])
def test_an_empty_or_header_only_po_file_is_refused(content: Path, tmp_path: Path, text: str) -> None:
    """Audit-trans D5: an empty file, a header only, comments only imported nothing with exit 0 ("0 field(s)
    updated"): a file saved before it was written reads as success. It is refused, exit 2, as a foreign file is."""
    path = tmp_path / "empty.po"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert (code, out) == (2, "")
    assert err == (f"kb i18n import: {path} holds no message to import (it is empty, or a header or comments only: "
                   "a file saved before it was written?); nothing imported\n")


def test_a_po_file_cut_inside_a_message_is_refused_at_it(content: Path, tmp_path: Path) -> None:
    """Audit-trans D5: a file cut right after a msgid (msgfmt: "missing 'msgstr' section") imported the complete
    messages and counted the cut one as empty, exit 0. It is refused at that msgid, nothing imported."""
    path, po = _po(content, tmp_path)
    _item(po, "g.r0|title").msgstr = "Fine"
    po.save(str(path))
    text = path.read_text(encoding="utf-8").rstrip("\n")
    cut = text[:text.rindex("msgstr")]
    path.write_text(cut, encoding="utf-8")
    line = len(cut.rstrip("\n").splitlines())
    assert cut.rstrip("\n").splitlines()[-1].startswith(("msgid", '"'))
    msgid = max(n for n, ln in enumerate(cut.splitlines(), 1) if ln.startswith("msgid "))
    before = _english(content)
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert (code, out) == (2, "")
    assert err == (f"{path}:{msgid}:1: this msgid has no msgstr after it (the file ends, or the next message starts, "
                   "first: a file cut short?); nothing imported\n")
    assert _english(content) == before and line >= msgid


def test_a_message_with_plural_forms_is_refused_at_its_line(content: Path, tmp_path: Path) -> None:
    """Audit-trans D9: a msgid_plural message was counted "skipped: 1 plural", exit 0, no line named."""
    path, po = _po(content, tmp_path)
    item = _item(po, "g.r0|title")
    item.msgid_plural, item.msgstr_plural, item.msgstr = "Plurales", {0: "One", 1: "Many", 2: "Lots"}, ""
    po.save(str(path))
    line = _item(polib.pofile(str(path)), "g.r0|title").linenum
    before = _english(content)
    code, out, err = cli("--content", str(content), "i18n", "import", str(path))
    assert code == 1
    assert f"{path}:{line}: refused g.r0|title: a message with plural forms (msgid_plural, msgstr[n]); " in err, err
    assert _english(content) == before and "plural" not in out


def test_a_folder_given_for_the_po_file_is_named_so(content: Path, tmp_path: Path) -> None:
    """Audit-trans D15: a folder was refused as "no such file"."""
    code, out, err = cli("--content", str(content), "i18n", "import", str(tmp_path))
    assert (code, out, err) == (2, "", f"kb i18n import: {tmp_path}: a folder, not a PO file\n")
