"""Every ranking parameter and rule of the search, as data and pure functions (no Whoosh here).

The contract, for any runtime that reproduces the ranking (the Python engine in
:mod:`kb.search.query`; the browser search, from data exported at build time):

**Documents.** One document per entry and language (``lang`` = ``es`` or ``en``); its scored
fields are ``<field>_<lang>`` for each field of :data:`FIELDS`, each holding the terms produced by
that field's analyzer. :func:`kb.search.query.analyse` ``(fieldname, text)`` gives the terms of any
text for a field: tokenize with :data:`TOKEN` → lowercase → fold accents (Whoosh ``accent_map``) →
drop the stop words of ``lang`` (Whoosh's stop list; *not* in ``names_*``) → Snowball stem of
``lang``. Every document also stores ``entry``, ``game``, ``kind`` and ``lang``. The exporter reads
terms, postings (document, term frequency), document frequencies, stored field lengths and ``N``
from the open index (``kb.search.index.Reader.searcher``) and the name table, word→game table and
game-name words from ``meta.json`` beside it (``Reader.meta``).

**Query.** :func:`query_words` gives the words of a query (question words dropped). Each word
makes one *slot*: the word analysed for every field of both languages (for ``names_*``, a word typed
all lowercase is analysed as for ``body_*``, stop words dropped: "LoS" is a name, "los" an article),
each distinct (field, term) a clause of weight :attr:`Params.field_weights` ``[field]``; a word's spelling
correction (below) adds its clauses to the same slot. Glossary alternatives of the names in the
query (``synonyms.json``, :class:`kb.search.index.Expander`; at most :attr:`Params.max_alternatives`) are
extra slots over ``title`` and ``names`` only, weighted ``alternative_weight × field_weights``; they
do not count as words. A word with no clause (a stop word) has no slot. **Thesaurus** (issue 31): a word (and its
correction) the word list knows whose term in a language's body analysis is a players' word of
:mod:`kb.search.thesaurus` adds, to its own slot, the terms of that line's rules' words in that language's
fields, weighted ``thesaurus_weight × field_weights`` (clauses the word has keep theirs); the browser gets the
table resolved per key of the word list (``rules.thesaurus``).

**Score of a document** = ``entry_factor × coordination(matched, words) × Σ weight × bm25`` over
the clauses whose term is in the document's field, with Whoosh's BM25F per field::

    bm25  = idf × tf × (K1 + 1) / (tf + K1 × (1 − B + B × fl / avgfl))       (K1 = bm25_k1, B = bm25_b[field])
    idf   = ln(N / (df + 1)) + 1     N = documents in the index (both languages, deleted ones included
                                     until merged: Whoosh's doc_count_all; an update leaves none,
                                     kb.search.index), df = documents whose field holds the term (idem)
    fl    = the document's field length as Whoosh stores it (one byte, quantised; read it from the
            index), avgfl = total length of the field / N

``matched`` counts the word slots with at least one clause in the document, ``words`` the word
slots (:func:`coordination`). :func:`entry_factor`: the kind prior (:attr:`Params.kind_prior`: a glossary
entry that merely names a noun of the question weighs less), replaced by :attr:`Params.exact_name_boost`
when the whole query *is* one of the entry's names (:func:`name_keys` of the query looked up in the
name table, which maps :func:`name_key` of every name to entry ids), times
:attr:`Params.game_context_boost` when no game filter is set and the query's own words point to the
entry's game (:func:`game_context` over the word→game table of :func:`context_table`). Filters
(game, kind) drop documents; with no game filter, the games the query names (:func:`named_games`)
filter, unless no document of theirs matches; results are one per entry (its best document), highest score first,
ties by document number.

**Second stage** (issue 31). The best :attr:`Params.proximity_depth` documents (score, then document number) are
multiplied by :func:`proximity_factor` (the share of the query's word pairs, :func:`word_pairs`, side by side in one
field) times :func:`coverage_factor` (the most of the query's words, each by its terms in the document's language,
that one of :attr:`Params.coverage_fields` holds, over those words).

**Words.** A query word is read through the word list of :mod:`kb.search.words` (the same list the
browser gets): a word the list does not hold has no terms, whatever its stem.

**Spelling.** A word of :attr:`Params.spell_min_length` letters or more is corrected only when the word list
does not know it (not a word of the index or the glossary, nor a common word of Spanish or English:
``wordfreq``, Zipf ≥ :attr:`Params.real_word_zipf`). Candidates are the folded, unstemmed words of ``spell_<lang>`` for the query's
language (:func:`query_language`, else the reader's ``lang``; the other language only if that finds
none) within :func:`max_distance` edits sharing the first letter; the first of
:func:`rank_corrections` is taken. If no document matches at all, each word's nearest indexed word
in either language is tried the same way ("fuzzy"). "Did you mean" repeats the query with the corrections
:func:`shown_corrections` shows (:func:`did_you_mean`; a word shorter than :attr:`Params.shown_min_length` is shown as
typed unless its correction only adds letters).

Everything here is data or a pure function of its arguments: the tunable figures are one frozen
:class:`Params` (defaults :data:`DEFAULTS`), given to the engine and the exporter by their caller; the
exporter may call :func:`context_table`, :func:`name_key`, :func:`rank_corrections`, :func:`edit_distance`
or serialise the parameters as they are.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

from kb.core.model import LANGS
from kb.core.terms import STOPWORDS, fold

__all__ = [
    "TOKEN", "FIELDS", "Params", "DEFAULTS", "QUESTION_WORDS", "PUNCTUATION", "query_tokens", "query_words", "name_key", "name_keys",
    "entry_factor", "speaks_generally", "searched_words", "GENERAL_WORDS", "best_passage", "passage_section", "word_pairs", "proximity_factor", "coverage_factor", "context_table", "game_context", "named_games", "query_language", "max_distance",
    "edit_distance", "rank_corrections", "shown_corrections", "did_you_mean",
]

TOKEN = r"\w+(\.?\w+)*"
"""A token: word characters, with inner dots kept (``A13``, ``2.5``)."""

FIELDS = ("title", "names", "questions", "summary", "body")
"""Scored fields of a document (each exists per language: ``title_es``, ``title_en``...).

