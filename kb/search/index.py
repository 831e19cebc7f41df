"""A search index that is always fresh: built on first use, updated per changed file, swapped atomically.

Layout of the cache folder (outside the tracked files: ``.kb-cache/`` beside ``content/``, or
``$KB_CACHE``)::

    <cache>/search/<root-hash>/current -> gen-<n>/   (a symlink replaced atomically)
    <cache>/search/<root-hash>/gen-<n>/              Whoosh files, manifest.json, synonyms.json, meta.json,
                                                     words.txt (wordfreq's lists, :func:`kb.search.words.write_lists`)
    <cache>/search/<root-hash>/lock                  serialises writers; readers never wait

Freshness is decided from file sizes and modification times first, then content hashes, without
parsing any YAML; only when something changed is the knowledge base loaded. A full build writes a
new generation beside the current one and swaps the symlink only when it is complete, so a killed
build leaves the previous index serving. An update rewrites the served generation's documents in one Whoosh
commit, which is atomic, dropping the old segments: an updated index is document for document the one a build of
the same content writes (same ``N``, document frequencies and document numbers: the same ranking, whatever the
edits before), and keeps the generation's word lists.
"""

from __future__ import annotations

import json
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping


from kb.core.cache import cache_dir, engine_record, ensure_dir, report, same_engine
from kb.core.diagnostics import Diagnostic, diag
from kb.core.files import atomic_write, file_digest, named, remove_tree
from kb.core.model import LANGS, Entry, Location, Text, iter_texts
from kb.core.terms import STOPWORDS, fold, stem, tokens
from kb.search import compact, thesaurus
from kb.search import words as wordlist
from kb.search.ranking import DEFAULTS, FIELDS, Params, context_table, name_key

if TYPE_CHECKING:
    from kb.link.view import Linked
    from kb.search.query import Result

__all__ = ["SearchIndex", "Reader", "MAX_QUERY", "Expander", "documents", "page_passages", "synonyms"]

VERSION = 18
"""The manifest's and the documents' format: bump it when they change (older indexes are rebuilt). Any change of the
engine's code also rebuilds the index: the manifest keeps the engine that wrote it (:func:`kb.core.cache.same_engine`)."""
WORDS = "words.txt"
"""A generation's copy of ``wordfreq``'s lists as the word list reads them (:class:`kb.search.words.Lists`)."""
MAX_QUERY = 500
"""Longest query, in characters; longer ones are cut."""
_STOP = STOPWORDS["es"] | STOPWORDS["en"]
"""A glossary name that is also one of these words expands only when typed exactly (``LoS``, not ``los``)."""


# ---------------------------------------------------------------- documents


def _plain(text: str, titles: Callable[[str], Any], lang: str) -> str:
    """Content text as the index reads it: links as their shown words, ``**bold**`` marks dropped."""
    from kb.view.entry import shown_links  # building only (see documents)

    return _EMPHASIS.sub(r"\1", shown_links(text, lang, titles))


_EMPHASIS = re.compile(r"\*{1,2}([^*\n]+?)\*{1,2}")


def _names(kb: "Linked", entry: Entry, shared: int = 1) -> list[str]:
    """Every name of an entry in both languages: titles, players' names, glossary forms, and a concept's terms'
    titles — those that ``shared`` games or more give their terms (:func:`_member_titles`)."""
    names = [entry.title.es, entry.title.en or "", *entry.also_called("es"), *entry.also_called("en")]
    if entry.term:
        names += [f for forms in (*entry.term.forms.values(), *entry.term.abbreviations.values()) for f in forms]
    if entry.kind == "concept" and (view := kb.concept(entry.id)):
        names += _member_titles(view.terms, shared)
    return [n for n in dict.fromkeys(names) if n]


def _member_titles(terms: Mapping[str, Iterable[Entry]], shared: int) -> list[str]:
    """The titles of a concept's terms (``terms``: by game) that the terms of ``shared`` games or more bear, in any
    inflection (the words' stems in the title's language: Malifaux's «Trabado» and StarCraft's «Trabada» are one
    name)."""
    keys = {(game, n): (lang, *(stem(fold(w), lang) for *_, w in tokens(n)))
            for game, ts in terms.items() for t in ts for lang, n in (("es", t.title.es), ("en", t.title.en or "")) if n}
    games: dict[tuple[str, ...], set[str]] = {}
    for (game, _), key in keys.items():
        games.setdefault(key, set()).add(game)
    return sorted({n for (_, n), key in keys.items() if len(games[key]) >= shared})


