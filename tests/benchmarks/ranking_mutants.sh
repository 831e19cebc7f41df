#!/usr/bin/env bash
# Hand-written mutants of kb/search/ranking.py (issue 31, item 5): each is applied, tests/test_search.py runs,
# the file is restored. Prints killed / SURVIVED per mutant. Run: bash tests/benchmarks/ranking_mutants.sh
set -u
cd "$(dirname "$0")/../.."
f=kb/search/ranking.py
bak=$(mktemp)
trap 'cp "$bak" $f; rm -f "$bak"' EXIT
declare -a M=(
 's/    return math.log(documents \/ (frequency + 1)) + 1/    return 1.0/'
 's/"summary": 0.75, "body": 0.75}/"summary": 0.75, "body": 0.0}/'
 's/{"title": 4.0, "names": 3.0/{"title": 1.0, "names": 3.0/'
 's/return ((1 + matched) \/ (1 + words)) \*\* COORDINATION if words else 1.0/return 1.0/'
 's/^BM25_K1 = 1.2/BM25_K1 = 0.0001/'
 's/^EXACT_NAME_BOOST = 3.0/EXACT_NAME_BOOST = 1.0/'
 's/^GAME_CONTEXT_BOOST = 1.6/GAME_CONTEXT_BOOST = 1.0/'
 's/^COORDINATION = 3.0/COORDINATION = 1.0/'
 's/^KNOWN_ZIPF = 1.5/KNOWN_ZIPF = 99/'
 's/return 1 if len(word) <= 5 else 2/return 1/'
)
for m in "${M[@]}"; do
  cp $f "$bak"; sed -i "$m" $f
  if cmp -s $f "$bak"; then echo "NOOP $m"; continue; fi
  if .venv/bin/python -m pytest tests/test_search.py -q -x -p no:cacheprovider >/dev/null 2>&1; then echo "SURVIVED $m"; else echo "killed $m"; fi
  cp "$bak" $f
done
git diff --stat $f
