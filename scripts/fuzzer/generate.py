"""Case generation: picks a command (a RUN line or an invocation of the
tables), mutates an input or the command line, and records whether the
result is known to be invalid."""

import hashlib
import json
import os
import re

from . import ROOT
from .values import (
    FLOATS, FLOAT_OVERFLOW, GARBAGE, HOSTILE_INTS, HUGE_SIZES, INT_RANGES,
    TILE_LEVEL_OPTIONS, float_fits, int_in, value_for)
from .tables import INVOCATIONS, OPTIONS
from .corpus import read_text
from .mlir import FILE_MUTATORS, MLIR_MUTATORS, mut_splice, strip_comments
from .bundles import (
    MANIFEST_MUTATORS, MANIFEST_TEXT_MUTATORS, NPY_MUTATORS, PTX_MUTATORS, npy_text)
from .run import Case
from . import launcher


def kernel_params(text):
    """name -> kind ('i32', 'bool', 'type') of the kernel's tile.params."""
    m = re.search(r"tile\.params\s*=\s*\{(.*?)\}", text, re.S)
    params = {}
    if not m:
        return params
    for entry in re.finditer(r"([A-Za-z_][A-Za-z_0-9]*)\s*=\s*([^,]+)", m.group(1)):
        name, value = entry.group(1), entry.group(2).strip()
        if value in ("true", "false"):
            params[name] = "bool"
        elif re.match(r"-?[0-9]+\s*:\s*(i[0-9]+|index)", value):
            params[name] = re.search(r":\s*(i[0-9]+|index)", value).group(1)
        elif re.match(r"-?[0-9]+$", value):
            params[name] = "i64"
        else:
            params[name] = "type"
    return params


def binding_value(rng, kind):
    """A value for a parameter of `kind` and whether it must be refused."""
    if kind == "bool":
        text = rng.choice(["true", "false", "1", "0", "2", "yes", "", "TRUE"])
        return text, text.lower() not in ("true", "false", "1", "0")
    if kind == "type":
        text = rng.choice(["f16", "bf16", "f32", "f8", "i32", "tensor<4xf32>",
                           "", "!tile.view<?xf32>", "xyz"])
        return text, text in ("f8", "", "tensor<4xf32>", "!tile.view<?xf32>", "xyz")
    lo, hi = INT_RANGES.get(kind, INT_RANGES["i64"])
    text = rng.choice(HOSTILE_INTS + GARBAGE[:8])
    return text, not int_in(text, lo, hi)


def mutate_bindings(rng, argv, params, option):
    """Mutates or adds a NAME=VALUE list option (--params, --bind)."""
    idx = None
    for i, a in enumerate(argv):
        if a.startswith(option + "=") or a == option:
            idx = i
    names = sorted(params)
    if not names:
        return None
    name = rng.choice(names)
    choice = rng.randrange(4)
    if choice == 0:  # duplicate
        value1, _ = binding_value(rng, params[name])
        value2, _ = binding_value(rng, params[name])
        new = "%s=%s,%s=%s" % (name, value1, name, value2)
        note, invalid = "duplicate binding of " + name, True
    elif choice == 1:  # unknown name
        new = "NO_SUCH_PARAM=1"
        note, invalid = "unknown parameter", True
    else:
        value, invalid = binding_value(rng, params[name])
        new = "%s=%s" % (name, value)
        note = "binding %s" % new
    if idx is None:
        return argv + ["%s=%s" % (option, new)], note, invalid
    if argv[idx] == option:
        argv = argv[:idx] + ["%s=%s" % (option, new)] + argv[idx + 2:]
    else:
        argv = argv[:idx] + ["%s=%s" % (option, new)] + argv[idx + 1:]
    return argv, note, invalid


