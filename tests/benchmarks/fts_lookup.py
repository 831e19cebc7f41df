"""The baseline: a minimal SQLite FTS5 lookup (stdlib only), for whole-process timing against `kb search`.

    python fts_lookup.py DB "query words"      prints the top entry ids, one per line
"""

from __future__ import annotations

import re
import sqlite3
import sys


def lookup(db: sqlite3.Connection, query: str, limit: int = 10) -> list[str]:
    """Entry ids for ``query``: any word, ranked by BM25 with title > summary > body, one hit per entry."""
    words = re.findall(r"\w+", query)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
    rows = db.execute("SELECT entry FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 4.0, 1.5, 1.0) LIMIT ?",
                      (match, limit * 4)).fetchall()
    out: list[str] = []
    for (entry,) in rows:
        if entry not in out:
            out.append(entry)
    return out[:limit]


if __name__ == "__main__":
    connection = sqlite3.connect(sys.argv[1])
    print("\n".join(lookup(connection, sys.argv[2])))
