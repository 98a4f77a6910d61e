"""Einsum: sums of products of operands' elements, indexed as an equation says.

`equation` is numpy's: one term of letters per operand ("ij,jk->ik"), `...` standing for
broadcast leading dims (right-aligned across operands, as numpy broadcasts them), and
after `->` the output's term; without `->`, the output is the broadcast dims then the
letters that appear once, in alphabetical order. A letter repeated within a term reads
that term's diagonal. Every letter has one extent in all terms that use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.irdl import irdl_op_definition, prop_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import Dim
from infer.dialects.graph.base import TRAITS, GraphOp


@dataclass(frozen=True)
class EinsumTerms:
    """The equation with `...` expanded into labels "0", "1"... (broadcast dims,
    numbered from the outermost of the widest operand): each operand's labels, and the
    output's."""

    inputs: list[list[str]]
    output: list[str]

    def extents(self, dims: list[list[Dim]]) -> dict[str, Dim]:
        """Each label's extent (broadcast dims broadcast; a letter's must agree)."""
        out: dict[str, Dim] = {}
        for labels, ds in zip(self.inputs, dims, strict=True):
            for label, d in zip(labels, ds, strict=True):
                if label not in out:
                    out[label] = d
                elif label.isdigit():
                    out[label] = D.broadcast_dim(out[label], d)
                else:
                    D.require(D.EQUAL, out[label], d, f"the extents of '{label}'")
        return out

    @property
    def summed(self) -> list[str]:
        """The labels of the inputs not in the output, in order of first appearance."""
        seen = dict.fromkeys(label for labels in self.inputs for label in labels)
        return [label for label in seen if label not in self.output]


def parse_einsum(equation: str, ranks: list[int]) -> EinsumTerms:
    """The terms of `equation` for operands of `ranks`; ValueError when they disagree."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise ValueError(f"einsum '{equation}' has {len(terms)} operand terms for "
                         f"{len(ranks)} operands")
    for t in [*terms, rhs]:
        body = t.replace("...", "", 1)
        if not all(c.isalpha() for c in body) or "." in body:
            raise ValueError(f"einsum '{equation}': bad term '{t}'")
    widths = []
    for t, r in zip(terms, ranks, strict=True):
        letters = len(t.replace("...", ""))
        width = r - letters if "..." in t else 0
        if width < 0 or ("..." not in t and letters != r):
            raise ValueError(f"einsum term '{t}' does not fit an operand of rank {r}")
        widths.append(width)
    wide = max(widths, default=0)

    def expand(t: str, width: int) -> list[str]:
        head, dots, tail = t.partition("...")
        dims = [str(wide - width + k) for k in range(width)] if dots else []
        return [*head, *dims, *tail]

    inputs = [expand(t, w) for t, w in zip(terms, widths, strict=True)]
    if arrow:
        if "..." not in rhs and wide and any(widths):
            raise ValueError(f"einsum '{equation}': the output drops the '...' dims")
        output = expand(rhs, wide)
        known = {label for labels in inputs for label in labels}
        if len(set(output)) != len(output) or not set(output) <= known:
            raise ValueError(f"einsum '{equation}': bad output term '{rhs}'")
    else:
        letters = [c for t in terms for c in t.replace("...", "")]
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        output = [str(k) for k in range(wide)] + once
    return EinsumTerms(inputs, output)


@irdl_op_definition
class EinsumOp(GraphOp):
    """See the module's doc. Sums accumulate in the element type."""

    name = "graph.einsum"
    ONNX_OP: ClassVar[str | None] = "Einsum"
    inputs = var_operand_def(TensorType)
    output = result_def(TensorType)
    equation = prop_def(StringAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if not types:
            raise VerifyException(f"'{cls.name}' needs an operand")
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException(f"'{cls.name}' operands must have one element type")

    @classmethod
    def output_dims(cls, props, dims, consts):
        terms = parse_einsum(cls.prop(props, "equation"), [len(d) for d in dims])
        extent = terms.extents(dims)
        return [[extent[label] for label in terms.output]]

    def numpy(self, *xs: np.ndarray) -> np.ndarray:
        return np.einsum(self.equation.data.replace(" ", ""), *xs)


def matmul_equation(rank_a: int, rank_b: int) -> str:
    """The einsum equation of numpy.matmul on operands of these ranks: how integer
    products are computed (the matmul kernels take floats)."""
    left = "j" if rank_a == 1 else "...ij"
    right = "j" if rank_b == 1 else "...jk"
    out = ("..." if "..." in left + right else "") + ("i" if rank_a > 1 else "") + (
        "k" if rank_b > 1 else "")
    return f"{left},{right}->{out}"


__all__ = ["EinsumOp", "EinsumTerms", "matmul_equation", "parse_einsum"]
