"""The few CUDA driver API calls a launcher needs, through ctypes.

No compiled code: libcuda.so.1 is opened on first use. Every call's
CUresult is checked and turned into a CudaError that names the call and the
driver's error name, so a failure says where it happened.
"""

from __future__ import annotations

import ctypes
from typing import Optional, Sequence

CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5
CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6
CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

CU_JIT_INFO_LOG_BUFFER = 3
CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
CU_JIT_LOG_VERBOSE = 12

# CUtensorMapDataType for the element types views can have (fp8 is copied
# as bytes: UINT8).
TENSOR_MAP_DTYPE = {"u8": 0, "i8": 0, "i16": 1, "i32": 3, "i64": 5,
                    "f16": 6, "f32": 7, "f64": 8, "bf16": 9,
                    "f8E4M3FN": 0, "f8E5M2": 0}
TENSOR_MAP_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
TENSOR_MAP_L2_PROMOTION_128B = 2


class CudaError(RuntimeError):
    """A driver call that failed; `code` is the CUresult."""

    def __init__(self, call: str, code: int, name: str, detail: str = ""):
        super().__init__(f"{call} failed: {name} ({code}){': ' + detail if detail else ''}")
        self.call, self.code, self.name = call, code, name


_lib: Optional[ctypes.CDLL] = None


def lib() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        try:
            _lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise CudaError("dlopen(libcuda.so.1)", -1, "no CUDA driver",
                            str(e)) from None
        check("cuInit", _lib.cuInit(0))
    return _lib


def error_name(code: int) -> str:
    name = ctypes.c_char_p()
    if _lib is not None and _lib.cuGetErrorName(code, ctypes.byref(name)) == 0 and name.value:
        return name.value.decode()
    return "CUDA_ERROR_UNKNOWN"


def check(call: str, code: int, detail: str = "") -> None:
    if code != 0:
        raise CudaError(call, code, error_name(code), detail)


def current_context() -> ctypes.c_void_p:
    """The calling thread's context (PyTorch's primary context once torch
    has touched the GPU); the primary context of device 0 otherwise."""
    cu = lib()
    ctx = ctypes.c_void_p()
    check("cuCtxGetCurrent", cu.cuCtxGetCurrent(ctypes.byref(ctx)))
    if not ctx.value:
        check("cuDevicePrimaryCtxRetain",
              cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0))
        check("cuCtxSetCurrent", cu.cuCtxSetCurrent(ctx))
    return ctx


def current_device() -> int:
    dev = ctypes.c_int()
    check("cuCtxGetDevice", lib().cuCtxGetDevice(ctypes.byref(dev)))
    return dev.value


def device_attribute(attribute: int, device: int) -> int:
    value = ctypes.c_int()
    check("cuDeviceGetAttribute",
          lib().cuDeviceGetAttribute(ctypes.byref(value), attribute, device))
    return value.value


def load_module(image: bytes, what: str) -> ctypes.c_void_p:
    """cuModuleLoadDataEx with the JIT's logs; `image` is PTX (NUL-terminated
    here) or a cubin."""
    cu = lib()
    if not image.endswith(b"\0") and not image.startswith(b"\x7fELF"):
        image += b"\0"
    size = 1 << 16
    info, err = ctypes.create_string_buffer(size), ctypes.create_string_buffer(size)
    keys = (ctypes.c_int * 5)(CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_LOG_VERBOSE)
    values = (ctypes.c_void_p * 5)(ctypes.cast(info, ctypes.c_void_p), size,
                                   ctypes.cast(err, ctypes.c_void_p), size, 1)
    module = ctypes.c_void_p()
    code = cu.cuModuleLoadDataEx(ctypes.byref(module), ctypes.c_char_p(image),
                                 5, keys, values)
    check(f"cuModuleLoadDataEx({what})", code, err.value.decode(errors="replace").strip())
    return module


def get_function(module: ctypes.c_void_p, entry: str) -> ctypes.c_void_p:
    fn = ctypes.c_void_p()
    check(f"cuModuleGetFunction({entry})",
          lib().cuModuleGetFunction(ctypes.byref(fn), module, entry.encode()))
    return fn


def function_attribute(fn: ctypes.c_void_p, attribute: int) -> int:
    value = ctypes.c_int()
    check("cuFuncGetAttribute",
          lib().cuFuncGetAttribute(ctypes.byref(value), attribute, fn))
    return value.value


def set_max_dynamic_shared(fn: ctypes.c_void_p, nbytes: int) -> None:
    check("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
          lib().cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   nbytes))


def launch(fn, grid: Sequence[int], block: Sequence[int], shared_bytes: int,
           stream: int, params: "ctypes.Array", what: str) -> None:
    code = lib().cuLaunchKernel(fn, *[ctypes.c_uint(g) for g in grid],
                                *[ctypes.c_uint(b) for b in block],
                                ctypes.c_uint(shared_bytes), ctypes.c_void_p(stream),
                                params, None)
    check(f"cuLaunchKernel({what})", code)


class TensorMap:
    """A CUtensorMap (128 bytes, 64-byte aligned) filled by
    cuTensorMapEncodeTiled; `pointer` is what goes into kernelParams."""

    def __init__(self, dtype: str, address: int, sizes: Sequence[int],
                 byte_strides: Sequence[int], box: Sequence[int], swizzle: int,
                 what: str):
        self._storage = ctypes.create_string_buffer(128 + 64)
        base = ctypes.addressof(self._storage)
        self.address = (base + 63) // 64 * 64
        rank = len(sizes)
        dims = (ctypes.c_uint64 * rank)(*sizes)
        strides = (ctypes.c_uint64 * max(rank - 1, 1))(*(byte_strides or [0]))
        boxes = (ctypes.c_uint32 * rank)(*box)
        element_strides = (ctypes.c_uint32 * rank)(*([1] * rank))
        code = lib().cuTensorMapEncodeTiled(
            ctypes.c_void_p(self.address), TENSOR_MAP_DTYPE[dtype], rank,
            ctypes.c_void_p(address), dims, strides, boxes, element_strides,
            0, TENSOR_MAP_SWIZZLE[swizzle], TENSOR_MAP_L2_PROMOTION_128B, 0)
        check(f"cuTensorMapEncodeTiled({what})", code,
              f"sizes {list(sizes)}, byte strides {list(byte_strides)}, box {list(box)}, "
              f"swizzle {swizzle}")
        self.pointer = ctypes.c_void_p(self.address)
