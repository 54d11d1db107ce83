"""Binding arguments to a bundle's launch ABI, and the checks before a launch.

A view of rank R is 1 + 2R kernel parameters: the global address (8 bytes),
R int32 sizes, R int64 strides in elements. A scalar is one parameter of its
dtype. A tensor map is one 128-byte CUtensorMap built from a bound view.
Nothing here touches the GPU: ``bind`` checks a call against the manifest
(names, dtypes, ranks, the alignment contract, ``requires``, the grid) and
returns the plan that ``launch.Kernel`` hands to the driver.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from . import expr
from .manifest import DTYPE_BYTES, BundleError, Manifest

INT32_MAX = 2**31 - 1
# Grid limits every CUDA device since compute capability 3.0 has.
MAX_GRID = (2**31 - 1, 65535, 65535)

_TORCH_DTYPES = {
    "torch.float16": "f16", "torch.bfloat16": "bf16", "torch.float32": "f32",
    "torch.float64": "f64", "torch.int8": "i8", "torch.int16": "i16",
    "torch.int32": "i32", "torch.int64": "i64", "torch.bool": "i1",
}


class LaunchError(ValueError):
    """A call that does not meet the bundle's contract; says which argument."""


def dtype_name(tensor) -> str:
    name = _TORCH_DTYPES.get(str(tensor.dtype))
    if name is None:
        raise LaunchError(f"unsupported tensor dtype {tensor.dtype}")
    return name


@dataclass
class ViewBinding:
    address: int
    dtype: str
    sizes: List[int]
    strides: List[int]  # elements


@dataclass
class Plan:
    """What the driver needs: parameters in ABI order, grid, block, shared."""
    params: List[Tuple[str, object]]  # (ctype name, value) or ("tensor_map", spec)
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    shared_bytes: int
    views: Dict[str, ViewBinding] = field(default_factory=dict)


def view_of(name: str, tensor) -> ViewBinding:
    """The address, dtype, sizes and strides of a tensor-like object
    (`data_ptr()`, `shape`, `stride()`, `dtype`)."""
    try:
        sizes = [int(s) for s in tensor.shape]
        strides = [int(s) for s in tensor.stride()]
        address = int(tensor.data_ptr())
    except AttributeError:
        raise LaunchError(f"argument '{name}' must be a tensor") from None
    return ViewBinding(address, dtype_name(tensor), sizes, strides)


def check_alignment(name: str, view: ViewBinding, align: int) -> None:
    """The contract C2 of docs/bundle.md: base address, outer strides in
    bytes, and a contiguous innermost dimension."""
    elem = DTYPE_BYTES[view.dtype]
    if view.address % align:
        raise LaunchError(
            f"argument '{name}': the bundle assumes a base address aligned to "
            f"{align} bytes, got 0x{view.address:x} (use a bundle compiled with "
            f"a smaller view-align, or copy the tensor)")
    rank = len(view.sizes)
    if rank and view.sizes[-1] > 1 and view.strides[-1] != 1:
        raise LaunchError(
            f"argument '{name}': the innermost dimension must be contiguous "
            f"(stride 1), got stride {view.strides[-1]} (call .contiguous())")
    for d in range(rank - 1):
        if view.sizes[d] > 1 and (view.strides[d] * elem) % align:
            raise LaunchError(
                f"argument '{name}': stride {view.strides[d]} of dimension {d} "
                f"is {view.strides[d] * elem} bytes, not a multiple of the "
                f"bundle's alignment of {align} bytes (use a bundle compiled "
                f"with view-align={math.gcd(view.strides[d] * elem, align)})")


def largest_alignment(view: ViewBinding) -> int:
    """The largest C2 alignment (<= 16) that `view` meets, or 0 when its
    innermost dimension is not contiguous."""
    for align in (16, 8, 4, 2, 1):
        try:
            check_alignment("", view, align)
            return align
        except LaunchError as e:
            if "innermost" in str(e):
                return 0
    return 0


def _scalar(name: str, dtype: str, value) -> Tuple[str, object]:
    if isinstance(value, bool) and dtype != "i1":
        raise LaunchError(f"argument '{name}' is {dtype}, got a bool")
    if dtype == "f32":
        if not isinstance(value, (int, float)) or not math.isfinite(float(value)):
            raise LaunchError(f"argument '{name}' is f32, got {value!r}")
        return ("c_float", float(value))
    if dtype in ("i32", "i64", "i1"):
        if not isinstance(value, int):
            raise LaunchError(f"argument '{name}' is {dtype}, got {value!r}")
        lo, hi = {"i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1),
                  "i1": (0, 1)}[dtype]
        if not lo <= value <= hi:
            raise LaunchError(f"argument '{name}' is {dtype}: {value} is out of "
                              f"range [{lo}, {hi}]")
        return ({"i32": "c_int32", "i64": "c_int64", "i1": "c_uint8"}[dtype], value)
    raise LaunchError(f"argument '{name}': scalars of {dtype} are not supported "
                      "by this launcher")



