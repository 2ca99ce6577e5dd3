//===- TargetInfo.cpp - the CPU the pipelines compile for -----------------===//

#include "QuantOps/Target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace mlir;
using namespace mlir::qops;

namespace {

void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  });
}

/// "+a,+b,-c" for the host's features (computed once per process: the
/// host does not change).
const std::string &hostFeatureString() {
  static const std::string features = [] {
    std::string result;
    for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
      if (!result.empty())
        result += ",";
      result += (feature.second ? "+" : "-") + feature.first().str();
    }
    return result;
  }();
  return features;
}

const std::string &hostCpuName() {
  static const std::string name = llvm::sys::getHostCPUName().str();
  return name;
}

/// The subtarget of (triple, CPU, features), made once per process and
/// kept: a pipeline asks about its target a dozen times (strategy, vector
/// width, FMA, ...), and each MCSubtargetInfo parses the feature string
/// against LLVM's whole feature table (about 0.2 ms on x86). Its methods
/// used here are const, so threads may share it.
const llvm::MCSubtargetInfo *getSubtargetInfo(const QOpsTarget &target,
                                              std::string *error) {
  initializeTargets();
  static std::mutex mutex;
  static llvm::StringMap<std::unique_ptr<llvm::MCSubtargetInfo>> cache;
  std::string key = target.triple + '\0' + target.cpu + '\0' + target.features;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(key);
  if (found != cache.end())
    return found->second.get();
  llvm::Triple triple(target.triple);
  std::string lookupError;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!llvmTarget) {
    if (error)
      *error = lookupError;
    return nullptr;
  }
  auto &slot = cache[key];
  slot.reset(
      llvmTarget->createMCSubtargetInfo(triple, target.cpu, target.features));
  return slot.get();
}

/// Features that add instructions generated code may use (vector and bit
/// manipulation ISAs). Tuning flags (prefer-256-bit, false-deps-*) and
/// system instructions (pku, mwaitx, ...) do not stop code from running,
/// and a virtual machine often hides the latter.
bool isInstructionSetFeature(llvm::StringRef name) {
  static const char *const prefixes[] = {
      "sse",  "ssse3", "avx",    "fma",     "f16c",       "bmi",
      "popcnt", "lzcnt", "movbe", "gfni",   "vaes",       "vpclmulqdq",
      "neon", "dotprod", "i8mm", "sve",     "fullfp16",   "bf16",
      "amx"};
  return llvm::any_of(prefixes, [&](const char *prefix) {
    return name.starts_with(prefix);
  });
}

/// Whether this process may use AMX tile data when the CPU has it. Linux
/// hands the tile state out on request only (arch_prctl
/// ARCH_REQ_XCOMP_PERM, which the generated code makes); ARCH_GET_XCOMP_SUPP
/// tells, without asking, whether the kernel supports it at all (Linux
/// 5.16 and later).
bool hostKernelSupportsAmx() {
#if defined(__linux__) && defined(__x86_64__)
  constexpr int kArchGetXcompSupp = 0x1021;
  constexpr int kXfeatureXtiledata = 18;
  unsigned long supported = 0;
  if (syscall(SYS_arch_prctl, kArchGetXcompSupp, &supported) != 0)
    return false;
  return (supported >> kXfeatureXtiledata) & 1;
#else
  return true;
#endif
}

} // namespace

llvm::Expected<QOpsTarget> qops::resolveTarget(QOpsTarget target) {
  bool hostCpu = target.cpu.empty() || target.cpu == "native" ||
                 target.cpu == "host";
  if (target.triple.empty())
    target.triple = llvm::sys::getProcessTriple();
  if (hostCpu) {
    target.cpu = hostCpuName();
    // The host CPU's name may not list every feature this machine has
    // (or has switched off): take them from the host as well.
    std::string host = hostFeatureString();
    // A kernel that does not hand out the AMX tile state: the CPU's AMX
    // cannot be used here.
    if (llvm::StringRef(host).contains("+amx-tile") && !hostKernelSupportsAmx())
      host += ",-amx-tile";
    target.features = target.features.empty() ? host : host + "," +
                                                           target.features;
  }
  std::string error;
  const llvm::MCSubtargetInfo *info = getSubtargetInfo(target, &error);
  if (!info)
    return llvm::createStringError("unknown target triple '" + target.triple +
                                   "': " + error);
  if (!info->isCPUStringValid(target.cpu))
    return llvm::createStringError("unknown CPU '" + target.cpu +
                                   "' for target '" + target.triple + "'");
  return target;
}

bool qops::targetHasFeatures(const QOpsTarget &target,
                             llvm::StringRef features) {
  const llvm::MCSubtargetInfo *info = getSubtargetInfo(target, nullptr);
  return info && info->checkFeatures(features);
}

unsigned qops::vectorRegisterBits(const QOpsTarget &target) {
  if (!llvm::Triple(target.triple).isX86())
    return 128;
  if (targetHasFeatures(target, "+avx512f,+avx512bw"))
    return 512;
  return targetHasFeatures(target, "+avx2") ? 256 : 128;
}

