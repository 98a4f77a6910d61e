// A malformed -p pipeline is one line naming what is wrong, exit status 1.
// RUN: not infer-opt %s -p 'graph-optimize{level=2' 2>&1 | filecheck %s --check-prefix=BRACE
// BRACE:     infer-opt: error: -p 'graph-optimize{level=2', column 23: Malformed pass arguments, expected either a space or `}` here
// BRACE-NOT: {{.}}

// RUN: not infer-opt %s -p 'canonicalize,,cse' 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY:     infer-opt: error: -p 'canonicalize,,cse', column 14: Expected pass name here
// EMPTY-NOT: {{.}}

// RUN: not infer-opt %s -p 'cse,graph-optimise' 2>&1 | filecheck %s --check-prefix=PASS
// PASS:      infer-opt: error: -p: unknown pass 'graph-optimise' (infer-opt --help lists them)
// PASS-NOT:  {{.}}

// RUN: not infer-opt %s -p 'graph-optimize{levle=2}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:     infer-opt: error: -p: pass 'graph-optimize' has no option 'levle' (its options: level, block, qdq)
// OPTION-NOT: {{.}}

// RUN: not infer-opt %s -p 'cse{level=2}' 2>&1 | filecheck %s --check-prefix=NONE
// NONE:      infer-opt: error: -p: pass 'cse' has no option 'level' (its options: none)

// RUN: not infer-opt %s -p 'graph-optimize{level=two}' 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE:      infer-opt: error: -p: option 'level' of pass 'graph-optimize' takes int, got 'two'
// TYPE-NOT:  {{.}}

// RUN: not infer-opt %s -p 'plan-loops{outline}' 2>&1 | filecheck %s --check-prefix=NOVALUE
// NOVALUE:   infer-opt: error: -p: option 'outline' of pass 'plan-loops' takes bool, got no value

// RUN: not infer-opt %s -p 'graph-optimize{level=7}' 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE:     infer-opt: error: graph-optimize: level must be 0..3, got 7
// VALUE-NOT: {{.}}

func.func @f() {
  func.return
}
