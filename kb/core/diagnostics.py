"""Diagnostics as data: one table of stable codes, one way to format a location."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from kb.core.model import Location

__all__ = ["Diagnostic", "CODES", "diag", "render", "printable", "visible", "one_line", "suggest", "hint", "format_path", "has_errors",
           "sort_key", "CONTROL", "INVISIBLE"]

ERROR, WARNING = "error", "warning"

# code -> (severity, message template). Tests and tools match codes; messages say the valid form.
CODES: dict[str, tuple[str, str]] = {
    # files and YAML
    "unreadable": (ERROR, "cannot read file: {reason}"),
    "file-too-large": (ERROR, "file is {size} bytes; the limit is {limit} bytes per file"),
    "encoding": (ERROR, "file is not valid UTF-8 (byte 0x{byte:02x}); save it as UTF-8"),
    "bom": (ERROR, "file starts with a byte-order mark; save it as UTF-8 without BOM"),
    "empty-file": (ERROR, "file is empty; an entry is a YAML mapping with at least 'id' and 'kind'"),
    "yaml-syntax": (ERROR, "invalid YAML: {problem}"),
    "tab-indent": (ERROR, "tab character in indentation; YAML indents with spaces only"),
    "duplicate-key": (ERROR, "duplicate key '{key}' (first at line {first})"),
    "value-limit": (ERROR, "file holds more than {nodes} values; split it"),
    "alias-limit": (ERROR, "more than {limit} aliases, or aliases expanding past {nodes} values; write the data out"),
    "number-limit": (ERROR, "{problem}; numbers are finite and have at most {limit} digits"),
    "control-character": (ERROR, "{where} holds the control character {char}; write plain text (a line break "
                          "and a tab are the only control characters a text may hold)"),
    "line-break": (ERROR, "{where} holds a line break; a title, a name or a heading is one line: write it on one line"),
    "nesting-limit": (ERROR, "data nested deeper than {limit} levels"),
    "unsupported-tag": (ERROR, "unsupported YAML tag '{tag}'; only plain data is allowed"),
    "multiple-documents": (ERROR, "file holds more than one YAML document; put one entry per file"),
    "not-a-mapping": (ERROR, "file holds a {found}; an entry is a YAML mapping (key: value)"),
    "not-a-file": (ERROR, "this is {kind}, not a file; content files are plain files"),
    "file-name": (ERROR, "the name '{name}' {problem}; rename it"),
    "file-extension": (ERROR, "'{name}' does not end in '.yaml'; content files end in lowercase '.yaml'"),
    "symlink-outside": (ERROR, "symbolic link points outside the content folder: {target}"),
    "docs-file": (ERROR, "{problem}; {fix} (the docs folder is copied into the site as it is)"),
    "too-many-entries": (ERROR, "content holds more than {limit} files; split the knowledge base"),
    # schema
    "unknown-key": (ERROR, "unknown key '{key}' in {where}{hint}"),
    "missing-field": (ERROR, "missing required field '{field}' in {where}"),
    "wrong-type": (ERROR, "{where} should be {expected}, not {found}"),
    "invalid-value": (ERROR, "{where}: {value} is not allowed; {expected}{hint}"),
    "invalid-id": (ERROR, "{where}: '{value}' is not a valid id; use '<game>.<slug>' with lowercase letters, digits and hyphens"),
    "schema": (ERROR, "{where}: {problem}"),
    "unknown-kind": (ERROR, "unknown kind '{kind}'; valid kinds: {valid}{hint}"),
    # entries and games
    "duplicate-id": (ERROR, "duplicate id '{id}', other instance in {other}: that one, the first by path, is the "
                     "entry kb show and the site use; this file is left out"),
    "page-collision": (ERROR, "id '{id}' would write the page '{page}' that '{other_id}' writes too ({other}); rename one"),
    "id-prefix": (ERROR, "id '{id}' must start with '{game}.', the name of its folder"),
    "game-mismatch": (ERROR, "game '{game}' does not match the folder '{folder}'"),
    "missing-game-meta": (ERROR, "folder '{game}' has no game.yaml describing the game"),
    "misplaced-block": (ERROR, "'{block}' block belongs to entries of kind '{block}', not '{kind}'"),
    "missing-translation": (WARNING, "no English translation for '{field}'"),
    "raw-html": (ERROR, "raw HTML '{tag}' in '{field}'; write plain text (markup is escaped on the site)"),
    "block-markup": (ERROR, "{construct} ('{text}') in '{field}'; a text holds light Markdown only (*emphasis*, "
                     "lists, tables): write it as prose (a page shows the marks as typed)"),
    "duplicate-item-id": (ERROR, "duplicate {what} id '{id}' in this entry (first at line {first}){used}"),
    "misplaced-file": (ERROR, "entry files live in a game folder: content/<game>/...; the shared folder '{common}' holds concepts only"),
    "unknown-source-doc": (ERROR, "source document '{doc}' is not listed in the game's game.yaml{hint}"),
    # links and glossary
    "malformed-link": (ERROR, "malformed link '{text}'; write {{@kind id}} or {{@kind id|shown text}}"),
    "unknown-link-type": (ERROR, "unknown link type '@{type}'; valid: {valid}{hint}"),
    "template-text": (WARNING, "'{field}' is still the placeholder text kb new or kb init wrote: write your own words"),
    "self-link": (WARNING, "'{field}' links to this entry itself"),
    "unresolved-link": (ERROR, "unresolved link to '{target}'{hint}"),
    "link-to-unloaded": (ERROR, "link to '{target}', whose file {path} does not load: fix the error reported there"),
    "link-to-misnamed": (ERROR, "link to '{target}', an id no entry has: its file {path} declares id '{id}'; "
                         "fix the id there or link to it"),
    "link-kind-mismatch": (ERROR, "link '{{@{type} {target}}}' points to an entry of kind '{kind}'; write {{@{kind} {target}}}"),
    "duplicate-term-form": (ERROR, "{lang} form '{form}' is claimed by both '{first}' and '{second}'"),
    "duplicate-player-name": (WARNING, "{lang} players' name '{name}' is also given to '{first}' of this game; "
                              "a name players use should lead to one entry"),
    "question-form": (WARNING, "{lang} question '{question}' is not written as a question: {problem}; "
                      "fix it, or move what players type to 'typed'"),
    "too-many-questions": (WARNING, "{count} {lang} questions; a page shows at most {limit}: move the rest to 'typed'"),
    "duplicate-question": (WARNING, "{lang} question '{question}' asks again '{first}'; keep one, move the other to 'typed'"),
    "unused-term": (WARNING, "term '{id}' is used by no other entry"),
    "thesaurus-line": (ERROR, "'{line}' is not a line of the players' words: write 'lang: players' words -> rules' words' "
                       "(words separated by commas)"),
    "thesaurus-language": (ERROR, "unknown language '{lang}'; valid: {valid}{hint}"),
    "thesaurus-duplicate": (WARNING, "{lang} players' word '{word}' is already listed on line {first}: list it once"),
    "thesaurus-unused": (WARNING, "{lang} rules' word '{word}' is in no {lang} text of the pack: a players' word can "
                         "never find an entry through it"),
    "lonely-concept": (WARNING, "concept '{id}' is named or linked by only {count} game(s); a concept connects games"),
    # examples and mechanics
    "mechanics-import": (ERROR, "cannot load the game's mechanics module: {reason}"),
    "resolver-label": (WARNING, "resolver '{name}' has no label for {words}: give them in the mechanics module's "
                       "LABELS (word: (Spanish, English)) or the decorator's labels=; pages would show the bare words"),
    "resolver-prefix": (ERROR, "resolver '{name}' in {game}'s mechanics must be named '{game}.<name>'"),
    "duplicate-resolver": (ERROR, "resolver '{name}' is already defined at line {first}; give each resolver its own "
                           "name (this definition is ignored)"),
    "resolver-signature": (ERROR, "resolver '{name}' (def {func}) cannot be used as declared: {problem}"),
    "label-format": (ERROR, "{where} {problem}"),
    "unknown-resolver": (ERROR, "unknown resolver '{name}'{hint}{origin}"),
    "unknown-input": (ERROR, "resolver '{resolver}' takes no input '{name}'{hint}"),
    "missing-input": (ERROR, "resolver '{resolver}' needs input '{name}'"),
    "wrong-input-type": (ERROR, "input '{name}' of '{resolver}' should be {expected}; {problem}{hint}"),
    "input-out-of-range": (ERROR, "{where} = {value} is outside what '{resolver}' takes: {range}"),
    "unknown-output": (ERROR, "resolver '{resolver}' gives no output '{name}'{hint}"),
    "no-expectation": (ERROR, "example '{id}' needs 'expect', 'expect_error' or 'probability'"),
    "error-kind-missing": (ERROR, "example '{id}': 'expect_error' names no kind; write {{code: {error}, kind: forbidden|unstated|elsewhere|impossible|incomplete}}"
                           " (forbidden: a rule forbids it; unstated: the source does not say; elsewhere: another entry's case, with 'see';"
                           " impossible: the situation cannot happen; incomplete: a fact the rule needs is missing)"),
    "error-see-missing": (ERROR, "example '{id}': a refusal of kind 'elsewhere' names the entry that covers the case: add 'see: <id>'"),
    "example-failed": (ERROR, "example '{id}' failed: {details}"),
    "example-wording": (WARNING, "example '{id}' ({lang}) reads wrong: {finding}"),
    "step-number": (WARNING, "sequence '{id}' ({lang}): the step's title says {title} but the step is numbered {number}; "
                             "number the steps as the rulebook does ('numbered: false' for a step it leaves unnumbered)"),
    "message-fstring": (WARNING, "a message worded with an f-string: {text}; give each value as a '{{name}}' field and a "
                                 "keyword argument, so a page names ids and writes numbers and plurals in its language"),
    "example-error": (ERROR, "example '{id}' raised {error}"),
    "example-not-run": (ERROR, "example '{id}' was not run: {problem}"),
    "example-timeout": (ERROR, "example '{id}' ran longer than {seconds} s, the limit per worked example"),
    "calc-fixed": (WARNING, "resolver '{name}' gives the calculator of '{entry}' (from example '{example}') no field a "
                   "reader can change: a number with no declared range ({numbers}) is shown fixed at the example's "
                   "value; declare each one's range in the decorator: @resolver(..., ranges={ranges}) (between from "
                   "kb.mechanics)"),
    "calc-runtime": (WARNING, "{count} calculator(s) built held in part (some numbers and choices fixed at the example's "
                     "values): Pyodide {version}, which answers them in the page, is not installed in {where}; install "
                     "it with: {command}"),
    "calc-failed": (ERROR, "the calculator of '{entry}' (from example '{example}') cannot answer {count} of {total} "
                    "combinations: resolver '{resolver}' {error} at {at}; the page says it cannot answer those numbers. "
                    "Fix the resolver (or narrow the ranges it declares)"),
    "calc-stalled": (ERROR, "the calculator of '{entry}' (from example '{example}') is left out of the page: resolver "
                     "'{resolver}' ran longer than {seconds} s on {stalls} combinations, the first at {at}, so {untried} "
                     "of {total} were not tried. Fix the resolver"),
    "calc-page-stalled": (ERROR, "the calculator of '{entry}' (from example '{example}') is left out of the page: resolver "
                          "'{resolver}' did not give the build its answers near the example (the form's first answer and "
                          "odds table) within {seconds} s; the page's Python would hang on them too. Fix the resolver"),
    "limit-exceeded": (ERROR, "{where} is too big to work out: {problem}"),
    # translations
    "unknown-translation-field": (ERROR, "translation hash for '{field}', a field this entry does not have{hint}"),
    "stale-translation": (WARNING, "English '{field}' is not marked as made from the current Spanish; update the "
                          "English (kb i18n export, translate, kb i18n import), or run 'kb i18n ack' only when the "
                          "Spanish edit does not change the meaning"),
    "glossary-forbidden": (ERROR, "English '{field}' uses '{found}' for '{term}'; write '{preferred}'"),
    "glossary-missing": (WARNING, "Spanish '{field}' uses '{term}' but the English does not say '{preferred}'"),
    "link-target-changed": (ERROR, "English '{field}' links to '{target}', which its Spanish does not link to "
                            "(it links to {spanish}); keep the Spanish's {{@kind id}} and translate only the text after '|'"),
    "emphasis-changed": (WARNING, "English '{field}': {problem}; keep the emphasis markup of the Spanish"),
    "link-target-dropped": (WARNING, "Spanish '{field}' links to '{target}' but the English does not; keep "
                            "{{@{kind} {target}|...}} around the words that translate it"),
    # the site's words catalogs (kb/locale/<lang>/LC_MESSAGES/kb.po)
    "catalog-syntax": (ERROR, "{problem}; the site's catalog reader would misread it"),
    "catalog-fuzzy": (ERROR, "{message} is marked fuzzy, so the site leaves it out and shows '{shown}' instead: "
                      "check the translation, then remove the fuzzy flag"),
    "catalog-untranslated": (ERROR, "{message} has no translation, so the site shows '{shown}' instead: translate it"),
    "catalog-placeholder": (ERROR, "{message}: the translation has the placeholders {found}, {source} has {expected}; "
                            "the page would show a wrong text: write the same {{name}}s, translate only the words"),
    "catalog-plural-forms": (ERROR, "{message} has {found} plural form(s), the catalog's Plural-Forms says {expected}: "
                             "give one msgstr[n] per form"),
    "catalog-missing": (ERROR, "{message} is not in the {lang} catalog ({path}), so the {lang} site shows its key: "
                        "add it there"),
}


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in the content, with a stable code."""

    code: str
    """Stable identifier from :data:`CODES`."""
    severity: str
    """``error`` or ``warning``."""
    message: str
    """Human-readable explanation, with the valid form or a suggestion."""
    location: Location
    """Where the problem is."""
    args: tuple[tuple[str, Arg], ...] = field(default=(), compare=False)
    """The template's arguments, as plain data (``(name, value)`` pairs): the message is
    ``render(code, args)``, so a tool reads the target (``target``, ``field``, ``id``…) here, never by parsing it."""

    @property
    def arguments(self) -> dict[str, Arg]:
        """:attr:`args` as a mapping."""
        return dict(self.args)

    def format(self) -> str:
        """``path:line:col: severity[code]: message``."""
        loc = self.location
        return f"{printable(format_path(loc.path))}:{loc.line}:{loc.column}: {self.severity}[{self.code}]: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """The diagnostic as plain, JSON-ready data (the same as :meth:`to_json`)."""
        return self.to_json()

    def to_json(self) -> dict[str, object]:
        """The diagnostic as a JSON-ready mapping."""
        loc = self.location
        return {
            "code": self.code,
            "severity": self.severity,
            "path": format_path(loc.path),
            "line": loc.line,
            "column": loc.column,
            "message": self.message,
            "args": self.arguments,
        }


INVISIBLE = "\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
"""Invisible format characters, as a regular-expression class body: bidi embeddings, overrides, isolates and marks
(which reorder what a terminal or a page shows: "Trojan source"), zero-width spaces, joiners and the byte-order mark.
No text of a knowledge base needs one; each is a control character to the engine."""
CONTROL = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{INVISIBLE}]")
"""The control characters no text holds (YAML escapes such as ``"\\e[2J"`` write them; ``\\u202e`` reverses what
follows): a line break and a tab are the only ones a text may hold. The one definition: the validator refuses them
(``control-character``), the terminal and diagnostics show them as escapes."""
_ONE_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{INVISIBLE}]")


def visible(text: str, pattern: re.Pattern[str] = CONTROL) -> str:
    """``text`` with each character ``pattern`` matches written as its escape (``\\x1b``, ``\\u202e``)."""
    return pattern.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def one_line(text: str) -> str:
    """``text`` with every line break (``\\n``, ``\\r``, U+2028…) folded to a space: a name printed on a line, or put
    in a heading, a table cell or a list item, stays on it (a break would forge the lines below, or start a block)."""
    return " ".join(str(text).splitlines())


def printable(text: str) -> str:
    """``text`` with control characters and line breaks written as escapes (``\\x1b``, ``\\n``): a message is one
    line, never a terminal command."""
    return visible(text, _ONE_LINE)


Arg = str | int | float | bool | None
"""A template argument as a diagnostic keeps it: plain data (anything else is kept as its text)."""


def _plain(value: object) -> Arg:
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def render(code: str, args: Mapping[str, Arg]) -> str:
    """The message of ``code`` with ``args`` (control characters escaped)."""
    return printable(CODES[code][1].format(**{"hint": "", **args}))


def diag(code: str, location: Location, **args: object) -> Diagnostic:
    """Build the diagnostic ``code`` at ``location``: its arguments kept as data, its message rendered from them."""
    severity = CODES[code][0]
    kept = tuple((name, _plain(value)) for name, value in args.items())
    return Diagnostic(code, severity, render(code, dict(kept)), location, kept)


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The nearest valid name for ``word``, if any is close enough."""
    import difflib  # only when a name is not found (issue 31: not in every process)

    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def hint(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the nearest choice, or an empty string."""
    near = suggest(word, choices)
    return f"; did you mean '{near}'?" if near else ""


def format_path(path: Path) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error."""
    return any(d.severity == ERROR for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    """Order diagnostics by file, line, column, code."""
    return (str(d.location.path), d.location.line, d.location.column, d.code)
