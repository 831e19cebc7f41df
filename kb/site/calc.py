"""Calculators on entry pages (issue 30): the resolver's own answers for every combination of a form's fields.

For each entry whose worked examples use a resolver that takes a number or a choice, the page gets one
form per such resolver, first filled with the entry's first example of it. The answers were computed
here, at build time, by the resolver itself (:mod:`kb.mechanics.space`), and worded in the page's
language. Each calculator's space (the same space on two pages shares it) is written as data scripts
(``<script src>``, so that ``file://`` pages can read them): a head, ``<game>/kb-calc-<resolver>-<key>.js``
(the fields, the odds field, the shard size), and shards, ``...-<key>-<n>.js``, each the answers of
``SHARD`` consecutive combinations; a page loads the head and only the shard its current inputs need.
``kb-calc.js`` only looks answers up. See docs/site.md, "Calculators and odds tables".

The worded answers of a space are cached (:mod:`kb.core.cache`: signed JSON, data only) under a key made of
the resolver's source, its declared inputs and ranges, the example's fixed values, the language and its
catalog; the names and entries the wording read are recorded and compared on read. ``kb build`` also keeps each
game's whole part (its forms and data files) between commands (:func:`calc_site` with ``keep``), keyed by
:func:`game_key` and taken only while the entries its resolvers read are unchanged: after an edit, only the
edited game's calculators (and those of any game that shows or reads what changed) are made again.

Pure: :func:`calc_site` returns each page's forms and each data file's text; the MkDocs plugin puts
the forms in place of the slots :func:`calc_markdown` leaves (after sanitising: the forms are engine
markup, every value in them escaped here) and writes the files.
"""

from __future__ import annotations

import functools
import hashlib
import html
import inspect
import json
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping
from weakref import WeakKeyDictionary

from kb.core import cache
from kb.core.diagnostics import Diagnostic, diag, printable
from kb.core.locale import LANGS, catalog_path, decimal_mark, fill as _fill, number, pgettext
from kb.core.model import SOURCE_LANG, TARGET_LANG, Entry, Example, Location, Text
from kb.examples.limits import TimeLimit, time_limit
from kb.mechanics import COVERS, KEYS_EVERY, Context, Outcome, Resolver
from kb.mechanics.procedures import flatten_steps
from kb.mechanics.space import (ABSENT, FAILED, MAX_COMBINATIONS, STALLED, UNTRIED, Field, Refusal, Space, call,
                                calculator_examples, space)
from kb.site.render import escape
from kb.site.structure import SiteContext, entry_path
from kb.site import calc_runtime
from kb.site.calc_py import UNBOUNDED, Calc, extra
from kb.site.calc_words import Strings, Words, interned, said

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["IN_PAGE", "own_list", "needs_runtime", "py_data_path", "Calculator", "CalcSite", "Working", "calculators", "calc_markdown", "with_forms", "calc_site",
           "game_key", "SCRIPT", "SHARD", "slot", "head_path"]

SCRIPT = "kb-calc.js"
"""The calculators' script (``kb/site/assets/``), loaded only by pages that have a calculator."""

SHARD = 2048
"""Combinations one shard holds (rounded down to a multiple of the last field's count, so that an odds table,
which varies the last field, reads one shard)."""

IN_PAGE = SHARD
"""Past this many combinations a form is answered by the page's Python when it can be (kb/site/calc_py.py), not
enumerated by the build: every form the build enumerates fits one shard (docs/site.md has the measurements)."""

STALLS = 3
"""Calls of one space past the time limit after which the rest of it is not tried (a hung resolver never hangs the
build): the calculator is left out of its pages, and the build says so (``error[calc-stalled]``)."""