def _distinct(names: list[str], lang: str, title: str) -> list[str]:
    """Names that differ once stemmed (``trabado``, ``trabada``, ``trabados`` count once), the title left out."""
    seen = {tuple(stem(fold(w), lang) for *_, w in tokens(title))}
    out = []
    for name in names:
        key = tuple(stem(fold(w), lang) for *_, w in tokens(name))
        if key and key not in seen:
            seen.add(key)
            out.append(name)
    return out


def documents(kb: "Linked", entry: Entry) -> list[dict[str, Any]]:
    """The two index documents (Spanish, English) of an entry (fields: :data:`kb.search.ranking.FIELDS`)."""
    from kb.mechanics.procedures import flatten_steps  # a build needs these (and jsonschema, babel); a query does not
    from kb.view.entry import content_texts, entry_view

    def titles(entry_id: str) -> Text | None:
        found = kb.get(entry_id)
        return found.title if found else None

    names = _names(kb, entry)
    extra = [*entry.tags, entry.id.split(".", 1)[-1].replace("-", " ")]  # an id without a game (reported) is all name
    out = []
    for lang in LANGS:
        summary = entry.text("summary")
        view = entry_view(entry, lang, titles)
        body = [_plain(text, titles, lang) for text in content_texts(view)]
        seq = entry.data.get("sequence")
        if isinstance(seq, dict):
            allowed = (s.get("allows") for s in flatten_steps(seq.get("steps", [])))
            body += [" ".join(a for a in al if isinstance(a, str)) for al in allowed if isinstance(al, list)]  # malformed: the schema says so
        title = entry.title.best(lang)
        doc: dict[str, Any] = {
            "key": f"{entry.id}|{lang}", "entry": entry.id, "game": entry.game, "kind": entry.kind, "lang": lang,
            "titles": {"es": entry.title.es, "en": entry.title.en or entry.title.es},
            f"title_{lang}": title,
            f"names_{lang}": " ; ".join(_distinct([n for n in names if n != title] + extra, lang, title)),
            f"questions_{lang}": "\n".join((*entry.questions(lang), *entry.typed(lang))),
            f"summary_{lang}": _plain(summary.best(lang), titles, lang) if summary else "",
            f"body_{lang}": "\n".join(body),
            "passages": json.dumps(_passages(entry, view, titles), ensure_ascii=False),
        }
        doc[f"spell_{lang}"] = "\n".join(doc[f"{f}_{lang}"] for f in FIELDS)
        out.append(doc)
    return out


def _passages(entry: Entry, view: Any, titles: Callable[[str], Any]) -> list[list[Any]]:
    """The places of the entry's page a hit can point to (:func:`page_passages`), as the index stores them:
    ``[anchor, plain text, [its distinct analysed terms, as in body_<lang>]]``. Section headings and the source line
    answer nothing and are left out."""
    from kb.search.query import analyse
    from kb.view.anchors import SOURCE, section_anchor
    from kb.view.entry import SECTIONS

    headings = {SOURCE, *(section_anchor(key) for key, _ in SECTIONS)}
    return [[a, t, sorted(set(analyse(f"body_{view.lang}", t)))]
            for a, t in page_passages(entry, view, titles) if a not in headings]


def page_passages(entry: Entry, view: Any, titles: Callable[[str], Any]) -> list[tuple[str, str]]:
    """The places of the entry's page (``view``: :func:`kb.view.entry.entry_view`) that have an id
    (:func:`kb.view.anchors.passages`), each with its text as plain words, in reading order: the anchors a search hit's
    ``passage`` names and ``kb show ID#ANCHOR`` takes. A concept's page is the concept map, where its heading is its
    one place."""
    from kb.view.anchors import SUMMARY, entry_anchor, passages

    shown = [(a, " ".join(_plain(t, titles, view.lang).split())) for a, t in passages(view) if t.strip()]
    if entry.kind == "concept":
        return [(entry_anchor(entry.id), shown[0][1])] if shown and shown[0][0] == SUMMARY else []
    return shown


