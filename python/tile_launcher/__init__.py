"""tile_launcher: run tile-compiler bundles on PyTorch tensors (python/README.md)."""

from .abi import LaunchError, Plan, largest_alignment, view_of
from .driver import CudaError
from .expr import ExprError, analyze, evaluate
from .launch import Kernel, load
from .manifest import BundleError, Manifest, load_manifest

__all__ = ["BundleError", "CudaError", "ExprError", "Kernel", "LaunchError", "analyze",
           "Manifest", "Plan", "evaluate", "largest_alignment", "load",
           "load_manifest", "view_of"]

# Compiling from Python, autotuning, custom ops (torch is imported only when used).
from .compiler import CompileError, CompilerNotFoundError, compile  # noqa: E402,A004
from .autotune import Autotuner, Config, autotune  # noqa: E402
from .torch_ops import register_op  # noqa: E402

__all__ += ["CompileError", "CompilerNotFoundError", "compile", "Autotuner", "Config",
            "autotune", "register_op"]

# Flash attention with its backward, as a torch.autograd.Function.
from .attention import AttentionError, BundleSet, attention  # noqa: E402

__all__ += ["AttentionError", "BundleSet", "attention"]
