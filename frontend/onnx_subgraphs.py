"""The import of ONNX's ops with subgraphs: If, Loop and Scan.

A subgraph reads the enclosing graph's values by name (ONNX's implicit captures), so
these ops are imported by the importer itself, into regions of `graph.if`, `graph.loop`
and `graph.scan` whose ops use the enclosing function's values directly:

  * If: a condition that is a constant here is the branch it takes, imported in place;
    else `graph.if` with both branches.
  * Loop: `graph.loop`, its body typed by a fixed point (a carried value whose dims the
    body changes is dynamic in the body and the results).
  * Scan: `graph.scan`, its states typed as a Loop's carried values (`expand-scan` makes
    it the Loop its definition describes before lowering). Scan 8, which has a batch axis
    first, is imported as that Loop directly, built as ONNX nodes: a Loop over the batch
    rows whose body gathers a row of each input and holds that row's scan as a Loop (the
    trip count the scan axis' length, each iteration gathering its slices).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Block, Region, SSAValue

from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.import_context import ImportContext, name_hint, node_error, node_ref
from infer.frontend.onnx_attrs import graph_attr, int_attr, ints_attr
from infer.frontend.onnx_branch_ranks import RankChoice, unsqueezed, widened
from infer.frontend.onnx_sequences import (
    Carry,
    flatten_branches,
    raw,
    same_forms,
    tensors_of,
)
from infer.frontend.onnx_values import (
    PackedSequence,
    StaticOptional,
    StaticSequence,
    Value,
    kind_of,
)

# ONNX's Loop without a trip count runs until its condition fails: the largest count.
NO_TRIP_COUNT = np.iinfo(np.int64).max
# Tries of the body's types before a carried value's dims are taken as all dynamic.
FIXED_POINT_TRIES = 3


def _shape_dim(p: str, x: str, axis: int) -> list[onnx.NodeProto]:
    """Nodes giving `p + "shape"` (x's shape) and `p + "zero"`/the axis index to gather."""
    return [helper.make_node("Shape", [x], [p + "shape"]),
            helper.make_node("Constant", [], [p + "zero"], value=helper.make_tensor(
                p + "zero_value", onnx.TensorProto.INT64, [], [axis]))]


def _scan_loop(p: str, xs: list[str], states: list[str], body: onnx.GraphProto,
               in_axes: list[int], in_dirs: list[int], k: int
               ) -> tuple[list[onnx.NodeProto], onnx.NodeProto, list[str]]:
    """Scan's body as ONNX nodes of opset 7 on, names prefixed by `p`: the nodes before
    the Loop (its trip count, the scan axis' length), the Loop, whose outputs are the
    final states (named by the caller) then the k scan outputs stacked on axis 0 in
    iteration order (their names, returned)."""
    n = len(states)
    outer = [*_shape_dim(p, xs[0], in_axes[0]),
             helper.make_node("Gather", [p + "shape", p + "zero"], [p + "count"])]
    if any(in_dirs):
        outer += [
            helper.make_node("Constant", [], [p + "one"], value=helper.make_tensor(
                p + "one_value", onnx.TensorProto.INT64, [], [1])),
            helper.make_node("Sub", [p + "count", p + "one"], [p + "last"]),
        ]
    inner = [helper.make_node("Identity", [p + "cond"], [p + "cond_out"])]
    if any(in_dirs):
        inner.append(helper.make_node("Sub", [p + "last", p + "i"], [p + "i_reversed"]))
    for x, vi, ax, rev in zip(xs, body.input[n:], in_axes, in_dirs, strict=True):
        at = p + "i_reversed" if rev else p + "i"
        inner.append(helper.make_node("Gather", [x, at], [vi.name], axis=ax))
    untyped = onnx.TypeProto()
    loop_body = helper.make_graph(
        [*inner, *body.node], p + "body",
        [helper.make_value_info(p + "i", untyped),
         helper.make_value_info(p + "cond", untyped), *body.input[:n]],
        [helper.make_value_info(p + "cond_out", untyped), *body.output],
        initializer=list(body.initializer))
    stacked = [p + f"stacked{j}" for j in range(k)]
    finals = [p + f"final{j}" for j in range(n)]
    loop = helper.make_node("Loop", [p + "count", "", *states], [*finals, *stacked],
                            body=loop_body)
    return outer, loop, stacked


def _split(carries: list[Carry], tensors: list[SSAValue]) -> list[Value]:
    """Carried values from their tensors."""
    values, at = [], 0
    for c in carries:
        values.append(c.value(tensors[at:at + c.count]))
        at += c.count
    return values


def _static_trip_count(trip: SSAValue, go: SSAValue, cond_out: SSAValue,
                       cond_in: SSAValue) -> int:
    """The number of iterations when it is known here (a constant trip count, a condition
    that starts and stays true), else DYNAMIC_INDEX."""
    count, start = G.constant_value(trip), G.constant_value(go)
    while isinstance(cond_out.owner, G.IdentityOp):
        cond_out = cond_out.owner.operands[0]
    known = G.constant_value(cond_out)
    stays = cond_out is cond_in or (known is not None and bool(known.all()))
    if count is None or start is None or not bool(start.reshape(-1)[0]) or not stays:
        return DYNAMIC_INDEX
    n = int(count.reshape(-1)[0])
    return max(n, 0) if n < np.iinfo(np.int32).max else DYNAMIC_INDEX


@dataclass
class _ScanForm:
    """A Scan node's form: its inputs (without Scan 8's sequence_lens), body, numbers of
    states n, scan inputs m and scan outputs k, and the scan axes and directions (input
    axes made non-negative)."""

    batched: bool  # Scan 8: a batch axis before the scan axis
    inputs: list[str]
    body: onnx.GraphProto
    n: int
    m: int
    k: int
    in_axes: list[int]
    in_dirs: list[int]
    out_axes: list[int]
    out_dirs: list[int]


def _scan_axes(node: onnx.NodeProto, batched: bool, m: int, k: int, ranks: list[int],
               fail: Callable[..., InferError]
               ) -> tuple[list[int], list[int], list[int], list[int]]:
    """A Scan node's input axes (made non-negative for the inputs' `ranks`) and
    directions, and output axes and directions."""
    if batched:
        in_axes, out_axes, out_dirs = [0] * m, [0] * k, [0] * k
        in_dirs = ints_attr(node, "directions", [0] * m)
    else:
        in_axes = ints_attr(node, "scan_input_axes", [0] * m)
        in_dirs = ints_attr(node, "scan_input_directions", [0] * m)
        out_axes = ints_attr(node, "scan_output_axes", [0] * k)
        out_dirs = ints_attr(node, "scan_output_directions", [0] * k)
    if (len(in_axes), len(in_dirs), len(out_axes), len(out_dirs)) != (m, m, k, k):
        raise fail("the scan inputs' axes and directions need one entry per scan input "
                   "and the scan outputs' one per scan output")
    for ax, r in zip(in_axes, ranks, strict=True):
        if not -r <= ax < r:
            raise fail(f"scan input axis {ax} is out of range for rank {r}")
    in_axes = [ax % r for ax, r in zip(in_axes, ranks, strict=True)]
    return in_axes, in_dirs, out_axes, out_dirs


class SubgraphImport:
    """If, Loop and Scan, and the subgraphs of other ops (SequenceMap's body), for the
    importer `ctx` (see the module docstring)."""

    def __init__(self, ctx: ImportContext):
        self.ctx = ctx
        # op type -> its import
        self.ops: dict[str, Callable[[int, onnx.NodeProto, int], None]] = {
            "If": self._if, "Loop": self._loop, "Scan": self._scan}

    def op(self, op_type: str, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Import `node`, an op of type `op_type` with subgraphs (If, Loop or Scan)."""
        self.ops[op_type](index, node, opset)

    def in_scope(self, index: int, node: onnx.NodeProto, opset: int,
                 which: str, block: Block, names: dict[str, Value],
                 subgraph: onnx.GraphProto, sequences: bool = False,
                 finish: Callable[[list[Value]], list[SSAValue]] | None = None) -> list[Value]:
        """Import `subgraph`'s nodes into `block`, its inputs bound to `names`; its
        outputs (sequences among them only if `sequences`), or what `finish` makes of
        them in the block. The values it defines (constants it materializes too) are its
        own."""
        saved_block, saved_values = self.ctx.block, self.ctx.values
        self.ctx.block, self.ctx.values = block, {**saved_values, **names}
        try:
            outs = self._import_subgraph(subgraph, opset, which)
            for v in outs:
                if not sequences and isinstance(v, SSAValue) and v in self.ctx.rank_choices:
                    # (a Loop's or Scan's next value: typed once for every iteration)
                    raise UnsupportedError(f"output {self.ctx.rank_choices[v].refusal()}")
            if finish is not None:
                return cast(list[Value], finish(outs))
            for o, v in zip(subgraph.output, outs, strict=True):
                if not (isinstance(v, SSAValue)
                        or sequences and isinstance(v, StaticSequence | PackedSequence
                                                    | StaticOptional)):
                    raise UnsupportedError(f"output '{o.name}' is {kind_of(v)}, which "
                                           f"{'an If' if sequences else 'a Loop body'} "
                                           "cannot give here")
            return outs
        except InferError as e:
            raise node_error(node, index, opset, f"{which}: {e}", type(e)) from None
        finally:
            self.ctx.block, self.ctx.values = saved_block, saved_values

    def _import_subgraph(self, subgraph: onnx.GraphProto, opset: int, which: str
                         ) -> list[Value]:
        """Import the nodes of `subgraph` into the current block; its outputs."""
        self.ctx.initializers.update((t.name, t) for t in subgraph.initializer)
        self.ctx.consumed |= {n for sub in subgraph.node for n in sub.input if n}
        self.ctx.consumed |= {o.name for o in subgraph.output}
        for j, sub in enumerate(subgraph.node):
            self.ctx.import_node(j, sub, opset)
        return [self.ctx.values[o.name] if o.name in self.ctx.values
                else self.ctx.value(o.name, f"{which} output") for o in subgraph.output]

    # -- If ------------------------------------------------------------------------------

    def _if(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        cond = self.ctx.value(node.input[0], "input")
        known = G.constant_value(cond)
        if known is not None and known.size == 1:
            taken = "then_branch" if known.reshape(-1)[0] else "else_branch"
            try:
                outs = self._import_subgraph(self._branch(node, taken), opset, taken)
            except InferError as e:
                raise node_error(node, index, opset, f"{taken}: {e}", type(e)) from None
            self.ctx.name_results(node, outs)
            return
        t = cast(TensorType, cond.type)
        if t.element_type != i1 or not all(d == 1 for d in t.get_shape()):
            raise node_error(node, index, opset, f"the condition must be one bool, got {t}",
                              InvalidModelError)
        blocks: list[Block] = []
        yielded: list[list[Value]] = []
        for which in ("then_branch", "else_branch"):
            try:
                branch = self._branch(node, which)
            except InferError as e:
                raise node_error(node, index, opset, f"{which}: {e}", type(e)) from None
            blocks.append(Block())
            yielded.append(self.in_scope(index, node, opset, which, blocks[-1], {}, branch,
                                          sequences=True))
        try:  # a sequence or optional is its tensors, one result each (onnx_sequences)
            same_forms(self.ctx, yielded, blocks)
            flat, rebuild = flatten_branches(yielded, blocks)
        except InferError as e:
            raise node_error(node, index, opset, str(e), type(e)) from None
        named = all(isinstance(v, SSAValue) for v in (*yielded[0], *yielded[1]))
        types, choices = self._result_types(index, node, opset, flat, blocks, named)
        for block, outs in zip(blocks, flat, strict=True):
            block.add_op(G.YieldOp(outs))
        op = G.IfOp(cond, types, *blocks)
        for k, choice in choices.items():
            self.ctx.rank_choices[op.results[k]] = choice
        self._add_with_results(op, node, rebuild(list(op.results)))

    def _result_types(self, index: int, node: onnx.NodeProto, opset: int,
                      flat: list[list[SSAValue]], blocks: list[Block], named: bool
                      ) -> tuple[list[TensorType], dict[int, RankChoice]]:
        """The If's result types from its branches' values `flat` (a dim they disagree on
        dynamic), and its results that are rank choices (onnx_branch_ranks), by number: a
        lower-rank value is unsqueezed in its block to the other's rank, and a branch's
        own rank choice makes the result one. `named`: each value is the node output of
        its number (no sequence or optional made tensors among them)."""
        types, choices = [], {}
        for k, (a, b) in enumerate(zip(*flat, strict=True)):
            ta, tb = cast(TensorType, a.type), cast(TensorType, b.type)
            output = node.output[k] if named else f"#{k}"
            # the ranks each branch may give (a branch's own rank choice gives two)
            ranks = [r for v, t in ((a, ta), (b, tb)) for r in (
                self.ctx.rank_choices[v].ranks if v in self.ctx.rank_choices
                else (t.get_num_dims(),))]
            low = widened(ta, tb)
            if low is not None:
                flat[low][k] = unsqueezed(blocks[low], flat[low][k], max(ranks))
            if low is not None or len(set(ranks)) > 1:
                choices[k] = RankChoice(f"If {node_ref(node, index)}", output,
                                        (min(ranks), max(ranks)))
            joined = G.joined_type([flat[0][k].type, flat[1][k].type])
            if joined is None:
                error = (InvalidModelError if ta.element_type != tb.element_type
                         else UnsupportedError)
                ranks = (f" (ranks {ta.get_num_dims()} and {tb.get_num_dims()})"
                         if ta.get_num_dims() != tb.get_num_dims() else "")
                shown = f"'{output}'" if named else output
                raise node_error(node, index, opset, f"output {shown}: the branches give "
                                  f"{ta} and {tb}{ranks}", error)
            types.append(joined)
        return types, choices

    @staticmethod
    def _branch(node: onnx.NodeProto, which: str) -> onnx.GraphProto:
        branch = graph_attr(node, which)
        if len(branch.output) != len(node.output):
            raise InvalidModelError(f"{which} has {len(branch.output)} outputs, the If "
                                    f"{len(node.output)}")
        return branch

    def _add_with_results(self, op: G.IfOp | G.LoopOp | G.ScanOp,
                          node: onnx.NodeProto,
                          outputs: Sequence[SSAValue | StaticSequence | StaticOptional]
                          | None = None) -> None:
        """Add `op` for `node`; its results (or `outputs` made of them) name the node's."""
        if node.name:
            op.location = NameLoc(StringAttr(node.name), NoneAttr())
        self.ctx.block.add_op(op)
        self.ctx.name_results(node, op.results if outputs is None else outputs)

    # -- Loop ----------------------------------------------------------------------------

    def _loop(self, index: int, node: onnx.NodeProto, opset: int,
              named: onnx.NodeProto | None = None) -> None:
        """Loop `node`; its errors name `named` (the Scan it is built for) if given. A
        carried sequence or optional is tensors (onnx_sequences.Carry)."""
        named = named or node

        def fail(reason: str, error: type[InferError] = InvalidModelError) -> InferError:
            return node_error(named, index, opset, reason, error)

        try:
            body = graph_attr(node, "body")
        except InferError as e:
            raise fail(str(e)) from None
        inputs = list(node.input) + [""] * max(0, 2 - len(node.input))
        n = len(inputs) - 2
        if len(body.input) != n + 2:
            raise fail(f"the body takes {len(body.input)} inputs for {n} carried values "
                       f"(expected {n + 2})")
        if len(body.output) < n + 1 or len(node.output) != len(body.output) - 1:
            raise fail(f"the body gives {len(body.output)} outputs and the Loop "
                       f"{len(node.output)} for {n} carried values")
        trip = (self.ctx.value(inputs[0], "input") if inputs[0]
                else self.ctx.constant(np.array(NO_TRIP_COUNT, np.int64)))
        go = (self.ctx.value(inputs[1], "input") if inputs[1]
              else self.ctx.constant(np.array(True)))
        for v, what in ((trip, "trip count"), (go, "condition")):
            t = cast(TensorType, v.type)
            want = i64 if what == "trip count" else i1
            if t.element_type != want or not all(d == 1 for d in t.get_shape()):
                raise fail(f"the {what} must be one {want}, got {t}")
        if any(not name for name in inputs[2:]):
            raise fail("a carried value's initial value is missing")
        starts = [cast(Value, raw(self.ctx, node, k)) for k in range(2, len(inputs))]
        try:
            carries = [Carry.of(v) for v in starts]
            initial = [t for c, v, name in zip(carries, starts, inputs[2:], strict=True)
                       for t in c.tensors(self.ctx, v, f"'{name}'")]
        except InferError as e:
            raise fail(str(e), type(e)) from None
        # A carried sequence's elements' rank is a fixed point too (the body's inserts).
        for _ in range(FIXED_POINT_TRIES):
            nexts: list[Value] = []
            block, outs, carried = self._typed_body(
                index, named, opset, body, [cast(TensorType, v.type) for v in initial],
                lambda c: [TensorType(i64, []), TensorType(i1, []), *c],
                lambda outs: outs[1:len(initial) + 1], fail,
                bind=lambda args, carries=carries: [args[0], args[1],
                                                    *_split(carries, args[2:])],
                finish=lambda outs, carries=carries, nexts=nexts: self._loop_outputs(
                    body, carries, outs, nexts))
            joined = [c.joined(v) for c, v in zip(carries, nexts, strict=True)]
            if joined == carries:
                break
            carries = joined
        cond_out = cast(TensorType, outs[0].type)
        if cond_out.element_type != i1 or not all(d == 1 for d in cond_out.get_shape()):
            raise fail(f"the body's condition output must be one bool, got {cond_out}")
        scans = [cast(TensorType, v.type) for v in outs[len(initial) + 1:]]
        rows = _static_trip_count(trip, go, outs[0], block.args[1])
        types = [*carried, *(TensorType(t.element_type, [rows, *t.get_shape()])
                             for t in scans)]
        block.add_op(G.YieldOp(outs))
        op = G.LoopOp(trip, go, initial, types, block)
        results = list(op.results)
        self._add_with_results(op, node, [*_split(carries, results[:len(initial)]),
                                          *results[len(initial):]])

    def _loop_outputs(self, body: onnx.GraphProto, carries: list[Carry],
                      outs: list[Value], nexts: list[Value]) -> list[SSAValue]:
        """A Loop body's outputs as tensors (in its block): the condition, each carried
        value's as its carry says (the values themselves go in `nexts`), the scan rows."""
        n = len(carries)
        nexts[:] = outs[1:n + 1]  # the last import of the body is the one kept
        flat = [t for c, v, o in zip(carries, outs[1:n + 1], body.output[1:n + 1], strict=True)
                for t in c.tensors(self.ctx, v, f"output '{o.name}'")]
        for o, v in zip([body.output[0], *body.output[n + 1:]], [outs[0], *outs[n + 1:]],
                        strict=True):
            if not isinstance(v, SSAValue):
                raise UnsupportedError(f"output '{o.name}' is {kind_of(v)}, which a Loop "
                                       "body cannot give here")
        return [cast(SSAValue, outs[0]), *flat, *cast(list[SSAValue], outs[n + 1:])]

    def _typed_body(self, index: int, node: onnx.NodeProto, opset: int,
                    body: onnx.GraphProto, carried: list[TensorType],
                    args_of: Callable[[list[TensorType]], list[TensorType]],
                    next_of: Callable[[list[SSAValue]], list[SSAValue]],
                    fail: Callable[..., InferError],
                    bind: Callable[[list[SSAValue]], list[Value]] | None = None,
                    finish: Callable[[list[Value]], list[SSAValue]] | None = None
                    ) -> tuple[Block, list[SSAValue], list[TensorType]]:
        """The body of a Loop or Scan imported into a block whose arguments are
        `args_of(carried)`, the carried types found by a fixed point: a dim the body
        changes is dynamic (after a few tries, every dim is). `bind` makes the values of
        the body's inputs from the block's arguments, `finish` tensors of its outputs (a
        Loop's carried sequences). The block, its outputs and the carried types."""
        for attempt in range(FIXED_POINT_TRIES + 1):
            block = Block(arg_types=args_of(carried))
            args = list(block.args)
            values = bind(args) if bind is not None else args
            names = {vi.name: v for vi, v in zip(body.input, values, strict=True)}
            for vi, v in zip(body.input, values, strict=True):
                for a in tensors_of(v.value if isinstance(v, StaticOptional) else v):
                    a.name_hint = name_hint(vi.name)
            outs = cast(list[SSAValue], self.in_scope(index, node, opset, "body", block,
                                                       names, body, finish=finish))
            nxt = []
            for k, (t, v) in enumerate(zip(carried, next_of(outs), strict=True)):
                joined = G.joined_type([t, v.type])
                if joined is None:
                    same = t.element_type == cast(TensorType, v.type).element_type
                    raise fail(f"carried value #{k} is {t} and then {v.type}",
                               UnsupportedError if same else InvalidModelError)
                nxt.append(joined)
            if nxt == carried:
                break
            carried = nxt if attempt < FIXED_POINT_TRIES - 1 else [
                TensorType(t.element_type, [DYNAMIC_INDEX] * t.get_num_dims()) for t in nxt]
        return block, outs, carried

    # -- Scan ----------------------------------------------------------------------------

    def _scan(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Scan as the Loop its definition describes (module docstring)."""
        def fail(reason: str, error: type[InferError] = InvalidModelError) -> InferError:
            return node_error(node, index, opset, reason, error)

        form = self._scan_form(node, opset, fail)
        if form.batched:
            self._batched_scan(index, node, opset, form)
        else:
            self._scan_op(index, node, opset, form, fail)

    def _scan_form(self, node: onnx.NodeProto, opset: int,
                   fail: Callable[..., InferError]) -> _ScanForm:
        """The Scan node's form, checked against its body."""
        batched = onnx.defs.get_schema("Scan", opset, "").since_version < 9
        inputs = list(node.input)
        if batched:  # opset 8: sequence_lens first, and a batch axis before the scan axis
            if inputs and inputs[0]:
                raise fail("sequence_lens (a length per batch row) is not supported",
                           UnsupportedError)
            inputs = inputs[1:]
        try:
            body = graph_attr(node, "body")
        except InferError as e:
            raise fail(str(e)) from None
        m = int_attr(node, "num_scan_inputs")
        if m is None or not 0 < m <= len(inputs):
            raise fail(f"num_scan_inputs must be in [1, {len(inputs)}], got {m}")
        n = len(inputs) - m
        k = len(node.output) - n
        if len(body.input) != n + m or len(body.output) != n + k or k < 0:
            raise fail(f"the body takes {len(body.input)} inputs and gives "
                       f"{len(body.output)} outputs for {n} states, {m} scan inputs and "
                       f"{len(node.output)} outputs")
        ranks = [cast(TensorType, self.ctx.value(x, "input").type).get_num_dims() - batched
                 for x in inputs[n:]]
        axes = _scan_axes(node, batched, m, k, ranks, fail)
        return _ScanForm(batched, inputs, body, n, m, k, *axes)

    def _batched_scan(self, index: int, node: onnx.NodeProto, opset: int,
                      form: _ScanForm) -> None:
        """Scan 8: a loop over the batch rows, each row's scan inside it."""
        n, inputs = form.n, form.inputs
        p = self.ctx.prefix(node.name or f"Scan{index}")
        rows = [p + f"row{j}" for j in range(n + form.m)]
        cond = [helper.make_node("Identity", [p + "b_cond"], [p + "b_cond_out"])]
        take = [helper.make_node("Gather", [v, p + "b"], [r], axis=0)
                for v, r in zip(inputs, rows, strict=True)]
        outer, loop, stacked = _scan_loop(p + "row/", rows[n:], rows[:n], form.body,
                                          form.in_axes, form.in_dirs, form.k)
        untyped = onnx.TypeProto()
        batch_body = helper.make_graph(
            [*cond, *take, *outer, loop], p + "batch_body",
            [helper.make_value_info(p + "b", untyped),
             helper.make_value_info(p + "b_cond", untyped)],
            [helper.make_value_info(v, untyped)
             for v in (p + "b_cond_out", *loop.output)])
        count = helper.make_node("Gather", [p + "shape", p + "zero"], [p + "batch"])
        for j, sub in enumerate([*_shape_dim(p, inputs[n], 0), count]):
            self.ctx.import_node(j, sub, opset)
        self._loop(index, helper.make_node("Loop", [p + "batch", ""], list(node.output),
                                           body=batch_body), opset, named=node)

    def _scan_op(self, index: int, node: onnx.NodeProto, opset: int,
                 form: _ScanForm, fail: Callable[..., InferError]) -> None:
        """Scan 9 and later: `graph.scan`, its body typed by a fixed point."""
        n, in_axes = form.n, form.in_axes
        values = [self.ctx.value(x, "input") for x in form.inputs]
        slices = []
        for v, ax in zip(values[n:], in_axes, strict=True):
            t = cast(TensorType, v.type)
            slices.append(TensorType(t.element_type, t.get_shape()[:ax] + t.get_shape()[ax + 1:]))
        block, outs, states = self._typed_body(
            index, node, opset, form.body, [cast(TensorType, v.type) for v in values[:n]],
            lambda c: [*c, *slices], lambda outs: outs[:n], fail)
        first = cast(TensorType, values[n].type)
        count = first.get_shape()[in_axes[0]]
        types, out_axes = list(states), list(form.out_axes)
        for j, (v, ax) in enumerate(zip(outs[n:], out_axes, strict=True)):
            row = cast(TensorType, v.type)
            r = row.get_num_dims() + 1
            if not -r <= ax < r:
                raise fail(f"scan output axis {ax} is out of range for rank {r}")
            out_axes[j] = ax % r
            shape = row.get_shape()
            types.append(TensorType(row.element_type, [*shape[:out_axes[j]], count,
                                                       *shape[out_axes[j]:]]))
        block.add_op(G.YieldOp(outs))
        op = G.ScanOp.build(operands=[values], result_types=[types], regions=[Region(block)],
                            properties={"num_scan_inputs": G.int_attr(form.m),
                                        "scan_input_axes": G.ints_attr(in_axes),
                                        "scan_input_directions": G.ints_attr(form.in_dirs),
                                        "scan_output_axes": G.ints_attr(out_axes),
                                        "scan_output_directions": G.ints_attr(form.out_dirs)})
        self._add_with_results(op, node)