def meta(kb: "Linked") -> dict[str, Any]:
    """What ranking needs beside the index: the name table (exact names) and the word → game table (game context)."""
    table: dict[str, list[str]] = {}
    for entry in kb.entries.values():
        for name in _names(kb, entry, shared=2):  # one game's title names its term; one several games share, the idea
            ids = table.setdefault(name_key(name), [])
            if entry.id not in ids:
                ids.append(entry.id)
    names: dict[str, list[str]] = {}
    texts: dict[str, list[str]] = {}
    for game_id, game in kb.games.items():
        names.setdefault(game_id, []).extend([game.name.es, game.name.en or ""])
    for entry in kb.entries.values():
        if entry.game not in kb.games:
            continue  # common concepts name every game's words
        names.setdefault(entry.game, []).extend(_names(kb, entry))
        parts = texts.setdefault(entry.game, [])
        parts += [t for _, text in iter_texts(entry.data) for t in text.values() if isinstance(t, str)]
        parts += [*entry.tags, *(q for lang in LANGS for q in (*entry.questions(lang), *entry.typed(lang), *entry.also_called(lang)))]
    game_words = sorted({w for g in kb.games.values() for n in (g.name.es, g.name.en or "") for w in name_key(n).split()})
    return {"names": dict(sorted(table.items())), "context": context_table(names, texts), "games": sorted(kb.games),
            "game_words": game_words, "thesaurus": list(map(list, thesaurus.pack_lines(kb.root)))}


def synonyms(kb: "Linked") -> dict[str, Any]:
    """Glossary groups for query expansion: every form and abbreviation of a term (and a concept's titles) together."""
    groups: list[list[str]] = []
    for entry in kb.entries.values():
        if entry.term:
            t = entry.term
            groups.append(sorted({*(f for fs in t.forms.values() for f in fs), *(a for fs in t.abbreviations.values() for a in fs),
                                  entry.title.es, entry.title.en or entry.title.es}))
    for view in kb.concepts():
        names = {view.entry.title.es, view.entry.title.en or view.entry.title.es}
        for ts in view.terms.values():
            names |= {t.title.es for t in ts} | {t.title.en or t.title.es for t in ts}
        groups.append(sorted(names))
    abbreviations = sorted({a for e in kb.entries.values() if e.term for fs in e.term.abbreviations.values() for a in fs})
    return {"groups": groups, "abbreviations": abbreviations, **Expander.prepared(groups, abbreviations)}


class Expander:
    """Rewrites a query so that any glossary name also searches for its other names, in both languages."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.groups = data.get("groups", [])
        self._memo: dict[str, list[str]] = {}
        prepared = data if "keys" in data else self.prepared(self.groups, data.get("abbreviations", ()))
        self.exact = {tuple(a) for a in prepared["exact"]}
        self.keys: dict[tuple[str, ...], set[int]] = {}
        for i, group_keys in enumerate(prepared["keys"]):
            for key in group_keys:
                self.keys.setdefault(tuple(key), set()).add(i)
        self.longest = max((len(k) for k in self.keys), default=1)
        self.words: frozenset[str] = frozenset(prepared["words"])
        """The keys of every word of the glossary's names (:func:`kb.search.words.glossary_words`)."""

    @staticmethod
    def prepared(groups: list[list[str]], abbreviations: Iterable[str]) -> dict[str, Any]:
        """What a query's expander reads of the groups, worked out once when the index is written (``synonyms.json``):
        each group's phrases as folded words, the abbreviations' words, every word's key."""
        keys = [[k for phrase in group if (k := [w for *_, w in tokens(fold(phrase))])] for group in groups]
        return {"keys": keys, "exact": [[w for *_, w in tokens(a)] for a in abbreviations],
                "words": sorted(wordlist.glossary_words(groups))}

    def alternatives(self, text: str) -> list[str]:
        """The other names of every glossary name in ``text`` (longest names first, whole words)."""
        found = self._memo.get(text)
        if found is None:
            if len(self._memo) > 4096:
                self._memo.clear()
            found = self._memo[text] = self._alternatives(text)
        return list(found)

    def _alternatives(self, text: str) -> list[str]:
        toks = tokens(text)
        folded = [fold(w) for *_, w in toks]
        out: list[str] = []
        i = 0
        while i < len(toks):
            for n in range(min(self.longest, len(toks) - i), 0, -1):
                key = tuple(folded[i:i + n])
                ids = self.keys.get(key)
                original = tuple(w for *_, w in toks[i:i + n])
                if ids and (n > 1 or key[0] not in _STOP or original in self.exact):
                    said = " ".join(key)
                    out += [a for g in sorted(ids) for a in self.groups[g]
                            if " ".join(w for *_, w in tokens(fold(a))) != said and a not in out]
                    i += n
                    break
            else:
                i += 1
        return [" ".join(w for *_, w in tokens(a)) for a in out]


