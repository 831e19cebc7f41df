"""The compact store: what a query reads of an index generation, in one SQLite file read with the standard library.

A ``kb search`` process answers one query and exits; opening Whoosh's index and importing NumPy cost it several
times what the query does (issue 31, item 6). So every index generation also holds ``compact.db``, written from
the committed Whoosh index whenever it is built or updated (:func:`write`): the documents' columns (entry, kind,
game, language, deleted or not) and field lengths as Whoosh stores them, every term's document frequency,
postings (document numbers and term frequencies, deleted documents left in, as :mod:`kb.search.whoosh_access`
reads them) and positions, each document's stored fields, and ``N`` and the average field lengths. A query
process opens it read-only and reads only the rows of its terms.

:class:`Compact` answers what :func:`kb.search.query.query` asks of a searcher's statistics, and its
:data:`KERNELS` do the arithmetic of :data:`kb.search.query._KERNELS` in plain Python, operation for operation in
the same order: the same floats, the same document numbers, the same hits (``tests/test_search_compact.py``
compares both for every query of every relevance set). The formulas stay in :mod:`kb.search.ranking`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from array import array
from functools import partial
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from kb.core.model import LANGS
from kb.search import query as search
from kb.search import ranking

__all__ = ["FILE", "Compact", "write", "KERNELS"]

FILE = "compact.db"
"""The compact store's name in a generation's folder."""
FORMAT = 2
"""Bump when the tables change (the index's ``VERSION`` rebuilds older generations)."""
COLUMNS = ("entry", "kind", "game", "lang")

_TABLES = """
CREATE TABLE head(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE lengths(field TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID;
CREATE TABLE terms(field TEXT, term TEXT, df INTEGER, listed INTEGER, ids BLOB, tfs BLOB, positions BLOB,
                   PRIMARY KEY(field, term)) WITHOUT ROWID;
CREATE TABLE stored(doc INTEGER PRIMARY KEY, data TEXT);
"""


def write(gen: Path) -> None:
    """Write ``gen``'s compact store from its committed Whoosh index, replacing any older one atomically.

    Safe without the writers' lock: Whoosh's files are listed (size, time) before the index is opened, so a
    commit by another process during the read leaves a store whose list differs from the files, which
    :func:`state` calls damaged (rebuilt), never one served for an index it was not read from."""
    from kb.core.files import atomic_write
    from kb.search import whoosh_access

    sources = _sources(gen)
    fields = [f"{name}_{lg}" for lg in LANGS for name in ranking.FIELDS]
    with search.open_dir(gen).searcher() as s:
        reader = s.reader()
        n = s.doc_count_all()
        db = sqlite3.connect(":memory:")
        db.executescript(_TABLES)
        alive = [not reader.is_deleted(d) for d in range(n)] if reader.has_deletions() else [True] * n
        head = {"format": FORMAT, "n": n, "alive": alive, "sources": sources, "avg": _averages(s, fields),
                "columns": _columns(reader, n)}
        db.execute("INSERT INTO head VALUES ('head', ?)", (json.dumps(head, ensure_ascii=False),))
        db.executemany("INSERT INTO lengths VALUES (?, ?)",
                       [(f, array("i", whoosh_access.field_lengths(reader, f)).tobytes()) for f in fields])
        for f in (*fields, *(f"spell_{lg}" for lg in LANGS)):
            db.executemany("INSERT INTO terms VALUES (?, ?, ?, ?, ?, ?, ?)", _term_rows(reader, f, f in fields))
        db.executemany("INSERT INTO stored VALUES (?, ?)",
                       [(d, json.dumps(s.stored_fields(d), ensure_ascii=False)) for d in range(n) if alive[d]])
        db.commit()
        data = db.serialize()
        db.close()
    atomic_write(gen / FILE, data)


def _averages(s: Any, fields: Sequence[str]) -> dict[str, float]:
    return {f: s.avg_field_length(f) or 1.0 for f in fields}  # as query._Stats.avg


def _columns(reader: Any, n: int) -> dict[str, list[str]]:
    return {c: list(reader.column_reader(c)) if n else [] for c in COLUMNS}


def _term_rows(reader: Any, fieldname: str, scored: bool) -> Iterator[tuple[Any, ...]]:
    """A row of the ``terms`` table for each term of ``fieldname``: postings and positions only when ``scored``."""
    from kb.search import whoosh_access

    for btext, info in reader.iter_field(fieldname):
        term = btext.decode("utf-8") if isinstance(btext, bytes) else btext
        df = reader.doc_frequency(fieldname, term)
        ids, tfs, places = array("i"), array("d"), array("i")
        if scored and df:
            for offset, block_ids, block_tfs in whoosh_access.blocks(reader, fieldname, term):
                ids.extend(offset + int(i) for i in block_ids)
                tfs.extend(float(t) for t in block_tfs)
            for doc, at in reader.postings(fieldname, term).items_as("positions"):
                places.extend([doc, len(at), *at])
        yield fieldname, term, df, info.doc_frequency(), ids.tobytes(), tfs.tobytes(), places.tobytes()


def _codes(values: Sequence[str]) -> tuple[list[str], list[int]]:
    """The distinct values of a column and each document's index into them (as ``query._codes``, in a list)."""
    distinct = sorted(set(values))
    where = {v: i for i, v in enumerate(distinct)}
    return distinct, [where[v] for v in values]


class Compact:
    """A generation's compact store, open read-only: the statistics :func:`kb.search.query.query` reads (it is its own
    ``reader`` too: the word list and the passages ask it for document frequencies)."""

    def __init__(self, gen: Path) -> None:
        self.path = gen / FILE
        try:
            self._stamp = _stamp(self.path)
            self.db = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro&immutable=1", uri=True)
            head = self._head()
            if head.get("format") != FORMAT:
                raise search.SearchError(f"{self.path}: compact store of format {head.get('format')!r}, not {FORMAT}")
            self.sources: dict[str, list[int]] = head["sources"]
            """(size, modification time) of each Whoosh file it was written from, by name."""
            self.n: int = head["n"]
            self.avg: dict[str, float] = head["avg"]
            self.alive: list[bool] = head["alive"]
            cols: dict[str, list[str]] = head["columns"]
        except (sqlite3.Error, OSError, ValueError, TypeError, KeyError) as exc:
            raise search.SearchError(f"{type(exc).__name__}: {exc}") from exc
        self.reader = self
        self.codes = {c: _codes(cols[c]) for c in COLUMNS}
        entries, entry_ix = self.codes["entry"]
        self.entry_game = [0] * len(entries)
        for d, g in enumerate(self.codes["game"][1]):
            self.entry_game[entry_ix[d]] = g
        self.doc_of = {(e, lang): d for d, (e, lang) in enumerate(zip(cols["entry"], cols["lang"], strict=True))
                       if self.alive[d]}
        self._terms: dict[tuple[str, str], tuple[int, int, bytes, bytes, bytes] | None] = {}
        self._norms: dict[tuple[str, float, float], list[float]] = {}
        self._postings: dict[tuple[str, str], tuple[list[int], list[float], int]] = {}
        self.positions: dict[tuple[str, str], dict[int, frozenset[int]]] = {}
        self._stored: dict[int, dict[str, Any]] = {}
        self._words: dict[Any, tuple[Any, search.Vocabulary]] = {}

    def _head(self) -> Any:
        """The store's head, parsed once while its stamp holds (:data:`_HEADS`: a query process checks the store, then
        opens it: issue 31). A store is replaced, never edited (a new inode); a stamp under two seconds old is not
        trusted."""
        seen = _HEADS.get(str(self.path))
        if seen is not None and seen[0] == self._stamp:
            return seen[1]
        head = json.loads(self._one("SELECT value FROM head WHERE key = 'head'", ())[0])
        if len(_HEADS) > 32:  # a long-lived process sees many generations: keep only the recent ones
            _HEADS.clear()
        if time.time_ns() - self._stamp[1] > 2_000_000_000:
            _HEADS[str(self.path)] = (self._stamp, head)
        return head

    kernels: search.Kernels
    def words(self, expand: Any, p: ranking.Params, lists: Any = None, extra: Any = ()) -> search.Vocabulary:
        """The word list, as ``query._Stats.words``."""
        return search.vocabulary(self, self._words, expand, p, lists, extra)

    def _one(self, sql: str, args: tuple[Any, ...]) -> Any:
        try:
            return self.db.execute(sql, args).fetchone()
        except sqlite3.Error as exc:
            raise search.SearchError(f"{self.path}: {type(exc).__name__}: {exc}") from exc

    def _term(self, fieldname: str, term: str) -> tuple[int, int, bytes, bytes, bytes] | None:
        key = (fieldname, term)
        if key not in self._terms:
            self._terms[key] = self._one("SELECT df, listed, ids, tfs, positions FROM terms WHERE field = ? AND term = ?",
                                         key)
        return self._terms[key]

    def doc_count_all(self) -> int:
        """``N``: documents in the index, deleted ones included until merged (Whoosh's ``doc_count_all``)."""
        return self.n

    def doc_frequency(self, fieldname: str, term: str) -> int:
        """Documents whose ``fieldname`` holds ``term`` (Whoosh's ``doc_frequency``)."""
        row = self._term(fieldname, term)
        return int(row[0]) if row else 0

    def postings(self, fieldname: str, term: str) -> tuple[list[int], list[float], int]:
        """(document numbers, term frequencies, document frequency) of a term."""
        key = (fieldname, term)
        found = self._postings.get(key)
        if found is None:
            row = self._term(fieldname, term)
            ids, tfs = array("i"), array("d")
            if row:
                ids.frombytes(row[2])
                tfs.frombytes(row[3])
            found = self._postings[key] = (ids.tolist(), tfs.tolist(), int(row[0]) if row else 0)
        return found

    def norms(self, fieldname: str, k1: float, b: float) -> list[float]:
        """``K1 × (1 − B + B × fl / avgfl)`` of every document for ``fieldname`` (as ``query._Stats.norms``)."""
        key = (fieldname, k1, b)
        found = self._norms.get(key)
        if found is None:
            row = self._one("SELECT data FROM lengths WHERE field = ?", (fieldname,))
            lengths = array("i")
            if row:
                lengths.frombytes(row[0])
            base, per = k1 * (1 - b), k1 * b / self.avg[fieldname]
            found = self._norms[key] = [base + per * fl for fl in lengths]
        return found

    def term_positions(self, fieldname: str, term: str) -> dict[int, frozenset[int]]:
        """Document → positions of ``term`` in ``fieldname``."""
        key = (fieldname, term)
        table = self.positions.get(key)
        if table is None:
            row = self._term(fieldname, term)
            flat = array("i")
            if row:
                flat.frombytes(row[4])
            table = self.positions[key] = {}
            i = 0
            while i < len(flat):
                count = flat[i + 1]
                table[flat[i]] = frozenset(flat[i + 2:i + 2 + count])
                i += 2 + count
        return table

    def stored(self, doc: int) -> dict[str, Any]:
        """The stored fields of a document."""
        found = self._stored.get(doc)
        if found is None:
            row = self._one("SELECT data FROM stored WHERE doc = ?", (doc,))
            if row is None:
                raise search.SearchError(f"{self.path}: no stored fields for document {doc}")
            found = self._stored[doc] = json.loads(row[0])
        return found

    def near(self, fieldname: str, word: str, p: ranking.Params) -> list[tuple[str, int]]:
        """As ``query._Stats.near``: indexed words of ``fieldname`` with ``word``'s first letters, their length within
        :func:`ranking.max_distance` of its length."""
        if not word:
            return []
        d, head = ranking.max_distance(word, p.short_word), word[:p.same_prefix]
        try:
            rows = self.db.execute("SELECT term, listed FROM terms WHERE field = ? AND term != '' AND substr(term, 1, ?) = ? "
                                   "AND length(term) BETWEEN ? AND ?",
                                   (fieldname, p.same_prefix, head, len(word) - d, len(word) + d)).fetchall()
        except sqlite3.Error as exc:
            raise search.SearchError(f"{self.path}: {type(exc).__name__}: {exc}") from exc
        return [(t, int(n)) for t, n in rows]

    def up_to_date(self) -> bool:
        """True while the file is the one opened (an update replaces it)."""
        return _stamp(self.path) == self._stamp

    def refresh(self) -> "Compact":
        """The store as it now is."""
        self.close()
        return Compact(self.path.parent)

    def close(self) -> None:
        """Release the file."""
        self.db.close()


_HEADS: dict[str, tuple[tuple[int, int], Any]] = {}
"""Each store's head by path while its (inode, time) holds: :func:`state` and the reader open the same store."""


def _stamp(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns


def _sources(gen: Path) -> dict[str, list[int]]:
    """(size, modification time) of each of Whoosh's files in ``gen`` (its segments and tables of contents)."""
    return {name: [(st := os.stat(gen / name)).st_size, st.st_mtime_ns] for name in sorted(os.listdir(gen))
            if name.endswith((".seg", ".toc"))}


def state(gen: Path) -> str:
    """``ok`` when ``gen``'s compact store reads and Whoosh's files are those it was written from; ``missing`` when
    there is none (a writer that does not read it leaves none); else what is wrong."""
    if not (gen / FILE).exists():
        return "missing"
    try:
        store = Compact(gen)
    except search.SearchError:
        return "unreadable"
    store.close()
    try:
        same = _sources(gen) == store.sources
    except OSError:
        same = False
    return "ok" if same else "the index files changed since its compact store was written"


# ---------------------------------------------------------------- the arithmetic, in plain Python


def factors(st: Compact, exact: frozenset[str], context: str | None, p: ranking.Params, general: bool = False) -> list[float]:
    """``query.factors`` per document, in a list."""
    kinds, kind_ix = st.codes["kind"]
    games, game_ix = st.codes["game"]
    table = [[[ranking.entry_factor(k, g, "", frozenset({""}) if is_named else frozenset(), context, p, general)
               for is_named in (False, True)] for g in games] for k in kinds]
    named = {st.doc_of[(e, lang)] for e in exact for lang in LANGS if (e, lang) in st.doc_of}
    return [table[kind_ix[d]][game_ix[d]][d in named] for d in range(st.n)]


def filters(st: Compact, game: str | None, kind: str | None, named: frozenset[str] = frozenset()) -> list[list[bool]]:
    """``query.filters`` per document, in lists."""
    keep = list(st.alive)
    for column, value in (("game", game), ("kind", kind)):
        if value is not None:
            keep = _only(st, keep, column, {value})
    if not named:
        return [keep]
    return [_only(st, keep, "game", named), keep]


def _only(st: Compact, keep: list[bool], column: str, wanted: Iterable[str]) -> list[bool]:
    """``keep`` and the documents whose ``column`` is one of ``wanted``."""
    values, ix = st.codes[column]
    where = {values.index(v) for v in wanted if v in values}
    return [k and i in where for k, i in zip(keep, ix, strict=True)]


def score(st: Compact, slots: Sequence[search.Slot], factor: Sequence[float], keep: Sequence[bool],
          p: ranking.Params) -> tuple[list[int], list[float]]:
    """``query.score`` over the documents a term names, in dictionaries: each sum in the same order."""
    k1 = p.bm25_k1
    acc: dict[int, float] = {}
    matched: dict[int, int] = {}
    counted = 0
    for slot in slots:
        hit: set[int] | None = set() if slot.counts else None
        found = False
        for (fieldname, term), weight in slot.clauses.items():
            ids, tfs, df = st.postings(fieldname, term)
            if not df:
                continue
            found = True
            scale = weight * ranking.idf(st.n, df) * (k1 + 1)
            norms = st.norms(fieldname, k1, p.bm25_b[fieldname.rsplit("_", 1)[0]])
            for d, tf in zip(ids, tfs, strict=True):
                acc[d] = acc.get(d, 0.0) + scale * tf / (tf + norms[d])
            if hit is not None:
                hit.update(ids)
        if hit is not None and found:
            for d in hit:
                matched[d] = matched.get(d, 0) + 1
            counted += 1
    coord = [ranking.coordination(m, counted, p.coordination) for m in range(counted + 1)]
    docs = sorted(d for d, v in acc.items() if v != 0 and keep[d])
    return docs, [acc[d] * factor[d] * coord[matched.get(d, 0)] for d in docs]


def _best_first(docs: Sequence[int], values: Sequence[float]) -> list[int]:
    """Indexes of ``docs`` by score, highest first, then by document number (``np.lexsort((docs, -values))``)."""
    return sorted(range(len(docs)), key=lambda i: (-values[i], docs[i]))


def proximity(st: Compact, docs: Sequence[int], values: Sequence[float], said: Sequence[str], p: ranking.Params,
              vocab: search.Vocabulary) -> list[float]:
    """``query.proximity``, in lists."""
    out = list(values)
    if not (p.proximity_boost or p.coverage_boost) or not docs:
        return out
    langs, lang_ix = st.codes["lang"]
    terms = search.stage_terms(said, vocab)
    for i in _best_first(docs, values)[:p.proximity_depth]:
        doc = docs[i]
        lg = langs[lang_ix[doc]]
        out[i] *= search.stage_factor(partial(_positions, st, doc), terms[lg], lg, p)
    return out


_NONE: frozenset[int] = frozenset()


def _positions(st: Compact, doc: int, field: str, term: str) -> frozenset[int]:
    return st.term_positions(field, term).get(doc, _NONE)


def collect(st: Compact, text: str, docs: Sequence[int], values: Sequence[float], want_lang: str | None, limit: int,
            did_you_mean: str | None, fuzzy: bool, marks: search.Marks, context: str | None,
            sections: Mapping[str, float]) -> search.Result:
    """``query._collect``, in lists."""
    entries, entry_ix = st.codes["entry"]
    games = st.codes["game"][0]
    found = {entry_ix[d] for d in docs}
    counts = [0] * len(games)
    for e in found:
        counts[st.entry_game[e]] += 1
    by_game = {g: c for g, c in zip(games, counts, strict=True) if c}
    best: dict[str, tuple[float, int]] = {}
    for i in _best_first(docs, values)[:2 * limit]:  # an entry has two documents
        best.setdefault(entries[entry_ix[docs[i]]], (float(values[i]), int(docs[i])))
    return search.Result(text, search.make_hits(st, list(best.values())[:limit], want_lang, marks, sections), len(found), by_game,
                         did_you_mean, fuzzy, context)


KERNELS = search.Kernels(factors, filters, score, proximity, collect)
"""The compact store's arithmetic."""
Compact.kernels = KERNELS
