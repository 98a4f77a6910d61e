"""The IR as a Graphviz graph (`infer-opt --view-graph`, mlir-opt's --view-op-graph): one
`digraph` whose clusters are the module's functions (any other op of the module is a node
of its own). Each op is a box labelled with its
name and result types; each function argument (and block argument of a nested region) an
input node; the values a function returns go to its output node. An edge runs from the
producer of each operand to its user, once per use, so an op reading a value twice has two
edges from it. The ops of a nested region (a graph.if's branches, a graph.loop's body) sit
in a cluster of their own inside their op's. Render with `dot -Tsvg graph.dot -o graph.svg`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue


def quoted(text: str) -> str:
    """`text` as a dot string: in double quotes, with `"` and `\\` escaped and each line
    break as dot's `\\n` (centred)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


class _DotWriter:
    def __init__(self) -> None:
        self.lines = ["digraph module {", "  node [fontname = \"monospace\"];"]
        self.ids: dict[Operation | SSAValue, str] = {}
        self.edges: list[tuple[SSAValue, str, str]] = []  # value, user id, edge label

    def node(self, key: Operation | SSAValue, label: str, shape: str, indent: str) -> str:
        self.ids[key] = f"n{len(self.ids)}"
        self.lines.append(f"{indent}{self.ids[key]} [label = {quoted(label)}, shape = {shape}];")
        return self.ids[key]

    def cluster(self, label: str, indent: str) -> None:
        self.lines.append(f"{indent}subgraph cluster_{len(self.lines)} {{")
        self.lines.append(f"{indent}  label = {quoted(label)};")

    def block(self, block: Block, indent: str, returns: bool) -> None:
        for arg in block.args:
            self.node(arg, f"{_name(arg)}: {arg.type}", "ellipse", indent)
        for op in block.ops:
            if isinstance(op, FuncOp):
                if op.body.blocks:  # a declaration has nothing to draw
                    self.cluster(f"func @{op.sym_name.data}", indent)
                    for inner in op.body.blocks:
                        self.block(inner, indent + "  ", returns=True)
                    self.lines.append(f"{indent}}}")
                continue
            if returns and isinstance(op, ReturnOp):
                out = self.node(op, "return", "doubleoctagon", indent)
                self.edges += [(v, out, f"#{i}") for i, v in enumerate(op.operands)]
                continue
            types = ", ".join(str(r.type) for r in op.results)
            user = self.node(op, op.name + (f"\n{types}" if types else ""), "box", indent)
            self.edges += [(v, user, "") for v in op.operands]
            for i, region in enumerate(op.regions):
                for j, inner in enumerate(region.blocks):
                    self.cluster(f"{op.name} region {i}" + (f" block {j}" if j else ""),
                                 indent)
                    self.block(inner, indent + "  ", returns=False)
                    self.lines.append(f"{indent}}}")

    def module(self, module: ModuleOp) -> str:
        self.block(module.body.block, "  ", returns=False)
        for value, user, label in self.edges:
            owner = value.op if isinstance(value, OpResult) else value
            attrs = f" [label = {quoted(label)}]" if label else ""
            self.lines.append(f"  {self.ids[owner]} -> {user}{attrs};")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def _name(value: SSAValue) -> str:
    if value.name_hint:
        return f"%{value.name_hint}"
    if isinstance(value, BlockArgument):
        return f"%arg{value.index}"
    return "%"


def graph_dot(module: ModuleOp) -> str:
    """The functions of `module` as one Graphviz `digraph` (see the module's doc)."""
    return _DotWriter().module(module)
