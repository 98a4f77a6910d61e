"""`infer-opt --view-graph` (tools/graph_dot.py): the dot text is parsed back with a small
parser of the DOT grammar it uses, and its nodes, edges, labels and clusters compared with
the IR; where Graphviz's `dot` is installed, it renders it too."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp

from infer.context import make_context
from infer.tools.graph_dot import graph_dot, quoted
from infer.tools.infer_opt import main, parse_mlir

from .helpers import run_infer_opt

CONTROL_FLOW = Path(__file__).parents[1] / "filecheck_tests/dialects/graph/control_flow.mlir"

# %e read twice by the mul (two edges), two equal relus that cse merges, an op of two
# results, one of them unused.
IR = """func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %m = graph.mul %e, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r1 = graph.relu %y : (tensor<4xf32>) -> tensor<4xf32>
  %r2 = graph.relu %y : (tensor<4xf32>) -> tensor<4xf32>
  %s = graph.add %r1, %r2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %a, %b = graph.split %s {axis = 0 : i64, num_outputs = 2 : i64}
      : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %m, %a : tensor<4xf32>, tensor<2xf32>
}
"""

_TOKEN = re.compile(r'\s*(?:(->|[{}\[\];=,])|("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z_0-9]*'
                    r"|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)))")


@dataclass
class Dot:
    """A parsed digraph: node attributes by id, edges (tail, head, attributes), and each
    cluster's label with the ids of the nodes declared in it (nested ones too)."""

    nodes: dict[str, dict[str, str]] = field(default_factory=dict)
    edges: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    clusters: list[tuple[str, list[str]]] = field(default_factory=list)


def _unquote(token: str) -> str:
    if not token.startswith('"'):
        return token
    return re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], token[1:-1])


def parse_dot(text: str) -> Dot:
    """The DOT grammar's graph, subgraph, node, edge and attribute statements; AssertionError
    at the first token that does not fit."""
    tokens, at = [], 0
    while text[at:].strip():
        m = _TOKEN.match(text, at)
        assert m, f"not DOT at {text[at:at + 30]!r}"
        tokens.append(m[1] or m[2] or m[3])
        at = m.end()
    tokens.append("")
    dot, pos = Dot(), [0]

    def take(expected: str | None = None) -> str:
        t = tokens[pos[0]]
        assert t and (expected is None or t == expected), (expected, t, pos[0])
        pos[0] += 1
        return t

    def is_id(t: str) -> bool:
        return bool(t) and (t[0] == '"' or t[0].isalnum() or t[0] in "_-.")

    def attrs() -> dict[str, str]:
        out: dict[str, str] = {}
        while tokens[pos[0]] == "[":
            take("[")
            while tokens[pos[0]] != "]":
                key = _unquote(take())
                take("=")
                out[key] = _unquote(take())
                if tokens[pos[0]] in (",", ";"):
                    take()
            take("]")
        return out

    def statements(members: list[str]) -> str:
        """Statements up to a closing brace; returns the block's `label` if set."""
        label = ""
        while tokens[pos[0]] != "}":
            t = take()
            if t == "subgraph":
                inner: list[str] = []
                if tokens[pos[0]] != "{":
                    assert is_id(take())
                take("{")
                dot.clusters.append((statements(inner), inner))
                take("}")
                members += inner
            elif t in ("node", "edge", "graph"):
                attrs()
            else:
                assert is_id(t), t
                if tokens[pos[0]] == "=":
                    take("=")
                    value = _unquote(take())
                    label = value if t == "label" else label
                elif tokens[pos[0]] == "->":
                    chain = [t]
                    while tokens[pos[0]] == "->":
                        take("->")
                        chain.append(take())
                    a = attrs()
                    dot.edges += [(x, y, a) for x, y in zip(chain, chain[1:], strict=False)]
                else:
                    assert t not in dot.nodes, f"node {t} declared twice"
                    dot.nodes[t] = attrs()
                    members.append(t)
            if tokens[pos[0]] == ";":
                take(";")
        return label

    take("digraph")
    if tokens[pos[0]] != "{":
        assert is_id(take())
    take("{")
    statements([])
    take("}")
    assert tokens[pos[0]] == "", "text after the graph"
    for tail, head, _ in dot.edges:
        assert tail in dot.nodes and head in dot.nodes, (tail, head)
    return dot


def _view(capsys, tmp_path: Path, text: str, *args: str) -> str:
    code, out, err = run_infer_opt(capsys, tmp_path, text, *args)
    assert code == 0 and err == "", err
    return out


