"""A bilingual (Spanish/English) rules knowledge base for tabletop games.

>>> from kb import KnowledgeBase
>>> kb = KnowledgeBase.load()            # the bundled content/, loaded, validated and linked once
>>> kb.get("malifaux.shooting-into-combat").title.en
'Shooting into combat'
"""

from .api import ConceptView, KnowledgeBase, default_content_root
from .diagnostics import Diagnostic
from .examples import ExampleResult
from .linker import Link
from .model import Entry, Example, Game, Location, Term, Text

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
]
