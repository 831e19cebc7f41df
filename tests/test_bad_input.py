"""The bad-input corpus: each kind of broken content gives exit 1 and exactly the located errors expected."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import cli
from kb.core.validate import CONTROL

OK = """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
"""


def entry(body: str = "", **replace: str) -> str:
    """A valid entry with some lines replaced or added."""
    text = OK
    for key, value in replace.items():
        text = "\n".join(value if line.startswith(f"{key}:") else line for line in text.splitlines()) + "\n"
    return text + body


RESOLVERS = "from kb.mechanics import Trace, outcome, resolver\n\n\n@resolver('g.hit', outputs={'x': 'x'})\ndef hit(a: int):\n    return outcome(Trace(), x=a)\n"
"""A game mechanics module with one resolver, ``g.hit``, defined at line 4."""

CASES: dict[str, tuple[dict[str, str | bytes], list[str]]] = {
    "yaml syntax": (
        {"g/a.yaml": "id: g.a\nkind: [rule\n"},
        ["content/g/a.yaml:3:1: error[yaml-syntax]: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'"],
    ),
    "tab indentation": (
        {"g/a.yaml": "id: g.a\n\tkind: rule\n"},
        ["content/g/a.yaml:2:1: error[tab-indent]: tab character in indentation; YAML indents with spaces only"],
    ),
    "tab before a nested key": (  # audit-packs defect 18: tab-indent wherever the tab sits, not PyYAML's words
        {"g/a.yaml": entry("term:\n  forms:\n\t  en: [range, ranges]\n")},
        ["content/g/a.yaml:8:1: error[tab-indent]: tab character in indentation; YAML indents with spaces only"],
    ),
    "tab after spaces": (
        {"g/a.yaml": entry("term:\n  forms:\n  \ten: [wound]\n")},
        ["content/g/a.yaml:8:3: error[tab-indent]: tab character in indentation; YAML indents with spaces only"],
    ),
    "tab before a list item": (
        {"g/a.yaml": entry("see_also:\n\t- g.b\n")},
        ["content/g/a.yaml:7:1: error[tab-indent]: tab character in indentation; YAML indents with spaces only"],
    ),
    "duplicate key": (
        {"g/a.yaml": entry("title: {es: Otra, en: Other}\n")},
        ["content/g/a.yaml:6:1: error[duplicate-key]: duplicate key 'title' (first at line 4)"],
    ),
    "duplicate id across files": (
        {"g/a.yaml": OK, "g/b.yaml": OK},
        ["content/g/b.yaml:1:5: error[duplicate-id]: duplicate id 'g.ok', other instance in content/g/a.yaml:1: that "
         "one, the first by path, is the entry kb show and the site use; this file is left out"],
    ),
    "two ids, one page": (  # g.index gets index-entry.html (the game page is index.html): g.index-entry's page
        {"g/a.yaml": entry(id="id: g.index"), "g/b.yaml": entry(id="id: g.index-entry")},
        ["content/g/b.yaml:1:5: error[page-collision]: id 'g.index-entry' would write the page 'g/index-entry.html' "
         "that 'g.index' writes too (content/g/a.yaml:1); rename one"],
    ),
    "two ids, one page by case": (  # ids are lower case; a folded page name must not hide one anyway
        {"g/a.yaml": entry(id="id: g.ok"), "g/b.yaml": entry(id="id: g.OK")},
        ["content/g/b.yaml:1:5: error[invalid-id]: 'id': 'g.OK' is not a valid id; use '<game>.<slug>' with lowercase letters, digits and hyphens",
         "content/g/b.yaml:1:5: error[page-collision]: id 'g.OK' would write the page 'g/ok.html' "
         "that 'g.ok' writes too (content/g/a.yaml:1); rename one"],
    ),
    "tag with no space after its name": (
        {"g/a.yaml": entry("text: {es: 'x <svg/onload=alert(1)>', en: '<details/open/ontoggle=alert(1)>'}\n"
                           "notes: {es: '<img src=x onerror=alert(1) a=<>', en: 'y'}\n")},
        ["content/g/a.yaml:6:15: error[raw-html]: raw HTML '<svg/onload=alert(1)>' in 'text'; write plain text (markup is escaped on the site)",
         "content/g/a.yaml:6:44: error[raw-html]: raw HTML '<details/open/ontoggle=alert(1)>' in 'text'; write plain text (markup is escaped on the site)",
         "content/g/a.yaml:7:14: error[raw-html]: raw HTML '<img' in 'notes'; write plain text (markup is escaped on the site)"],
    ),
    "wrong type": (
        {"g/a.yaml": entry(title="title: 5")},
        ["content/g/a.yaml:4:8: error[wrong-type]: 'title' should be a mapping (key: value), not a whole number 5"],
    ),
    "wrong type nested": (
        {"g/a.yaml": entry("tags: [a, 3]\n")},
        ["content/g/a.yaml:6:11: error[wrong-type]: 'tags[1]' should be text, not a whole number 3"],
    ),
    "unknown key": (
        {"g/a.yaml": entry("summry: {es: x, en: x}\n")},
        ["content/g/a.yaml:6:1: error[unknown-key]: unknown key 'summry' in the entry; did you mean 'summary'?"],
    ),
    "unknown nested key": (
        {"g/a.yaml": entry(source="source: {doc: seed.txt, section: s, page: 3}")},
        ["content/g/a.yaml:5:37: error[unknown-key]: unknown key 'page' in 'source'"],
    ),
    "missing required field": (
        {"g/a.yaml": "id: g.a\nkind: rule\ngame: g\nsource: {doc: seed.txt, section: s}\n"},
        ["content/g/a.yaml:1:1: error[missing-field]: missing required field 'title' in the entry"],
    ),
    "missing source": (
        {"g/a.yaml": "id: g.a\nkind: rule\ngame: g\ntitle: {es: A, en: A}\n"},
        ["content/g/a.yaml:1:1: error[missing-field]: missing required field 'source' in the entry"],
    ),
    "missing spanish": (
        {"g/a.yaml": entry(title="title: {en: Only English}")},
        ["content/g/a.yaml:4:8: error[missing-field]: missing required field 'es' in 'title'"],
    ),
    "unknown kind": (
        {"g/a.yaml": entry(kind="kind: rul")},
        ["content/g/a.yaml:2:7: error[unknown-kind]: unknown kind 'rul'; valid kinds: action, ability, terrain, sequence, "
         "rule, ruling, term, concept; did you mean 'rule'?"],
    ),
    "invalid rule type": (
        {"g/a.yaml": entry("rule_type: optinal\n")},
        ["content/g/a.yaml:6:12: error[invalid-value]: 'rule_type': 'optinal' is not allowed; one of: core, optional, "
         "variant, clarification; did you mean 'optional'?"],
    ),
    "a modifier's value with words in no language": (
        {"g/a.yaml": entry("modifiers:\n  - {value: \"+1 VdA\", when: {es: al arma, en: to the weapon}}\n")},
        ["content/g/a.yaml:7:14: error[invalid-value]: 'modifiers[0].value': '+1 VdA' is not allowed; a number with "
         "its sign (+1); a value with words is written per language ({es: +1 VdA, en: +1 RoF})"],
    ),
    "id prefix differs from folder": (
        {"g/a.yaml": entry(id="id: h.ok")},
        ["content/g/a.yaml:1:5: error[id-prefix]: id 'h.ok' must start with 'g.', the name of its folder"],
    ),
    "game differs from folder": (
        {"g/a.yaml": entry(game="game: h")},
        ["content/g/a.yaml:3:7: error[game-mismatch]: game 'h' does not match the folder 'g'"],
    ),
    "path traversal id": (
        {"g/a.yaml": entry(id="id: ../../etc/passwd")},
        ["content/g/a.yaml:1:5: error[id-prefix]: id '../../etc/passwd' must start with 'g.', the name of its folder",
         "content/g/a.yaml:1:5: error[invalid-id]: 'id': '../../etc/passwd' is not a valid id; use '<game>.<slug>' with "
         "lowercase letters, digits and hyphens"],
    ),
    "odd characters in id": (
        {"g/a.yaml": entry(id="id: g.Ñu Ü")},
        ["content/g/a.yaml:1:5: error[invalid-id]: 'id': 'g.Ñu Ü' is not a valid id; use '<game>.<slug>' with lowercase "
         "letters, digits and hyphens"],
    ),
    "broken inline link": (
        {"g/a.yaml": entry("text:\n  es: |\n    Ver {@rule g.okk|esto}.\n  en: |\n    See {@rule g.ok|this}.\n")},
        ["content/g/a.yaml:8:9: error[unresolved-link]: unresolved link to 'g.okk'; did you mean 'g.ok'?"],
    ),
    "broken see_also": (
        {"g/a.yaml": entry("see_also: [g.nothing]\n")},
        ["content/g/a.yaml:6:12: error[unresolved-link]: unresolved link to 'g.nothing'"],
    ),
    "link of the wrong type": (
        {"g/a.yaml": entry("text: {es: 'Ver {@term g.ok}', en: 'See {@term g.ok}'}\n")},
        ["content/g/a.yaml:6:17: error[link-kind-mismatch]: link '{@term g.ok}' points to an entry of kind 'rule'; write {@rule g.ok}",
         "content/g/a.yaml:6:41: error[link-kind-mismatch]: link '{@term g.ok}' points to an entry of kind 'rule'; write {@rule g.ok}"],
    ),
    "unknown link type": (
        {"g/a.yaml": entry("text: {es: 'Ver {@rulle g.ok}', en: 'See {@rule g.ok}'}\n")},
        ["content/g/a.yaml:6:17: error[unknown-link-type]: unknown link type '@rulle'; valid: action, ability, terrain, "
         "sequence, rule, ruling, term, concept; did you mean 'rule'?"],
    ),
    "dangling link inside the content": (
        {"g/a.yaml": OK},
        ["content/g/gone.yaml:1:1: error[unreadable]: cannot read file: No such file or directory"],
    ),
    "malformed link": (
        {"g/a.yaml": entry("text: {es: 'Ver {@rule g.ok', en: 'See'}\n")},
        ["content/g/a.yaml:6:17: error[malformed-link]: malformed link '{@rule g.ok'; write {@kind id} or {@kind id|shown text}"],
    ),
    "unknown resolver": (
        {"g/a.yaml": entry("examples:\n  - id: e\n    mechanic: dice.od\n    given: {dice: 2d6}\n    probability: 1/2\n")},
        ["content/g/a.yaml:8:15: error[unknown-resolver]: unknown resolver 'dice.od'; did you mean 'dice.odds'? "
         "(resolvers are kb's own, listed by 'kb resolvers', and those a game's mechanics.py registers; "
         "no content/g/mechanics.py)"],
    ),
    "bad example inputs": (
        {"g/a.yaml": entry("examples:\n  - id: e\n    mechanic: dice.odds\n    given: {dices: 2d6, at_least: five}\n"
                           "    expect: {favorable: 30}\n")},
        ["content/g/a.yaml:9:12: error[missing-input]: resolver 'dice.odds' needs input 'dice'",
         "content/g/a.yaml:9:13: error[unknown-input]: resolver 'dice.odds' takes no input 'dices'; did you mean 'dice'?",
         "content/g/a.yaml:9:35: error[wrong-input-type]: input 'at_least' of 'dice.odds' should be a whole number or "
         "empty; 'given.at_least' is text 'five'",
         "content/g/a.yaml:10:14: error[unknown-output]: resolver 'dice.odds' gives no output 'favorable'; did you mean 'favourable'?"],
    ),
    "example without expectation": (
        {"g/a.yaml": entry("examples:\n  - id: e\n    mechanic: dice.odds\n    given: {dice: 2d6}\n")},
        ["content/g/a.yaml:7:5: error[no-expectation]: example 'e' needs 'expect', 'expect_error' or 'probability'"],
    ),
    "duplicate example id": (
        {"g/a.yaml": entry("examples:\n  - id: e\n    mechanic: dice.odds\n    given: {dice: 2d6}\n    probability: '1'\n"
                           "  - id: e\n    mechanic: dice.odds\n    given: {dice: d6}\n    probability: '1'\n")},
        ["content/g/a.yaml:11:9: error[duplicate-item-id]: duplicate example id 'e' in this entry (first at line 7): the first is the one run and shown, this copy is left out"],
    ),
    "alias bomb": (
        {"g/a.yaml": "a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                     "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                     "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"},
        ["content/g/a.yaml:5:11: error[alias-limit]: more than 64 aliases, or aliases expanding past 20000 values; write the data out"],
    ),
    "huge file": (
        {"g/a.yaml": OK + "# " + "x" * 300_000 + "\n"},
        [f"content/g/a.yaml:1:1: error[file-too-large]: file is {len(OK) + 300_003} bytes; the limit is 262144 bytes per file"],
    ),
    "non-utf8 bytes": (
        {"g/a.yaml": OK.encode() + b"text: {es: 'caf\xe9'}\n"},
        ["content/g/a.yaml:6:16: error[encoding]: file is not valid UTF-8 (byte 0xe9); save it as UTF-8"],
    ),
    "byte-order mark": (
        {"g/a.yaml": b"\xef\xbb\xbf" + OK.encode()},
        ["content/g/a.yaml:1:1: error[bom]: file starts with a byte-order mark; save it as UTF-8 without BOM"],
    ),
    "empty file": (
        {"g/a.yaml": ""},
        ["content/g/a.yaml:1:1: error[empty-file]: file is empty; an entry is a YAML mapping with at least 'id' and 'kind'"],
    ),
    "comments only": (
        {"g/a.yaml": "# nothing here yet\n\n"},
        ["content/g/a.yaml:1:1: error[empty-file]: file is empty; an entry is a YAML mapping with at least 'id' and 'kind'"],
    ),
    "file that is a list": (
        {"g/a.yaml": "- id: g.a\n- id: g.b\n"},
        ["content/g/a.yaml:1:1: error[not-a-mapping]: file holds a list; an entry is a YAML mapping (key: value)"],
    ),
    "file that is a scalar": (
        {"g/a.yaml": "just some words\n"},
        ["content/g/a.yaml:1:1: error[not-a-mapping]: file holds a single value; an entry is a YAML mapping (key: value)"],
    ),
    "null document": (
        {"g/a.yaml": "~\n"},
        ["content/g/a.yaml:1:1: error[not-a-mapping]: file holds a null value; an entry is a YAML mapping (key: value)"],
    ),
    "two documents": (
        {"g/a.yaml": OK + "---\n" + OK},
        ["content/g/a.yaml:6:1: error[multiple-documents]: file holds more than one YAML document; put one entry per file"],
    ),
    "python tag": (
        {"g/a.yaml": entry("tags: [!!python/object:os.system x]\n")},
        ["content/g/a.yaml:6:8: error[unsupported-tag]: unsupported YAML tag 'tag:yaml.org,2002:python/object:os.system'; "
         "only plain data is allowed"],
    ),
    "complex key": (
        {"g/a.yaml": "? [a, b]\n: c\n"},
        ["content/g/a.yaml:1:3: error[yaml-syntax]: invalid YAML: keys must be plain text"],
    ),
    "deep nesting": (
        {"g/a.yaml": "x: " + "[" * 40 + "]" * 40 + "\n"},
        ["content/g/a.yaml:1:35: error[nesting-limit]: data nested deeper than 32 levels"],
    ),
    "control character": (
        {"g/a.yaml": OK + "notes: {es: \"a\x07b\"}\n"},
        ["content/g/a.yaml:6:15: error[yaml-syntax]: invalid YAML: control character #x0007 is not allowed"],
    ),
    "script in text": (
        {"g/a.yaml": entry("text: {es: '<script>alert(1)</script>', en: 'x'}\n")},
        ["content/g/a.yaml:6:13: error[raw-html]: raw HTML '<script>' in 'text'; write plain text (markup is escaped on the site)"],
    ),
    "html entity in text": (
        {"g/a.yaml": entry("summary: {es: 'uno &amp; dos', en: 'one and two'}\n")},
        ["content/g/a.yaml:6:20: error[raw-html]: raw HTML '&amp;' in 'summary'; write plain text (markup is escaped on the site)"],
    ),
    "block of another kind": (
        {"g/a.yaml": entry("terrain: {movement_cost_change: 1}\n")},
        ["content/g/a.yaml:6:1: error[misplaced-block]: 'terrain' block belongs to entries of kind 'terrain', not 'rule'"],
    ),
    "sequence without steps": (
        {"g/a.yaml": entry(kind="kind: sequence")},
        ["content/g/a.yaml:1:1: error[missing-field]: missing required field 'sequence' in the entry"],
    ),
    "duplicate step id": (
        {"g/a.yaml": entry("sequence:\n  steps:\n    - id: one\n      title: {es: Uno, en: One}\n    - id: one\n"
                           "      title: {es: Otro, en: Other}\n", kind="kind: sequence")},
        ["content/g/a.yaml:10:11: error[duplicate-item-id]: duplicate step id 'one' in this entry (first at line 8)"],
    ),
    "unknown source document": (
        {"g/a.yaml": entry(source="source: {doc: seed.text, section: s}")},
        ["content/g/a.yaml:5:15: error[unknown-source-doc]: source document 'seed.text' is not listed in the game's "
         "game.yaml; did you mean 'seed.txt'?"],
    ),
    "game folder without game.yaml": (
        {"h/a.yaml": "id: h.a\nkind: rule\ngame: h\ntitle: {es: A, en: A}\nsource: {doc: s, section: s}\n"},
        ["content/h:1:1: error[missing-game-meta]: folder 'h' has no game.yaml describing the game"],
    ),
    "entry outside a game folder": (
        {"loose.yaml": OK},
        ["content/loose.yaml:1:1: error[misplaced-file]: entry files live in a game folder: content/<game>/...; the "
         "shared folder 'common' holds concepts only"],
    ),
    "concept with a concept link of the wrong kind": (
        {"g/t.yaml": "id: g.t\nkind: term\ngame: g\ntitle: {es: T, en: T}\nsource: {doc: seed.txt, section: s}\n"
                     "term:\n  forms: {es: [te], en: [tee]}\n  concept: g.ok\n", "g/a.yaml": OK},
        ["content/g/t.yaml:8:12: error[link-kind-mismatch]: link '{@concept g.ok}' points to an entry of kind 'rule'; "
         "write {@rule g.ok}"],
    ),
    "term form claimed twice": (
        {"g/t.yaml": "id: g.t\nkind: term\ngame: g\ntitle: {es: T, en: T}\nsource: {doc: seed.txt, section: s}\n"
                     "term:\n  forms: {es: [trabado], en: [engaged]}\n",
         "g/u.yaml": "id: g.u\nkind: term\ngame: g\ntitle: {es: U, en: U}\nsource: {doc: seed.txt, section: s}\n"
                     "term:\n  forms: {es: [Trabado], en: [locked]}\n"},
        ["content/g/u.yaml:7:16: error[duplicate-term-form]: es form 'Trabado' is claimed by both 'g.t' and 'g.u'"],
    ),
    "broken game mechanics": (
        {"g/mechanics.py": "import math\n\nraise ValueError('oops')\n", "g/a.yaml": OK},
        ["content/g/mechanics.py:3:1: error[mechanics-import]: cannot load the game's mechanics module: ValueError: oops"],
    ),
    "link to a file that loads under another id": (  # audit-packs defect 20: not "did you mean" another entry
        {"g/terms/range.yaml": entry(id="id: other.range"), "g/terms/cover.yaml": entry(id="id: g.Cover_Term"),
         "g/terms/move.yaml": entry(id="id: g.move"),
         "g/a.yaml": entry("text: {es: 'Ver {@rule g.range} y {@rule g.cover}', en: 'See {@rule g.range}'}\n",
                           id="id: g.ok")},
        ["content/g/a.yaml:6:17: error[link-to-misnamed]: link to 'g.range', an id no entry has: its file "
         "content/g/terms/range.yaml declares id 'other.range'; fix the id there or link to it",
         "content/g/a.yaml:6:35: error[link-to-misnamed]: link to 'g.cover', an id no entry has: its file "
         "content/g/terms/cover.yaml declares id 'g.Cover_Term'; fix the id there or link to it",
         "content/g/a.yaml:6:62: error[link-to-misnamed]: link to 'g.range', an id no entry has: its file "
         "content/g/terms/range.yaml declares id 'other.range'; fix the id there or link to it",
         "content/g/terms/cover.yaml:1:5: error[invalid-id]: 'id': 'g.Cover_Term' is not a valid id; use "
         "'<game>.<slug>' with lowercase letters, digits and hyphens",
         "content/g/terms/range.yaml:1:5: error[id-prefix]: id 'other.range' must start with 'g.', the name of its folder"],
    ),
    "link into a file that does not parse": (
        {"g/t.yaml": "id: g.t\nkind: term\n  bad: [\n", "g/named.yaml": "id: g.other\nkind: [\n",
         "g/a.yaml": entry("text: {es: 'Ver {@term g.t} y {@rule g.other}', en: 'See {@term g.t} and {@rule g.other}'}\n",
                           id="id: g.ok")},
        ["content/g/a.yaml:6:17: error[link-to-unloaded]: link to 'g.t', whose file content/g/t.yaml does not load: "
         "fix the error reported there",
         "content/g/a.yaml:6:31: error[link-to-unloaded]: link to 'g.other', whose file content/g/named.yaml does not "
         "load: fix the error reported there",  # the id its id: line names
         "content/g/a.yaml:6:58: error[link-to-unloaded]: link to 'g.t', whose file content/g/t.yaml does not load: "
         "fix the error reported there",
         "content/g/a.yaml:6:74: error[link-to-unloaded]: link to 'g.other', whose file content/g/named.yaml does not "
         "load: fix the error reported there",
         "content/g/named.yaml:3:1: error[yaml-syntax]: invalid YAML: while parsing a flow node did not find expected "
         "node content",
         "content/g/t.yaml:3:6: error[yaml-syntax]: invalid YAML: mapping values are not allowed in this context"],
    ),
    "resolver outside its game prefix": (
        {"g/mechanics.py": "from kb.mechanics import Trace, outcome, resolver\n\n\n"
                           "@resolver('other.thing', outputs={'x': 'x'})\ndef thing(a: int):\n    return outcome(Trace(), x=a)\n",
         "g/a.yaml": OK},
        ["content/g/mechanics.py:4:1: error[resolver-prefix]: resolver 'other.thing' in g's mechanics must be named 'g.<name>'"],
    ),
    "a resolver name given twice": (  # under another function's name, and under the same one
        {"g/mechanics.py": RESOLVERS + "\n\n@resolver('g.hit', outputs={'x': 'x'})\ndef hit2(a: int):\n    return outcome(Trace(), x=0)\n"
                           "\n\n@resolver('g.hit', outputs={'x': 'x'})\ndef hit(a: int):\n    return outcome(Trace(), x=1)\n",
         "g/a.yaml": OK},
        ["content/g/mechanics.py:9:1: error[duplicate-resolver]: resolver 'g.hit' is already defined at line 4; give each "
         "resolver its own name (this definition is ignored)",
         "content/g/mechanics.py:14:1: error[duplicate-resolver]: resolver 'g.hit' is already defined at line 4; give each "
         "resolver its own name (this definition is ignored)"],
    ),
    "resolvers the engine cannot call": (
        {"g/mechanics.py": RESOLVERS.replace("def hit(a: int)", "def hit(**modifiers: int)")
         + "\n\n@resolver('g.rolls', outputs={'x': 'x'})\ndef rolls(*dice: int):\n    return outcome(Trace(), x=0)\n"
         + "\n\n@resolver('g.bare', outputs={'x': 'x'})\ndef bare(a, b: int = 2):\n    return outcome(Trace(), x=0)\n"
         + "\n\n@resolver('g.obj', outputs={'x': 'x'})\ndef obj(a: int, thing: object):\n    return outcome(Trace(), x=0)\n"
         + "\n\n@resolver('g.fine', outputs={'x': 'x'})\ndef fine(a: int):\n    return outcome(Trace(), x=0)\n",
         "g/a.yaml": entry("examples:\n  - {id: e, mechanic: g.fine, given: {a: 1}, expect: {x: 0}}\n")},
        ["content/g/mechanics.py:4:1: error[resolver-signature]: resolver 'g.hit' (def hit) cannot be used as declared: it "
         "takes **modifiers; a resolver takes named parameters only, each with a type hint",
         "content/g/mechanics.py:9:1: error[resolver-signature]: resolver 'g.rolls' (def rolls) cannot be used as declared: "
         "it takes *dice; a resolver takes named parameters only, each with a type hint",
         "content/g/mechanics.py:14:1: error[resolver-signature]: resolver 'g.bare' (def bare) cannot be used as declared: "
         "its parameter 'a' has no type hint; write one (int, float, bool, str, a Literal, lists and mappings of them)",
         "content/g/mechanics.py:19:1: error[resolver-signature]: resolver 'g.obj' (def obj) cannot be used as declared: "
         "its parameter 'thing' has the type object, which the engine cannot check; use int, float, bool, str, a "
         "Literal, or lists and mappings of them"],  # and g.fine is registered: its example runs
    ),
    "a malformed LABELS entry": (
        {"g/mechanics.py": RESOLVERS + "\n\nLABELS = {\n    'a': ('a', 'a'),\n    'x': 'equis',\n}\n",
         "g/a.yaml": OK},
        ["content/g/mechanics.py:11:5: error[label-format]: LABELS['x'] is 'equis', not a pair of texts (Spanish, English)"],
    ),
}

UNLABELLED = ("from typing import Literal\n\nfrom kb.mechanics import Trace, outcome, resolver\n\n\n"
              "@resolver('g.lamp', outputs={'lamp_out': 'the lamp goes out'})\n"
              "def lamp(roll: int, mode: Literal['dim', 'lit'] = 'lit'):\n    return outcome(Trace(), lamp_out=roll < 3)\n\n\n"
              "LABELS = {'roll': ('tirada', 'roll'), 'mode': ('modo', ''), 'dim': ('tenue', 'dim')}\n")


def test_a_resolver_without_labels_fails_strict(tree) -> None:
    tree({"g/mechanics.py": UNLABELLED, "g/a.yaml": OK})
    assert cli("check")[0] == 0  # a warning: the pack works, its pages show bare words
    code, out, _ = cli("check", "--strict")
    assert code == 1
    assert out.splitlines() == ["content/g/mechanics.py:6:1: warning[resolver-label]: resolver 'g.lamp' has no label "
                                "for mode (en), lamp_out (es), lamp_out (en), lit (es), lit (en): give them in the "
                                "mechanics module's LABELS (word: (Spanish, English)) or the decorator's labels=; "
                                "pages would show the bare words"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_reported_exactly(name: str, tree) -> None:
    files, expected = CASES[name]
    root = tree(files)
    if name == "dangling link inside the content":
        os.symlink(root / "g" / "missing.yaml", root / "g" / "gone.yaml")
    code, out, err = cli("check", "--no-warnings")
    assert code == 1, out + err
    assert "Traceback" not in out + err
    assert out.splitlines() == expected


def test_link_outside_content_is_reported(tree, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text(OK, encoding="utf-8")
    root = tree({"g/a.yaml": entry(id="id: g.a")})
    os.symlink(secret, root / "g" / "link.yaml")
    code, out, _ = cli("check", "--no-warnings")
    assert code == 1
    assert out.splitlines() == [f"content/g/link.yaml:1:1: error[symlink-outside]: symbolic link points outside the "
                                f"content folder: {secret}"]


def test_every_problem_is_reported_in_one_run(tree) -> None:
    singles = [body for files, _ in CASES.values() for rel, body in files.items() if len(files) == 1 and rel.startswith("g/")]
    tree({f"g/case{i}.yaml": body for i, body in enumerate(singles)})
    code, out, _ = cli("check", "--no-warnings", "--format", "json")
    paths = {d["path"] for d in json.loads(out)}
    assert code == 1
    assert len(singles) >= 30
    assert paths == {f"content/g/case{i}.yaml" for i in range(len(singles))}  # one run reports every broken file


def test_too_many_files_is_one_error(tree, tmp_path: Path) -> None:
    """The limit is a parameter (``Limits.max_files``), passed in: nothing is loaded past it."""
    from kb.core._yaml import Limits
    from kb.core.loader import load_tree

    tree({"g/a.yaml": OK, "g/b.yaml": entry(id="id: g.b"), "g/c.yaml": entry(id="id: g.c")})
    root = tmp_path / "content"
    loaded = load_tree(root, Limits(max_files=2), cache_base=tmp_path / "cache")
    assert [d.format() for d in loaded.diagnostics] == [
        "content:1:1: error[too-many-entries]: content holds more than 2 files; split the knowledge base"]
    assert loaded.entries == {}
    assert len(load_tree(root, Limits(max_files=4), cache_base=tmp_path / "cache").entries) == 3  # and game.yaml


def test_every_diagnostic_code_is_tested() -> None:
    from kb.core.diagnostics import CODES

    here = Path(__file__).parent
    text = "".join(p.read_text(encoding="utf-8") for p in here.glob("test_*.py"))
    fallback = {"schema"}  # the converter's catch-all for schema keywords the shipped schemas do not use
    assert [c for c in CODES if c not in fallback and f"[{c}]" not in text] == []


def _fifo(root: Path) -> None:
    os.mkfifo(root / "g" / "pipe.yaml")


def _bad_name(root: Path) -> None:
    (root / "g" / os.fsdecode(b"d\xff.yaml")).write_text(OK.replace("g.ok", "g.d"), encoding="utf-8")


def _loop(root: Path) -> None:
    os.symlink("loop-b.yaml", root / "g" / "loop-a.yaml")
    os.symlink("loop-a.yaml", root / "g" / "loop-b.yaml")


# Cases the second adversarial pass found (issue 20): each was a traceback, a hang or silently accepted.
MORE_CASES: dict[str, tuple[dict[str, str | bytes], list[str]]] = {
    "a yaml 1.1 boolean as a title": (
        {"g/a.yaml": entry(title='title: {es: "No", en: No}')},
        ["content/g/a.yaml:4:23: error[wrong-type]: 'title.en' should be text, not true or false"],
    ),
    "a term form without letters": (
        {"g/t.yaml": "id: g.t\nkind: term\ngame: g\ntitle: {es: T, en: T}\nsource: {doc: seed.txt, section: s}\n"
                     "term:\n  forms: {es: [\"...\"], en: [\"&\"]}\n"},
        ["content/g/t.yaml:7:17: error[invalid-value]: 'term.forms.es[0]': '...' is not allowed; a form or "
         "abbreviation needs a letter or a digit",
         "content/g/t.yaml:7:30: error[invalid-value]: 'term.forms.en[0]': '&' is not allowed; a form or "
         "abbreviation needs a letter or a digit"],
    ),
    "an integer of more than 4300 digits": (
        {"g/a.yaml": entry("tags: [" + "9" * 5000 + "]\n")},
        ["content/g/a.yaml:6:8: error[number-limit]: a whole number of 5000 digits; numbers are finite and have at "
         "most 15 digits"],
    ),
    "a file name that is not utf-8": (
        {"g/a.yaml": OK},
        ["content/g/d\\xff.yaml:1:1: error[file-name]: the name 'd\\xff.yaml' is not valid UTF-8; rename it"],
    ),
    "an upper-case extension": (
        {"g/a.YAML": OK},
        ["content/g/a.YAML:1:1: error[file-extension]: 'a.YAML' does not end in '.yaml'; content files end in "
         "lowercase '.yaml'"],
    ),
    "a fifo named like an entry": (
        {"g/a.yaml": OK},
        ["content/g/pipe.yaml:1:1: error[not-a-file]: this is a FIFO, not a file; content files are plain files"],
    ),
    "a symbolic link loop": (
        {"g/a.yaml": OK},
        ["content/g/loop-a.yaml:1:1: error[unreadable]: cannot read file: symbolic link loop",
         "content/g/loop-b.yaml:1:1: error[unreadable]: cannot read file: symbolic link loop"],
    ),
    "an empty sources list in game.yaml": (
        {"g/game.yaml": "id: g\nname: {es: G, en: G}\nsource_language: es\nsources:\n", "g/a.yaml": OK},
        ["content/g/a.yaml:5:15: error[unknown-source-doc]: source document 'seed.txt' is not listed in the game's "
         "game.yaml",
         "content/g/game.yaml:4:9: error[wrong-type]: 'sources' should be a list, not empty"],
    ),
    "a ruling without an answer": (
        {"g/a.yaml": entry("ruling:\n  question: {es: ¿Sí?, en: Yes?}\n", kind="kind: ruling")},
        ["content/g/a.yaml:7:3: error[missing-field]: missing required field 'answer' in 'ruling'"],
    ),
    "a number where a text goes": (
        {"g/a.yaml": entry("ability:\n  timing: {es: 1.5, en: x}\n", kind="kind: ability")},
        ["content/g/a.yaml:7:16: error[wrong-type]: 'ability.timing.es' should be text, not a number 1.5"],
    ),
    "an id ending in a line break": (
        {"g/a.yaml": entry(id='id: "g.x\\n"')},
        ["content/g/a.yaml:1:6: error[invalid-id]: 'id': 'g.x\\n' is not a valid id; use '<game>.<slug>' with "
         "lowercase letters, digits and hyphens"],
    ),
    "a link to itself": (
        {"g/a.yaml": entry("text: {es: 'Ver {@rule g.ok}.', en: 'See {@rule g.ok}.'}\nsee_also: [g.ok]\n")},
        ["content/g/a.yaml:6:17: warning[self-link]: 'text' links to this entry itself",
         "content/g/a.yaml:7:12: warning[self-link]: 'see_also' links to this entry itself"],
    ),
    "a translation hash of a field that does not exist": (
        {"g/a.yaml": entry("i18n:\n  en: {title: 0123456789ab, summry: 0123456789ab}\n")},
        ["content/g/a.yaml:7:29: error[unknown-translation-field]: translation hash for 'summry', a field this "
         "entry does not have"],
    ),
    "a typo'd key whose translation hash is not suggested to follow it": (  # audit-cli defect 13: never 'sumary'
        {"g/a.yaml": entry("sumary: {es: Corto, en: Short}\ni18n:\n  en: {summary: 0123456789ab}\n")},
        ["content/g/a.yaml:6:1: error[unknown-key]: unknown key 'sumary' in the entry; did you mean 'summary'?",
         "content/g/a.yaml:8:8: error[unknown-translation-field]: translation hash for 'summary', a field this "
         "entry does not have"],
    ),
    "a value of the wrong type where one of a list is expected": (  # audit-cli defect 13: one line, not two
        {"g/a.yaml": entry("rule_type: 5\n")},
        ["content/g/a.yaml:6:12: error[invalid-value]: 'rule_type': 5 is not allowed; one of: core, optional, variant, "
         "clarification"],
    ),
    "many values without aliases": (
        {"g/a.yaml": entry("tags: [" + ", ".join(["t"] * 25_000) + "]\n")},
        ["content/g/a.yaml:6:59957: error[value-limit]: file holds more than 20000 values; split it"],
    ),
    "an escape sequence in a key": (
        {"g/a.yaml": entry('"\\e[31mred": x\n')},
        ["content/g/a.yaml:6:1: error[unknown-key]: unknown key '\\x1b[31mred' in the entry"],
    ),
    "dice past the limits": (
        {"g/a.yaml": entry("examples:\n  - id: big\n    mechanic: dice.odds\n    given: {dice: d100000000}\n"
                           "    probability: 1/2\n  - id: many\n    mechanic: dice.odds\n    given: {dice: 21d6}\n"
                           "    probability: 1/2\n")},
        ["content/g/a.yaml:9:19: error[limit-exceeded]: 'examples[0].given.dice' is too big to work out: dice of "
         "100000000 sides; the limit is 1000",
         "content/g/a.yaml:13:19: error[limit-exceeded]: 'examples[1].given.dice' is too big to work out: 21 dice; "
         "the limit is 20"],
    ),
    "an input list past the limit": (
        {"g/a.yaml": entry("examples:\n  - id: big\n    mechanic: cards.flip-select\n    given:\n      flips: {"
                           + ", ".join(f"c{i}: 1" for i in range(101)) + "}\n    expect: {tied: []}\n")},
        ["content/g/a.yaml:10:14: error[limit-exceeded]: 'examples[0].given.flips' is too big to work out: 101 "
         "items; the limit is 100"],
    ),
    "a decimal probability": (  # one line for one mistake, with the fraction to write (audit-pack2 defect 12)
        {"g/a.yaml": entry("examples:\n  - id: z\n    mechanic: dice.odds\n    given: {dice: 2d6}\n"
                           "    probability: 0.6\n")},
        ["content/g/a.yaml:10:18: error[invalid-value]: 'examples[0].probability': 0.6 is not allowed; a fraction "
         "such as 30/36; write it as a fraction: 3/5"],
    ),
    "a decimal probability written as text": (
        {"g/a.yaml": entry("examples:\n  - id: z\n    mechanic: dice.odds\n    given: {dice: 2d6}\n"
                           "    probability: '0.25'\n")},
        ["content/g/a.yaml:10:19: error[invalid-value]: 'examples[0].probability': '0.25' is not allowed; a fraction "
         "such as 30/36; write it as a fraction: 1/4"],
    ),
    "a probability that divides by zero": (
        {"g/a.yaml": entry("examples:\n  - id: z\n    mechanic: dice.odds\n    given: {dice: 2d6}\n"
                           "    probability: 1/0\n")},
        ["content/g/a.yaml:10:18: error[invalid-value]: 'examples[0].probability': '1/0' is not allowed; a fraction "
         "from 0/1 to 1/1 such as 30/36"],
    ),
    "a game mechanics module that exits": (
        {"g/mechanics.py": "import sys\n\nsys.exit(0)\n", "g/a.yaml": OK},
        ["content/g/mechanics.py:3:1: error[mechanics-import]: cannot load the game's mechanics module: "
         "SystemExit(0): the module exits"],
    ),
}
# Values that crashed commands (issue 28): each is a located error, and goes through every command (below).
VALUE_CASES: dict[str, tuple[dict[str, str | bytes], list[str]]] = {
    "a tagged empty value": (
        {"g/a.yaml": entry("action:\n  cost: !!int\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[yaml-syntax]: invalid YAML: the tag '!!int' is given to '', which is not one"],
    ),
    "a float tag on empty text": (
        {"g/a.yaml": entry("action:\n  cost: !!float ''\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[yaml-syntax]: invalid YAML: the tag '!!float' is given to '', which is not one"],
    ),
    "a bool tag on empty text": (
        {"g/a.yaml": entry("tags: [!!bool '']\n")},
        ["content/g/a.yaml:6:8: error[yaml-syntax]: invalid YAML: the tag '!!bool' is given to '', which is not one"],
    ),
    "a null tag on text": (
        {"g/a.yaml": entry("tags: [!!null x]\n")},
        ["content/g/a.yaml:6:8: error[yaml-syntax]: invalid YAML: the tag '!!null' is given to 'x', which is not one"],
    ),
    "a whole number of 29 digits": (
        {"g/a.yaml": entry("action:\n  cost: 1" + "0" * 28 + "\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[number-limit]: a whole number of 29 digits; numbers are finite and have at "
         "most 15 digits"],
    ),
    "a number too big": (
        {"g/a.yaml": entry("action:\n  cost: 1.0e+20\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[number-limit]: 1.0e+20 is too big; numbers are finite and have at most 15 digits"],
    ),
    "not a number": (
        {"g/a.yaml": entry("action:\n  cost: .nan\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[number-limit]: '.nan' is not a finite number; numbers are finite and have at "
         "most 15 digits"],
    ),
    "an infinity": (
        {"g/a.yaml": entry("action:\n  cost: !!float -.inf\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[number-limit]: '-.inf' is not a finite number; numbers are finite and have at "
         "most 15 digits"],
    ),
    "a float too big to hold": (
        {"g/a.yaml": entry("action:\n  cost: 1.0e+400\n", kind="kind: action")},
        ["content/g/a.yaml:7:9: error[number-limit]: '1.0e+400' is not a finite number; numbers are finite and have "
         "at most 15 digits"],
    ),
    "control characters in texts": (
        {"g/a.yaml": entry('text: {es: "a\\e[2J", en: "b\\a"}\nsummary: {es: "\\x01", en: x}\n')},
        ["content/g/a.yaml:6:14: error[control-character]: 'text.es' holds the control character \\x1b; write plain "
         "text (a line break and a tab are the only control characters a text may hold)",
         "content/g/a.yaml:6:28: error[control-character]: 'text.en' holds the control character \\x07; write plain "
         "text (a line break and a tab are the only control characters a text may hold)",
         "content/g/a.yaml:7:16: error[control-character]: 'summary.es' holds the control character \\x01; write "
         "plain text (a line break and a tab are the only control characters a text may hold)"],
    ),
    "an id of 300 characters": (
        {"g/a.yaml": entry(id="id: g." + "a" * 298)},
        ["content/g/a.yaml:1:5: error[invalid-value]: 'id': text of 300 characters is not allowed; the most allowed "
         "is 100"],
    ),
}
MORE_CASES.update(VALUE_CASES)
MORE_CASES["a game mechanics module that calls os._exit"] = (
    {"g/mechanics.py": "import os\n\nos._exit(0)\n", "g/a.yaml": OK},
    ["content/g/mechanics.py:3:1: error[mechanics-import]: cannot load the game's mechanics module: os._exit(0): "
     "the module exits"],
)
MORE_CASES["a game mechanics module that calls posix._exit"] = (
    {"g/mechanics.py": "from posix import _exit\n\n_exit(3)\n", "g/a.yaml": OK},
    ["content/g/mechanics.py:3:1: error[mechanics-import]: cannot load the game's mechanics module: os._exit(3): "
     "the module exits"],
)
# Cases the hostile-content audit found (2026-12-07): each was accepted by 'kb check --strict'.
MORE_CASES["a line break in names"] = (  # it would start a block on the page, or forge lines in 'kb show'
    {"g/a.yaml": entry("also_called: {es: [\"uno\\n## dos\"]}\nquestions: {es: [\"¿Sí?\\n# H\"]}\n"
                       "examples:\n  - id: e\n    title: {es: \"E\\n\\n!!! danger\"}\n    mechanic: dice.odds\n"
                       "    given: {dice: 1d6, at_least: 4}\n    probability: 1/2\n",
                       title='title: {es: "Bien\\n\\n!!! danger \\"X\\"", en: Fine}',
                       source='source: {doc: seed.txt, section: "s\\n# H"}')},
    ["content/g/a.yaml:4:18: error[line-break]: 'title.es' holds a line break; a title, a name or a "
     "heading is one line: write it on one line",
     "content/g/a.yaml:5:36: error[line-break]: 'source.section' holds a line break; a title, a name "
     "or a heading is one line: write it on one line",
     "content/g/a.yaml:6:24: error[line-break]: 'also_called.es[0]' holds a line break; a title, a "
     "name or a heading is one line: write it on one line",
     "content/g/a.yaml:7:23: error[line-break]: 'questions.es[0]' holds a line break; a title, a name "
     "or a heading is one line: write it on one line",
     "content/g/a.yaml:10:19: error[line-break]: 'examples[0].title.es' holds a line break; a title, "
     "a name or a heading is one line: write it on one line"],
)
MORE_CASES["a line break in the game's name and a players' name"] = (
    {"g/a.yaml": OK, "g/game.yaml": "id: g\nname: {es: \"Juego\\n\\n# H\", en: Game}\nsource_language: es\n"
                                    "sources:\n  - doc: seed.txt\nnames:\n  g.ok: {es: \"Ok\\n!!! danger\", en: Ok}\n"},
    ["content/g/game.yaml:2:18: error[line-break]: 'name.es' holds a line break; a title, a name or a "
     "heading is one line: write it on one line",
     "content/g/game.yaml:7:17: error[line-break]: 'names.g.ok.es' holds a line break; a title, a "
     "name or a heading is one line: write it on one line"],
)
MORE_CASES["block markdown in a text"] = (  # beyond light Markdown: a heading, an admonition, code, a rule
    {"g/a.yaml": entry("text:\n  es: |\n    Regla.\n\n    ## examples\n  en: |\n    Rule.\n\n        code\n"
                       "notes:\n  es: |\n    Nota.\n    !!! danger \"OFICIAL\"\n  en: |\n    Note.\n\n    ---\n"
                       "summary:\n  es: |\n    Resumen\n    =======\n  en: |\n    - ```\n")},
    ["content/g/a.yaml:10:5: error[block-markup]: a heading ('## examples') in 'text'; a text holds "
     "light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows the marks as "
     "typed)",
     "content/g/a.yaml:14:5: error[block-markup]: an indented code block ('    code') in 'text'; a "
     "text holds light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows the "
     "marks as typed)",
     "content/g/a.yaml:18:5: error[block-markup]: an admonition ('!!! danger \"OFICIAL\"') in 'notes'; "
     "a text holds light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows "
     "the marks as typed)",
     "content/g/a.yaml:22:5: error[block-markup]: a horizontal rule ('---') in 'notes'; a text holds "
     "light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows the marks as "
     "typed)",
     "content/g/a.yaml:26:5: error[block-markup]: a heading underline ('=======') in 'summary'; a "
     "text holds light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows the "
     "marks as typed)",
     "content/g/a.yaml:28:7: error[block-markup]: a fenced code block ('```') in 'summary'; a text "
     "holds light Markdown only (*emphasis*, lists, tables): write it as prose (a page shows the "
     "marks as typed)"],
)
MORE_CASES["a title of 500 characters"] = (
    {"g/a.yaml": entry(title="title: {es: " + "T" * 500 + ", en: Fine}")},
    ["content/g/a.yaml:4:13: error[invalid-value]: 'title.es': text of 500 characters is not allowed; "
     "the most allowed is 400"],
)
MORE_CASES["bidi and zero-width characters in texts"] = (  # "Trojan source": the text shows reordered
    {"g/a.yaml": entry(title='title: {es: "Bien \\u202eneib\\u202c", en: "Fine \\u2066x\\u2069"}',
                       source='source: {doc: seed.txt, section: "s\\u200bs"}')},
    ["content/g/a.yaml:4:19: error[control-character]: 'title.es' holds the control character \\u202e; "
     "write plain text (a line break and a tab are the only control characters a text may hold)",
     "content/g/a.yaml:4:48: error[control-character]: 'title.en' holds the control character \\u2066; "
     "write plain text (a line break and a tab are the only control characters a text may hold)",
     "content/g/a.yaml:5:36: error[control-character]: 'source.section' holds the control character "
     "\\u200b; write plain text (a line break and a tab are the only control characters a text may "
     "hold)"],
)

MORE_CASES["a bidi override in a key"] = (  # the key is quoted in the message: with the override escaped
    {"g/a.yaml": entry('"k\\u202eyek": 1\n')},
    ["content/g/a.yaml:6:1: error[unknown-key]: unknown key 'k\\u202eyek' in the entry"],
)

def _line_break_name(root: Path) -> None:
    (root / "g" / "ok.yaml:1:1: error[none]: all good\n\x1b[2Kspoof.yaml").write_text(entry("bad: 1\n", id="id: g.z"),
                                                                                      encoding="utf-8")


MORE_CASES["a file name with a line break"] = (
    {"g/a.yaml": OK},
    ["content/g:1:1: error[file-name]: the name 'ok.yaml:1:1: error[none]: all "
     "good\\n\\x1b[2Kspoof.yaml' holds the control character \\n; rename it"],
)
WARNINGS = {"a link to itself"}
"""Cases that are warnings (``kb check --strict`` fails on them)."""
SETUP = {"a fifo named like an entry": _fifo, "a file name that is not utf-8": _bad_name, "a symbolic link loop": _loop,
         "a file name with a line break": _line_break_name}


@pytest.mark.parametrize("name", sorted(MORE_CASES))
def test_more_bad_input_is_reported_exactly(name: str, tree) -> None:
    files, expected = MORE_CASES[name]
    game = files.pop("g/game.yaml", None) if "g/game.yaml" in files else None
    root = tree(files)
    files.update({"g/game.yaml": game} if game else {})
    if game:
        (root / "g" / "game.yaml").write_text(game, encoding="utf-8")
    if name in SETUP:
        SETUP[name](root)
    code, out, err = cli("check", "--strict") if name in WARNINGS else cli("check", "--no-warnings")
    assert code == 1, out + err
    assert "Traceback" not in out + err
    lines = out.splitlines()
    if name in WARNINGS:  # the case's own warnings (its texts have no translation hashes: those are stale too)
        lines = [ln for ln in lines if "stale-translation" not in ln]
    assert lines == expected


def test_a_folder_that_cannot_be_read_is_reported(tree, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tree({"g/a.yaml": OK, "g/locked/b.yaml": entry(id="id: g.b")})
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, _ = cli("check", "--no-warnings")
    assert code == 1
    assert out.splitlines() == ["content/g/locked:1:1: error[unreadable]: cannot read file: Permission denied"]


@pytest.mark.parametrize("name", sorted(CASES) + sorted(MORE_CASES))
def test_every_bad_input_still_renders(name: str, tree) -> None:
    """A plain (non-strict) build goes on past errors: every broken tree still makes its pages."""
    from kb import KnowledgeBase
    from kb.site.pages import build_site

    files, _ = {**CASES, **MORE_CASES}[name]
    game = files.get("g/game.yaml")
    root = tree({k: v for k, v in files.items() if k != "g/game.yaml"})
    if game:
        (root / "g" / "game.yaml").write_text(game, encoding="utf-8")
    if name in SETUP:
        SETUP[name](root)
    kb = KnowledgeBase.load(root, use_cache=False)
    results = kb.run_examples()
    for lang in ("es", "en"):
        assert build_site(kb, results, lang).pages


def test_a_players_name_given_to_two_entries_of_one_game_is_located(tree) -> None:
    tree({"g/a.yaml": entry("also_called: {es: [destrabarse], en: [disengage]}\n"),
          "g/b.yaml": entry("also_called: {es: [Destrabarse], en: [get away]}\n", id="id: g.b"),
          "h/c.yaml": entry("also_called: {es: [destrabarse]}\n", id="id: h.c", game="game: h")}, games=("g", "h"))
    code, out, _ = cli("check")
    assert [line for line in out.splitlines() if "duplicate-player-name" in line] == [
        "content/g/b.yaml:6:20: warning[duplicate-player-name]: es players' name 'Destrabarse' is also given to "
        "'g.ok' of this game; a name players use should lead to one entry"]  # h is another game: no warning


def _ids(files: dict[str, str | bytes]) -> list[str]:
    """The ids the case's files claim (read from their ``id:`` lines: the files may not load)."""
    found = []
    for body in files.values():
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        found += [line[4:].strip().strip('"') for line in text.splitlines() if line.startswith("id: ")]
    return found or ["g.ok"]


