"""The ``kb`` command: a thin adapter over the API. ``main(argv) -> int``; only ``__main__`` exits."""

from __future__ import annotations

import argparse
import io
import os
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, TextIO

from kb.cli.output import write_json
from kb.core.diagnostics import format_path, hint, one_line, printable, visible
from kb.core.files import NoContent, content_root, default_content_root, os_problem
from kb.core.model import COMMON, GAME_KINDS, KINDS, LANGS

if TYPE_CHECKING:
    from kb.api import KnowledgeBase
    from kb.mechanics import Resolver
    from kb.search.index import SearchIndex
    from kb.search.query import Result

__all__ = ["main", "run", "build_parser"]

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """Raises instead of exiting, so ``run`` can return exit code 2 with the message; a word left over is said with
    the usage of the sub-command it follows, and a misspelt choice or option with "did you mean"."""

    intermixed = False
    """Whether options may come between the words of its positional arguments (``kb search linea --limit 2 de
    vision``): argparse's intermixed parsing, which a parser with sub-commands cannot use (only a sub-command's)."""
    _mixing = False

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Usage(f"{self.prog}: error: {message}\n{self.format_usage()}")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:  # type: ignore[override]
        if not self.intermixed or self._mixing:
            return super().parse_known_args(args, namespace)
        self._mixing = True  # argparse's intermixed parsing calls parse_known_args itself (Python 3.11)
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        parsed: argparse.Namespace
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            _innermost(self, parsed).error_unknown(extra)
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            raise argparse.ArgumentError(action, exc.message + hint(str(value), map(str, action.choices or ()))) from None

    def error_unknown(self, extra: list[str]) -> None:
        option = next((word.split("=")[0] for word in extra if word.startswith("-")), "")
        self.error(f"unrecognized arguments: {' '.join(extra)}{hint(option, self._option_string_actions) if option else ''}")


