"""The wording lint of worked examples (issue 27, item 4): what the engine writes around the rules, read as
a proof-reader would, in each language.

Every worked example is worded (:func:`kb.view.worked.example_view`) and its generated lines — the
situation's and the outcome's rows, the steps, the refusal, the odds — are read for three faults:

- ``raw-id``: a word that is an identifier of the content (an entry's slug, a step id, a key of a game's
  ``names:``, a resolver's value) where the reader should have seen its name: the word is not a word of
  the language's own vocabulary (``knight`` on a Spanish page, ``marine-1`` anywhere);
- ``other-language``: a word of the other language's vocabulary only (``sí`` on an English page, ``run``
  on a Spanish one);
- ``agreement``: a number and the noun (or verb) beside it that disagree, by the language's plural rule
  (CLDR through Babel: ``1`` is *one* in both languages, ``0`` is *other*): «1 zonas», «quedan 1»,
  "1 hits". The singular and plural forms are the vocabulary's own pairs: the gettext catalogue's plural
  messages, the resolvers' ``{n:p:one|other}`` templates, and the pairs the content's own words make
  (a word and the same word with the language's plural ending, of one Snowball stem).

The vocabulary of a language is every word of the content's texts in it, the labels of the resolvers in
it and its catalogue's messages. :func:`lint_view` takes it ready (:class:`Vocabulary`), so a test can
plant a case of each kind in a few words.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping

import polib
import snowballstemmer
from babel import Locale

from kb.core.locale import catalog_path
from kb.core.model import LANGS, Entry, Game, Text, iter_texts
from kb.examples.runner import ExampleResult
from kb.mechanics import Resolver
from kb.mechanics.procedures import flatten_steps
from kb.view.worked import ExampleView

__all__ = ["Vocabulary", "Finding", "example_lines", "lint_view", "plural_pairs", "words", "content_ids", "vocabularies", "content_vocabularies", "lint_results",
           "fstring_messages", "step_number_faults", "before_pairs"]

_WORD = re.compile(r"[^\W\d_]+(?:[-_'’][^\W_]+)*|[a-z0-9]+(?:[-_][a-z0-9]+)+", re.I)
_NUMBER_WORD = re.compile(r"(?<![\w.,/])(\d+)\s+([^\W\d_]+)")
_NAME_BEFORE = re.compile(r"[A-ZÁÉÍÓÚÑ][\w-]*\s$")
"""A number and the word after it; not the number of a name («Marine 1 suelta…», "Unit 1 gains")."""
_PLURAL_END = {"es": ("s", "es"), "en": ("s", "es")}
_STEMMER = {"es": "spanish", "en": "english"}


def words(text: str) -> Iterator[str]:
    """The words of ``text``, lower-cased (hyphenated and ``a_b`` identifiers kept whole)."""
    return (m.group(0).lower() for m in _WORD.finditer(text))


@dataclass
class Vocabulary:
    """What the lint knows of each language: its words, the other language's, the content's ids and the
    singular–plural pairs."""

    lang: str
    own: set[str]
    """Every word the language's own texts, labels and catalogue use."""
    other: set[str]
    """The other language's words."""
    ids: set[str]
    """Identifiers of the content's data (lower case)."""
    pairs: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each singular or plural form -> (singular, plural)."""
    declared: set[str] = field(default_factory=set)
    """The forms whose pair is declared (catalogue plurals, ``{n:p:…}`` templates), not only found in the vocabulary."""
    before: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Words that agree with the number right after them (a verb: «queda 1», «quedan 3»), each form ->
    (singular, plural): only declared ones, ``{n:p:queda|quedan} {n}`` and the catalogue's plurals."""
    steps: dict[str, set[str]] = field(default_factory=dict)
    """Each sequence step's name in the language (its title, its game's ``names:``), lower case -> its numbers."""


@dataclass(frozen=True)
class Finding:
    """One fault in one line of a worked example."""

    kind: str
    """``raw-id``, ``other-language`` or ``agreement``."""
    word: str
    line: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.word!r} in “{self.line}”"


def example_lines(view: ExampleView) -> Iterator[str]:
    """The lines of a worked example the engine wrote (not the author's title and note)."""
    for row in (*view.given, *view.result):
        yield row.label
        yield row.value
    for step in view.steps:
        yield step.text
    yield from (t for t in (view.outcome, view.odds) if t)


