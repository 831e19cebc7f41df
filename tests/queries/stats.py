"""Validate the players' query set (players-tune.yaml, players-heldout.yaml) and print its counts.

    python tests/queries/stats.py [--content DIR]

Checks: every item has exactly the fields q, lang, game, style, expect with allowed values; every
expected id exists in the content and belongs to the item's game (or to ``common``); no query is
written twice (case, accents and spacing ignored); at most 15 % of the queries are exactly an
entry's title; every style has >= 40 queries and every game >= 55. Errors are printed as
``path:line:col: error[code]: message`` and the exit status is 1.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CONTENT = HERE.parent.parent / "content"
FILES = {"tune": HERE / "players-tune.yaml", "heldout": HERE / "players-heldout.yaml"}
FIELDS = ("q", "lang", "game", "style", "expect")
LANGS = ("es", "en")
STYLES = ("question", "paraphrase", "jargon", "typo", "cross-language", "keyword")
MAX_EXACT_TITLE_SHARE = 0.15
MIN_PER_STYLE = 40
MIN_PER_GAME = 55

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Query:
    part: str  # "tune" or "heldout"
    where: str  # "path:line:col"
    q: str
    lang: str
    game: str
    style: str
    expect: tuple[str, ...]


def fold(text: str) -> str:
    """Case, accents, punctuation and spacing folded away: how 'the same words' is judged."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[¿?¡!.,;:\"'«»()\[\]]", " ", text)
    return " ".join(text.split())


@functools.lru_cache(maxsize=4)
def content_index(content: Path = CONTENT) -> tuple[set[str], dict[str, set[str]]]:
    """The games (folders with a game.yaml) and, per entry id, its folded titles."""
    games = {p.parent.name for p in content.glob("*/game.yaml")}
    titles: dict[str, set[str]] = {}
    for path in sorted(content.glob("**/*.yaml")):
        if path.name == "game.yaml":
            continue
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
        if not isinstance(data, dict) or "id" not in data:
            continue
        title = data.get("title")
        values = title.values() if isinstance(title, dict) else [title]
        titles[str(data["id"])] = {fold(str(t)) for t in values if t}
    return games, titles


