"""The only YAML import: safe parsing with line marks and limits, and round-trip writing.

Parsing walks PyYAML's event stream iteratively (no recursion, no constructors registered on
PyYAML's shared classes), so it can count nesting, aliases and the values aliases expand to, and
record where every key and value starts. Round-trip writing (ruamel.yaml) keeps comments, key
order and formatting when a tool writes back into a content file.
"""

from __future__ import annotations

import io
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml
from yaml import events as ev

from kb.core.errors import KbError
from kb.core.diagnostics import Diagnostic, diag, printable
from kb.core.files import atomic_write
from kb.core.model import DataPath, Location, Marks

__all__ = ["Limits", "LIMITS", "MAX_DIGITS", "parse_bytes", "read_bytes", "load_file", "roundtrip_edit", "atomic_write", "text_scalar",
           "RoundTripError"]

_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The C parser when PyYAML was built with it (much faster); the pure one gives the same events."""


@dataclass(frozen=True)
class Limits:
    """What one content file may hold. Each limit has its own diagnostic code."""

    max_bytes: int = 256 * 1024
    """File size (``file-too-large``)."""
    max_depth: int = 32
    """Nesting of mappings and lists (``nesting-limit``)."""
    max_aliases: int = 64
    """Alias uses (``alias-limit``)."""
    max_values: int = 20_000
    """Values after expanding aliases: stops "billion laughs" (``alias-limit``)."""
    max_files: int = 100_000
    """Files in the whole content folder (``too-many-entries``; read by :func:`kb.core.loader.load_tree`)."""


LIMITS = Limits()

_STR, _TIMESTAMP, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:int"
_TYPED = {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", _INT, "tag:yaml.org,2002:float"}
"""Tags whose value must have the tag's form: PyYAML's constructors assume it (``!!int ''`` crashed them)."""
MAX_DIGITS = 15
"""Numbers are finite and below 10**15 in size (``number-limit``): every number is exact as a float, and
formatting one for a page (Babel, ``decimal``) never meets a number past its precision."""
_SCALARS = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    _STR,
    _TIMESTAMP,
}
_COLLECTIONS = {None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_resolver = yaml.resolver.Resolver()
_constructor = yaml.constructor.SafeConstructor()


class _Stop(Exception):
    """Raised inside the walk to end it with a diagnostic."""

    def __init__(self, code: str, mark: Any, **args: object) -> None:
        super().__init__(code)
        self.code, self.mark, self.args_ = code, mark, args


@dataclass
class _Frame:
    container: Any
    path: DataPath
    key: Any = None
    has_key: bool = False
    size: int = 1
    anchor: str | None = None
    seen: dict[Any, Any] | None = None


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)  # PyYAML counts from 0; we count from 1, once, here


def _resolved(value: str, implicit: tuple[bool, bool]) -> str:
    """The tag YAML 1.1 gives a plain scalar ``value`` (``tag:yaml.org,2002:bool`` for ``no``)."""
    return str(_resolver.resolve(yaml.ScalarNode, value, implicit))  # type: ignore[no-untyped-call]  # untyped in types-PyYAML


def _tag(event: ev.ScalarEvent) -> str:
    """The scalar's tag, resolved; a type tag on a value not of that type (`cost: !!int`) stops the walk."""
    tag = event.tag
    if tag is None or tag == "!":
        return _resolved(event.value, event.implicit)
    if tag in _TYPED and _resolved(event.value, (True, False)) != tag:
        raise _Stop("yaml-syntax", event.start_mark, problem=f"the tag '!!{tag.rsplit(':', 1)[-1]}' is given to "
                    f"{printable(repr(event.value[:40]))}, which is not one")
    return tag


def _number(value: Any, event: ev.ScalarEvent) -> Any:
    """``value``, unless it is a number past :data:`MAX_DIGITS` or not finite."""
    if isinstance(value, float) and not math.isfinite(value):
        raise _Stop("number-limit", event.start_mark, problem=f"{event.value!r} is not a finite number", limit=MAX_DIGITS)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        raise _Stop("number-limit", event.start_mark, problem=f"{printable(event.value[:40])} is too big", limit=MAX_DIGITS)
    return value