@pytest.mark.parametrize("name", sorted(CASES) + sorted(MORE_CASES))
def test_every_bad_input_goes_through_every_command(name: str, tree, tmp_path: Path) -> None:
    """check, test, show (each id the files claim, text and JSON), search and PO export: an exit code and a
    message, never an exception, and nothing printed holds a control character."""
    files, _ = {**CASES, **MORE_CASES}[name]
    root = tree({k: v for k, v in files.items() if k != "g/game.yaml"})
    if "g/game.yaml" in files:
        (root / "g" / "game.yaml").write_text(str(files["g/game.yaml"]), encoding="utf-8")
    if name in SETUP:
        SETUP[name](root)
    runs = [("check",), ("test",), ("search", "fine"), ("i18n", "export", "-o", str(tmp_path / "out.po"))]
    runs += [("show", i, *fmt) for i in _ids(files) for fmt in ((), ("--json",), ("--lang", "en"))]
    for argv in runs:
        code, out, err = cli(*argv)
        assert code in (0, 1, 2), (argv, out, err)
        assert "Traceback" not in out + err, argv
        assert not CONTROL.search(out + err), (argv, out + err)


# ---------------------------------------------------------------- mkdocs build and pytest, per case (issue 28)

THROUGH_EVERY_ADAPTER = ["a tagged empty value", "a float tag on empty text", "a bool tag on empty text",
                         "a null tag on text", "a whole number of 29 digits", "a number too big", "an infinity",
                         "not a number", "a float too big to hold", "an integer of more than 4300 digits",
                         "control characters in texts", "an id of 300 characters", "an id ending in a line break",
                         "a game mechanics module that calls os._exit", "a game mechanics module that exits",
                         "two ids, one page", "yaml syntax", "python tag"]
