"""ai.onnx.ml's tree ensembles as `graph.tree_ensemble`: TreeEnsembleClassifier and
TreeEnsembleRegressor (versions 1 and 3) and TreeEnsemble (5).

Each form's node attributes are packed here, at import, into the op's arrays (`Forest`):
every node gets global index, its children by comparison outcome (so the lowering walks
one kind of node whatever the branch mode), its depth bound per tree, and its leaf
weights in one CSR list. A set-membership node becomes a chain of equality nodes.
The classifier's labels and scores follow onnxruntime's kernel (its binary forms
included), the forms it does not decide by the data alone are refused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import Float64Type, f32, i64

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
    element,
)

# The children (true, false) by outcome below / equal / above of each ONNX branch mode.
_OUTCOMES = {
    "BRANCH_LEQ": (1, 1, 0), "BRANCH_LT": (1, 0, 0), "BRANCH_GTE": (0, 1, 1),
    "BRANCH_GT": (0, 0, 1), "BRANCH_EQ": (0, 1, 0), "BRANCH_NEQ": (1, 0, 1),
}
_MODES_V5 = ("BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ",
             "BRANCH_NEQ", "BRANCH_MEMBER")
_AGGREGATES_V5 = ("AVERAGE", "SUM", "MIN", "MAX")
_TRANSFORMS_V5 = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT")


@dataclass
class Forest:
    """The packed arrays of `graph.tree_ensemble` (see its definition)."""

    feature: list[int] = field(default_factory=list)
    threshold: list[float] = field(default_factory=list)
    next: list[list[int]] = field(default_factory=list)
    roots: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    leaves: dict[int, list[tuple[int, float]]] = field(default_factory=dict)

    def node(self, feature: int = 0, threshold: float = 0.0) -> int:
        self.feature.append(feature)
        self.threshold.append(threshold)
        self.next.append([len(self.next)] * 4)  # a leaf until its children are set
        return len(self.next) - 1

    def branch(self, n: int, mode: str, true: int, false: int, nan_true: bool) -> None:
        lt, eq, gt = _OUTCOMES[mode]
        pick = [false, true]
        self.next[n] = [pick[lt], pick[eq], pick[gt],
                        true if nan_true or mode == "BRANCH_NEQ" else false]

    def member(self, n: int, values: Sequence[float], true: int, false: int,
               nan_true: bool) -> None:
        """Node n tests membership in `values` as a chain of equality tests."""
        if not values:
            raise NodeError("a set-membership node has no members")
        at = n
        for k, v in enumerate(values):
            last = k == len(values) - 1
            following = false if last else self.node(self.feature[n], float(v))
            self.threshold[at] = float(v)
            self.next[at] = [following, true, following, true if nan_true else false]
            at = following

    def add_tree(self, root: int) -> None:
        """Tree from `root`: its depth bound, checking it reaches leaves without a cycle."""
        depth, on_path = 0, set()
        stack: list[tuple[int, int, bool]] = [(root, 0, False)]
        while stack:
            n, d, leaving = stack.pop()
            if leaving:
                on_path.discard(n)
                continue
            if n in on_path:
                raise NodeError(f"the tree from node {root} has a cycle through node {n}")
            children = set(self.next[n]) - {n}
            if not children:
                depth = max(depth, d)
                continue
            on_path.add(n)
            stack.append((n, d, True))
            stack.extend((c, d + 1, False) for c in children)
        self.roots.append(root)
        self.depth.append(depth)

    def weigh(self, n: int, target: int, weight: float) -> None:
        if set(self.next[n]) != {n}:
            raise NodeError(f"node {n} has a leaf weight but is a branch")
        self.leaves.setdefault(n, []).append((target, weight))

    def emit(self, b: OpBuilder, x: Value, targets: int, aggregate: str,
             weights: type[np.floating]) -> Value:
        """`graph.tree_ensemble` over x (a float matrix of the thresholds' type)."""
        float_type = G.numpy_dtype(element(x))
        start, target, weight = [0], [], []
        for n in range(len(self.next)):
            for t, w in self.leaves.get(n, []):
                if not 0 <= t < targets:
                    raise NodeError(f"a leaf weight's target {t} is not below {targets}")
                target.append(t)
                weight.append(w)
            start.append(len(target))
        features = max((f + 1 for n, (f, nx) in enumerate(zip(self.feature, self.next,
                                                                strict=True))
                        if set(nx) != {n}), default=0)
        i64 = np.int64
        return b.emit1(
            G.TreeEnsembleOp, x, b.const(np.asarray(self.feature, i64)),
            b.const(np.asarray(self.threshold, float_type)),
            b.const(np.asarray(self.next, i64).reshape(-1, 4)),
            b.const(np.asarray(self.roots, i64)), b.const(np.asarray(self.depth, i64)),
            b.const(np.asarray(start, i64)), b.const(np.asarray(target, i64)),
            b.const(np.asarray(weight, weights)),
            targets=targets, aggregate=aggregate, features=features)


def as_rows(b: OpBuilder, x: Value) -> Value:
    """A 1-D input as one row, as onnxruntime's ai.onnx.ml kernels take it."""
    return b.emit1(G.UnsqueezeOp, x, b.ints([0])) if len(dims(x)) == 1 else x


def to_f32(b: OpBuilder, v: Value) -> Value:
    return v if element(v) == f32 else b.emit1(G.CastOp, v, to=f32)


def _features(b: OpBuilder, x: Value, double: bool) -> Value:
    """The input as a float matrix of the comparison's type: f64 when the input or the
    thresholds are, else f32 (integers converted as onnxruntime compares them)."""
    want = Float64Type() if double or isinstance(element(x), Float64Type) else f32
    x = as_rows(b, x)
    if len(dims(x)) != 2:
        raise NodeError("the input must be [rows, features]")
    return x if element(x) == want else b.emit1(G.CastOp, x, to=want)


def _forest_v3(nodes_treeids: list[int], nodes_nodeids: list[int], nodes_modes: list[str],
               nodes_featureids: list[int], values: np.ndarray,
               nodes_truenodeids: list[int], nodes_falsenodeids: list[int],
               missing: list[int] | None, ids: list[int], treeids: list[int],
               nodeids: list[int], weights: np.ndarray) -> Forest:
    """The packed form of versions 1 and 3's attributes (nodes named by tree and id)."""
    n = len(nodes_nodeids)
    columns = (nodes_treeids, nodes_modes, nodes_featureids, values, nodes_truenodeids,
               nodes_falsenodeids)
    if any(len(c) != n for c in columns) or (missing and len(missing) != n):
        raise NodeError("the nodes_* attributes differ in length")
    if not len(ids) == len(treeids) == len(nodeids) == len(weights):
        raise NodeError("the leaf weight attributes differ in length")
    forest = Forest()
    index: dict[tuple[int, int], int] = {}
    for k in range(n):
        key = (nodes_treeids[k], nodes_nodeids[k])
        if key in index:
            raise NodeError(f"node {key[1]} of tree {key[0]} is defined twice")
        index[key] = forest.node(nodes_featureids[k], float(values[k]))

    def child(k: int, node_id: int) -> int:
        key = (nodes_treeids[k], node_id)
        if key not in index:
            raise NodeError(f"tree {key[0]} has no node {node_id}")
        return index[key]

    is_child: set[int] = set()
    for k, mode in enumerate(nodes_modes):
        if mode == "LEAF":
            continue
        if mode not in _OUTCOMES:
            raise Unsupported(f"node mode {mode}")
        if nodes_featureids[k] < 0:
            raise NodeError(f"node {nodes_nodeids[k]} reads feature {nodes_featureids[k]}")
        true, false = child(k, nodes_truenodeids[k]), child(k, nodes_falsenodeids[k])
        forest.branch(k, mode, true, false, bool(missing and missing[k]))
        is_child |= {true, false}
    for tree in dict.fromkeys(nodes_treeids):
        roots = [index[tree, i] for t, i in zip(nodes_treeids, nodes_nodeids, strict=True)
                 if t == tree and index[tree, i] not in is_child]
        if len(roots) != 1:
            raise NodeError(f"tree {tree} has {len(roots)} roots")
        forest.add_tree(roots[0])
    for t, node_id, target, w in zip(treeids, nodeids, ids, weights, strict=True):
        if (t, node_id) not in index:
            raise NodeError(f"a leaf weight names node {node_id} of tree {t}, which is "
                            "not defined")
        forest.weigh(index[t, node_id], target, float(w))
    return forest


def _pick(plain: list[float] | None, as_tensor: np.ndarray | None, what: str
          ) -> tuple[np.ndarray | None, bool]:
    """A float attribute given as a list or (double) as a tensor: its values, and whether
    they are double."""
    if plain is not None and as_tensor is not None:
        raise NodeError(f"both {what} and {what}_as_tensor are set")
    if as_tensor is not None:
        return np.asarray(as_tensor).reshape(-1), as_tensor.dtype == np.float64
    return (np.asarray(plain, np.float32), False) if plain is not None else (None, False)


def _scored_every_row(forest: Forest, targets: int, base: np.ndarray | None) -> bool:
    """Whether every target gets a score on every row: onnxruntime leaves one without
    any out of its label's argmax, which the graph form does not follow."""
    if base is not None and len(base) == targets:
        return True
    full = set(range(targets))
    covered: set[int] = set()
    for root in forest.roots:
        reach, stack, seen = None, [root], set()
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if set(forest.next[n]) == {n}:
                got = {t for t, _ in forest.leaves.get(n, [])}
                reach = got if reach is None else reach & got
            else:
                stack.extend(forest.next[n])
        covered |= reach or set()
    return covered == full


def class_labels(b: OpBuilder, labels: Sequence[int] | Sequence[str] | None,
                 index: Value) -> Value:
    """The labels at `index` (i64 class indices)."""
    if not labels:
        raise NodeError("one of the class label attributes is required")
    if isinstance(labels[0], str):
        raise Unsupported("string class labels")
    return b.emit1(G.GatherOp, b.const(np.asarray(labels, np.int64)), index, axis=0)


def transformed(b: OpBuilder, scores: Value, transform: str) -> Value:
    """Scores after a classifier's post_transform (NONE, SOFTMAX or LOGISTIC)."""
    if transform == "NONE":
        return scores
    if transform == "SOFTMAX":
        return b.emit1(G.SoftmaxOp, scores, axis=-1)
    if transform == "LOGISTIC":
        return b.emit1(G.SigmoidOp, scores)
    raise Unsupported(f"post_transform {transform}")


def _base(b: OpBuilder, scores: Value, base: np.ndarray | None, targets: int) -> Value:
    if base is None or len(base) == 0:
        return scores
    if len(base) != targets:
        raise Unsupported(f"{len(base)} base values for {targets} targets")
    return b.emit1(G.AddOp, scores, b.const(base.astype(G.numpy_dtype(element(scores)))))




@built_from_other_ops
def tree_ensemble_regressor(
    b: OpBuilder, x: Value, *, aggregate_function: str = "SUM",
    base_values: list[float] | None = None, base_values_as_tensor: np.ndarray | None = None,
    n_targets: int | None = None, nodes_falsenodeids: list[int], nodes_featureids: list[int],
    nodes_hitrates: list[float] | None = None,
    nodes_hitrates_as_tensor: np.ndarray | None = None,
    nodes_missing_value_tracks_true: list[int] | None = None, nodes_modes: list[str],
    nodes_nodeids: list[int], nodes_treeids: list[int], nodes_truenodeids: list[int],
    nodes_values: list[float] | None = None, nodes_values_as_tensor: np.ndarray | None = None,
    post_transform: str = "NONE", target_ids: list[int], target_nodeids: list[int],
    target_treeids: list[int], target_weights: list[float] | None = None,
    target_weights_as_tensor: np.ndarray | None = None,
) -> Value:
    del nodes_hitrates, nodes_hitrates_as_tensor  # hints for a tree's layout only
    values, double = _pick(nodes_values, nodes_values_as_tensor, "nodes_values")
    weights, wide = _pick(target_weights, target_weights_as_tensor, "target_weights")
    base, _ = _pick(base_values, base_values_as_tensor, "base_values")
    if values is None or weights is None:
        raise NodeError("nodes_values and target_weights are required")
    targets = n_targets if n_targets is not None else max(target_ids, default=0) + 1
    if post_transform != "NONE":
        raise Unsupported(f"post_transform {post_transform} of a regressor")
    if aggregate_function not in G.AGGREGATES:
        raise NodeError(f"aggregate_function {aggregate_function}")
    forest = _forest_v3(nodes_treeids, nodes_nodeids, nodes_modes, nodes_featureids, values,
                        nodes_truenodeids, nodes_falsenodeids,
                        nodes_missing_value_tracks_true, target_ids, target_treeids,
                        target_nodeids, weights)
    scores = forest.emit(b, _features(b, x, double), targets, aggregate_function,
                         np.float64 if wide else np.float32)
    if base is not None and len(base) == 1 and targets == 1:
        base = base.reshape(1)
    return to_f32(b, _base(b, scores, base, targets))


@built_from_other_ops
def tree_ensemble_classifier(
    b: OpBuilder, x: Value, *, base_values: list[float] | None = None,
    base_values_as_tensor: np.ndarray | None = None, class_ids: list[int],
    class_nodeids: list[int], class_treeids: list[int],
    class_weights: list[float] | None = None,
    class_weights_as_tensor: np.ndarray | None = None,
    classlabels_int64s: list[int] | None = None, classlabels_strings: list[str] | None = None,
    nodes_falsenodeids: list[int], nodes_featureids: list[int],
    nodes_hitrates: list[float] | None = None,
    nodes_hitrates_as_tensor: np.ndarray | None = None,
    nodes_missing_value_tracks_true: list[int] | None = None, nodes_modes: list[str],
    nodes_nodeids: list[int], nodes_treeids: list[int], nodes_truenodeids: list[int],
    nodes_values: list[float] | None = None, nodes_values_as_tensor: np.ndarray | None = None,
    post_transform: str = "NONE",
) -> list[Value]:
    del nodes_hitrates, nodes_hitrates_as_tensor
    values, double = _pick(nodes_values, nodes_values_as_tensor, "nodes_values")
    weights, wide = _pick(class_weights, class_weights_as_tensor, "class_weights")
    base, _ = _pick(base_values, base_values_as_tensor, "base_values")
    if values is None or weights is None:
        raise NodeError("nodes_values and class_weights are required")
    labels = classlabels_int64s if classlabels_int64s is not None else classlabels_strings
    if not labels:
        raise NodeError("one of classlabels_int64s and classlabels_strings is required")
    forest = _forest_v3(nodes_treeids, nodes_nodeids, nodes_modes, nodes_featureids, values,
                        nodes_truenodeids, nodes_falsenodeids,
                        nodes_missing_value_tracks_true, class_ids, class_treeids,
                        class_nodeids, weights)
    x = _features(b, x, double)
    kind = np.float64 if wide else np.float32
    n = len(labels)
    if n > 2:
        if not _scored_every_row(forest, n, base):
            raise Unsupported("a class that some rows give no score (onnxruntime leaves it "
                              "out of the label's choice)")
        raw = to_f32(b, _base(b, forest.emit(b, x, n, "SUM", kind), base, n))
        best = b.emit1(G.ArgMaxOp, raw, axis=1, keepdims=0)
        return [class_labels(b, labels, best), transformed(b, raw, post_transform)]
    if n != 2 or set(class_ids) != {0} or (base is not None and len(base) > 1):
        raise Unsupported("a two-class ensemble other than weights of class 0 only with at "
                          "most one base value")
    if not _scored_every_row(forest, 1, base):
        raise Unsupported("a two-class ensemble whose trees leave some rows without a score")
    score = to_f32(b, _base(b, forest.emit(b, x, 1, "SUM", kind), base, 1))
    # onnxruntime: weights all >= 0 (a probability): class 1 past 0.5, scores [1 - s, s];
    # mixed weights (a margin): class 1 past 0, scores [-s, s]; under LOGISTIC either way
    # [sigmoid(-s), sigmoid(s)] (SOFTMAX is not applied)
    positive = bool(np.all(weights >= 0))
    if post_transform not in ("NONE", "LOGISTIC", "SOFTMAX"):
        raise Unsupported(f"post_transform {post_transform} of a two-class ensemble")
    cut = b.const(np.asarray(0.5 if positive else 0.0, np.float32))
    best = b.emit1(G.CastOp, b.emit1(G.GreaterOp, score, cut), to=i64)
    best = b.emit1(G.SqueezeOp, best, b.ints([1]))
    logistic = post_transform == "LOGISTIC"
    other = (b.emit1(G.SubOp, b.const(np.ones((1, 1), np.float32)), score)
             if positive and not logistic else b.emit1(G.NegOp, score))
    pair = b.emit1(G.ConcatOp, other, score, axis=1)
    if logistic:
        pair = b.emit1(G.SigmoidOp, pair)
    return [class_labels(b, labels, best), pair]


def _members(values: np.ndarray | None, count: int) -> list[list[float]]:
    """membership_values split at its NaNs, one list per set-membership node."""
    if values is None:
        if count:
            raise NodeError("set-membership nodes without membership_values")
        return []
    sets: list[list[float]] = [[]]
    for v in np.asarray(values, np.float64).reshape(-1):
        if np.isnan(v):
            sets.append([])
        else:
            sets[-1].append(float(v))
    sets = sets[:count] if not sets[-1] else sets
    if len(sets) != count:
        raise NodeError(f"membership_values has {len(sets)} sets for {count} "
                        "set-membership nodes")
    return sets


def tree_ensemble(
    b: OpBuilder, x: Value, *, aggregate_function: int = 1,
    leaf_targetids: list[int], leaf_weights: np.ndarray,
    membership_values: np.ndarray | None = None, n_targets: int | None = None,
    nodes_falseleafs: list[int], nodes_falsenodeids: list[int],
    nodes_featureids: list[int], nodes_hitrates: np.ndarray | None = None,
    nodes_missing_value_tracks_true: list[int] | None = None, nodes_modes: np.ndarray,
    nodes_splits: np.ndarray, nodes_trueleafs: list[int], nodes_truenodeids: list[int],
    post_transform: int = 0, tree_roots: list[int],
) -> Value:
    """TreeEnsemble (ai.onnx.ml 5): nodes and leaves by index; its result has x's type."""
    del nodes_hitrates
    modes = [int(m) for m in np.asarray(nodes_modes).reshape(-1)]
    n, leaves = len(modes), len(leaf_weights)
    if not (0 <= aggregate_function < 4 and 0 <= post_transform < 5):
        raise NodeError("aggregate_function or post_transform out of range")
    if _TRANSFORMS_V5[post_transform] != "NONE":
        raise Unsupported(f"post_transform {_TRANSFORMS_V5[post_transform]}")
    if len(leaf_targetids) != leaves:
        raise NodeError("leaf_targetids and leaf_weights differ in length")
    splits = np.asarray(nodes_splits).reshape(-1)
    forest = Forest()
    for k in range(n):
        forest.node(nodes_featureids[k], float(splits[k]))
    leaf_at = [forest.node() for _ in range(leaves)]

    def to(k: int, leaf: list[int], ids: list[int]) -> int:
        i = ids[k]
        if not 0 <= i < (leaves if leaf[k] else n):
            raise NodeError(f"node {k} has no {'leaf' if leaf[k] else 'node'} {i}")
        return leaf_at[i] if leaf[k] else i

    sets = iter(_members(membership_values, modes.count(6)))
    missing = nodes_missing_value_tracks_true or [0] * n
    for k, mode in enumerate(modes):
        if not 0 <= mode < len(_MODES_V5):
            raise NodeError(f"node {k} has mode {mode}")
        if nodes_featureids[k] < 0:
            raise NodeError(f"node {k} reads feature {nodes_featureids[k]}")
        true = to(k, nodes_trueleafs, nodes_truenodeids)
        false = to(k, nodes_falseleafs, nodes_falsenodeids)
        if mode == 6:
            forest.member(k, next(sets), true, false, bool(missing[k]))
        else:
            forest.branch(k, _MODES_V5[mode], true, false, bool(missing[k]))
    for r in tree_roots:
        degenerate = (nodes_trueleafs[r] and nodes_falseleafs[r]
                      and nodes_truenodeids[r] == nodes_falsenodeids[r])
        forest.add_tree(leaf_at[nodes_truenodeids[r]] if degenerate else r)
    for j, (t, w) in enumerate(zip(leaf_targetids, np.asarray(leaf_weights).reshape(-1),
                                   strict=True)):
        forest.weigh(leaf_at[j], int(t), float(w))
    targets = n_targets if n_targets is not None else max(leaf_targetids, default=0) + 1
    double = np.asarray(nodes_splits).dtype == np.float64
    scores = forest.emit(b, _features(b, x, double), targets,
                         _AGGREGATES_V5[aggregate_function], np.float64 if double
                         else np.float32)
    want = element(x)
    return scores if element(scores) == want else b.emit1(G.CastOp, scores, to=want)


OPS = {
    "TreeEnsembleClassifier": {1: tree_ensemble_classifier},
    "TreeEnsembleRegressor": {1: tree_ensemble_regressor},
    "TreeEnsemble": {5: tree_ensemble},
}