def plural_pairs(lang: str, vocabulary: Iterable[str], declared: Iterable[tuple[str, str]] = ()) -> dict[str, tuple[str, str]]:
    """Singular–plural pairs: ``declared`` ones (catalogue plurals, ``{n:p:…}`` templates) and those of
    ``vocabulary``: a word and the word plus a plural ending of ``lang`` sharing one Snowball stem."""
    stem = snowballstemmer.stemmer(_STEMMER[lang]).stemWord
    vocab = set(vocabulary)
    out: dict[str, tuple[str, str]] = {}
    found = list(declared)
    for w in vocab:
        found += [(w, w + end) for end in _PLURAL_END[lang] if len(w) > 2 and w + end in vocab and stem(w) == stem(w + end)]
    for one, other in found:
        if one != other:
            out.setdefault(one, (one, other))
            out.setdefault(other, (one, other))
    return out


def lint_view(view: ExampleView, vocab: Vocabulary) -> list[Finding]:
    """The faults of one worded example (see the module's docstring)."""
    found: list[Finding] = []
    for line in example_lines(view):
        found += _lint_line(line, vocab)
    return found


def _lint_line(line: str, vocab: Vocabulary) -> Iterator[Finding]:
    for w in dict.fromkeys(words(line)):
        if w in vocab.ids and w not in vocab.own and len(w) > 1:
            yield Finding("raw-id", w, line)
        elif w in vocab.other and w not in vocab.own and len(w) > 1:
            yield Finding("other-language", w, line)
    yield from _agreement(line, vocab)
    yield from _step_numbers(line, vocab)


_STEP_CITED = re.compile(r"\b(?:paso|fase|step|phase)\s+(\d+(?:\.\d+)*)\s+\(([^()]+)\)", re.I)
"""«el paso 2 (Movimiento)», "Step 3.2 (Remaining sentry markers)": a number and the step it names."""


def _step_numbers(line: str, vocab: Vocabulary) -> Iterator[Finding]:
    """A step cited with a number that is not the number of the step it names («Paso 2 (Fase 1 · Movimiento)»)."""
    for m in _STEP_CITED.finditer(line):
        known = vocab.steps.get(m.group(2).strip().lower())
        if known and m.group(1) not in known:
            yield Finding("step-number", m.group(0), line)


def _agreement(line: str, vocab: Vocabulary) -> Iterator[Finding]:
    """A number and the word after it in the form the language's plural rule wants for the number. A pair
    only found in the vocabulary is trusted one way: a plural after a number whose form is *one* («1
    zonas»); the other way, a singular after 3, is often right (a mass noun, "3 damage"), so it counts
    only for a declared pair. Then a declared word before a number (:func:`_agreement_before`)."""
    plural = Locale.parse(vocab.lang).plural_form
    for m in _NUMBER_WORD.finditer(line):
        n, w = int(m.group(1)), m.group(2).lower()
        one, other = vocab.pairs.get(w, (w, w))
        if one == other or _NAME_BEFORE.search(line[:m.start()]):
            continue  # no pair, or the number of a name
        if plural(n) == "one" and w == other or w in vocab.declared and plural(n) != "one" and w == one:
            yield Finding("agreement", m.group(0), line)
    yield from _agreement_before(line, vocab, plural)


def _agreement_before(line: str, vocab: Vocabulary, plural: Callable[[int], str]) -> Iterator[Finding]:
    """A word declared to agree with the number after it (:attr:`Vocabulary.before`) in the other form."""
    for m in _WORD_NUMBER.finditer(line):
        w, n = m.group(1).lower(), int(m.group(2))
        one, other = vocab.before.get(w, (w, w))
        if one != other and not _COORDINATED.match(line, m.end()) and w == (other if plural(n) == "one" else one):
            yield Finding("agreement", m.group(0), line)  # a compound subject («quedan 1 oro y 0 maná») is plural