def _innermost(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> "_Parser":
    """The parser of the deepest sub-command ``parsed`` names (``kb i18n status``'s), else ``parser`` itself."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(str(getattr(parsed, action.dest, None) or ""))
            if chosen is not None:
                return _innermost(chosen, parsed)
    return parser  # type: ignore[return-value]


class _Usage(Exception):
    pass


def _positive(value: str) -> int:
    """An argument that must be a whole number of 1 or more (argparse turns the error into exit 2)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


CONTENT_HELP = "content folder (default: the one found from the current folder upward, or $KB_CONTENT)"


def _content_everywhere(parser: argparse.ArgumentParser) -> None:
    """``--content`` after any sub-command too (``kb search x --content DIR``); given twice, the later wins."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                if "--content" not in child._option_string_actions:
                    child.add_argument("--content", metavar="PATH", default=argparse.SUPPRESS, help=CONTENT_HELP)
                _content_everywhere(child)


def _kb_class() -> "type[KnowledgeBase]":
    from kb.api import KnowledgeBase  # parsers and validators load only for the commands that need them

    return KnowledgeBase


def _root(args: argparse.Namespace) -> Path:
    """The content tree: ``--content`` (a tree, or a folder or file inside one), else found from the current
    folder upward; :class:`NoContent` (exit 2) when there is none."""
    return content_root(Path(args.content)) if args.content else default_content_root(given=os.environ.get("KB_CONTENT"))


def _load(args: argparse.Namespace) -> "KnowledgeBase":
    return _kb_class().load(_root(args))


# ---------------------------------------------------------------- kb check
def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    target = Path(args.path) if args.path else _root(args)
    if not target.exists():
        err.write(f"kb check: {target}: no such file or folder\n")
        return EXIT_USAGE
    kb = _kb_class().load(content_root(target))
    scope = Path(os.path.abspath(target))
    found = _found(kb, scope, args.strict, args.no_warnings)
    errors = sum(d.severity == "error" for d in found)
    if args.format == "json":
        write_json(out, [d.to_json() for d in found])
    else:
        out.writelines(d.format() + "\n" for d in found)
        checked = sum(_within(e.path, scope) for e in kb.entries.values())  # those in the path given, not the tree's
        err.write(f"{checked} entries checked: {errors} error(s), {len(found) - errors} warning(s)\n")
    if args.suggest:
        _suggest(kb, scope, out)
    failing = errors or (args.strict and found)
    return EXIT_ERRORS if failing else EXIT_OK


def _found(kb: "KnowledgeBase", scope: Path, strict: bool, no_warnings: bool) -> list[Any]:
    """The problems ``kb check`` reports within ``scope``: with ``strict``, the worked examples' wording too (issue 27:
    only over content that loads cleanly); with ``no_warnings``, the errors only."""
    found = [d for d in kb.diagnostics if _within(d.location.path, scope)] + _catalog_problems()
    if strict:
        found += [d for d in kb.wording() if _within(d.location.path, scope)]
    return [d for d in found if d.severity == "error"] if no_warnings else found


def _catalog_problems() -> list[Any]:
    """The mistakes of the site's words catalogs (``kb/locale/<lang>/LC_MESSAGES/kb.po``), whatever is checked: every
    site shows those words."""
    from kb.i18n.catalogs import catalog_problems

    return catalog_problems()


def _suggest(kb: "KnowledgeBase", scope: Path, out: TextIO) -> None:
    """One line per entry without a "see also": the entries that share most terms and concepts with it."""
    from kb.link.suggest import suggest_see_also

    for s in suggest_see_also(kb):
        entry = kb.entries[s.entry]
        if not _within(entry.path, scope):
            continue
        shown = "; ".join(f"{other} (shares {', '.join(common)})" for other, common in s.candidates)
        loc = entry.location
        out.write(f"{format_path(loc.path)}:{loc.line}:{loc.column}: note[see-also]: {s.entry} has no see_also; "
                  f"consider {shown}\n")


def _within(path: Path, scope: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(scope)  # not resolve(): a link is reported where it is
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------- kb show
def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    kb = _load(args)
    entry_id, marked, anchor = args.id.partition("#")
    entry = kb.get(entry_id)
    if entry is None:
        err.write(f"kb show: no entry '{entry_id}'{hint(entry_id, kb.entries)}\n")
        for d in kb.not_loaded({entry_id.split(".")[0]}):
            err.write(d.format() + "\n")  # perhaps the entry is in a file that does not load (or cannot be read)
        return EXIT_USAGE  # an argument that names nothing: 2, as kb test and kb search say an unknown id or game
    passage = _passage(kb, entry.id, anchor, args.lang, err) if marked else None
    if marked and passage is None:
        return EXIT_USAGE
    if args.json:
        write_json(out, _show_data(kb, entry, passage), default=str)
        return EXIT_OK
    out.write(kb.text(entry.id, args.lang) + (_passage_text(passage) if passage is not None else ""))
    _say_unloaded_resolvers(kb, entry.examples, err)
    return EXIT_OK


def _show_data(kb: "KnowledgeBase", entry: Any, passage: Any) -> dict[str, Any]:
    """``kb show --json``: the entry's data, its backlinks, its examples' results, and the passage its anchor names."""
    data = dict(entry.data)
    data["backlinks"] = sorted({lk.source for lk in kb.backlinks(entry.id)})
    data["example_results"] = [r.to_json() for r in kb.run_examples([entry.id])]
    if passage is not None:
        data["passage"] = passage.to_dict()
    return data


def _passage(kb: "KnowledgeBase", entry_id: str, anchor: str, lang: str, err: TextIO) -> Any:
    """The passage of ``entry_id``'s page that ``anchor`` names (as a search hit's passage, or the site's page, names
    it), else None, said on ``err`` with the nearest of the page's anchors (or all of them)."""
    import difflib

    passages = kb.passages(entry_id, lang)
    found = next((p for p in passages if p.anchor == anchor), None)
    if found is None:
        anchors = [p.anchor for p in passages]
        near = difflib.get_close_matches(anchor, anchors, n=5, cutoff=0.5) or anchors
        err.write(f"kb show: '{entry_id}' has no passage '#{anchor}'{hint(anchor, anchors)} "
                  f"(its anchors{' nearest' if len(near) < len(anchors) else ''}: {', '.join(near)})\n")
    return found


