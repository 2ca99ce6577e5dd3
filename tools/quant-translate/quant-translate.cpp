//===- quant-translate.cpp - translations into and out of qops IR ---------===//
//
//   quant-translate --import-onnx model.onnx -o out.mlir
//
// mlir-translate with the ONNX importer registered. Errors name the node
// (its name, op_type and domain) and exit 1, as mlir-translate does.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Target/ONNX/OnnxImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static void registerImportOnnx() {
  static TranslateToMLIRRegistration importOnnx(
      "import-onnx", "Import an ONNX model (.onnx) into the qops dialect",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        auto module = qops::onnx::importOnnxBuffer(
            buffer->getBuffer(), buffer->getBufferIdentifier(), context);
        if (!module) {
          emitError(UnknownLoc::get(context))
              << llvm::toString(module.takeError());
          return nullptr;
        }
        return OwningOpRef<Operation *>(module->release());
      },
      [](DialectRegistry &registry) {
        qops::onnx::registerOnnxImporterDialects(registry);
      });
}

int main(int argc, char **argv) {
  registerImportOnnx();
  return failed(mlirTranslateMain(argc, argv, "QuantOps translation tool"));
}
