#!/usr/bin/env bash
# The main job: set up; a trained model doing its task (examples/digits.py: a random forest
# learns scikit-learn's handwritten digits, infer and onnxruntime classify the held-out
# ones); then compile one of the light CNNs that ship with onnx (SqueezeNet by default), run
# it, and check it: its output against the reference output shipped with the model and
# against onnxruntime (PASS or FAIL), and its latency next to onnxruntime's (same inputs,
# interleaved repetitions). It compiles at optimization level 3 (the blocked NCHWc
# layout); OPT_LEVEL=2 shows the level before it, BENCH=N sets the repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=${1:-squeezenet}
# The name is checked before the setup, against model_zoo.py's list read as text (nothing
# installed is needed for that).
python3 - "$NAME" <<'PY' || exit 2
import ast
import sys

tree = ast.parse(open("model_zoo.py").read())
names = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
             and getattr(n.targets[0], "id", "") == "LIGHT_MODELS")
if sys.argv[1] not in names:
    sys.exit(f"demo.sh: unknown model '{sys.argv[1]}'; the light models are: "
             + ", ".join(names))
PY
bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
status=0
echo
python examples/digits.py || status=$?
MODEL=$(python -c "from infer.model_zoo import light_model_path; print(light_model_path('$NAME'))")
cat <<TEXT

light_$NAME is one of ONNX's test models, shipped inside the onnx package (no download).
Every conv and gemm weight in it is the constant 0.02, so its outputs say nothing about
images (SqueezeNet's 1000 class scores all come out as 1/1000). What the run below shows
is that infer computes what the model says: its output next to the reference output that
ships with the model and next to onnxruntime's (PASS or FAIL within ONNX BackendTest's
tolerances), then the latency of both on the same inputs.

TEXT
infer-run "$MODEL" --opt-level "${OPT_LEVEL:-3}" --compare onnxruntime \
    --bench "${BENCH:-20}" || status=$?
echo
if [ "$status" -eq 0 ]; then
    echo "demo: the digits forest and light_$NAME compiled by infer match onnxruntime" \
        "(and light_$NAME its reference output)"
else
    echo "demo: FAILED (exit status $status)"
fi
exit "$status"