# ---------------------------------------------------------------- the store


class SearchIndex:
    """The search index of one content tree."""

    def __init__(self, root: Path, cache: Path | None = None) -> None:
        self.root = Path(root)
        self.dir = Path(cache) if cache else cache_dir(self.root, "search")
        self._reported: set[Path] = set()
        self.unreadable: dict[Path, Diagnostic] = {}
        """Content files and folders this user cannot read, by path, as the last look at the tree met them: each
        the ``error[unreadable]`` line ``kb check`` gives. Their entries are not in the index."""

    def _cannot_read(self, path: str, exc: OSError) -> None:
        self.unreadable[Path(path)] = diag("unreadable", Location(Path(path)), reason=exc.strerror or str(exc))

    def _damaged(self, path: Path, problem: str) -> None:
        """Say once that a damaged part of the index is ignored (it is rebuilt)."""
        if path not in self._reported:
            self._reported.add(path)
            report(path, problem)

    @property
    def current(self) -> Path:
        """The generation being served."""
        return self.dir / "current"

    def _stats(self) -> dict[str, tuple[int, int]]:
        """(modification time, size) of every content file, by relative path: one ``scandir`` walk, no parsing."""
        out: dict[str, tuple[int, int]] = {}
        self.unreadable = {}
        real_root = os.path.realpath(self.root) + os.sep
        pending = [(str(self.root), "")]
        while pending:
            folder, prefix = pending.pop()
            try:
                with os.scandir(folder) as it:
                    for item in it:
                        if item.name.startswith((".", "_")):
                            continue
                        if item.is_dir(follow_symlinks=False):  # as the loader: linked folders are not walked
                            pending.append((item.path, f"{prefix}{item.name}/"))
                        elif _indexed(prefix + item.name):
                            if item.is_symlink() and not os.path.realpath(item.path).startswith(real_root):
                                continue  # the loader refuses links leaving the content
                            try:
                                st = item.stat()
                                _readable(item.path)  # a chmod keeps the stamp: the manifest would say "fresh"
                            except OSError as exc:
                                self._cannot_read(item.path, exc)
                                continue
                            out[prefix + item.name] = (st.st_mtime_ns, st.st_size)
            except OSError as exc:
                self._cannot_read(folder, exc)
                continue
        self.unreadable = dict(sorted(self.unreadable.items()))
        return out

    def _manifest(self) -> dict[str, Any] | None:
        path = self.current / "manifest.json"
        if not self.current.is_symlink():
            if self.current.exists():
                self._damaged(self.current, "not a link to an index generation")
            return None
        try:
            data, verdicts = _json(path)  # read once while its stamp holds (issue 31)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            self._damaged(path, type(exc).__name__)
            return None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            if isinstance(data, dict) and isinstance(data.get("version"), int):
                return None  # an older index: rebuilt without a word
            self._damaged(path, "not a manifest")
            return None
        if not _shaped(data, verdicts, _manifest_shape):
            self._damaged(path, "wrongly shaped manifest")
            return None
        return data if same_engine(data["engine"]) else None  # another engine's code wrote it: rebuilt without a word

    def changes(self) -> tuple[str, set[str]]:
        """(``missing``/``fresh``/``stale``, the relative paths that changed), without parsing YAML."""
        manifest = self._manifest()
        if manifest is None:
            return "missing", set()
        known: dict[str, list[Any]] = manifest["files"]
        now = self._stats()
        changed = set(known) ^ set(now)
        for rel, (mtime, size) in now.items():
            old = known.get(rel)
            if old and (old[0], old[1]) != (mtime, size) and old[2] != file_digest(self.root / rel):
                changed.add(rel)
        return ("stale" if changed else "fresh"), changed

    @contextmanager
    def _lock(self) -> Iterator[None]:
        ensure_dir(self.dir)
        lock = self.dir / "lock"
        if lock.is_dir() and not lock.is_symlink():
            self._damaged(lock, "a folder where the lock file belongs")
            remove_tree(lock)
        from filelock import FileLock  # only a writer needs it (it pulls in asyncio): not imported by a query

        with FileLock(lock):  # portable (fcntl on POSIX, msvcrt on Windows); released however the block ends
            yield

    def ensure(self, load: Callable[[], "Linked"], progress: Callable[[str], None] = lambda _m: None,
               fast: bool = False) -> str:
        """Make the index fresh; returns ``fresh``, ``updated`` or ``built``. ``load`` is called only when needed.
        An ``OSError`` (a full disk) names the index's folder when the system names no file. ``fast``: the caller
        reads only the compact store (:meth:`open` with ``fast``), so only it need be whole (Whoosh's files are
        not opened: a query process does not import Whoosh's reader)."""
        try:
            return self._ensure(load, progress, fast)
        except OSError as exc:
            better = named(exc, self.dir)
            if better is exc:
                raise
            raise better from exc

    def _ensure(self, load: Callable[[], "Linked"], progress: Callable[[str], None], fast: bool) -> str:
        from kb.search import query as search

        status, changed = self.changes()
        if status == "fresh" and self._healthy(fast):
            return "fresh"
        with self._lock():
            status, changed = self.changes()  # another process may have done it meanwhile
            if status == "fresh" and self._healthy(fast):
                return "fresh"
            kb = load()
            manifest = self._manifest()
            if (status == "stale" and manifest is not None and self._healthy() and len(changed) * 4 < max(len(manifest["files"]), 8)
                    and thesaurus.PACK_FILE not in changed):  # the players' words are read when a reader opens
                self._update(kb, search, fast)
                progress(f"search index updated: {len(changed)} changed file(s)")
                return "updated"
            self._build(kb, search, fast)
            progress(f"search index built: {len(kb.entries)} entries")
            return "built"

    def _compact_healthy(self) -> bool:
        state = compact.state(self.current.resolve())
        if state == "ok":
            return True
        if state != "missing":  # missing: another caller wrote or updated the index
            self._damaged(self.current / compact.FILE if state == "unreadable" else self.current, state)
        return self._compact_wanting()

    def _compact_wanting(self) -> bool:
        """When Whoosh's files are whole and only the compact store is wanting (another caller wrote or updated the
        index), write it and say True. No lock: it knows the files it was read from (:func:`compact.write`)."""
        if not self._healthy():
            return False
        compact.write(self.current.resolve())
        return True

    def _healthy(self, fast: bool = False) -> bool:
        from kb.search import query as search

        if not self.current.is_symlink():
            if self.current.exists():
                self._damaged(self.current, "not a link to an index generation")
            return False
        if _synonyms(self.current.resolve()) is None:
            self._damaged(self.current / "synonyms.json", "missing or wrongly shaped")
            return False
        if _meta(self.current.resolve()) is None:
            self._damaged(self.current / "meta.json", "missing or wrongly shaped")
            return False
        if fast:  # the compact store is all a fast reader reads; it knows the Whoosh files it was written from
            return self._compact_healthy()
        try:
            ok = search.lexicon_ok(search.open_dir(self.current))
        except search.SearchError:
            ok = False
        if not ok:
            self._damaged(self.current, "the index files cannot be read")
        return ok

    def _files(self, kb: "Linked") -> dict[str, list[Any]]:
        stats = self._stats()
        recent = time.time_ns() - 2_000_000_000  # "racy" stamps: too fresh to trust, the hash decides
        return {rel: [stats[rel][0] if stats[rel][0] < recent else 0, stats[rel][1], digest]
                for rel, digest in kb.digests.items() if rel in stats}

    def _write_meta(self, gen: Path, kb: "Linked", fast: bool) -> None:
        atomic_write(gen / "synonyms.json", json.dumps(synonyms(kb), ensure_ascii=False).encode())
        atomic_write(gen / "meta.json", json.dumps(meta(kb), ensure_ascii=False).encode())
        if fast:  # a one-query process will read it (others write it when they need it: it costs a read of the index)
            compact.write(gen)  # from the committed Whoosh index, before the manifest calls the generation fresh
        manifest = {"version": VERSION, "engine": engine_record(), "files": self._files(kb), "built": time.time(),
                    "not_loaded": [_located(d, kb.root) for d in kb.not_loaded()]}
        atomic_write(gen / "manifest.json", json.dumps(manifest).encode())

    def not_loaded(self) -> list[Diagnostic]:
        """The errors of the content files the served index holds no entry of (a file that does not parse, a
        duplicate id...: :meth:`kb.KnowledgeBase.not_loaded` when the index was written), as ``kb check`` gives them;
        none when there is no index."""
        manifest = self._manifest()
        return [Diagnostic(d["code"], d["severity"], d["message"], Location(self.root / d["path"], d["line"], d["column"]))
                for d in (manifest or {}).get("not_loaded", ())]

    def _build(self, kb: "Linked", search: Any, fast: bool) -> None:
        gen = self.dir / f"gen-{time.time_ns()}-{os.getpid()}"
        try:
            _write_all(search.create(gen), kb, search)
            self._write_meta(gen, kb, fast)
            wordlist.write_lists(gen / WORDS, DEFAULTS.real_word_zipf)
            link = self.dir / f".current-{os.getpid()}"
            if link.is_symlink() or link.exists():
                link.unlink()
            os.symlink(gen.name, link)
            if self.current.is_dir() and not self.current.is_symlink():  # a real folder in the link's place
                remove_tree(self.current)
            os.replace(link, self.current)  # the swap: readers see the old or the new index, never half of one
        except BaseException:
            remove_tree(gen)
            raise
        for old in self.dir.glob("gen-*"):
            if old.name != gen.name and time.time() - old.stat().st_mtime > 60:
                remove_tree(old)  # kept a minute for readers that opened it

    def _update(self, kb: "Linked", search: Any, fast: bool) -> None:
        """Rewrite the served generation's documents in one commit (:func:`_write_all`): its ranking is then a fresh
        build's, whatever edits came before (Whoosh counts a deleted document in ``N`` and the document frequencies
        until a merge, and numbers the new ones last, which decides ties). The word lists and the generation stay."""
        gen = self.current.resolve()
        if not fast:  # gone before the commit: no reader takes the old store for the new index's
            (gen / compact.FILE).unlink(missing_ok=True)
        _write_all(search.open_dir(gen), kb, search)
        self._write_meta(gen, kb, fast)

    def open(self, params: Params = DEFAULTS, fast: bool = False) -> "Reader":
        """A reader kept open for many queries, following rebuilds and updates (call :meth:`ensure` first);
        ``params``: the ranking's figures it answers with; ``fast``: it reads the compact store
        (:mod:`kb.search.compact`: the standard library only, what a one-query process wants) instead of Whoosh's
        index through NumPy (what many queries want). Both give the same hits."""
        return Reader(self.current, params, fast)

    def search(self, text: str, expander: Expander | None = None, **filters: Any) -> "Result":
        """Query the current generation (call :meth:`ensure` first)."""
        return self.open().search(text, expander, **filters)


