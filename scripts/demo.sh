#!/usr/bin/env bash
# The main job: set up, compile the light SqueezeNet that ships with onnx, run it, and
# print its top outputs, the difference to the shipped reference output, and the latency
# next to onnxruntime's (same inputs, interleaved repetitions, medians). It compiles at
# optimization level 3 (the blocked NCHWc layout); OPT_LEVEL=2 shows the level before it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
MODEL=$(python -c "from infer.model_zoo import light_model_path; print(light_model_path('${1:-squeezenet}'))")
infer-run "$MODEL" --opt-level "${OPT_LEVEL:-3}" --compare onnxruntime --bench "${BENCH:-20}"