def _scalar(event: ev.ScalarEvent) -> Any:
    tag = _tag(event)
    if tag not in _SCALARS:
        raise _Stop("unsupported-tag", event.start_mark, tag=tag)
    if tag in (_STR, _TIMESTAMP):  # dates stay text: the schema checks their form
        return event.value
    digits = sum(c.isdigit() for c in event.value) if tag == _INT else 0
    if digits > MAX_DIGITS:  # before Python reads it: no slow conversion of a long number
        raise _Stop("number-limit", event.start_mark, problem=f"a whole number of {digits} digits", limit=MAX_DIGITS)
    try:
        value = _constructor.yaml_constructors[tag](_constructor, yaml.ScalarNode(tag, event.value))
    except (ValueError, TypeError, IndexError, KeyError):  # whatever PyYAML's constructors raise on a value it resolved
        raise _Stop("yaml-syntax", event.start_mark, problem=f"cannot read {printable(repr(event.value[:40]))}") from None
    return _number(value, event)


class _Builder:
    """Builds plain data from events, with marks, limits and duplicate-key checks."""

    def __init__(self, path: Path, limits: Limits, lines: list[str]) -> None:
        self.limits = limits
        self.lines = lines
        self.values: dict[DataPath, tuple[int, int]] = {}
        self.keys: dict[DataPath, tuple[int, int]] = {}
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.aliases = 0
        self.total = 0
        self.root: Any = None
        self.documents = 0
        self.diagnostics: list[Diagnostic] = []
        self.path = path

    def _place(self, value: Any, mark: Any, size: int, key_text: str | None = None) -> DataPath | None:
        """Put a finished value where it belongs; return its data path (None for a key)."""
        self.total += size
        if self.total > self.limits.max_values:
            raise _Stop("alias-limit" if self.aliases else "value-limit", mark, limit=self.limits.max_aliases,
                        nodes=self.limits.max_values)
        if not self.stack:
            self.root = value
            self.values[()] = _pos(mark)
            return ()
        top = self.stack[-1]
        top.size += size
        if isinstance(top.container, dict):
            if not top.has_key:
                self._place_key(top, key_text, mark)
                return None
            path = top.path + (top.key,)
            if top.key not in top.container:  # a duplicate keeps the first value
                top.container[top.key] = value
            top.has_key = False
        else:
            path = top.path + (len(top.container),)
            top.container.append(value)
        self.values[path] = _pos(mark)
        return path

    def _place_key(self, top: _Frame, key_text: str | None, mark: Any) -> None:
        """The next key of the mapping being built (a second one of the same text is reported)."""
        if key_text is None:
            raise _Stop("yaml-syntax", mark, problem="keys must be plain text")
        assert top.seen is not None
        if key_text in top.seen:
            self.diagnostics.append(
                diag("duplicate-key", Location(self.path, *_pos(mark)), key=key_text, first=top.seen[key_text])
            )
        else:
            top.seen[key_text] = mark.line + 1
        top.key, top.has_key = key_text, True
        self.keys[top.path + (key_text,)] = _pos(mark)

    def feed(self, event: ev.Event) -> None:
        if isinstance(event, ev.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise _Stop("multiple-documents", event.start_mark)
        elif isinstance(event, ev.ScalarEvent):
            self._scalar(event)
        elif isinstance(event, ev.AliasEvent):
            self._alias(event)
        elif isinstance(event, (ev.MappingStartEvent, ev.SequenceStartEvent)):
            self._start(event)
        elif isinstance(event, (ev.MappingEndEvent, ev.SequenceEndEvent)):
            frame = self.stack.pop()
            if self.stack:
                self.stack[-1].size += frame.size
            if frame.anchor:
                self.anchors[frame.anchor] = (frame.container, frame.size)

    def _scalar(self, event: ev.ScalarEvent) -> None:
        """A scalar placed, its mark moved to where its text starts (after a quote, on a block's next line)."""
        assert event.start_mark is not None  # the parser marks every event
        value = _scalar(event)
        path = self._place(value, event.start_mark, 1, key_text=event.value)
        if path is not None and event.style in ("'", '"'):  # the text starts after the quote
            self.values[path] = (event.start_mark.line + 1, event.start_mark.column + 2)
        elif path is not None and event.style in ("|", ">") and event.start_mark.line + 1 < len(self.lines):
            body = self.lines[event.start_mark.line + 1]  # block text starts on the next line
            self.values[path] = (event.start_mark.line + 2, len(body) - len(body.lstrip(" ")) + 1)
        if event.anchor:
            self.anchors[event.anchor] = (value, 1)

    def _alias(self, event: ev.AliasEvent) -> None:
        """An alias placed as the anchored value (counted against the alias and value limits)."""
        self.aliases += 1
        if self.aliases > self.limits.max_aliases:
            raise _Stop("alias-limit", event.start_mark, limit=self.limits.max_aliases, nodes=self.limits.max_values)
        if event.anchor not in self.anchors:
            raise _Stop("yaml-syntax", event.start_mark, problem=f"unknown alias '*{event.anchor}'")
        value, size = self.anchors[event.anchor]
        self._place(value, event.start_mark, size, key_text=None if isinstance(value, (dict, list)) else str(value))

    def _start(self, event: ev.MappingStartEvent | ev.SequenceStartEvent) -> None:
        """A mapping or sequence begun (plain tags only, within the depth limit, never as a key)."""
        if event.tag not in _COLLECTIONS:
            raise _Stop("unsupported-tag", event.start_mark, tag=event.tag)
        if len(self.stack) >= self.limits.max_depth:
            raise _Stop("nesting-limit", event.start_mark, limit=self.limits.max_depth)
        mapping = isinstance(event, ev.MappingStartEvent)
        container: Any = {} if mapping else []
        path = self._place(container, event.start_mark, 0)
        if path is None:
            raise _Stop("yaml-syntax", event.start_mark, problem="keys must be plain text")
        self.stack.append(_Frame(container, path, anchor=event.anchor, seen={} if mapping else None))


def parse_bytes(raw: bytes, path: Path, limits: Limits = LIMITS) -> tuple[Any, Marks, list[Diagnostic]]:
    """Parse one file's bytes into plain data, its marks and the problems found."""
    here = Location(path)
    if len(raw) > limits.max_bytes:
        return None, Marks(path), [diag("file-too-large", here, size=len(raw), limit=limits.max_bytes)]
    text, found = _decode(raw, path)
    if text is None:
        return None, Marks(path), found
    builder = _Builder(path, limits, text.splitlines())
    loader = _Parser(io.StringIO(text))
    try:
        while loader.check_event():
            builder.feed(loader.get_event())
    except _Stop as stop:
        return None, Marks(path), found + builder.diagnostics + [diag(stop.code, Location(path, *_pos(stop.mark)), **stop.args_)]
    except yaml.YAMLError as exc:
        return None, Marks(path), found + builder.diagnostics + [_yaml_error(exc, text, path)]
    finally:
        loader.dispose()
    marks = Marks(path, builder.values, builder.keys)
    return builder.root, marks, found + builder.diagnostics


def _decode(raw: bytes, path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The file's text (a byte-order mark reported and dropped), or ``None`` and why: not UTF-8, or empty."""
    found: list[Diagnostic] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        found.append(diag("bom", Location(path)))
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, found + [diag("encoding", Location(path, line, column), byte=raw[exc.start])]
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return None, found + [diag("empty-file", Location(path))]
    return text, found


def _marked_error(exc: yaml.MarkedYAMLError, text: str, path: Path) -> Diagnostic:
    """A syntax error at the mark PyYAML gives, or an indent by tabs: a tab in the leading whitespace of the mark's
    line (at the tab), whatever words PyYAML found for it."""
    mark = exc.problem_mark or exc.context_mark
    loc = Location(path, *_pos(mark)) if mark else Location(path)
    problem = " ".join(str(p).split("\n")[0] for p in (exc.context, exc.problem) if p)
    lines = text.split("\n")
    line = lines[loc.line - 1] if mark and loc.line <= len(lines) else ""
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    if "\t" in indent:
        return diag("tab-indent", Location(path, loc.line, indent.index("\t") + 1))
    return diag("tab-indent" if "tab" in problem or "'\\t'" in problem else "yaml-syntax", loc, problem=problem)


def _yaml_error(exc: yaml.YAMLError, text: str, path: Path) -> Diagnostic:
    """What PyYAML refused, located: a syntax error or tab indent at its mark, a control character at its place."""
    if isinstance(exc, yaml.MarkedYAMLError):
        return _marked_error(exc, text, path)
    if isinstance(exc, yaml.reader.ReaderError):  # a control character
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or "\0")
        return diag("yaml-syntax", Location(path, line, column), problem=f"control character #x{char:04x} is not allowed")
    return diag("yaml-syntax", Location(path), problem=str(exc).replace("\n", " "))  # anything else PyYAML can raise


def read_bytes(path: Path, limits: Limits = LIMITS) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of one content file, or the diagnostic saying why they cannot be had."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opened so cannot block
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, [diag("unreadable", Location(path), reason="not a regular file")]
            raw = fh.read(limits.max_bytes + 1)
            if len(raw) > limits.max_bytes:
                size = os.fstat(fh.fileno()).st_size
                return None, [diag("file-too-large", Location(path), size=size, limit=limits.max_bytes)]
    except OSError as exc:
        return None, [diag("unreadable", Location(path), reason=exc.strerror or str(exc))]
    return raw, []


def load_file(path: Path, limits: Limits = LIMITS) -> tuple[Any, Marks, list[Diagnostic]]:
    """Read and parse one content file; never raises for bad content."""
    raw, problems = read_bytes(path, limits)
    if raw is None:
        return None, Marks(path), problems
    return parse_bytes(raw, path, limits)


# ---------------------------------------------------------------- round-trip writing (ruamel)


class RoundTripError(KbError):
    """A round-trip edit refused: what it would write does not read back as intended (nothing is written)."""


def text_scalar(text: str) -> Any:
    """``text`` as a scalar that this module's reader (YAML 1.1, as PyYAML) reads back as the same string.

    The round-trip writer follows YAML 1.2, where ``No``, ``on``, ``1:20`` or ``0o17`` are plain text; the
    reader follows YAML 1.1, where they are a boolean, a sexagesimal number, an octal... Such strings
    are written double-quoted.
    """
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if _resolved(text, (True, False)) != _STR:
        return DoubleQuotedScalarString(text)
    return text  # the writer quotes what YAML 1.2 itself needs quoted


def roundtrip_edit(path: Path, edit: Callable[[Any], bool], check: Callable[[Any], str | None] | None = None,
                   limits: Limits = LIMITS) -> bool:
    """Load ``path`` keeping comments and order, let ``edit`` change it, write it back atomically.

    ``edit`` receives the ruamel document (mappings behave like dicts) and returns True when it
    changed something; nothing is written otherwise. Returns what ``edit`` returned. Before replacing
    the file, what would be written is read back with this module's own reader: when it does not load
    cleanly, or ``check`` (given the data read back) names a problem, :class:`RoundTripError` is raised
    and the file is left as it was. The file keeps its permission bits.
    """
    from ruamel.yaml import YAML

    rt = YAML(typ="rt")
    rt.preserve_quotes = True
    rt.width = 4096
    rt.indent(mapping=2, sequence=4, offset=2)
    original = path.read_bytes()
    doc = rt.load(original)
    if not edit(doc):
        return False
    out = io.BytesIO()
    rt.dump(doc, out)
    written = _line_endings_of(original, out.getvalue())
    data, _, problems = parse_bytes(written, path, limits)
    errors = [d for d in problems if d.severity == "error"]
    if errors:
        raise RoundTripError(f"the file would not load: {errors[0].message}")
    problem = check(data) if check is not None else None
    if problem:
        raise RoundTripError(problem)
    atomic_write(path, written)
    return True


def _line_endings_of(original: bytes, dumped: bytes) -> bytes:
    """``dumped`` with the line endings ``original`` mostly uses: a file saved with Windows line endings (CRLF) keeps
    them on every line, so an edit's diff is the lines it changed (the writer ends lines with LF, and keeps a CR only
    where it kept a comment's text)."""
    lf = dumped.replace(b"\r\n", b"\n")
    return lf.replace(b"\n", b"\r\n") if 2 * original.count(b"\r\n") > original.count(b"\n") else lf
