/* The C API (include/QuantOps-c/Runtime.h) end to end: options, sessions
 * from MLIR text and from an ONNX file, inputs and outputs described, runs
 * with session-allocated and caller-owned outputs, dynamic shapes, every
 * error path returning a status with its message, concurrent runs, and an
 * object written ahead of time.
 *
 *   runtime_test MODEL.onnx OBJECT.o
 *
 * The program is QuantizeLinear, whose numbers ONNX fixes:
 * y = saturate(round_half_even(x / scale) + zero_point). Prints one line per
 * check and "all C API checks passed" at the end; exits 1 at the first
 * failure. */
#include "QuantOps-c/Runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *kProgram =
    "func.func @main(%x: tensor<?xf32>, %s: tensor<f32>, %z: tensor<si8>)"
    " -> tensor<?xsi8> {\n"
    "  %0 = qops.quantize_linear %x, %s, %z : tensor<?xf32>, tensor<f32>,"
    " tensor<si8> -> tensor<?xsi8>\n"
    "  return %0 : tensor<?xsi8>\n"
    "}\n";

/* x / 2 = 0.25 0.75 1.25 -1.25 150 -150 3.5, rounded half to even, + 1,
 * saturated to int8. */
static float kX[7] = {0.5f, 1.5f, 2.5f, -2.5f, 300.0f, -300.0f, 7.0f};
static const int8_t kY[7] = {1, 2, 2, 0, 127, -128, 5};
static float kScale = 2.0f;
static int8_t kZeroPoint = 1;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok)
    exit(1);
}

/* The status must be an error whose message contains `part`. */
static void expectError(QopsStatus *status, const char *part,
                        const char *what) {
  const char *message = status ? qopsStatusGetMessage(status) : "(success)";
  int ok = status && strstr(message, part) != NULL;
  printf("%s: %s: %s\n", ok ? "ok" : "FAILED", what, message);
  qopsStatusDestroy(status);
  if (!ok)
    exit(1);
}

static void expectSuccess(QopsStatus *status, const char *what) {
  if (status) {
    printf("FAILED: %s: %s\n", what, qopsStatusGetMessage(status));
    exit(1);
  }
  printf("ok: %s\n", what);
}

/* The three inputs for the first n elements of kX. */
static void makeInputs(QopsTensor inputs[3], int64_t *n) {
  inputs[0] = (QopsTensor){QOPS_TYPE_FLOAT, 1, n, kX,
                           (size_t)*n * sizeof(float)};
  inputs[1] = (QopsTensor){QOPS_TYPE_FLOAT, 0, NULL, &kScale, sizeof(float)};
  inputs[2] = (QopsTensor){QOPS_TYPE_INT8, 0, NULL, &kZeroPoint, 1};
}

static QopsSession *session;

