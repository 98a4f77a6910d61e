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
if ! python -c "import infer, onnxruntime, lit, filecheck, pytest, cryptography, ray" 2>/dev/null \
   || [ pyproject.toml -nt .venv/.installed ]; then
  python -m pip install -q --upgrade pip
  python -m pip install -q -e ".[test]"
  touch .venv/.installed
fi
# The OpenMP runtime the compiled code's parallel loops run on: the system's libgomp, or
# the copy scikit-learn's wheel bundles where the system has none and cannot install one.
if ! python -c "import sys; from infer.codegen.jit import openmp_library as f; sys.exit(f() is None)" 2>/dev/null; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -q && apt-get install -y -q libgomp1
  else
    python -m pip install -q scikit-learn
  fi
fi