@dataclass(frozen=True)
class Calculator:
    """One form: an entry, the resolver its examples use, the first such example and the space around it."""

    entry: Entry
    example: Example
    resolver: Resolver
    space: Space
    py: bool = False
    """Answered in the page by the resolver itself under Pyodide (:mod:`kb.site.calc_py`), not from build-time data."""
    held: bool = False
    """The page's Python would answer it (a space past ``IN_PAGE``) but the build has no runtime, and ``space`` holds
    some number or choice at the example's value: what ``warning[calc-runtime]`` counts."""

    @property
    def own_names(self) -> dict[str, Any]:
        """The example's own ``names:`` (ids it names for itself)."""
        examples = self.entry.data.get("examples", [])
        own = examples[self.example.index].get("names") if self.example.index < len(examples) else None
        return {str(k): v for k, v in (own or {}).items() if isinstance(v, Mapping) and "es" in v}

    @property
    def key(self) -> str:
        """The space's name (the same space on two pages of a game shares its data): its fields and the example's
        values that stay fixed, never the example's values of the fields a player changes."""
        raw = json.dumps([self.resolver.name, self.entry.game, [(f.name, f.kind, list(f.values)) for f in self.space.fields],
                          self.space.shape(), self.entry.id if self.resolver.wants_context else None, self.own_names],
                         sort_keys=True, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()[:12]


def calculators(entry: Entry, resolver_of: Callable[[str], Resolver | None], budget: int = MAX_COMBINATIONS,
                in_page: bool = False) -> list[Calculator]:
    """The entry's calculators: one per resolver its examples use that takes a number or a choice, from its first
    example. A space of more than ``IN_PAGE`` combinations is answered in the page by Python (every field
    editable) when ``in_page`` (the build has the pinned Pyodide, :mod:`kb.site.calc_runtime`: the caller says so)
    and the resolver can run there; any other is enumerated at build time: whole up to ``WHOLE_SPACE``, else held
    within ``budget``. How many there are does not depend on ``in_page``."""
    out: list[Calculator] = []
    for ex, res in calculator_examples(entry.examples, resolver_of):
        whole = space(res, ex.given, UNBOUNDED, UNBOUNDED)
        wanted = (whole.size > IN_PAGE or own_list(whole)) and _runs_in_page(res, ex, entry)
        if wanted and in_page:
            out.append(Calculator(entry, ex, res, whole, py=True))
        else:
            kept = space(res, ex.given, budget)
            out.append(Calculator(entry, ex, res, kept, held=wanted and kept.size < whole.size))
    return out


def own_list(sp: Space) -> bool:
    """Whether a form takes a player's own list of choices (a list whose items are choices: Hunt Begins' actions,
    StarCraft's decisions, Malifaux's orders; calculator audit C13): such a form is answered by the page's Python
    whatever the size of its space, never from the build's tables (their answers for every list of choices made The
    Hunt Begins' save without the runtime twice as large)."""
    return any(f.item == "list" and f.kind == "enum" for f in sp.variable)


def needs_runtime(kb: "Linked", game: str | None = None) -> bool:
    """Whether a calculator of ``kb`` (of ``game``'s entries, when said) would be answered by the page's Python: only
    then is the runtime read (its size said while it loads, :func:`calc_site`), so a pack without such a calculator
    never copies it into its cache; a game's page offers to save it only then (:mod:`kb.site.pages`)."""
    entries = kb.entries.values() if game is None else kb.filter(game=game)
    return any(c.py for e in entries for c in calculators(e, kb.registry.get, in_page=True))


def _runs_in_page(res: Resolver, ex: Example, entry: Entry) -> bool:
    """Whether the page's Python can answer ``res`` from ``ex``: the example's inputs are JSON as they are (the page
    rebuilds the space from them), and so is the entry's data when the resolver reads its context (the page gets it
    and the entries it reads, :func:`_context_read`)."""
    return _json(dict(ex.given)) and (not res.wants_context or _json(entry.data))


def _json(data: Any) -> bool:
    try:
        return bool(json.loads(json.dumps(data)) == data)
    except (TypeError, ValueError):
        return False


def _context_read(kb: "Linked", calc: Calculator, seen: dict[str, str | None] | None = None) -> dict[str, Any] | None:
    """What the page's Python needs for a resolver that reads its context: the entry's data and every entry the
    resolver reads at the example and at each value of each field (the others at the example's), recorded here;
    ``None`` for a resolver that reads none. A lookup the page was not given answers ``None`` there (an entry read
    only at some other combination: the browser test, which compares 30 random inputs with the resolver, is the
    check). Every id looked up goes into ``seen`` with the digest of its data (``None``: no such entry)."""
    if not calc.resolver.wants_context:
        return None
    read: dict[str, Any] = {}
    seen = {} if seen is None else seen

    def lookup(i: str) -> Mapping[str, Any] | None:
        e = kb.get(i)
        seen[i] = _digest(e.data) if e is not None else None
        if e is not None and _json(e.data):
            read[i] = e.data
        return read.get(i)

    sp, ctx = calc.space, {"context": Context(calc.entry.data, lookup)}
    start = sp.positions(sp.base)
    assert start is not None  # the example's values are in its own space
    call(calc.resolver, sp.given(start), ctx)
    for i, f in enumerate(sp.variable):
        for v in range(len(f.values)):
            call(calc.resolver, sp.given(start[:i] + (v,) + start[i + 1:]), ctx)
    return {"entry": calc.entry.data, "entries": read, "id": calc.entry.id}


def slot(n: int) -> str:
    """The placeholder of the page's ``n``-th form (kept by the sanitiser: a ``div`` with an id)."""
    return f'<div class="kb-calc-slot" id="kb-calc-{n}"></div>'


def _heading(lang: str) -> str:
    """The calculators' section's heading, as the page's Markdown holds it."""
    return f"\n\n## {escape(pgettext(lang, 'site', 'calc_title'))} {{#calculator}}\n\n"


def calc_markdown(entry: Entry, resolver_of: Callable[[str], Resolver | None], lang: str) -> str:
    """The calculators' section of the entry's page: a heading and one slot per form (empty when none)."""
    found = calculators(entry, resolver_of)
    if not found:
        return ""
    return _heading(lang) + "\n\n".join(slot(i) for i in range(len(found))) + "\n"


def with_forms(markdown: str, forms: list[str] | None, lang: str) -> str:
    """An entry page's Markdown (``lang``) as its calculators' ``forms`` leave it: without the section's heading when
    every form is left out (:func:`left_out_html`), so that the note stands alone rather than under a "Calculator"
    heading over no calculator (neither in the page nor in its table of contents)."""
    if not forms or any(f != left_out_html(lang) for f in forms):
        return markdown
    before, heading, after = markdown.rpartition(_heading(lang))
    return before + "\n\n" + after if heading else markdown


def head_path(calc: Calculator) -> str:
    """Where a calculator's head is written, under the language's root (its shards: ``-<n>.js`` in place of ``.js``)."""
    return f"{calc.entry.game}/kb-calc-{calc.resolver.name.replace('.', '-')}-{calc.key}.js"


def py_data_path(game: str) -> str:
    """A game's one file of what the page's Python reads for every form of the game it answers (``names``: the names
    its answers may show; ``entries``: the entries the resolvers' contexts read, the forms' own among them), under
    the language's root; each head names it (``py.data``) rather than holding its own copy (18 copies, one per Hunt
    Begins activation head, made up a third of that game's save without the runtime)."""
    return f"{game}/kb-calc-{game}-py.js"


def shard_path(head: str, n: int) -> str:
    """The ``n``-th shard beside a head."""
    return f"{head.removesuffix('.js')}-{n}.js"


@dataclass
class CalcSite:
    """A language's calculators: the forms of each page (by its Markdown path) and the data files' text."""

    forms: dict[str, list[str]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    """Bytes of each data file."""
    cached: int = 0
    """Spaces whose worded answers came from the cache."""
    computed: int = 0
    """Spaces enumerated and worded by this build."""
    kept: set[Path] = field(default_factory=set)
    """The cache files this build read or wrote."""
    python: bool = False
    """Whether some form is answered by the page's Python (then the site needs the runtime, written by the caller)."""
    held: int = 0
    """Forms the page's Python would answer whole, built held in part for want of the runtime (``in_page=False``)."""
    names: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per game, the names the page's Python may show (the game's shared file holds them: :func:`py_data_path`)."""
    read: dict[str, str | None] = field(default_factory=dict)
    """The entries the resolvers' contexts read, by id: the digest of each one's data (``None``: there was none)."""
    made: list[str] = field(default_factory=list)
    """The games whose part was made by this call (not kept from an earlier command, :func:`calc_site`)."""
    failed: list[Diagnostic] = field(default_factory=list)
    """Each calculator whose resolver failed on some combination (``calc-failed``) or stalled (``calc-stalled``,
    ``calc-page-stalled``), at its example: what the build reports (errors, so ``--strict`` fails)."""

    def add(self, part: "CalcSite") -> None:
        """Take in one game's part."""
        self.forms.update(part.forms)
        self.files.update(part.files)
        self.names.update(part.names)
        self.read.update(part.read)
        self.kept |= part.kept
        self.made += part.made
        self.failed += part.failed
        self.cached, self.computed = self.cached + part.cached, self.computed + part.computed
        self.python, self.held = self.python or part.python, self.held + part.held


_Worded = tuple[dict[str, Any], "Path | None", dict[str, "str | None"]]
"""A worded space, its cache file and the entries its context read (by digest of their data)."""

_WORDED: "WeakKeyDictionary[Any, dict[tuple[str, str], _Worded]]" = WeakKeyDictionary()
"""The worded spaces per knowledge base and language, their cache files and reads (a space enumerated for one language
is worded in every language at once, so that its answers need not be kept: the memory holds words, not outcomes)."""


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str, ensure_ascii=False).encode()).hexdigest()[:16]


def _answers(kb: "Linked", calc: Calculator) -> tuple[list[Outcome | Refusal], dict[str, str | None]]:
    """The resolver's answers over the space, and the entries its context read (by digest of their data)."""
    read: dict[str, str | None] = {}

    def lookup(i: str) -> Mapping[str, Any] | None:
        e = kb.get(i)
        read[i] = _digest(e.data) if e is not None else None
        return e.data if e is not None else None

    ctx = Context(calc.entry.data, lookup) if calc.resolver.wants_context else None
    return _enumerate(calc, ctx, kb.example_limits.seconds), read


def _enumerate(calc: Calculator, context: Any, seconds: float) -> list[Outcome | Refusal]:
    """The resolver's answer for every combination, in number order, each call within ``seconds`` (the examples'
    time limit)."""
    sp, res = calc.space, calc.resolver
    extra = {"context": context} if res.wants_context else {}
    out: list[Outcome | Refusal] = []
    stalled = 0
    for pos in sp.combinations():
        if stalled >= STALLS:
            out.append(Refusal(FAILED, None, None, "not tried", UNTRIED))
            continue
        try:
            with time_limit(seconds):
                out.append(call(res, sp.given(pos), extra))
        except TimeLimit:
            stalled += 1
            out.append(Refusal(FAILED, None, None, f"ran longer than {seconds:g} s", STALLED))
    return out


