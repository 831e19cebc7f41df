"""What an entry shows, worded in one language, before any output marks it up (:mod:`kb.view.entry`,
:mod:`kb.view.worked`)."""
