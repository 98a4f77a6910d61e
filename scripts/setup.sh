#!/usr/bin/env bash
# Create .venv (once) and install infer with its test dependencies into it.
# Idempotent: a second run only checks that everything is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
# (the thread pool, C, is built by the install: codegen/thread_pool.c)
if ! python -c "import infer, onnxruntime, lit, filecheck, pytest, cryptography, ray
from infer.codegen.thread_pool import library; library()" 2>/dev/null \
   || [ pyproject.toml -nt .venv/.installed ]; then
  python -m pip install -q --upgrade pip
  python -m pip uninstall -q -y infer 2>/dev/null || true  # the distribution's former name
  python -m pip install -q -e ".[test]"
  touch .venv/.installed
fi
