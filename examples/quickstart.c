/* QLinearMatMul from C: ONNX's example (Debian's libonnx-testdata) compiled
 * once into a session and run on host buffers. Prints 168 115 255 1 66 151.
 *   cc examples/quickstart.c -Iinclude -Lbuild/lib -lQuantOpsRuntime \
 *      -Wl,-rpath,build/lib -o quickstart && ./quickstart */
#include "QuantOps-c/Runtime.h"

#include <stdio.h>

int main(void) {
  QopsSession *session;
  QopsStatus *status = qopsSessionCreate(
      "/usr/share/libonnx-testdata/data/node/test_qlinearmatmul_2D/model.onnx",
      NULL, &session);
  if (status) {
    fprintf(stderr, "%s\n", qopsStatusGetMessage(status));
    return 1;
  }
  uint8_t a[8] = {208, 236, 0, 238, 3, 214, 255, 29};
  uint8_t b[12] = {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};
  float aScale = 0.0066f, bScale = 0.00705f, yScale = 0.0107f;
  uint8_t aZero = 113, bZero = 114, yZero = 118;
  int64_t aShape[] = {2, 4}, bShape[] = {4, 3}, one[] = {1};
  QopsTensor inputs[8] = {
      {QOPS_TYPE_UINT8, 2, aShape, a, sizeof a},
      {QOPS_TYPE_FLOAT, 1, one, &aScale, 4},
      {QOPS_TYPE_UINT8, 1, one, &aZero, 1},
      {QOPS_TYPE_UINT8, 2, bShape, b, sizeof b},
      {QOPS_TYPE_FLOAT, 1, one, &bScale, 4},
      {QOPS_TYPE_UINT8, 1, one, &bZero, 1},
      {QOPS_TYPE_FLOAT, 1, one, &yScale, 4},
      {QOPS_TYPE_UINT8, 1, one, &yZero, 1}};
  QopsTensor y = {0}; /* data NULL: the session allocates the result */
  status = qopsSessionRun(session, inputs, 8, &y, 1);
  if (status) {
    fprintf(stderr, "%s\n", qopsStatusGetMessage(status));
    return 1;
  }
  for (size_t i = 0; i < y.byte_size; ++i)
    printf("%d%s", ((uint8_t *)y.data)[i], i + 1 < y.byte_size ? " " : "\n");
  qopsTensorRelease(&y);
  qopsSessionDestroy(session);
  return 0;
}