"""The cases the issue saw crash `mkdocs build` or stop pytest's collection (and a few of the oldest)."""


def _errors(name: str) -> list[str]:
    return [line for line in {**CASES, **MORE_CASES}[name][1] if ": error[" in line]


def _case(name: str, tree) -> Path:
    files, _ = {**CASES, **MORE_CASES}[name]
    root = tree({k: v for k, v in files.items() if k != "g/game.yaml"})
    if "g/game.yaml" in files:
        (root / "g" / "game.yaml").write_text(str(files["g/game.yaml"]), encoding="utf-8")
    if name in SETUP:
        SETUP[name](root)
    return root


@pytest.mark.slow
@pytest.mark.parametrize("name", ["a tagged empty value", "a whole number of 29 digits", "control characters in texts",
                                  "an id of 300 characters", "a game mechanics module that calls os._exit",
                                  "two ids, one page"])  # a whole site build each: the issue's own cases
def test_mkdocs_build_reports_each_case_at_its_place(name: str, tree, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """`mkdocs build` (the MkDocs command, not `kb build`) on the broken tree: no exception, and every error
    `kb check` reports is a warning line of the build, located as `kb check` locates it."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    root = _case(name, tree)
    (tmp_path / "docs").mkdir()
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: x\nplugins:\n  - kb:\n      content: {json.dumps(str(root))}\n", encoding="utf-8")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with caplog.at_level("WARNING"):
        build(load_config(str(config), site_dir=str(tmp_path / "site")))
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    missing = [line for line in _errors(name) if f"kb: {line}" not in said]
    assert _errors(name) and missing == [], "\n".join(said)
    assert (tmp_path / "site" / "es" / "index.html").is_file()  # a plain build goes on past errors


@pytest.mark.slow
@pytest.mark.parametrize("name", THROUGH_EVERY_ADAPTER)
def test_pytest_runs_each_case_to_a_located_failure(name: str, pytester: pytest.Pytester, monkeypatch) -> None:
    """pytest on the broken tree collects it (no interrupted collection, exit 2, nor a silent exit 0) and fails
    with the located errors of every file that does not load, as `kb test` lists them."""
    root = _case(name, lambda files: _tree_in(pytester.path, files))
    monkeypatch.chdir(pytester.path)
    code, out, _ = cli("--content", str(root), "test")
    result = pytester.runpytest_inprocess("content", "-q", "-p", "no:cacheprovider")
    text = result.stdout.str()
    assert "INTERNALERROR" not in text and "Traceback" not in text, text
    not_loaded = [line for line in out.splitlines() if ": error[" in line]
    ran = int(out.splitlines()[-1].split()[0])  # "N passed, ..." : with no example and nothing broken, pytest has no item
    assert result.ret == (1 if code == 1 else 0 if ran else pytest.ExitCode.NO_TESTS_COLLECTED), text
    assert [line for line in not_loaded if line not in text] == [], text


def _tree_in(folder: Path, files: dict[str, str | bytes]) -> Path:
    """What the ``tree`` fixture writes, in ``folder`` (pytester's own working folder)."""
    import textwrap

    from conftest import GAME_YAML

    root = folder / "content"
    (root / "g").mkdir(parents=True, exist_ok=True)
    (root / "g" / "game.yaml").write_text(GAME_YAML.format(game="g"), encoding="utf-8")
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(textwrap.dedent(body), encoding="utf-8")
    return root


def test_a_line_break_in_a_name_forges_no_line_in_show_or_search(tree) -> None:
    """``kb show`` and ``kb search`` print a name on its one line, whatever it holds (the check reports it)."""
    files, _ = MORE_CASES["a line break in names"]
    tree(files)
    for argv in (("show", "g.ok"), ("show", "g.ok", "--lang", "en"), ("search", "bien")):
        code, out, err = cli(*argv)
        assert code in (0, 1), (argv, out, err)
        assert 'Bien  !!! danger "X"' in out or argv[-1] == "en", (argv, out)
        assert not [ln for ln in out.splitlines() if ln.lstrip().startswith(("!!!", "# H", "## dos"))], (argv, out)


def test_a_diagnostic_prints_its_path_on_one_line() -> None:
    """A path is printed with its control characters escaped: a diagnostic is one line, whatever a name holds."""
    from kb.core.diagnostics import diag
    from kb.core.model import Location

    d = diag("empty-file", Location(Path("content/g/ok.yaml:1:1: error[none]: all good\n\x1b[2K\u202espoof.yaml")))
    assert d.format() == ("content/g/ok.yaml:1:1: error[none]: all good\\n\\x1b[2K\\u202espoof.yaml:1:1: error[empty-file]: "
                          "file is empty; an entry is a YAML mapping with at least 'id' and 'kind'")
