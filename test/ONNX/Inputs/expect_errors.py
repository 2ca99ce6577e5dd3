"""expect_errors.py RUNNER TRANSLATE DIR MODEL...: feeds each hostile MODEL
(relative to DIR) to both tools, in one process to keep the test fast:

  RUNNER DIR/MODEL                      must exit 2 with exactly one stderr
                                        line "quant-runner: ..." and no stdout
  TRANSLATE --import-onnx DIR/MODEL     must exit 1 (not by a signal)

and prints, for FileCheck:

  == MODEL
  runner: <its stderr line>
  translate: <its stderr lines>

It exits 1 (after printing everything) if any tool crashed, exited with
another code or printed more than it should.
"""
import subprocess
import sys

runner, translate, directory, models = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
failures = []
for model in models:
    path = f"{directory}/{model}"
    print(f"== {model}")
    r = subprocess.run([runner, path], capture_output=True, text=True, errors="replace")
    lines = r.stderr.splitlines()
    for line in lines:
        print(f"runner: {line}")
    if r.returncode != 2:
        failures.append(f"{model}: quant-runner exited with {r.returncode}, expected 2")
    if len(lines) != 1 or not lines[0].startswith("quant-runner: ") or r.stdout:
        failures.append(f"{model}: quant-runner printed {len(lines)} stderr lines and "
                        f"{len(r.stdout)} stdout bytes, expected one 'quant-runner: ' line")
    t = subprocess.run([translate, "--import-onnx", path], capture_output=True, text=True,
                       errors="replace")
    for line in t.stderr.splitlines():
        print(f"translate: {line}")
    if t.returncode != 1:
        failures.append(f"{model}: quant-translate exited with {t.returncode}, expected 1")
for failure in failures:
    print(f"expect_errors: {failure}")
sys.exit(1 if failures else 0)