def mutate_option(rng, tool, argv):
    """Replaces (or adds) the value of one option of the OPTIONS table."""
    table = OPTIONS.get(tool, {})
    if not table:
        return None
    present = [o for o in table if any(a == o or a.startswith(o + "=") for a in argv)]
    option = rng.choice(present) if present and rng.random() < 0.7 else rng.choice(sorted(table))
    value, invalid = value_for(rng, table[option])
    out = []
    skip = False
    replaced = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == option:
            skip = True
            continue
        if a.startswith(option + "="):
            continue
        out.append(a)
    out.append("%s=%s" % (option, value))
    return out, "%s=%r" % (option, value), invalid


def mutate_pipeline_option(rng, argv):
    """tile-compile: --tile-pipeline replaced by a tile level with one
    option of TILE_LEVEL_OPTIONS set."""
    option = rng.choice(sorted(TILE_LEVEL_OPTIONS))
    value, invalid = value_for(rng, TILE_LEVEL_OPTIONS[option])
    level = rng.choice(["tile-O0", "tile-O1", "tile-O2", "tile-O3"])
    out = [a for a in argv if not a.startswith("--tile-pipeline")]
    out.append("--tile-pipeline=%s{%s=%s}" % (level, option, value))
    return out, "%s{%s=%r}" % (level, option, value), invalid


def scalar_arg_mutation(rng, argv):
    """tile-exec: a --arg value replaced by one its type may not hold."""
    idxs = [i for i, a in enumerate(argv) if a.startswith("--arg=")]
    if not idxs:
        return None
    i = rng.choice(idxs)
    spec = argv[i][len("--arg="):]
    lhs, _, init = spec.partition("=")
    m = re.fullmatch(r"([a-z0-9]+)\[([^\]]*)\]", lhs)
    if m:
        dtype, dims = m.group(1), m.group(2)
        what = rng.randrange(3)
        if what == 0:
            parts = dims.split("x")
            j = rng.randrange(len(parts))
            parts[j] = rng.choice(HUGE_SIZES + ["-1", "abc", ""])
            new = "%s[%s]=%s" % (dtype, "x".join(parts), init)
            return argv[:i] + ["--arg=" + new] + argv[i + 1:], "view size " + new, True
        if what == 1 and dtype in FLOAT_OVERFLOW:
            value = rng.choice(FLOATS + GARBAGE[:6])
            new = "%s[%s]=fill:%s" % (dtype, dims, value)
            return (argv[:i] + ["--arg=" + new] + argv[i + 1:], "fill " + new,
                    not float_fits(value, dtype))
        if dtype in INT_RANGES:
            value = rng.choice(HOSTILE_INTS + GARBAGE[:6])
            lo, hi = INT_RANGES[dtype]
            new = "%s[%s]=values:%s" % (dtype, dims, value)
            return (argv[:i] + ["--arg=" + new] + argv[i + 1:], "values " + new,
                    not int_in(value, lo, hi) and not (dtype == "i1" and value in ("true", "false")))
        return None
    dtype = lhs
    # tile-exec trims the value: " 4" is 4.
    if dtype in INT_RANGES:
        value = rng.choice(HOSTILE_INTS + GARBAGE)
        lo, hi = INT_RANGES[dtype]
        invalid = not int_in(value.strip(), lo, hi) and not (dtype == "i1" and value in ("true", "false"))
    elif dtype in FLOAT_OVERFLOW:
        value = rng.choice(FLOATS + GARBAGE)
        invalid = not float_fits(value.strip(), dtype)
    else:
        return None
    new = "%s=%s" % (dtype, value)
    return argv[:i] + ["--arg=" + new] + argv[i + 1:], "scalar " + new, invalid


# The bundle as tile-compile writes it (the PTX's tile-abi line, the files
# digests) with one abi entry edited: refused by every reader of the
# folder's PTX (tile-bundle check DIR, the gpu backend and its dry run, the
# Python launcher), not by readers of the manifest alone.
PTX_ABI = "ptx-abi"


