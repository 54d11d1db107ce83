"""Flash attention from the tile kernels, differentiable (torch.autograd).

    import tile_launcher
    out = tile_launcher.attention(q, k, v, causal=True,
                                  bundles="build/bundles/backward")
    out.sum().backward()          # q.grad, k.grad, v.grad

q is (B, H, Sq, D), k and v (B, H_kv, Sk, D) as for
torch.nn.functional.scaled_dot_product_attention; H a multiple of H_kv
(GQA and MQA by the head counts, SDPA's enable_gqa); fp16 or bf16; the
softmax scale defaults to 1 / sqrt(D). `causal` masks as SDPA's is_causal
(top-left: query i sees keys 0..i); `causal_alignment="bottom-right"` aligns
the last query with the last key instead (query i sees keys up to
i + Sk - Sq, the KV-cache convention; FlashAttention's). A query row that
sees no key gives 0 and no gradient (SDPA gives NaN there).

The forward is kernels/fmha.mlir with WITH_LSE=true (it saves the row
log-sum-exp, in the exp2 domain); the backward is the three kernels
kernels/fmha_backward_preprocess.mlir (Delta = rowsum(dO * O), the f32 dQ
accumulator zeroed), fmha_backward.mlir (dK, dV, and dQ added into the
accumulator) and fmha_backward_postprocess.mlir (dQ scaled, converted).
A main kernel compiled with DQ_TRANSPOSED = true (the two-warpgroup
variant) adds dQ^T into a [B, H, D, Sq] accumulator; the pre- and
postprocess bundles with the same DQ_TRANSPOSED go with it.

Bundles: `bundles` is a folder (or a BundleSet) holding bundles of those
four kernels, one sub-folder each, as `bench/compile_bundles.sh OUT
backward` makes them; without it, the folder in the environment variable
TILE_ATTENTION_BUNDLES. For each call the bundle is chosen by its
parameters (the manifest's `params`): HEAD_DIM, DTYPE, CAUSAL,
QUERY_GROUP_SIZE, WITH_LSE (the forward), and EVEN_K = true where the key
length is a multiple of the bundle's TILE_N (else a EVEN_K = false one);
among bundles for other GPUs, those whose PTX runs on this one. A call no
bundle covers is refused with an AttentionError that names what is
missing; so are inputs the kernels do not support (other dtypes, ranks,
head dimensions that differ between q, k and v, attention masks, dropout:
this function has no such arguments).
"""

from __future__ import annotations

import math
import os
from typing import Callable, Dict, List, Optional, Tuple

from . import target as targets
from .abi import LaunchError
from .manifest import BundleError, Manifest, load_manifest

ENV_VAR = "TILE_ATTENTION_BUNDLES"
FORWARD = "fmha"
PREPROCESS = "fmha_backward_preprocess"
MAIN = "fmha_backward"
POSTPROCESS = "fmha_backward_postprocess"
KERNELS = (FORWARD, PREPROCESS, MAIN, POSTPROCESS)
_DTYPES = {"torch.float16": "f16", "torch.bfloat16": "bf16"}
# Parameters that bundles compiled before they existed lack: their value.
_PARAM_DEFAULTS = {"DQ_TRANSPOSED": False}


class AttentionError(LaunchError):
    """An attention call the kernels or the bundles at hand do not cover."""


