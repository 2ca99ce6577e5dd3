#!/usr/bin/env python3
"""expect_exit.py CODE CMD ARGS...: runs CMD, passes its stdout and stderr
through, and succeeds only if CMD exited with CODE (not by a signal)."""
import subprocess
import sys

code = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != code:
    sys.stderr.write(f"expect_exit: expected exit code {code}, got {result.returncode}\n")
    sys.exit(1)
