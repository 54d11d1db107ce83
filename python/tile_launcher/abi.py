"""Binding arguments to a bundle's launch ABI, and the checks before a launch.

A view of rank R is 1 + 2R kernel parameters: the global address (8 bytes),
R int32 sizes, R int64 strides in elements. A scalar is one parameter of its
dtype. A tensor map is one 128-byte CUtensorMap built from a bound view.
Nothing here touches the GPU: ``bind`` checks a call against the manifest
(names, dtypes, ranks, strides, the alignment contract, one device, no
overlap of a written view with itself or another view, scalar ranges,
``requires``, the grid) and returns the plan that ``launch.Kernel`` hands to
the driver.
"""

from __future__ import annotations

import ctypes
import math
import numbers
import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from . import expr
from .manifest import DTYPE_BYTES, Manifest

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
# Grid limits every CUDA device since compute capability 3.0 has.
MAX_GRID = (2**31 - 1, 65535, 65535)

_TORCH_DTYPES = {
    "torch.float16": "f16", "torch.bfloat16": "bf16", "torch.float32": "f32",
    "torch.float64": "f64", "torch.int8": "i8", "torch.int16": "i16",
    "torch.int32": "i32", "torch.int64": "i64", "torch.bool": "i1",
    "torch.float8_e4m3fn": "f8E4M3FN", "torch.float8_e5m2": "f8E5M2",
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
    device: Optional[int] = None  # the CUDA device of the tensors, if known


def view_of(name: str, tensor) -> ViewBinding:
    """The address, dtype, sizes and strides of a tensor-like object
    (`data_ptr()`, `shape`, `stride()`, `dtype`)."""
    if not hasattr(tensor, "data_ptr"):
        raise LaunchError(f"argument '{name}' must be a tensor, got "
                          f"{type(tensor).__name__}")
    try:
        sizes = [int(s) for s in tensor.shape]
        strides = [int(s) for s in tensor.stride()]
        address = int(tensor.data_ptr())
        dtype = dtype_name(tensor)
    except LaunchError:
        raise
    except Exception as e:  # sparse and other layouts raise from stride()
        raise LaunchError(f"argument '{name}': cannot read its sizes, strides, "
                          f"address and dtype ({type(e).__name__}: {e}); the "
                          "kernel takes a dense (strided) tensor") from None
    return ViewBinding(address, dtype, sizes, strides)


def device_of(name: str, tensor) -> Optional[int]:
    """The CUDA device index of a tensor: from `device` (torch.device) or
    `get_device()`; None when the object does not say (test fakes).
    LaunchError for a tensor that is not on a GPU."""
    try:
        is_cuda = getattr(tensor, "is_cuda", True)
        device = getattr(tensor, "device", None)
        kind = getattr(device, "type", None)
        index = getattr(device, "index", None)
        if index is None and callable(getattr(tensor, "get_device", None)):
            index = tensor.get_device()
    except Exception as e:
        raise LaunchError(f"argument '{name}': cannot read its device "
                          f"({type(e).__name__}: {e})") from None
    if is_cuda is False or (isinstance(index, int) and index < 0):  # -1: CPU
        raise LaunchError(f"argument '{name}' is not on the GPU")
    if kind is not None and kind != "cuda":
        raise LaunchError(f"argument '{name}' is on {device}, not on the GPU")
    if isinstance(index, bool) or not isinstance(index, int):
        return None
    return index


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
    if rank and view.sizes[-1] != 1 and view.strides[-1] != 1:
        raise LaunchError(
            f"argument '{name}': the innermost dimension must be contiguous "
            f"(stride 1), got stride {view.strides[-1]} (call .contiguous())")
    for d in range(rank - 1):
        if view.sizes[d] != 1 and view.strides[d] * elem > INT64_MAX:
            raise LaunchError(
                f"argument '{name}': stride {view.strides[d]} of dimension {d} "
                "is more bytes than an int64 holds")
        if view.sizes[d] != 1 and (view.strides[d] * elem) % align:
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
    """A scalar argument as its ctypes type; LaunchError for a value its
    dtype cannot hold (no silent inf, wrap-around or truncation)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise LaunchError(f"argument '{name}' is {dtype}, got {value!r}")
    if dtype == "f32":
        try:
            f = float(value)
            if not math.isfinite(f):
                raise OverflowError
            struct.pack("<f", f)  # OverflowError where f32 rounds it to inf
        except OverflowError:
            raise LaunchError(f"argument '{name}' is f32, got {_short(value)}: "
                              "not a finite f32 (largest 3.4028234663852886e+38)") from None
        return ("c_float", f)
    if dtype == "i32":
        if not isinstance(value, numbers.Integral):
            raise LaunchError(f"argument '{name}' is i32, got {value!r}")
        value = int(value)
        if not -2**31 <= value <= 2**31 - 1:
            raise LaunchError(f"argument '{name}' is i32: {_short(value)} is out of "
                              f"range [{-2**31}, {2**31 - 1}]")
        return ("c_int32", value)
    raise LaunchError(f"argument '{name}': scalars of {dtype} are not supported "
                      "by this launcher")


def _short(value) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 200 \
        else f"an integer of {value.bit_length()} bits"
    return text if len(text) <= 60 else text[:57] + "..."


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

def check_strides(name: str, view: ViewBinding, written: bool) -> None:
    """Sizes in the ABI's int32, strides non-negative (as the C++ library's
    checkView), and for a view the kernel writes no two elements at one
    address: a zero stride (torch's expand), or rows that overlap."""
    for d, (size, stride) in enumerate(zip(view.sizes, view.strides)):
        if not 0 <= size <= INT32_MAX:
            raise LaunchError(f"argument '{name}': size {size} of dimension {d} "
                              "does not fit the ABI's int32 sizes")
        if stride < 0:
            raise LaunchError(f"argument '{name}': stride {stride} of dimension "
                              f"{d} is negative (the kernel takes non-negative "
                              "strides; call .contiguous())")
    if not written or 0 in view.sizes:
        return
    # Innermost first: each stride must step past everything the dimensions
    # inside it span (a sufficient condition; dense and sliced tensors meet it).
    span = 1
    for stride, size, d in sorted((st, n, d) for d, (n, st)
                                  in enumerate(zip(view.sizes, view.strides)) if n > 1):
        if stride < span:
            raise LaunchError(
                f"argument '{name}' is written by the kernel, but its elements "
                f"overlap: dimension {d} (size {size}) has stride {stride}, less "
                f"than the {span} elements the dimensions inside it span "
                "(an expanded or overlapping view; pass a .contiguous() copy)")
        span += (size - 1) * stride


def _byte_range(view: ViewBinding) -> Optional[Tuple[int, int]]:
    """[first, end) of the bytes a view can touch; None when it is empty."""
    if 0 in view.sizes:
        return None
    last = sum((n - 1) * st for n, st in zip(view.sizes, view.strides))
    return view.address, view.address + (last + 1) * DTYPE_BYTES[view.dtype]


def check_overlap(manifest: Manifest, views: Dict[str, ViewBinding]) -> None:
    """No view the kernel writes shares memory with another view it reads or
    writes (conservatively: their address ranges do not intersect). Views
    the kernel does not touch (access none) and reads of reads may share."""
    ranges = []
    for e in manifest.views():
        if e.access == "none":
            continue
        r = _byte_range(views[e.name])
        if r is not None:
            ranges.append((r, e.name, e.access in ("write", "readwrite")))
    ranges.sort()
    # Sweep in address order: each range against those still open.
    open_ranges: List[tuple] = []
    for (lo, hi), name, written in ranges:
        open_ranges = [o for o in open_ranges if o[0][1] > lo]
        for (olo, ohi), other, other_written in open_ranges:
            if written or other_written:
                w, x = (name, other) if written else (other, name)
                raise LaunchError(
                    f"argument '{w}' is written by the kernel and overlaps "
                    f"argument '{x}' in memory ([0x{olo:x}, 0x{ohi:x}) and "
                    f"[0x{lo:x}, 0x{hi:x})); pass distinct tensors")
        open_ranges.append(((lo, hi), name, written))


def check_devices(args: Dict[str, object], names: Sequence[str]) -> Optional[int]:
    """All tensors on one GPU; its index (None when no tensor says)."""
    device, first = None, None
    for name in names:
        index = device_of(name, args[name])
        if index is None:
            continue
        if device is None:
            device, first = index, name
        elif index != device:
            raise LaunchError(f"argument '{name}' is on cuda:{index}, but argument "
                              f"'{first}' is on cuda:{device}; a launch takes "
                              "tensors of one device")
    return device


def check_view(e, v: ViewBinding) -> None:
    """A view bound to ABI view entry `e`: its dtype and rank, sizes and
    strides, and the alignment contract (tilebundle::checkView, and the
    self-overlap of a written view)."""
    if v.dtype != e.dtype:
        raise LaunchError(f"argument '{e.name}' must be {e.dtype}, got {v.dtype}")
    if len(v.sizes) != e.rank or len(v.strides) != e.rank:
        raise LaunchError(f"argument '{e.name}' must have rank {e.rank}, "
                          f"got shape {v.sizes}")
    check_strides(e.name, v, e.access in ("write", "readwrite"))
    check_alignment(e.name, v, e.align)


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
    for e in manifest.views():
        views[e.name] = view_of(e.name, args[e.name])
        check_view(e, views[e.name])
    device = check_devices(args, list(views))
    check_overlap(manifest, views)
    params: List[Tuple[str, object]] = []
    for e in manifest.abi:
        if e.kind == "view":
            v = views[e.name]
            params.append(("c_uint64", v.address))
            params.extend(("c_int32", s) for s in v.sizes)
            params.extend(("c_int64", s) for s in v.strides)
        elif e.kind == "scalar":
            params.append(_scalar(e.name, e.dtype, args[e.name]))
        else:
            params.append(("tensor_map", _tensor_map(e, views[e.view])))
    shapes = {n: v.sizes for n, v in views.items()}
    values = manifest.expr_params()
    for rule in manifest.requires:
        try:
            ok = expr.evaluate(rule, shapes, values)
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
            g = expr.evaluate(rule, shapes, values)
        except expr.ExprError as err:
            raise LaunchError(f"{manifest.name}: grid[{i}]: {err}") from None
        if not 0 <= g <= MAX_GRID[i]:
            raise LaunchError(f"{manifest.name}: grid[{i}] = '{rule}' is {g}, "
                              f"outside [0, {MAX_GRID[i]}]")
        grid.append(g)
    return Plan(params, tuple(grid), tuple(manifest.block), manifest.shared_bytes,
                views, device)


def _tensor_map(e, src: ViewBinding) -> dict:
    """What cuTensorMapEncodeTiled takes for tensor map `e` of view `src`."""
    elem = DTYPE_BYTES[src.dtype]
    spec = dict(name=e.name, dtype=src.dtype, address=src.address,
                sizes=[src.sizes[d] for d in e.dims],
                byte_strides=tensor_map_byte_strides(e.dims, src.sizes,
                                                     src.strides, elem),
                box=list(e.box), swizzle=e.swizzle)
    if src.address % 16 or any(s % 16 for s in spec["byte_strides"]):
        raise LaunchError(f"tensor map '{e.name}': view '{e.view}' needs "
                          "a 16-byte aligned address and strides")
    return spec


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
