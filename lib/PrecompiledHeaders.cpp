//===- PrecompiledHeaders.cpp - the precompiled header's own target -------===//
//
// QuantOpsPrecompiledHeaders (lib/CMakeLists.txt) compiles
// PrecompiledHeaders.h once; the project's libraries reuse it. This file is
// the target's only source and defines nothing.
//
//===----------------------------------------------------------------------===//
