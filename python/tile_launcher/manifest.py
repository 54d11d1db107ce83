"""Reading and checking a bundle's manifest.json (docs/bundle.md).

A bundle is the folder tile-compile writes: ``manifest.json`` plus the PTX
(and a cubin where ptxas was found). The manifest is read as the C++ library
reads it (lib/Bundle/ManifestRead.cpp, the reference; the cases both must agree
on are test/Bundle/Inputs/conformance/manifest.json): the same fields, the
same checks in the same order, errors naming the same field
("manifest.json: abi[3].rank: expected an integer in [1, 8], got 99"). Then
the bundle's files are checked: the digests of the ``files`` field where
present, and the PTX's ``.target`` and entry parameters against the ABI.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import expr, target as targets

MAX_MANIFEST_BYTES = 1 << 20     # tilebundle::kMaxManifestBytes
MAX_PTX_BYTES = 256 << 20        # tilebundle::kMaxPtxBytes
MAX_JSON_DEPTH = 64              # nested arrays and objects, the top one included
MAX_RANK = 8
MAX_ABI_ENTRIES = 256
INT32_MAX = 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
FORMAT = "tile-bundle-2"
# Element sizes of tensor dtypes (views take f16, bf16, f32, i32 and the
# fp8 formats, named as MLIR names them).
DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2,
               "i32": 4, "i64": 8, "i1": 1, "f8E4M3FN": 1, "f8E5M2": 1}
# tilebundle::parseDType: the names a manifest may use, and what they mean.
_DTYPE_NAMES = {"f16": "f16", "fp16": "f16", "float16": "f16",
                "bf16": "bf16", "bfloat16": "bf16",
                "f32": "f32", "fp32": "f32", "float32": "f32",
                "i32": "i32", "int32": "i32",
                "f8E4M3FN": "f8E4M3FN", "float8_e4m3fn": "f8E4M3FN",
                "e4m3": "f8E4M3FN",
                "f8E5M2": "f8E5M2", "float8_e5m2": "f8E5M2", "e5m2": "f8E5M2"}
SCALAR_DTYPES = ("f32", "i32")
ACCESS = ("none", "read", "write", "readwrite")
_FIELDS = ("format", "kernel", "entry", "ptx", "cubin", "target", "compiler",
           "source", "pipeline", "stages", "sync", "warp_specialize",
           "ping_pong", "tma", "pin_waits", "mma_version", "shared_layout",
           "num_warps", "block", "occupancy", "shared_bytes", "grid",
           "requires", "params", "abi", "ptxas", "files")
_HEX = frozenset("0123456789abcdef")


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

    def param_sizes(self) -> List[int]:
        """Bytes of each kernel parameter this entry expands to."""
        if self.kind == "view":
            return [8] + [4] * self.rank + [8] * self.rank
        if self.kind == "scalar":
            return [4]
        return [128]


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
    occupancy: int = 0
    files: Dict[str, Dict[str, object]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return os.path.basename(os.path.normpath(self.dir))

    def views(self) -> List[AbiEntry]:
        return [e for e in self.abi if e.kind == "view"]

    def expr_params(self) -> Dict[str, int]:
        return expr.param_values(self.params)


# -- JSON ------------------------------------------------------------------


class _JsonError(Exception):
    pass


def _json_depth_ok(text: str) -> bool:
    """Whether arrays and objects nest at most MAX_JSON_DEPTH deep (checked
    before json.loads, which recurses)."""
    depth, in_string, escaped = 0, False, False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return False
        elif c in "]}":
            depth -= 1
    return True


def _unique_keys(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _JsonError(f'duplicate key "{key}"')
        obj[key] = value
    return obj


def _no_constant(name):
    raise _JsonError(f"{name} is not a JSON number")


def _number(text: str):
    """Numbers as nlohmann-json reads them: integers in [-2^63, 2^64 - 1]
    exactly, others as doubles; a number no double holds is an error."""
    if len(text) <= 21 and "." not in text and "e" not in text and "E" not in text:
        value = int(text)
        if INT64_MIN <= value <= 2**64 - 1:
            return value
    value = float(text)
    if not math.isfinite(value):
        raise _JsonError(f"number overflow parsing '{text[:40]}'")
    return value


def parse_json(data: bytes, where: str) -> dict:
    """The manifest's JSON object; BundleError on anything nlohmann-json (or
    the manifest reader) refuses: bad UTF-8, syntax, NaN and Infinity,
    numbers beyond a double, duplicate keys, nesting deeper than 64."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BundleError(f"{where}: not valid JSON: {e}") from None
    if text.startswith("\ufeff"):  # nlohmann-json skips a byte order mark
        text = text[1:]
    value = _parse_json_text(text, where)
    if not isinstance(value, dict):
        raise BundleError(f"{where}: expected a JSON object")
    return value