``title``: the entry's title in the document's language. ``names``: every other name of the entry —
the other language's title, players' names (``also_called``, both languages), glossary forms and
abbreviations, a concept's names in every game, tags, id words. ``questions``: the questions
players ask (``questions`` and the spellings they type, ``typed``, of the document's language). ``summary`` and ``body``: the text."""

QUESTION_WORDS = frozenset(
    "puedo puede pueden podemos cuanto cuantos cuanta cuantas como que cual cuales quien quienes cuando donde hay "
    "significa significado pasa ocurre sucede hace hago hacer hacemos funciona funcionan "
    "can could may does do did how what which who whom when where why is are happens mean means meaning "
    "happen happened work works should".split())
"""Words of a question that say nothing about the rule ("¿puedo...?", "how does...", "¿qué se hace si...?", "how does
... work"): dropped. Issue 31 added the verbs of asking how a rule works ("hace", "funciona", "happen", "work"), chosen on
the tuning parts (fresh situations 0.909 → 0.932; no other figure moved)."""

GENERAL_WORDS = frozenset("juegos games general generales".split())
"""Words of a query that speak of games in general ("puntos de acción en los juegos", "initiative in general"): the
question is about the idea every game shares (a concept), not one game's rule (:func:`speaks_generally`)."""


def _table(values: Mapping[str, float]) -> Any:
    return field(default_factory=lambda: MappingProxyType(dict(values)))


@dataclass(frozen=True)
class Params:
    """Every tunable figure of the ranking, declared once here (the defaults) and given to the engine by its
    caller (:meth:`kb.KnowledgeBase.load`'s ``ranking``; ``dataclasses.replace(DEFAULTS, coordination=2.0)``
    for a variant). The browser search gets the same figures from the exported data."""

    field_weights: Mapping[str, float] = _table({"title": 4.0, "names": 2.0, "questions": 3.0, "summary": 1.5, "body": 1.0})
    """Clause weight of a query term in each field of :data:`FIELDS`. The players' questions weigh more than the other
    names since issue 31 (chosen on the tuning parts: a situation in a player's words is best met by a player's question)."""
    bm25_b: Mapping[str, float] = _table({"title": 0.75, "names": 0.5, "questions": 0.75, "summary": 0.75, "body": 0.75})
    """BM25 length normalisation per field (Whoosh ``BM25F(B=..., <field>_<lang>_B=...)``)."""
    bm25_k1: float = 1.2
    """BM25 term-frequency saturation."""
    kind_prior: Mapping[str, float] = _table({"term": 0.25, "concept": 0.2})
    """Weight of an entry by kind (others 1.0): a glossary entry that merely names a noun of the
    question ranks below the rule that answers it."""
    general_prior: Mapping[str, float] = _table({"term": 0.25, "concept": 3.0})
    """The kind prior of a query that speaks of games in general (:func:`speaks_generally`): then the concept, the idea
    every game shares, is the answer, and weighs as if the query were its name (:attr:`exact_name_boost`; issue 31:
    cross-game questions; on the fresh tuning part 1.6 gave 0.911, 2.5–4 gave 0.915)."""
    general_words: frozenset[str] = GENERAL_WORDS
    """Words that make a query speak of games in general (:func:`speaks_generally`)."""
    exact_name_boost: float = 3.0
    """Weight of an entry when the whole query is one of its names (title, players' name, glossary
    form, abbreviation): then the term wins. Replaces the kind prior."""
    game_context_boost: float = 1.6
    """Weight of the entries of the game the query's own words point to (no ``game`` filter given)."""
    alternative_weight: float = 0.3
    """Weight of the glossary's other names for a name in the query: they help, the player's words lead."""
    max_alternatives: int = 8
    """Most glossary alternatives added to one query."""
    thesaurus_weight: float = 0.7
    """Weight of a rules' word a player's word is also read as (:mod:`kb.search.thesaurus`), times the field's weight,
    in the player's word's own slot (issue 31: paraphrases in the players' words)."""
    coordination: float = 4.0
    """Power of the share of the query's words a document matches: ``((1 + matched) / (1 + words)) ** coordination``.
    A rule that answers the whole question outranks an entry that names one of its nouns."""
    proximity_boost: float = 1.0
    """The second stage (issue 31): the best :attr:`proximity_depth` documents' scores are multiplied by
    ``1 + proximity_boost × (the query's word pairs that stand side by side in one field / all its pairs)``
    (:func:`proximity_factor`): "tirada de iniciativa", "first player marker" as written beat the same words
    apart. Chosen on the tuning parts (fresh MRR 0.930 → 0.936, players' 0.903 → 0.910, relevance.yaml equal)."""
    proximity_depth: int = 10
    """How many of the best documents the second stage re-weighs."""
    coverage_boost: float = 0.25
    """The second stage's field coverage (issue 31, eleventh session): each of the best :attr:`proximity_depth`
    documents' scores is also multiplied by ``1 + coverage_boost × (the most of the query's words one of its
    :attr:`coverage_fields` holds / the query's words)`` (:func:`coverage_factor`): of sibling entries that share the
    words, the one whose title or players' questions say most of the question leads, not the one whose long text
    mentions them all. Chosen by 2-fold cross-validation on the tuning parts (``tests/benchmarks/fusion_probe.py``:
    the folds chose 0.25 and 0.5, both better out of sample on every set; 0.25 on all of them)."""
    passage_weights: Mapping[str, float] = _table({"notes": 0.5})
    """Weight of a page's passages by section (:func:`passage_section`; others 1.0) when choosing the passage a hit
    shows (:func:`best_passage`): the notes say what the text leaves open and which reading is taken, and name the
    rule's words while doing so, so a note wins only when it holds twice the query's weight of the rule's own
    paragraphs (issue 31: "volador ignora zona de amenaza" had landed on a note about charges; on the fresh tuning
    part the passage shown held the answer 288 → 292 of 404 times, the same for any weight from 0 to 0.5)."""
    coverage_fields: tuple[str, ...] = ("title", "questions")
    """The fields whose coverage of the query's words the second stage weighs (:attr:`coverage_boost`)."""
    question_words: frozenset[str] = QUESTION_WORDS
    """Words a query drops (:func:`query_words`)."""
    real_word_zipf: float = 3.0
    """The spelling guard: a word the index does not hold is taken as meant, never corrected, when its Zipf frequency
    in Spanish or English reaches this (:func:`kb.search.words.real_words`; also :func:`query_language`'s evidence). Issue 31: at 1.5 rare forms that are mostly typos
    ("breech", "frist", "chek", "aera", "preperation" are all in the lists) were never corrected; "tango", "tengo",
    "squad", "couple" (Zipf 3.6–5.9) are still words."""
    spell_min_length: int = 3
    """Shortest word a spelling correction is sought for (shorter ones are taken as typed). 3 since issue 31 ("hul",
    "luk": within one edit, only when the index does not hold the word and it is no common word)."""
    fuzzy_min_length: int = 3
    """Shortest word the last resort (nothing matched at all) looks a nearest indexed word up for."""
    short_word: int = 5
    """Words up to this many letters are corrected within one edit; longer ones within two (:func:`max_distance`)."""
    same_prefix: int = 1
    """How many first letters a correction shares with the word typed."""
    shown_min_length: int = 4
    """Shortest word "did you mean" shows corrected whatever its correction (:func:`shown_corrections`); a shorter one is
    shown as typed unless the correction only adds letters to it ("hul" → "hull"): one letter changed in three makes
    another word ("dmg", the players' abbreviation of damage, had read "dig"). The display only: the search still
    takes the correction."""


DEFAULTS = Params()
"""The ranking as tuned (docs/search.md)."""

_WORDS = re.compile(r"\w+")
PUNCTUATION = re.compile(r"[¿?¡!,;:()\[\]{}<>\"'’`´]+")
"""Characters a query's words are split at besides spaces (the browser reads the pattern from the data)."""


_STOP = STOPWORDS["es"] | STOPWORDS["en"]


def query_tokens(text: str) -> list[str]:
    """Every word of a query as typed (what "did you mean" repeats, misspelt words replaced)."""
    return _WORDS.findall(PUNCTUATION.sub(" ", text))


def query_words(text: str, question_words: frozenset[str] = QUESTION_WORDS) -> list[str]:
    """The words of a query as typed, question words dropped, and the stop words of either language typed in
    lowercase ("el", "la", "en" of a Spanish query would otherwise be words of the English fields, where they
    are no stop words; "LoS" stays); all of them kept if nothing else is left."""
    words = query_tokens(text)
    kept = [w for w in words if fold(w) not in question_words and not (w == w.lower() and fold(w) in _STOP)]
    return kept or words


def word_pairs(terms: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """The query's word pairs for proximity: each word's first analysed term (``terms``, one list per query word,
    stop words giving none and left out), every two neighbours that differ."""
    seq = [t[0] for t in terms if t]
    return [(a, b) for a, b in zip(seq, seq[1:], strict=False) if a != b]


def proximity_factor(near: int, pairs: int, boost: float) -> float:
    """``1 + boost × near / pairs``: ``near`` of the query's ``pairs`` stand side by side in one of the document's fields."""
    return 1.0 + boost * near / pairs if pairs else 1.0


def coverage_factor(held: int, words: int, boost: float) -> float:
    """``1 + boost × held / words``: one of the document's coverage fields holds ``held`` of the query's ``words`` (its
    words with terms in the document's language; :attr:`Params.coverage_boost`)."""
    return 1.0 + boost * held / words if words else 1.0


def name_key(text: str) -> str:
    """What two names share when they are "the same name": folded words, question and stop words dropped."""
    words = [fold(w) for w in _WORDS.findall(text)]
    kept = [w for w in words if w not in QUESTION_WORDS and w not in _STOP]
    return " ".join(kept or words)


def coordination(matched: int, words: int, power: float) -> float:
    """The multiplier for a document matching ``matched`` of the query's ``words`` (in any field)."""
    return ((1 + matched) / (1 + words)) ** power if words else 1.0


def idf(documents: int, frequency: int) -> float:
    """Whoosh's inverse document frequency: ``ln(N / (df + 1)) + 1``."""
    return math.log(documents / (frequency + 1)) + 1


def name_keys(text: str, game_words: frozenset[str] = frozenset()) -> list[str]:
    """The keys under which the whole query may be an entry's name: :func:`name_key`, and the same without
    the words of game names ("PSR battletech" is the name "PSR")."""
    key = name_key(text)
    bare = " ".join(w for w in key.split() if w not in game_words)
    return [key, bare] if bare and bare != key else [key]


def entry_factor(kind: str, game: str, entry: str, exact: frozenset[str], context: str | None, p: Params,
                 general: bool = False) -> float:
    """The multiplier of every score of ``entry``'s documents for one query.

    ``exact``: entries one of whose names is the whole query; ``context``: the game the query's own
    words point to (``None`` when a game filter is set or the words point nowhere); ``general``: the query speaks
    of games in general (:func:`speaks_generally`: the kind prior is :attr:`Params.general_prior`).
    """
    prior = p.general_prior if general else p.kind_prior
    factor = p.exact_name_boost if entry in exact else prior.get(kind, 1.0)
    if context is not None and game == context:
        factor *= p.game_context_boost
    return factor


def passage_section(anchor: str) -> str:
    """The section a passage's anchor belongs to: ``notes`` for ``notes-2``, the anchor itself otherwise
    (``summary``, ``step-upkeep``)."""
    head, _, n = anchor.rpartition("-")
    return head if head and n.isdigit() else anchor


def best_passage(passages: Sequence[tuple[str, Iterable[str]]], weights: Mapping[str, float],
                 sections: Mapping[str, float]) -> int:
    """Which of a hit's passages (each given by its anchor and its analysed terms) it shows: the one whose terms hold
    the most query weight (``weights``: each analysed query term's IDF in the body field) times its section's weight
    (``sections``, :attr:`Params.passage_weights`), the first of equals; 0 when none holds any (the summary, when the
    entry has one, is passage 0)."""
    best, best_score = 0, 0.0
    for i, (anchor, held) in enumerate(passages):
        score = sum(w for t, w in weights.items() if t in held) * sections.get(passage_section(anchor), 1.0)
        if score > best_score:
            best, best_score = i, score
    return best


# ---------------------------------------------------------------- game context


def _context_words(phrase: str) -> set[str]:
    return {w for w in (fold(t) for t in _WORDS.findall(phrase)) if len(w) > 2 and not w.isdigit()
            and w not in _STOP and w not in QUESTION_WORDS}


def context_table(names: Mapping[str, Iterable[str]], texts: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """The word → game table: a word of one game's names only (game name, titles, glossary forms, players'
    names) that appears in no other game's text at all. ``names`` and ``texts``: per game id."""
    seen: dict[str, set[str]] = {}
    for game, parts in texts.items():
        for part in parts:
            for w in _WORDS.findall(fold(part)):
                seen.setdefault(w, set()).add(game)
    named: dict[str, set[str]] = {}
    for game, phrases in names.items():
        for phrase in phrases:
            for w in _context_words(phrase):
                named.setdefault(w, set()).add(game)
    table = {w: next(iter(games)) for w, games in named.items()  # one game's name only, in no other game's text
             if len(games) == 1 and seen.get(w, games) <= games}
    return dict(sorted(table.items()))


def named_games(words: Sequence[str], table: Mapping[str, str], game_words: frozenset[str]) -> frozenset[str]:
    """The games the query names: its words that are words of a game's name (``game_words``) and that the
    word → game table gives to one game ("starcraft", "malifaux", "warlords"; not "game" or "juego", which
    every game's text holds). With no ``game`` filter given, they act as one: only their entries are searched,
    unless none of them matches (then every game's are)."""
    return frozenset(table[w] for w in (fold(word) for word in words) if w in game_words and w in table)


def speaks_generally(words: Sequence[str], general_words: frozenset[str]) -> bool:
    """True when one of the query's words speaks of games in general (:attr:`Params.general_words`: "juegos", "games",
    "general"). With no game filter and no game named, such a query has no game context, its concepts weigh
    :attr:`Params.general_prior`, and those words are not searched (:func:`searched_words`)."""
    return any(fold(w) in general_words for w in words)


def searched_words(words: Sequence[str], said: Sequence[str], table: Mapping[str, str], game_words: frozenset[str],
                   named: frozenset[str], general: frozenset[str]) -> list[int]:
    """The positions of the query's words that are searched: all but those that only say which games the query is
    about — a word of a game's name that named a game (``named``, :func:`named_games`: it filters already), and, for
    a query that speaks generally, its ``general`` words — unless nothing else is left. ``said``: the words as
    corrected (what named the games)."""
    def about(w: str) -> bool:
        return (w in game_words and table.get(w) in named) or w in general

    kept = [i for i, w in enumerate(said) if not about(fold(w))]
    return kept if kept else list(range(len(words)))


def game_context(words: Sequence[str], table: Mapping[str, str], named: frozenset[str] = frozenset()) -> str | None:
    """The game the query names when it names one (:func:`named_games`), else the game most of the query's words
    point to (a word, or it without a final ``s``/``es``), when one leads."""
    if named:
        return next(iter(named)) if len(named) == 1 else None
    return _vote(words, table)


def _vote(words: Sequence[str], table: Mapping[str, str]) -> str | None:
    votes: dict[str, int] = {}
    for word in words:
        w = fold(word)
        for form in (w, w[:-1] if w.endswith("s") else None, w[:-2] if w.endswith("es") else None):
            if form and form in table:
                votes[table[form]] = votes.get(table[form], 0) + 1
                break
    if not votes:
        return None
    best = max(votes.values())
    leaders = [g for g, n in votes.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


# ---------------------------------------------------------------- spelling


def query_language(words: Sequence[str], languages: Callable[[str], Iterable[str]]) -> str | None:
    """``es`` or ``en`` when more of the query's words are words of one language than of the other, else ``None``.
    ``languages(word)``: the languages whose common words (Zipf :attr:`Params.real_word_zipf` or more,
    :mod:`kb.search.words`) the word is one of; the same list in both engines (issue 31: ``wordfreq``'s
    frequency of any word cannot travel to the browser)."""
    score = {lang: 0 for lang in LANGS}
    for word in words:
        for lang in languages(word):
            score[lang] += 1
    if score["es"] == score["en"]:
        return None
    return max(score, key=score.__getitem__)


def shown_corrections(fixed: Mapping[str, str], min_length: int) -> dict[str, str]:
    """The corrections "did you mean" shows: those of words of ``min_length`` letters or more
    (:attr:`Params.shown_min_length`), and of shorter ones whose correction keeps every letter typed, in order."""
    return {w: c for w, c in fixed.items() if len(w) >= min_length or _keeps_letters(fold(w.lower()), c)}


def _keeps_letters(word: str, correction: str) -> bool:
    rest = iter(correction)
    return all(ch in rest for ch in word)


def did_you_mean(text: str, fixed: Mapping[str, str], min_length: int) -> str | None:
    """The query as typed with the corrections :func:`shown_corrections` shows, or None when it shows none."""
    shown = shown_corrections(fixed, min_length)
    return " ".join(shown.get(w, w) for w in query_tokens(text)) if shown else None


def max_distance(word: str, short_word: int) -> int:
    """Most edits allowed to correct ``word``: 1 up to ``short_word`` letters (:attr:`Params.short_word`), 2 beyond."""
    return 1 if len(word) <= short_word else 2


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Levenshtein distance with adjacent transpositions (optimal string alignment: ``ventja``/``ventaja`` 1,
    ``dispraar``/``disparar`` 1); beyond ``limit`` it returns ``limit + 1``. Plain Python, row by row, giving up
    as soon as a whole row exceeds ``limit``: a query corrects a few words against some tens of short candidates,
    which costs less than importing RapidFuzz (about 8 ms a process); RapidFuzz's ``OSA.distance(a, b,
    score_cutoff=limit)`` gives the same figures (``tests/test_search.py::test_edit_distance_is_rapidfuzzs_osa``)."""
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            d = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, before[j - 2] + 1)
            row.append(d)
        if limit is not None and min(row) > limit:
            return limit + 1
        before, prev = prev, row
    d = prev[-1]
    return d if limit is None or d <= limit else limit + 1


def rank_corrections(word: str, candidates: Mapping[str, int], short_word: int) -> list[str]:
    """``candidates`` (indexed word → document frequency) within :func:`max_distance` of ``word``,
    nearest first (edits, then difference in length), then most frequent, then alphabetical."""
    w = fold(word.lower())
    limit = max_distance(w, short_word)
    scored = [(d, abs(len(c) - len(w)), -freq, c) for c, freq in candidates.items()
              if c != w and (d := edit_distance(w, c, limit)) <= limit]
    return [c for *_, c in sorted(scored)]
