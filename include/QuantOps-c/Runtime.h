/*===- QuantOps-c/Runtime.h - the QuantOps runtime C API ----------*- C -*-===*\
|*                                                                            *|
|* Compile an ONNX model (or qops MLIR) once into a session, then run it on   *|
|* host buffers as often as needed, from any number of threads. The library   *|
|* is libQuantOpsRuntime.so; the CMake package exports it as                  *|
|* QuantOps::QuantOpsRuntime. The Python package `quantops` is built on it.   *|
|*                                                                            *|
|* Conventions:                                                               *|
|* - Every function that can fail returns a QopsStatus pointer: NULL on       *|
|*   success, else an error whose message (qopsStatusGetMessage) is the one   *|
|*   line quant-runner prints for the same problem; release it with           *|
|*   qopsStatusDestroy. Nothing aborts on bad input.                          *|
|* - Element types are ONNX's TensorProto.DataType numbers (QopsElementType). *|
|*   Tensors are dense, C order, little-endian. 4-bit and 2-bit integers take *|
|*   one byte per element (range-checked); bfloat16, float8, float4 and e8m0  *|
|*   are passed as their raw bits (bfloat16 in 2 bytes, the others in 1).     *|
|* - A session is immutable after creation: qopsSessionRun may be called on   *|
|*   one session from several threads at once.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef QUANTOPS_C_RUNTIME_H
#define QUANTOPS_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QOPS_EXPORT __attribute__((visibility("default")))

/* The API version this header describes (qopsGetApiVersion returns the
 * library's). */
#define QOPS_API_VERSION 1

typedef struct QopsStatus QopsStatus;
typedef struct QopsSessionOptions QopsSessionOptions;
typedef struct QopsSession QopsSession;

/* ONNX TensorProto.DataType. */
typedef enum QopsElementType {
  QOPS_TYPE_UNDEFINED = 0,
  QOPS_TYPE_FLOAT = 1,
  QOPS_TYPE_UINT8 = 2,
  QOPS_TYPE_INT8 = 3,
  QOPS_TYPE_UINT16 = 4,
  QOPS_TYPE_INT16 = 5,
  QOPS_TYPE_INT32 = 6,
  QOPS_TYPE_INT64 = 7,
  QOPS_TYPE_FLOAT16 = 10,
  QOPS_TYPE_DOUBLE = 11,
  QOPS_TYPE_BFLOAT16 = 16,
  QOPS_TYPE_FLOAT8E4M3FN = 17,
  QOPS_TYPE_FLOAT8E4M3FNUZ = 18,
  QOPS_TYPE_FLOAT8E5M2 = 19,
  QOPS_TYPE_FLOAT8E5M2FNUZ = 20,
  QOPS_TYPE_UINT4 = 21,
  QOPS_TYPE_INT4 = 22,
  QOPS_TYPE_FLOAT4E2M1 = 23,
  QOPS_TYPE_FLOAT8E8M0 = 24,
  QOPS_TYPE_UINT2 = 25,
  QOPS_TYPE_INT2 = 26
} QopsElementType;

/* What the bytes given to qopsSessionCreateFromBuffer hold. */
typedef enum QopsModelFormat {
  QOPS_FORMAT_ONNX = 0, /* an ONNX ModelProto */
  QOPS_FORMAT_MLIR = 1  /* MLIR text (qops, or any level the runner lowers) */
} QopsModelFormat;

QOPS_EXPORT int qopsGetApiVersion(void);

/*===--- Status -----------------------------------------------------------===*/

QOPS_EXPORT const char *qopsStatusGetMessage(const QopsStatus *status);
QOPS_EXPORT void qopsStatusDestroy(QopsStatus *status);

/*===--- Session options --------------------------------------------------===*/

QOPS_EXPORT QopsSessionOptions *qopsSessionOptionsCreate(void);
QOPS_EXPORT void qopsSessionOptionsDestroy(QopsSessionOptions *options);

