"""tile_launcher: run tile-compiler bundles on PyTorch tensors (python/README.md)."""

from .abi import LaunchError, Plan, largest_alignment, view_of
from .driver import CudaError
from .expr import ExprError, analyze, evaluate
from .launch import Kernel, load
from .manifest import BundleError, Manifest, load_manifest

__all__ = ["BundleError", "CudaError", "ExprError", "Kernel", "LaunchError", "analyze",
           "Manifest", "Plan", "evaluate", "largest_alignment", "load",
           "load_manifest", "view_of"]
