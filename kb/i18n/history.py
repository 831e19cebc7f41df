"""The Spanish a translation was made from, recovered from git history by its recorded hash.

A stale field records the hash of the Spanish its English was made from. To show translators what
changed, walk the file's ``git log`` (newest first, following renames), parse each old version (its control
and bidi characters written as visible escapes, as the loader writes today's: :func:`kb.core.validate.control_characters`)
and find a Spanish text with that hash. Git runs through ``subprocess`` with a list argv, never a shell;
when git, the repository or the text is missing, the answer is simply ``None``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from kb.core._yaml import parse_bytes
from kb.core.validate import control_characters
from kb.i18n.status import source_hash
from kb.core.model import SOURCE_LANG, TARGET_LANG, field_key, iter_texts

__all__ = ["History"]

_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
MAX_COMMITS = 200
"""Versions of one file searched at most."""
TIMEOUT = 30
"""Seconds one git command may take."""


def _git(args: list[str], cwd: Path) -> bytes | None:
    """Run ``git ARGS`` in ``cwd``; its standard output, or None if git is missing or fails."""
    exe = shutil.which("git")
    if exe is None:
        return None
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run([exe, *args], cwd=cwd, env=env, capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@dataclass
class _File:
    """What is known of one file's history so far."""

    top: Path
    versions: Iterator[tuple[str, str]]
    by_field: dict[tuple[str, str], str] = field(default_factory=dict)
    by_hash: dict[str, str] = field(default_factory=dict)
    fields: list[dict[str, tuple[str, str | None]]] = field(default_factory=list)
    """Per version read so far (newest first): field -> (hash of its Spanish, its English or None)."""


class History:
    """Old Spanish texts of content files, looked up lazily (each file's log is read once)."""

    def __init__(self, max_commits: int = MAX_COMMITS) -> None:
        self.max_commits = max_commits
        self._files: dict[Path, _File | None] = {}

    def state(self, folder: Path) -> str:
        """What the answers for files under ``folder`` depend on: the commit its repository is at (``""`` without
        git or a repository). A cache of anything worked out from this history keys on it."""
        out = _git(["rev-parse", "HEAD"], folder)
        return out.decode("ascii", "replace").strip() if out else ""

    def previous(self, path: Path, field_name: str, recorded: str | None) -> str | None:
        """The Spanish of ``field_name`` (or of any field) whose source hash is ``recorded``, if git has it."""
        if not recorded:
            return None
        state = self._file(path)
        if state is None:
            return None
        while True:
            found = state.by_field.get((field_name, recorded)) or state.by_hash.get(recorded)
            if found is not None:
                return found
            version = next(state.versions, None)
            if version is None:
                return None
            self._index(state, *version, path)

    def made_from(self, path: Path, field_name: str, recorded: str | None, english: str | None) -> str | None:
        """The Spanish a field's English was made from: found by its recorded hash or, with none recorded,
        by the Spanish beside that English when it was written (:meth:`written_from`)."""
        made = recorded or (self.written_from(path, field_name, english) if english else None)
        return self.previous(path, field_name, made)

    def written_from(self, path: Path, field_name: str, english: str) -> str | None:
        """The hash of the Spanish that ``english`` was written from: the Spanish of the field in the oldest
        version of the file, among the newest run of versions whose English is ``english``. ``None`` when git
        does not have it (no git, a file never committed, or an English that is new since the last commit)."""
        state = self._file(path)
        if state is None:
            return None
        wanted, found, i = _norm(english), None, 0
        while True:
            while i >= len(state.fields):
                version = next(state.versions, None)
                if version is None:
                    return found
                self._index(state, *version, path)
            spanish_hash, en = state.fields[i].get(field_name, ("", None))
            if en is None or _norm(en) != wanted:
                return found
            found, i = spanish_hash, i + 1

    def _file(self, path: Path) -> _File | None:
        key = path.resolve()
        if key not in self._files:
            self._files[key] = self._open(key)
        return self._files[key]

    def _open(self, path: Path) -> _File | None:
        out = _git(["rev-parse", "--show-toplevel"], path.parent)
        if out is None:
            return None
        top = Path(os.fsdecode(out.strip())).resolve()
        try:
            rel = path.relative_to(top).as_posix()
        except ValueError:
            return None
        return _File(top, self._log(top, rel))

    def _log(self, top: Path, rel: str) -> Iterator[tuple[str, str]]:
        """(commit, path at that commit), newest first."""
        out = _git(["log", "-z", "--follow", f"--max-count={self.max_commits}", "--format=%H", "--name-only",
                    "--", rel], top)
        if out is None:
            return
        current, pending = rel, None
        for token in os.fsdecode(out).split("\0"):
            if token.startswith("\n"):
                current = token.lstrip("\n")
                if pending:
                    yield pending, current
                    pending = None
            elif _SHA.match(token):
                if pending:  # a commit listing no name (a merge) keeps the newer path
                    yield pending, current
                pending = token
        if pending:
            yield pending, current

    def _index(self, state: _File, commit: str, rel: str, path: Path) -> None:
        raw = _git(["show", f"{commit}:{rel}"], state.top)
        fields: dict[str, tuple[str, str | None]] = {}
        state.fields.append(fields)
        if raw is None:
            return
        data, marks, _ = parse_bytes(raw, path)
        if data is None:
            return
        data, _ = control_characters(data, marks)  # as the loader reads the file now: a bidi override from the past
        # never reaches a page, a terminal or a PO file raw, and hashes and field names compare with today's
        for data_path, text in iter_texts(data):
            spanish = text[SOURCE_LANG]
            digest = source_hash(spanish)
            name = field_key(data, data_path)
            state.by_field.setdefault((name, digest), spanish)
            state.by_hash.setdefault(digest, spanish)
            en = text.get(TARGET_LANG)
            fields[name] = (digest, en if isinstance(en, str) else None)


def _norm(text: str) -> str:
    return " ".join(text.split())