def _indexed(rel: str) -> bool:
    """True for a content file the index follows: an entry file, or the pack's players' words (:mod:`kb.search.thesaurus`)."""
    return rel.endswith((".yaml", ".yml")) or rel == thesaurus.PACK_FILE


def _write_all(ix: Any, kb: "Linked", search: Any) -> None:
    """Make every entry's documents, in the knowledge base's order, the documents of ``ix`` (:func:`kb.search.query.write`)."""
    docs = (d for e in kb.entries.values() for d in documents(kb, e))
    search.write(ix, docs, procs=2 if len(kb.entries) > 2000 else 1)


def _readable(path: str) -> None:
    """Raise the ``OSError`` that reading ``path`` would (one ``access`` call when it may be read)."""
    if not os.access(path, os.R_OK):
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))  # the system's reason (or, where access() is wrong, no error)


def _located(d: Diagnostic, root: Path) -> dict[str, Any]:
    """A diagnostic as the manifest keeps it: its path relative to the content folder (the working folder may change)."""
    path = os.path.relpath(os.path.abspath(d.location.path), os.path.abspath(root))
    return {"path": path, "line": d.location.line, "column": d.location.column, "code": d.code, "severity": d.severity,
            "message": d.message}


_LOCATED = {"path": str, "line": int, "column": int, "code": str, "severity": str, "message": str}


