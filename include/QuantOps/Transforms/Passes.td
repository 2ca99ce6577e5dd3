//===- Passes.td - QuantOps transformation passes ----------*- tablegen -*-===//
//
// Passes on the lowered (linalg / vector) form of qops programs.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TRANSFORMS_PASSES_TD
#define QUANTOPS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QOpsVectorizeElementwise
    : Pass<"qops-vectorize-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Tile, peel and vectorize elementwise linalg.generic ops along their contiguous dimension";
  let description = [{
    For every `linalg.generic` on tensors that is elementwise along its
    innermost loop (that loop parallel and indexing every output, all maps
    projected permutations; outer loops may be reductions), tiles the innermost loop by `vector-width`
    and every outer loop by 1, peels the last partial tile off the innermost
    loop and vectorizes the full tiles with `linalg::vectorize`. The partial
    tile stays a (scalar) `linalg.generic`. Per-axis and blocked scales read
    through projections become contiguous or broadcast vector reads: no
    gathers. Ops that do not qualify are left alone.

    Before:
    ```mlir
    %y = linalg.generic {... iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<4096x4096xf32>, tensor<4096xf32>) ...
    ```
    After (sketch):
    ```mlir
    scf.for %i = 0 to 4096 step 1 {
      scf.for %j = 0 to 4096 step 32 {
        %v = vector.transfer_read %x[%i, %j] : ..., vector<1x32xf32>
        ... arith on vector<1x32xf32> ...
        vector.transfer_write ...
      }
    }
    ```
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"32",
           "Elements per vector tile along the innermost dimension">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Distribute the outermost parallel loop with scf.forall (rows, "
           "or chunks of 16384 elements of a 1-D op) for threads">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // QUANTOPS_TRANSFORMS_PASSES_TD