_WORD_NUMBER = re.compile(r"([^\W\d_]+)\s+(\d+)(?![\d.,]?\d)")
"""A word and the number right after it («quedan 1»)."""
_COORDINATED = re.compile(r"[^\d.;:]{0,30}?\b(?:y|e|and)\s+\d")
"""Right after a number: another number joined by «y» / "and" (a compound subject, which takes the plural)."""
_VERB_SPEC = re.compile(r"\{(\w+):p:([^}|]+)\|([^}]+)\}\s+\{\1\}")
"""``{n:p:queda|quedan} {n}``: a word declared to agree with the number that follows it."""


def before_pairs(templates: Iterable[str], catalogue: Iterable[tuple[str, str]] = ()) -> dict[str, tuple[str, str]]:
    """The words declared to agree with the number after them: the last word of each form of a
    ``{n:p:one|other} {n}`` template, and ``catalogue`` pairs; each form -> (singular, plural)."""
    found = [*catalogue]
    for t in templates:
        found += [(a.split()[-1].lower(), b.split()[-1].lower()) for _, a, b in _VERB_SPEC.findall(t) if a.split() and b.split()]
    out: dict[str, tuple[str, str]] = {}
    for one, other in found:
        if one != other:
            out.setdefault(one, (one, other))
            out.setdefault(other, (one, other))
    return out


def _catalog(lang: str) -> tuple[list[str], list[tuple[str, str]]]:
    """A catalogue's translated messages and the (singular, plural) word pairs of its plural messages."""
    texts: list[str] = []
    pairs: list[tuple[str, str]] = []
    for e in polib.pofile(str(catalog_path(lang))):
        forms = [e.msgstr_plural[k] for k in sorted(e.msgstr_plural)] if e.msgid_plural else [e.msgstr or e.msgid]
        if lang == "en" and e.msgid_plural:
            forms = [e.msgid, e.msgid_plural]
        texts += forms
        if len(forms) >= 2:
            one, other = (re.findall(r"\}\s+([^\W\d_]+)", f) for f in forms[:2])
            pairs += list(zip(one, other, strict=False))
    return texts, pairs


def _catalog_before(lang: str) -> list[tuple[str, str]]:
    """The (singular, plural) words right before a placeholder in the catalogue's plural messages («queda {n}»)."""
    found: list[tuple[str, str]] = []
    for e in polib.pofile(str(catalog_path(lang))):
        if e.msgid_plural:
            forms = [e.msgid, e.msgid_plural] if lang == "en" else [e.msgstr_plural[k] for k in sorted(e.msgstr_plural)]
            one, other = (re.findall(r"([^\W\d_]+)\s+\{", f) for f in forms[:2])
            found += [(a.lower(), b.lower()) for a, b in zip(one, other, strict=False)]
    return found


_SPEC = re.compile(r"\{[^}:]*:p:([^}|]+)\|([^}]+)\}")


def _found_texts(entries: Iterable[Entry], games: Iterable[Game]) -> Iterator[Mapping[str, str]]:
    for item in [*(e.data for e in entries), *(g.data for g in games)]:
        yield from (t for _, t in iter_texts(item))


def _texts(entries: Iterable[Entry], games: Iterable[Game], labels: Iterable[Text]) -> dict[str, list[str]]:
    """Every text of the content, the games and the labels, per language."""
    found = [*_found_texts(entries, games), *({lang: label.get(lang) or "" for lang in LANGS} for label in labels)]
    return {lang: [t.get(lang) or "" for t in found] for lang in LANGS}


