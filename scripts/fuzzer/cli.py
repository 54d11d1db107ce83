"""The command line of the fuzzer (scripts/fuzz.py, `make fuzz`)."""

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

from . import ROOT
from .tables import TARGETS
from .corpus import Corpus
from .run import classify, run_case, save_reproducer, shell_command
from .generate import Generator
from . import __doc__ as PACKAGE_DOC, launcher


def main():
    parser = argparse.ArgumentParser(description=PACKAGE_DOC.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build folder (tools in BUILD/bin)")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: from the clock, printed)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="time budget (no new run starts after it)")
    parser.add_argument("--runs", type=int, default=0,
                        help="stop after this many runs (0: no limit)")
    parser.add_argument("--timeout", type=float, default=20,
                        help="a run longer than this is a hang")
    parser.add_argument("--targets", default="all",
                        help="comma-separated tools or groups: %s" % ", ".join(TARGETS))
    parser.add_argument("--out", default=None,
                        help="folder for reproducers (default BUILD/fuzz/seed-N)")
    parser.add_argument("--memory-limit", type=int, default=4096,
                        help="address-space limit of each run in MiB (0: none)")
    parser.add_argument("--verbose", action="store_true",
                        help="print every run")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else int(time.time()) % 1000000
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    tools = []
    for t in args.targets.split(","):
        tools.extend(TARGETS.get(t, [t]))
    available = [t for t in dict.fromkeys(tools)
                 if t == launcher.TOOL or os.access(os.path.join(bindir, t), os.X_OK)]
    missing = [t for t in dict.fromkeys(tools) if t not in available]
    if not available:
        print("fuzz: no tools in %s (build first)" % bindir, file=sys.stderr)
        return 2
    outdir = args.out or os.path.join(os.path.abspath(args.build), "fuzz", "seed-%d" % seed)
    rng = random.Random(seed)
    corpus = Corpus()
    gen = Generator(corpus, rng, available)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.pop("LLVM_SYMBOLIZER_PATH", None)

    print("fuzz: seed %d, %.0f s, tools %s%s, reproducers in %s" % (
        seed, args.seconds, ", ".join(available),
        " (not built: %s)" % ", ".join(missing) if missing else "", outdir))
    sys.stdout.flush()
    counts = {"runs": 0, "crash": 0, "hang": 0, "silent-accept": 0}
    found = []
    deadline = time.time() + args.seconds
    scratch = tempfile.mkdtemp(prefix="tile-fuzz-")
    interrupted = False
    try:
        while time.time() < deadline and (not args.runs or counts["runs"] < args.runs):
            case = gen.next_case()
            workdir = os.path.join(scratch, "case")
            shutil.rmtree(workdir, ignore_errors=True)
            os.makedirs(workdir)
            rc, text, hung, elapsed = run_case(case, bindir, workdir, args.timeout,
                                               args.memory_limit << 20, env)
            counts["runs"] += 1
            kind = classify(case, rc, text, hung)
            if args.verbose:
                print("[%d] %s %.1fs rc=%s %s :: %s" % (counts["runs"], kind, elapsed, rc,
                                                        shell_command(case, "W"), case.note))
            if kind != "fine":
                counts[kind] += 1
                dest = save_reproducer(outdir, counts["runs"], kind, case, workdir, rc, text)
                last = [l for l in text.strip().split("\n") if l.strip()][-1:] or [""]
                print("%s: %s (%s)\n  %s\n  -> %s" % (kind, shell_command(case, "W"),
                                                     case.note, last[0][:200],
                                                     os.path.relpath(dest)))
                sys.stdout.flush()
                found.append(dest)
    except KeyboardInterrupt:
        # The counts so far still count.
        interrupted = True
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("fuzz: seed %d: %d runs, %d crashes, %d hangs, %d silent accepts%s" % (
        seed, counts["runs"], counts["crash"], counts["hang"], counts["silent-accept"],
        " (interrupted)" if interrupted else ""))
    return 1 if found else 0
