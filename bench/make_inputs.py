#!/usr/bin/env python3
"""Converts the bench-anchors input data (raw .bin + manifest.json, written by
../shared/bench-anchors/gen_models.py) into the .npy files quant-runner takes.

  make_inputs.py WORK_DIR OUT_DIR   (bench/run.sh calls it)

4-bit inputs are unpacked to one element per byte (quant-runner's convention).
"""
import json
import os
import sys

import numpy as np

DTYPES = {"float32": np.float32, "uint8": np.uint8, "int8": np.int8,
          "uint16": np.uint16, "int16": np.int16, "int32": np.int32,
          "float16": np.float16}


def load(entry):
    dims = entry["dims"]
    count = int(np.prod(dims)) if dims else 1
    kind = entry["type"]
    raw = np.fromfile(entry["file"], dtype=np.uint8)
    if kind in ("int4", "uint4"):
        low, high = raw & 0xF, raw >> 4
        values = np.stack([low, high], axis=1).reshape(-1)[:count]
        if kind == "int4":
            values = ((values.astype(np.int16) ^ 8) - 8).astype(np.int8)
        return values.reshape(dims)
    return raw.view(DTYPES[kind])[:count].reshape(dims)


def main():
    work, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    manifest = json.load(open(os.path.join(work, "models", "manifest.json")))
    for workload in manifest["workloads"]:
        for entry in workload["inputs"]:
            path = os.path.join(out, f"{workload['name']}.{entry['name']}.npy")
            if not os.path.exists(path):
                np.save(path, load(entry))


if __name__ == "__main__":
    main()
