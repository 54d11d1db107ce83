"""Reading and checking a bundle's manifest.json (docs/bundle.md).

A bundle is the folder tile-compile writes: ``manifest.json`` plus the PTX
(and a cubin where ptxas was found). Every field the launcher relies on is
validated here, with errors that name the field, so that a damaged or
hostile manifest is refused before anything reaches the GPU.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import expr

MAX_MANIFEST_BYTES = 16 << 20
MAX_RANK = 8
DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2,
               "i32": 4, "i64": 8, "i1": 1}
SCALAR_DTYPES = ("f32", "i32", "i64", "f16", "bf16", "i1")


class BundleError(ValueError):
    """A bundle that cannot be used, with the reason."""


@dataclass
class AbiEntry:
    name: str
    kind: str                     # "view" | "scalar" | "tensor_map"
    dtype: str = ""
    rank: int = 0                 # views
    align: int = 16               # views: the alignment contract (bytes)
    access: str = "readwrite"     # views: none | read | write | readwrite
    view: str = ""                # tensor maps: the view they describe
    dims: List[int] = field(default_factory=list)
    box: List[int] = field(default_factory=list)
    swizzle: int = 0


@dataclass
class Manifest:
    dir: str
    kernel: str
    entry: str
    target: str
    ptx: str
    cubin: Optional[str]
    num_warps: int
    block: List[int]
    shared_bytes: int
    grid: List[str]
    requires: List[str]
    params: Dict[str, object]
    abi: List[AbiEntry]
    raw: Dict[str, object]

    @property
    def name(self) -> str:
        return os.path.basename(os.path.normpath(self.dir))

    def views(self) -> List[AbiEntry]:
        return [e for e in self.abi if e.kind == "view"]


def _read_json(path: str) -> dict:
    if not os.path.isfile(path):
        raise BundleError(f"{path}: not a regular file")
    size = os.path.getsize(path)
    if size > MAX_MANIFEST_BYTES:
        raise BundleError(f"{path}: {size} bytes is over the limit of "
                          f"{MAX_MANIFEST_BYTES}")
    with open(path, "rb") as f:
        data = f.read(MAX_MANIFEST_BYTES + 1)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BundleError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise BundleError(f"{path}: the manifest must be a JSON object")
    return value


class _Fields:
    """Typed access to a JSON object with errors naming the field path."""

    def __init__(self, obj: dict, where: str):
        self.obj, self.where = obj, where

    def fail(self, key: str, why: str):
        raise BundleError(f"manifest.json: {self.where}{key}: {why}")

    def get(self, key: str, kind, required: bool = True, default=None):
        if key not in self.obj:
            if required:
                self.fail(key, "missing")
            return default
        value = self.obj[key]
        # bool is an int in Python: keep the two apart.
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(key, f"expected an integer, got {json.dumps(value)}")
        if kind is not int and not isinstance(value, kind):
            self.fail(key, f"expected {kind.__name__}, got {json.dumps(value)}")
        return value

    def int_in(self, key: str, lo: int, hi: int, required: bool = True,
               default: int = 0) -> int:
        value = self.get(key, int, required, default)
        if not lo <= value <= hi:
            self.fail(key, f"expected an integer in [{lo}, {hi}], got {value}")
        return value


def _parse_abi_entry(obj, index: int) -> AbiEntry:
    if not isinstance(obj, dict):
        raise BundleError(f"manifest.json: abi[{index}]: expected an object")
    f = _Fields(obj, f"abi[{index}].")
    name = f.get("name", str)
    kind = f.get("kind", str)
    if kind == "view":
        dtype = f.get("dtype", str)
        if dtype not in DTYPE_BYTES:
            f.fail("dtype", f"unknown dtype '{dtype}'")
        align = f.int_in("align", 1, 16, required=False, default=16)
        if align & (align - 1):
            f.fail("align", f"expected a power of two, got {align}")
        access = f.get("access", str, required=False, default="readwrite")
        # "none": the kernel does not touch the view (lib/Bundle/Manifest.h).
        if access not in ("none", "read", "write", "readwrite"):
            f.fail("access", f"expected none, read, write or readwrite, got '{access}'")
        return AbiEntry(name, kind, dtype, f.int_in("rank", 1, MAX_RANK),
                        align, access)
    if kind == "scalar":
        dtype = f.get("dtype", str)
        if dtype not in SCALAR_DTYPES:
            f.fail("dtype", f"a scalar must be one of {', '.join(SCALAR_DTYPES)}, "
                   f"not '{dtype}'")
        return AbiEntry(name, kind, dtype)
    if kind == "tensor_map":
        dims = f.get("dims", list)
        box = f.get("box", list)
        if not dims or len(dims) != len(box) or len(dims) > 5:
            f.fail("dims", "expected 1 to 5 dims and as many box sizes")
        for key, values, hi in (("dims", dims, MAX_RANK - 1), ("box", box, 256)):
            for v in values:
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
                    f.fail(key, f"expected integers in [0, {hi}], got {json.dumps(values)}")
        swizzle = f.get("swizzle", int, required=False, default=0)
        if swizzle not in (0, 32, 64, 128):
            f.fail("swizzle", f"expected 0, 32, 64 or 128, got {swizzle}")
        return AbiEntry(name, kind, view=f.get("view", str), dims=list(dims),
                        box=list(box), swizzle=swizzle)
    f.fail("kind", f"expected view, scalar or tensor_map, got '{kind}'")


def load_manifest(bundle_dir: str) -> Manifest:
    """Reads and checks ``bundle_dir/manifest.json``."""
    raw = _read_json(os.path.join(bundle_dir, "manifest.json"))
    f = _Fields(raw, "")
    fmt = f.get("format", str)
    if not fmt.startswith("tile-bundle-"):
        f.fail("format", f"not a tile bundle ('{fmt}')")
    abi_list = f.get("abi", list)
    abi = [_parse_abi_entry(e, i) for i, e in enumerate(abi_list)]
    names = [e.name for e in abi]
    for n in names:
        if names.count(n) > 1:
            raise BundleError(f"manifest.json: abi: '{n}' is named twice")
    view_ranks = {e.name: e.rank for e in abi if e.kind == "view"}
    for e in abi:
        if e.kind == "tensor_map":
            if e.view not in view_ranks:
                raise BundleError(f"manifest.json: abi '{e.name}': view "
                                  f"'{e.view}' is not a view argument")
            if any(d >= view_ranks[e.view] for d in e.dims):
                raise BundleError(f"manifest.json: abi '{e.name}': dims "
                                  f"{e.dims} outside the rank of '{e.view}'")
    block = f.get("block", list)
    if len(block) != 3 or any(isinstance(b, bool) or not isinstance(b, int)
                              or not 1 <= b <= 1024 for b in block):
        f.fail("block", f"expected three integers in [1, 1024], got {json.dumps(block)}")
    grid = f.get("grid", list)
    if not 1 <= len(grid) <= 3 or not all(isinstance(g, str) for g in grid):
        f.fail("grid", "expected 1 to 3 expressions")
    requires = f.get("requires", list, required=False, default=[])
    if not all(isinstance(r, str) for r in requires):
        f.fail("requires", "expected a list of expressions")
    # Parse every expression now (with dummy sizes) so that a malformed rule
    # is reported when the bundle is loaded, not at the first launch.
    dummy = {e.name: [1] * e.rank for e in abi if e.kind == "view"}
    for key, rules in (("grid", grid), ("requires", requires)):
        for i, rule in enumerate(rules):
            try:
                expr.evaluate(rule, dummy)
            except expr.ExprError as e:
                if "division by zero" in str(e) or "cdiv needs" in str(e):
                    continue  # depends on the sizes; checked at launch
                raise BundleError(f"manifest.json: {key}[{i}]: {e}") from None
    ptx = f.get("ptx", str)
    cubin = f.get("cubin", str, required=False, default=None)
    for file in [ptx] + ([cubin] if cubin else []):
        if os.path.basename(file) != file:
            raise BundleError(f"manifest.json: '{file}' must name a file in "
                              "the bundle folder")
        if not os.path.isfile(os.path.join(bundle_dir, file)):
            raise BundleError(f"{bundle_dir}: '{file}' is missing")
    return Manifest(
        dir=bundle_dir,
        kernel=f.get("kernel", str),
        entry=f.get("entry", str),
        target=f.get("target", str),
        ptx=ptx,
        cubin=cubin,
        num_warps=f.int_in("num_warps", 1, 32),
        block=list(block),
        shared_bytes=f.int_in("shared_bytes", 0, 1 << 30),
        grid=list(grid),
        requires=list(requires),
        params=f.get("params", dict, required=False, default={}),
        abi=abi,
        raw=raw,
    )
