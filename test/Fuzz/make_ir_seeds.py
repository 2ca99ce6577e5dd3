#!/usr/bin/env python3
"""Seed corpus for quantops-fuzz-qops-ir: every module of the lit tests'
.mlir files (split at `// -----`, comment lines dropped) that fits in the
fuzzer's 4096-byte input limit, plus the regression inputs. Usage:
make_ir_seeds.py SRC_ROOT OUTDIR."""
import hashlib
import os
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
MAX = 4096
count = 0
for root in ("test", "examples"):
    for dirpath, _, files in os.walk(os.path.join(src, root)):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                text = f.read()
            for chunk in text.split("// -----"):
                lines = [l for l in chunk.splitlines()
                         if not l.lstrip().startswith("//")]
                body = "\n".join(l for l in lines).strip() + "\n"
                if len(body) < 8 or len(body.encode()) > MAX:
                    continue
                digest = hashlib.sha1(body.encode()).hexdigest()[:16]
                with open(os.path.join(out, digest + ".mlir"), "w") as f:
                    f.write(body)
                count += 1
print("%d seeds in %s" % (count, out))
