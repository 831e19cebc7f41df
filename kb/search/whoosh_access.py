"""The one place that reads Whoosh below its public API, for speed, each read with a public fallback.

Scoring (:mod:`kb.search.query`) needs every posting of a term and every document's field length as
arrays. Whoosh's public API gives them one method call per posting or per document; ``whoosh3`` (pinned
exactly in ``pyproject.toml``) decodes a block of up to 128 postings into arrays and keeps a segment's
field lengths in one column, so reading those directly is several times faster. If a Whoosh upgrade
changes them, the public path is taken instead (same values, slower), and
``tests/test_whoosh_scores.py`` compares the scores built on these reads with Whoosh's own BM25F for
every query of the relevance sets.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Callable, Iterator, Sequence

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import TermNotFound

__all__ = ["blocks", "field_lengths", "segments", "segment_terms"]


def blocks(reader: Any, fieldname: str, term: str, fast: bool = True) -> Iterator[tuple[int, Sequence[int], Sequence[float]]]:
    """The postings of a term as (document offset, ids, term frequencies), a block at a time.

    Deleted documents are left in: the caller drops them. ``fast=False`` reads through the public API only.
    """
    for leaf, offset in reader.leaf_readers():
        try:
            m: Any = leaf.postings(fieldname, term)
        except TermNotFound:
            continue
        if isinstance(m, FilterMatcher):
            m = m.child
        if fast and isinstance(m, W3LeafMatcher) and hasattr(m, "_next_block"):
            w3: Any = m  # whoosh3 leaves its leaf matcher's methods untyped
            while w3.is_active():
                w3.id(), w3.weight()  # decode the block
                yield offset, w3._ids, w3._weights
                w3._next_block()
        else:
            ids, tfs = [], []
            while m.is_active():
                ids.append(m.id())
                tfs.append(m.weight())
                m.next()
            yield offset, ids, tfs


def field_lengths(reader: Any, fieldname: str, fast: bool = True) -> list[int]:
    """The length of ``fieldname`` in every document, in document order (1 where a document has none)."""
    out: list[int] = []
    for leaf, _offset in reader.leaf_readers():
        get = _length_reader(leaf, fieldname, fast)
        out += [get(d) or 1 for d in range(leaf.doc_count_all())]
    return out


def _length_reader(leaf: Any, fieldname: str, fast: bool) -> Callable[[int], int]:
    per_doc = getattr(leaf, "_perdoc", None) if fast else None
    if per_doc is not None and hasattr(per_doc, "doc_field_length_reader"):  # whoosh3: one column, read once
        fast_get: Callable[[int], int] = per_doc.doc_field_length_reader(fieldname, 1)
        return fast_get

    def get(d: int) -> int:
        return int(leaf.doc_field_length(d, fieldname, 1) or 0)
    return get


def segments(ix: Any, reader: Any) -> list[tuple[Any, int, str | None]]:
    """Each segment of the index ``reader`` reads (of ``ix``, opened from a folder): its reader, the number of its
    first document in ``reader``, and a digest of its files (a segment's files are written once, never changed: its
    deletions are kept apart, so the digest names what :func:`segment_terms` reads), ``None`` when they cannot be
    read (gone in a merge by another process, an index of no segment): nothing of it is then kept (issue 33)."""
    folder = getattr(getattr(ix, "storage", None), "folder", None)
    out: list[tuple[Any, int, str | None]] = []
    for leaf, offset in reader.leaf_readers():
        segment = leaf.segment()
        out.append((leaf, offset, _digest(str(folder), segment.segment_id()) if segment and folder else None))
    return out


def _digest(folder: str, segid: str) -> str | None:
    h = hashlib.sha256()
    try:
        names = sorted(n for n in os.listdir(folder) if n.startswith(segid + "."))
        for name in names:
            with open(os.path.join(folder, name), "rb") as fh:
                h.update(f"{name}\0{os.fstat(fh.fileno()).st_size}\0".encode())
                h.update(fh.read())
    except OSError:
        return None
    return h.hexdigest() if names else None


def segment_terms(leaf: Any, fieldname: str, postings: bool = True) -> list[list[Any]]:
    """Every term of ``fieldname`` in one segment (``leaf``, a segment's reader), in the lexicon's order: ``[term,
    document frequency]``, then when ``postings`` each document holding it (deleted ones included, numbered in the
    segment), its weight, the count of its positions and the positions: what a merged reader's ``lexicon``,
    ``doc_frequency`` and ``postings`` give, segment by segment."""
    out: list[list[Any]] = []
    for btext in leaf.lexicon(fieldname):
        text = btext.decode("utf-8")
        row: list[Any] = [text, leaf.doc_frequency(fieldname, text)]
        m: Any = leaf.postings(fieldname, btext) if postings else None
        if isinstance(m, FilterMatcher):  # the segment's deletions: the caller drops deleted documents
            m = m.child
        while m is not None and m.is_active():
            positions = m.value_as("positions")
            row += [m.id(), m.weight(), len(positions), *positions]
            m.next()
        out.append(row)
    return out
