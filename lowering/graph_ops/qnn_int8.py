"""qnn.conv_requant and qnn.matmul_requant → register-blocked int8 kernels on 8-bit data,
in the form qnn-legalize chose (`kernel`, `lanes`; the packing is described there).

Both are GEMMs whose accumulators are vectors of `lanes` i32, each lane adding `per`
products a step (vnni: 4 u8 x s8 with vpdpbusd; pairs: 2 i16 x i16 with vpmaddwd), over
operands packed into i32 words of `per` values along k:

    conv   Y[m, p] = sum_k W[m, k] * X[k, p]        vectors along the output pixels p
        Xp[q, p] = the q-th word of pixel p's window (im2col, packed per image and group:
                   x read as u8 or widened to i16, padding = x_zero_point)
        acc[r, v] = dot(acc[r, v], Xp[q, p0 + v*L : +L], splat(W[m0 + r, q]))
    matmul Y[i, j] = sum_k X[i, k] * W[k, j]        vectors along the output columns j
        Xp[i, q]  = the q-th word of row i (x packed the same way, per batch position)
        acc[r, v] = dot(acc[r, v], splat(Xp[i0 + r, q]), Wp[j0 / L + v, q, 0:L])

for q over the row's words, rows x vectors accumulators in registers (the op's
`register_tile`, written by select-int8-tile).
The epilogue requantizes each accumulator as onnxruntime does, in f32:

    y = clamp(f32(acc + bias) * multiplier, lo - zy, hi - zy) rounded half to even + zy

and stores `lanes` 8-bit outputs at once. Pixels and columns past the end are computed on
padding and not stored (a vector straddling the end goes through an L-byte scratch), so
no access leaves its buffer. The conv's input is copied into a buffer padded with its zero
point first where it has pads, so the packing loop reads without bounds checks, and its
packed tile of pixels is cut into blocks of at most the op's `pixel_block` bytes, kept in
L2 while every row tile of weights runs over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, llvm, math, vector
from xdsl.dialects.builtin import IntegerType, VectorType, f32, i8, i16, i32
from xdsl.ir import SSAValue

from infer.dialects import llvmx
from infer.dialects import qnn as Q
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import as_dim, floor_div, imin
from infer.lowering.graph_ops.window import Window, flatten_from
from infer.lowering.loop_builder import LoopBuilder, static_product

_VNNI = {16: "llvm.x86.avx512.vpdpbusd.512", 8: "llvm.x86.avx512.vpdpbusd.256"}
_PAIRS = {16: "llvm.x86.avx512.pmaddw.d.512", 8: "llvm.x86.avx2.pmadd.wd",
          4: "llvm.x86.sse2.pmadd.wd"}


def _form(op: Q.ConvRequantOp | Q.MatMulRequantOp) -> tuple[str, int]:
    if op.kernel is None or op.lanes is None:
        raise UnsupportedError(f"{op.name}: its weights are not packed (run qnn-legalize "
                               "before graph-to-loops)")
    return op.kernel.data, op.lanes.value.data


def _cast(b: LoopBuilder, cls: type, v: SSAValue, t: object) -> SSAValue:
    return b.insert(cls(v, t)).results[0]


def _bitcast(b: LoopBuilder, v: SSAValue, element: object, lanes: int) -> SSAValue:
    return b.insert(vector.BitcastOp(v, VectorType(element, [lanes]))).results[0]


def _dot(b: LoopBuilder, kernel: str, lanes: int, acc: SSAValue, u: SSAValue, s: SSAValue
         ) -> SSAValue:
    """acc + the products of the words of u and s lane by lane: four u8 (u) x s8 (s)
    each (vpdpbusd), or two i16 x i16 (vpmaddwd)."""
    if kernel == "vnni":
        args = [acc, _bitcast(b, u, i8, 4 * lanes), _bitcast(b, s, i8, 4 * lanes)]
        return b.insert(llvm.CallIntrinsicOp(_VNNI[lanes], args, [acc.type])).results[0]
    args = [_bitcast(b, u, i16, 2 * lanes), _bitcast(b, s, i16, 2 * lanes)]
    pairs = b.insert(llvm.CallIntrinsicOp(_PAIRS[lanes], args, [acc.type])).results[0]
    return b.add(acc, pairs)


class _Epilogue:
    """acc + bias requantized to `lanes` 8-bit values (see the module doc)."""

    def __init__(self, s: Lowering, op: Q.ConvRequantOp | Q.MatMulRequantOp,
                 zero_point: SSAValue, lanes: int) -> None:
        b = s.b
        self.b, self.lanes = b, lanes
        out = cast(IntegerType, op.y.type.element_type)  # type: ignore[attr-defined]
        ext = arith.ExtSIOp if out == IntegerType(8) else arith.ExtUIOp
        zy = _cast(b, ext, b.load(zero_point, []), i32)
        self.zy = b.splat(zy, lanes)
        zf = _cast(b, arith.SIToFPOp, zy, f32)
        ends = [b.const(float(v.value.data), f32) for v in (op.lo, op.hi)]
        self.lo, self.hi = (b.splat(b.sub(e, zf), lanes) for e in ends)

    def __call__(self, acc: SSAValue, bias: SSAValue, mult: SSAValue) -> SSAValue:
        b, lanes = self.b, self.lanes
        # arith's casts take no vectors in xDSL 0.74: LLVM's own (llvmx.fptosi, see there)
        v = _cast(b, llvm.SIToFPOp, b.add(acc, bias), VectorType(f32, [lanes]))
        v = b.mul(v, mult, arith.FastMathFlagsAttr("none"))
        # v is never NaN: compare-and-select is one vmaxps / vminps, where max/minimumf's
        # NaN and signed-zero rules cost five instructions each (a -0 clamp still gives 0)
        v = self._clamp("olt", self._clamp("ogt", v, self.lo), self.hi)
        v = b.unary(math.RoundEvenOp, v)
        q = b.add(_cast(b, llvmx.FPToSIOp, v, VectorType(i32, [lanes])), self.zy)
        return _cast(b, llvm.TruncOp, q, VectorType(i8, [lanes]))

    def _clamp(self, pred: str, v: SSAValue, end: SSAValue) -> SSAValue:
        """v where `v pred end` holds, else end."""
        return self.b.select(self.b.cmpf(pred, v, end), v, end)

    def store(self, v: SSAValue, buf: SSAValue, at: list[Dim | SSAValue],
              count: int) -> None:
        """The first `count` lanes of v at buf[at...] (all at once when count = lanes, else
        lane by lane: no scratch, so that the threads of a parallel loop share nothing)."""
        b = self.b
        if count == self.lanes:
            b.vstore(v, buf, at)
            return
        for j in range(count):
            lane = b.insert(vector.ExtractOp(v, [j], i8)).results[0]
            b.store(lane, buf, [*at[:-1], as_dim(b, at[-1]) + j])


def _word(b: LoopBuilder, bytes_: list[SSAValue], kernel: str, signed: bool) -> SSAValue:
    """`per` 8-bit values as one i32 word: bytes of u8 (s8 + 128) for vnni, i16 halves
    (sign- or zero-extended) for pairs."""
    if kernel == "vnni":
        word = None
        for j, v in enumerate(bytes_):
            u = _cast(b, arith.ExtUIOp, v, i32)
            if signed:  # s8 + 128 as u8 flips the top bit
                u = b.insert(arith.XOrIOp(u, b.const(0x80, i32))).results[0]
            if j:
                u = b.insert(arith.ShLIOp(u, b.const(8 * j, i32))).results[0]
            word = u if word is None else b.insert(arith.OrIOp(word, u)).results[0]
        return cast(SSAValue, word)
    ext = arith.ExtSIOp if signed else arith.ExtUIOp
    lo, hi = (_cast(b, ext, v, i32) for v in bytes_)
    lo = b.insert(arith.AndIOp(lo, b.const(0xFFFF, i32))).results[0]
    hi = b.insert(arith.ShLIOp(hi, b.const(16, i32))).results[0]
    return b.insert(arith.OrIOp(lo, hi)).results[0]


def _byte(value: int) -> int:
    """An 8-bit value's bits as the signed i8 a buffer holds."""
    return value - 256 if value > 127 else value


