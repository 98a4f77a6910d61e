"""Graph ops built one after another by a pass, then inserted where they belong."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects.graph.base import GraphOp
from infer.dialects.graph.constant import ConstantOp
from infer.dialects.graph.types import int_attr, ints_attr


class OpList(list[Operation]):
    """The ops in the order built; `add` and `const` return the new value."""

    def add(self, cls: type[GraphOp], *operands: SSAValue, **props: int | list[int] | Attribute
            ) -> SSAValue:
        """`cls` applied to `operands` (result types inferred); properties as ints, lists
        of ints or attributes."""
        attrs = {k: v if isinstance(v, Attribute) else ints_attr(v) if isinstance(v, list)
                 else int_attr(v) for k, v in props.items()}
        op = cls.make(list(operands), attrs)
        self.append(op)
        return op.results[0]

    def const(self, value: np.ndarray) -> SSAValue:
        op = ConstantOp(np.asarray(value))
        self.append(op)
        return op.output
