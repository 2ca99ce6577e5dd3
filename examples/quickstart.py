# QLinearMatMul from Python: ONNX's example (Debian's libonnx-testdata),
# compiled once, run on NumPy arrays. Prints [[168 115 255] [1 66 151]].
import numpy as np, quantops
session = quantops.InferenceSession("/usr/share/libonnx-testdata/data/node/test_qlinearmatmul_2D/model.onnx")
a = np.array([[208, 236, 0, 238], [3, 214, 255, 29]], np.uint8)
b = np.array([[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]], np.uint8)
f, u = (lambda v: np.array([v], np.float32)), (lambda v: np.array([v], np.uint8))
print(session.run(None, {"a": a, "a_scale": f(0.0066), "a_zero_point": u(113), "b": b, "b_scale": f(0.00705),
                         "b_zero_point": u(114), "y_scale": f(0.0107), "y_zero_point": u(118)})[0])
