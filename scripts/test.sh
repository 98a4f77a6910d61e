#!/usr/bin/env bash
# Set up, then run every test: ruff, the FileCheck tests (lit) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
ruff check .
python scripts/lint_filecheck.py filecheck_tests
lit -q filecheck_tests
python -m pytest -q -n "${PYTEST_WORKERS:-auto}" --durations=30 tests "$@"