class BundleSet:
    """The attention bundles of one folder, chosen by their parameters.

    `loader` makes a launchable kernel of a bundle folder (default:
    tile_launcher.load); `device` is the (major, minor) compute capability
    to choose for (default: torch's current device when CUDA is there,
    else no preference)."""

    def __init__(self, directory: str, loader: Optional[Callable] = None,
                 device: Optional[Tuple[int, int]] = None):
        if not isinstance(directory, (str, os.PathLike)):
            raise AttentionError(f"attention bundles: expected a folder path, got "
                                 f"{type(directory).__name__}")
        self.directory = os.fspath(directory)
        if not os.path.isdir(self.directory):
            raise AttentionError(f"attention bundles: '{self.directory}' is not a folder "
                                 f"(make one with bench/compile_bundles.sh OUT backward)")
        if loader is None:
            from .launch import load as loader
        self._loader = loader
        self._device = device
        self._kernels: Dict[str, object] = {}
        self._chosen: Dict[tuple, Manifest] = {}
        self.manifests: Dict[str, List[Manifest]] = {k: [] for k in KERNELS}
        folders = [self.directory] + sorted(
            os.path.join(self.directory, d) for d in os.listdir(self.directory))
        for folder in folders:
            if not os.path.isfile(os.path.join(folder, "manifest.json")):
                continue
            m = load_manifest(folder)  # a damaged bundle: BundleError, named
            if m.kernel in self.manifests:
                self.manifests[m.kernel].append(m)
        if not any(self.manifests.values()):
            raise AttentionError(f"attention bundles: '{self.directory}' holds no bundle "
                                 f"of {', '.join(KERNELS)}")

    def device(self) -> Optional[Tuple[int, int]]:
        if self._device is None:
            try:
                import torch
                if torch.cuda.is_available():
                    self._device = torch.cuda.get_device_capability()
            except ImportError:
                pass
        return self._device

    def select(self, kernel: str, want: Dict[str, object],
               key_length: Optional[int] = None) -> Manifest:
        """The bundle of `kernel` whose params have the values `want`; with
        `key_length`, EVEN_K = true if the length allows it (a multiple of
        the bundle's TILE_N), else EVEN_K = false."""
        key = (kernel, tuple(sorted(want.items())), key_length)
        if key not in self._chosen:
            self._chosen[key] = self._select(kernel, want, key_length)
        return self._chosen[key]

    def _select(self, kernel: str, want: Dict[str, object],
                key_length: Optional[int]) -> Manifest:
        # Parameters not asked for keep their defaults: a sliding-window or
        # soft-capped bundle never stands in for plain attention.
        plain = {k: v for k, v in _PLAIN.items() if k not in want}
        found = [m for m in self.manifests[kernel]
                 if all(m.params.get(k, _PARAM_DEFAULTS.get(k)) == v
                        for k, v in want.items())
                 and all(m.params.get(k, v) == v for k, v in plain.items())]
        if key_length is not None:
            def even_ok(m):
                tile_n = m.params.get("TILE_N")
                return (m.params.get("EVEN_K") is False or
                        (isinstance(tile_n, int) and tile_n > 0 and
                         key_length % tile_n == 0))
            found = [m for m in found if even_ok(m)]
        device = self.device()
        if device is not None:
            runs = [m for m in found
                    if (t := targets.parse(m.target)) and targets.ptx_runs_on(t, *device)]
            exact = [m for m in runs
                     if (t := targets.parse(m.target)) and targets.cubin_runs_on(t, *device)]
            found = exact or runs
        if not found:
            need = ", ".join(f"{k}={_text(v)}" for k, v in want.items())
            if key_length is not None:
                need += f", EVEN_K=false (or true with TILE_N dividing {key_length})"
            have = sorted({", ".join(f"{k}={_text(v)}" for k, v in sorted(m.params.items()))
                           + f" [{m.target}]" for m in self.manifests[kernel]})
            where = (f" for compute capability {device[0]}.{device[1]}"
                     if device is not None else "")
            raise AttentionError(
                f"attention: no {kernel} bundle with {need}{where} in '{self.directory}'"
                + (f"; it has: {'; '.join(have[:8])}" + (" ..." if len(have) > 8 else "")
                   if have else f"; it has no {kernel} bundle")
                + " (bench/compile_bundles.sh OUT backward compiles the supported set)")
        # Prefer EVEN_K = true (no masked tail), then the folder order.
        found.sort(key=lambda m: m.params.get("EVEN_K") is not True)
        return found[0]

    def kernel(self, manifest: Manifest):
        k = self._kernels.get(manifest.dir)
        if k is None:
            k = self._kernels[manifest.dir] = self._loader(manifest.dir)
        return k


# fmha's and fmha_backward's parameters whose defaults mean plain attention.
_PLAIN = {"WINDOW_LEFT": -1, "WINDOW_RIGHT": -1, "SOFTCAP": 0}


def _text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_SETS: Dict[str, BundleSet] = {}


