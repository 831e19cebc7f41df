"""The reader's language, in the browser: the one small script both the root page (which sends ``/`` to a language's
home) and the "page not found" page (which puts a language's part first) run. Only the site's own languages are ever
picked (the list is checked with ``indexOf``, never used as an object's keys: a stored ``"constructor"`` or
``"__proto__"`` is no language). Pure: the callers put :func:`pick_language` into their inline scripts.
"""

from __future__ import annotations

import json

__all__ = ["pick_language"]

_PICK = "".join(line.strip() for line in """function (langs, first) {
  function has(l) { return langs.indexOf(l) >= 0; }
  if (has(first)) return first;
  try { var kept = localStorage.getItem("kb-lang"); if (has(kept)) return kept; } catch (e) {}
  var asked = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < asked.length; i++) { var l = String(asked[i]).slice(0, 2).toLowerCase(); if (has(l)) return l; }
  return null;
}""".splitlines())


def pick_language(langs: list[str], first: str = "null") -> str:
    """A JavaScript expression: the first of ``langs`` that is the value of the JavaScript expression ``first`` (say,
    the address's language folder), else the language the reader chose on the site (``localStorage`` ``kb-lang``),
    else the first of the browser's languages; ``null`` when none of these is one of ``langs``."""
    listed = json.dumps(langs).replace("<", "\\u003c")
    return f"({_PICK})({listed}, {first})"