def _failures(calc: Calculator, results: list[Outcome | Refusal], seconds: float) -> dict[str, Any] | None:
    """What the build reports of a space whose resolver failed somewhere (``None`` when it never did): how many
    combinations failed of how many, the first failure and where, and how many calls ran past the time limit and how
    many were then not tried (a calculator with any is left out of its pages, :func:`_game`)."""
    failed = [(pos, r) for pos, r in zip(calc.space.combinations(), results, strict=True)
              if isinstance(r, Refusal) and r.code == FAILED]
    if not failed:
        return None
    untried = sum(r.failure == UNTRIED for _, r in failed)
    stalls = [(pos, r) for pos, r in failed if r.failure == STALLED]
    pos, first = stalls[0] if untried else failed[0]
    return {"count": len(failed), "total": calc.space.size, "error": first.raised or "failed", "untried": untried,
            "stalls": len(stalls), "seconds": f"{seconds:g}",
            "at": json.dumps(calc.space.given(pos), sort_keys=True, ensure_ascii=False, default=repr)}


def _failure_diagnostic(calc: Calculator, failed: Mapping[str, Any]) -> Diagnostic:
    """``calc-stalled`` (the calculator left out) or ``calc-failed`` (some answers say the calculator cannot answer),
    at the calculator's example."""
    names = {"entry": calc.entry.id, "example": calc.example.id, "resolver": calc.resolver.name, "at": failed["at"],
             "total": failed["total"], "stalls": failed["stalls"]}
    if failed["untried"]:
        return diag("calc-stalled", calc.example.location, **names, seconds=failed["seconds"], untried=failed["untried"])
    return diag("calc-failed", calc.example.location, **names, count=failed["count"], error=failed["error"])


