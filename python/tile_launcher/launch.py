"""Launching a bundle on PyTorch tensors.

    import tile_launcher
    softmax = tile_launcher.load("build/bundles/softmax-f16")
    softmax(X=x, Y=y)                     # on torch's current stream

The module is loaded once per CUDA context (the cubin when its target is
this device's exact architecture, else the PTX, JIT-compiled by the driver);
every call is checked against the manifest (abi.bind) before the launch;
a call with the same arguments as the one before (the same tensors: address,
shape, strides, dtype; the same scalars) reuses that check and its packed
parameters, so that timing a kernel in a loop times the kernel, not the
host's planning.
"""

from __future__ import annotations

import os
from typing import Dict, Optional

from . import abi, driver
from .manifest import BundleError, Manifest, load_manifest


def _target_runs_on(target: str, major: int, minor: int, exact: bool) -> bool:
    digits = target[3:].rstrip("af")
    if not target.startswith("sm_") or not digits.isdigit():
        return False
    t_major, t_minor = int(digits[:-1]), int(digits[-1])
    if exact or target.endswith("a"):
        return (t_major, t_minor) == (major, minor)
    return (major, minor) >= (t_major, t_minor)


class Kernel:
    """One bundle, launchable by keyword arguments named as in its ABI."""

    def __init__(self, bundle_dir: str):
        self.manifest: Manifest = load_manifest(bundle_dir)
        self._loaded: Dict[int, tuple] = {}  # context -> (module, function)
        self._last: Optional[tuple] = None  # (key, launch arguments, keep)

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
        if not _target_runs_on(m.target, major, minor, exact=False):
            raise BundleError(f"{m.name}: PTX for {m.target} does not run on "
                              f"compute capability {major}.{minor}")
        use_cubin = m.cubin and _target_runs_on(m.target, major, minor, exact=True)
        path = os.path.join(m.dir, m.cubin if use_cubin else m.ptx)
        with open(path, "rb") as f:
            image = f.read()
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

    def registers(self) -> int:
        return driver.function_attribute(self._function(), driver.CU_FUNC_ATTRIBUTE_NUM_REGS)

    def spill_bytes(self) -> int:
        return driver.function_attribute(self._function(),
                                         driver.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)

    def plan(self, **args) -> abi.Plan:
        """Checks a call without launching it (no GPU needed)."""
        return abi.bind(self.manifest, args)

    @staticmethod
    def _call_key(args) -> tuple:
        """What a call's check and packed parameters depend on."""
        key = []
        for name in sorted(args):
            v = args[name]
            if hasattr(v, "data_ptr"):
                key.append((name, v.data_ptr(), tuple(v.shape), tuple(v.stride()),
                            str(v.dtype), getattr(v, "is_cuda", True)))
            else:
                key.append((name, type(v).__name__, v))
        return tuple(key)

    def _prepare(self, args) -> tuple:
        """Checks the call and packs its parameters: (grid, block, shared
        bytes, params, the objects params point into)."""
        plan = self.plan(**args)
        for name, view in plan.views.items():
            tensor = args[name]
            if getattr(tensor, "is_cuda", True) is False:
                raise abi.LaunchError(f"argument '{name}' is not on the GPU")
        tensor_maps = {}
        for kind, value in plan.params:
            if kind == "tensor_map":
                tensor_maps[value["name"]] = driver.TensorMap(
                    value["dtype"], value["address"], value["sizes"],
                    value["byte_strides"], value["box"], value["swizzle"],
                    value["name"])
        params, keep = abi.pack(plan.params, tensor_maps)
        return plan.grid, plan.block, plan.shared_bytes, params, (keep, tensor_maps)

    def __call__(self, stream: Optional[int] = None, **args) -> None:
        key = self._call_key(args)
        if self._last is not None and self._last[0] == key:
            grid, block, shared, params, _ = self._last[1]
        else:
            self._last = None
            prepared = self._prepare(args)
            self._last = (key, prepared)
            grid, block, shared, params, _ = prepared
        fn = self._function()
        if stream is None:
            import torch  # the launcher's only use of torch: its stream
            stream = torch.cuda.current_stream().cuda_stream
        if 0 in grid:
            return  # an empty problem: nothing to launch
        driver.launch(fn, grid, block, shared, stream, params,
                      f"{self.manifest.entry} of {self.name}, grid "
                      f"{list(grid)}, block {list(block)}")


def load(bundle_dir: str) -> Kernel:
    return Kernel(bundle_dir)