def _manifest_shape(data: dict[str, Any]) -> bool:
    """True when a manifest holds what :meth:`SearchIndex._write_meta` writes."""
    files, broken, engine = data.get("files"), data.get("not_loaded"), data.get("engine")
    return (isinstance(engine, list) and len(engine) == 2 and all(isinstance(e, str) for e in engine) and isinstance(files, dict) and isinstance(broken, list)
            and all(isinstance(d, dict) and all(isinstance(d.get(k), t) for k, t in _LOCATED.items()) for d in broken)
            and all(isinstance(v, list) and len(v) == 3 and isinstance(v[0], int) and isinstance(v[1], int)
                    and isinstance(v[2], str) for v in files.values()))


def _meta(gen: Path) -> dict[str, Any] | None:
    """A generation's ranking data (``meta.json``), or ``None`` when it is missing or not what is written."""
    data = _checked(gen / "meta.json", _meta_shape)
    return data if isinstance(data, dict) else None


def _meta_shape(data: Any) -> bool:
    return (isinstance(data, dict) and {"names", "context", "game_words", "games"} <= set(data)
            and isinstance(data["game_words"], list) and isinstance(data["games"], list) and _lines_shape(data.get("thesaurus", [])))


def _lines_shape(lines: Any) -> bool:
    """True for a pack's players' words as ``meta.json`` keeps them: [language, [words], [words]] lines."""
    return isinstance(lines, list) and all(
        isinstance(line, list) and len(line) == 3 and isinstance(line[0], str)
        and all(isinstance(side, list) and all(isinstance(w, str) for w in side) for side in line[1:]) for line in lines)


