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
    (or more, so that each result's tile is at least `result-tile-bytes`)
    and every outer loop by 1, peels the last partial tile off the innermost
    loop and vectorizes the full tiles with `linalg::vectorize`. The partial
    tile stays a (scalar) `linalg.generic`. Per-axis and blocked scales read
    through projections become contiguous or broadcast vector reads: no
    gathers. Ops that do not qualify are left alone. A tile loop of a row
    (inside the outer tile loops) with a static trip count of at least 4
    is kept rolled (`llvm.loop.unroll.disable`): LLVM unrolled such a row
    into straight-line code that its later loop passes then analysed as a
    whole (LoopLoadElimination on the 24 vectors of a 768-byte row: 10 ms
    of a QLinearMatMul's 80 ms of LLVM passes).

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
    Option<"resultTileBytes", "result-tile-bytes", "int64_t",
           /*default=*/"-1",
           "Widen the tile of an op so that it writes at least this many "
           "bytes of each result (results of 8 bits or more per element); "
           "0: vector-width alone; -1: the module's qops.target's (64, a "
           "zmm register and a cache line, on x86 with AVX-512; 0 "
           "otherwise, and without qops.target)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Distribute the outermost parallel loop with scf.forall (rows, "
           "or chunks of 16384 elements of a 1-D op) for threads">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def QOpsFuseQDQ : Pass<"qops-fuse-qdq", "::mlir::func::FuncOp"> {
  let summary = "Fuse QDQ matmuls and convolutions into qlinear_matmul / qlinear_conv / matmul_integer, and dynamic quantization's Cast -> Mul -> Add into the integer op";
  let description = [{
    Runs on the form the ONNX importer gives QDQ models (float MatMul as
    `linalg.matmul`, N-D activations collapsed to rows around it).

    1. int8 QDQ matmul:
       `Q(matmul(DQ(a), DQ(b)), sy, zy)` with ui8/si8 `a`, `b`, `y`, f32
       scales, `a` and `y` per-tensor, `b` per-tensor or per-column
       (axis 1 of a 2-D `b`), becomes
       `qops.qlinear_matmul a(a, sa, za) b(b, sb, zb) y(sy, zy)`
       (absent zero points become 0). A `tensor.collapse_shape` of `DQ(a)`
       into rows and the inverse `tensor.expand_shape` of the product are
       looked through: `a` keeps its rank.
       Numerics: the fused op accumulates (a - za)(b - zb) exactly in i32
       and rounds once, `round(acc * (sa * sb / sy)) + zy`; the unfused
       float path rounds every DQ, product and partial sum in f32 before Q.
       They agree except where the f32 path's error crosses a rounding
       boundary of Q: then they differ by 1 (docs/Numerics.md, "QDQ
       fusion").
    2. (weight-only matmuls, `matmul(x, DQ(w))` with 2-, 4- or 8-bit
       `w`, need no fusion: the float kernel, qops-lower-float-contractions,
       reads `w`'s integers and dequantizes them in registers, with the
       unfused graph's numbers; this pass leaves them alone.)
    3. dynamic quantization (onnxruntime's quantize_dynamic):
       `Cast(float)` of a `qops.conv_integer` / `qops.matmul_integer`'s
       sums, then `Mul(s)` and optionally `Add(o)` (the importer's
       elementwise `linalg.generic`s), with `s` and `o` f32 of one element
       or varying along the output channel only (conv: dim 1; matmul: the
       last dim), becomes the integer op with `dequantize(s [, o])`:
       `y = f32(acc) * s + o`, computed in the contraction's epilogue and
       rounded at each step as the unfused ops are: identical results.
    4. QDQ convolution (onnxruntime's quantize_static):
       `Q(conv(pad(DQ(x)), DQ(w)) [+ DQ(B)])` as the importer writes a
       float Conv (`tensor.pad` with 0.0, a linalg named convolution, 1-D
       to 3-D, grouped 2-D between expand/collapse_shape; B added per
       channel), with ui8/si8 x per tensor, w per tensor or per output
       channel (axis 0), B int32 whose scale equals fl(x_scale * w_scale[m])
       bit for bit (constant scales) and zero point 0, Q per tensor,
       becomes `qops.qlinear_conv` (padding DQ(x) with 0.0 is padding x with
       its zero point). Numerics as pattern 1: one exact rounding instead of
       the f32 sums, so the two may differ by one step.
    5. int8 DQ matmul with a float result (no Q reads it: a QDQ model's
       last layer, ONNX Runtime's MatMulIntegerToFloat):
       `matmul(DQ(a), DQ(b))`, a per tensor, b per tensor or per column,
       becomes `qops.matmul_integer ... dequantize(sa * sb)`:
       `f32(exact sum) * fl(sa * sb[n])` instead of f32 sums (within ONNX's
       float tolerance: a few ulps).

    Anything else is left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def QOpsConfigureTarget : Pass<"qops-configure-target", "::mlir::ModuleOp"> {
  let summary = "Resolve the target and the int8 strategy once, onto the module";
  let description = [{
    The configure step of the pipeline: resolves the target (empty options
    mean the host: its triple, CPU and features), chooses the int8 kernel
    strategy for it (`int8-strategy=auto`) and records both as the module's
    `qops.target` attribute (TargetAttr.h). The later passes with empty
    target options read it (convert-qops-to-linalg, qops-nontemporal-stores,
    qops-lower-kernel-intrinsics, qops-request-amx-tile-data,
    qops-set-llvm-target). With no option given, a module that already has
    the attribute keeps it. An unknown triple or CPU is an error.

    ```mlir
    module attributes {qops.target = {cpu = "znver3", features = "",
        int8_strategy = #qops.int8_strategy<maddubs>, triple = "x86_64-unknown-linux-gnu"}}
    ```
  }];
  // qops.target's int8_strategy is the qops dialect's attribute.
  let dependentDialects = ["::mlir::qops::QOpsDialect"];
  let options = [
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "LLVM target triple (default: the host's)">,
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"",
           "CPU name as llc -mcpu takes it (default: the host's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"", "Extra features, llc -mattr style (+a,-b)">,
    Option<"int8Strategy", "int8-strategy", "std::string",
           /*default=*/"\"auto\"",
           "The int8 kernel strategy (see convert-qops-to-linalg), or auto: "
           "the target's">
  ];
}

def QOpsSetLLVMTarget : Pass<"qops-set-llvm-target", "::mlir::ModuleOp"> {
  let summary = "Record the target CPU on the LLVM dialect module for code generation";
  let description = [{
    Sets the module's `llvm.target_triple` and, on every `llvm.func`
    definition, `target_cpu` and `target_features`, so that the LLVM IR
    (mlir-translate, the JIT, llc) is compiled for the same CPU the
    lowering chose its vector strategy for. Empty options mean the host
    (its triple, CPU and features). An unknown triple or CPU is an error.
  }];
  let options = [
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "LLVM target triple (default: the host's)">,
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"",
           "CPU name as llc -mcpu takes it (default: the host's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"", "Extra features, llc -mattr style (+a,-b)">
  ];
  // Its attributes (target_features) belong to the LLVM dialect, which a
  // module without LLVM ops has not loaded.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def QOpsHoistConstantExpressions
    : Pass<"qops-hoist-constant-expressions", "::mlir::ModuleOp"> {
  let summary = "Compute each function's constant tensor expressions once, at its first call, into globals";
  let description = [{
    The pack step's hoisting, on tensors, before bufferization. In the
    entry block of every `func.func`, an op is a constant expression when it
    is free of memory effects (its nested ops included), has results, gives
    no buffer (a `bufferization.to_buffer` of a constant expression stays in
    the function, and the tensor it views is the root), and every value it
    uses (in its regions too) is a constant or the result of a
    constant expression. A root is a result of a constant expression that is
    not itself a constant, is used by an op that is not a constant
    expression, is a static tensor, and is computed with an op that has
    regions (a `linalg` op, a loop, a `tensor.pad`) from a static tensor of
    at least `min-bytes` bytes (the largest operand or result among the
    expressions it comes from): the packing of constant weights and their
    column sums, a QuantizeLinear of constant float weights, a per-call copy
    of a constant. Reshapes of a constant and work on small tensors are not
    roots: they cost next to nothing per call.

    Each root gets an uninitialized `memref.global`; the function gets a
    state global (0: not computed, 1: being computed, 2: ready) and, at its
    head, the roots' expressions under a once-guard:

    ```mlir
    %old = memref.atomic_rmw maxs %c1, %state[] : (i32, memref<i32>) -> i32
    scf.if (%old == 0) {
      <the roots' expressions, cloned>
      bufferization.materialize_in_destination %root in restrict writable %global
      memref.atomic_rmw assign %c2, %state[]
    }
    scf.if (%old == 1) { <wait while the state is not 2> }
    %root' = bufferization.to_tensor %global restrict
    ```

    and the root's users read `%root'`. The first caller computes, callers
    that arrive meanwhile wait, every later call pays one atomic operation.
    The expressions are the IR the lowering emitted (no second packer in
    C++); they run at the first call, as ONNX Runtime prepacks weights when
    it creates a session, or at compile time when qops-const-eval follows
    (it finds the guard by the `qops.hoisted_*` attributes this pass sets,
    Passes.h).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "Hoist expressions that read or write a tensor of at least this "
           "many bytes (smaller ones, padded scales and the like, cost less "
           "to recompute than to guard)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def QOpsPrepareConstantGlobals
    : Pass<"qops-prepare-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Create the memref.globals of tensor constants in program order, before one-shot bufferization reuses them";
  let description = [{
    For every `arith.constant` of a ranked tensor, in the module's order,
    creates the `memref.global` that one-shot bufferization would create
    for it (`bufferization::getGlobalFor`: same name scheme, same
    alignment), so that bufferization finds and reuses it.

    Why: MLIR 22's function-boundary bufferization visits the functions
    that call nothing in an order that varies from run to run (a DenseMap
    keyed by pointers, fixed upstream after 22 by llvm-project#184722), and
    creates each constant's global when it first meets it: the globals'
    order and names (`__constant_xi8`, `__constant_xi8_0`) then vary too,
    and with them the bytes of the LLVM IR and of quant-compile's objects.
    Created here first, they are the same on every run.

    ```mlir
    func.func @f() -> tensor<4xi8> {
      %c = arith.constant dense<7> : tensor<4xi8>
      return %c : tensor<4xi8>
    }
    // gains, before the function:
    memref.global "private" constant @__constant_4xi8 : memref<4xi8> = dense<7> {alignment = 64 : i64}
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "The globals' alignment: one-shot-bufferize's buffer-alignment "
           "(a global of another alignment is not reused)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def QOpsHoistedInPlace
    : Pass<"qops-hoisted-in-place", "::mlir::ModuleOp"> {
  let summary = "Let the first call's computation of a hoisted value write into its global";
  let description = [{
    qops-hoist-constant-expressions computes a hoisted value (a constant
    b's packed panels) in the first call, inside an `scf.if` marked
    `qops.hoisted_compute`, and stores it with
    `bufferization.materialize_in_destination ... in restrict writable` into
    its `memref.global`. One-shot bufferization gives the computation a
    buffer of its own and copies it into the global: a fresh allocation of
    the weights' size (a page fault per 4 KiB on first touch) and a copy.

    This pass does what upstream's empty-tensor elimination does there, in
    each such `scf.if` only: where the stored value is built up in a
    `tensor.empty` that has no other use (followed back through the tied
    destinations of destination-style ops and the inits of `scf.for` and
    `scf.forall`: the packing's destination), that use becomes the global
    itself (`bufferization.to_tensor %global restrict writable`), so that
    bufferization writes the packed panels in place and the copy is gone
    (a copy of a buffer into itself, which the canonicalizer folds). A
    `tensor.empty`'s contents are undefined, so the replacement needs no
    analysis (upstream's one-shot analysis of each region had cost 0.4 ms
    apiece, 10 ms of a twelve-layer model's lowering); bufferization still
    decides what is written in place. The rest of the module is left
    alone.

    ```mlir
    scf.if %claimed {
      %e = tensor.empty() : tensor<4x16xi32>
      %p = linalg.fill ins(%c : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
      %g = memref.get_global @__qops_hoisted_f : memref<4x16xi32>
      bufferization.materialize_in_destination %p in restrict writable %g
    } {qops.hoisted_compute}
    // becomes (the get_global moved before the tensor.empty's user, the
    // tensor.empty left dead)
    scf.if %claimed {
      %e = tensor.empty() : tensor<4x16xi32>
      %g = memref.get_global @__qops_hoisted_f : memref<4x16xi32>
      %t = bufferization.to_tensor %g restrict writable : ...
      %p = linalg.fill ins(%c : i32) outs(%t : tensor<4x16xi32>) -> tensor<4x16xi32>
      bufferization.materialize_in_destination %p in writable %g
    } {qops.hoisted_compute}
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def QOpsByteConstantGlobals
    : Pass<"qops-byte-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Store large constant LLVM globals as byte arrays, so that LLVM emits them as one block";
  let description = [{
    Rewrites every constant `llvm.mlir.global` whose initial value is a
    non-splat dense or dense_resource array of at least `min-bytes` bytes,
    of integers or floats of whole bytes, into an `!llvm.array<N x i8>` of
    the same bytes (the target's byte order, which must be little-endian
    like the host's), keeping its alignment (or setting the element's, when
    it had none). The new value is a `dense_resource` that views the old
    one's buffer (ConstantBytes.h): a weight matrix is not copied and
    hashed again.
    Nothing reads a global through its type: every access goes through
    `llvm.mlir.addressof`, an opaque pointer.

    Why: LLVM's code generator writes an `[N x i8]` constant with one call,
    but a multi-dimensional one (`[1 x [192 x [384 x [16 x i32]]]]`, a packed
    weight matrix) as one uniqued constant per innermost row and one call
    per element; for a 768x3072 packed weight that was about 150 ms of the
    JIT's 300 (docs/Performance.md, "Compile time").

    Before / after:
    ```mlir
    llvm.mlir.global private constant @w(dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>)
        : !llvm.array<2 x array<2 x i32>>
    llvm.mlir.global private constant @w(dense_resource<qops_bytes>
        : tensor<16xi8>) {alignment = 4 : i64} : !llvm.array<16 x i8>
    // qops_bytes: 01000000 02000000 03000000 04000000, @w's old buffer
    ```
    Splats (LLVM writes them as a fill), `i1` and sub-byte elements, mutable
    globals and big-endian targets are left alone.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "Rewrite constants of at least this many bytes (small ones stay "
           "readable)">
  ];
}

def QOpsLowerKernelIntrinsics : Pass<"qops-lower-kernel-intrinsics"> {
  let summary = "Lower the int8 kernels' qkernel ops to the target's intrinsics";
  let description = [{
    Applies populateLowerKernelIntrinsicsPatterns in one walk; an op the
    target has no instruction for is an error.
    x86: `qkernel.dot_u8s8_quads` on vector<8xi32> becomes
    `llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"` (which LLVM also
    selects as the AVX-VNNI encoding), on vector<16xi32> `.512`.
    AArch64: each 4-lane quarter becomes `llvm.aarch64.neon.usdot`
    (`dot_u8s8_quads`, i8mm) or `llvm.aarch64.neon.sdot`
    (`dot_s8s8_quads`, dotprod) on <16 x i8> operands;
    `qkernel.mmla_u8s8` becomes `llvm.aarch64.neon.usmmla` (i8mm).
    Every target: `qkernel.dot_i16_pairs` becomes llvm.sext, llvm.mul, two
    llvm.shufflevector (even and odd lanes) and two llvm.add, which LLVM
    selects as VPMADDWD + VPADDD on x86. On x86 the pass also marks each
    function that holds a quads or pairs op with the LLVM function
    attribute `qops-int8-kernel` (`passthrough`): code generation compiles
    such a function without loop strength reduction. Runs after
    bufferization (the calls have unknown side effects), before the
    conversion to the LLVM dialect.
  }];
  let options = [
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "The target's triple (default: the host's)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def QOpsShareLoopNests
    : Pass<"qops-share-loop-nests", "::mlir::ModuleOp"> {
  let summary = "One private function for the loop nests that compute the same thing on different buffers";
  let description = [{
    A model's layers of the same shape lower to the same loop nests (the
    kernel's threads and tiles, the packing of a constant weight, an
    epilogue), each in its own copy in the function, which every later pass
    and LLVM's optimizer and code generator then process once per layer.
    This pass finds, in every function of the module, the outermost loops
    (`scf.for`, `scf.forall`, `scf.parallel` with no loop around them) and
    reads each as the function it would be outlined to: its arguments the
    values it uses from outside, in the order of first use (buffers,
    `memref.get_global` results, sizes, loop bounds), the constants and the
    memref views (`memref.subview`, `expand_shape`, `cast`, ...) it uses
    from outside copied into it (a call passes the buffer, not its views),
    its results the loop's. Nests whose
    functions are equivalent (`OperationEquivalence`, locations aside: the
    same ops, attributes, properties and types with the same use-def
    structure, so the same code; candidates found by a structural hash)
    become one private `func.func` (`<function>_nest_<n>`)
    with internal linkage, and each nest a `func.call` of it with its own
    values; a nest that has
    no twin stays where it is, so that a single layer compiles as before.

    Before (two layers of the same shape):
    ```mlir
    scf.forall (%i) in (24) { ... %w0 ... %y0 ... }
    scf.forall (%i) in (24) { ... %w1 ... %y1 ... }
    ```
    After:
    ```mlir
    call @main_nest_0(%w0, %y0) : (memref<...>, memref<...>) -> ()
    call @main_nest_0(%w1, %y1) : (memref<...>, memref<...>) -> ()
    func.func private @main_nest_0(%w: memref<...>, %y: memref<...>) {
      scf.forall (%i) in (24) { ... %w ... %y ... }
      return
    }
    ```
    The pipeline runs it after bufferization, before the loops are lowered.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def QOpsRequestAmxTileData : Pass<"qops-request-amx-tile-data", "::mlir::ModuleOp"> {
  let summary = "Ask Linux for the AMX tile state before the first AMX instruction";
  let description = [{
    Linux hands a process the AMX tile data state only after it asks
    (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`, Linux 5.16 and
    later); an AMX instruction before that raises SIGILL. For an x86-64
    Linux target, every function that holds `amx` ops (the int8 kernel's
    amx strategy) or their LLVM intrinsics (`llvm.x86.tileloadd64.internal`,
    `llvm.x86.tdpbusd.internal`, ...) gets, at its entry, a call to
    `__qops_request_amx_tile_data`, which this pass defines: it makes the
    `arch_prctl` system call (inline `syscall`) the first time and records
    that in a private flag (monotonic atomic loads and stores), so compiled
    code needs no runtime support, in the JIT or ahead of time. The grant
    covers every thread of the process, so one call before the OpenMP
    regions serves them all. Other targets, and modules without `amx` ops,
    are left alone. The pipeline runs it first thing after bufferization.
  }];
  let options = [
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "The target's triple (default: the host's)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def QOpsDistribute
    : Pass<"qops-distribute", "::mlir::func::FuncOp"> {
  let summary = "Give the int8 engine's marked loop nests to threads (scf.forall)";
  let description = [{
    The distribute stage of the int8 engine. convert-qops-to-linalg emits
    the loops whose iterations each write their own slice of a tensor as
    perfect `scf.for` nests, marked; this pass turns each into one
    `scf.forall`, which the pipeline lowers to OpenMP:

    - `qkernel.tile_loops` (the kernel's batches x row blocks x column
      chunks: QLinearMatMulKernel.cpp, emitTileLoops), with the policy,
      which is this pass's alone:
      - column chunks: the widest a thread takes (`column_chunk`), narrowed
        for static shapes so that the grid has at least `min_tasks` tasks
        (`blocks = B ceil(Mp / MC)`, `chunks = ceil(min_tasks / blocks)`,
        `chunk = clamp(roundUp(ceil(Np / chunks), NR), 2 NR, column_chunk)`);
      - row blocks: where the marker gives the register tile's rows
        (`tile_rows`, MR) and the tasks with that chunk are fewer than a
        quarter of `min_tasks` (too few to balance; narrower blocks read
        b's panels more often), narrower than the nest's MC, a multiple of MR
        (`blocks = ceil(min_tasks / (B ceil(Np / chunk)))`,
        `block = clamp(roundUp(ceil(Mp / blocks), MR), MR, MC)`); the
        body's block end `%mb + MC` takes the block;
      - order: the column chunks outside the row blocks when N >= M
        (static), so that a thread multiplies with the panels of b it
        packed itself (b's packing splits by panels); row blocks outside
        otherwise;
    - `qkernel.parallel_loops` (b's packing panels, QLinearMatMulMadd.cpp):
      the nest as it is, one forall dim per loop.

    The result does not depend on the split. Without this pass the nest
    runs on one thread, each row block over all columns.

    Before:
    ```mlir
    %chunk = arith.constant 3072 : index
    %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x128x3072xi8>) {
      %0 = scf.for %mb = %c0 to %c132 step %c48 iter_args(%y1 = %y0) -> (tensor<1x128x3072xi8>) {
        %1 = scf.for %nc = %c0 to %c3072 step %chunk iter_args(%y2 = %y1) -> (tensor<1x128x3072xi8>) {
          %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] ...
          %w = ... tiles writing %s ...
          %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] ...
          scf.yield %i : tensor<1x128x3072xi8>
        } ...
      } ...
    } {qkernel.tile_loops = {column_chunk = 256 : i64, m = 128 : i64, min_tasks = 64 : i64, n = 3072 : i64, panel_columns = 32 : i64}}
    ```
    After:
    ```mlir
    %chunk = arith.constant 160 : index
    %y = scf.forall (%bi, %nc, %mb) = (0, 0, 0) to (1, 3072, 132) step (1, 160, 48) shared_outs(%y2 = %init) -> (tensor<1x128x3072xi8>) {
      %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] ...
      %w = ... tiles writing %s ...
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %w into %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QOpsFuseElementwise
    : Pass<"qops-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg.generic ops into one loop";
  let description = [{
    A graph's float glue imports as one `linalg.generic` per ONNX node (Cast,
    Mul, Add, Relu after an unfused ConvInteger or MatMulInteger): each its
    own pass over memory and, with threads, its own parallel region. This
    pass fuses a producer into its consumer (linalg's
    `fuseElementwiseOps`) where both are plain elementwise ops (every loop
    parallel, every indexing map a projected permutation, where an input
    may read a broadcast unit dim at 0), the producer has one use and at
    least one loop, and the consumer reads it through a permutation. The
    fused body applies the same arith ops to the same values in the same
    order: every result is bit for bit the unfused one's. Reductions
    (DynamicQuantizeLinear's min/max), ops with windowed maps (the
    depthwise convolution's taps) and producers with other users are left
    alone.

    Before:
    ```mlir
    %f = linalg.generic {...} ins(%acc : tensor<1x64x56x56xi32>) ... { arith.sitofp }
    %m = linalg.generic {...} ins(%f, %s : tensor<1x64x56x56xf32>, tensor<f32>) ... { arith.mulf }
    %y = linalg.generic {... (d0, d1, 0, 0) ...} ins(%m, %bias : ..., tensor<1x64x1x1xf32>) ... { arith.addf }
    ```
    After:
    ```mlir
    %y = linalg.generic {...} ins(%acc, %s, %bias : ...) ... {
      arith.sitofp, arith.mulf, arith.addf
    }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def QOpsExpandStridedCopies
    : Pass<"qops-expand-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.copy of non-contiguous buffers into row-vector loops (or linalg.copy loops)";
  let description = [{
    A `memref.copy` whose source or target is not a contiguous row-major
    buffer (a padded operand's interior, a slice of a padded result, a
    convolution's tap of the patches) lowers to a call of MLIR's generic
    `memrefCopy`, which copies element by element through memcpy. Instead:
    when both innermost strides are 1 and the innermost size D is static,
    loops over the outer dims copy each row with `vector.transfer_read` /
    `vector.transfer_write` of up to 64 bytes (the last one masked when the
    width does not divide D); LLVM would not vectorize the scalar loops, as
    it cannot tell that the buffers do not overlap. Other copies become
    `linalg.copy` (plain loops). Contiguous copies stay `memref.copy` (one
    memcpy). linalg.transpose of 8/16/32-bit elements that swaps two groups
    of trailing dims becomes 16x16 (8-bit) or 8x8 blocks transposed in
    registers by interleaving shuffles, where the sizes allow. The loops
    over rows of 64 bytes or more and over blocks carry `loop_annotation`
    with unroll disabled (`llvm.loop.unroll.disable` in LLVM IR; shorter
    rows keep LLVM's partial unrolling): fully unrolled by LLVM, a
    strided convolution's copies made one block of hundreds of copies that
    took most of its JIT time, for no faster copy.
  }];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Distribute the outermost loop of each expanded copy or "
           "transpose that is not inside a parallel loop over threads "
           "(scf.forall)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def QOpsExpandStridedMetadata
    : Pass<"qops-expand-strided-metadata", "::mlir::ModuleOp"> {
  let summary = "Upstream's expand-strided-metadata, without the greedy "
                "driver's region simplification";
  let description = [{
    memref's expand-strided-metadata patterns
    (`memref::populateExpandStridedMetadataPatterns`: subview, reshapes and
    the metadata of allocations as `memref.extract_strided_metadata` and
    `memref.reinterpret_cast`), applied as upstream's pass applies them but
    with the greedy driver's region simplification off: after every sweep
    it looked for dead blocks and blocks to merge in the whole module,
    which these patterns never make (with qops-vector-to-scf's twin, 4.4 M
    of QLinearMatMul 128x768x3072's 115 M lowering instructions). The
    pipelines' objects are the same bytes.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def QOpsVectorToSCF
    : Pass<"qops-vector-to-scf", "::mlir::ModuleOp"> {
  let summary = "Upstream's convert-vector-to-scf (default options), without "
                "the greedy driver's region simplification";
  let description = [{
    The patterns of upstream's convert-vector-to-scf with its default
    options, in its order: the permutation maps of vector transfers
    lowered (`vector::populateVectorTransferPermutationMapLoweringPatterns`),
    then transfers of more than one dimension, or that are not a plain
    load or store, as loops (`populateVectorToSCFConversionPatterns`), each
    set applied with the greedy driver's region simplification off (see
    qops-expand-strided-metadata). The pipelines' objects are the same
    bytes.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def QOpsCanonicalize : Pass<"qops-canonicalize"> {
  let summary = "Upstream's canonicalizer without region simplification, "
                "its patterns collected once per pipeline";
  let description = [{
    Upstream's `canonicalize` as the pipelines configure it (region
    simplification off: "Weights viewed, regions left alone" in
    docs/Performance.md): every loaded dialect's and registered op's
    canonicalization patterns, applied by the greedy driver with its
    default configuration otherwise (bottom-up, at most 10 sweeps), as
    `createCanonicalizerPass(config)` applied them in the pipelines.
    Upstream's pass collects and freezes those patterns when each instance
    is initialized, from every op the context has registered (the LLVM,
    OpenMP, vector, ... dialects the pipeline loads): about 0.5-1 ms
    each, before the pipeline's first pass runs.
    The instances a pipeline builder makes with one
    `CanonicalPatternsCache` (`createQOpsCanonicalize(cache)`: the
    qops-lower-to-llvm pipeline's, the kernels' thread's included) build
    the set once and share it; an instance initialized after another
    dialect was loaded builds it again. Alone (`qops-canonicalize` in a
    pass pipeline) it builds its own. The rewrites are upstream's: the
    same patterns in the same order.
  }];
}

def QOpsRollRunOnceLoops
    : Pass<"qops-roll-run-once-loops", "::mlir::ModuleOp"> {
  let summary = "Keep LLVM from unrolling the loops that run once per session";
  let description = [{
    Marks every `scf.for` inside the `scf.if` that computes the hoisted
    constant expressions (`qops.hoisted_compute`, from
    qops-hoist-constant-expressions: the weights' packing and layout
    changes, run at the first call) with a `loop_annotation` that disables
    unrolling (`llvm.loop.unroll.disable` once lowered). That code runs
    once; unrolled, it is compiled at the size of its copies on every JIT
    (a QLinearConv 3x3's weight transpose: nine blocks of some 200
    instructions). So are the loops of a function every use of which is
    inside such a compute (the nests qops-share-loop-nests makes of layers
    whose packings are alike). Runs once the loops are scf.for (after
    convert-linalg-to-loops), before scf-to-cf.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def QOpsSplitFreshResultDeallocs
    : Pass<"qops-split-fresh-result-deallocs", "::mlir::ModuleOp"> {
  let summary = "Free the results of calls to kernels apart without run-time "
                "alias checks";
  let description = [{
    A function declaration with `qops.fresh_results` (qops-kernels-apart's
    kernels) returns buffers it allocated. A `bufferization.dealloc` that
    frees such a call result (or its base buffer) beside other buffers, or
    that retains values, is split: the call result gets a dealloc of its
    own, when every other memref and retained value of the op has a known
    origin that is another buffer (an allocation, a global, an argument of
    the function, another call's fresh result). Upstream's
    buffer-deallocation-simplification and lower-deallocations then free
    it without the generic run-time alias check (dealloc_helper). Runs
    after the ownership-based deallocation, before its simplification.
  }];
}

def QOpsNontemporalStores
    : Pass<"qops-nontemporal-stores", "::mlir::func::FuncOp"> {
  let summary = "Stream large results to memory with aligned non-temporal vector stores";
  let description = [{
    A result that is written once and not read again by the function
    (a `memref.alloc` the function returns) and is at least `min-bytes`
    large would only evict useful lines from the caches, and each ordinary
    store first reads its line (write-allocate). Its 1-D, in-bounds,
    unmasked `vector.transfer_write`s whose innermost stride is 1 become
    `vector.store {nontemporal = true}` with the alignment that can be
    proved: the allocation's alignment and the largest power of two that
    divides the byte offset, from the offsets and strides of the
    `memref.subview`s in between and the divisors of the indices (constants,
    loop induction variables, products, sums, affine maps). LLVM emits
    MOVNT / STNP for aligned stores and splits or scalarizes the others.
    After the outermost loop that holds such stores, a fence orders the
    weakly-ordered stores before any later store (one that publishes the
    result to another thread): SFENCE (`llvm.x86.sse.sfence`) on x86,
    where LLVM's `fence seq_cst` is a locked add that Intel documents for
    write-back memory only; `llvm.fence seq_cst` (DMB) elsewhere. The
    threads of an OpenMP loop are ordered by its barrier.

    A result of a dynamic shape (a `memref.alloc` with dynamic sizes, e.g.
    an ONNX model's batch dim) has its size known only at run time: the
    top-level op (loop nest) that writes it is versioned, `scf.if (bytes >=
    min-bytes)` taking a copy of the nest with the streaming stores and the
    fence, the else branch the nest as it was. Only writes proved aligned
    to their vector's size are streamed there (whole MOVNTPS, not the 8-byte
    MOVNTI pieces LLVM makes of a less aligned one; a ?x? result's rows
    have no known alignment), and a nest that yields values is left alone.

    A result written by a top-level op (loop nest) that reads a buffer of at
    least `min-bytes` an earlier top-level op of the function read too
    keeps ordinary stores:
    that is a second pass over an input (DynamicQuantizeLinear's x), partly
    served from the cache, and streaming its result measured slower there
    (1.08-1.10x the time at 2 threads on Zen 5).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"8 << 20",
           "Smallest result size in bytes whose stores stream (checked at "
           "run time for a dynamic shape)">,
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "The target's triple, for the fence (default: the host's)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // QUANTOPS_TRANSFORMS_PASSES_TD