def _passage_text(passage: Any) -> str:
    """The passage ``kb show ID#ANCHOR`` names, after the entry: its anchor, then its text wrapped as the entry's."""
    import textwrap

    from kb.site.text import WIDTH

    body = textwrap.wrap(passage.text, WIDTH, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(["", f"#{passage.anchor}", *body]) + "\n"


def _say_unloaded_resolvers(kb: "KnowledgeBase", examples: Any, err: TextIO) -> None:
    """On ``err``: each example whose resolver is not registered (its results are not computed), as ``kb check`` says
    it (``unknown-resolver``: did-you-mean, or the game module that did not load), and that module's located errors."""
    said: set[str] = set()
    unknown = {(os.path.abspath(d.location.path), d.arguments.get("name")): d.message
               for d in kb.diagnostics if d.code == "unknown-resolver"}
    for ex in examples:
        if ex.mechanic in kb.registry:
            continue
        why = unknown.get((os.path.abspath(ex.location.path), ex.mechanic), f"unknown resolver '{ex.mechanic}'")
        err.write(f"kb show: the results of example '{ex.id}' are not computed: {why}\n")
        for d in kb.mechanics_problems(ex.mechanic):
            if d.format() not in said:
                said.add(d.format())
                err.write(d.format() + "\n")


# ---------------------------------------------------------------- kb test
def _test(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    kb = _load(args)
    names, paths, problem = _selection(kb, args.select, err)
    if problem:
        err.write(problem)
        return EXIT_USAGE
    results, broken = _run_selected(kb, names, [Path(os.path.abspath(p)) for p in paths], bool(args.select))
    failed = [r for r in results if not r.passed]
    if args.json:
        write_json(out, [r.to_json() for r in results] + [{"status": "not-loaded", **d.to_json()} for d in broken])
    else:
        _say_results(results, failed, broken, out)
    return EXIT_ERRORS if failed or broken else EXIT_OK


def _run_selected(kb: "KnowledgeBase", names: list[str], folders: list[Path], some: bool) -> tuple[list[Any], list[Any]]:
    """The results of the examples ``kb test`` was asked for (the ``names``, and the entries in ``folders``; all
    when not ``some``), and the files that do not load within them."""
    chosen = names + sorted({e.id for e in kb.entries.values() if any(_within(e.path, f) for f in folders)})
    if not some:
        return kb.run_examples(), kb.not_loaded()
    return (kb.run_examples(chosen) if chosen else []), _broken_for(kb, names, folders)  # no entry there: none run


def _selection(kb: "KnowledgeBase", select: list[str], err: TextIO) -> tuple[list[str], list[str], str]:
    """``kb test``'s selectors as entry ids, games or ``ID#EXAMPLE`` (a ``PATH#EXAMPLE`` written so), and as files or
    folders; with the first that names nothing, said in one line (and, on ``err``, the files that do not load where it
    may be), else ``""``."""
    found = [_file_example(kb, s) for s in select]
    select = [s for s, _ in found]
    paths = [s for s in select if _names_a_path(kb, s)]
    names = [s for s in select if s not in paths]
    problem = next((p for _, p in found if p), "")
    return names, paths, problem or _unknown(kb, names, paths, err)


def _unknown(kb: "KnowledgeBase", names: list[str], paths: list[str], err: TextIO) -> str:
    """The first selector that names nothing, said in one line; else ``""``."""
    return _bad_paths(kb, paths) or _unknown_names(kb, names, err) or _unknown_examples(kb, names)


def _file_example(kb: "KnowledgeBase", selector: str) -> tuple[str, str]:
    """A ``PATH#EXAMPLE`` selector (a worked example of the entry a file holds) as ``ID#EXAMPLE``, or why the file
    gives no entry, in one line; any other selector as it is (a file whose own name holds ``#`` too)."""
    given, sep, example = selector.rpartition("#")
    if not sep or os.path.exists(selector) or not _names_a_path(kb, given):
        return selector, ""
    where = Path(os.path.abspath(given))
    entry = next((e for e in kb.entries.values() if Path(os.path.abspath(e.path)) == where), None)
    if entry is not None:
        return f"{entry.id}#{example}", ""
    return selector, _bad_paths(kb, [given]) or _no_entry_in(kb, given, where)


def _no_entry_in(kb: "KnowledgeBase", given: str, where: Path) -> str:
    """Why ``PATH#EXAMPLE`` names no entry: ``PATH`` is a folder, or a file that loads none (its errors first)."""
    if where.is_dir():
        return f"kb test: {printable(given)}: a folder; name an example by its entry's file (FILE#EXAMPLE) or id (ID#EXAMPLE)\n"
    said = "".join(d.format() + "\n" for d in kb.not_loaded() if Path(os.path.abspath(d.location.path)) == where)
    return said + f"kb test: {printable(given)}: no entry is loaded from this file\n"


def _names_a_path(kb: "KnowledgeBase", selector: str) -> bool:
    """True when a ``kb test`` selector is a file or folder (``content/g/rules/x.yaml``, ``content/g/rules``) rather
    than an entry id, a game or ``ID#EXAMPLE``: it holds a slash, ends in ``.yaml``, or is no id but exists."""
    if selector.split("#")[0] in kb.entries or selector in kb.games:
        return False
    return "/" in selector or os.sep in selector or selector.endswith((".yaml", ".yml")) or os.path.exists(selector)


def _bad_paths(kb: "KnowledgeBase", paths: list[str]) -> str:
    """The first of ``paths`` that is missing or lies outside the content folder, said in one line; else ``""``."""
    root = Path(os.path.abspath(kb.root))
    for given in paths:
        if not os.path.exists(given):
            return f"kb test: {given}: no such file or folder\n"
        if not _within(Path(given), root):
            return (f"kb test: {given}: not inside the content folder {format_path(root)}; give a file or folder "
                    "under it (or --content)\n")
    return ""


def _unknown_names(kb: "KnowledgeBase", names: list[str], err: TextIO) -> str:
    """The ids and games that match nothing, said in one line (with, on ``err``, the files that do not load where
    they may be); else ``""``."""
    unknown = [s for s in names if s.split("#")[0] not in kb.entries and s not in kb.games]
    if not unknown:
        return ""
    for d in kb.not_loaded({s.split("#")[0].split(".")[0] for s in unknown}):
        err.write(d.format() + "\n")  # perhaps the entry is in a file that does not load
    return f"kb test: nothing matches {', '.join(unknown)}{hint(unknown[0], list(kb.entries) + list(kb.games))}\n"


def _unknown_examples(kb: "KnowledgeBase", names: list[str]) -> str:
    """The first ``ID#EXAMPLE`` whose entry has no such example, said in one line; else ``""``."""
    for s in names:
        name, sep, example = s.partition("#")
        ids = [x.id for x in kb.entries[name].examples] if sep else []
        if sep and example not in ids:
            return _no_example(kb.entries[name], example, ids)
    return ""


def _no_example(entry: Any, example: str, ids: list[str]) -> str:
    """``kb test ID#EXAMPLE`` (or ``FILE#EXAMPLE``) naming no example of the entry: located at its ``examples``, with
    the nearest id and every id it has."""
    where = entry.marks.at(("examples",), key=True)
    listed = f"its examples: {', '.join(ids)}" if ids else "it has none"
    return printable(f"kb test: {format_path(where.path)}:{where.line}: '{entry.id}' has no example '{example}'"
                     f"{hint(example, ids)} ({listed})") + "\n"


def _broken_for(kb: "KnowledgeBase", names: list[str], folders: list[Path]) -> list[Any]:
    """The files that do not load within what ``kb test`` was asked for: the games of ``names``, and ``folders``."""
    games = {kb.entries[n].game if n in kb.entries else n for n in (s.split("#")[0] for s in names)}
    broken = kb.not_loaded(games) if games else []
    return broken + [d for d in kb.not_loaded() if d not in broken and any(_within(d.location.path, f) for f in folders)]


def _say_results(results: list[Any], failed: list[Any], broken: list[Any], out: TextIO) -> None:
    """``kb test``'s text: the files that do not load, each example that did not pass (its located line, then, for a
    failure, its inputs and its resolver's trace), and the count."""
    for d in broken:
        out.write(d.format() + "\n")
    for r in failed:
        out.writelines(line + "\n" for line in [r.diagnostic().format(), *(f"    {x}" for x in r.explanation())])
    tail = f", {len(broken)} problem(s) in files that do not load" if broken else ""
    out.write(f"{len(results) - len(failed)} passed, {len(failed)} failed{tail}\n")


# ---------------------------------------------------------------- kb search
def _ready_index(root: Path, query: str, err: TextIO) -> "SearchIndex | None":
    """The tree's index, made fresh (progress, and a query too long to be kept whole, said on ``err``); None, said
    in one line, when it cannot be written: the index as it was is kept."""
    from kb.core.cache import cache_dir
    from kb.places import resolve_cache_base
    from kb.search.index import MAX_QUERY, SearchIndex

    if len(query) > MAX_QUERY:
        err.write(f"kb search: query cut to {MAX_QUERY} characters\n")
    index = SearchIndex(root, cache_dir(root, "search", resolve_cache_base(root, os.environ.get("KB_CACHE"))))
    try:
        index.ensure(lambda: _kb_class().load(root), progress=lambda message: print(message, file=err), fast=True)
        for problem in index.unreadable.values():  # as kb check says it; their entries are not searched
            err.write(problem.format() + "\n")
        _say_not_loaded(index, err)
        return index
    except OSError as exc:  # a full disk, a read-only cache folder
        err.write(f"kb search: cannot write the search index: {os_problem(exc, unnamed=str(index.dir))}; "
                  "the index as it was is kept (KB_CACHE may name a folder with room, that you may write)\n")
        return None


def _say_not_loaded(index: "SearchIndex", err: TextIO) -> None:
    """The files whose entries the index lacks because they do not load, each as ``kb check`` says it, then one
    warning line: a search must not look complete when it is not."""
    said = {p.format() for p in index.unreadable.values()}
    shown = {d.format(): d for d in index.not_loaded() if d.format() not in said}
    for line in shown:
        err.write(line + "\n")
    files = len({d.location.path for d in shown.values()})
    if files:
        err.write(f"kb search: warning: {files} file(s) do not load (above): their entries are not searched; "
                  "fix them (kb check) for complete results\n")


def _search(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    args.query = " ".join(args.query)  # kb search linea de vision: the words are one query, as if quoted
    if not any(c.isalnum() for c in args.query):
        err.write("kb search: nothing to look for: the query has no letters or digits "
                  '(e.g. kb search "linea de vision")\n')
        return EXIT_USAGE
    root = _root(args)
    index = _ready_index(root, args.query, err)
    if index is None:
        return EXIT_USAGE
    reader = index.open(fast=True)  # one query: the compact store, read with the standard library
    if args.game is not None and args.game not in (*reader.games, COMMON):
        err.write(f"kb search: unknown game '{args.game}'{hint(args.game, reader.games)}; games: {', '.join(reader.games)}\n")
        return EXIT_USAGE
    result = reader.search(args.query, lang=args.lang, game=args.game, kind=args.kind, limit=args.limit)
    if args.json:
        write_json(out, result.to_dict())
    else:
        _say_hits(result, out)
    return EXIT_ERRORS if index.unreadable or index.not_loaded() else EXIT_OK  # the results, but not of every file


def _say_hits(result: "Result", out: TextIO) -> None:
    if result.did_you_mean:
        out.write(f"did you mean: {result.did_you_mean}\n")
    if not result.hits:
        out.write(f"no results for \"{result.query}\": try fewer words, a rule's name, or the other language\n")
        return
    for n, hit in enumerate(result.hits, 1):
        out.write(f"{n}. {one_line(hit.title)}  [{hit.game} · {hit.kind}]  {hit.id}\n")
        if hit.snippet:
            out.write(f"   {one_line(hit.snippet)}\n")
    counts = ", ".join(f"{g} {n}" for g, n in result.by_game.items())
    out.write(f"{result.total} result(s): {counts}\n")


# ---------------------------------------------------------------- kb resolvers
def _resolvers(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    kb = _load(args)
    prefix = args.prefix or ""
    broken = kb.mechanics_problems(prefix)  # what did not load is said, and fails the command
    err.writelines(d.format() + "\n" for d in broken)
    resolvers = [r for r in map(kb.registry.get, kb.registry.names()) if r is not None and r.name.startswith(prefix)]
    if not resolvers and not broken:
        return _no_resolver(kb, prefix, err)
    _list_resolvers(resolvers, args, out)
    if not broken:
        return EXIT_OK
    err.write(f"kb resolvers: {len(broken)} problem(s) in games' mechanics.py (above): their resolvers are "
              "missing from this list\n")
    return EXIT_ERRORS


def _list_resolvers(resolvers: list["Resolver"], args: argparse.Namespace, out: TextIO) -> None:
    """``kb resolvers``' list: as JSON, or as text (with the labels unless ``--no-labels``)."""
    if args.json:
        write_json(out, [r.to_dict() for r in resolvers])
        return
    for r in resolvers:
        _resolver_text(r, args.labels, out)


def _no_resolver(kb: "KnowledgeBase", prefix: str, err: TextIO) -> int:
    """``kb resolvers PREFIX`` matching none: said, with the beginnings the names have (exit 2, as ``kb test nope``)."""
    heads = sorted({f"{name.split('.')[0]}." for name in kb.registry.names()})
    err.write(printable(f"kb resolvers: no resolver starts with '{prefix}'{hint(prefix, heads)}; names start with "
                        f"{', '.join(heads)}") + "\n")
    return EXIT_USAGE


def _resolver_text(r: "Resolver", labels: bool, out: TextIO) -> None:
    """One resolver as ``kb resolvers`` lists it: its call, its doc, its inputs' ranges and (``labels``) its words."""
    ins = ", ".join(f"{k}{'' if k in r.required else '?'}" for k in r.inputs)
    out.write(printable(f"{r.name}({ins}) -> {', '.join(r.outputs)}") + f"\n    {printable(one_line(r.doc))}\n")
    for path, keywords in r.ranges().items():
        out.write(printable(f"    range {path}: {_range_words(keywords)}") + "\n")
    if labels:
        for word in r.vocabulary():
            out.write(printable(f"      {word}: {r.label(word, 'es') or '?'} / {r.label(word, 'en') or '?'}") + "\n")


def _range_words(keywords: Mapping[str, Any]) -> str:
    """A declared range or set of values in words: ``from 2 to 12``, ``one of 2d6, d20``."""
    from kb.examples.runner import describe_keys, describe_length, describe_range
    from kb.mechanics import COVERS, KEYS_FROM, ROLLED_ON, WINDOW

    words = [describe_range(keywords)] if "minimum" in keywords or "maximum" in keywords else []
    words += ["the calculator's own coverage (the rule sets no limit)"] * bool(keywords.get(COVERS))
    words += [f"what the dice of '{keywords.get(ROLLED_ON)}' roll"] * (ROLLED_ON in keywords)
    if WINDOW in keywords:
        low, high = keywords[WINDOW]
        words.append(f"a calculator offers {describe_range({'minimum': low, 'maximum': high})}")
    if "enum" in keywords:
        words.append("one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in keywords["enum"]))
    if "minItems" in keywords or "maxItems" in keywords:
        words.append(describe_length(keywords))
    if KEYS_FROM in keywords:
        words.append(describe_keys(keywords))
    return "; ".join(words)


# ---------------------------------------------------------------- kb build
def _build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from importlib.util import find_spec

    from kb.cli import build as site_build

    missing = [name for name in ("mkdocs", "material", "pymdownx") if find_spec(name) is None]
    if missing:
        err.write(f"kb build: the site needs the 'site' extra ({', '.join(missing)} not installed): "
                  "pip install 'kb-rules[site]' (or 'PATH/TO/kb_rules-*.whl[site]')\n")
        return EXIT_USAGE

    content = _site_content(args)
    config = Path(args.config) if args.config else site_build.config_beside(content or Path())
    if not config.is_file():
        where = "" if args.config else (f" (none beside the content folder {content}: give the site's settings "
                                        "with --config FILE)")
        err.write(f"kb build: {config}: no such file{where}\n")
        return EXIT_USAGE
    site = Path(args.site_dir) if args.site_dir else None
    if not args.json:
        return site_build.build(config, site, args.strict, content, out, err, args.clean)
    progress, problems = io.StringIO(), io.StringIO()
    code = site_build.build(config, site, args.strict, content, progress, problems, args.clean)
    write_json(out, {"ok": code == 0, "exit": code, "progress": progress.getvalue().splitlines(),
                     "problems": problems.getvalue().splitlines()})
    return code


def _site_content(args: argparse.Namespace) -> Path | None:
    """The content ``kb build`` reads, found as every command finds it (``--content``, ``$KB_CONTENT``, else upward:
    :class:`NoContent`, exit 2, when there is none); its ``mkdocs.yml`` is the one beside it. ``--config`` alone:
    None, the content that file's plugin names."""
    return _root(args) if args.content or os.environ.get("KB_CONTENT") or not args.config else None


# ---------------------------------------------------------------- kb init / kb new
def _init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kb.cli.scaffold import ScaffoldError, init_pack

    folder = Path(args.folder)
    try:
        written = init_pack(folder, args.game, args.name_es, args.name_en)
    except ScaffoldError as exc:
        err.write(f"kb init: {printable(str(exc))}\n")
        return EXIT_USAGE
    except OSError as exc:
        err.write(f"kb init: {exc.filename or folder}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    if args.json:
        write_json(out, {"pack": str(folder), "game": args.game, "files": [str(p) for p in written]})
        return EXIT_OK
    out.write(f"made a rules pack in {folder}: {len(written)} files, game '{args.game}'\n"
              f"next: cd {folder} && kb check && kb test && kb build\n")
    return EXIT_OK


def _new(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kb.cli.scaffold import ScaffoldError, new_entry

    try:
        path = new_entry(_root(args), args.kind, args.id)
    except ScaffoldError as exc:
        err.write(f"kb new: {printable(str(exc))}\n")  # an id typed with a line break: one line
        return EXIT_USAGE
    except OSError as exc:  # a read-only folder, a full disk: nothing was written
        err.write(f"kb new: {exc.filename or args.id}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    if args.json:
        write_json(out, {"id": args.id, "kind": args.kind, "path": str(path)}, indent=None)
    else:
        out.write(f"{path}\n")
    return EXIT_OK


# ---------------------------------------------------------------- kb completion
def _completion(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import shtab

    out.write(shtab.complete(build_parser(), shell=args.shell))
    return EXIT_OK


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (``importlib.metadata`` costs every command
    tens of milliseconds)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        sys.stdout.write(f"kb {_version()}\n")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kb-rules")
    except PackageNotFoundError:
        return "unknown (not installed)"


# ---------------------------------------------------------------- kb i18n
def _i18n(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kb.cli import i18n as i18n_cli

    return i18n_cli.run(args, _load(args), out, err)


def _docs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kb.cli.docs import docs

    return docs(args.topic, out, err)


def _check_args(c: argparse.ArgumentParser) -> None:
    c.add_argument("path", nargs="?", help="content folder, game folder or file (default: all the content)")
    c.add_argument("--json", dest="format", action="store_const", const="json", help="print a JSON array")
    c.add_argument("--format", choices=("text", "json"), default="text", help="output format (--json is the same as --format json)")
    c.add_argument("--strict", action="store_true", help="fail on warnings too")
    c.add_argument("--no-warnings", action="store_true", help="print errors only")
    c.add_argument("--suggest", action="store_true",
                   help='also suggest a "see also" for entries that have none (shared terms and concepts)')
    c.set_defaults(func=_check)


def _show_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("id", help="entry id, <game>.<slug> (kb search lists each result's), or ID#ANCHOR: the entry, "
                   "then the passage the anchor names (a search hit's passage, a step-..., a text-2)")
    s.add_argument("--lang", choices=LANGS, default="es", help="language (default: es)")
    s.add_argument("--json", action="store_true", help="print the entry's data as JSON")
    s.set_defaults(func=_show)


def _test_args(t: argparse.ArgumentParser) -> None:
    t.add_argument("select", nargs="*", help="entry ids, games, ID#EXAMPLE, files or folders of the content "
                   "(their entries' examples), or FILE#EXAMPLE (one example of the entry in FILE) (default: all)")
    t.add_argument("--json", action="store_true",
                   help="print a JSON array, one object per example (a failed one with its given and trace)")
    t.set_defaults(func=_test)


def _search_args(q: argparse.ArgumentParser) -> None:
    q.add_argument("query", nargs="+", help="words to look for, e.g. linea de vision or LoS (several words are one "
                   "query, quoted or not)")
    q.add_argument("--lang", choices=LANGS, help="the reader's language: titles and snippets in it (default: the "
                   "language of the query's words, else es); both languages are searched either way")
    q.add_argument("--game", help="only this game")
    q.add_argument("--kind", choices=KINDS, help="only this kind of entry")
    q.add_argument("--limit", type=_positive, default=10, help="how many results, 1 or more (default: 10)")
    q.add_argument("--json", action="store_true", help="print a JSON object: query, did_you_mean, total, by_game and "
                   "hits (each with its passage, whose anchor kb show ID#ANCHOR takes)")
    q.set_defaults(func=_search)
    if isinstance(q, _Parser):
        q.intermixed = True  # kb search linea --limit 2 de vision: the query is «linea de vision»


def _resolvers_args(r: argparse.ArgumentParser) -> None:
    r.add_argument("prefix", nargs="?", help="only names starting with this, e.g. dice. or <game>.")
    r.add_argument("--no-labels", dest="labels", action="store_false",
                   help="leave out the Spanish / English label of each input, output and value")
    r.add_argument("--json", action="store_true", help="print a JSON array")
    r.set_defaults(func=_resolvers)


def _build_args(b: argparse.ArgumentParser) -> None:
    b.add_argument("--site-dir", metavar="DIR", help="output folder (default: site_dir of mkdocs.yml); replaced whole, "
                   "and only when it is empty or a site kb build made")
    b.add_argument("--strict", action="store_true",
                   help="fail on content errors and failed worked examples (before any page is rendered) and on the "
                        "build's own warnings; content warnings fail it only with the plugin's fail_on_warnings: true "
                        "(kb check --strict fails on them)")
    b.add_argument("--clean", action="store_true",
                   help="render every page again (by default a page whose inputs did not change since the last build "
                        "of the same folder is copied from it)")
    b.add_argument("--config", metavar="FILE", help="mkdocs.yml to use (default: the one in the folder holding the content folder)")
    b.add_argument("--json", action="store_true", help="print the outcome, progress lines and problems as JSON")
    b.set_defaults(func=_build)


def _init_args(n: argparse.ArgumentParser) -> None:
    n.add_argument("folder", help="a new or empty folder")
    n.add_argument("--game", default="my-game", help="the game's slug (default: my-game)")
    n.add_argument("--name-es", default="Mi juego", help="the game's Spanish name")
    n.add_argument("--name-en", default="My game", help="the game's English name")
    n.add_argument("--json", action="store_true", help="print what was made as JSON")
    n.set_defaults(func=_init)


def _new_args(w: argparse.ArgumentParser) -> None:
    w.add_argument("kind", choices=GAME_KINDS,
                   help="the kind of entry")
    w.add_argument("id", help="<game>.<slug>: one of the content's games and a new slug, lowercase with hyphens")
    w.add_argument("--json", action="store_true", help="print what was made as JSON")
    w.set_defaults(func=_new)


def _docs_args(g: argparse.ArgumentParser) -> None:
    g.add_argument("topic", nargs="?", metavar="TOPIC", help="packs, format or translators")
    g.set_defaults(func=_docs)


def _completion_args(m: argparse.ArgumentParser) -> None:
    m.add_argument("shell", choices=("bash", "zsh", "tcsh"), help="the shell")
    m.set_defaults(func=_completion)


_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": ("validate the content: one line per problem, exit 1 on errors", _check_args),
    "show": ("print one entry for a player", _show_args),
    "test": ("run the worked examples", _test_args),
    "search": ("find rules by any name, in Spanish or English, with typos", _search_args),
    "resolvers": ("list the resolvers examples can use, with inputs and outputs", _resolvers_args),
    "build": ("build the bilingual site (site/es/, site/en/), replacing the old one only on success", _build_args),
    "init": ("make a new rules pack: a game, one entry of each kind, mkdocs.yml, README", _init_args),
    "new": ("add an entry from a template, e.g. kb new rule <game>.<slug>", _new_args),
    "docs": ("print the authors' guide: kb docs lists its pages, kb docs TOPIC prints one", _docs_args),
    "completion": ("print a shell completion script: kb completion bash > ~/.local/share/bash-completion/completions/kb",
                   _completion_args),
}
"""Each sub-command (but ``i18n``, registered by :mod:`kb.cli.i18n`): its help line and what adds its arguments."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every subcommand; with ``only``, of that one alone (a process runs one command: each
    parser argparse makes costs it tens of microseconds, issue 31)."""
    p = _Parser(prog="kb", description="Bilingual rules knowledge base: check, show, test, search, build, translate.",
                epilog="The authors' guide ships with kb: 'kb docs' lists its pages (packs, format, translators), "
                       "'kb docs packs' prints the first.")
    p.add_argument("--version", action=_Version, nargs=0, help="show program's version number and exit")
    p.add_argument("--content", metavar="PATH", help=CONTENT_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (help_line, add_arguments) in _COMMANDS.items():
        if only in (None, name):
            add_arguments(sub.add_parser(name, help=help_line))
    if only in (None, "i18n"):
        from kb.cli import i18n as i18n_cli

        i18n_cli.add_parser(sub, _i18n)
    _content_everywhere(p)
    return p


def _command(argv: list[str]) -> str | None:
    """The sub-command ``argv`` names, read as the full parser reads it (options before it, abbreviated or not);
    None when it names none, or asks for the top-level help or version: then the full parser is needed."""
    first = _Parser(prog="kb", add_help=False)
    first.add_argument("-h", "--help", action="store_true")
    first.add_argument("--version", action="store_true")
    first.add_argument("--content")
    first.add_argument("command", nargs="?")
    first.add_argument("rest", nargs=argparse.REMAINDER)
    try:
        known, _ = first.parse_known_args(argv)
    except _Usage:
        return None
    if known.help or known.version or (known.command not in _COMMANDS and known.command != "i18n"):
        return None
    return str(known.command)


class _Terminal(io.TextIOBase):
    """A stream that writes control characters as visible escapes (``\\x1b``): nothing a command prints, whatever
    the content holds, clears a screen, moves the cursor or fakes a line. Line breaks and tabs pass."""

    def __init__(self, stream: TextIO, name: str = "standard output") -> None:
        self.stream, self.name = stream, name

    def write(self, text: str) -> int:
        try:
            self.stream.write(visible(text))
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk under a redirected output: say which stream
            raise OSError(exc.errno, exc.strerror, self.name) from exc
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"


def run(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run ``kb`` with ``argv``; returns the exit code (0 ok, 1 errors found, 2 usage)."""
    stdout, stderr = _Terminal(stdout), _Terminal(stderr, "standard error")  # type: ignore[assignment]
    try:
        args = build_parser(_command(argv)).parse_args(argv)
    except _Usage as exc:
        stderr.write(str(exc))
        return EXIT_USAGE
    except SystemExit as exc:  # --help and --version print and "exit" 0
        return int(exc.code or 0)
    try:
        code: int = args.func(args, stdout, stderr)
        return code
    except NoContent as exc:
        stderr.write(f"kb {args.command}: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        raise
    except OSError as exc:  # a fault of the machine (a full disk, a read-only or unreadable folder): one line
        command = " ".join(filter(None, (args.command, getattr(args, "i18n_command", None))))
        stderr.write(f"kb {command}: {os_problem(exc, unnamed='(a file it does not name)')}\n")
        return EXIT_USAGE


def _drop_stdout() -> None:
    """Point standard output at the null device: Python's flush at exit must not fail (and print) again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kb`` console script."""
    # NumPy only sums arrays here (kb.search.query), never calls BLAS: OpenBLAS's thread pool, started when NumPy
    # is imported, costs a query process about 40 ms of CPU and more of wall time on a busy machine (issue 31)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show a character gets '?', not a traceback
        if hasattr(stream, "reconfigure") and (stream.encoding or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(errors="replace")
    code = EXIT_OK
    try:
        code = run(sys.argv[1:] if argv is None else argv, sys.stdout, sys.stderr)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # `kb ... | head` closed the pipe: stop quietly
        _drop_stdout()
        return EXIT_OK
    except OSError as exc:  # the rest of the output cannot be written (a full disk): said once, not again at exit
        _drop_stdout()
        if code != EXIT_USAGE:  # else ``run`` has said it
            sys.stderr.write(f"kb: {os_problem(exc)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