def _strings(data: Any) -> Iterator[str]:
    """The strings inside plain data (an example's inputs and outputs)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, (Mapping, list, tuple)):
        for v in data.values() if isinstance(data, Mapping) else data:
            yield from _strings(v)


def _entry_ids(e: Entry) -> set[str]:
    ids = {e.id, e.id.partition(".")[2]}
    ids |= {str(s.get("id")) for s in flatten_steps((e.data.get("sequence") or {}).get("steps", []))}
    return ids | {v for ex in e.examples for v in _strings((ex.given, ex.expect)) if not v.isalpha()}


def content_ids(entries: Iterable[Entry], games: Mapping[str, Game], vocabulary: Iterable[str]) -> set[str]:
    """The identifiers a reader must not see: games, entries and their slugs, steps, keys of the games'
    ``names:``; and, of the examples' data and the resolvers' ``vocabulary``, the strings that cannot be
    words (``guild-guard``, ``melee_a``, ``marine-1``)."""
    ids: set[str] = set(games).union(*(_entry_ids(e) for e in entries))
    ids |= {str(k) for g in games.values() for k in (g.data.get("names") or {})}
    return ids | {w for w in vocabulary if not w.isalpha() and not w.isdigit()}


def _declared(templates: Iterable[tuple[str, str]]) -> dict[str, list[tuple[str, str]]]:
    """The singular–plural pairs the catalogue's plurals and the steps' ``{n:p:one|other}`` declare."""
    declared: dict[str, list[tuple[str, str]]] = {lang: _catalog(lang)[1] for lang in LANGS}
    for pair in templates:
        for lang, template in zip(LANGS, pair, strict=True):
            declared[lang] += [(a, b) for one, other in _SPEC.findall(template)
                               for a, b in zip(one.split(), other.split(), strict=False)]
    return {lang: [(a.lower(), b.lower()) for a, b in found] for lang, found in declared.items()}


def vocabularies(entries: Iterable[Entry], games: Iterable[Game], labels: Iterable[Text],
                 templates: Iterable[tuple[str, str]], ids: Iterable[str]) -> dict[str, Vocabulary]:
    """Each language's :class:`Vocabulary`: the words of the content's, the games' and the labels' texts
    and of the catalogue; the pairs of the catalogue's plurals and of the steps' ``templates``
    (``{n:p:one|other}``; their other words are what is linted, not the vocabulary)."""
    texts = _texts(entries, games, labels)
    own = {lang: {w for t in texts[lang] + _catalog(lang)[0] for w in words(t)} for lang in LANGS}
    templates = list(templates)
    declared = _declared(templates)
    id_set = {i.lower() for i in ids}
    return {lang: _vocabulary(lang, own, declared[lang], id_set, [t[i] for t in templates]) for i, lang in enumerate(LANGS)}


def _vocabulary(lang: str, own: Mapping[str, set[str]], declared: list[tuple[str, str]], ids: set[str],
                templates: list[str]) -> Vocabulary:
    """One language's :class:`Vocabulary` (see :func:`vocabularies`)."""
    other = set().union(*(words for lg, words in own.items() if lg != lang))
    return Vocabulary(lang, own[lang], other, ids, plural_pairs(lang, own[lang], declared),
                      {w for pair in declared for w in pair}, before_pairs(templates, _catalog_before(lang)))


def content_vocabularies(entries: Mapping[str, Entry], games: Mapping[str, Game], resolvers: Iterable[Resolver],
                         results: Iterable[ExampleResult]) -> dict[str, Vocabulary]:
    """:func:`vocabularies` of a knowledge base: its entries, games, resolvers and examples' results; with
    each language's step names and numbers (:func:`step_names`)."""
    resolvers = list(resolvers)
    ids = content_ids(entries.values(), games, [w for r in resolvers for w in r.vocabulary()])
    found = vocabularies(entries.values(), games.values(), [t for r in resolvers for t in r.labels.values()],
                         _templates(results), ids)
    for lang, names in step_names(entries.values(), games).items():
        found[lang].steps = names
    return found


def _templates(results: Iterable[ExampleResult]) -> list[tuple[str, str]]:
    """The (Spanish, English) templates of every step and refusal the examples' results hold."""
    steps = [s for d in results for s in (*(d.outcome.trace if d.outcome else ()), *((d.message,) if d.message else ()))]
    return [s.templates for s in steps if s.templates]


def step_names(entries: Iterable[Entry], games: Mapping[str, Game]) -> dict[str, dict[str, set[str]]]:
    """Per language, each numbered sequence step's names — its title and its game's ``names:`` of its id —
    in lower case, and the numbers the engine gives the steps of that name."""
    out: dict[str, dict[str, set[str]]] = {lang: {} for lang in LANGS}
    for e in entries:
        body = e.data.get("sequence")
        if e.kind != "sequence" or not isinstance(body, Mapping):
            continue
        game_names = (games[e.game].data.get("names") or {}) if e.game in games else {}
        for step, number, _ in _walk_steps(body.get("steps", []), ()):
            for lang, name in _step_name_texts(step, game_names):
                out[lang].setdefault(name, set()).update([number] if number is not None else [])
    return out


