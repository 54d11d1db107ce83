"""Choosing the fastest of several bundles for each problem shape.

    softmax = tile_launcher.autotune(
        [tile_launcher.Config({"ROWS": 4, "BLOCK_N": 1024}, num_warps=4),
         tile_launcher.Config({"ROWS": 1, "BLOCK_N": 4096}, num_warps=8),
         {"ONLINE": True, "ROWS": 1, "BLOCK_N": 4096}],     # params only
        source="kernels/softmax.mlir")
    softmax(X=x, Y=y)          # the first call of a shape times every candidate

Like Triton's @autotune: candidates (bundle folders, loaded Kernels, or
parameter sets compiled through tile_launcher.compile) are timed on the
first call of each key, the fastest is kept and launched for every later
call of that key. The default key is the shape key: each tensor argument's
sizes, dtype and alignment (the largest of 16, 8, 4, 2, 1 bytes its view
meets: a bundle compiled for view-align 16 refuses views that are not
16-byte aligned, so shapes of different alignment may need different
winners). A candidate whose `requires` refuse the problem (Kernel.plan
raises LaunchError), that fails to compile or to launch, is skipped.

The choice is also kept on disk, as JSON under the cache folder
(tile_launcher.compiler.default_cache_dir()/autotune), per candidate set and
device, so a later process launches the winner without timing; files are
replaced atomically. TILE_LAUNCHER_AUTOTUNE_VERBOSE=1 (or verbose=True)
prints every candidate's time and the choice.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import sys
import tempfile
import threading
from typing import Callable, Dict, Iterable, Mapping, Optional, Sequence, Union

from . import compiler
from .abi import LaunchError, largest_alignment, view_of
from .driver import CudaError
from .launch import Kernel
from .manifest import BundleError, Manifest, load_manifest

VERBOSE_ENV = "TILE_LAUNCHER_AUTOTUNE_VERBOSE"
FORMAT = "tile-autotune-1"

# CUresults after which the context is unusable (a fault in a kernel): the
# tuning stops there instead of blaming the next candidates.
_STICKY = {700, 710, 714, 715, 716, 717, 718, 719, 720, 999}

Timer = Callable[[Callable[[], None], float, float], float]


class Config:
    """A candidate compiled from the autotuner's source: like triton.Config,
    the kernel's parameters plus the launch-shaping compile options."""

    def __init__(self, params: Optional[Mapping[str, object]] = None,
                 num_warps: Optional[int] = None, options: Iterable[str] = (),
                 chip: Optional[str] = None, source: Optional[str] = None):
        self.params = dict(params or {})
        self.num_warps = num_warps
        self.options = list(options)
        self.chip = chip
        self.source = source

    def label(self) -> str:
        parts = [",".join(compiler.format_param(k, v) for k, v in sorted(self.params.items()))]
        if self.num_warps is not None:
            parts.append(f"num_warps={self.num_warps}")
        parts += self.options
        if self.chip:
            parts.append(self.chip)
        return " ".join(p for p in parts if p) or "defaults"

    def __repr__(self) -> str:
        return f"Config({self.label()})"