/* Sets one option by name, as quant-runner's flag of the same name:
 *   "threads"               N >= 0 (0: every core, the default)
 *   "target_cpu"            llc -mcpu name ("" : this CPU)
 *   "target_features"       "+a,-b" on top of the CPU's
 *   "fuse_qdq"              "0" | "1"  (qops-fuse-qdq first)
 *   "float_fma"             "0" | "1"  (float contractions with FMA)
 *   "qdq_accuracy_level"    0..4 (4: DequantizeLinear(4-bit) -> MatMul with
 *                           A quantized to int8, as ONNX Runtime's
 *                           session.qdq_matmulnbits_accuracy_level; default 0)
 *   "const_eval"            "0" | "1"  (pack constant weights while compiling)
 *   "nontemporal_min_bytes" N >= 0 (streaming stores from N bytes; 0: never)
 *   "opt_level"             0..3 (LLVM optimisation level, default 3)
 * An unknown name or a malformed value is an error. */
QOPS_EXPORT QopsStatus *qopsSessionOptionsSet(QopsSessionOptions *options,
                                              const char *name,
                                              const char *value);

/*===--- Sessions ---------------------------------------------------------===*/

/* Imports (.onnx) or parses (other names: MLIR) the file, lowers and compiles
 * its function "main". `options` may be NULL (defaults). */
QOPS_EXPORT QopsStatus *qopsSessionCreate(const char *path,
                                          const QopsSessionOptions *options,
                                          QopsSession **session);

/* The same from memory. */
QOPS_EXPORT QopsStatus *
qopsSessionCreateFromBuffer(const void *data, size_t size,
                            QopsModelFormat format,
                            const QopsSessionOptions *options,
                            QopsSession **session);

QOPS_EXPORT void qopsSessionDestroy(QopsSession *session);

/* An input or output as the model declares it. The pointers stay valid as
 * long as the session. A dimension of -1 is dynamic (fixed at each run). */
typedef struct QopsTensorInfo {
  const char *name;
  int32_t element_type; /* QopsElementType */
  size_t rank;
  const int64_t *shape;
} QopsTensorInfo;

QOPS_EXPORT size_t qopsSessionGetInputCount(const QopsSession *session);
QOPS_EXPORT size_t qopsSessionGetOutputCount(const QopsSession *session);
/* Index out of range: an error. */
QOPS_EXPORT QopsStatus *qopsSessionGetInputInfo(const QopsSession *session,
                                                size_t index,
                                                QopsTensorInfo *info);
QOPS_EXPORT QopsStatus *qopsSessionGetOutputInfo(const QopsSession *session,
                                                 size_t index,
                                                 QopsTensorInfo *info);

/* A tensor crossing the API: element type, shape, and `byte_size` bytes of
 * dense C-order data. */
typedef struct QopsTensor {
  int32_t element_type; /* QopsElementType */
  size_t rank;
  int64_t *shape;
  void *data;
  size_t byte_size;
} QopsTensor;

/* Runs the model. `inputs` holds one tensor per input, in order (their
 * memory is only read). `outputs` holds one tensor per output:
 * - data != NULL: a caller-owned buffer. Its element_type, rank and shape
 *   must be the result's and byte_size at least its size; the result is
 *   written there.
 * - data == NULL: the session allocates the result and sets every field;
 *   release it with qopsTensorRelease.
 * On error nothing needs releasing (outputs the session allocated are
 * released and reset). */
QOPS_EXPORT QopsStatus *qopsSessionRun(QopsSession *session,
                                       const QopsTensor *inputs,
                                       size_t num_inputs, QopsTensor *outputs,
                                       size_t num_outputs);

/* Releases an output the session allocated and zeroes the struct. */
QOPS_EXPORT void qopsTensorRelease(QopsTensor *tensor);

/*===--- Ahead-of-time compilation ----------------------------------------===*/

/* Writes an object file (and, if header_path is not NULL, its C header) of
 * the model's function "main", as quant-compile does. `target_triple` NULL
 * or "" compiles for this host; `options` uses threads (> 1: a parallel
 * object that links libomp), target_cpu, target_features, fuse_qdq,
 * float_fma, const_eval and opt_level. */
QOPS_EXPORT QopsStatus *qopsCompileToObject(const char *model_path,
                                            const QopsSessionOptions *options,
                                            const char *target_triple,
                                            const char *object_path,
                                            const char *header_path);

#ifdef __cplusplus
}
#endif

#endif /* QUANTOPS_C_RUNTIME_H */