def _scalar(node) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def read(part: str, path: Path, errors: list[str]) -> list[Query]:
    """The queries of one file; shape errors go to ``errors``, located."""
    def err(node, code: str, msg: str) -> None:
        m = node.start_mark if node is not None else None
        line, col = (m.line + 1, m.column + 1) if m else (1, 1)
        errors.append(f"{path}:{line}:{col}: error[{code}]: {msg}")

    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=Loader)
    except (OSError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        errors.append(f"{path}:{line}:{col}: error[unreadable]: {exc.__class__.__name__}: "
                      f"{getattr(exc, 'problem', None) or exc}")
        return []
    top = dict((_scalar(k), v) for k, v in root.value) if isinstance(root, yaml.MappingNode) else {}
    items = top.get("queries")
    if not isinstance(items, yaml.SequenceNode):
        err(root, "shape", "the file must be a mapping with a 'queries:' list")
        return []
    out = []
    for node in items.value:
        if not isinstance(node, yaml.MappingNode):
            err(node, "shape", "each query is a mapping {q, lang, game, style, expect}")
            continue
        fields = {}
        for k, v in node.value:
            key = _scalar(k)
            if key not in FIELDS:
                err(k, "field", f"unknown field {key!r}; allowed: {', '.join(FIELDS)}")
            fields[key] = v
        missing = [f for f in FIELDS if f not in fields]
        if missing:
            err(node, "field", f"missing field(s): {', '.join(missing)}")
            continue
        values = {f: _scalar(fields[f]) for f in ("q", "lang", "game", "style")}
        bad = [f for f, v in values.items() if not v or not v.strip()]
        if bad:
            err(node, "value", f"field(s) {', '.join(bad)} must be non-empty text")
            continue
        exp = fields["expect"]
        ids = [_scalar(x) for x in exp.value] if isinstance(exp, yaml.SequenceNode) else []
        if not ids or any(not i for i in ids):
            err(exp, "value", "expect must be a non-empty list of entry ids")
            continue
        m = node.start_mark
        out.append(Query(part, f"{path}:{m.line + 1}:{m.column + 1}", values["q"],
                         values["lang"], values["game"], values["style"], tuple(ids)))
    return out


def validate(files: dict[str, Path] = FILES, content: Path = CONTENT) -> tuple[list[Query], list[str]]:
    """All queries and every problem found, as located messages."""
    errors: list[str] = []
    queries = [q for part, path in files.items() for q in read(part, path, errors)]
    games, titles = content_index(content)
    seen: dict[str, str] = {}
    for q in queries:
        def err(code: str, msg: str) -> None:
            errors.append(f"{q.where}: error[{code}]: {msg}")
        if q.lang not in LANGS:
            err("value", f"lang {q.lang!r} is not one of {', '.join(LANGS)}")
        if q.style not in STYLES:
            err("value", f"style {q.style!r} is not one of {', '.join(STYLES)}")
        if q.game not in games:
            err("value", f"game {q.game!r} is not a game of {content}")
        for ident in q.expect:
            if ident not in titles:
                err("unknown-id", f"expected id {ident!r} is not an entry of {content}")
            elif ident.split(".", 1)[0] not in (q.game, "common"):
                err("other-game", f"expected id {ident!r} belongs to another game than {q.game!r}")
        if len(set(q.expect)) != len(q.expect):
            err("duplicate", "an id is listed twice in expect")
        key = fold(q.q)
        if key in seen:
            err("duplicate", f"query {q.q!r} already written at {seen[key]}")
        else:
            seen[key] = q.where
    if queries:
        share = exact_title_share(queries, titles)
        if share > MAX_EXACT_TITLE_SHARE:
            errors.append(f"{files['tune']}:1:1: error[exact-titles]: {share:.1%} of the queries are "
                          f"exactly an entry title (at most {MAX_EXACT_TITLE_SHARE:.0%})")
        for name, counts, floor in (("style", Counter(q.style for q in queries), MIN_PER_STYLE),
                                    ("game", Counter(q.game for q in queries), MIN_PER_GAME)):
            wanted = STYLES if name == "style" else sorted(games)
            for value in wanted:
                if counts[value] < floor:
                    errors.append(f"{files['tune']}:1:1: error[too-few]: {name} {value!r} has "
                                  f"{counts[value]} queries (at least {floor})")
    return queries, errors


def exact_titles(queries: list[Query], titles: dict[str, set[str]]) -> list[Query]:
    """The queries that are exactly (folded) the title of some entry, in either language."""
    every = set().union(*titles.values()) if titles else set()
    return [q for q in queries if fold(q.q) in every]


def exact_title_share(queries: list[Query], titles: dict[str, set[str]]) -> float:
    return len(exact_titles(queries, titles)) / len(queries)


def table(queries: list[Query], field: str, values) -> str:
    rows = [f"| {field} | tune | heldout | all |", "|---|---:|---:|---:|"]
    for v in values:
        n = {p: sum(1 for q in queries if getattr(q, field) == v and q.part == p) for p in FILES}
        rows.append(f"| {v} | {n['tune']} | {n['heldout']} | {n['tune'] + n['heldout']} |")
    n = Counter(q.part for q in queries)
    rows.append(f"| **all** | {n['tune']} | {n['heldout']} | {len(queries)} |")
    return "\n".join(rows)


def report(queries: list[Query], content: Path = CONTENT) -> str:
    games, titles = content_index(content)
    exact = exact_titles(queries, titles)
    parts = [table(queries, "style", STYLES), table(queries, "lang", LANGS),
             table(queries, "game", sorted(games))]
    cross = Counter((q.game, q.lang) for q in queries)
    parts.append("| game | es | en |\n|---|---:|---:|\n" + "\n".join(
        f"| {g} | {cross[g, 'es']} | {cross[g, 'en']} |" for g in sorted(games)))
    parts.append(f"Exactly an entry title: {len(exact)} of {len(queries)} "
                 f"({len(exact) / max(len(queries), 1):.1%}; limit {MAX_EXACT_TITLE_SHARE:.0%}).")
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--content", type=Path, default=CONTENT, help="content folder (default: %(default)s)")
    args = parser.parse_args(argv)
    queries, errors = validate(FILES, args.content)
    for e in errors:
        print(e, file=sys.stderr)
    if queries:
        print(report(queries, args.content))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
