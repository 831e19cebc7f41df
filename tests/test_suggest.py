"""``kb check --suggest``: a "see also" for entries that have none, from the terms and concepts they share."""

from __future__ import annotations

from conftest import cli

from kb.api import KnowledgeBase
from kb.link.suggest import suggest_see_also

TERM = """\
id: g.{slug}
kind: term
game: g
title: {{es: {es}, en: {en}}}
summary: {{es: Definición de {es}., en: Definition of {en}.}}
term: {{forms: {{es: [{es}], en: [{en}]}}}}
source: {{doc: seed.txt, section: x}}
"""
RULE = """\
id: g.{slug}
kind: rule
game: g
title: {{es: {slug}, en: {slug}}}
text: {{es: "{text}", en: "Text."}}
source: {{doc: seed.txt, section: x}}
"""


def _tree(tree):
    files = {f"g/terms/{s}.yaml": TERM.format(slug=s, es=es, en=en)
             for s, es, en in (("cover", "cobertura", "cover"), ("charge", "carga", "charge"),
                               ("unit", "unidad", "unit"))}
    for slug, text in (("shooting", "Una unidad tras cobertura, al disparar."), ("melee", "Una unidad en carga."),
                       ("hiding", "Una unidad en cobertura se esconde."), ("linked", "Véase {@rule g.shooting}."),
                       ("alone", "Nada en común.")):
        files[f"g/rules/{slug}.yaml"] = RULE.format(slug=slug, text=text)
    files["g/rules/melee.yaml"] += "see_also: [g.charge]\n"
    return tree(files)


def test_suggestions_prefer_rare_shared_terms_and_skip_existing_paths(tree) -> None:
    kb = KnowledgeBase.load(_tree(tree))
    found = {s.entry: s.candidates for s in suggest_see_also(kb)}
    # "cobertura" is rarer than "unidad": hiding is shooting's best "see also", then the cover term itself
    assert [c for c, _ in found["g.shooting"]][:2] == ["g.hiding", "g.cover"]
    assert found["g.shooting"][0][1] == ("g.cover", "g.unit")  # rarest first
    assert "g.melee" not in found                     # it has a see_also already
    assert "g.alone" not in found                     # shares nothing
    assert "g.linked" not in [c for c, _ in found["g.shooting"]]  # it links to shooting already


def test_kb_check_suggest_prints_one_located_line_per_entry(tree) -> None:
    root = _tree(tree)
    code, out, err = cli("--content", str(root), "check", "--suggest")
    assert code == 0, out + err
    line = next(ln for ln in out.splitlines() if "g.shooting has no see_also" in ln)
    assert line.startswith("content/g/rules/shooting.yaml:1:1: note[see-also]: "), line  # like every line of kb check
    assert "consider g.hiding (shares g.cover, g.unit)" in line
    code, out, _ = cli("--content", str(root), "check")
    assert "note[see-also]" not in out