static void *runMany(void *arg) {
  long id = (long)arg;
  for (int round = 0; round < 200; ++round) {
    int64_t n = 1 + (id + round) % 7;
    QopsTensor inputs[3], output = {0};
    makeInputs(inputs, &n);
    QopsStatus *status = qopsSessionRun(session, inputs, 3, &output, 1);
    if (status || output.rank != 1 || output.shape[0] != n ||
        memcmp(output.data, kY, (size_t)n) != 0) {
      qopsStatusDestroy(status);
      return (void *)1;
    }
    qopsTensorRelease(&output);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: runtime_test MODEL.onnx OBJECT.o\n");
    return 2;
  }
  check(qopsGetApiVersion() == QOPS_API_VERSION, "API version");

  /* Options. */
  QopsSessionOptions *options = qopsSessionOptionsCreate();
  expectSuccess(qopsSessionOptionsSet(options, "threads", "2"), "threads 2");
  expectError(qopsSessionOptionsSet(options, "thread", "2"),
              "unknown option 'thread'", "unknown option");
  expectError(qopsSessionOptionsSet(options, "fuse_qdq", "yes"),
              "is not 0 or 1", "malformed flag");
  expectError(qopsSessionOptionsSet(options, "opt_level", "4"),
              "optimisation level", "opt_level out of range");
  expectSuccess(qopsSessionOptionsSet(options, "qdq_accuracy_level", "4"),
                "qdq_accuracy_level 4");
  expectError(qopsSessionOptionsSet(options, "qdq_accuracy_level", "5"),
              "an accuracy level (0 to 4)", "qdq_accuracy_level out of range");
  expectSuccess(qopsSessionOptionsSet(options, "qdq_accuracy_level", "0"),
                "qdq_accuracy_level 0");

  /* Sessions that cannot be created. */
  QopsSession *none = NULL;
  expectError(qopsSessionCreate("/nonexistent/model.onnx", options, &none),
              "cannot open '/nonexistent/model.onnx'", "missing file");
  check(none == NULL, "no session after an error");
  const char garbage[] = "\x08\x07\x12\x04junk\x3a\xff\xff";
  expectError(qopsSessionCreateFromBuffer(garbage, sizeof garbage - 1,
                                          QOPS_FORMAT_ONNX, options, &none),
              "", "corrupt ONNX bytes");
  const char *badMlir = "func.func @main(%x: tensor<2xf32>) {\n  return %y\n}";
  expectError(qopsSessionCreateFromBuffer(badMlir, strlen(badMlir),
                                          QOPS_FORMAT_MLIR, options, &none),
              "cannot parse '<mlir text>': <mlir text>:2:", "bad MLIR text");

  /* A session from MLIR text. */
  expectSuccess(qopsSessionCreateFromBuffer(kProgram, strlen(kProgram),
                                            QOPS_FORMAT_MLIR, options,
                                            &session),
                "session from MLIR text");
  qopsSessionOptionsDestroy(options);
  check(qopsSessionGetInputCount(session) == 3 &&
            qopsSessionGetOutputCount(session) == 1,
        "3 inputs, 1 output");
  QopsTensorInfo info;
  expectSuccess(qopsSessionGetInputInfo(session, 0, &info), "input 0 info");
  check(strcmp(info.name, "input_0") == 0 &&
            info.element_type == QOPS_TYPE_FLOAT && info.rank == 1 &&
            info.shape[0] == -1,
        "input 0 is input_0, float, [-1]");
  expectSuccess(qopsSessionGetInputInfo(session, 2, &info), "input 2 info");
  check(info.element_type == QOPS_TYPE_INT8 && info.rank == 0,
        "input 2 is int8, rank 0");
  expectSuccess(qopsSessionGetOutputInfo(session, 0, &info), "output info");
  check(strcmp(info.name, "output_0") == 0 &&
            info.element_type == QOPS_TYPE_INT8,
        "output 0 is output_0, int8");
  expectError(qopsSessionGetOutputInfo(session, 1, &info),
              "output index 1 is out of range", "output index out of range");

  /* Runs. */
  int64_t n = 7;
  QopsTensor inputs[3], output = {0};
  makeInputs(inputs, &n);
  expectSuccess(qopsSessionRun(session, inputs, 3, &output, 1),
                "run, session-allocated output");
  check(output.element_type == QOPS_TYPE_INT8 && output.rank == 1 &&
            output.shape[0] == 7 && output.byte_size == 7 &&
            memcmp(output.data, kY, 7) == 0,
        "QuantizeLinear's numbers");
  qopsTensorRelease(&output);
  check(output.data == NULL && output.shape == NULL, "released");

  int64_t three = 3;
  makeInputs(inputs, &three);
  int8_t buffer[3] = {0};
  QopsTensor into = {QOPS_TYPE_INT8, 1, &three, buffer, sizeof buffer};
  expectSuccess(qopsSessionRun(session, inputs, 3, &into, 1),
                "run, caller-owned output, another length");
  check(memcmp(buffer, kY, 3) == 0, "the caller's buffer holds the result");
  int64_t four = 4;
  QopsTensor wrongShape = {QOPS_TYPE_INT8, 1, &four, buffer, sizeof buffer};
  expectError(qopsSessionRun(session, inputs, 3, &wrongShape, 1),
              "output 0 ('output_0'): the buffer is int8 [4], the result "
              "int8 [3]",
              "caller buffer of another shape");
  QopsTensor small = {QOPS_TYPE_INT8, 1, &three, buffer, 2};
  expectError(qopsSessionRun(session, inputs, 3, &small, 1),
              "the buffer has 2 bytes, the result 3", "caller buffer too small");

  /* Wrong inputs. */
  QopsTensor wrong[3];
  memcpy(wrong, inputs, sizeof wrong);
  wrong[2].element_type = QOPS_TYPE_UINT8;
  expectError(qopsSessionRun(session, wrong, 3, &output, 1),
              "input 2 ('input_2'): element type uint8 does not match the "
              "model's int8",
              "wrong element type");
  memcpy(wrong, inputs, sizeof wrong);
  wrong[0].byte_size = 5;
  expectError(qopsSessionRun(session, wrong, 3, &output, 1),
              "5 bytes given for shape [3] of float (12 bytes)",
              "wrong byte size");
  memcpy(wrong, inputs, sizeof wrong);
  int64_t matrix[2] = {1, 3};
  wrong[0].rank = 2;
  wrong[0].shape = matrix;
  expectError(qopsSessionRun(session, wrong, 3, &output, 1),
              "input 0 ('input_0'): shape [1, 3] does not match "
              "tensor<?xf32>",
              "wrong rank");
  expectError(qopsSessionRun(session, inputs, 2, &output, 1),
              "the model takes 3 inputs, 2 given", "too few inputs");
  check(output.data == NULL, "no output allocated by failed runs");

  /* Four threads on one session. */
  pthread_t threads[4];
  for (long i = 0; i < 4; ++i)
    pthread_create(&threads[i], NULL, runMany, (void *)i);
  int failures = 0;
  for (int i = 0; i < 4; ++i) {
    void *result;
    pthread_join(threads[i], &result);
    failures += result != NULL;
  }
  check(failures == 0, "4 threads x 200 runs, every result exact");
  qopsSessionDestroy(session);

  /* An ONNX file: its names. */
  QopsSession *onnx = NULL;
  expectSuccess(qopsSessionCreate(argv[1], NULL, &onnx), "session from .onnx");
  expectSuccess(qopsSessionGetInputInfo(onnx, 0, &info), "ONNX input info");
  check(strcmp(info.name, "a") == 0, "ONNX input 0 is 'a'");
  expectSuccess(qopsSessionGetOutputInfo(onnx, 0, &info), "ONNX output info");
  check(strcmp(info.name, "y") == 0 && info.element_type == QOPS_TYPE_UINT8,
        "ONNX output 0 is 'y', uint8");
  qopsSessionDestroy(onnx);

  /* Ahead of time. */
  remove(argv[2]);
  expectSuccess(qopsCompileToObject(argv[1], NULL, NULL, argv[2], NULL),
                "object for this host");
  struct stat st;
  check(stat(argv[2], &st) == 0 && st.st_size > 0, "the object was written");
  expectError(qopsCompileToObject(argv[1], NULL, "nothing-at-all", argv[2],
                                  NULL),
              "unknown target triple 'nothing-at-all'", "unknown triple");
  printf("all C API checks passed\n");
  return 0;
}