_READ: dict[str, tuple[tuple[int, int, int], Any, dict[Callable[[Any], bool], bool]]] = {}
"""What :func:`_json` read, by path: the file's (inode, time, size), its data, and each shape check's verdict on it."""


def _json(path: Path) -> tuple[Any, dict[Callable[[Any], bool], bool]]:
    """The JSON of ``path`` and the verdicts of the shape checks run on it so far, read once while the file's inode,
    time and size stay the same (a query process's freshness check, its reader's opening and its exit code read the
    same generation's files: issue 31); ``OSError`` or ``ValueError`` as reading it would. A generation's files are
    written whole before it is served, and replaced, never edited in place, so a file that changed has a new stamp
    (a stamp under two seconds old is not trusted). The data is shared: callers only read it."""
    st = path.stat()
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    seen = _READ.get(str(path))
    if seen is not None and seen[0] == stamp:
        return seen[1], seen[2]
    data = json.loads(path.read_text(encoding="utf-8"))
    verdicts: dict[Callable[[Any], bool], bool] = {}
    if len(_READ) > 32:  # a long-lived process sees many generations: keep only the recent ones
        _READ.clear()
    if time.time_ns() - st.st_mtime_ns > 2_000_000_000:  # as the manifest's "racy" stamps: too fresh to trust
        _READ[str(path)] = (stamp, data, verdicts)
    return data, verdicts


def _shaped(data: Any, verdicts: dict[Callable[[Any], bool], bool], shape: Callable[[Any], bool]) -> bool:
    """``shape(data)``, checked once per read of the file (:func:`_json`)."""
    if shape not in verdicts:
        verdicts[shape] = shape(data)
    return verdicts[shape]


def _checked(path: Path, shape: Callable[[Any], bool]) -> Any:
    """The JSON of ``path`` (:func:`_json`) when ``shape`` says it is right, else None."""
    try:
        data, verdicts = _json(path)
    except (OSError, ValueError):
        return None
    return data if _shaped(data, verdicts, shape) else None