def _hash_files(folder: str, names: Sequence[str]) -> str:
    h = hashlib.sha256()
    for n in names:
        p = os.path.join(folder, n)
        if os.path.isfile(p):
            h.update(n.encode() + b"\0")
            with open(p, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


class _Candidate:
    def __init__(self, spec, tuner: "Autotuner"):
        self.spec = spec
        self.tuner = tuner
        self.kernel: Optional[Kernel] = None
        self.error: Optional[str] = None
        self._id: Optional[str] = None
        if isinstance(spec, Kernel):
            self.kernel = spec
            self.label = spec.name
        elif isinstance(spec, (str, os.PathLike)):
            self.label = os.path.basename(os.path.normpath(os.fspath(spec)))
        else:
            if isinstance(spec, Mapping):
                spec = Config(spec)
            if not isinstance(spec, Config):
                raise TypeError(f"autotune: a candidate is a bundle folder, a Kernel, "
                                f"a dict of params or a Config, not {type(spec).__name__}")
            if not (spec.source or tuner.source):
                raise ValueError(f"autotune: candidate {spec.label()} has parameters "
                                 "to compile: give source=KERNEL.mlir")
            self.spec = spec
            self.label = spec.label()

    def _compile_args(self):
        c: Config = self.spec
        return (c.source or self.tuner.source, c.params, c.num_warps,
                c.chip or self.tuner.chip, list(self.tuner.options) + c.options)

    @property
    def ident(self) -> str:
        """What the candidate's timing depends on: the bundle's files, or
        for a parameter set, the compile cache's key (known without
        compiling)."""
        if self._id is None:
            if isinstance(self.spec, Config):
                source, params, warps, chip, options = self._compile_args()
                kw = self.tuner.compile_kwargs
                self._id = "compile:" + compiler.bundle_key(
                    source, params, warps, chip, options,
                    tile_compile=kw.get("tile_compile"),
                    cache_dir=kw.get("cache_dir", self.tuner.cache_dir))
            else:
                folder = self.kernel.manifest.dir if self.kernel else os.fspath(self.spec)
                self._id = "bundle:" + _hash_files(
                    folder, ["manifest.json", "kernel.ptx", "kernel.cubin"])
        return self._id

    def load(self) -> Kernel:
        if self.kernel is None:
            if isinstance(self.spec, Config):
                source, params, warps, chip, options = self._compile_args()
                kw = dict(self.tuner.compile_kwargs)
                if self.tuner.cache_dir:
                    kw.setdefault("cache_dir", self.tuner.cache_dir)
                self.kernel = compiler.compile(source, params, warps, chip, options, **kw)
            else:
                self.kernel = Kernel(os.fspath(self.spec))
        return self.kernel


def shape_key(args: Mapping[str, object]) -> list:
    """[name, sizes, dtype, alignment] of every tensor argument, by name."""
    out = []
    for name in sorted(args):
        v = args[name]
        if hasattr(v, "data_ptr") and hasattr(v, "stride"):
            view = view_of(name, v)
            out.append([name, view.sizes, view.dtype, largest_alignment(view)])
    return out


def cuda_event_timer(fn: Callable[[], None], warmup: float = 25, rep: float = 100) -> float:
    """The median time (ms) of `fn` by CUDA events on torch's current
    stream, with L2 flushed before each run (as triton.testing.do_bench):
    about `warmup` ms of untimed runs, then about `rep` ms of timed ones."""
    import torch
    fn()
    torch.cuda.synchronize()
    flush = _flush_buffer(torch)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        flush.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end) / 5, 1e-4)
    n_warmup = max(1, int(warmup / estimate))
    n_rep = max(1, min(int(rep / estimate), 10000))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_rep):
        flush.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    mid = len(times) // 2
    return times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2


_flush = {}


def _flush_buffer(torch):
    dev = torch.cuda.current_device()
    if dev not in _flush:
        _flush[dev] = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    return _flush[dev]


def _device_tag() -> str:
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available():
            major, minor = torch.cuda.get_device_capability()
            return f"{torch.cuda.get_device_name()} cc{major}.{minor}"
    except Exception:  # noqa: BLE001
        pass
    try:
        major, minor = compiler.device_capability()
        return f"cc{major}.{minor}"
    except compiler.CompileError:
        return "no-gpu"


