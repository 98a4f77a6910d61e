# lit configuration of infer's FileCheck tests: `lit -v filecheck_tests`.
import os
import shutil

import lit.formats

config.name = "infer"  # noqa: F821 - `config` is injected by lit
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)

# The tools come from the environment infer is installed in.
for tool in ("infer-opt", "infer-run", "filecheck", "python"):
    if shutil.which(tool) is None:
        raise RuntimeError(f"{tool} not on PATH: install infer with `pip install -e .[test]`")
config.environment["PATH"] = os.environ["PATH"]
# A checkout imported through PYTHONPATH (a git worktree beside the installed one) is the one tested.
if "PYTHONPATH" in os.environ:
    config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(
    ("%onnx_light", os.path.join(__import__("onnx").__path__[0], "backend/test/data/light"))
)