def _prepared_ok(data: dict[str, Any], groups: int) -> bool:
    """True when ``synonyms.json`` holds what :meth:`Expander.prepared` writes, for ``groups`` groups."""
    keys, exact = data.get("keys"), data.get("exact")
    return (isinstance(keys, list) and len(keys) == groups and all(isinstance(g, list) and all(map(_strings, g)) for g in keys)
            and isinstance(exact, list) and all(map(_strings, exact)) and _strings(data.get("words")))


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _synonyms(gen: Path) -> dict[str, Any] | None:
    """A generation's glossary groups, or ``None`` when the file is missing or not what is written."""
    data = _checked(gen / "synonyms.json", _synonyms_shape)
    return data if isinstance(data, dict) else None


def _synonyms_shape(data: Any) -> bool:
    groups, abbrs = (data.get("groups"), data.get("abbreviations")) if isinstance(data, dict) else (None, None)
    return (isinstance(groups, list) and all(isinstance(g, list) and all(isinstance(x, str) for x in g) for g in groups)
            and isinstance(abbrs, list) and all(isinstance(a, str) for a in abbrs) and _prepared_ok(data, len(groups)))


class Reader:
    """The served generation, its searcher kept open: refreshed when an update commits, reopened when another
    process swaps in a new generation (an old generation is deleted a minute after the swap)."""

    def __init__(self, current: Path, params: Params = DEFAULTS, fast: bool = False) -> None:
        self.current = current
        self.fast = fast
        """True when it reads the compact store (:mod:`kb.search.compact`), not Whoosh's files."""
        self.params = params
        """The ranking's figures (:class:`kb.search.ranking.Params`): the queries' and the browser export's."""
        self.exported: dict[Any, Any] = {}
        """What the browser export of one language computed that every language's takes alike, by index state
        (:func:`kb.search.export.export`): the next language's export of the same state reads it."""
        self._open()

    def _link(self) -> str:
        return os.readlink(self.current) if self.current.is_symlink() else ""

    def _open(self) -> None:
        from kb.search import query as search

        for attempt in range(3):  # a generation swapped out (and deleted) while being opened: open the new one
            link = self._link()
            gen = self.current.parent / link if link else self.current.resolve()
            try:
                synonyms_data, data = _synonyms(gen), _meta(gen)
                if synonyms_data is None or data is None:
                    raise ValueError("synonyms.json or meta.json is missing or wrongly shaped")
                expander = Expander(synonyms_data)
                ix = None if self.fast else search.open_dir(gen)
                searcher = compact.Compact(gen) if self.fast else search.searcher(ix)
            except (OSError, ValueError, search.SearchError) as exc:
                if attempt == 2 or self._link() == link:
                    raise search.SearchError(f"{type(exc).__name__}: {exc}") from exc
                continue
            self.gen, self.ix, self.expander, self.searcher = link, ix, expander, searcher
            self.meta = search.Meta(data["names"], data["context"], frozenset(data["game_words"]), wordlist.Lists(gen / WORDS),
                                    thesaurus.from_data(data.get("thesaurus", [])))
            self.games: tuple[str, ...] = tuple(data["games"])
            """Game ids of the indexed content."""
            return

    def _fresh(self) -> None:
        if self._link() != self.gen:
            self.searcher.close()
            self._open()
        elif not self.searcher.up_to_date():
            try:
                self.searcher = self.searcher.refresh()
            except TypeError:  # Whoosh cannot refresh the reader of an index without segments (no entries)
                self.searcher.close()
                self._open()

    def search(self, text: str, expander: Expander | None = None, **filters: Any) -> "Result":
        """Run one query (cut to :data:`MAX_QUERY` characters)."""
        from kb.search import query as search

        for attempt in (1, 2):
            try:
                self._fresh()
                return search.query(self.searcher, text[:MAX_QUERY], expander or self.expander, self.meta,
                                    params=self.params, **filters)
            except (search.SearchError, OSError):
                if attempt == 2:
                    raise
                self._open()  # the generation went away between the check and the query
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Release the searcher's files."""
        self.searcher.close()
