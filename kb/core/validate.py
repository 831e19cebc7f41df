"""Checks of one entry or game file that the schema cannot express."""

from __future__ import annotations

import re
from functools import partial
from typing import Any, Callable, Iterable, Mapping

from kb.core.diagnostics import CONTROL, Diagnostic, diag, hint, visible
from kb.core.model import LANGS, Entry, Game, Location, Marks, field_key, iter_texts
from kb.core.schema import top_keys, where

__all__ = ["check_entry", "check_game", "control_characters", "block_markup", "is_name", "BLOCKS", "RAW_HTML",
           "BLOCK_MARKUP", "INDENTED_CODE", "CONTROL", "TEMPLATE_TEXTS", "slug_words"]

BLOCKS = ("action", "ability", "terrain", "sequence", "ruling", "term")
"""Kind-specific blocks; each belongs to entries of the kind with its name."""
RAW_HTML = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:[^<>]{0,80}>)?|<[!?]|&#?\w+;")
"""Markup that must not appear in text: what an HTML tokenizer starts a tag on (``<`` or ``</`` and a letter,
whatever follows: ``<svg/onload=…>``, ``<img src=x onerror=… a=<>``), comments and declarations (``<!``,
``<?``), entities. A linter, not the defence (pages escape every text at the sink; docs/site.md): one pass,
linear time — each ``<`` looks at most 80 characters ahead for the ``>`` the message quotes."""

_LEAD = r"^(?P<lead>[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?)"
BLOCK_MARKUP = re.compile(
    _LEAD + r"(?P<mark>(?P<heading>#)|(?P<admonition>!!!|\?\?\?)|(?P<fence>```|~~~)"
    r"|(?P<rule>(?P<ch>[-*_])(?:[ \t]*(?P=ch)){2,}[ \t]*$)|(?P<underline>[=-]+[ \t]*$))", re.M)
"""Block Markdown at a line's start (after its indentation or a list item's marker), beyond the light Markdown a
text holds (emphasis, lists, tables): a heading (``#``), an admonition or a collapsible block (``!!!``, ``???``),
a fenced code block, a horizontal rule, a setext heading's underline (``===``, ``---``). Pages show it as the
characters typed (:func:`kb.site.render.inline` writes its first mark as an entity); ``kb check`` names it."""
INDENTED_CODE = re.compile(r"(?P<before>\A|\n[ \t]*\n)(?P<indent>(?: {0,3}\t| {4,})[ \t]*)(?=\S)(?!(?:[-*+]|\d+[.)])[ \t])")
"""A paragraph indented four spaces or a tab (not a list item): Markdown's indented code block."""
_CONSTRUCTS = {"heading": "a heading", "admonition": "an admonition", "fence": "a fenced code block",
               "rule": "a horizontal rule", "underline": "a heading underline"}


def block_markup(text: str, field: str, locate: Callable[[int], Location]) -> Diagnostic | None:
    """``block-markup`` at the first block Markdown of ``text`` (:data:`BLOCK_MARKUP`, :data:`INDENTED_CODE`), if any;
    ``locate`` maps an offset in ``text`` to its place."""
    found = [(m.start("mark"), next(_CONSTRUCTS[k] for k in _CONSTRUCTS if m[k])) for m in [BLOCK_MARKUP.search(text)] if m]
    found += [(m.start("indent"), "an indented code block") for m in [INDENTED_CODE.search(text)] if m]
    if not found:
        return None
    offset, construct = min(found)
    return diag("block-markup", locate(offset), construct=construct, field=field,
                text=text[offset:offset + 20].split("\n")[0])


def _clean(text: str, marks: Marks, path: tuple[Any, ...]) -> tuple[str, list[Diagnostic]]:
    m = CONTROL.search(text)
    if m is None:
        return text, []
    return visible(text), [diag("control-character", marks.at_offset(path, text, m.start()),
                                where=where(path), char=visible(m.group()))]


def control_characters(data: Any, marks: Marks, path: tuple[Any, ...] = ()) -> tuple[Any, list[Diagnostic]]:
    """``data`` with every control character in its strings written as a visible escape (``\\x1b``), and one
    located error per string that held one: nothing downstream (a terminal, a page, an XML export) ever
    receives one, even from a file that does not pass the check."""
    if isinstance(data, str):
        return _clean(data, marks, path)
    if isinstance(data, dict):
        keys, values, found = _cleaned(data.items(), marks, path)
        return (dict(zip(keys, values, strict=True)) if found else data), found
    if isinstance(data, list):
        _, values, found = _cleaned(enumerate(data), marks, path)
        return (values if found else data), found
    return data, []


def _cleaned(items: Iterable[tuple[Any, Any]], marks: Marks, path: tuple[Any, ...]) -> tuple[list[Any], list[Any], list[Diagnostic]]:
    """The keys, the cleaned values and the problems of a container's items."""
    keys, values, found = [], [], []
    for k, v in items:
        value, problems = control_characters(v, marks, path + (k,))
        keys.append(k)
        values.append(value)
        found += problems
    return keys, values, found


