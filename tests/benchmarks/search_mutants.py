"""Hand-written mutants of kb/search/ranking.py and kb/search/query.py (issue 31, item 5).

    .venv/bin/python tests/benchmarks/search_mutants.py [--only N ...]

Each mutant changes one decision of the ranking (a parameter, a rule, a branch); it is applied, the
search tests run (``tests/test_search.py``, first failure stops them), the file is restored. Prints
``killed`` or ``SURVIVED`` per mutant and the count; a mutant whose text is not found is reported as
``STALE`` (the code moved: fix the mutant). The files are restored even when interrupted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
R, Q = "kb/search/ranking.py", "kb/search/query.py"

MUTANTS: list[tuple[str, str, str, str]] = [
    (R, "    return math.log(documents / (frequency + 1)) + 1", "    return 1.0", "no IDF"),
    (R, '"summary": 0.75, "body": 0.75})', '"summary": 0.75, "body": 0.0})', "no length normalisation in the body"),
    (R, '{"title": 4.0, "names": 2.0', '{"title": 1.0, "names": 2.0', "title weight 1"),
    (R, "return ((1 + matched) / (1 + words)) ** power if words else 1.0", "return 1.0", "no coordination"),
    (R, "    bm25_k1: float = 1.2\n", "    bm25_k1: float = 0.0001\n", "no term-frequency saturation"),
    (R, "    exact_name_boost: float = 3.0\n", "    exact_name_boost: float = 1.0\n", "no exact-name boost"),
    (R, "    game_context_boost: float = 1.6\n", "    game_context_boost: float = 1.0\n", "no game context"),
    (R, "    coordination: float = 4.0\n", "    coordination: float = 1.0\n", "coordination power 1"),
    (R, "    proximity_boost: float = 1.0\n", "    proximity_boost: float = 0.0\n", "no proximity stage"),
    (Q, "    return bool(first and {x + 1 for x in first} & positions(field, b))",
     "    return bool(first and set(first) & positions(field, b))", "proximity: any order, any distance"),
    (R, "    real_word_zipf: float = 3.0\n", "    real_word_zipf: float = 99\n", "no spelling guard"),
    (R, "    real_word_zipf: float = 3.0\n", "    real_word_zipf: float = 1.5\n", "spelling guard lets rare forms through"),
    (R, "    spell_min_length: int = 3\n", "    spell_min_length: int = 4\n", "three-letter words never corrected"),
    (R, "return 1 if len(word) <= short_word else 2", "return 1", "one edit at most"),
    (R, 'kind_prior: Mapping[str, float] = _table({"term": 0.25, "concept": 0.2})', "kind_prior: Mapping[str, float] = _table({})",
     "no kind prior"),
    (R, "if fold(w) not in question_words and not (w == w.lower()", "if not (w == w.lower()", "question words kept"),
    (R, "and not (w == w.lower() and fold(w) in _STOP)]", "]", "lowercase stop words kept"),
    (R, "    \"significa significado pasa ocurre sucede hace hago hacer hacemos funciona funcionan \"",
     "    \"significa significado pasa ocurre \"", "the verbs of asking kept as words"),
    (R, "    proximity_depth: int = 10\n", "    proximity_depth: int = 1\n", "the proximity stage re-weighs the first document only"),
    (R, '"names": 2.0, "questions": 3.0, "summary": 1.5', '"names": 2.0, "questions": 1.0, "summary": 1.5', "players' questions weigh as the body"),
    (R, '{"title": 0.75, "names": 0.5, "questions": 0.75', '{"title": 0.75, "names": 0.75, "questions": 0.75', "names normalised like text"),
    (R, "    alternative_weight: float = 0.3\n", "    alternative_weight: float = 1.0\n", "glossary alternatives weigh as the player's words"),
    (R, "    max_alternatives: int = 8\n", "    max_alternatives: int = 0\n", "no glossary alternative added"),
    (R, "    short_word: int = 5\n", "    short_word: int = 3\n", "two edits from four letters"),
    (R, "    same_prefix: int = 1\n", "    same_prefix: int = 0\n", "corrections need not share the first letter"),
    (R, "    return [key, bare] if bare and bare != key else [key]", "    return [key]", "game words not left out of names"),
    (Q, "    if not named:\n        return [keep]", "    if True:\n        return [keep]", "the game named never filters"),
    (Q, "            if len(docs):\n                break", "            if True:\n                break", "no fallback from the game named"),
    (R, "        return next(iter(named)) if len(named) == 1 else None", "        return None", "the game named is no context"),
    (R, "        if score > best_score:", "        if score >= best_score:", "passage ties to the last"),
    (R, "    score = {lang: 0 for lang in LANGS}\n    for word in words:", "    score = {lang: 0 for lang in LANGS}\n    for word in ():",
     "no query language"),
    (Q, "        if hit is not None and found:", "        if hit is not None:", "a word the index lacks counts"),
    (Q, "    return table[kind_ix, game_ix, exact_ix]", "    return table[kind_ix, game_ix, 0]", "exact names ignored"),
    (Q, "            keep &= ix == values.index(value) if value in values else False", "            pass", "no filters"),
    (Q, "        return self.held(wordlist.key(word)) or bool(self.languages(word))", "        return self.held(wordlist.key(word))",
     "known words corrected"),
    (Q, "        if not len(docs):\n            near = _nearest(s, words, p)", "        if False:\n            near = _nearest(s, words, p)",
     "no fuzzy fallback"),
    (Q, "        best.setdefault(entries[entry_ix[docs[i]]], (float(values[i]), int(docs[i])))",
     "        best[entries[entry_ix[docs[i]]]] = (float(values[i]), int(docs[i]))", "an entry's worst document"),
    (Q, "for term in terms(form, lang, name == \"names\" and form != form.lower()):",
     "for term in terms(form, lang, name == \"names\"):", "lowercase names as names"),
    (Q, "        clauses = {(f\"{name}_{lang}\", term): p.alternative_weight * p.field_weights[name]",
     "        clauses = {(f\"{name}_{lang}\", term): 0.0 * p.field_weights[name]", "no glossary alternatives"),
    (Q, "    weights = {t: ranking.idf(st.n, st.reader.doc_frequency(f\"body_{lang}\", t)) for t in terms}",
     "    weights = {t: 1.0 for t in terms}", "passages by count, not IDF"),
    (Q, "            stored = st.stored(st.doc_of[(stored[\"entry\"], want_lang)])", "            pass",
     "the hit shown in the language that matched"),
    (Q, "any(r.doc_frequency(f\"spell_{lg}\", key) for lg in LANGS) or key in self.glossary", "key in self.glossary",
     "an indexed word as typed is unknown"),
    (Q, "                    cands[c] = cands.get(c, 0) + freq\n            ranked = ranking.rank_corrections(folded, cands, p.short_word)\n            if ranked:\n                out[w] = ranked[0]",
     "                    cands[c] = cands.get(c, 0) + freq\n            ranked = ranking.rank_corrections(folded, cands, p.short_word)\n            if ranked:\n                out[w] = ranked[-1]",
     "the farthest correction"),
    (R, "    thesaurus_weight: float = 0.7\n", "    thesaurus_weight: float = 0.0\n", "no thesaurus"),
    (Q, "clauses.setdefault((f\"{name}_{lang}\", term), p.thesaurus_weight * p.field_weights[name])",
     "clauses.setdefault((f\"{name}_{lang}\", term), p.field_weights[name])", "the rules' words weigh as the player's"),
    (R, 'GENERAL_WORDS = frozenset("juegos games general generales".split())', "GENERAL_WORDS: frozenset[str] = frozenset()",
     "no query speaks of games in general"),
    (R, '    general_prior: Mapping[str, float] = _table({"term": 0.25, "concept": 3.0})',
     '    general_prior: Mapping[str, float] = _table({"term": 0.25, "concept": 0.2})', "a general query keeps the kind prior"),
    (R, "    return kept if kept else list(range(len(words)))", "    return list(range(len(words)))",
     "the words naming the games are searched"),
    (Q, "    return named, general, None if general else ranking.game_context(said, meta.context, named)",
     "    return named, general, ranking.game_context(said, meta.context, named)", "a general query keeps its game context"),
    (R, "    coverage_boost: float = 0.25\n", "    coverage_boost: float = 0.0\n", "no field coverage"),
    (R, '    coverage_fields: tuple[str, ...] = ("title", "questions")', '    coverage_fields: tuple[str, ...] = ("title",)',
     "field coverage of the title only"),
    (R, "    return 1.0 + boost * held / words if words else 1.0", "    return 1.0 + boost * bool(held) if words else 1.0",
     "field coverage: one word held counts as all"),
    (Q, "    held = max((sum(1 for t in terms", "    held = min((sum(1 for t in terms",
     "field coverage: the least covering field"),
    (Q, "    if not (p.proximity_boost or p.coverage_boost) or not len(docs):", "    if not p.proximity_boost or not len(docs):",
     "no second stage without proximity"),
]


def run(mutant: tuple[str, str, str, str]) -> str:
    path, old, new, _ = mutant
    file = REPO / path
    text = file.read_text(encoding="utf-8")
    if text.count(old) != 1:
        return "STALE"
    try:
        file.write_text(text.replace(old, new), encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "pytest", "tests/test_search.py", "-q", "-x", "-p", "no:cacheprovider"],
                              cwd=REPO, capture_output=True)
    finally:
        file.write_text(text, encoding="utf-8")
    return "SURVIVED" if done.returncode == 0 else "killed"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", type=int, nargs="*", help="run these mutants only (1-based)")
    args = ap.parse_args()
    counts: dict[str, int] = {}
    for n, mutant in enumerate(MUTANTS, 1):
        if args.only and n not in args.only:
            continue
        verdict = run(mutant)
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{n:>2} {verdict:<8} {mutant[0]}: {mutant[3]}", flush=True)
    print(", ".join(f"{v} {c}" for v, c in sorted(counts.items())))


if __name__ == "__main__":
    main()
