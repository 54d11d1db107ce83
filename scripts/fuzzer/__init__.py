"""Hostile-input fuzzer of the tile compiler's tools and the Python
launcher (`make fuzz`).

Mutates the kernels (kernels/*.mlir), the lit inputs (test/**/*.mlir), the
bundle manifests (test/Runner/Inputs/bundles/*/manifest.json), their PTX,
.npy inputs, and the command lines of the lit RUN lines and of the table
below, runs the tools and the Python launcher (python/tile_launcher, which
loads a bundle and plans a call with fake tensors: no GPU), and classifies
every run:

  crash          a signal, an exit status above 128, "PLEASE submit a bug
                 report", "LLVM ERROR", an uncaught exception, a sanitizer
                 report, a stack dump
                 (for the Python launcher: a traceback, an exception it
                 does not document)
  hang           still running after --timeout seconds (20)
  silent accept  exit status 0 after a mutation known to make the input
                 invalid (out-of-range integers, garbage, truncated files,
                 links to /dev/zero, duplicated bindings, negative or huge
                 sizes, ...)
  fine           anything else (a located error is fine)

Each failing run is saved as a reproducer (the input, the command line, the
output) under --out, and the exit status is 1 when any was found.

Everything is driven by tables, so that a tool or an option is added by
editing data, not code:
  tables.py      INVOCATIONS: command lines beyond the lit RUN lines (tool,
                 arguments, which inputs they take); OPTIONS: per tool, the
                 options whose values are mutated (the valid range or
                 choices, so that a value outside it must be refused);
                 TARGETS: groups selectable with --targets
  mlir.py        MLIR_MUTATORS, each marked `invalid` when the result is
                 known to be invalid input
  bundles.py     MANIFEST_MUTATORS, MANIFEST_TEXT_MUTATORS, NPY_MUTATORS,
                 PTX_MUTATORS
  launcher.py    the Python launcher's target: mutated calls (dtypes,
                 ranks, strides, aliasing, scalars, missing arguments)
The other modules: values.py (hostile values and the oracle of which a
tool must accept), corpus.py (inputs and lit RUN lines), run.py (running
and classifying a case), generate.py (making cases), cli.py (main).

Pure Python 3, no third-party packages. Child processes run in their own
process group under an address-space limit (--memory-limit), so that a
memory bomb fails in the child instead of waking the OOM killer.

  scripts/fuzz.py --build build --seed 1 --seconds 60
  scripts/fuzz.py --seconds 1800 --targets all --out build/fuzz
  scripts/fuzz.py --seconds 120 --targets launcher
  (python3 -m fuzzer from scripts/ is the same)
"""

import os

# The repository root.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
