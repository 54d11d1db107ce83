"""A stand-in for tile-compile in the tests (no MLIR, no GPU): the tests copy
it into a temporary folder with a `#!` line naming this Python.

`--version` prints LLVM's banner as the real tool does. A compilation
appends its arguments as one JSON line to $FAKE_TILE_COMPILE_LOG, then
writes the runner's fixture bundle (test/Runner/Inputs/bundles/
fmha-d64-causal-lse-w4) to `-o`, its params replaced by --params and its
target by --chip. A source containing FAIL fails with a located error, as
tile-compile reports one; $FAKE_TILE_COMPILE_SLEEP seconds of sleep let
two compilations overlap; $FAKE_TILE_COMPILE_WINNER names a folder where a
bundle appears meanwhile (another process that won the race).
"""

import json
import os
import re
import shutil
import sys
import time

FIXTURE = os.environ.get("FAKE_TILE_COMPILE_FIXTURE", "")


def main(argv):
    if "--version" in argv:
        print("LLVM (http://llvm.org/):\n  LLVM version 22.1.8\n  Optimized build.")
        return 0
    log = os.environ.get("FAKE_TILE_COMPILE_LOG")
    if log:
        with open(log, "a") as f:
            f.write(json.dumps(argv) + "\n")
    time.sleep(float(os.environ.get("FAKE_TILE_COMPILE_SLEEP", "0")))
    source = next(a for a in argv if not a.startswith("-") and a.endswith(".mlir"))
    out = argv[argv.index("-o") + 1]
    with open(source) as f:
        text = f.read()
    if "FAIL" in text:
        line = text[:text.index("FAIL")].count("\n") + 1
        sys.stderr.write(f"{source}:{line}:5: error: 'tile.load' op expects a view "
                         "of rank 2, got rank 3\n")
        return 1
    params, chip = {}, "sm_80"
    for a in argv:
        if a.startswith("--params="):
            for item in a.split("=", 1)[1].split(","):
                k, v = item.split("=", 1)
                params[k] = {"true": True, "false": False}.get(
                    v, int(v) if v.lstrip("-").isdigit() else v)
        elif a.startswith("--chip="):
            chip = a.split("=", 1)[1]
    shutil.copytree(FIXTURE, out)
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    manifest["params"].update(params)
    manifest["target"] = chip
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    # The PTX names the same target (the launcher checks that they agree).
    ptx = os.path.join(out, "kernel.ptx")
    with open(ptx) as f:
        text = f.read()
    with open(ptx, "w") as f:
        f.write(re.sub(r"^\.target \S+", ".target " + chip, text, flags=re.M))
    # Another process that finishes first: its bundle is renamed to the
    # final place while this one compiles.
    winner = os.environ.get("FAKE_TILE_COMPILE_WINNER")
    if winner:
        shutil.copytree(out, winner + ".w")
        with open(os.path.join(winner + ".w", "winner"), "w") as f:
            f.write("1")
        os.rename(winner + ".w", winner)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