def bundle_set(bundles=None) -> BundleSet:
    """`bundles` as a BundleSet: itself, a folder (cached by path), or None
    for the folder in TILE_ATTENTION_BUNDLES."""
    if isinstance(bundles, BundleSet):
        return bundles
    if bundles is None:
        bundles = os.environ.get(ENV_VAR)
        if not bundles:
            raise AttentionError(
                f"attention: no bundles: pass bundles=FOLDER or set {ENV_VAR} to a "
                "folder of attention bundles (bench/compile_bundles.sh OUT backward)")
    if not isinstance(bundles, (str, os.PathLike)):
        raise AttentionError(f"attention: bundles must be a folder path or a BundleSet, "
                             f"got {type(bundles).__name__}")
    path = os.path.abspath(os.fspath(bundles))
    if path not in _SETS:
        _SETS[path] = BundleSet(path)
    return _SETS[path]


class Plan:
    """The four kernels and scalars of one attention problem."""

    def __init__(self, bundles: BundleSet, dtype: str, head_dim: int, group: int,
                 causal: bool, key_length: int):
        common = {"HEAD_DIM": head_dim, "DTYPE": dtype}
        self.forward = bundles.select(
            FORWARD, dict(common, CAUSAL=causal, QUERY_GROUP_SIZE=group, WITH_LSE=True),
            key_length)
        self.main = bundles.select(
            MAIN, dict(common, CAUSAL=causal, QUERY_GROUP_SIZE=group, DQ_TRANSPOSED=False),
            key_length)
        self._common = common
        self.bundles = bundles

    # The pre- and postprocess follow the main kernel's dQ accumulator
    # layout (a caller may set `main` to a variant after construction).
    @property
    def dq_transposed(self) -> bool:
        return bool(self.main.params.get("DQ_TRANSPOSED", False))

    @property
    def pre(self) -> Manifest:
        return self.bundles.select(
            PREPROCESS, dict(self._common, DQ_TRANSPOSED=self.dq_transposed))

    @property
    def post(self) -> Manifest:
        return self.bundles.select(
            POSTPROCESS, dict(self._common, DQ_TRANSPOSED=self.dq_transposed))

    def dq_acc_shape(self, B: int, H: int, Sq: int, D: int) -> Tuple[int, ...]:
        """The f32 dQ accumulator: [B, H, Sq, D], or [B, H, D, Sq] for a
        DQ_TRANSPOSED main kernel."""
        return (B, H, D, Sq) if self.dq_transposed else (B, H, Sq, D)

    def run_forward(self, torch, q, k, v, scale: float, input_pos: int):
        B, H, Sq, D = q.shape
        out = torch.empty_like(q)
        lse = torch.empty((B, H, Sq), dtype=torch.float32, device=q.device)
        self.bundles.kernel(self.forward)(Q=q, K=k, V=v, Out=out, Lse=lse,
                                          qk_scale=scale, input_pos=input_pos)
        return out, lse

    def run_backward(self, torch, q, k, v, out, lse, dout, scale: float,
                     input_pos: int):
        B, H, Sq, D = q.shape
        f32 = dict(dtype=torch.float32, device=q.device)
        delta = torch.empty((B, H, Sq), **f32)
        dq_acc = torch.empty(self.dq_acc_shape(B, H, Sq, D), **f32)
        self.bundles.kernel(self.pre)(Out=out, dO=dout, Delta=delta, DQacc=dq_acc)
        dk = torch.empty_like(k)
        dv = torch.empty_like(v)
        self.bundles.kernel(self.main)(Q=q, K=k, V=v, dO=dout, Lse=lse, Delta=delta,
                                       DQacc=dq_acc, dK=dk, dV=dv, qk_scale=scale,
                                       input_pos=input_pos)
        dq = torch.empty_like(q)
        self.bundles.kernel(self.post)(DQacc=dq_acc, dQ=dq, qk_scale=scale)
        return dq, dk, dv


def _aligned(torch, t):
    """`t` contiguous and 16-byte aligned (the bundles' view alignment)."""
    t = t.contiguous()
    if t.data_ptr() % 16:
        t = t.clone()
    return t


_FUNCTIONS: Dict[bool, object] = {}


