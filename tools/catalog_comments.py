"""Write into the English catalog of the site's words, on each message whose msgid is a code key, a translator comment
carrying the Spanish of it (``#. Spanish: …``): generated from the Spanish catalog, never typed by hand.

    .venv/bin/python tools/catalog_comments.py        # after changing a Spanish word of kb/locale/es/LC_MESSAGES/kb.po

``tests/test_locale.py`` fails while the English catalog's comments are not up to date.
"""

from __future__ import annotations

import polib

from kb.core.files import atomic_write
from kb.core.locale import catalog_path
from kb.i18n.catalogs import with_spanish_notes


def main() -> int:
    english = polib.pofile(str(catalog_path("en")), wrapwidth=0)  # as written: no line re-wrapped
    changed = with_spanish_notes(english, polib.pofile(str(catalog_path("es")), wrapwidth=0))
    if changed:
        atomic_write(catalog_path("en"), str(english).encode("utf-8"))
    print(f"{catalog_path('en')}: {changed} comment(s) brought up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
