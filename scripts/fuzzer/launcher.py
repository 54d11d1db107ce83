"""The Python-launcher target (`--targets launcher`, tool name
`tile_launcher`): a fixture bundle, its manifest or PTX mutated as for the
C++ tools, or a call to it with mutated arguments, is loaded and planned by
python/tile_launcher in a child process (launcher_harness.py, fake tensors,
no GPU). A crash is a traceback (an exception the launcher does not
document); a silent accept is a call planned although the bundle or the
arguments are known to be invalid."""

import json
import os
import sys

from .bundles import LAUNCH
from .run import Case

TOOL = "tile_launcher"
HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "launcher_harness.py")

TORCH_DTYPES = {"f16": "torch.float16", "bf16": "torch.bfloat16",
                "f32": "torch.float32", "i32": "torch.int32"}
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4}
# Views sit this far apart: no two overlap unless a mutation says so.
SPACING = 1 << 28


def command():
    """The child's command line before the case's arguments."""
    return [sys.executable, HARNESS]


def contiguous(shape):
    strides, n = [], 1
    for s in reversed(shape):
        strides.insert(0, n)
        n *= s
    return strides


def base_args(manifest):
    """Arguments the fixture bundles (attention: [B, H, S, D] views, [B, H,
    S] statistics) accept: every view contiguous at its own address."""
    params = manifest.get("params", {}) if isinstance(manifest, dict) else {}
    d = params.get("HEAD_DIM", 64) if isinstance(params, dict) else 64
    d = d if isinstance(d, int) and 0 < d <= 256 else 64
    shapes = {1: [256], 2: [256, d], 3: [2, 2, 256], 4: [2, 2, 256, d]}
    args = {}
    abi = manifest.get("abi", []) if isinstance(manifest, dict) else []
    for i, e in enumerate(abi if isinstance(abi, list) else []):
        if not isinstance(e, dict) or not isinstance(e.get("name"), str):
            continue
        if e.get("kind") == "view":
            rank = e.get("rank") if e.get("rank") in shapes else 2
            shape = list(shapes[rank])
            args[e["name"]] = {"tensor": {
                "shape": shape, "dtype": TORCH_DTYPES.get(e.get("dtype"), "torch.float16"),
                "address": SPACING * (i + 1), "strides": contiguous(shape)}}
        elif e.get("kind") == "scalar":
            args[e["name"]] = {"scalar": 0 if e.get("dtype") == "i32" else 0.125}
    return args


def views(manifest, args, written=None):
    out = []
    for e in manifest.get("abi", []):
        if isinstance(e, dict) and e.get("kind") == "view" and e.get("name") in args \
                and "tensor" in args[e["name"]]:
            if written is None or (e.get("access") in ("write", "readwrite")) == written:
                out.append(e)
    return out


def scalars(manifest, args):
    return [e for e in manifest.get("abi", []) if isinstance(e, dict)
            and e.get("kind") == "scalar" and e.get("name") in args]


def mutate_args(rng, manifest, args):
    """One hostile change of a valid call: (args, note, invalid) or None."""
    all_views = views(manifest, args)
    written = views(manifest, args, written=True)
    # A view the kernel does not touch (access none) may share memory.
    read = [e for e in views(manifest, args, written=False) if e.get("access") == "read"]
    choices = []
    if all_views:
        choices += ["dtype", "rank", "raise-stride", "huge-size", "misaligned",
                    "not-a-tensor"]
    if written:
        choices += ["zero-stride", "negative-stride"]
    if written and read:
        choices += ["alias"]
    if scalars(manifest, args):
        choices += ["scalar"]
    choices += ["missing", "extra"]
    kind = rng.choice(choices)
    if kind in ("dtype", "rank", "raise-stride", "huge-size", "misaligned", "not-a-tensor"):
        e = rng.choice(all_views)
        t = args[e["name"]]["tensor"]
        if kind == "dtype":
            t["dtype"] = rng.choice([d for d in list(TORCH_DTYPES.values()) +
                                     ["torch.float64", "torch.int8", "torch.bool"]
                                     if d != TORCH_DTYPES.get(e.get("dtype"))])
        elif kind == "rank":
            t["shape"], t["strides"] = t["shape"][1:], t["strides"][1:]
        elif kind == "raise-stride":
            t["raise_stride"] = True
        elif kind == "huge-size":
            t["shape"][0] = rng.choice([2**31, 2**32 + 1, 2**63])
        elif kind == "misaligned":
            align = e.get("align") if isinstance(e.get("align"), int) else 16
            if align <= 1:
                return None
            t["address"] += rng.randrange(1, align)
        else:
            args[e["name"]] = {"scalar": rng.choice([1, "tensor", None])}
        return args, "%s of %s" % (kind, e["name"]), True
    if kind in ("zero-stride", "negative-stride"):
        e = rng.choice(written)
        t = args[e["name"]]["tensor"]
        dims = [d for d, s in enumerate(t["shape"]) if s > 1]
        d = rng.choice(dims)
        t["strides"][d] = 0 if kind == "zero-stride" else -t["strides"][d]
        return args, "%s of written %s, dim %d" % (kind, e["name"], d), True
    if kind == "alias":
        out, src = rng.choice(written), rng.choice(read)
        a, b = args[out["name"]]["tensor"], args[src["name"]]["tensor"]
        # The written view starts inside the read one: they share memory.
        span = b["shape"][0] * b["strides"][0] * ELEMENT_BYTES.get(src.get("dtype"), 2)
        a["address"] = b["address"] + 16 * rng.randrange(0, max(1, span // 16))
        return args, "%s written over %s" % (out["name"], src["name"]), True
    if kind == "scalar":
        e = rng.choice(scalars(manifest, args))
        if e.get("dtype") == "i32":
            value = rng.choice([2**31, -2**31 - 1, 1.5, "1", None, {"int": "9" * 4000}])
        else:
            value = rng.choice([1e39, -1e39, {"float": "nan"}, {"float": "inf"},
                                {"int": "1" + "0" * 400}, "0.5", None, [1.0]])
        args[e["name"]] = {"scalar": value}
        return args, "scalar %s = %s" % (e["name"], json.dumps(value)[:40]), True
    if kind == "missing":
        if not args:
            return None
        name = rng.choice(sorted(args))
        del args[name]
        return args, "missing %s" % name, True
    args[rng.choice(["nonexistent", "stream_", "X"])] = {"scalar": 1}
    return args, "an extra argument", True


def make_case(gen):
    """A launcher case: a mutated bundle with a valid call, or the bundle
    with a mutated call (half each)."""
    rng = gen.rng
    bundle = rng.choice(gen.corpus.bundles)
    with open(os.path.join(bundle, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    case = Case(TOOL, ["{w}/bundle", "{w}/args.json"], "", False)
    args = base_args(manifest)
    if rng.random() < 0.5:
        note, bad = gen.manifest_input(case, bundle, "bundle")
        # The launcher reads the folder: digests and the PTX's abi line too
        # (LAUNCH of those), but knows no device (shared memory, grid size
        # against a chip: LAUNCH of the others may plan).
        invalid = bad is True or (bad == LAUNCH and note.startswith(("manifest files",
                                                                      "ptx-abi")))
    else:
        with open(os.path.join(bundle, "manifest.json"), encoding="utf-8") as f:
            case.bundles["bundle"] = (bundle, f.read())
        result = mutate_args(rng, manifest, args)
        note, invalid = "call unchanged", False
        if result is not None:
            args, note, invalid = result
    case.files["args.json"] = json.dumps(args)
    case.note = "%s (%s)" % (note, os.path.basename(bundle))
    case.invalid = invalid
    return case
