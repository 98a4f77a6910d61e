"""Transposed windows → loop nests: ConvTranspose and Col2Im, each a gather per output
element over the kernel (block) offsets; an offset o + pb - k * d that is no multiple of
the stride, or lands past the input, hits no input position and its product is selected
away (loads clamped into the buffers)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.graph_ops.index import as_dim
from infer.lowering.graph_ops.operands import shape_entries


@lowers(graph.ConvTransposeOp)
def _conv_transpose(s: Lowering, op: graph.ConvTransposeOp, ins: list[SSAValue]
                    ) -> list[SSAValue]:
    """y[n, m, o] = B[m] + sum over the group's channels c and the taps k with
    o + pb - k * d = i * s for an input position i: x[n, c, i] * w[c, m, k].

    A gather per output element (no scatter): every tap is visited and the ones that hit
    no input position are discarded by a select (their loads clamped into the buffers),
    so a stride s does s^dims times the multiply-adds the result needs; exact, simple,
    not fast."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w = ins[0], ins[1]
    xd, wd = b.dims(x), b.dims(w)
    n = len(xd) - 2
    strides, dilations, pads, g = graph.ConvTransposeOp.attrs(op.properties, n)
    element = operand_element(op)
    cg = xd[1] // g
    mg = wd[1]
    zero = b.idx(0)
    with b.loop_nest(b.dims(y)) as ivs:
        group = as_dim(b, ivs[1]) // mg
        m = as_dim(b, ivs[1]) - group * mg
        init = b.load(ins[2], [ivs[1]]) if len(ins) > 2 else b.const(0.0, element)

        def taps(j: int, c: Dim, src: list[Dim], ks: list[SSAValue], hit: SSAValue | None,
                 acc: SSAValue) -> SSAValue:
            if j == n:
                channel = group * cg + c
                v = b.mul(b.load(x, [ivs[0], channel, *src]), b.load(w, [channel, m, *ks]))
                assert hit is not None  # rank >= 3: a tap per spatial dim decided it
                return b.select(hit, b.add(acc, v), acc)
            st, last = strides[j], b.idx(xd[2 + j] - 1)

            def tap(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                num = b.idx(as_dim(b, ivs[2 + j]) + pads[j] - as_dim(b, k) * dilations[j])
                i = b.div(num, b.idx(st))
                ok = b.insert(arith.AndIOp(b.cmpi("sge", num, zero),
                                           b.cmpi("sle", i, last))).results[0]
                if st > 1:
                    rem = b.insert(arith.RemSIOp(num, b.idx(st))).results[0]
                    ok = b.insert(arith.AndIOp(ok, b.cmpi("eq", rem, zero))).results[0]
                at = b.min(b.max(i, zero), last)
                both = ok if hit is None else b.insert(arith.AndIOp(hit, ok)).results[0]
                return [taps(j + 1, c, [*src, at], [*ks, k], both, carried[0])]

            return b.reduce_loop(0, wd[2 + j], [acc], tap)[0]

        (value,) = b.reduce_loop(
            0, cg, [init], lambda c, acc: [taps(0, as_dim(b, c), [], [], None, acc[0])])
        b.store(value, y, ivs)
    return [y]


@lowers(graph.Col2ImOp)
def _col2im(s: Lowering, op: graph.Col2ImOp, ins: list[SSAValue]) -> list[SSAValue]:
    """y[n, c, o] = sum over the block offsets k with o + pb - k * d = j * s for a block
    position j: x[n, c * prod(block) + k, j] (k and j linearized row-major); the offsets
    that hit no block are selected away, as in ConvTranspose."""
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    image = shape_entries(s, op, ins, 1)
    block = shape_entries(s, op, ins, 2)
    n = len(image)
    props = op.properties
    strides = graph.Col2ImOp.prop(props, "strides") or [1] * n
    dilations = graph.Col2ImOp.prop(props, "dilations") or [1] * n
    pads = graph.Col2ImOp.prop(props, "pads") or [0] * (2 * n)
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
        raise UnsupportedError(f"'{op.name}' strides/dilations/pads do not match {n} dims")
    per_block = product(block)
    channels = xd[1] // per_block
    blocks = [(image[i] + (pads[i] + pads[n + i]) - (block[i] - 1) * dilations[i] - 1)
              // strides[i] + 1 for i in range(n)]
    for i in range(n):
        D.require(D.AT_LEAST, block[i], 1, f"block dim {i}")
        D.require(D.AT_LEAST, blocks[i], 1, f"blocks along dim {i}")
    D.require(D.EQUAL, channels * per_block, xd[1], "input channels and C x prod(block)")
    D.require(D.EQUAL, product(blocks), xd[2], "input's L and the blocks of the image")
    t = op.results[0].type
    assert isinstance(t, TensorType)
    y = s.alloc(s.typed_dims([xd[0], channels, *image], t), t.element_type)
    zero = b.idx(0)
    with b.loop_nest(b.dims(y)) as ivs:

        def offsets(j: int, k_lin: Dim, j_lin: Dim, hit: SSAValue | None, acc: SSAValue
                    ) -> SSAValue:
            if j == n:
                channel = as_dim(b, ivs[1]) * per_block + k_lin
                v = b.load(x, [ivs[0], channel, j_lin])
                assert hit is not None
                return b.select(hit, b.add(acc, v), acc)
            last = b.idx(blocks[j] - 1)

            def tap(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                num = b.idx(as_dim(b, ivs[2 + j]) + pads[j] - as_dim(b, k) * dilations[j])
                at = b.div(num, b.idx(strides[j]))
                ok = b.insert(arith.AndIOp(b.cmpi("sge", num, zero),
                                           b.cmpi("sle", at, last))).results[0]
                if strides[j] > 1:
                    rem = b.insert(arith.RemSIOp(num, b.idx(strides[j]))).results[0]
                    ok = b.insert(arith.AndIOp(ok, b.cmpi("eq", rem, zero))).results[0]
                at = b.min(b.max(at, zero), last)
                both = ok if hit is None else b.insert(arith.AndIOp(hit, ok)).results[0]
                return [offsets(j + 1, k_lin * block[j] + as_dim(b, k),
                                j_lin * blocks[j] + as_dim(b, at), both, carried[0])]

            return b.reduce_loop(0, block[j], [acc], tap)[0]

        b.store(offsets(0, 0, 0, None, b.const(0.0, operand_element(op))), y, ivs)
    return [y]