@dataclass(frozen=True)
class _Im2colTiles:
    """The kernel over packed windows Xp [words, pixels] of one image and group: what
    every tile of output channels x pixels shares."""

    b: LoopBuilder
    xp: SSAValue
    w: SSAValue
    bias: SSAValue
    mult: SSAValue
    yf: SSAValue  # y with its plane flattened
    epi: _Epilogue
    kernel: str
    lanes: int
    words: int
    mg: int  # output channels per group
    zero: SSAValue  # an i32 vector of zeros

    def tile(self, n: SSAValue, g: int, r: int, m0: Dim, p0: Dim, nvec: int, valid: int
             ) -> None:
        """Output channels m0.. (r of them) of group g x pixels p0.. (nvec vectors, the
        first `valid` stored)."""
        b, lanes, mg = self.b, self.lanes, self.mg

        def step(q: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            xs = [b.vload(self.xp, [q, as_dim(b, p0) + v * lanes], lanes) for v in range(nvec)]
            out = list(carried)
            for i in range(r):
                wv = b.splat(b.load(self.w, [as_dim(b, m0) + g * mg + i, q]), lanes)
                for v in range(nvec):
                    out[i * nvec + v] = _dot(b, self.kernel, lanes, out[i * nvec + v], xs[v],
                                             wv)
            return out

        accs = b.reduce_loop(0, self.words, [self.zero] * (r * nvec), step)
        for i in range(r):
            ch = as_dim(b, m0) + g * mg + i
            bv, mv = (b.splat(b.load(t, [ch]), lanes) for t in (self.bias, self.mult))
            for v in range(nvec):
                at: list[Dim | SSAValue] = [n, ch, as_dim(b, p0) + v * lanes]
                self.epi.store(self.epi(accs[i * nvec + v], bv, mv), self.yf, at,
                               min(lanes, valid - v * lanes))


@lowers(Q.ConvRequantOp, outline=True)
def _conv_requant(s: Lowering, op: Q.ConvRequantOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w, bias, mult, zero_point = ins
    kernel, lanes = _form(op)
    per = Q.KERNELS[kernel]
    signed = op.x.type.element_type == IntegerType(8)  # type: ignore[attr-defined]
    xd, yd, wd = b.dims(x), b.dims(y), b.dims(w)
    c, h, wi = (cast(int, d) for d in xd[1:])
    m, oh, ow = (cast(int, d) for d in yd[1:])
    words = cast(int, wd[1])
    kh, kw = (int(k) for k in op.kernel_shape.get_values())
    win = Window.of_conv(op, [kh, kw])
    group = op.group.value.data
    cg, mg = c // group, m // group
    taps, k = kh * kw, cg * kh * kw
    rows, vectors = op.register_tile()
    tile = vectors * lanes
    inner = op.channels_inner()
    # in place along rows that fill 7/8 of their vectors (14, 28, 56 of 16 lanes: 5%
    # faster on ResNet-50 than im2col; 13 and 7 measured slower in place)
    if inner and taps > 1 and ow * 8 >= 7 * -(-ow // lanes) * lanes:
        _conv_direct(s, op, ins, y, kernel, lanes, signed)
        return [y]
    p = oh * ow
    full_tiles, rest = divmod(p, tile)
    xp = s.alloc([words, (full_tiles + (rest > 0)) * tile], i32)
    yf = cast(SSAValue, flatten_from(b, y, 2))
    epi = _Epilogue(s, op, zero_point, lanes)
    pt, pl, pb, pr = win.pads[0], win.pads[1], win.pads[2], win.pads[3]
    padded = any(win.pads)
    xpad = s.alloc([c, h + pt + pb, wi + pl + pr], i8) if padded else None
    zx = b.const(_byte(op.x_zero_point.value.data), i8)
    pointwise = not padded and (kh, kw) == (1, 1) and win.strides == [1, 1]
    xflat = flatten_from(b, x, 2) if pointwise else None
    tiles = _Im2colTiles(b, xp, w, bias, mult, yf, epi, kernel, lanes, words, mg,
                         b.const(0, VectorType(i32, [lanes])))
    if rest:  # the pixels past P of the last tile: computed, never stored
        with b.loop(0, words) as q, b.loop(p, p + tile - rest) as px:
            b.store(b.const(0, i32), xp, [q, px])
    block = max(1, op.pixel_block() // (words * 4 * tile))
    with b.loop(0, xd[0]) as n:
        if xpad is not None:
            with b.loop_nest([c, h + pt + pb, wi + pl + pr]) as at:
                b.store(zx, xpad, at)
            with b.loop_nest([c, h, wi]) as (ci, hi, wj):
                b.store(b.load(x, [n, ci, hi, wj]), xpad,
                        [ci, as_dim(b, hi) + pt, as_dim(b, wj) + pl])
        for g in range(group):
            _pack_windows(b, x, xpad, xflat, n, g * cg, k, taps, kw, win, oh, ow, words,
                          per, kernel, signed, xp, inner)
            if full_tiles:
                def whole(r: int, m0: Dim, t: SSAValue, n: SSAValue = n, g: int = g) -> None:
                    tiles.tile(n, g, r, m0, as_dim(b, t) * tile, vectors, tile)

                _whole_tiles(b, full_tiles, block, mg, rows, 2 * tile * k, whole)
            if rest:
                def last(m0: Dim, r: int, n: SSAValue = n, g: int = g) -> None:
                    tiles.tile(n, g, r, m0, full_tiles * tile, -(-rest // lanes), rest)

                _over_rows(b, mg, rows, last)
    for buf in (xp, xpad):
        if buf is not None:
            s.free(buf)
    return [y]


def _over_rows(b: LoopBuilder, mg: int, rows: int, tiles: Callable[[Dim, int], None]) -> None:
    """tiles(m0, r) over whole tiles of `rows` of the mg output channels, then the
    remainder rows."""
    row_end = mg - mg % rows
    if row_end:
        with b.loop(0, row_end, rows) as m0:
            tiles(m0, rows)
    if mg % rows:
        tiles(row_end, mg % rows)


def _whole_tiles(b: LoopBuilder, full_tiles: int, block: int, mg: int, rows: int,
                 tile_work: int, run: Callable[[int, Dim, SSAValue], None]) -> None:
    """run(r, m0, t) for every whole pixel tile t, in blocks of `block` tiles, and every
    tile of `rows` output channels m0.. (then the mg % rows left): the pairs (block,
    channel tile) in parallel, a block's channel tiles one after another (the block stays
    in cache while the weights go over it)."""
    blocks = -(-full_tiles // block)
    for first, r, count in ((0, rows, mg // rows), (mg - mg % rows, mg % rows, 1)):
        if r == 0 or count == 0:
            continue
        with b.parallel([blocks, count], block * r * tile_work) as (kb, mt):
            t0 = as_dim(b, kb) * block
            with b.loop(t0, imin(b, t0 + block, full_tiles)) as t:
                run(r, as_dim(b, mt) * rows + first, t)


def _zero_word(zx: int, kernel: str, signed: bool) -> int:
    """The word of `per` copies of the zero point, as the kernel reads x (see _word)."""
    if kernel == "vnni":
        byte = (zx + 128 if signed else zx) & 0xFF
        word = byte * 0x01010101
    else:
        word = (zx & 0xFFFF) * 0x00010001
    return word - 2**32 if word >= 2**31 else word


@dataclass(frozen=True)
class _DirectTiles:
    """The in-place kernel over Xw [channel words, padded plane] of one image and group
    (see _conv_direct): what every tile of output channels x pixels shares."""

    b: LoopBuilder
    xw: SSAValue
    w: SSAValue
    bias: SSAValue
    mult: SSAValue
    y: SSAValue
    epi: _Epilogue
    kernel: str
    lanes: int
    vectors: int  # per tile
    window: Window
    wp: int  # the padded plane's width
    ow: int
    cq: int  # channel words per tap
    mg: int  # output channels per group
    zero: SSAValue  # an i32 vector of zeros

    def tile(self, n: SSAValue, g: int, r: int, m0: Dim, yo: Dim, ow0: int, nrows: int
             ) -> None:
        """Output channels m0.. (r) of group g x pixels ow0.. of output rows yo.."""
        b, lanes, wp = self.b, self.lanes, self.wp
        per_row = min(self.vectors, -(-(self.ow - ow0) // lanes))
        spots = [(rr, ow0 + v * lanes) for rr in range(nrows) for v in range(per_row)]
        nvec = len(spots)
        p0 = as_dim(b, yo) * wp
        kh, kw = self.window.kernel
        dh, dw = self.window.dilations

        def tap(t: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            th = floor_div(b, as_dim(b, t), kw)
            off = p0 + th * (dh * wp) + (as_dim(b, t) - th * kw) * dw

            def channels(q: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                xs = [b.vload(self.xw, [q, off + (rr * wp + col)], lanes) for rr, col in spots]
                word = as_dim(b, t) * self.cq + as_dim(b, q)
                out = list(acc)
                for i in range(r):
                    wv = b.splat(b.load(self.w, [as_dim(b, m0) + g * self.mg + i, word]), lanes)
                    for v in range(nvec):
                        out[i * nvec + v] = _dot(b, self.kernel, lanes, out[i * nvec + v],
                                                 xs[v], wv)
                return out

            return b.reduce_loop(0, self.cq, carried, channels)

        accs = b.reduce_loop(0, kh * kw, [self.zero] * (r * nvec), tap)
        for i in range(r):
            ch = as_dim(b, m0) + g * self.mg + i
            bv, mv = (b.splat(b.load(t, [ch]), lanes) for t in (self.bias, self.mult))
            for v, (rr, col) in enumerate(spots):
                self.epi.store(self.epi(accs[i * nvec + v], bv, mv), self.y,
                               [n, ch, as_dim(b, yo) + rr, col], min(lanes, self.ow - col))


def _conv_direct(s: Lowering, op: Q.ConvRequantOp, ins: list[SSAValue], y: SSAValue,
                 kernel: str, lanes: int, signed: bool) -> None:
    """The conv with unit strides reading x in place: per image and group, x is laid out
    as words of `per` channels over the padded plane, Xw[cq, ih * Wp + iw] (pads: the zero
    point), and output row oh's pixels ow0.. read tap (th, tw) at
    Xw[cq, oh * Wp + ow0 + th * dh * Wp + tw * dw], contiguous along ow: no im2col. The
    weights' k runs over (tap, channel quad), channels innermost."""
    b = s.b
    x, w, bias, mult, zero_point = ins
    per = Q.KERNELS[kernel]
    xd, yd = b.dims(x), b.dims(y)
    c, h, wi = (cast(int, d) for d in xd[1:])
    m, oh, ow = (cast(int, d) for d in yd[1:])
    kh, kw = (int(k) for k in op.kernel_shape.get_values())
    win = Window.of_conv(op, [kh, kw])
    dh, dw = win.dilations
    pt, pl, pb, pr = win.pads
    group = op.group.value.data
    cg, mg = c // group, m // group
    cq, taps = cg // per, kh * kw
    hp, wp = h + pt + pb, wi + pl + pr
    rows, vectors = op.register_tile()
    row_vectors = -(-ow // lanes)
    # the last row's last vectors read up to this far past the row's start
    length = max(hp * wp, (oh - 1) * wp + row_vectors * lanes + (kh - 1) * dh * wp
                 + (kw - 1) * dw)
    xw = s.alloc([cq, length], i32)
    epi = _Epilogue(s, op, zero_point, lanes)
    tiles = _DirectTiles(b, xw, w, bias, mult, y, epi, kernel, lanes, vectors, win, wp, ow,
                         cq, mg, b.const(0, VectorType(i32, [lanes])))
    zword = b.const(_zero_word(op.x_zero_point.value.data, kernel, signed), i32)
    row_end = mg - mg % rows
    # a tile: `stack` output rows x the vectors of ow0.. in each (the vectors of a row
    # of at most `vectors`; rows of one vector are stacked so that the tile keeps
    # rows x vectors accumulators)
    stack = max(1, vectors // row_vectors)

    def rows_of(n: SSAValue, g: int, r: int, m0: Dim) -> None:
        whole = oh - oh % stack
        if whole:
            with b.loop(0, whole, stack) as yo:
                for ow0 in range(0, ow, vectors * lanes):
                    tiles.tile(n, g, r, m0, yo, ow0, stack)
        if oh % stack:
            for ow0 in range(0, ow, vectors * lanes):
                tiles.tile(n, g, r, m0, whole, ow0, oh % stack)

    with b.loop(0, xd[0]) as n:
        for g in range(group):
            with b.loop(0, cq) as q, b.loop(0, length) as i:
                b.store(zword, xw, [q, i])
            with b.loop(0, cq) as q, b.loop(0, h) as hi, b.loop(0, wi) as wj:
                vals = [b.load(x, [n, as_dim(b, q) * per + (g * cg + j), hi, wj])
                        for j in range(per)]
                at = (as_dim(b, hi) + pt) * wp + as_dim(b, wj) + pl
                b.store(_word(b, vals, kernel, signed), xw, [q, at])
            if row_end:  # the tiles of `rows` output channels on any thread
                with b.parallel([row_end // rows], 2 * rows * oh * ow * cg * taps) as (mt,):
                    rows_of(n, g, rows, b.idx(as_dim(b, mt) * rows))
            if mg % rows:
                rows_of(n, g, mg % rows, row_end)
    s.free(xw)


def _pack_windows(b: LoopBuilder, x: SSAValue, xpad: SSAValue | None, xflat: SSAValue | None,
                  n: SSAValue, c0: int, k: int, taps: int, kw: int, win: Window, oh: int,
                  ow: int, words: int, per: int, kernel: str, signed: bool, xp: SSAValue,
                  inner: bool) -> None:
    """Xp[q, p] = word q of output pixel p's window, channels c0.. (see the module doc):
    value j of word q is tap (c, kh, kw) = unravel(min(q * per + j, k - 1)), whose weight
    is 0 past k; with `inner` (channels innermost), channel (q % CQ) * per + j of tap
    q // CQ."""
    with b.loop(0, words) as q:
        at = []
        for j in range(per):
            if inner:
                cq = k // taps // per
                tap = floor_div(b, as_dim(b, q), cq)
                ci = (as_dim(b, q) - tap * cq) * per + j
            else:
                kk = imin(b, as_dim(b, q) * per + j, k - 1)
                ci = floor_div(b, kk, taps)
                tap = kk - ci * taps
            th = floor_div(b, tap, kw)
            at.append((ci + c0, th * win.dilations[0], (tap - th * kw) * win.dilations[1]))
        if xflat is not None:
            with b.loop(0, oh * ow) as px:
                vals = [b.load(xflat, [n, ci, px]) for ci, _, _ in at]
                b.store(_word(b, vals, kernel, signed), xp, [q, px])
            return
        with b.loop(0, oh) as yo, b.loop(0, ow) as xo:
            ih = as_dim(b, yo) * win.strides[0]
            iw = as_dim(b, xo) * win.strides[1]
            if xpad is not None:
                vals = [b.load(xpad, [ci, ih + dh, iw + dw]) for ci, dh, dw in at]
            else:
                vals = [b.load(x, [n, ci, ih + dh, iw + dw]) for ci, dh, dw in at]
            b.store(_word(b, vals, kernel, signed), xp, [q, as_dim(b, yo) * ow + as_dim(b, xo)])


@lowers(Q.MatMulRequantOp, outline=True)
def _matmul_requant(s: Lowering, op: Q.MatMulRequantOp, ins: list[SSAValue]
                    ) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w, bias, mult, zero_point = ins
    kernel, lanes = _form(op)
    per = Q.KERNELS[kernel]
    signed = op.x.type.element_type == IntegerType(8)  # type: ignore[attr-defined]
    xd, wd = b.dims(x), b.dims(w)
    m, k = xd[-2], cast(int, xd[-1])
    panels, words = cast(int, wd[0]), cast(int, wd[1])
    n = op.n.value.data
    rows, vectors = op.register_tile()
    xp = s.alloc([m, words], i32)
    epi = _Epilogue(s, op, zero_point, lanes)
    zero = b.const(0, VectorType(i32, [lanes]))
    full_panels = n // lanes

    with b.loop_nest(xd[:-2]) as bt:
        with b.loop(0, m) as i, b.loop(0, words) as q:
            vals = [b.load(x, [*bt, i, imin(b, as_dim(b, q) * per + j, k - 1)])
                    for j in range(per)]
            b.store(_word(b, vals, kernel, signed), xp, [i, q])

        def kernel_tile(r: int, i0: Dim, p0: Dim, nvec: int, valid: int) -> None:
            """Rows i0.. (r of them) x panels p0.. (nvec); `valid` columns from p0 on."""
            def step(q: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                ws = [b.vload(w, [as_dim(b, p0) + v, q, 0], lanes) for v in range(nvec)]
                out = list(carried)
                for i in range(r):
                    xv = b.splat(b.load(xp, [as_dim(b, i0) + i, q]), lanes)
                    for v in range(nvec):
                        out[i * nvec + v] = _dot(b, kernel, lanes, out[i * nvec + v], xv,
                                                 ws[v])
                return out

            accs = b.reduce_loop(0, words, [zero] * (r * nvec), step)
            for v in range(nvec):
                col = (as_dim(b, p0) + v) * lanes
                bv, mv = b.vload(bias, [col], lanes), b.vload(mult, [col], lanes)
                for i in range(r):
                    epi.store(epi(accs[i * nvec + v], bv, mv), y,
                              [*bt, as_dim(b, i0) + i, col], min(lanes, valid - v * lanes))

        def over_rows(p0: Dim, nvec: int, valid: int) -> None:
            row_end = floor_div(b, m, rows) * rows
            with b.loop(0, row_end, rows) as i0:
                kernel_tile(rows, i0, p0, nvec, valid)
            rest = m - row_end
            if isinstance(rest, int):
                if rest:
                    kernel_tile(rest, row_end, p0, nvec, valid)
                return
            for h in range(1, rows):  # a run-time remainder: the kernel of its height
                with b.if_(b.cmpi("eq", b.idx(rest), b.idx(h))):
                    kernel_tile(h, row_end, p0, nvec, valid)

        tiles_end = full_panels - full_panels % vectors
        if tiles_end:  # groups of `vectors` panels on any thread
            with b.parallel([tiles_end // vectors],
                            static_product([m], 2 * k * vectors * lanes)) as (pg,):
                over_rows(b.idx(as_dim(b, pg) * vectors), vectors, vectors * lanes)
        if full_panels % vectors:
            over_rows(tiles_end, full_panels % vectors, (full_panels % vectors) * lanes)
        if panels > full_panels:
            over_rows(full_panels, 1, n - full_panels * lanes)
    s.free(xp)
    return [y]