def _atomic_write_json(path: str, value) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(value, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Autotuner:
    """Callable like a Kernel (keyword arguments named as in the ABI); see
    the module's documentation."""

    def __init__(self, candidates: Sequence[Union[str, os.PathLike, Kernel, Mapping, Config]],
                 *, source: Optional[str] = None,
                 key: Union[None, Sequence[str], Callable[[Mapping[str, object]], object]] = None,
                 warmup: float = 25, rep: float = 100, chip: Optional[str] = "auto",
                 options: Iterable[str] = (), timer: Optional[Timer] = None,
                 restore: Iterable[str] = (), reset_to_zero: Iterable[str] = (),
                 name: Optional[str] = None,
                 cache: bool = True, cache_dir: Optional[str] = None,
                 device: Optional[str] = None, verbose: Optional[bool] = None,
                 compile_kwargs: Optional[Mapping[str, object]] = None):
        if not candidates:
            raise ValueError("autotune: no candidates")
        self.source = os.fspath(source) if source is not None else None
        self.chip = chip
        self.options = list(options)
        self.compile_kwargs = dict(compile_kwargs or {})
        self.cache_dir = cache_dir
        self.candidates = [_Candidate(c, self) for c in candidates]
        labels = [c.label for c in self.candidates]
        for i, c in enumerate(self.candidates):  # labels name candidates in reports
            if labels.count(c.label) > 1:
                c.label = f"{c.label} #{i}"
        self.key = key
        self.warmup, self.rep = warmup, rep
        self.timer = timer
        self.restore = list(restore)
        self.reset_to_zero = list(reset_to_zero)
        self.cache = cache
        self.device = device
        self._verbose = verbose
        self.name = name or self._default_name()
        self.results: Dict[str, dict] = {}        # key -> best, timings
        self._best: Dict[str, _Candidate] = {}
        self._set_id: Optional[str] = None
        self._last: Optional[tuple] = None  # (call key, kernel) of the last call
        self._lock = threading.RLock()

    def _default_name(self) -> str:
        if self.source:
            return os.path.splitext(os.path.basename(self.source))[0]
        first = self.candidates[0]
        if first.kernel is not None:
            return first.kernel.manifest.kernel
        try:
            return load_manifest(os.fspath(first.spec)).kernel
        except (BundleError, OSError):
            return first.label

    # ---- what a call is keyed by

    def key_of(self, args: Mapping[str, object]) -> str:
        if self.key is None:
            value = shape_key(args)
        elif callable(self.key):
            value = self.key(args)
        else:
            value = []
            for n in self.key:
                if n not in args:
                    raise LaunchError(f"autotune: the key names '{n}', which is not "
                                      "an argument of this call")
                v = args[n]
                value.append([n, shape_key({n: v})[0][1:] if hasattr(v, "data_ptr") else v])
            # Dtypes and alignment of every tensor, as Triton keys on dtypes.
            value.append([[s[0], s[2], s[3]] for s in shape_key(args)])
        try:
            return json.dumps(value, sort_keys=True)
        except TypeError:
            raise TypeError(f"autotune: the key {value!r} is not JSON-serializable") from None

    @property
    def verbose(self) -> bool:
        if self._verbose is not None:
            return self._verbose
        return any(os.environ.get(v, "") not in ("", "0")
                   for v in (VERBOSE_ENV, compiler.VERBOSE_ENV))

    @staticmethod
    def describe(key: str) -> str:
        """A shape key as 'Q f16[2, 4, 256, 64] a16, ...' (other keys as
        they are)."""
        try:
            value = json.loads(key)
            return ", ".join(f"{n} {dt}{list(sizes)} a{align}" for n, sizes, dt, align in value)
        except (ValueError, TypeError):
            return key

    def _log(self, message: str) -> None:
        if self.verbose:
            print(f"[autotune {self.name}] {message}", file=sys.stderr, flush=True)

    # ---- the on-disk cache

    def _device(self) -> str:
        if self.device is None:
            self.device = _device_tag()
        return self.device

    def cache_file(self) -> str:
        if self._set_id is None:
            h = hashlib.sha256()
            for c in self.candidates:
                h.update(c.ident.encode() + b"\0")
            self._set_id = h.hexdigest()
        folder = os.path.join(self.cache_dir or compiler.default_cache_dir(), "autotune")
        stem = re.sub(r"[^A-Za-z0-9_-]", "_", self.name)[:40]
        return os.path.join(folder, f"{stem}-{self._set_id[:24]}.json")

    def _read_cache(self) -> dict:
        try:
            with open(self.cache_file()) as f:
                data = json.load(f)
            if isinstance(data, dict) and data.get("format") == FORMAT \
                    and isinstance(data.get("entries"), dict):
                return data
        except (OSError, ValueError):
            pass
        return {"format": FORMAT, "name": self.name,
                "candidates": [{"label": c.label, "id": c.ident} for c in self.candidates],
                "entries": {}}

    def _disk_key(self, key: str) -> str:
        return json.dumps([self._device(), json.loads(key)])

    def _lookup_disk(self, key: str) -> Optional[_Candidate]:
        entry = self._read_cache()["entries"].get(self._disk_key(key))
        if not isinstance(entry, dict):
            return None
        for c in self.candidates:
            if c.ident == entry.get("best"):
                self.results[key] = entry
                return c
        return None

    def _store_disk(self, key: str, entry: dict) -> None:
        data = self._read_cache()  # again: another process may have added keys
        data["entries"][self._disk_key(key)] = entry
        try:
            _atomic_write_json(self.cache_file(), data)
        except OSError as e:
            self._log(f"could not write the cache {self.cache_file()}: {e}")

    # ---- choosing

    def best(self, **args) -> Kernel:
        """The chosen kernel for these arguments (timing the candidates on
        the first call of their key)."""
        key = self.key_of(args)
        with self._lock:
            chosen = self._best.get(key)
            if chosen is None and self.cache:
                chosen = self._lookup_disk(key)
                if chosen is not None:
                    self._log(f"{self.describe(key)}: {chosen.label} (from {self.cache_file()})")
            if chosen is None:
                chosen = self._tune(key, args)
            self._best[key] = chosen
            return chosen.load()

    def _tune(self, key: str, args: Mapping[str, object]) -> _Candidate:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available() \
                and torch.cuda.is_current_stream_capturing():
            raise RuntimeError(
                f"autotune {self.name}: {self.describe(key)} has not been tuned yet and a "
                "CUDA graph is being captured; call it once with these shapes "
                "before capturing")
        timer = self.timer or cuda_event_timer
        saved = {}
        for n in self.restore:
            if n not in args:
                raise LaunchError(f"autotune: restore names '{n}', which is not an "
                                  "argument of this call")
            saved[n] = args[n].clone()
        for n in self.reset_to_zero:
            if n not in args:
                raise LaunchError(f"autotune: reset_to_zero names '{n}', which is not "
                                  "an argument of this call")
        timings: Dict[str, object] = {}
        best: Optional[_Candidate] = None
        best_ms = float("inf")
        self._log(f"tuning {self.describe(key)} over {len(self.candidates)} candidates")
        for c in self.candidates:
            try:
                kernel = c.load()
            except (compiler.CompileError, BundleError, OSError) as e:
                what = "not compiled" if isinstance(e, compiler.CompileError) else "not loaded"
                timings[c.label] = f"{what}: {e}"
                self._log(f"  {c.label}: {timings[c.label]}")
                continue
            try:
                kernel.plan(**args)
            except (LaunchError, BundleError) as e:
                timings[c.label] = f"does not fit: {e}"
                self._log(f"  {c.label}: {timings[c.label]}")
                continue
            def run(kernel=kernel):
                for n in self.reset_to_zero:  # as Triton's: inside the timed call
                    args[n].zero_()
                kernel(**args)
            try:
                ms = float(timer(run, self.warmup, self.rep))
            except (LaunchError, BundleError, CudaError) as e:
                if isinstance(e, CudaError) and e.code in _STICKY:
                    raise
                timings[c.label] = f"failed: {type(e).__name__}: {e}"
                self._log(f"  {c.label}: {timings[c.label]}")
                continue
            finally:
                for n, t in saved.items():
                    args[n].copy_(t)
            timings[c.label] = ms
            self._log(f"  {c.label}: {ms:.4f} ms")
            if ms < best_ms:
                best, best_ms = c, ms
        if best is None:
            reasons = "\n".join(f"  {label}: {why}" for label, why in timings.items())
            raise LaunchError(f"autotune {self.name}: no candidate runs this call "
                              f"({self.describe(key)}):\n{reasons}")
        entry = {"best": best.ident, "best_label": best.label, "ms": best_ms,
                 "timings": timings,
                 "when": datetime.datetime.now(datetime.timezone.utc).isoformat(
                     timespec="seconds")}
        self.results[key] = entry
        self._log(f"best for {self.describe(key)}: {best.label} ({best_ms:.4f} ms)")
        if self.cache:
            self._store_disk(key, entry)
        return best

    # ---- launching

    @staticmethod
    def _call_key(args) -> tuple:
        """What a call's choice depends on, cheaply (the same tensors and
        scalars as the call before need no key)."""
        key = []
        for name in sorted(args):
            v = args[name]
            if hasattr(v, "data_ptr"):
                key.append((name, v.data_ptr(), tuple(v.shape), tuple(v.stride()),
                            str(v.dtype)))
            else:
                key.append((name, type(v).__name__, v))
        return tuple(key)

    def __call__(self, stream: Optional[int] = None, **args) -> None:
        call = self._call_key(args)
        last = self._last
        if last is not None and last[0] == call:
            kernel = last[1]
        else:
            kernel = self.best(**args)
            self._last = (call, kernel)
        kernel(stream=stream, **args)

    def plan(self, **args):
        return self.best(**args).plan(**args)

    @property
    def manifest(self) -> Manifest:
        """The manifest of the first candidate that loads (the candidates
        share their ABI): what register_op reads its arguments from."""
        errors = []
        for c in self.candidates:
            try:
                return c.load().manifest
            except (compiler.CompileError, BundleError, OSError) as e:
                errors.append(f"{c.label}: {e}")
        raise BundleError(f"autotune {self.name}: no candidate loads:\n" + "\n".join(errors))


def autotune(candidates=None, key=None, warmup: float = 25, rep: float = 100, *,
             configs=None, **kwargs) -> Autotuner:
    """An Autotuner over `candidates` (or Triton's spelling, `configs=`):
    bundle folders, Kernels, dicts of parameters or Configs (compiled from
    `source=`)."""
    if configs is not None:
        if candidates is not None:
            raise ValueError("autotune: give candidates or configs, not both")
        candidates = configs
    return Autotuner(candidates or [], key=key, warmup=warmup, rep=rep, **kwargs)
