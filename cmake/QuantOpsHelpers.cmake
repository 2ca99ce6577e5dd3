# QuantOpsHelpers.cmake: small helpers shared by the project's CMake files.

# quantops_add_library(name SOURCES... [DEPENDS tblgen targets...]
#                      [LINK_LIBS libs...])
# A library of the project, exported in the QuantOpsTargets set and
# installed. Its users link libMLIR.so and libLLVM.so through it, except the
# tools of a QUANTOPS_STATIC_LLVM build, which link the static libraries
# (quantops_add_tool); installed, it always names the shared ones.
function(quantops_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} ${ARG_UNPARSED_ARGUMENTS})
  add_library(QuantOps::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  if(QUANTOPS_STATIC_LLVM)
    target_link_libraries(${name} PUBLIC $<INSTALL_INTERFACE:MLIR>
                          $<INSTALL_INTERFACE:LLVM>)
  else()
    target_link_libraries(${name} PUBLIC MLIR LLVM)
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${QUANTOPS_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${QUANTOPS_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # The imported MLIR target carries no include directories: consumers get
  # MLIR's and LLVM's (absolute, outside this project) through ours.
  target_include_directories(${name} SYSTEM PUBLIC
    ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(QUANTOPS_PRECOMPILED_HEADERS)
    target_precompile_headers(${name} REUSE_FROM QuantOpsPrecompiledHeaders)
  endif()
  install(TARGETS ${name} EXPORT QuantOpsTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# quantops_set_install_rpath(target)
# The installed binary finds the project's libraries beside it and LLVM's
# and MLIR's (libLLVM.so, libMLIR.so: Debian keeps them in LLVM's own
# library folder, outside the loader's path): $ORIGIN/../lib, then LLVM's.
function(quantops_set_install_rpath target)
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
endfunction()

# quantops_add_tool(name SOURCES... LINK_LIBS libs...)
# A command-line tool of the project: LLVM's executable set-up, the
# project's libraries, LLVM and MLIR, the install rpath, installed. LLVM and
# MLIR are QuantOpsLLVM (QuantOpsStaticLLVM.cmake): their static libraries in
# a QUANTOPS_STATIC_LLVM build (then add_llvm_executable is told not to add
# libLLVM.so, as Debian's LLVM links its own tools with it), else libLLVM.so
# and libMLIR.so. The mlir-opt plugin and the fuzzers link the shared ones.
function(quantops_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  if(QUANTOPS_STATIC_LLVM)
    add_llvm_executable(${name} DISABLE_LLVM_LINK_LLVM_DYLIB
                        ${ARG_UNPARSED_ARGUMENTS})
  else()
    add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  endif()
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} QuantOpsLLVM)
  quantops_set_install_rpath(${name})
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