def _step_name_texts(step: Mapping[str, Any], game_names: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(language, lower-case name) of a step's title and of its game's ``names:`` entry for its id."""
    for name in (step.get("title"), game_names.get(str(step.get("id")))):
        for lang in LANGS:
            text = name.get(lang) if isinstance(name, Mapping) else None
            if isinstance(text, str) and text.strip():
                yield lang, text.strip().lower()


def lint_results(results: Iterable[ExampleResult], vocab: Mapping[str, Vocabulary], view_of: Callable[[ExampleResult, str], ExampleView]
                 ) -> Iterator[tuple[ExampleResult, str, Finding]]:
    """Every fault of every example's result, worded by ``view_of(result, lang)`` in each language."""
    for r in results:
        for lang in LANGS:
            yield from ((r, lang, f) for f in lint_view(view_of(r, lang), vocab[lang]))


def _message_args(call: ast.Call) -> list[ast.expr]:
    """The wording arguments of a call that words a message: ``RuleError(code, es, en, ...)``'s ``es`` and
    ``en``, ``<trace>.add(es, en, ...)``'s first two (a set's ``add`` takes one argument)."""
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if name == "RuleError":
        return list(call.args[1:3])
    if name == "add" and isinstance(call.func, ast.Attribute) and len(call.args) >= 2:
        return list(call.args[:2])
    return []


def fstring_messages(source: str) -> Iterator[tuple[int, int, str]]:
    """Where a resolver words a refusal or a step with an f-string that interpolates a value (line, column,
    1-based; and the f-string's text): the value is then baked into the text, so a page cannot show an id
    by its name, a number the way its language writes it or a count with its plural. ``{name}`` fields and
    keyword values are the way (``docs/format.md``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for arg in _message_args(node):
                for sub in ast.walk(arg):
                    if isinstance(sub, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in sub.values):
                        yield sub.lineno, sub.col_offset + 1, ast.get_source_segment(source, sub) or ""


_TITLE_NUMBER = {
    "es": re.compile(r"^\s*(?:(?:fase|paso|etapa)\s+)?(\d+(?:\.\d+)*)(?=\s*(?:[·:.–—-]|$))", re.I),
    "en": re.compile(r"^\s*(?:(?:phase|step|stage)\s+)?(\d+(?:\.\d+)*)(?=\s*(?:[·:.–—-]|$))", re.I),
}
"""A step title that carries its rulebook number: «Fase 1 · Movimiento», "Step 3: …", «2 – Puesta en guardia»."""


def _walk_steps(steps: Any, path: tuple[str | int, ...], prefix: str = "") -> Iterator[tuple[Mapping[str, Any], str | None, tuple[str | int, ...]]]:
    """Each step with its number as the engine gives it (:func:`kb.mechanics.procedures.numbered_steps`) and its data path."""
    n = 0
    for i, step in enumerate(steps if isinstance(steps, list) else ()):
        if not isinstance(step, Mapping):
            continue
        number = None
        if step.get("numbered", True) is not False:
            n += 1
            number = f"{prefix}.{n}" if prefix else str(n)
        yield step, number, (*path, i)
        yield from _walk_steps(step.get("steps", []), (*path, i, "steps"), prefix if number is None else number)


def step_number_faults(entry: Entry) -> Iterator[tuple[tuple[str | int, ...], str, str, str | None]]:
    """The steps of a sequence whose title carries a number other than the one the engine gives the step
    (what a worked example prints as «paso 2»): (data path of the title, language, the title's number, the
    step's number or ``None`` when unnumbered). A title without a number is not checked: most rulebooks name
    their phases without one, and then the order is the only number there is."""
    body = entry.data.get("sequence")
    if entry.kind != "sequence" or not isinstance(body, Mapping):
        return
    for step, number, path in _walk_steps(body.get("steps", []), ("sequence", "steps")):
        title = step.get("title")
        for lang in LANGS:
            text = title.get(lang) if isinstance(title, Mapping) else None
            m = _TITLE_NUMBER[lang].match(text) if isinstance(text, str) else None
            if m and m.group(1) != number:
                yield (*path, "title", lang), lang, m.group(1), number
