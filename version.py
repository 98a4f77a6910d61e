"""infer's version: the one place it is written (pyproject.toml reads it from here, so an
installed wheel and a source tree that was never installed agree)."""

__version__ = "0.1.0"