def _file_digest(path: str) -> str | None:
    """The hash of a file's bytes, read again when its size or modification time changed (a game's ``mechanics.py``
    edited while ``mkdocs serve`` runs, or between two builds of one process)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _read_digest(path, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _read_digest(path: str, size: int, mtime_ns: int) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return None


def _cache_file(kb: "Linked", calc: Calculator, lang: str) -> Path | None:
    """Where a space's worded answers in ``lang`` are cached: named by the resolver's source, its inputs' schema
    (with the declared ranges), the space (its fields and the example's fixed values), the entry a context reads,
    the language and its catalog. ``None`` when the resolver's source cannot be read (no cache then)."""
    try:
        source = inspect.getsourcefile(calc.resolver.func)
    except TypeError:
        source = None
    digest = _file_digest(source) if source else None
    if digest is None:
        return None
    raw = [calc.key, calc.resolver.name, digest, calc.resolver.inputs, lang, _file_digest(str(catalog_path(lang))),
           _digest(calc.entry.data) if calc.resolver.wants_context else None]
    return cache.cache_dir(kb.root, "calc", kb.cache_base) / f"{_digest(raw)}-{lang}.json"


def _still_true(record: Any, kb: "Linked", calc: Calculator, words: Words
                ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The cached worded space and the entries it read, if the record is for this space and every name and entry it
    read is unchanged."""
    parts = _parts(record, calc.key)
    if parts is None:
        return None
    names, read, data = parts
    if any(said(words.find(v)) != was for v, was in names.items()):
        return None
    if any(_entry_digest(kb, i) != d for i, d in read.items()):
        return None
    return (data, read) if _well_shaped(data, calc) and _failed_shape(data.get("failed")) else None


def _parts(record: Any, key: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """A cache record's names, entries read and data, if it is a record of the space ``key``."""
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    names, read, data = record.get("names"), record.get("context"), record.get("data")
    if isinstance(names, dict) and isinstance(read, dict) and isinstance(data, dict):
        return names, read, data
    return None


def _entry_digest(kb: "Linked", entry_id: str) -> str | None:
    e = kb.get(entry_id)
    return _digest(e.data) if e is not None else None


def _well_shaped(data: dict[str, Any], calc: Calculator) -> bool:
    """Whether a cached space has this space's size and fields and every answer reads (its strings all there)."""
    if not all(isinstance(data.get(k), list) for k in ("index", "outcomes", "fields", "strings")):
        return False
    index, rows, fields = data["index"], data["outcomes"], data["fields"]
    if len(index) != calc.space.size or len(fields) != len(calc.space.variable):
        return False
    try:
        for k in range(len(rows)):
            _row(data, k)
    except (TypeError, ValueError, IndexError):
        return False
    return all(isinstance(k, int) and 0 <= k < len(rows) for k in index)


def _failed_shape(v: Any) -> bool:
    """Whether a cached space's failures (``None``: none) read as :func:`_failures` wrote them."""
    return v is None or (isinstance(v, dict) and all(isinstance(v.get(k), int) for k in ("count", "total", "untried", "stalls"))
                         and all(isinstance(v.get(k), str) for k in ("error", "seconds", "at")))


def _worded(kb: "Linked", calc: Calculator, lang: str, words: Words, out: CalcSite) -> dict[str, Any]:
    """A space's answers worded in ``lang``: remembered, else cached, else enumerated and worded (then cached)."""
    memo = _WORDED.setdefault(kb, {})
    if (calc.key, lang) not in memo:
        path = _cache_file(kb, calc, lang)
        found = _still_true(cache.load(path, key=kb.cache_key), kb, calc, words) if path is not None else None
        if found is not None:
            out.cached += 1
            memo[(calc.key, lang)] = found[0], path, found[1]
        else:
            out.computed += 1
            _word_everywhere(kb, calc, lang, words, memo)
    data, path, read = memo[(calc.key, lang)]
    out.read.update(read)
    if path is not None:
        out.kept.add(path)
    return data


def _word_everywhere(kb: "Linked", calc: Calculator, lang: str, words: Words,
                     memo: dict[tuple[str, str], _Worded]) -> None:
    """Enumerate a space once and word it in ``lang`` and every other language not yet remembered (each cached)."""
    results, read = _answers(kb, calc)
    failed = _failures(calc, results, kb.example_limits.seconds)
    for other in (lang, *sorted(set(LANGS) - {lang})):
        if (calc.key, other) in memo:
            continue
        w = words if other == lang else Words(calc.resolver, calc.own_names, other, words.names)
        w.seen.clear()
        data = _word_space(calc, results, w, other)
        if failed is not None:
            data["failed"] = failed
        path = _cache_file(kb, calc, other) if failed is None or not failed["stalls"] else None  # a time-out is tried again
        if path is not None:
            cache.save(path, {"key": calc.key, "names": dict(w.seen), "context": read, "data": data}, key=kb.cache_key)
        memo[(calc.key, other)] = data, path, read


def _tidy(kb: "Linked", lang: str, keep: set[Path]) -> None:
    """Remove ``lang``'s cached spaces that this build did not use (the other language's are left)."""
    folder = cache.cache_dir(kb.root, "calc", kb.cache_base)
    try:
        for old in folder.glob(f"*-{lang}.json"):
            if old not in keep:
                cache.remove(old)
    except OSError:
        pass  # a cache that cannot be tidied is not an error


def _field_data(f: Field, words: Words, lang: str) -> dict[str, Any]:
    """A variable field as the page's script reads it; an item's first value (:data:`ABSENT`, the item not added) is
    counted in ``n`` and said by ``item``, not listed."""
    out: dict[str, Any] = {"name": f.name, "kind": f.kind, "label": words.label(f), "n": len(f.values), "optional": f.optional}
    listed = [v for v in f.values if v is not ABSENT]
    if f.item is not None:
        out["item"] = True
    if f.kind in ("integer", "number"):
        out.update(min=f.bounds["minimum"], max=f.bounds["maximum"], step=f.bounds.get("multipleOf", 1),
                   shown=[words.show(v) for v in listed if v is not None], range=_range_words(f, lang))
        if f.bounds.get(COVERS):
            out["covers"] = True  # the calculator's own range: a value outside it is not one the rule refuses
    else:
        out["values"] = [json.dumps(v) for v in listed]
    return out


def _range_words(f: Field, lang: str) -> str:
    lo, hi = number(f.bounds["minimum"], lang), number(f.bounds["maximum"], lang)
    if "multipleOf" in f.bounds and f.bounds["multipleOf"] != 1:
        return _fill(pgettext(lang, "site", "calc_range_step"), {"minimum": lo, "maximum": hi,
                                                                  "step": number(f.bounds["multipleOf"], lang)})
    return _fill(pgettext(lang, "site", "calc_range"), {"minimum": lo, "maximum": hi})


def _odds_field(calc: Calculator, results: list[Outcome | Refusal]) -> int | None:
    """The first variable number the chance turns on somewhere in the space (not the roll itself); ``None`` if none.
    Decided over the whole space, not at one example's values: pages with other examples share the space."""
    sp = calc.space
    chances = [r.chance for r in results if isinstance(r, Outcome) and r.chance is not None]
    if not chances:
        return None
    roll = chances[0].roll
    for i, f in enumerate(sp.variable):
        if f.kind in ("integer", "number") and f.item is None and f.path[0] != roll and _varies(sp, results, i):
            return i
    return None


def _varies(sp: Space, results: list[Outcome | Refusal], i: int) -> bool:
    """Whether, the other fields held anywhere, the chance changes with the ``i``-th variable field."""
    seen: dict[tuple[int, ...], Any] = {}
    for pos, r in zip(sp.combinations(), results, strict=True):
        if isinstance(r, Outcome) and r.chance is not None:
            rest = pos[:i] + pos[i + 1:]
            if seen.setdefault(rest, r.chance.probability) != r.chance.probability:
                return True
    return False


def _numbered(sp: Space, order: list[int], pos: tuple[int, ...]) -> int:
    """A combination's number when the variable fields are numbered in ``order`` (the first most significant)."""
    n = 0
    for i in order:
        n = n * len(sp.variable[i].values) + pos[i]
    return n


def _word_space(calc: Calculator, results: list[Outcome | Refusal], words: Words, lang: str) -> dict[str, Any]:
    """The space as the data holds it: its fields in numbering order (the odds field last), the distinct answers
    as words, and each combination's answer (``index``, in that numbering)."""
    sp = calc.space
    odds = _odds_field(calc, results)
    order = [i for i in range(len(sp.variable)) if i != odds] + ([odds] if odds is not None else [])
    strings = Strings()
    rows: list[list[Any]] = []
    seen: dict[str, int] = {}
    index = [0] * sp.size
    for pos, result in zip(sp.combinations(), results, strict=True):
        row = interned(words.outcome(result), strings)
        sig = json.dumps(row)
        if sig not in seen:
            seen[sig] = len(rows)
            rows.append(row)
        index[_numbered(sp, order, pos)] = seen[sig]
    return {"fields": [_field_data(sp.variable[i], words, lang) for i in order], "order": order,
            "odds": len(order) - 1 if odds is not None else None, "strings": strings.items, "outcomes": rows,
            "index": index}


def _row(data: Mapping[str, Any], k: int) -> list[Any]:
    """The ``k``-th distinct answer of a worded space, its strings spelled out."""
    S = data["strings"]
    ids, steps, pairs, odds, refusal = data["outcomes"][k]
    return [S[ids], [S[x] for x in steps], [[S[a], S[b]] for a, b in pairs], [S[x] for x in odds] if odds else None,
            S[refusal] if refusal is not None else None]


def _messages(lang: str) -> dict[str, str]:
    return {k: pgettext(lang, "site", k) for k in ("calc_out_of_range", "calc_out_of_coverage", "calc_needs_value", "calc_odds_caption",
                                                    "calc_odds_dash", "calc_chance_head", "calc_steps", "calc_unreadable",
                                                    "calc_working")}


def _script(key: str, data: Any) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")  # never closes a script
    return f"(window.KB_CALC=window.KB_CALC||{{}})[{json.dumps(key)}]={body};\n"


def shard_size(data: Mapping[str, Any]) -> int:
    """Combinations per shard of a worded space: ``SHARD`` rounded down to a multiple of its last field's count."""
    last = data["fields"][-1]["n"] if data["fields"] else 1
    return max(last, SHARD // last * last)


def _data_files(head: str, data: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The head (fields, odds field, shard size, messages) and the shards (each its own strings and answers)."""
    size = shard_size(data)
    out = {head: _script(head, {"fields": data["fields"], "odds": data["odds"], "shard": size, "words": _messages(lang)})}
    index = data["index"]
    for n, start in enumerate(range(0, len(index), size)):
        strings, at = Strings(), {}
        outcomes: list[list[Any]] = []
        local: list[int] = []
        for k in index[start:start + size]:
            if k not in at:
                at[k] = len(outcomes)
                outcomes.append(interned(_row(data, k), strings))
            local.append(at[k])
        path = shard_path(head, n)
        out[path] = _script(path, {"strings": strings.items, "outcomes": outcomes, "index": local})
    return out


def _in_page(calc: Calculator, words: Words, lang: str, names: dict[str, Any], known: Mapping[str, Any] | None = None,
             context: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The head of a form the page's Python answers: its fields (the whole space, the odds field last), the odds
    field, the messages and ``py``, what :class:`kb.site.calc_py.Calc` rebuilds the space and words answers from
    (the resolver, the example's inputs, the numbering, the language, the names its answers may show); and
    ``first``, the example's own answer worked out here for the page as it loads. Pages sharing the space share
    its head: ``known``, that head's data when another page wrote it first, gives the odds field. ``context``: what a
    resolver that reads its context is given in the page (:func:`_context_read`)."""
    sp, res = calc.space, calc.resolver
    start = sp.positions(sp.base)
    assert start is not None  # the example's values are in its own space
    more = extra({"context": context})
    if known is not None:
        odds = known["order"][-1] if known["odds"] is not None else None
    else:
        odds = _odds_near(sp, res, start, more)
    order = [i for i in range(len(sp.variable)) if i != odds] + ([odds] if odds is not None else [])
    first = words.outcome(call(res, sp.given(start), more))
    spec = {"resolver": res.name, "given": dict(calc.example.given), "order": order,
            "odds": len(order) - 1 if odds is not None else None, "lang": lang, "own_names": calc.own_names,
            "names": names, "context": context}
    table = _py_table(spec, res, [start[i] for i in order])
    return {"fields": [_field_data(sp.variable[i], words, lang) for i in order], "order": order,
            "odds": spec["odds"], "shard": 0, "words": _messages(lang), "py": spec, "first": first, "table": table}


def _py_table(spec: Mapping[str, Any], res: Resolver, positions: list[int]) -> list[list[Any]] | None:
    """The odds table's rows at ``positions`` as the page's Python answers them (the same code, run here); ``None``
    without an odds field."""
    if spec["odds"] is None:
        return None
    shard = json.loads(Calc(spec, res).answer(positions))
    return [_row(shard, k) for k in shard["index"]]


def _odds_near(sp: Space, res: Resolver, start: tuple[int, ...], more: Mapping[str, Any]) -> int | None:
    """The first variable number (not the roll itself) whose values, the others at the example's, change the chance:
    what an odds table can show for a space too large to look at whole (``_odds_field`` looks at all of it)."""
    def chance_at(i: int, v: int) -> Any:
        r = call(res, sp.given(start[:i] + (v,) + start[i + 1:]), more)
        return r.chance if isinstance(r, Outcome) else None

    for i, f in enumerate(sp.variable):
        if f.kind not in ("integer", "number") or f.item is not None:
            continue
        chances = [c for v in range(len(f.values)) if (c := chance_at(i, v)) is not None]
        if chances and f.path[0] != chances[0].roll and len({c.probability for c in chances}) > 1:
            return i
    return None


def _name_table(ctx: SiteContext, game: str) -> dict[str, Any]:
    """The names a game's answers may show (its ``names:``, entries and steps), id -> [Spanish, English]."""
    find = ctx.names(game)
    meta = ctx.kb.games.get(game)
    keys = {game, *((meta.data.get("names") or {}) if meta else {})}
    for e in ctx.kb.entries.values():
        keys.add(e.id)
        if e.game == game:
            keys.add(e.id.removeprefix(game + "."))
            if e.kind == "sequence":
                for st in flatten_steps((e.data.get("sequence") or {}).get("steps", [])):
                    keys |= {str(st.get("id")), f"{e.id}#{st.get('id')}"}
    return {k: said(t) for k in sorted(keys) if isinstance(t := find(k), Text)}


def foreign_words(kb: "Linked", game: str, lang: str) -> dict[str, list[str]]:
    """The words of another language a Spanish page's answers may show, as the content marks them: the forms of the
    game's glossary terms kept in their English wording (``do_not_translate``) that are Spanish and English forms
    alike (``Roll-Off``), longest first; ``{}`` on an English page. A name the content does not mark this way (a
    model's name in ``names:``) is not known to be English and is left unmarked."""
    if lang != SOURCE_LANG:
        return {}
    found = {w for e in kb.entries.values() if e.game == game and e.term and e.term.do_not_translate
             for w in set(e.term.forms.get(SOURCE_LANG, ())) & set(e.term.forms.get(TARGET_LANG, ())) if w.strip()}
    return {TARGET_LANG: sorted(found, key=lambda w: (-len(w), w))} if found else {}


_LETTER = r"[^\W_]"


def marked_html(text: str, foreign: Mapping[str, list[str]]) -> str:
    """``text`` escaped, each whole word of ``foreign`` in it (by language) in a ``<span lang>``, so that a screen
    reader says it in its own language (``kb-calc.js``'s ``marked`` does the same in the page)."""
    found = [(w, lg) for lg, ws in foreign.items() for w in ws]
    if not found:
        return _attr(text)
    langs = dict(found)
    alts = "|".join(re.escape(w) for w, _ in sorted(found, key=lambda p: -len(p[0])))
    parts = re.split(f"(?<!{_LETTER})({alts})(?!{_LETTER})", text)
    return "".join(f'<span lang="{_attr(langs[p])}">{_attr(p)}</span>' if i % 2 else _attr(p) for i, p in enumerate(parts))


@dataclass
class Working:
    """Which calculator :func:`calc_site` is working out, for a progress line read from another thread while it runs
    (set once per calculator: the build's "still working" line names it, each id on one line with its control
    characters as escapes: an id that fails the schema still builds, and a line break in it would forge a log line)."""

    calculator: Calculator | None = None

    def __str__(self) -> str:
        calc = self.calculator
        return f"the calculator of '{printable(calc.entry.id)}', example '{printable(calc.example.id)}'" if calc else ""


def calc_site(kb: "Linked", lang: str, in_page: bool = False, runtime: str = calc_runtime.FOLDER,
              keep: bool = False, working: Working | None = None, size: int = 0) -> CalcSite:
    """Every calculator of ``lang``'s pages: the forms of each page and the data scripts. ``in_page``: the build has
    the pinned Pyodide (the caller found it, :func:`kb.site.calc_runtime.runtime_dir`), so the page's Python answers
    the large spaces, from the runtime's folder at ``runtime`` (relative to the language's root: ``../kb-py``, the
    site's one copy for every language); the caller writes the runtime (:func:`kb.site.calc_runtime.runtime_files`)
    when :attr:`CalcSite.python` says a form needs it. Without, the large spaces are enumerated at build time
    (held in part: :attr:`CalcSite.held` counts them). Made game by game (a space, its head and its names table
    belong to one game); ``keep``: each game's part is kept between commands (:func:`_kept_game`). ``working``: set
    to each calculator as it is worked out. ``size``: the runtime's bytes (what a page downloads on the first change of
    such a form, said while it loads: ``calc_loading``); 0, not known (``calc_starting``, no size said)."""
    out = CalcSite()
    games = sorted({e.game for e in kb.entries.values()})
    working = working or Working()
    for game in games:
        out.add(_kept_game(kb, game, lang, in_page, runtime, working, size) if keep
                else _game(kb, game, lang, in_page, runtime, working, size))
    if keep:
        from kb.site.outputs import forget_others

        forget_others(kb, f"calc-{lang}-", {f"calc-{lang}-{game}" for game in games})  # a game gone, an older naming
    _tidy(kb, lang, out.kept)
    out.sizes = {path: len(text.encode()) for path, text in out.files.items()}
    return out


def _game(kb: "Linked", game: str, lang: str, in_page: bool, runtime: str, working: Working, size: int = 0) -> CalcSite:
    """The calculators of the entries of ``game`` (by id), in ``lang``, each in ``working`` while it is worked out."""
    ctx = SiteContext(kb, {}, lang)
    out = CalcSite(made=[game])
    heads: dict[str, dict[str, Any]] = {}
    foreign = foreign_words(kb, game, lang)
    for entry in sorted((e for e in kb.entries.values() if e.game == game), key=lambda e: e.id):
        page = entry_path(entry)
        for n, calc in enumerate(calculators(entry, kb.registry.get, in_page=in_page)):
            working.calculator = calc
            out.held += calc.held
            words = Words(calc.resolver, calc.own_names, lang, ctx.names(entry.game), foreign)
            out.forms.setdefault(page, []).append(_form(kb, calc, n, words, ctx, heads, out, runtime, size))
    if heads:
        out.files[py_data_path(game)] = _script(py_data_path(game), _py_data(heads, out.names[game]))
    return out


def _py_data(heads: Mapping[str, Mapping[str, Any]], names: Mapping[str, Any]) -> dict[str, Any]:
    """The game's shared file (:func:`py_data_path`) from its heads' whole ``py``: the names and every entry read."""
    entries: dict[str, Any] = {}
    for data in heads.values():
        context = data["py"]["context"]
        if context is not None:
            entries.update(context["entries"])
            entries[context["id"]] = context["entry"]
    return {"names": names, "entries": entries}


def _head_file(data: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A head the page's Python answers as written: its ``py`` without the names and entries, which it finds in the
    game's shared file (``data``, beside it), its context the entry's id (``kb-calc.js`` puts them back, ``withPy``)."""
    py = data["py"]
    context = py["context"]
    slim = {**{k: v for k, v in py.items() if k not in ("names", "context")},
            "data": posixpath.basename(py_data_path(game)), "context": {"entry": context["id"]} if context else None}
    return {**{k: v for k, v in data.items() if k not in ("first", "table")}, "py": slim}


def _form(kb: "Linked", calc: Calculator, n: int, words: Words, ctx: SiteContext, heads: dict[str, dict[str, Any]],
          out: CalcSite, runtime: str, size: int = 0) -> str:
    """One calculator's form, its data added to ``out``; or, when its resolver stalled, the note of a calculator left
    out (most of its answers are unknown: no form rather than one that cannot answer). A failure is added to
    ``out.failed``."""
    head, lang = head_path(calc), words.lang
    if calc.py:
        found = _in_page_within(kb, calc, words, ctx, head, heads, out, size)
        if found is None:
            return left_out_html(lang)
        data = found
    else:
        data = _worded(kb, calc, lang, words, out)
        if "failed" in data:
            out.failed.append(_failure_diagnostic(calc, data["failed"]))
            if data["failed"]["untried"]:
                return left_out_html(lang)
        if head not in out.files:
            out.files.update(_data_files(head, data, lang))
    return form_html(calc, n, words, head, data, runtime)


def _in_page_within(kb: "Linked", calc: Calculator, words: Words, ctx: SiteContext, head: str,
                    heads: dict[str, dict[str, Any]], out: CalcSite, size: int = 0) -> dict[str, Any] | None:
    """:func:`_in_page_head` within ``STALLS`` times the examples' time limit (the build calls the resolver near the
    example for the form's first answer and odds table: a resolver that loops there never hangs the build); ``None``,
    and ``calc-page-stalled`` in ``out.failed``, past it."""
    seconds = kb.example_limits.seconds * STALLS
    try:
        with time_limit(seconds):
            return _in_page_head(calc, words, ctx, head, heads, out, seconds, size)
    except TimeLimit:
        out.failed.append(diag("calc-page-stalled", calc.example.location, entry=calc.entry.id, example=calc.example.id,
                               resolver=calc.resolver.name, seconds=f"{seconds:g}", stalls=1))
        return None


def game_key(kb: "Linked", game: str, lang: str, in_page: bool, runtime: str, size: int = 0) -> str:
    """Every input of :func:`_game` but the entries the resolvers' contexts read (recorded in the part and compared
    when it is taken, :func:`_kept_game`): the engine (its code and catalogs) and Babel's version (the numbers'
    wording), the language, the runtime (whether the page's Python answers, where it is, its size as the pages say it:
    a change of a few bytes makes nothing again), the examples' time
    limit, every game's ``game.yaml`` and ``mechanics.py`` (an entry may use another game's resolver), the files of
    the game's entries, and every entry's id and title (the names its forms show: an id named by an example, the
    names table of a form answered in the page, :func:`_name_table`)."""
    import babel

    own = [os.path.relpath(e.path, kb.root) for e in kb.entries.values() if e.game == game]
    setup = [k for k in kb.digests if posixpath.basename(k) in ("game.yaml", "mechanics.py")]
    files = [(k, kb.digests.get(k)) for k in sorted({*own, *setup})]
    titles = [(i, e.title.es, e.title.en) for i, e in sorted(kb.entries.items())]
    raw = [cache.code_version(), babel.__version__, lang, in_page, runtime, _megabytes(size), repr(kb.example_limits), game,
           files, titles]
    return hashlib.sha256(json.dumps(raw, ensure_ascii=False).encode()).hexdigest()[:24]


def _kept_game(kb: "Linked", game: str, lang: str, in_page: bool, runtime: str, working: Working,
               size: int = 0) -> CalcSite:
    """:func:`_game`, kept between commands (:func:`kb.site.outputs.kept`, as ``calc-<lang>-<game>``) under
    :func:`game_key`, and taken only while every entry its resolvers read has the data it had."""
    from kb.site.outputs import kept

    made: list[CalcSite] = []

    def make() -> dict[str, Any]:
        made.append(_game(kb, game, lang, in_page, runtime, working, size))
        return _as_data(made[0])

    def holds(v: Any) -> bool:  # a part with a time-out is made again: the next command tries it again
        return (_part_shape(v) and all(_entry_digest(kb, i) == d for i, d in v["read"].items())
                and not any(dict(f["args"]).get("stalls") for f in v["failed"]))

    data, _ = kept(kb, f"calc-{lang}-{game}", game_key(kb, game, lang, in_page, runtime, size), make, holds)
    return made[0] if made else _from_data(data, cache.cache_dir(kb.root, "calc", kb.cache_base))


def _as_data(part: CalcSite) -> dict[str, Any]:
    """A game's part as the cache keeps it (its spaces' cache files by name, so that they are not tidied away)."""
    return {"forms": part.forms, "files": part.files, "python": part.python, "held": part.held, "names": part.names,
            "read": part.read, "spaces": sorted(path.name for path in part.kept),
            "failed": [{"code": d.code, "path": str(d.location.path), "line": d.location.line, "column": d.location.column,
                        "args": [list(a) for a in d.args]} for d in part.failed]}


def _part_shape(v: Any) -> bool:
    return (isinstance(v, dict) and all(isinstance(v.get(k), dict) for k in ("forms", "files", "names", "read"))
            and isinstance(v.get("spaces"), list) and isinstance(v.get("held"), int) and isinstance(v.get("failed"), list)
            and all(map(_failure_shape, v["failed"])))


def _failure_shape(f: Any) -> bool:
    """Whether a kept part's failure reads as :func:`_as_data` wrote it."""
    return (isinstance(f, dict) and f.get("code") in ("calc-failed", "calc-stalled", "calc-page-stalled") and isinstance(f.get("args"), list)
            and isinstance(f.get("path"), str) and all(isinstance(f.get(k), int) for k in ("line", "column")))


def _from_data(data: dict[str, Any], folder: Path) -> CalcSite:
    failed = [diag(f["code"], Location(Path(f["path"]), f["line"], f["column"]), **{str(k): a for k, a in f["args"]})
              for f in data["failed"]]
    return CalcSite(forms=data["forms"], files=data["files"], python=bool(data.get("python")), held=data["held"],
                    names=data["names"], read=data["read"], kept={folder / name for name in data["spaces"]}, failed=failed)


def _in_page_head(calc: Calculator, words: Words, ctx: SiteContext, head: str, heads: dict[str, dict[str, Any]],
                  out: CalcSite, seconds: float, size: int = 0) -> dict[str, Any]:
    """A form the page's Python answers: its data (``_in_page``), its head written once per space (``heads``), the
    names table once per game. ``seconds``: the time the page gives each answer, the build's own for the same calls
    (:func:`_in_page_within`); past it ``kb-calc.js`` stops the page's Python and shows ``calc_too_long``. While the
    runtime loads the form says ``calc_loading`` with its ``size`` (``calc_starting`` when not known, or when the page
    finds the runtime saved for offline); if it cannot be read, ``calc_no_runtime``; read but not started,
    ``calc_cannot_start``."""
    game = calc.entry.game
    if game not in out.names:
        out.names[game] = _name_table(ctx, game)
    found = _in_page(calc, words, ctx.lang, out.names[game], heads.get(head), _context_read(ctx.kb, calc, out.read))
    late = _fill(pgettext(ctx.lang, "site", "calc_too_long"), {"seconds": number(seconds, ctx.lang)})
    loading = (_fill(pgettext(ctx.lang, "site", "calc_loading"), {"size": number(_megabytes(size), ctx.lang)}) if size
               else pgettext(ctx.lang, "site", "calc_starting"))
    more = {"calc_too_long": late, "calc_loading": loading, "calc_starting": pgettext(ctx.lang, "site", "calc_starting"),
            "calc_no_runtime": pgettext(ctx.lang, "site", "calc_no_runtime"),
            "calc_cannot_start": pgettext(ctx.lang, "site", "calc_cannot_start")}
    data = {**found, "seconds": seconds, "words": {**found["words"], **more}}
    out.python = True
    if head not in heads:
        heads[head] = data
        out.files[head] = _script(head, _head_file(data, game))
    return data


def _megabytes(size: int) -> float:
    """``size`` bytes in megabytes, to a tenth, as the pages say it."""
    return round(size / 1e6, 1)


def _attr(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _input(calc: Calculator, n: int, i: int, f: Field, words: Words, var: int | None) -> str:
    fid = f"kb-calc-{n}-{i}"
    if f.item is not None:
        return _item(calc, n, i, f, words, var)
    label = f'<label for="{fid}">{_attr(words.label(f))}</label>'
    value = _at(calc.space.base, f.path)
    common = f'id="{fid}" name="{_attr(f.name)}" data-kb-path="{_attr(json.dumps(list(f.path)))}"'
    if var is None:
        return (f'<div class="kb-calc-field kb-calc-fixed">{label}<input {common} type="text" readonly '
                f'value="{_attr(words.show(value))}" data-kb-fixed aria-describedby="{fid}-note">'
                f'<small id="{fid}-note">{_attr(pgettext(words.lang, "site", "calc_fixed"))}</small></div>')
    common += f' data-kb-field="{var}"'
    if f.kind in ("integer", "number"):
        return f'<div class="kb-calc-field">{label}{_number_input(common, fid, f, value, words.lang)}</div>'
    return f'<div class="kb-calc-field">{label}<select {common}>{_options(f, value, words)}</select></div>'


def _item(calc: Calculator, n: int, i: int, f: Field, words: Words, var: int | None) -> str:
    """An item of an input made of items (a list's, a mapping's entry): a field with its "remove" button, hidden while
    the item is not added; after the last, the group's "add" button (``data-kb-items`` names the input)."""
    if f.kind == "fixed":
        return _fixed_item(calc, n, i, f, words)
    group = str(f.path[0])
    fid = f"kb-calc-{n}-{i}"
    present = _present(calc.space.base, f)
    value = _at(calc.space.base, f.path) if present else None
    common = (f'id="{fid}" name="{_attr(f.name)}" data-kb-path="{_attr(json.dumps(list(f.path)))}" data-kb-field="{var}"'
              + ("" if present else " disabled"))
    shown = words.label(f)
    field_html = (_number_input(common, fid, f, value, words.lang) if f.kind in ("integer", "number")
                  else f'<select {common}>{_options(Field(f.name, f.path, f.key, f.kind, f.values[1:], {}), value, words)}</select>')
    remove = "" if _whole(calc, group) else (
        f'<button type="button" class="kb-calc-remove" data-kb-remove aria-label="'
        f'{_attr(_fill(pgettext(words.lang, "site", "calc_remove_item"), {"label": shown}))}">'
        f'{_attr(pgettext(words.lang, "site", "calc_remove"))}</button>')
    return (f'<div class="kb-calc-field kb-calc-item" data-kb-item="{_attr(group)}"{"" if present else " hidden"}>'
            f'<label for="{fid}">{_attr(shown)}</label>{field_html}{remove}</div>')


def _fixed_item(calc: Calculator, n: int, i: int, f: Field, words: Words) -> str:
    """A fixed field of an input made of items: after its items, the group's "add" button (when some item may be
    added); an item held at the example's value, shown as fixed (nothing when the example does not give it)."""
    group = str(f.path[0])
    if f.item == "empty":
        return _add_button(calc, n, group, words) if any(
            g.item not in (None, "empty") and g.kind != "fixed" and g.path[0] == group for g in calc.space.fields) else ""
    if f.values[0] is ABSENT:
        return ""
    return _input(calc, n, i, Field(f.name, f.path, f.key, "fixed", (f.values[0],), {}), words, None)


def _present(base: Mapping[str, Any], f: Field) -> bool:
    """Whether the example gives this item (a list's, a mapping's, a name's in a row of a list of mappings)."""
    value: Any = base.get(str(f.path[0]))
    for slot in f.path[1:]:
        if isinstance(value, list) and isinstance(slot, int) and slot < len(value):
            value = value[slot]
        elif isinstance(value, Mapping) and slot in value:
            value = value[slot]
        else:
            return False
    return True


def _add_button(calc: Calculator, n: int, group: str, words: Words) -> str:
    """The group's "add" button; for a group whose size the rule fixes (:func:`_whole`), it adds every item at once
    (``data-kb-all``) and a "remove" button beside it takes them all away (none is removed alone)."""
    label = words.word(group)
    add = _attr(_fill(pgettext(words.lang, "site", "calc_add"), {"label": label}))
    if not _whole(calc, group):
        return f'<div class="kb-calc-field kb-calc-add"><button type="button" data-kb-add="{_attr(group)}">{add}</button></div>'
    remove = _attr(_fill(pgettext(words.lang, "site", "calc_remove_item"), {"label": label}))
    return (f'<div class="kb-calc-field kb-calc-add"><button type="button" data-kb-add="{_attr(group)}" data-kb-all>{add}'
            f'</button><button type="button" class="kb-calc-remove" data-kb-remove-all="{_attr(group)}">{remove}</button></div>')


def _whole(calc: Calculator, group: str) -> bool:
    """Whether the rule fixes how many items the input ``group`` holds when given: a mapping of every key or none
    (``keys_of(..., every=True)``), a list of exactly ``items(n, n)``."""
    schema = calc.resolver.inputs.get(group, {})
    return any(b.get(KEYS_EVERY) or ("maxItems" in b and b.get("minItems") == b["maxItems"])
               for b in schema.get("anyOf", [schema]) if isinstance(b, Mapping))


def _number_input(common: str, fid: str, f: Field, value: Any, lang: str) -> str:
    """A number field with its declared range (``data-kb-min``, ``-max``, ``-step``); empty means "not given". A text
    field, not ``type="number"``: Chromium's drops a decimal comma («0,5» read as 5), and kb-calc.js reads the page's
    decimal mark (``data-kb-mark``) and refuses, quoting it, what is not a number (docs/site.md, "Calculators")."""
    holder = f' placeholder="{_attr(pgettext(lang, "site", "calc_not_given"))}"' if f.optional else ""
    mode = "numeric" if f.kind == "integer" and f.bounds["minimum"] >= 0 else "decimal"
    whole = f' data-kb-whole="{_attr(pgettext(lang, "site", "calc_whole_number"))}"' if f.kind == "integer" else ""
    return (f'<input {common} type="text" inputmode="{mode}" '
            f'data-kb-min="{_attr(f.bounds["minimum"])}" data-kb-max="{_attr(f.bounds["maximum"])}" '
            f'data-kb-step="{_attr(f.bounds.get("multipleOf", 1))}" data-kb-mark="{_attr(decimal_mark(lang))}" '
            f'data-kb-nan="{_attr(pgettext(lang, "site", "calc_not_a_number"))}"{whole} '
            f'value="{"" if value is None else _attr(_typed(value, lang))}"{holder} aria-describedby="{fid}-range">'
            f'<small id="{fid}-range">{_attr(_range_words(f, lang))}</small>')


def _typed(value: int | float, lang: str) -> str:
    """A number as a player types it: no grouping, the page's decimal mark (``0,5`` / ``0.5``)."""
    text = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return text.replace(".", decimal_mark(lang))


def _options(f: Field, value: Any, words: Words) -> str:
    """A choice's options, valued by the JSON of each value (``null``: not given)."""
    out = []
    for v in f.values:
        text = pgettext(words.lang, "site", "calc_not_given") if v is None else words.show(v)
        chosen = " selected" if v == value and type(v) is type(value) else ""
        out.append(f'<option value="{_attr(json.dumps(v))}"{chosen}>{_attr(text)}</option>')
    return "".join(out)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def form_html(calc: Calculator, n: int, words: Words, head: str, data: Mapping[str, Any],
              runtime: str = calc_runtime.FOLDER) -> str:
    """The form of one calculator, filled with its example; the result as computed for it. A form the page's Python
    answers says where the runtime is (``data-kb-py``: ``runtime``, relative to the language's root, seen from the
    page). The result is not a live region (its steps and odds table would be read whole at each change):
    ``kb-calc.js`` announces a one-line answer in a status of its own."""
    sp, order = calc.space, data["order"]
    var = {id(sp.variable[i]): j for j, i in enumerate(order)}
    fields = "".join(_input(calc, n, i, f, words, var.get(id(f))) for i, f in enumerate(sp.fields))
    start = sp.positions(sp.base)
    first, table = _first(data, sp, start)
    result = _result_html(first, words.lang, words.foreign) if first is not None else ""
    if first is not None and table is not None and start is not None:
        result += _odds_html(data, table, start[order[-1]], first, words.lang)
    where = posixpath.relpath(runtime, posixpath.dirname(head)) + "/"  # the page sits beside the head
    py = (f' data-kb-py="{_attr(where)}"' if calc.py else "") + _foreign_attr(words.foreign)
    brief = _brief_html(first) if _long(calc) else ""
    return (f'<form class="kb-calc" data-kb-resolver="{_attr(calc.resolver.name)}" data-kb-space="{calc.key}" '
            f'data-kb-data="{_attr(posixpath.basename(head))}" data-kb-file="{_attr(head)}"{py} novalidate '
            f'aria-label="{_attr(pgettext(words.lang, "site", "calc_title"))}">'
            f'{brief}<div class="kb-calc-fields">{fields}</div>'
            f'<div class="kb-calc-result" data-kb-outcome="{_attr(first[0] if first else "{}")}">{result}</div></form>')


LONG_FORM = 6
"""Fields (those shown as the form opens) past which a form gets a short answer line kept in sight while a player
types (``kb-calc-brief``): on a phone the answer of a long form sits far below the fields, under the keyboard."""


def _long(calc: Calculator) -> bool:
    """Whether the form shows more than ``LONG_FORM`` fields as it opens (items not added left out)."""
    base = calc.space.base
    shown = [f for f in calc.space.fields if (f.item is None or (f.item != "empty" and _present(base, f)))]
    return len(shown) > LONG_FORM


def _brief_html(first: list[Any] | None) -> str:
    """The short answer line of a long form, as the page first shows it (``kb-calc.js``'s ``brief`` keeps it in step
    with the answer): sticky at the top of the screen, hidden from assistive technology (the answer box is announced)."""
    return f'<p class="kb-calc-brief" aria-hidden="true">{_attr(brief_text(first) if first else "")}</p>'


def brief_text(row: list[Any]) -> str:
    """An answer in one line: its outputs (``label: value · …``), else its refusal."""
    _data, _steps, pairs, _odds, refusal = row
    if refusal is not None:
        return str(refusal)
    return " · ".join(f"{k}: {v}" for k, v in pairs)


def left_out_html(lang: str) -> str:
    """What a page shows in place of a calculator left out (its resolver stalled: most of its answers are unknown)."""
    return f'<p class="kb-calc-left-out" role="note">{_attr(pgettext(lang, "site", "calc_left_out"))}</p>'


def _foreign_attr(foreign: Mapping[str, list[str]]) -> str:
    """A form's ``data-kb-foreign``: the words of another language its steps may show (``kb-calc.js`` marks them in
    each answer as :func:`marked_html` does); nothing when there are none."""
    return f' data-kb-foreign="{_attr(json.dumps(foreign, ensure_ascii=False))}"' if foreign else ""


def _result_html(row: list[Any], lang: str, foreign: Mapping[str, list[str]] | None = None) -> str:
    """A worded answer as the page first shows it (``kb-calc.js`` builds the same from the data), the ``foreign``
    words of its steps marked with their language (:func:`marked_html`)."""
    _data, steps, pairs, odds, refusal = row
    if refusal is not None:
        return f'<p class="kb-calc-refusal">{_attr(refusal)}</p>'
    listed = "".join(f"<dt>{_attr(k)}</dt><dd>{_attr(v)}</dd>" for k, v in pairs)
    return (f'<dl class="kb-calc-outputs">{listed}</dl>'
            + (f'<p class="kb-calc-odds">{_attr(odds[0])}</p>' if odds else "")
            + (f'<p class="kb-calc-steps-head">{_attr(pgettext(lang, "site", "calc_steps"))}</p>'
               f'<ol class="kb-calc-steps">{"".join(f"<li>{marked_html(s, foreign or {})}</li>" for s in steps)}</ol>' if steps else ""))


def _first(data: Mapping[str, Any], sp: Space, start: tuple[int, ...] | None
           ) -> tuple[list[Any] | None, list[list[Any]] | None]:
    """The answer a form first shows and its odds table's rows: worked out by ``_in_page``, else read from the space."""
    if "first" in data:
        return data["first"], data["table"]
    if start is None:
        return None, None
    return _row(data, data["index"][_numbered(sp, data["order"], start)]), _table(data, sp, start)


def _table(data: Mapping[str, Any], sp: Space, start: tuple[int, ...]) -> list[list[Any]] | None:
    """An enumerated space's answers over its odds field (the others at ``start``), as its shard holds them."""
    if data["odds"] is None:
        return None
    order, i = data["order"], data["order"][-1]
    return [_row(data, data["index"][_numbered(sp, order, start[:i] + (v,) + start[i + 1:])])
            for v in range(len(sp.variable[i].values))]


def _odds_html(data: Mapping[str, Any], table: list[list[Any]], at: int, first: list[Any], lang: str) -> str:
    """The odds table as the page first shows it, the player's row marked (``kb-calc.js``'s ``oddsTable`` builds the
    same from a shard): ``table`` holds the answer for each value of the odds field, the first (not given) skipped
    when the field is optional; nothing when the answer has no chance."""
    if not first[3]:
        return ""
    f = data["fields"][data["odds"]]
    off = 1 if f["optional"] else 0
    caption = _fill(pgettext(lang, "site", "calc_odds_caption"), {"event": first[3][1], "label": f["label"]})
    mark = ' class="kb-calc-current" aria-current="true"'
    rows = "".join(
        f'<tr{mark if j == at else ""}><td>{_attr(f["shown"][j - off])}</td>'
        f'<td>{_attr(table[j][3][2] if table[j][3] else "—")}</td></tr>' for j in range(off, len(table)))
    dash = any(not table[j][3] for j in range(off, len(table)))
    note = f'<p class="kb-calc-odds-note">{_attr(pgettext(lang, "site", "calc_odds_dash"))}</p>' if dash else ""
    return (f'<table class="kb-calc-odds-table"><caption>{_attr(caption)}</caption><thead><tr>'
            f'<th scope="col">{_attr(f["label"])}</th><th scope="col">{_attr(pgettext(lang, "site", "calc_chance_head"))}</th>'
            f'</tr></thead><tbody>{rows}</tbody></table>{note}')