def _expected(module: ModuleOp) -> tuple[int, int, list[str]]:
    """Nodes (ops, block arguments, one output per function), edges (one per operand) and
    the op labels the IR makes."""
    nodes, edges, labels = 0, 0, []
    for op in module.walk():
        if isinstance(op, ModuleOp | FuncOp):
            nodes += sum(len(b.args) for r in op.regions for b in r.blocks)
            continue
        nodes += 1 + sum(len(b.args) for r in op.regions for b in r.blocks)
        edges += len(op.operands)
        if not isinstance(op, ReturnOp):
            labels.append("\n".join([op.name, ", ".join(str(r.type) for r in op.results)])
                          .rstrip("\n"))
    return nodes, edges, labels


def _render(text: str) -> None:
    """Graphviz renders it, where `dot` is installed (this check only)."""
    if shutil.which("dot") is None:
        return
    r = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "<svg" in r.stdout, r.stderr


def test_graph_after_the_passes(capsys, tmp_path: Path) -> None:
    """The graph is drawn after -p's passes: cse merged the two relus."""
    text = _view(capsys, tmp_path, IR, "--view-graph", "-p", "cse")
    dot = parse_dot(text)
    after = _view(capsys, tmp_path, IR, "-p", "cse")
    module = parse_mlir(make_context(), after.encode(), "after", {})
    nodes, edges, labels = _expected(module)
    assert (len(dot.nodes), len(dot.edges)) == (nodes, edges) == (8, 9)
    by_label = {a["label"]: n for n, a in dot.nodes.items()}
    assert sorted(a["label"] for a in dot.nodes.values() if a["shape"] == "box") == sorted(labels)
    assert [a["label"] for a in dot.nodes.values() if a["shape"] == "ellipse"] == [
        "%x: tensor<4xf32>", "%y: tensor<4xf32>"]
    pairs = [(dot.nodes[t]["label"], dot.nodes[h]["label"]) for t, h, _ in dot.edges]
    exp, mul = "graph.exp\ntensor<4xf32>", "graph.mul\ntensor<4xf32>"
    assert pairs.count((exp, mul)) == 2  # %e read twice
    assert pairs.count(("graph.relu\ntensor<4xf32>", "graph.add\ntensor<4xf32>")) == 2
    out = by_label["return"]
    split = "graph.split\ntensor<2xf32>, tensor<2xf32>"
    assert [(dot.nodes[t]["label"], a["label"]) for t, h, a in dot.edges if h == out] == [
        (mul, "#0"), (split, "#1")]
    assert dot.clusters == [("func @f", list(dot.nodes))]
    _render(text)


def test_nested_regions_and_output_file(capsys, tmp_path: Path) -> None:
    """graph.if's branches and graph.loop's and graph.scan's bodies are clusters in their
    function's; a branch reading a function argument has an edge from it. --view-op-graph
    (mlir-opt's name) with -o writes the same graph to the file."""
    ir = CONTROL_FLOW.read_text()
    out_file = tmp_path / "graph.dot"
    assert _view(capsys, tmp_path, ir, "--view-op-graph", "-o", str(out_file)) == ""
    text = out_file.read_text()
    dot = parse_dot(text)
    module = parse_mlir(make_context(), ir.encode(), "ir", {})
    nodes, edges, labels = _expected(module)
    assert (len(dot.nodes), len(dot.edges)) == (nodes, edges)
    assert sorted(a["label"] for a in dot.nodes.values() if a["shape"] == "box") == sorted(labels)
    names = [label for label, _ in dot.clusters]
    assert names == ["graph.if region 0", "graph.if region 1", "func @branches",
                     "graph.loop region 0", "func @running_sum", "graph.scan region 0",
                     "func @reversed_scan"]
    then = dict(dot.clusters)["graph.if region 0"]
    x = next(n for n, a in dot.nodes.items() if a["label"] == "%x: tensor<2x4xf32>")
    relu = next(n for n in then if dot.nodes[n]["label"].startswith("graph.relu"))
    assert (x, relu, {}) in dot.edges
    _render(text)


def test_labels_are_quoted() -> None:
    assert quoted('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c\\nd"'
    module = parse_mlir(make_context(), b'func.func @"say \\"hi\\"\\\\"() {\n  func.return\n}\n',
                        "q", {})
    dot = parse_dot(graph_dot(module))
    assert dot.clusters == [('func @say "hi"\\', [next(iter(dot.nodes))])]
    assert [a["label"] for a in dot.nodes.values()] == ["return"]


def test_view_graph_takes_no_target(capsys, tmp_path: Path) -> None:
    (tmp_path / "in.mlir").write_text(IR)
    with pytest.raises(SystemExit) as status:
        main([str(tmp_path / "in.mlir"), "--view-graph", "-t", "llvm"])
    assert status.value.code == 1
    assert capsys.readouterr().err == ("infer-opt: error: --view-graph prints the IR as a "
                                       "graph: it takes no -t llvm\n")