bool qops::targetHasNativeFma(const QOpsTarget &target) {
  llvm::Triple triple(target.triple);
  if (triple.isAArch64())
    return true;
  return triple.isX86() && targetHasFeatures(target, "+fma");
}

int64_t qops::elementwiseResultTileBytes(const QOpsTarget &target) {
  // 512-bit registers: x86 with AVX-512 F and BW (vectorRegisterBits).
  return vectorRegisterBits(target) == 512 ? 64 : 0;
}

std::string qops::int8StrategyNames() {
  std::string names;
  uint32_t last = getMaxEnumValForInt8KernelStrategy();
  for (uint32_t value = 0; value <= last; ++value) {
    if (value)
      names += value == last ? " or " : ", ";
    names += stringifyInt8KernelStrategy(
                 static_cast<Int8KernelStrategy>(value))
                 .str();
  }
  return names;
}

llvm::Expected<std::optional<qops::Int8KernelStrategy>>
qops::parseInt8StrategyOption(llvm::StringRef value) {
  if (value == "auto")
    return std::nullopt;
  if (std::optional<Int8KernelStrategy> named =
          symbolizeInt8KernelStrategy(value))
    return named;
  return llvm::createStringError("int8-strategy must be auto, " +
                                 int8StrategyNames() + ", not '" + value +
                                 "'");
}

std::string qops::int8StrategyUnsupportedReason(const QOpsTarget &target,
                                                Int8KernelStrategy strategy) {
  llvm::Triple triple(target.triple);
  auto needs = [&](bool arch, llvm::StringRef archName,
                   llvm::StringRef features) -> std::string {
    if (!arch)
      return ("needs " + archName).str();
    if (!targetHasFeatures(target, features))
      return ("needs " + features).str();
    return "";
  };
  switch (strategy) {
  case Int8KernelStrategy::Vnni:
    return needs(triple.isX86(), "x86", "+avx512vnni,+avx512vl");
  case Int8KernelStrategy::AvxVnni:
    // The VEX encoding, or the EVEX one on AVX-512 VNNI machines.
    if (triple.isX86() && targetHasFeatures(target, "+avx512vnni,+avx512vl"))
      return "";
    return needs(triple.isX86(), "x86", "+avxvnni");
  case Int8KernelStrategy::Amx: // vnni for the statically short matrices
    return needs(triple.isX86(), "x86",
                 "+amx-int8,+amx-tile,+avx512vnni,+avx512vl");
  case Int8KernelStrategy::NeonUsmmla:
  case Int8KernelStrategy::NeonUsdot:
    return needs(triple.isAArch64(), "AArch64", "+i8mm");
  case Int8KernelStrategy::NeonSdot:
    return needs(triple.isAArch64(), "AArch64", "+dotprod");
  case Int8KernelStrategy::Maddubs:
    return needs(triple.isX86(), "x86", "+avx2");
  case Int8KernelStrategy::Madd: // plain vector arithmetic
    return "";
  }
  llvm_unreachable("every strategy is handled");
}

qops::Int8KernelStrategy qops::chooseInt8Strategy(const QOpsTarget &target) {
  // The first the target can run, in order of preference (usdot only on
  // request: usmmla does twice the products per instruction).
  for (Int8KernelStrategy strategy :
       {Int8KernelStrategy::Amx, Int8KernelStrategy::Vnni,
        Int8KernelStrategy::AvxVnni, Int8KernelStrategy::NeonUsmmla,
        Int8KernelStrategy::NeonSdot, Int8KernelStrategy::Maddubs})
    if (int8StrategyUnsupportedReason(target, strategy).empty())
      return strategy;
  return Int8KernelStrategy::Madd;
}

std::string qops::featuresMissingOnHost(const QOpsTarget &target) {
  QOpsTarget host;
  if (llvm::Triple(target.triple).getArch() !=
      llvm::Triple(llvm::sys::getProcessTriple()).getArch())
    return "the " + llvm::Triple(target.triple).getArchName().str() +
           " architecture";
  host.triple = target.triple;
  host.cpu = hostCpuName();
  host.features = hostFeatureString();
  const llvm::MCSubtargetInfo *targetInfo = getSubtargetInfo(target, nullptr);
  const llvm::MCSubtargetInfo *hostInfo = getSubtargetInfo(host, nullptr);
  if (!targetInfo || !hostInfo)
    return "";
  std::string missing;
  for (const llvm::SubtargetFeatureKV &feature :
       targetInfo->getAllProcessorFeatures()) {
    if (targetInfo->getFeatureBits().test(feature.Value) &&
        !hostInfo->getFeatureBits().test(feature.Value) &&
        isInstructionSetFeature(feature.Key)) {
      if (!missing.empty())
        missing += ",";
      missing += "+" + std::string(feature.Key);
    }
  }
  return missing;
}