def _parse_json_text(text: str, where: str):
    if not _json_depth_ok(text):
        raise BundleError(f"{where}: the JSON nests deeper than {MAX_JSON_DEPTH} "
                          "levels")
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys,
                           parse_constant=_no_constant, parse_int=_number,
                           parse_float=_number)
    except _JsonError as e:
        raise BundleError(f"{where}: {e}") from None
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise BundleError(f"{where}: not valid JSON: {e}") from None
    return value


def _read_file(path: str, limit: int, what: str) -> bytes:
    if not os.path.isfile(path):
        raise BundleError(f"{path}: {what} is not a regular file"
                          if os.path.exists(path) else f"{path}: {what} is missing")
    size = os.path.getsize(path)
    if size > limit:
        raise BundleError(f"{path}: {size} bytes is over the limit of {limit}")
    with open(path, "rb") as f:
        return f.read(limit + 1)


# -- fields ------------------------------------------------------------------


def _describe(value) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_identifier(s: str, extra: str = "") -> bool:
    if not s or len(s) > 256:
        return False
    for i, c in enumerate(s):
        if not (("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_"
                or (i > 0 and "0" <= c <= "9") or c in extra):
            return False
    return True


def _is_plain_file_name(s: str) -> bool:
    return (0 < len(s) <= 255 and s not in (".", "..") and "/" not in s
            and "\\" not in s and "\0" not in s)


class _Reader:
    """Typed access to a JSON object with errors naming the field path
    (ManifestRead.cpp's Reader); `others` finds fields nobody read."""

    def __init__(self, obj: dict, path: str = ""):
        self.obj, self.path, self.seen = obj, path, set()

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def find(self, key: str):
        self.seen.add(key)
        return self.obj.get(key)

    def has(self, key: str) -> bool:
        self.seen.add(key)
        return key in self.obj

    def string(self, key: str, required: bool, default: str = "") -> str:
        if not self.has(key):
            if required:
                _fail(self.at(key), "missing (required)")
            return default
        value = self.obj[key]
        if not isinstance(value, str):
            _fail(self.at(key), f"expected a string, got {_describe(value)}")
        return value

    def integer(self, key: str, lo: int, hi: int, required: bool,
                default: Optional[int] = 0) -> Optional[int]:
        if not self.has(key):
            if required:
                _fail(self.at(key), "missing (required)")
            return default
        return _integer(self.obj[key], self.at(key), lo, hi)

    def no_others(self):
        for key in self.obj:
            if key not in self.seen:
                _fail(self.at(key), "unknown field")


def _fail(where: str, why: str):
    raise BundleError(f"manifest.json: {where}: {why}")


def _integer(value, where: str, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        _fail(where, f"expected an integer in [{lo}, {hi}], got {_describe(value)}")
    return value


def _read_abi_entry(obj, index: int) -> AbiEntry:
    where = f"abi[{index}]"
    if not isinstance(obj, dict):
        _fail(where, f"expected an object, got {_describe(obj)}")
    r = _Reader(obj, where)
    name = r.string("name", True)
    kind = r.string("kind", True)
    dtype = ""
    if kind == "view":
        dtype = r.string("dtype", True)
        rank = r.integer("rank", 1, MAX_RANK, True)
        align = r.integer("align", 1, 16, True)
        access = r.string("access", True)
        if access not in ACCESS:
            _fail(r.at("access"), 'expected "none", "read", "write" or '
                  f'"readwrite", got "{access}"')
        entry = AbiEntry(name, kind, rank=rank, align=align, access=access)
    elif kind == "scalar":
        dtype = r.string("dtype", True)
        entry = AbiEntry(name, kind)
    elif kind == "tensor_map":
        view = r.string("view", True)
        swizzle = r.integer("swizzle", 0, 128, True)
        lists = {}
        for key, hi in (("dims", 7), ("box", 256)):
            if not r.has(key):
                _fail(r.at(key), "missing (required)")
            values = obj[key]
            if not isinstance(values, list) or not 1 <= len(values) <= 5:
                _fail(r.at(key), "expected an array of 1 to 5 integers, got "
                      + _describe(values))
            lists[key] = [_integer(v, f"{r.at(key)}[{i}]", 0, hi)
                          for i, v in enumerate(values)]
        entry = AbiEntry(name, kind, view=view, dims=lists["dims"], box=lists["box"],
                         swizzle=swizzle)
    else:
        _fail(r.at("kind"), 'expected "view", "scalar" or "tensor_map", got '
              + _describe(kind))
    if kind != "tensor_map":  # views and scalars need a dtype
        if dtype not in _DTYPE_NAMES:
            _fail(r.at("dtype"), f'expected f16, bf16, f32, i32, f8E4M3FN or f8E5M2, got "{dtype}"')
        entry.dtype = _DTYPE_NAMES[dtype]
    r.no_others()
    return entry


def abi_entry_json(e: AbiEntry) -> str:
    """tilebundle::abiEntryJson: the entry as manifest.json writes it, its
    fields in a fixed order (two entries are the same when their texts are)."""
    obj = {"name": e.name, "kind": e.kind}
    if e.kind == "tensor_map":
        obj.update(view=e.view, dims=e.dims, box=e.box, swizzle=e.swizzle)
    else:
        obj["dtype"] = e.dtype
    if e.kind == "view":
        obj.update(rank=e.rank, align=e.align, access=e.access)
    return json.dumps(obj, separators=(",", ":"))


def parse_abi_json(text: str, where: str = "") -> List[AbiEntry]:
    """tilebundle::parseAbiJson: a JSON array of 1 to 256 abi entries, each
    validated as the manifest's."""
    value = _parse_json_text(text, where or "abi")
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_ABI_ENTRIES:
        raise BundleError(f"{where + ': ' if where else ''}expected an array of 1 "
                          f"to {MAX_ABI_ENTRIES} abi entries")
    return [_read_abi_entry(e, i) for i, e in enumerate(value)]


def check_ptx_abi(ptx: str, entry: str, abi: List[AbiEntry], required: bool) -> None:
    """tilebundle::checkPtxAbi: the PTX's line `// tile-abi ENTRY [...]`
    (the abi it was compiled for, written by tile-compile) against the
    manifest's abi. A view's dtype changes no parameter size, so only this
    line tells an edited manifest. BundleError when they differ, when the
    line does not read, or when it is missing and `required` (a manifest
    with `files`)."""
    key = f"// tile-abi {entry} "
    at = 0
    while True:
        at = ptx.find(key, at)
        if at <= 0 or ptx[at - 1] == "\n":
            break
        at += len(key)
    if at < 0:
        if not required:
            return
        raise BundleError(f"the PTX has no '// tile-abi {entry}' line, which "
                          "tile-compile writes with the files digests: recompile "
                          "the bundle")
    start = at + len(key)
    end = ptx.find("\n", start)
    text = ptx[start:] if end < 0 else ptx[start:end]
    try:
        compiled = parse_abi_json(text)
    except BundleError as e:
        raise BundleError(f"the PTX's tile-abi line does not read: {e}") from None
    hint = " (its tile-abi line): an edited manifest, or another kernel's PTX"
    for i, (have, want) in enumerate(zip(abi, compiled)):
        have_text, want_text = abi_entry_json(have), abi_entry_json(want)
        if have_text != want_text:
            raise BundleError(f"the manifest's abi[{i}] is {have_text}, but the "
                              f"PTX was compiled for {want_text}{hint}")
    if len(abi) != len(compiled):
        raise BundleError(f"the manifest's abi has {len(abi)} entries, but the PTX "
                          f"was compiled for {len(compiled)}{hint}")


def _read_files(value) -> Dict[str, Dict[str, object]]:
    """`files`: {NAME: {"sha256": 64 lowercase hex digits, "bytes": size}}."""
    if not isinstance(value, dict):
        _fail("files", f"expected an object, got {_describe(value)}")
    files = {}
    for name, digest in value.items():
        where = f"files.{name}"
        if not _is_plain_file_name(name):
            _fail("files", f'"{name}" is not a file name in the bundle folder')
        if not isinstance(digest, dict):
            _fail(where, f"expected an object, got {_describe(digest)}")
        r = _Reader(digest, where)
        sha = r.string("sha256", True)
        if len(sha) != 64 or not set(sha) <= _HEX:
            _fail(r.at("sha256"), f"expected 64 lowercase hex digits, got \"{sha[:80]}\"")
        size = r.integer("bytes", 0, INT64_MAX, True)
        r.no_others()
        files[name] = {"sha256": sha, "bytes": size}
    return files


def parse_manifest(raw: dict, bundle_dir: str = "") -> Manifest:
    """Reads and validates a manifest's JSON object (parseManifest and
    validateManifest of the C++ library, in their order)."""
    if not isinstance(raw, dict):
        raise BundleError("manifest.json: expected a JSON object")
    r = _Reader(raw)
    fmt = r.string("format", True)
    if fmt == "tile-bundle-1":
        _fail("format", '"tile-bundle-1" was written by an older tile-compile '
              "(no view alignment or access in the abi); recompile the bundle")
    if fmt != FORMAT:
        _fail("format", f'not a tile bundle: expected "{FORMAT}", got "{fmt}"')
    kernel = r.string("kernel", True)
    entry = r.string("entry", True)
    ptx = r.string("ptx", True)
    cubin = r.string("cubin", False)
    target = r.string("target", True)
    for key in ("compiler", "source", "pipeline"):
        r.string(key, False)
    r.integer("stages", 0, 64, False, None)
    for key in ("sync", "warp_specialize", "ping_pong", "tma", "pin_waits"):
        r.string(key, False)
    r.integer("mma_version", 0, 3, False, None)
    r.string("shared_layout", False)
    num_warps = r.integer("num_warps", 1, 32, True)
    occupancy = r.integer("occupancy", 0, 32, False)
    shared_bytes = r.integer("shared_bytes", 0, INT32_MAX, True)

    if not r.has("block"):
        _fail("block", "missing (required)")
    block = raw["block"]
    if not isinstance(block, list) or len(block) != 3:
        _fail("block", f"expected three integers (an array of 3), got {_describe(block)}")
    block = [_integer(b, f"block[{i}]", 1, 1024) for i, b in enumerate(block)]

    if not r.has("grid"):
        _fail("grid", "missing (required)")
    grid = raw["grid"]
    if not isinstance(grid, list) or len(grid) != 3:
        _fail("grid", f"expected an array of 3 expression strings, got {_describe(grid)}")
    for i, g in enumerate(grid):
        if not isinstance(g, str):
            _fail(f"grid[{i}]", f"expected a string, got {_describe(g)}")

    requires = r.find("requires") if r.has("requires") else []
    if not isinstance(requires, list):
        _fail("requires", f"expected an array of expression strings, got {_describe(requires)}")
    for i, q in enumerate(requires):
        if not isinstance(q, str):
            _fail(f"requires[{i}]", f"expected a string, got {_describe(q)}")

    if not r.has("params"):
        _fail("params", "missing (required)")
    params = raw["params"]
    if not isinstance(params, dict):
        _fail("params", f"expected an object, got {_describe(params)}")
    for key, value in params.items():
        if not (isinstance(value, (bool, str))
                or (_is_int(value) and INT64_MIN <= value <= INT64_MAX)):
            _fail(f"params.{key}", "expected an integer, a boolean or a string, "
                  f"got {_describe(value)}")

    if not r.has("abi"):
        _fail("abi", "missing (required)")
    abi_list = raw["abi"]
    if not isinstance(abi_list, list) or not abi_list:
        _fail("abi", f"expected a non-empty array, got {_describe(abi_list)}")
    abi = [_read_abi_entry(e, i) for i, e in enumerate(abi_list)]

    if r.has("ptxas"):
        if not isinstance(raw["ptxas"], dict):
            _fail("ptxas", f"expected an object, got {_describe(raw['ptxas'])}")
        p = _Reader(raw["ptxas"], "ptxas")
        p.integer("registers", 0, 255, True)
        for key in ("spill_stores", "spill_loads", "stack_bytes"):
            p.integer(key, 0, INT64_MAX, True)
        p.string("ptxas", False)
        p.integer("opt_level", 0, 3, False, None)
        p.no_others()
    files = _read_files(raw["files"]) if r.has("files") else {}
    r.no_others()

    m = Manifest(dir=bundle_dir, kernel=kernel, entry=entry, target=target,
                 ptx=ptx, cubin=cubin or None, num_warps=num_warps, block=block,
                 shared_bytes=shared_bytes, grid=list(grid), requires=list(requires),
                 params=dict(params), abi=abi, raw=raw, occupancy=occupancy,
                 files=files)
    _validate(m)
    return m


def _validate(m: Manifest) -> None:
    """validateManifest's checks that span fields."""
    if not _is_identifier(m.kernel):
        _fail("kernel", f'expected an identifier, got "{m.kernel}"')
    if not _is_identifier(m.entry, "$"):
        _fail("entry", f'expected a PTX identifier, got "{m.entry}"')
    for key, name in (("ptx", m.ptx), ("cubin", m.cubin)):
        if name is not None and not _is_plain_file_name(name):
            _fail(key, f'must name a file in the bundle folder, got "{name}"')
    if targets.parse(m.target) is None:
        _fail("target", "expected sm_XY with an optional a or f (sm_80, sm_90a), "
              f'got "{m.target}"')
    threads = m.block[0] * m.block[1] * m.block[2]
    if threads != 32 * m.num_warps:
        _fail("block", f"{threads} threads, but num_warps {m.num_warps} means "
              f"{32 * m.num_warps}")
    for key in m.params:
        if not _is_identifier(key):
            _fail("params", f'"{key}" is not an identifier')
    if len(m.abi) > MAX_ABI_ENTRIES:
        _fail("abi", f"more than {MAX_ABI_ENTRIES} arguments")
    _check_abi(m)
    _check_exprs(m)


def _check_abi(m: Manifest) -> None:
    first = {}  # Manifest::abiEntry: the first entry of a name
    for e in m.abi:
        first.setdefault(e.name, e)
    names = set()
    for i, e in enumerate(m.abi):
        at = f"abi[{i}]"
        is_map = e.kind == "tensor_map"
        if not _is_identifier(e.name, "@." if is_map else ""):
            what = "a name of letters, digits, _, @ and ." if is_map else "an identifier"
            _fail(f"{at}.name", f'expected {what}, got "{e.name}"')
        if e.name in names:
            _fail(f"{at}.name", f'duplicate argument name "{e.name}" (named twice)')
        names.add(e.name)
        if e.kind == "view":
            if e.align & (e.align - 1):
                _fail(f"{at}.align", f"expected a power of two in [1, 16], got {e.align}")
        elif e.kind == "scalar":
            if e.dtype not in SCALAR_DTYPES:
                _fail(f"{at}.dtype", f"a scalar is f32 or i32, not {e.dtype}")
        else:
            _check_tensor_map(at, e, first.get(e.view))


def _check_tensor_map(at: str, e: AbiEntry, view: Optional[AbiEntry]) -> None:
    if view is None or view.kind != "view":
        _fail(f"{at}.view", f'"{e.view}" is not a view of the abi')
    if len(e.dims) > min(5, view.rank) or len(e.box) != len(e.dims):
        _fail(f"{at}.dims", "expected 1 to min(5, rank) dimensions and as many "
              "box sizes")
    if any(d >= view.rank for d in e.dims) or len(set(e.dims)) != len(e.dims):
        _fail(f"{at}.dims", f'expected distinct dimensions of "{e.view}" '
              f"(rank {view.rank})")
    if e.dims[0] != view.rank - 1:
        _fail(f"{at}.dims", f'dims[0] must be the innermost dimension of '
              f'"{e.view}", {view.rank - 1}')
    if any(not 1 <= b <= 256 for b in e.box):
        _fail(f"{at}.box", "box sizes are in [1, 256]")
    if e.swizzle not in (0, 32, 64, 128):
        _fail(f"{at}.swizzle", f"expected 0, 32, 64 or 128, got {e.swizzle}")
    inner = e.box[0] * DTYPE_BYTES[view.dtype]
    if inner % 16:
        _fail(f"{at}.box", f"box[0] * element size = {inner} bytes, not a "
              "multiple of 16")
    if e.swizzle and inner > e.swizzle:
        _fail(f"{at}.box", f"box[0] * element size = {inner} bytes exceeds "
              f"the swizzle span {e.swizzle}")
    if view.align != 16:
        _fail(f"{at}.view", "a view read through a tensor map needs align 16, "
              f'"{e.view}" has {view.align}')


def _check_exprs(m: Manifest) -> None:
    """Names, dimensions and the arithmetic on what is known (checkExprs)."""
    ranks = {e.name: e.rank for e in m.abi if e.kind == "view"}
    others = [e.name for e in m.abi if e.kind != "view"]
    params = m.expr_params()
    for i, rule in enumerate(m.grid):
        try:
            value = expr.analyze(rule, ranks, params, others)
        except expr.ExprError as e:
            _fail(f"grid[{i}]", str(e))
        if value is not None and value < 1:
            _fail(f"grid[{i}]", f"{expr.quote(rule)} is {value} for every shape "
                  f"(grid.{'xyz'[i]} must be at least 1)")
    for i, rule in enumerate(m.requires):
        try:
            value = expr.analyze(rule, ranks, params, others)
        except expr.ExprError as e:
            _fail(f"requires[{i}]", str(e))
        if value == 0:
            _fail(f"requires[{i}]", f"{expr.quote(rule)} is false for every shape")


# -- the bundle's files --------------------------------------------------------


def _check_digests(m: Manifest) -> None:
    for name, digest in m.files.items():
        path = os.path.join(m.dir, name)
        if not os.path.isfile(path):
            raise BundleError(f"{path}: listed in the manifest's files, but missing "
                              "or not a regular file")
        size = os.path.getsize(path)
        if size != digest["bytes"]:
            raise BundleError(f"{path}: {size} bytes, but the manifest's files "
                              f"says {digest['bytes']} (a damaged or replaced file)")
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        if h.hexdigest() != digest["sha256"]:
            raise BundleError(f"{path}: sha256 {h.hexdigest()}, but the manifest's "
                              f"files says {digest['sha256']} (a damaged or "
                              "replaced file)")


def _check_ptx(m: Manifest) -> None:
    """The PTX declares the manifest's target and an entry whose parameters
    are the ABI's expansion (tilebundle::checkBundlePtx)."""
    path = os.path.join(m.dir, m.ptx)
    data = _read_file(path, MAX_PTX_BYTES, "the PTX")
    try:
        text = data.decode("utf-8", "replace")
        info = targets.scan_ptx(text)
    except ValueError as e:
        raise BundleError(f"{path}: {e}") from None
    if m.entry not in info.entries:
        raise BundleError(f"{path}: the PTX has no .entry named '{m.entry}' (it "
                          f"declares {', '.join(info.entries)})")
    index = info.entries.index(m.entry)
    sizes = info.param_sizes[index]
    expected = []
    for e in m.abi:
        expected += [(e.name, s) for s in e.param_sizes()]
    for i, (have, (name, want)) in enumerate(zip(sizes, expected)):
        if have >= 0 and have != want:
            raise BundleError(f"{path}: the PTX entry's parameter {i} is {have} "
                              f"bytes, but the manifest abi puts a {want}-byte "
                              f"parameter of '{name}' there")
    if len(sizes) != len(expected):
        raise BundleError(f"{path}: the PTX entry '{m.entry}' takes {len(sizes)} "
                          f"parameters, but the manifest abi expands to "
                          f"{len(expected)} (a view of rank R is 1 + 2R "
                          "parameters, a scalar one, a tensor map one of 128 bytes)")
    if not info.complete(index):
        raise BundleError(f"{path}: the body of .entry '{m.entry}' is cut off "
                          "(a truncated PTX)")
    if info.target != m.target:
        raise BundleError(f"{path}: the PTX says .target {info.target} but the "
                          f"manifest says target {m.target}")
    # The dtypes, alignments and accesses the parameter sizes cannot tell.
    try:
        check_ptx_abi(text, m.entry, m.abi, bool(m.files))
    except BundleError as e:
        raise BundleError(f"{path}: {e}") from None


def load_manifest(bundle_dir) -> Manifest:
    """Reads and checks ``bundle_dir/manifest.json`` and the bundle's files:
    the digests of ``files`` where present, then the PTX against the ABI."""
    if not isinstance(bundle_dir, (str, os.PathLike)):
        raise BundleError(f"expected a bundle folder path, got {bundle_dir!r}")
    bundle_dir = os.fspath(bundle_dir)
    if not isinstance(bundle_dir, str):
        raise BundleError(f"expected a bundle folder path, got {bundle_dir!r}")
    if not os.path.isdir(bundle_dir):
        raise BundleError(f"bundle '{bundle_dir}' is not a folder")
    path = os.path.join(bundle_dir, "manifest.json")
    if not os.path.isfile(path):
        raise BundleError(f"{path}: not a regular file")
    data = _read_file(path, MAX_MANIFEST_BYTES, "the manifest")
    m = parse_manifest(parse_json(data, path), bundle_dir)
    ptx_path = os.path.join(bundle_dir, m.ptx)
    if not os.path.isfile(ptx_path):
        raise BundleError(f"{bundle_dir}: '{m.ptx}' is missing")
    if m.cubin and not os.path.isfile(os.path.join(bundle_dir, m.cubin)):
        m.cubin = None  # as tilebundle::loadBundle: the PTX is JIT-compiled
    _check_digests(m)
    _check_ptx(m)
    return m
