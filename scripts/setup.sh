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
# The native extensions (codegen/*.c) are built by the install: again when one changed.
stale=""
for f in pyproject.toml setup.py codegen/*.c; do
  if [ "$f" -nt .venv/.installed ]; then stale=1; fi
done
if [ -n "$stale" ] || ! python -c "import infer, onnxruntime, lit, filecheck, pytest, cryptography, ray, sklearn, skl2onnx
from infer.codegen.thread_pool import library; library()
from infer.codegen.jit import entry_call; entry_call()" 2>/dev/null; then
  python -m pip install -q --upgrade pip
  python -m pip uninstall -q -y infer 2>/dev/null || true  # the distribution's former name
  python -m pip install -q -e ".[test]"
  touch .venv/.installed
fi
