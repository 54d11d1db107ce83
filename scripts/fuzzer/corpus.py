"""The corpus: kernels, lit inputs, fixture bundles, and the tool
commands of the lit RUN lines."""

import glob
import os
import re
import shlex

from . import ROOT
from .tables import OPTIONS


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def lit_run_commands(path):
    """The tool commands of the RUN lines of a lit test, as
    (tool, argv with %s/%S/%kernels/%t left in, expects failure, path,
    address-space limit in bytes of a `ulimit -v` earlier in the line or
    None): a command the test runs under a limit is fuzzed under it."""
    text = read_text(path)
    if re.search(r"REQUIRES:.*\bcuda\b", text):
        return []
    # lit's DEFINE: substitutions (`%{run}`), expanded in the RUN lines.
    defines = {}
    for m in re.finditer(r"DEFINE:\s*(%\{[A-Za-z0-9_-]+\})\s*=\s*(.*)", text):
        defines[m.group(1)] = m.group(2).strip()
    lines = []
    current = ""
    for m in re.finditer(r"RUN:(.*)", text):
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        line = current + part
        for name, value in defines.items():
            line = line.replace(name, value)
        lines.append(line)
        current = ""
    commands = []
    for line in lines:
        limit = None
        for segment in re.split(r"\|\|?|&&|;", line):
            try:
                words = shlex.split(segment)
            except ValueError:
                continue
            if words[:2] == ["ulimit", "-v"] and len(words) == 3 and words[2].isdigit():
                limit = int(words[2]) * 1024
                continue
            words = [w for w in words if w != "2>&1"]
            expect_fail = False
            while words and words[0] in ("not", "env", "-u", "CUDA_HOME"):
                expect_fail |= words[0] == "not"
                words = words[1:]
            if not words or words[0] not in OPTIONS:
                continue
            # --help prints the options and exits 0 whatever else the line
            # says: a mutation of its other arguments is no silent accept.
            if "--help" in words or "-help" in words:
                continue
            # Redirections and files the test reads back are dropped.
            argv = []
            skip = False
            for w in words[1:]:
                if skip:
                    skip = False
                    continue
                if w in (">", "2>", "<"):
                    skip = True
                    continue
                if w.startswith((">", "2>")):
                    continue
                argv.append(w)
            commands.append((words[0], argv, expect_fail, path, limit))
    return commands


class Corpus:
    def __init__(self):
        self.kernels = sorted(glob.glob(os.path.join(ROOT, "kernels", "*.mlir")))
        self.inputs = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                                       recursive=True))
        self.inputs = [p for p in self.inputs if "/Inputs/" not in p or p.endswith(".mlir")]
        self.bundles = sorted(os.path.dirname(p) for p in glob.glob(
            os.path.join(ROOT, "test", "Runner", "Inputs", "bundles", "*",
                         "manifest.json")))
        self.runs = []
        for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.*"),
                                     recursive=True)):
            if path.endswith((".mlir", ".test")) and "/Inputs/" not in path:
                self.runs.extend(lit_run_commands(path))
        # Long runs (sweeps, determinism on big shapes, benchmarks) would
        # spend the time budget; the fuzzer's own table covers the tools.
        self.runs = [r for r in self.runs if not any(
            w in ("--bench", "--autotune", "--determinism") for w in r[1])]