def ptx_abi_edit(bundle, text, rng):
    """(manifest text, PTX bytes, note) of an edited abi, or None."""
    ptx_path = os.path.join(bundle, "kernel.ptx")
    if not os.path.exists(ptx_path):
        return None
    with open(ptx_path, "rb") as f:
        ptx = f.read()
    m = json.loads(text)
    line = "// tile-abi %s [%s]\n" % (m["entry"], ", ".join(
        json.dumps(e, separators=(",", ":")) for e in m["abi"]))
    ptx = line.encode() + ptx
    m["files"] = {"kernel.ptx": {"sha256": hashlib.sha256(ptx).hexdigest(),
                                 "bytes": len(ptx)}}
    i = rng.randrange(len(m["abi"]))
    e = m["abi"][i]
    if e["kind"] == "view":
        key = rng.choice(["dtype", "align", "access"])
        values = {"dtype": ["f16", "bf16", "f32", "i32"], "align": [1, 2, 4, 8, 16],
                  "access": ["none", "read", "write", "readwrite"]}[key]
    else:
        key, values = "dtype", ["f32", "i32"]
    e[key] = rng.choice([v for v in values if v != e[key]])
    return json.dumps(m, indent=1), ptx, "abi[%d].%s = %s" % (i, key, e[key])


def folder_reader_refuses(bad, tool, argv):
    """Whether the command must refuse a mutation marked `bad`: PTX_ABI
    only where the folder's PTX is read (tile-bundle check of a folder, the
    gpu backend); LAUNCH where a launch is prepared (not tile-bundle)."""
    if bad == PTX_ABI:
        if tool == "tile-bundle":
            return "check" in argv and not any(a.endswith(".json") for a in argv)
        if tool == "tile-runner":
            return not any(a in ("--backend=cpu", "cpu") for a in argv)
        return True
    return bad is True if tool == "tile-bundle" else bool(bad)


