# QuantOpsStaticLLVM.cmake: the interface target QuantOpsLLVM, what a tool or
# the C API library links for LLVM and MLIR (quantops_add_tool in
# QuantOpsHelpers.cmake, lib/CAPI): with QUANTOPS_STATIC_LLVM every static
# library of Debian's LLVM 22 and MLIR 22 (libLLVM*.a, libMLIR*.a in
# LLVM_LIBRARY_DIR), else libLLVM.so and libMLIR.so.
#
# Why: in the shared libraries every call of MLIR into MLIR (and of LLVM into
# LLVM) goes through the PLT, bound lazily at its first call, and the
# process relocates both libraries before main. Linked statically, the calls
# are direct and only the code a tool uses is in it: quant-runner starts in
# about 14 ms instead of 45 and compiles QLinearMatMul 128x768x3072 about
# 5.6 ms sooner (paired median, Zen 3; docs/Performance.md, "MLIR and LLVM
# linked into the tools").
#
# The archives are raw paths, not MLIR's imported targets: the imported
# MLIRExecutionEngine names libMLIR.so in its interface, and two copies of
# LLVM in one process register their command-line options twice. lld finds
# the members a tool needs in any order; the group keeps GNU ld working.
# The system libraries are those LLVM's support library uses (compression:
# zlib and zstd; Debian: zlib1g-dev, libzstd-dev).
add_library(QuantOpsLLVM INTERFACE)
if(NOT QUANTOPS_STATIC_LLVM)
  target_link_libraries(QuantOpsLLVM INTERFACE MLIR LLVM)
  return()
endif()

file(GLOB QUANTOPS_MLIR_ARCHIVES "${LLVM_LIBRARY_DIR}/libMLIR*.a")
file(GLOB QUANTOPS_LLVM_ARCHIVES "${LLVM_LIBRARY_DIR}/libLLVM*.a")
if(NOT QUANTOPS_MLIR_ARCHIVES OR NOT QUANTOPS_LLVM_ARCHIVES)
  message(FATAL_ERROR "QUANTOPS_STATIC_LLVM: no libMLIR*.a / libLLVM*.a in "
    "${LLVM_LIBRARY_DIR} (Debian: libmlir-22-dev, llvm-22-dev); configure "
    "with -DQUANTOPS_STATIC_LLVM=OFF to link libMLIR.so instead")
endif()
find_package(ZLIB REQUIRED)
if(NOT TARGET zstd::libzstd_shared)
  find_package(zstd)
endif()
if(NOT TARGET zstd::libzstd_shared)
  message(FATAL_ERROR "QUANTOPS_STATIC_LLVM: LLVM's static libraries need "
    "zstd (Debian: libzstd-dev), or configure with -DQUANTOPS_STATIC_LLVM=OFF")
endif()
find_package(Threads REQUIRED)

target_link_libraries(QuantOpsLLVM INTERFACE
  -Wl,--start-group ${QUANTOPS_MLIR_ARCHIVES} ${QUANTOPS_LLVM_ARCHIVES}
  -Wl,--end-group
  ZLIB::ZLIB zstd::libzstd_shared Threads::Threads ${CMAKE_DL_LIBS} m)
list(LENGTH QUANTOPS_MLIR_ARCHIVES mlirCount)
list(LENGTH QUANTOPS_LLVM_ARCHIVES llvmCount)
message(STATUS "QUANTOPS_STATIC_LLVM: tools link ${mlirCount} MLIR and "
  "${llvmCount} LLVM static libraries")
