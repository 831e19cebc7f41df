#!/usr/bin/env bash
# The mutation run over kb/search/ranking.py and kb/search/query.py (issue 31, item 5): see search_mutants.py.
set -eu
cd "$(dirname "$0")/../.."
exec .venv/bin/python tests/benchmarks/search_mutants.py "$@"