class Generator:
    def __init__(self, corpus, rng, tools):
        self.corpus = corpus
        self.rng = rng
        self.tools = tools
        self.invocations = [(t, list(a)) for t, a in INVOCATIONS if t in tools]
        self.runs = [r for r in corpus.runs if r[0] in tools]
        self.bundle_problem = []

    def mutate_mlir(self, text):
        rng = self.rng
        text = strip_comments(text)
        for _ in range(10):
            name, invalid, fn = rng.choice(MLIR_MUTATORS)
            if fn == "splice":
                new = mut_splice(text, rng, self.corpus.inputs + self.corpus.kernels)
            else:
                new = fn(text, rng)
            if new is not None and new != text:
                return new, name, invalid
        return text, "none", False

    def mlir_input(self, case, path, name, mutate):
        """Puts `path` into the case as `name` (mutated when `mutate`);
        returns the note and whether the mutation is known invalid."""
        if not mutate:
            case.files[name] = read_text(path)
            return "", False
        if self.rng.random() < 0.06:
            kind, invalid, what = self.rng.choice(FILE_MUTATORS)
            if what == "/dev/zero":
                case.files[name] = ("link", "/dev/zero")
            elif what == "dir":
                case.files[name] = ("dir",)
            else:
                case.files[name] = ("missing",)
            return kind, invalid
        new, kind, invalid = self.mutate_mlir(read_text(path))
        case.files[name] = new
        return kind + " of " + os.path.relpath(path, ROOT), invalid

    def manifest_input(self, case, bundle, name):
        rng = self.rng
        text = read_text(os.path.join(bundle, "manifest.json"))
        if rng.random() < 0.2:
            kind, invalid = rng.choice(MANIFEST_TEXT_MUTATORS)
            if kind == "truncate":
                cut = rng.randrange(1, len(text) - 2)
                case.bundles[name] = (bundle, text[:cut])
            elif kind == "dev-zero":
                case.bundles[name] = (bundle, ("link", "/dev/zero"))
            elif kind == "deep-nesting":
                depth = rng.choice([65, 1000, 100000])
                case.bundles[name] = (bundle, text.replace(
                    "{", '{"deep": ' + "[" * depth + "]" * depth + ", ", 1))
                kind += " %d" % depth
            elif kind == "nested-duplicate-key":
                case.bundles[name] = (bundle, text.replace(
                    '{"name":', '{"name": "x", "name":', 1))
            else:
                case.bundles[name] = (bundle, text.replace("{", '{"kernel": "x", ', 1))
            return "manifest " + kind, invalid
        if rng.random() < 0.08:
            result = ptx_abi_edit(bundle, text, rng)
            if result is not None:
                manifest, ptx, note = result
                case.bundles[name] = (bundle, manifest)
                case.bundle_files[name] = {"kernel.ptx": ptx}
                return "ptx-abi " + note, PTX_ABI
        if rng.random() < 0.1:
            ptx_path = os.path.join(bundle, "kernel.ptx")
            if os.path.exists(ptx_path):
                with open(ptx_path, "rb") as f:
                    ptx = f.read()
                kind = rng.choice(PTX_MUTATORS)
                entry = ptx.find(b".entry")
                if kind == "truncate":
                    ptx = ptx[:rng.randrange(1, max(2, len(ptx) - 2))]
                elif kind == "empty":
                    ptx = b""
                elif kind == "comments-only":
                    ptx = b"// .target sm_80\n/* .entry fmha( */\n"
                elif entry >= 0:
                    ptx = ptx[:ptx.find(b")", entry) - 10]
                case.bundles[name] = (bundle, text)
                case.bundle_files[name] = {"kernel.ptx": ptx}
                # Refused by the readers of the PTX (tile-bundle check of a
                # folder, the gpu backend and its --dry-run) but not read by
                # the cpu backend, nor by tile-bundle format: crashes only.
                return "kernel.ptx " + kind, False
        manifest = json.loads(text)
        for _ in range(10):
            kind, fn = rng.choice(MANIFEST_MUTATORS)
            result = fn(json.loads(text), rng)
            if result is not None:
                manifest, invalid = result
                case.bundles[name] = (bundle, json.dumps(manifest, indent=1))
                return "manifest %s: %s" % (kind, json.dumps(manifest.get(kind.replace("-", "_"), ""))[:80]), invalid
        case.bundles[name] = (bundle, text)
        return "manifest unchanged", False

    def substitute(self, case, argv, source, mutate_inputs):
        """Replaces placeholders and lit substitutions by case files."""
        rng = self.rng
        notes = []
        invalid = False
        out = []
        for a in argv:
            for key in ("{kernel}", "{input}"):
                if key in a:
                    pool = self.corpus.kernels if key == "{kernel}" else \
                        self.corpus.inputs + self.corpus.kernels
                    path = rng.choice(pool)
                    name = "input.mlir"
                    note, bad = self.mlir_input(case, path, name, mutate_inputs)
                    if not mutate_inputs:
                        note = os.path.relpath(path, ROOT)
                    notes.append(note)
                    invalid |= bad
                    a = a.replace(key, "{w}/" + name)
            if "{bundle}" in a:
                bundle = rng.choice(self.corpus.bundles)
                params = json.loads(read_text(os.path.join(bundle, "manifest.json"))).get("params", {})
                self.bundle_problem = ["--head-dim", str(params.get("HEAD_DIM", 64))]
                self.bundle_problem += ["--causal"] if params.get("CAUSAL") else []
                self.bundle_problem += ["--lse"] if params.get("WITH_LSE") else []
                note, bad = self.manifest_input(case, bundle, "bundle") if mutate_inputs \
                    else ("bundle " + os.path.basename(bundle), False)
                # tile-bundle checks the manifest, not a launch.
                bad = folder_reader_refuses(bad, case.tool, argv)
                if not mutate_inputs:
                    case.bundles["bundle"] = (bundle, read_text(os.path.join(bundle, "manifest.json")))
                notes.append(note)
                invalid |= bad
                a = a.replace("{bundle}", "{w}/bundle")
            if a == "{bundle-problem}":
                out.extend(self.bundle_problem)
                continue
            if "{npy}" in a:
                kind, bad, header = rng.choice(NPY_MUTATORS) if mutate_inputs \
                    else NPY_MUTATORS[0]
                data = 5 * 64 * 4
                if mutate_inputs and rng.random() < 0.1:
                    kind, bad, data = "truncated-data", True, rng.randrange(5 * 64 * 4)
                case.files["input.npy"] = npy_text(header, data)
                notes.append("npy " + kind)
                invalid |= bad
                a = a.replace("{npy}", "{w}/input.npy")
            if "{tmp}" in a:
                a = a.replace("{tmp}", "{w}/tmp")
            if source is not None:
                if "%s" in a:
                    note, bad = self.mlir_input(case, source, "input.mlir", mutate_inputs)
                    notes.append(note or os.path.relpath(source, ROOT))
                    invalid |= bad
                    a = a.replace("%s", "{w}/input.mlir")
                m = re.search(r"%S/Inputs/bundles/([A-Za-z0-9_.-]+)", a)
                if m:
                    bundle = os.path.join(os.path.dirname(source), "Inputs", "bundles", m.group(1))
                    if os.path.isdir(bundle):
                        if mutate_inputs:
                            note, bad = self.manifest_input(case, bundle, "bundle-" + m.group(1))
                            notes.append(note)
                            invalid |= folder_reader_refuses(bad, case.tool, argv)
                        else:
                            case.bundles["bundle-" + m.group(1)] = (
                                bundle, read_text(os.path.join(bundle, "manifest.json")))
                        a = a.replace(m.group(0), "{w}/bundle-" + m.group(1))
                a = a.replace("%S", os.path.dirname(source))
                a = a.replace("%kernels", os.path.join(ROOT, "kernels"))
                a = a.replace("%t", "{w}/tmp/t")
                a = a.replace("%tile_src_root", ROOT)
            out.append(a)
        return out, notes, invalid

    def next_case(self):
        rng = self.rng
        use_run = self.runs and rng.random() < 0.5
        if use_run:
            tool, argv, expect_fail, source, limit = rng.choice(self.runs)
        else:
            tool, argv = rng.choice(self.invocations)
            expect_fail, source, limit = False, None, None
        if tool == launcher.TOOL:
            return launcher.make_case(self)
        # Half the cases mutate an input, half the command line.
        mutate_inputs = rng.random() < 0.5
        case = Case(tool, [], "", False)
        case.memory_limit = limit
        argv, notes, invalid = self.substitute(case, list(argv), source, mutate_inputs)
        if not mutate_inputs:
            kernel_text = next((c for c in case.files.values() if isinstance(c, str)), "")
            params = kernel_params(kernel_text)
            what = rng.randrange(4)
            result = None
            if tool == "tile-compile" and what < 2 and params:
                if what == 0:
                    result = mutate_bindings(rng, argv, params, "--params")
                else:
                    # A second binding in the pipeline: tile-compile has
                    # specialized the kernel already.
                    name = rng.choice(sorted(params))
                    value, _ = binding_value(rng, params[name])
                    argv = [a for a in argv if not a.startswith("--tile-pipeline")]
                    result = (argv + ["--params=%s=%s" % (name, value),
                                      "--tile-pipeline=tile-O3{bind=%s=%s}" % (name, value)],
                              "rebinding of " + name, True)
            elif tool == "tile-compile" and what == 2:
                result = mutate_pipeline_option(rng, argv)
            elif tool == "tile-exec" and what < 2:
                result = scalar_arg_mutation(rng, argv)
                if result is None and params:
                    result = mutate_bindings(rng, argv, params, "--bind")
            if result is None:
                result = mutate_option(rng, tool, argv)
            if result is not None:
                argv, note, bad = result
                notes.append(note)
                invalid |= bad
        case.argv = argv
        case.note = "; ".join(n for n in notes if n)
        case.invalid = invalid
        return case
