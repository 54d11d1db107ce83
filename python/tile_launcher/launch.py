"""Launching a bundle on PyTorch tensors.

    import tile_launcher
    softmax = tile_launcher.load("build/bundles/softmax-f16")
    softmax(X=x, Y=y)                     # on torch's current stream

The module is loaded once per CUDA context (the cubin when its target is
this device's exact architecture, else the PTX, JIT-compiled by the driver);
every call is checked against the manifest (abi.bind) before the launch;
a call with the same arguments as the one before (the same tensors: address,
shape, strides, dtype, device; the same scalars) reuses that check and its
packed parameters, so that timing a kernel in a loop times the kernel, not
the host's planning. The tensors' device and the stream's must be the
current device (checked at every call).

Arguments are keywords named as in the ABI, so the call's own options must
not take names an ABI could use: ``kernel(**args)`` takes a ``stream``
keyword only when no ABI argument is named ``stream``;
``kernel.launch(args, stream=...)`` always works.
"""

from __future__ import annotations

import hashlib
import os
from typing import Dict, Mapping, Optional

from . import abi, driver, target as targets
from .manifest import BundleError, Manifest, load_manifest


class Kernel:
    """One bundle, launchable by keyword arguments named as in its ABI."""

    def __init__(self, bundle_dir: str):
        self.manifest: Manifest = load_manifest(bundle_dir)
        self._loaded: Dict[int, tuple] = {}  # context -> (module, function)
        self._last: Optional[tuple] = None  # (key, launch arguments, keep)
        # Whether a `stream` keyword of a call is an ABI argument.
        self._stream_is_abi = any(e.name == "stream" for e in self.manifest.abi)

    @property
    def name(self) -> str:
        return self.manifest.name

    def _function(self):
        ctx = driver.current_context()
        key = ctx.value
        if key in self._loaded:
            return self._loaded[key][1]
        m = self.manifest
        dev = driver.current_device()
        major = driver.device_attribute(driver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        minor = driver.device_attribute(driver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        sm = targets.parse(m.target)
        if not targets.ptx_runs_on(sm, major, minor):
            raise BundleError(f"{m.name}: PTX for {m.target} does not run on "
                              f"compute capability {major}.{minor}")
        use_cubin = m.cubin and targets.cubin_runs_on(sm, major, minor)
        path = os.path.join(m.dir, m.cubin if use_cubin else m.ptx)
        image = self._read_image(m.cubin if use_cubin else m.ptx)
        module = driver.load_module(image, path)
        fn = driver.get_function(module, m.entry)
        limit = driver.device_attribute(
            driver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev)
        if m.shared_bytes > limit:
            raise BundleError(f"{m.name}: needs {m.shared_bytes} bytes of shared "
                              f"memory per block; this device allows {limit}")
        if m.shared_bytes > 48 * 1024:
            driver.set_max_dynamic_shared(fn, m.shared_bytes)
        self._loaded[key] = (module, fn)
        return fn

    def _read_image(self, name: str) -> bytes:
        """The bytes of the cubin or PTX `name` the driver loads, checked
        again against the manifest's `files` digest where it lists the file
        (it may have changed since load_manifest checked it)."""
        path = os.path.join(self.manifest.dir, name)
        with open(path, "rb") as f:
            image = f.read()
        digest = self.manifest.files.get(name)
        if digest and (len(image) != digest["bytes"]
                       or hashlib.sha256(image).hexdigest() != digest["sha256"]):
            raise BundleError(f"{path}: changed since the bundle was loaded (its "
                              "size or sha256 is not the manifest's files entry)")
        return image

    def registers(self) -> int:
        return driver.function_attribute(self._function(), driver.CU_FUNC_ATTRIBUTE_NUM_REGS)

    def spill_bytes(self) -> int:
        return driver.function_attribute(self._function(),
                                         driver.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)

    def plan(self, /, **args) -> abi.Plan:
        """Checks a call without launching it (no GPU needed)."""
        return abi.bind(self.manifest, args)

    @staticmethod
    def _call_key(args) -> Optional[tuple]:
        """What a call's check and packed parameters depend on (None: do not
        reuse; the check says what is wrong)."""
        key = []
        try:
            for name in sorted(args):
                v = args[name]
                if hasattr(v, "data_ptr"):
                    key.append((name, v.data_ptr(), tuple(v.shape), tuple(v.stride()),
                                str(v.dtype), getattr(v, "is_cuda", True),
                                str(getattr(v, "device", ""))))
                else:
                    key.append((name, type(v).__name__, v))
        except Exception:
            return None
        return tuple(key)

    def _prepare(self, args) -> tuple:
        """Checks the call and packs its parameters: (grid, block, shared
        bytes, params, device, the objects params point into)."""
        plan = self.plan(**args)
        tensor_maps = {}
        for kind, value in plan.params:
            if kind == "tensor_map":
                tensor_maps[value["name"]] = driver.TensorMap(
                    value["dtype"], value["address"], value["sizes"],
                    value["byte_strides"], value["box"], value["swizzle"],
                    value["name"])
        params, keep = abi.pack(plan.params, tensor_maps)
        return (plan.grid, plan.block, plan.shared_bytes, params, plan.device,
                (keep, tensor_maps))

    def __call__(self, /, **args) -> None:
        """Launches with the arguments named as in the ABI. A keyword
        `stream` that is no ABI argument is the stream (see launch)."""
        stream = None
        if "stream" in args and not self._stream_is_abi:
            stream = args.pop("stream")
        self.launch(args, stream=stream)

    def launch(self, args: Mapping[str, object], stream=None) -> None:
        """Launches with `args` (ABI name -> tensor or number) on `stream`:
        None (torch's current stream), a torch.cuda.Stream (or any object
        with `cuda_stream`) or an integer CUstream handle."""
        if not isinstance(args, Mapping):
            raise abi.LaunchError(f"launch takes the arguments as a mapping "
                                  f"(ABI name -> value), got {type(args).__name__}")
        args = dict(args)
        key = self._call_key(args)
        if key is not None and self._last is not None and self._last[0] == key:
            prepared = self._last[1]
        else:
            self._last = None
            prepared = self._prepare(args)
            if key is not None:
                self._last = (key, prepared)
        grid, block, shared, params, device, _ = prepared
        handle, stream_device = _stream_handle(stream)
        fn = self._function()
        for what, index in (("the tensors are", device), ("the stream is", stream_device)):
            if index is not None and index != (current := driver.current_device()):
                raise abi.LaunchError(
                    f"{self.name}: {what} on cuda:{index}, but the current device "
                    f"is cuda:{current} (use `with torch.cuda.device({index}):`)")
        if handle is None:
            import torch  # the launcher's only use of torch: its stream
            handle = torch.cuda.current_stream().cuda_stream
        if 0 in grid:
            return  # an empty problem: nothing to launch
        driver.launch(fn, grid, block, shared, handle, params,
                      f"{self.manifest.entry} of {self.name}, grid "
                      f"{list(grid)}, block {list(block)}")


def _stream_handle(stream):
    """(CUstream handle or None for torch's current stream, the stream's
    device index or None)."""
    if stream is None:
        return None, None
    if isinstance(stream, bool):
        raise abi.LaunchError(f"stream: expected a torch.cuda.Stream or an integer "
                              f"CUstream handle, got {stream!r}")
    device = None
    if not isinstance(stream, int):
        try:
            handle = stream.cuda_stream
            device = getattr(getattr(stream, "device", None), "index", None)
        except Exception:
            raise abi.LaunchError(f"stream: expected a torch.cuda.Stream or an "
                                  f"integer CUstream handle, got "
                                  f"{type(stream).__name__}") from None
        stream = handle
    if isinstance(stream, bool) or not isinstance(stream, int) or not 0 <= stream < 2**64:
        raise abi.LaunchError(f"stream: expected a torch.cuda.Stream or an integer "
                              f"CUstream handle, got {stream!r}"[:200])
    if isinstance(device, bool) or not isinstance(device, int):
        device = None
    return stream, device


def load(bundle_dir) -> Kernel:
    """The bundle in folder `bundle_dir` (BundleError if it is not one)."""
    return Kernel(bundle_dir)
