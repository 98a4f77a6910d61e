"""The `qnn` dialect: quantized ops beside the float ops of `graph` (TVM's QNN).

A quantized tensor holds 8-bit integers q standing for the reals (q - zero_point) * scale.
The ops keep the integers, zero points and scales apart, so each states what it computes:

    qnn.quantize    saturate(round_half_even(x / scale) + zero_point), f32 x, 8-bit result
    qnn.dequantize  (x - zero_point) * scale in f32, x 8-bit or int32
    qnn.concat      concat of 8-bit inputs, each requantized to the result's scale and
                    zero point (qnn.quantize(qnn.dequantize(x))), or copied when in them
    qnn.matmul      (a - a_zero_point) @ (b - b_zero_point), in int32        MatMulInteger
    qnn.conv        conv(x - x_zero_point, w - w_zero_point), in int32       ConvInteger
    qnn.requantize  saturate(round_half_even(x * input_scale / output_scale)
                             + output_zero_point), x int32, the result 8-bit
    qnn.add         saturate(round_half_even((a_scale * (a - a_zero_point)
                             + b_scale * (b - b_zero_point)) / y_scale) + y_zero_point)
    qnn.mul         saturate(round_half_even((a - a_zero_point) * (b - b_zero_point)
                             * (a_scale * b_scale / y_scale) + y_zero_point))
    qnn.global_avg_pool
                    qnn.requantize(sum over H, W... of (x - x_zero_point),
                                   x_scale, y_scale * count, y_zero_point)
    qnn.avg_pool    saturate(round_half_even(average_pool(x_scale * (x - x_zero_point))
                             / y_scale + y_zero_point))

QLinearMatMul and QLinearConv are qnn.matmul / qnn.conv (plus the int32 bias), then
qnn.requantize with input_scale = a_scale * b_scale. Zero points are operands, a
constant 0 where the model gives none: per tensor (one element) or 1-D, per row of a and
column of b for qnn.matmul, per output channel of w for qnn.conv, along `axis` for
qnn.quantize and qnn.dequantize; qnn.add and qnn.mul, the pools and qnn.concat
(QLinearAdd, QLinearMul, QLinearAveragePool, QLinearGlobalAveragePool, QLinearConcat)
take every scale and zero point per tensor. Scales are floats of one type (f32 for
qnn.quantize, qnn.dequantize and qnn.concat), per tensor or 1-D along the op's `axis`,
and must be positive (checked where they are constants). qnn-fold-qdq
(transforms/qnn_fold_qdq.py) makes qnn ops of QDQ models' patterns, and qnn.quantize /
qnn.dequantize of the QuantizeLinear / DequantizeLinear left at their float boundaries.
`qnn-canonicalize` (lowering/qnn_canonicalize.py) rewrites every op into graph ops on
int32 and f32, except a requantized conv or matmul by constant weights, which becomes one
of the two ops the integer kernels compute:

    qnn.conv_requant    clamp(round_half_even(f32(conv(x, w) + bias) * multiplier)
                        + y_zero_point, lo, hi), x padded with x_zero_point
    qnn.matmul_requant  the same with x @ w

w holds w - w_zero_point and the bias the zero points' terms; `qnn-legalize` packs w for
the target's kernel form (`kernel`, `lanes`); lowering/graph_ops/qnn_int8.py lowers them.

The ops live by category: `convert` (quantize, dequantize, concat), `arith` (the
products, requantize, add, mul, the pools), `kernels` (the integer kernels' ops and
forms); `base` holds the checks they share.

The syntax is graph's (dialects/graph/__init__.py):

    %y = qnn.matmul %a, %b, %a_zp, %b_zp : (tensor<2x4xui8>, tensor<4x3xui8>, tensor<ui8>,
         tensor<ui8>) -> tensor<2x3xi32>
"""

from __future__ import annotations

from xdsl.ir import Dialect

from infer.dialects.qnn.arith import (
    AddOp,
    AvgPoolOp,
    ConvOp,
    GlobalAvgPoolOp,
    MatMulOp,
    MulOp,
    RequantizeOp,
)
from infer.dialects.qnn.base import CANONICALIZE, EIGHT_BIT
from infer.dialects.qnn.convert import ConcatOp, DequantizeOp, QuantizeOp
from infer.dialects.qnn.kernels import (
    KERNELS,
    LANES,
    ConvRequantOp,
    MatMulRequantOp,
    channels_inner,
    conv_words,
    packed_words,
)

QNN = Dialect("qnn", [QuantizeOp, DequantizeOp, ConcatOp, MatMulOp, ConvOp, RequantizeOp,
                      AddOp, MulOp, GlobalAvgPoolOp, AvgPoolOp, ConvRequantOp,
                      MatMulRequantOp])

__all__ = ["CANONICALIZE", "EIGHT_BIT", "KERNELS", "LANES", "QNN", "AddOp", "AvgPoolOp",
           "ConcatOp", "ConvOp", "ConvRequantOp", "DequantizeOp", "GlobalAvgPoolOp",
           "MatMulOp", "MatMulRequantOp", "MulOp", "QuantizeOp", "RequantizeOp",
           "channels_inner", "conv_words", "packed_words"]