def check_game(game: Game) -> list[Diagnostic]:
    """The game file's id must be its folder's name; its texts (name, summary, source titles) want English."""
    found: list[Diagnostic] = []
    gid = game.data.get("id")
    if isinstance(gid, str) and gid != game.id:
        found.append(diag("game-mismatch", game.marks.at(("id",)), game=gid, folder=game.id))
    found += _texts(game.data, game.marks)
    return found


def _texts(data: Any, marks: Marks) -> list[Diagnostic]:
    """Markup in any text, and texts without English."""
    found: list[Diagnostic] = []
    for path, text in iter_texts(data):
        for lang, value in text.items():
            m = RAW_HTML.search(value)
            if m:
                found.append(diag("raw-html", marks.at_offset(path + (lang,), value, m.start()), tag=m.group(0)[:40],
                                  field=field_key(data, path)))
            block = None if is_name(path) else block_markup(value, field_key(data, path),
                                                             partial(marks.at_offset, path + (lang,), value))
            found += [block] if block else []
        if "en" not in text:
            found.append(diag("missing-translation", marks.at(path), field=field_key(data, path)))
        found += [diag("template-text", marks.at(path + (lang,)), field=f"{field_key(data, path)}.{lang}")
                  for lang, value in text.items() if value.strip() in TEMPLATE_TEXTS]
    return found


def is_name(path: tuple[Any, ...]) -> bool:
    """A title or a name (one line, the schema says: ``line-break``), not prose: its marks are the name's letters."""
    return path[-1:] in (("title",), ("name",)) or path[:1] == ("names",)


USED = {"example": ": the first is the one run and shown, this copy is left out"}
"""What ``duplicate-item-id`` adds on which copy counts, by what is duplicated (the loader keeps an example id's first copy)."""


def _duplicates(items: Iterable[tuple[str, Any]], what: str, marks: Marks) -> list[Diagnostic]:
    seen: dict[str, int] = {}
    out = []
    for ident, path in items:
        loc = marks.at(path + ("id",))
        if ident in seen:
            out.append(diag("duplicate-item-id", loc, what=what, id=ident, first=seen[ident], used=USED.get(what, "")))
        else:
            seen[ident] = loc.line
    return out


def _steps(steps: Any, path: tuple[Any, ...]) -> Iterable[tuple[str, tuple[Any, ...]]]:
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict) and isinstance(step.get("id"), str):
            yield step["id"], path + (i,)
            yield from _steps(step.get("steps"), path + (i, "steps"))


TEMPLATE_TEXTS = frozenset({
    "Resumen de una línea, en tus palabras.", "A one-line summary, in your own words.",
    "El texto de la regla en español (la fuente), en tus palabras.", "The rule's text in English (the translation).",
    "¿Pregunta que hacen los jugadores?", "The players' question?",
    "La respuesta, en una o dos frases.", "The answer, in a sentence or two.",
    "Nombre del primer paso", "The first step's name",
    "Sección",
    "Un juego de ejemplo creado con kb init; cambia este texto por el resumen de tu juego.",
    "A sample game made by kb init; replace this text with a summary of your game.",
})
"""The placeholder texts ``kb new`` writes (``kb/cli/templates/new-entry.yaml`` and its kind blocks) and the game
summary ``kb init`` writes (``kb/cli/templates/game.yaml``): a text or a source section still holding one is unfinished
(warning ``template-text``, so ``kb check --strict`` fails). The title and term forms ``kb new`` makes from the id
(:func:`slug_words`) are placeholders too while both languages still hold them (:func:`_slug_placeholders`).
tests/test_packs.py makes an entry of every kind and checks that each of its texts is one of these."""


def slug_words(entry_id: str) -> str:
    """The words of an id's slug (``g.fall-back``: ``fall back``): what ``kb new`` writes as the entry's title
    (capitalized) and, for a term, its forms, in both languages, until the author writes them."""
    return entry_id.partition(".")[2].replace("-", " ")


def _slug_placeholders(data: Mapping[str, Any], marks: Marks) -> list[Diagnostic]:
    """``template-text`` at a title, and a term's forms, that still hold the id's words in both languages as ``kb new``
    wrote them, while no other Spanish text of the entry (nor Spanish forms of the author's) uses those words: then
    they are not Spanish usage, such as "Aliens" or "Torpedo", but one language still to write. Not for a term that
    keeps its English wording (``do_not_translate``)."""
    words = slug_words(str(data.get("id", "")))
    term: Mapping[str, Any] = data["term"] if isinstance(data.get("term"), dict) else {}
    forms: dict[str, Any] = term["forms"] if isinstance(term.get("forms"), dict) else {}
    placeholder_forms = forms.get("es") == forms.get("en") == [words]
    if not words or term.get("do_not_translate") is True or words.casefold() in _other_spanish(data, forms, placeholder_forms):
        return []
    found: list[tuple[str, ...]] = [("term", "forms", "es")] if placeholder_forms else []
    title = data.get("title")
    if isinstance(title, dict) and title.get("es") == title.get("en") == words.capitalize():
        found.insert(0, ("title", "es"))
    return [diag("template-text", marks.at(path), field=".".join(path)) for path in found]


