"""The package list, found rather than written: the repository root is the package `infer`,
so each folder with an __init__.py below it is the subpackage infer.<folder> (pyproject.toml's
`packages.find` cannot add that prefix); and the native extensions, built for the platform of
the install or the wheel. Everything else is in pyproject.toml."""

import numpy
from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py

NOT_SHIPPED = ["tests", "tests.*", "benchmarks", "benchmarks.*", "examples", "examples.*",
               "scripts", "scripts.*", "filecheck_tests", "filecheck_tests.*", "build", "build.*"]


class BuildPy(build_py):
    """build_py without this file, which sits in the package's folder but is not infer's."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        return [m for m in super().find_package_modules(package, package_dir)
                if (m[0], m[1]) != ("infer", "setup")]


# The thread pool the compiled code's parallel loops run on: C with no Python API
# (codegen/thread_pool.py loads it with ctypes). The call path of compiled entries and the
# allocator their buffers come from: numpy's C API, so it is built against the numpy of
# pyproject's build requirements.
EXTENSIONS = [
    Extension("infer.codegen._thread_pool", ["codegen/thread_pool.c"],
              extra_compile_args=["-O2", "-std=gnu11", "-pthread"], extra_link_args=["-pthread"]),
    Extension("infer.codegen._entry_call", ["codegen/entry_call.c"],
              include_dirs=[numpy.get_include()],
              extra_compile_args=["-O2", "-std=gnu11", "-pthread"], extra_link_args=["-pthread"]),
]

if __name__ == "__main__":
    setup(packages=["infer", *(f"infer.{p}" for p in find_packages(exclude=NOT_SHIPPED))],
          ext_modules=EXTENSIONS, cmdclass={"build_py": BuildPy})