def _function(empty: bool = False):
    """The torch.autograd.Function (made on first use: torch is imported
    only when attention is called); `empty`: the one for problems without
    a query or a key."""
    if empty in _FUNCTIONS:
        return _FUNCTIONS[empty]
    import torch

    class EmptyAttention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v):
            ctx.save_for_backward(q, k, v)
            return torch.zeros_like(q)

        @staticmethod
        def backward(ctx, dout):
            return tuple(torch.zeros_like(t) for t in ctx.saved_tensors)

    class TileAttention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, plan, scale, input_pos):
            out, lse = plan.run_forward(torch, q, k, v, scale, input_pos)
            ctx.save_for_backward(q, k, v, out, lse)
            ctx.plan, ctx.scale, ctx.input_pos = plan, scale, input_pos
            return out

        @staticmethod
        def backward(ctx, dout):
            q, k, v, out, lse = ctx.saved_tensors
            dout = _aligned(torch, dout)
            dq, dk, dv = ctx.plan.run_backward(torch, q, k, v, out, lse, dout,
                                               ctx.scale, ctx.input_pos)
            return dq, dk, dv, None, None, None

    _FUNCTIONS[False], _FUNCTIONS[True] = TileAttention, EmptyAttention
    return _FUNCTIONS[empty]


def attention(q, k, v, causal: bool = False, scale: Optional[float] = None, *,
              causal_alignment: str = "top-left", bundles=None):
    """softmax(q k^T * scale [+ causal mask]) v, differentiable in q, k, v
    (see the module's documentation)."""
    import torch

    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise AttentionError(f"attention: {name} must be a torch.Tensor, got "
                                 f"{type(t).__name__}")
        if t.dim() != 4:
            raise AttentionError(f"attention: {name} must be 4-D (batch, heads, sequence, "
                                 f"head_dim), got shape {tuple(t.shape)}")
        if str(t.dtype) not in _DTYPES:
            raise AttentionError(f"attention: {name} is {t.dtype}; the kernels take "
                                 "torch.float16 or torch.bfloat16")
    if not (q.dtype == k.dtype == v.dtype):
        raise AttentionError(f"attention: q, k and v must have one dtype, got {q.dtype}, "
                             f"{k.dtype}, {v.dtype}")
    if not (q.device == k.device == v.device):
        raise AttentionError(f"attention: q, k and v must be on one device, got "
                             f"{q.device}, {k.device}, {v.device}")
    B, H, Sq, D = q.shape
    if k.shape != v.shape:
        raise AttentionError(f"attention: k and v must have one shape, got "
                             f"{tuple(k.shape)} and {tuple(v.shape)} (a value head "
                             "dimension other than the key's is not supported)")
    Bk, Hk, Sk, Dk = k.shape
    if Bk != B:
        raise AttentionError(f"attention: q has batch {B}, k and v {Bk}")
    if Dk != D:
        raise AttentionError(f"attention: q has head dimension {D}, k and v {Dk}")
    if Hk == 0 or H % Hk:
        raise AttentionError(f"attention: the query heads ({H}) must be a multiple of "
                             f"the key/value heads ({Hk})")
    if not isinstance(causal, bool):
        raise AttentionError(f"attention: causal must be a bool, got {causal!r}")
    if causal_alignment not in ("top-left", "bottom-right"):
        raise AttentionError(f"attention: causal_alignment must be 'top-left' or "
                             f"'bottom-right', got {causal_alignment!r}")
    if scale is None:
        scale = 1.0 / math.sqrt(D)
    scale = float(scale)
    if not math.isfinite(scale):
        raise AttentionError(f"attention: scale must be finite, got {scale}")
    input_pos = Sk - Sq if causal and causal_alignment == "bottom-right" else 0

    if q.numel() == 0 or k.numel() == 0:
        # No query or no key: rows that see no key are 0, and so are the
        # gradients (zeros, not None, as for any other call).
        return _function(empty=True).apply(q, k, v)

    plan = Plan(bundle_set(bundles), _DTYPES[str(q.dtype)], D, H // Hk, causal, Sk)
    q, k, v = (_aligned(torch, t) for t in (q, k, v))
    return _function().apply(q, k, v, plan, scale, input_pos)
