"""A bilingual (Spanish/English) rules knowledge base for tabletop games.

>>> from kb import KnowledgeBase
>>> kb = KnowledgeBase.load()            # the bundled content/, loaded, validated and linked once
>>> kb.get("malifaux.shooting-into-combat").title.en
'Shooting into combat'

Names are imported on first use, so ``kb search`` on a fresh index starts without loading the
YAML parser or the schema validator.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "KnowledgeBase",
    "ConceptView",
    "Diagnostic",
    "Entry",
    "Example",
    "ExampleResult",
    "Game",
    "Link",
    "Location",
    "Term",
    "Text",
    "default_content_root",
    "NoContent",
    "KbError",
    "InvalidArgument",
    "RuleError",
    "UnknownEntry",
    "UnknownExample",
    "UnknownValue",
]

_WHERE = {
    "KnowledgeBase": "api", "ConceptView": "api", "default_content_root": "core.files", "NoContent": "core.files",
    "KbError": "core.errors", "InvalidArgument": "core.errors", "UnknownEntry": "core.errors",
    "UnknownExample": "core.errors", "UnknownValue": "core.errors", "RuleError": "mechanics",
    "Diagnostic": "core.diagnostics", "ExampleResult": "examples.runner", "Link": "link.linker",
    "Entry": "core.model", "Example": "core.model", "Game": "core.model", "Location": "core.model",
    "Term": "core.model", "Text": "core.model",
}

if TYPE_CHECKING:
    from kb.api import ConceptView, KnowledgeBase
    from kb.core.diagnostics import Diagnostic
    from kb.examples.runner import ExampleResult
    from kb.core.errors import InvalidArgument, KbError, UnknownEntry, UnknownExample, UnknownValue
    from kb.core.files import NoContent, default_content_root
    from kb.link.linker import Link
    from kb.mechanics import RuleError
    from kb.core.model import Entry, Example, Game, Location, Term, Text


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kb' has no attribute {name!r}")
