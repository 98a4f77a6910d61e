"""Linear attention: attention as a recurrence over a [d_k, d_v] state per KV head.

ONNX's LinearAttention (opset 27). Per batch, KV head and step t, in f32:

    gated:  S *= exp(g_t)                           (g_t per head, or per key dim)
    delta:  v_t = beta_t * (v_t - S^T k_t)
            S += k_t (x) v_t
            o_t = scale * q_t^T S                   (for each query head of the group)

`update_rule` picks the lines: "linear" (neither), "gated", "delta", "gated_delta".
query / key / value are packed [B, T, heads * dim]; the state is [B, H_kv, d_k, d_v],
from `past_state` or zeros, and its final value is the second result.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, TensorType
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import Dim
from infer.dialects.graph.base import TRAITS, GraphOp
from infer.dialects.graph.types import float_attr, int_attr, is_float

UPDATE_RULES = ("linear", "gated", "delta", "gated_delta")


@irdl_op_definition
class LinearAttentionOp(GraphOp):
    """See the module's doc. `extras` are, in order and each only where it applies: the
    past state (`has_past_state`), the decay (gated rules), beta (delta rules). A `scale`
    of 0 means 1/sqrt(d_k)."""

    name = "graph.linear_attention"
    ONNX_OP: ClassVar[str | None] = "LinearAttention"
    FLOAT_ONLY: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = False
    query = operand_def(TensorType)
    key = operand_def(TensorType)
    value = operand_def(TensorType)
    extras = var_operand_def(TensorType)
    output = result_def(TensorType)
    present_state = result_def(TensorType)
    q_num_heads = prop_def(IntegerAttr)
    kv_num_heads = prop_def(IntegerAttr)
    scale = prop_def(FloatAttr, default_value=float_attr(0.0))
    update_rule = prop_def(StringAttr, default_value=StringAttr("gated_delta"))
    has_past_state = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def roles(cls, props) -> list[str]:
        """What each extra operand is."""
        rule = cls.prop(props, "update_rule")
        return ((["past_state"] if cls.prop(props, "has_past_state") else [])
                + (["decay"] if rule in ("gated", "gated_delta") else [])
                + (["beta"] if rule in ("delta", "gated_delta") else []))

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "update_rule") not in UPDATE_RULES:
            raise VerifyException(f"'{cls.name}' update_rule must be one of "
                                  + ", ".join(UPDATE_RULES))
        hq, hkv = cls.prop(props, "q_num_heads"), cls.prop(props, "kv_num_heads")
        if hq <= 0 or hkv <= 0 or hq % hkv:
            raise VerifyException(f"'{cls.name}' q_num_heads ({hq}) must be a positive "
                                  f"multiple of kv_num_heads ({hkv})")
        if len(types) != 3 + len(cls.roles(props)):
            raise VerifyException(f"'{cls.name}' takes query, key, value and "
                                  + (", ".join(cls.roles(props)) or "nothing else"))
        e = types[0].element_type
        if any(t.element_type != e for t in types[:3]) or not is_float(e):
            raise VerifyException(f"'{cls.name}' query, key and value must be one float "
                                  "type")
        if any(len(t.get_shape()) != 3 for t in types[:3]):
            raise VerifyException(f"'{cls.name}' query, key and value must be [B, T, H*D]")

    @classmethod
    def head_dims(cls, props, dims: list[list[Dim]]) -> tuple[int, int]:
        """(d_k, d_v), from the packed last dims (which must be static)."""
        hq, hkv = cls.prop(props, "q_num_heads"), cls.prop(props, "kv_num_heads")
        q, v = dims[0][2], dims[2][2]
        if not (isinstance(q, int) and isinstance(v, int)):
            raise ValueError("the packed head dims of query and value must be static")
        if q % hq or v % hkv:
            raise ValueError(f"query's last dim {q} or value's {v} does not split in "
                             "heads")
        return q // hq, v // hkv

    @classmethod
    def output_dims(cls, props, dims, consts):
        q, k, v = dims[:3]
        hq, hkv = cls.prop(props, "q_num_heads"), cls.prop(props, "kv_num_heads")
        dk, dv = cls.head_dims(props, dims)
        for other, what in ((k, "key"), (v, "value")):
            D.require(D.EQUAL, other[0], q[0], f"{what}'s batch and query's")
            D.require(D.EQUAL, other[1], q[1], f"{what}'s length and query's")
        D.require(D.EQUAL, k[2], hkv * dk, "key's last dim (kv_num_heads * d_k)")
        b, t = q[0], q[1]
        for role, d in zip(cls.roles(props), dims[3:], strict=True):
            if role == "past_state":
                D.require(D.EQUAL, len(d), 4, "past_state's rank")
                for x, y, what in zip(d, [b, hkv, dk, dv], ["batch", "heads", "d_k", "d_v"],
                                      strict=True):
                    D.require(D.EQUAL, x, y, f"past_state's {what}")
            else:
                D.require(D.EQUAL, len(d), 3, f"{role}'s rank")
                D.require(D.EQUAL, d[0], b, f"{role}'s batch")
                D.require(D.EQUAL, d[1], t, f"{role}'s length")
                allowed = (hkv, hkv * dk) if role == "decay" else (hkv, 1)
                if d[2] not in allowed:
                    raise ValueError(f"{role}'s last dim {d[2]} must be one of {allowed}")
        return [[b, t, hq * dv], [b, hkv, dk, dv]]

    @classmethod
    def output_elements(cls, props, elements):
        roles = cls.roles(props)
        state = elements[3 + roles.index("past_state")] if "past_state" in roles else None
        return [elements[0], state or elements[0]]


__all__ = ["LinearAttentionOp", "UPDATE_RULES"]