def tensor_map_byte_strides(dims, sizes, strides, elem):
    """The byte strides cuTensorMapEncodeTiled takes (one per map dimension
    after the first). A dimension of size 1 is only ever read at index 0, so
    its stride is free (the alignment contract exempts it) while the driver
    wants a multiple of 16: it gets the byte span of the dimensions inside it,
    rounded up to 16 (tilebundle::tensorMapByteStrides does the same)."""
    out = []
    span = sizes[dims[0]] * elem
    for d in dims[1:]:
        stride = (span + 15) // 16 * 16 if sizes[d] == 1 else strides[d] * elem
        out.append(stride)
        span = stride * sizes[d]
    return out

def bind(manifest: Manifest, args: Dict[str, object]) -> Plan:
    """Checks a call (arguments by name) against the manifest."""
    entries = {e.name: e for e in manifest.abi if e.kind != "tensor_map"}
    unknown = sorted(set(args) - set(entries))
    if unknown:
        raise LaunchError(f"{manifest.kernel}: no argument named "
                          f"{', '.join(repr(u) for u in unknown)} (arguments: "
                          f"{', '.join(entries)})")
    missing = [n for n in entries if n not in args]
    if missing:
        raise LaunchError(f"{manifest.kernel}: missing argument(s) "
                          f"{', '.join(repr(m) for m in missing)}")
    views: Dict[str, ViewBinding] = {}
    params: List[Tuple[str, object]] = []
    for e in manifest.abi:
        if e.kind == "view":
            v = view_of(e.name, args[e.name])
            if v.dtype != e.dtype:
                raise LaunchError(f"argument '{e.name}' must be {e.dtype}, got {v.dtype}")
            if len(v.sizes) != e.rank:
                raise LaunchError(f"argument '{e.name}' must have rank {e.rank}, "
                                  f"got shape {v.sizes}")
            for d, s in enumerate(v.sizes):
                if s > INT32_MAX:
                    raise LaunchError(f"argument '{e.name}': size {s} of dimension "
                                      f"{d} does not fit the ABI's int32")
            check_alignment(e.name, v, e.align)
            views[e.name] = v
            params.append(("c_uint64", v.address))
            params.extend(("c_int32", s) for s in v.sizes)
            params.extend(("c_int64", s) for s in v.strides)
        elif e.kind == "scalar":
            params.append(_scalar(e.name, e.dtype, args[e.name]))
        else:
            src = views.get(e.view)
            if src is None:
                raise LaunchError(f"tensor map '{e.name}' describes '{e.view}', "
                                  "which must come before it in the ABI")
            elem = DTYPE_BYTES[src.dtype]
            if e.dims[0] != len(src.sizes) - 1:
                raise BundleError(f"tensor map '{e.name}': dims[0] must be the "
                                  "innermost dimension of the view")
            spec = dict(name=e.name, dtype=src.dtype, address=src.address,
                        sizes=[src.sizes[d] for d in e.dims],
                        byte_strides=tensor_map_byte_strides(e.dims, src.sizes,
                                                             src.strides, elem),
                        box=list(e.box), swizzle=e.swizzle)
            if src.address % 16 or any(s % 16 for s in spec["byte_strides"]):
                raise LaunchError(f"tensor map '{e.name}': view '{e.view}' needs "
                                  "a 16-byte aligned address and strides")
            params.append(("tensor_map", spec))
    shapes = {n: v.sizes for n, v in views.items()}
    for rule in manifest.requires:
        try:
            ok = expr.evaluate(rule, shapes)
        except expr.ExprError as err:
            raise LaunchError(f"{manifest.name}: requires '{rule}': {err}") from None
        if not ok:
            raise LaunchError(f"{manifest.name}: this problem does not meet the "
                              f"bundle's requirement '{rule}' ("
                              + ", ".join(f"{n}{list(s)}" for n, s in shapes.items())
                              + ")")
    grid = []
    for i, rule in enumerate(manifest.grid):
        try:
            g = expr.evaluate(rule, shapes)
        except expr.ExprError as err:
            raise LaunchError(f"{manifest.name}: grid[{i}]: {err}") from None
        if not 0 <= g <= MAX_GRID[i]:
            raise LaunchError(f"{manifest.name}: grid[{i}] = '{rule}' is {g}, "
                              f"outside [0, {MAX_GRID[i]}]")
        grid.append(g)
    grid += [1] * (3 - len(grid))
    return Plan(params, tuple(grid), tuple(manifest.block), manifest.shared_bytes, views)


def pack(values: Sequence[Tuple[str, object]], tensor_maps: Dict[str, object]):
    """The kernelParams array of cuLaunchKernel and the objects it points
    into (keep them alive until the launch returns)."""
    keep = []
    pointers = (ctypes.c_void_p * len(values))()
    for i, (kind, value) in enumerate(values):
        if kind == "tensor_map":
            tmap = tensor_maps[value["name"]]
            keep.append(tmap)
            pointers[i] = tmap.address
            continue
        obj = getattr(ctypes, kind)(value)
        keep.append(obj)
        pointers[i] = ctypes.addressof(obj)
    return pointers, keep
