"""``kb docs [TOPIC]``: the authors' guide, read from the installed package.

The guide's pages are the repository's ``docs/`` pages, shipped in the wheel as data files
(``share/kb-rules/docs/``, ``[tool.setuptools.data-files]`` in pyproject.toml) and found through the
installed distribution's file list; from a source checkout, the checkout's ``docs/`` folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from kb.core.diagnostics import hint

__all__ = ["TOPICS", "guide_page", "docs"]

TOPICS = {
    "packs": "start here: install, kb init, kb new, the site, what --strict refuses, pytest, JSON for programs",
    "format": "the entry format: fields, texts, links, terms, worked examples, resolvers and their labels",
    "translators": "translating: kb i18n status, export, import; PO files in your CAT tool; the glossary",
}
"""The guide's pages, in reading order, with what each covers."""

SHARED = "share/kb-rules/docs"
"""Where the wheel installs the pages, below the environment's prefix."""


def guide_page(topic: str) -> Path | None:
    """The file of guide page ``topic`` (one of :data:`TOPICS`), installed or in the source checkout."""
    from importlib.metadata import PackageNotFoundError, distribution

    name = f"{topic}.md"
    try:
        for file in distribution("kb-rules").files or []:
            if file.as_posix().endswith(f"{SHARED}/{name}"):
                found = Path(str(file.locate()))
                if found.is_file():
                    return found
    except PackageNotFoundError:
        pass
    beside = Path(__file__).resolve().parents[2] / "docs" / name  # a source checkout (or an editable install)
    return beside if beside.is_file() else None


def docs(topic: str | None, out: TextIO, err: TextIO) -> int:
    """Print guide page ``topic``, or the list of pages; 2 for an unknown topic or a page not installed."""
    if topic is None:
        out.write("The authors' guide: kb docs TOPIC prints a page (Markdown).\n\n")
        for name, what in TOPICS.items():
            out.write(f"  {name:<12} {what}\n")
        page = guide_page("packs")
        out.write(f"\nThe pages are in {page.parent}\n" if page else "\nThe pages are not installed with this copy of kb.\n")
        return 0
    if topic not in TOPICS:
        err.write(f"kb docs: no page '{topic}'{hint(topic, TOPICS)} (pages: {', '.join(TOPICS)})\n")
        return 2
    page = guide_page(topic)
    if page is None:
        err.write(f"kb docs: the page '{topic}' is not installed with this copy of kb (install the wheel, "
                  "or read docs/ in the source)\n")
        return 2
    out.write(page.read_text(encoding="utf-8"))
    return 0