def _other_spanish(data: Mapping[str, Any], forms: Mapping[str, Any], placeholder_forms: bool) -> str:
    """The entry's Spanish texts but its title, and its Spanish forms unless they are ``kb new``'s, casefolded."""
    own_forms: list[Any] = forms["es"] if isinstance(forms.get("es"), list) and not placeholder_forms else []
    return " ".join([t["es"] for path, t in iter_texts(data) if path != ("title",) and "es" in t]
                    + [str(f) for f in own_forms]).casefold()


def check_entry(entry: Entry, namespace: str, game: Game | None, common: str) -> list[Diagnostic]:
    """Semantic problems of one entry: where it lives, its blocks, texts, examples and source."""
    data, marks = entry.data, entry.marks
    return (_placement(entry, namespace, common) + _texts(data, marks) + _slug_placeholders(data, marks)
            + _duplicate_ids(data, marks)
            + _source_problems(entry, game) + _term_forms(data, marks) + _translation_fields(data, marks))


def _placement(entry: Entry, namespace: str, common: str) -> list[Diagnostic]:
    """An id outside its folder's namespace, a concept outside ``common`` (or another kind in it), a ``game``
    that is not the folder's, a block of another kind."""
    found: list[Diagnostic] = []
    data, marks = entry.data, entry.marks
    if not entry.id.startswith(namespace + "."):
        found.append(diag("id-prefix", marks.at(("id",)), id=entry.id, game=namespace))
    if (entry.kind == "concept") != (namespace == common):
        found.append(diag("misplaced-file", entry.location, common=common))
    if "game" in data and data["game"] != namespace:
        found.append(diag("game-mismatch", marks.at(("game",)), game=data["game"], folder=namespace))
    return found + [diag("misplaced-block", marks.at((block,), key=True), block=block, kind=entry.kind)
                    for block in BLOCKS if block in data and entry.kind != block]


def _duplicate_ids(data: Any, marks: Marks) -> list[Diagnostic]:
    """Two examples, or two steps of a sequence, with one id."""
    examples: list[Any] = data["examples"] if isinstance(data.get("examples"), list) else []
    found = _duplicates(((ex["id"], ("examples", i)) for i, ex in enumerate(examples)
                         if isinstance(ex, dict) and isinstance(ex.get("id"), str)), "example", marks)
    seq = data.get("sequence")
    if isinstance(seq, dict):
        found += _duplicates(_steps(seq.get("steps"), ("sequence", "steps")), "step", marks)
    return found


def _source_problems(entry: Entry, game: Game | None) -> list[Diagnostic]:
    """A source section left as the template's text, a source document the game does not list."""
    source, marks = entry.data.get("source"), entry.marks
    if not isinstance(source, dict):
        return []
    found = []
    if isinstance(source.get("section"), str) and source["section"] in TEMPLATE_TEXTS:
        found.append(diag("template-text", marks.at(("source", "section")), field="source.section"))
    if game is not None and isinstance(source.get("doc"), str):
        found += _unknown_doc(source["doc"], game, marks)
    return found


def _unknown_doc(doc: str, game: Game, marks: Marks) -> list[Diagnostic]:
    """``unknown-source-doc`` when the game's ``sources`` do not list ``doc``."""
    sources = game.data.get("sources")
    docs = [s.get("doc") for s in (sources if isinstance(sources, list) else []) if isinstance(s, dict)]
    if doc in docs:
        return []
    return [diag("unknown-source-doc", marks.at(("source", "doc")), doc=doc, hint=hint(doc, [d for d in docs if isinstance(d, str)]))]


_WORDLIKE = re.compile(r"\w")


def _term_forms(data: Any, marks: Marks) -> list[Diagnostic]:
    """A term form or abbreviation with no letter or digit can never be found in a text."""
    out = []
    term = data.get("term")
    for block in ("forms", "abbreviations"):
        langs = term.get(block) if isinstance(term, dict) else None
        for lang, forms in (langs.items() if isinstance(langs, dict) else ()):
            for i, form in enumerate(forms if isinstance(forms, list) else ()):
                if isinstance(form, str) and not _WORDLIKE.search(form):
                    path = ("term", block, lang, i)
                    out.append(diag("invalid-value", marks.at(path), where=where(path), value=repr(form),
                                    expected="a form or abbreviation needs a letter or a digit"))
    return out


def _translation_fields(data: Any, marks: Marks) -> list[Diagnostic]:
    """A translation hash (``i18n.en.<field>``) must name a translatable field of the entry; the nearest field is
    suggested among those under a key the schema knows (never ``sumary``, the typo its ``unknown-key`` line names)."""
    i18n = data.get("i18n")
    paths = [path for path, _ in iter_texts(data)]
    fields = [field_key(data, path) for path in paths]
    known = [field_key(data, path) for path in paths if path[0] in top_keys()]
    out = []
    for lang, hashes in (i18n.items() if isinstance(i18n, dict) else ()):
        if lang not in LANGS or not isinstance(hashes, dict):
            continue
        for name in hashes:
            if name not in fields:
                out.append(diag("unknown-translation-field", marks.at(("i18n", lang, name), key=True), field=name,
                                hint=hint(name, known)))
    return out
