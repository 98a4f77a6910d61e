"""The package list, found rather than written: the repository root is the package `infer`,
so each folder with an __init__.py below it is the subpackage infer.<folder> (pyproject.toml's
`packages.find` cannot add that prefix). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

NOT_SHIPPED = ["tests", "tests.*", "benchmarks", "benchmarks.*", "examples", "examples.*",
               "scripts", "scripts.*", "filecheck_tests", "filecheck_tests.*", "build", "build.*"]


class BuildPy(build_py):
    """build_py without this file, which sits in the package's folder but is not infer's."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        return [m for m in super().find_package_modules(package, package_dir)
                if (m[0], m[1]) != ("infer", "setup")]


if __name__ == "__main__":
    setup(packages=["infer", *(f"infer.{p}" for p in find_packages(exclude=NOT_SHIPPED))],
          cmdclass={"build_py": BuildPy})
