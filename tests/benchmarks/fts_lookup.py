"""The baseline: a minimal SQLite FTS5 lookup (stdlib only), for whole-process timing against `kb search`.

    python fts_lookup.py DB "query words"      prints the top entry ids, one per line

The table has the engine's fields as columns (see search_bench.build_fts); the BM25 column weights are
the engine's field weights, which build_fts writes into the database beside the text (table
``weights``), so that the baseline ranks with the figures the engine ranks with and this script
imports nothing but the stdlib (issue 31: a copy written out here had drifted from the engine's).
"""

from __future__ import annotations

import re
import sqlite3
import sys

COLUMNS = ("title", "names", "questions", "summary", "body")
"""The engine's scored fields (kb.search.ranking.FIELDS), one FTS5 column each."""


def weights(db: sqlite3.Connection) -> tuple[float, ...]:
    """The BM25 weight of each of :data:`COLUMNS`, as build_fts wrote them."""
    found = dict(db.execute("SELECT name, weight FROM weights").fetchall())
    return tuple(float(found[c]) for c in COLUMNS)


def lookup(db: sqlite3.Connection, query: str, limit: int = 10) -> list[str]:
    """Entry ids for ``query``: any word, ranked by BM25 with the engine's field weights, one hit per entry."""
    words = re.findall(r"\w+", query)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
    column_weights = ", ".join(str(w) for w in weights(db))
    rows = db.execute(f"SELECT entry FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, {column_weights}) LIMIT ?",
                      (match, limit * 4)).fetchall()
    out: list[str] = []
    for (entry,) in rows:
        if entry not in out:
            out.append(entry)
    return out[:limit]


if __name__ == "__main__":
    connection = sqlite3.connect(sys.argv[1])
    print("\n".join(lookup(connection, sys.argv[2])))
