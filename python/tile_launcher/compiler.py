"""Compiling kernel sources into bundles from Python, through tile-compile,
with an on-disk cache.

    import tile_launcher
    softmax = tile_launcher.compile("kernels/softmax.mlir",
                                    params={"ROWS": 4, "BLOCK_N": 1024},
                                    num_warps=4, chip="auto")
    softmax(X=x, Y=y)

`tile-compile` (the C++ tool, tools/tile-compile) is found through the
`tile_compile` argument, the TILE_COMPILE environment variable, PATH, or the
`build/bin` of the repository this package sits in. A compiled bundle is
kept under the cache folder (TILE_LAUNCHER_CACHE_DIR, else
$XDG_CACHE_HOME/tile_launcher, else ~/.cache/tile_launcher), named by a key
over everything its contents depend on: the source's text and path, the
parameters, the warps, the chip, the other options, and the compiler (its
`--version` banner and a hash of its binary: the banner is LLVM's and says
nothing of the tile compiler's own changes) and the ptxas it finds. A bundle
is written into a temporary folder next to its final place and renamed
there, so a bundle in the cache is always whole; two processes compiling
the same key both succeed (the second rename loses and that process uses
the winner's bundle).

Without tile-compile (the GPU machine has no MLIR), compile() uses a bundle
in the cache compiled from the same source text, params, warps, chip and
options by any compiler at any path: compile on the build machine with an
explicit chip, carry the cache folder, and the same compile() calls load
those bundles on the GPU machine.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .launch import Kernel
from .manifest import BundleError, load_manifest

CACHE_ENV = "TILE_LAUNCHER_CACHE_DIR"
COMPILER_ENV = "TILE_COMPILE"
VERBOSE_ENV = "TILE_LAUNCHER_VERBOSE"
KEY_FORMAT = 1  # bump when the key's recipe changes

# The chips tile-compile accepts (tilegpu::getUnsupportedChipReason) as
# (compute capability, chip); chip="auto" takes the newest one that runs on
# the device, and the architecture-specific sm_90a on exactly 9.0 (wgmma,
# TMA, setmaxnreg need it).
SUPPORTED_CHIPS: Tuple[Tuple[Tuple[int, int], str], ...] = (
    ((8, 0), "sm_80"), ((8, 6), "sm_86"), ((8, 7), "sm_87"), ((8, 9), "sm_89"),
    ((9, 0), "sm_90"), ((10, 0), "sm_100"), ((12, 0), "sm_120"))
CHIP_NAMES = ("sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120")

# Options compile() sets itself: giving them in `options` is an error.
_OWN_OPTIONS = {"-o": "the cache chooses the bundle folder",
                "--emit": "compile() makes bundles",
                "--print-pipeline": "compile() makes bundles",
                "--params": "give params={...}", "--bind": "give params={...}",
                "--chip": "give chip=...", "--num-warps": "give num_warps=...",
                "--stop-after": "compile() makes bundles"}

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VALUE = re.compile(r"^[A-Za-z0-9_.+-]+$")


class CompileError(RuntimeError):
    """tile-compile failed, or could not be run; `stderr` holds its
    diagnostics (located in the kernel source), `command` the command."""

    def __init__(self, message: str, stderr: str = "", command: Sequence[str] = (),
                 returncode: Optional[int] = None):
        super().__init__(message)
        self.stderr, self.command, self.returncode = stderr, list(command), returncode


class CompilerNotFoundError(CompileError, FileNotFoundError):
    """No tile-compile: prebuilt bundles still load with tile_launcher.load."""


def _verbose(flag: Optional[bool]) -> bool:
    if flag is not None:
        return flag
    return os.environ.get(VERBOSE_ENV, "") not in ("", "0")


def _log(message: str) -> None:
    print(f"[tile_launcher] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Finding tile-compile and what identifies it

def _repo_build_bin() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(os.path.dirname(here)), "build", "bin",
                        "tile-compile")


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_tile_compile(path: Optional[str] = None) -> str:
    """The tile-compile to run: `path`, else $TILE_COMPILE, else PATH, else
    the build/bin of this repository. Raises CompilerNotFoundError saying
    how to get one."""
    for given, what in ((path, "the tile_compile argument"),
                        (os.environ.get(COMPILER_ENV), f"${COMPILER_ENV}")):
        if given:
            found = given if os.sep in given else shutil.which(given)
            if found and _executable(found):
                return os.path.abspath(found)
            raise CompilerNotFoundError(
                f"{what} names '{given}', which is not an executable file")
    found = shutil.which("tile-compile")
    if found:
        return os.path.abspath(found)
    local = _repo_build_bin()
    if _executable(local):
        return local
    raise CompilerNotFoundError(
        "tile-compile was not found (looked at the tile_compile argument, "
        f"${COMPILER_ENV}, PATH and {local}). Build it in the repository with "
        "`make build` (it lands in build/bin/tile-compile; the LLVM/MLIR "
        "packages it needs are in README.md), then pass tile_compile=PATH or "
        f"set {COMPILER_ENV}. Prebuilt bundles load without it: "
        "tile_launcher.load(BUNDLE_DIR).")


_identity_memo: Dict[tuple, str] = {}
_memo_lock = threading.Lock()


def _file_identity(path: str) -> str:
    """sha256 of a file, memoized in this process by its inode, size and
    modification time."""
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_ino, st.st_size, st.st_mtime_ns)
    with _memo_lock:
        if key in _identity_memo:
            return _identity_memo[key]
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    digest = h.hexdigest()
    with _memo_lock:
        _identity_memo[key] = digest
    return digest


_version_memo: Dict[tuple, str] = {}


def compiler_version(exe: str) -> str:
    """What identifies a tile-compile build: its `--version` output (the
    banner of llvm::cl, e.g. 'LLVM (http://llvm.org/): LLVM version 22.1.8
    Optimized build.', 'Debian LLVM version ...' from a vendor's LLVM;
    tile-compile registers no version printer of its own) and the sha256 of
    the binary, which changes with every rebuild of the tile compiler."""
    st = os.stat(exe)
    memo = (os.path.realpath(exe), st.st_ino, st.st_size, st.st_mtime_ns)
    with _memo_lock:
        if memo in _version_memo:
            return _version_memo[memo]
    try:
        run = subprocess.run([exe, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CompileError(f"cannot run '{exe} --version': {e}") from None
    banner = " ".join(run.stdout.decode(errors="replace").split())
    if run.returncode != 0:
        raise CompileError(f"'{exe} --version' failed (exit status "
                           f"{run.returncode}): {banner}", banner,
                           [exe, "--version"], run.returncode)
    version = f"{banner} | sha256 {_file_identity(exe)}"
    with _memo_lock:
        _version_memo[memo] = version
    return version


def _ptxas_identity(options: Sequence[str]) -> str:
    """The ptxas tile-compile would use (its --ptxas, $CUDA_HOME/bin,
    /usr/local/cuda/bin, PATH: findPtxas in tile-compile.cpp), by path, size
    and modification time: the cubin depends on it."""
    if "--no-cubin" in options:
        return "no-cubin"
    path = ""
    for i, opt in enumerate(options):
        if opt.startswith("--ptxas="):
            path = opt.split("=", 1)[1]
        elif opt == "--ptxas" and i + 1 < len(options):
            path = options[i + 1]
    candidates = [path] if path else (
        ([os.path.join(os.environ["CUDA_HOME"], "bin", "ptxas")]
         if os.environ.get("CUDA_HOME") else [])
        + ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""])
    for c in candidates:
        if c and _executable(c):
            st = os.stat(c)
            return f"{os.path.realpath(c)} {st.st_size} {st.st_mtime_ns}"
    return "none"


# --------------------------------------------------------------------------
# chip="auto"

def chip_for_capability(major: int, minor: int) -> str:
    """The chip to compile for on a device of compute capability
    major.minor: sm_90a on 9.0, else the newest supported chip whose PTX
    runs there (sm_80 for 8.0, sm_86 for 8.6 and 8.8, sm_89 for 8.9,
    sm_100 for 10.x and 11.x, sm_120 for 12.x)."""
    if (major, minor) == (9, 0):
        return "sm_90a"
    best = None
    for cc, chip in SUPPORTED_CHIPS:
        if cc <= (major, minor):
            best = chip
    if best is None:
        raise CompileError(
            f"compute capability {major}.{minor} is not supported: the tile "
            "compiler's GPU lowering needs sm_80 (Ampere) or newer")
    return best


def device_capability() -> Tuple[int, int]:
    """The compute capability of the current device: torch's current CUDA
    device when torch is imported and has initialized CUDA, else the current
    context's device, else device 0. Raises CompileError without a GPU."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available():
            return tuple(torch.cuda.get_device_capability())  # type: ignore
    except Exception:  # noqa: BLE001 - fall back to the driver
        pass
    import ctypes

    from . import driver
    try:
        cu = driver.lib()
        ctx = ctypes.c_void_p()
        dev = 0
        if cu.cuCtxGetCurrent(ctypes.byref(ctx)) == 0 and ctx.value:
            dev = driver.current_device()
        major = driver.device_attribute(
            driver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        minor = driver.device_attribute(
            driver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
    except driver.CudaError as e:
        raise CompileError(
            f"chip='auto' asks the GPU for its compute capability, and there "
            f"is none here ({e}); give the chip, e.g. chip='sm_90a' (H100, "
            f"H200) or chip='sm_80' (supported: {', '.join(CHIP_NAMES)})") from None
    return major, minor


def resolve_chip(chip: Optional[str]) -> str:
    if chip is None or chip == "auto":
        return chip_for_capability(*device_capability())
    if chip not in CHIP_NAMES:
        raise CompileError(f"chip '{chip}' is not one tile-compile supports "
                           f"({', '.join(CHIP_NAMES)}, or 'auto')")
    return chip


# --------------------------------------------------------------------------
# The cache

def default_cache_dir() -> str:
    env = os.environ.get(CACHE_ENV)
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tile_launcher")


def format_param(name: str, value) -> str:
    """NAME=VALUE as tile-compile's --params takes it: integers, booleans
    (true/false), type names (f16, bf16, f32)."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise CompileError(f"parameter name {name!r} is not an identifier")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, str) and _VALUE.match(value):
        text = value
    else:
        raise CompileError(f"parameter {name}: {value!r} is not an integer, a "
                           "boolean or a type name")
    return f"{name}={text}"


def _check_options(options: Iterable[str]) -> List[str]:
    if isinstance(options, (str, bytes)):
        raise CompileError("options must be a list of tile-compile flags, "
                           f"e.g. ['--stages=2'], not the string {options!r}")
    out = []
    for opt in options:
        if not isinstance(opt, str):
            raise CompileError(f"option {opt!r} is not a string")
        flag = opt.split("=", 1)[0]
        if flag in _OWN_OPTIONS:
            raise CompileError(f"option '{opt}': {_OWN_OPTIONS[flag]}")
        out.append(opt)
    return out


def cache_key(source_path: str, source_text: bytes, params: Mapping[str, object],
              num_warps: Optional[int], chip: str, options: Sequence[str],
              version: str, ptxas: str = "") -> str:
    """The hex sha256 naming a bundle in the cache."""
    record = {
        "format": KEY_FORMAT,
        "source_path": os.path.abspath(source_path),
        "source_sha256": hashlib.sha256(source_text).hexdigest(),
        "params": sorted(format_param(k, v) for k, v in params.items()),
        "num_warps": num_warps,
        "chip": chip,
        "options": list(options),
        "compiler": version,
        "ptxas": ptxas,
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def portable_key(source_text: bytes, params: Mapping[str, object],
                 num_warps: Optional[int], chip: str, options: Sequence[str]) -> str:
    """The key without the source's path and the compiler: what a machine
    without tile-compile (the GPU machine, which has no MLIR) matches a
    carried cache's bundles by."""
    record = {
        "format": KEY_FORMAT,
        "source_sha256": hashlib.sha256(source_text).hexdigest(),
        "params": sorted(format_param(k, v) for k, v in params.items()),
        "num_warps": num_warps,
        "chip": chip,
        "options": list(options),
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def find_prebuilt(folder: str, portable: str) -> Optional[Tuple[str, str]]:
    """(bundle folder, its key) of the newest bundle in the cache folder
    `folder`/bundles compiled from the inputs of `portable`, or None."""
    best = None
    try:
        entries = os.listdir(os.path.join(folder, "bundles"))
    except OSError:
        return None
    for e in entries:
        if e.startswith("."):
            continue
        bundle = os.path.join(folder, "bundles", e)
        try:
            with open(os.path.join(bundle, "compile.json")) as f:
                record = json.load(f)
            if record.get("portable_key") != portable or \
                    not os.path.isfile(os.path.join(bundle, "manifest.json")):
                continue
            when = os.stat(os.path.join(bundle, "manifest.json")).st_mtime
        except (OSError, ValueError, AttributeError):
            continue
        if best is None or when > best[0]:
            best = (when, bundle, str(record.get("key", "")))
    return (best[1], best[2]) if best else None


def _remove_stale_temps(folder: str, older_than_s: float = 24 * 3600) -> None:
    """Temporary folders left by killed compilations."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    for e in entries:
        if e.startswith(".tmp-"):
            p = os.path.join(folder, e)
            try:
                if now - os.stat(p).st_mtime > older_than_s:
                    shutil.rmtree(p, ignore_errors=True)
            except OSError:
                pass


def _normalize(source, params, num_warps, chip, options, tile_compile):
    """Checks compile()'s arguments; finds the compiler (None, with the
    reason, where there is none) and the chip."""
    params = dict(params or {})
    options = _check_options(options)
    if num_warps is not None and (isinstance(num_warps, bool) or not isinstance(num_warps, int)
                                  or not 1 <= num_warps <= 32):
        raise CompileError(f"num_warps must be an integer in [1, 32], got {num_warps!r}")
    for k, v in params.items():
        format_param(k, v)
    try:
        exe, missing = find_tile_compile(tile_compile), None
    except CompilerNotFoundError as e:
        exe, missing = None, e
    chip = resolve_chip(chip)
    if exe is None:
        return params, options, None, chip, None, None, missing
    return params, options, exe, chip, compiler_version(exe), _ptxas_identity(options), None


def _read_source(source: str) -> bytes:
    try:
        with open(source, "rb") as f:
            return f.read()
    except OSError as e:
        raise CompileError(f"cannot read the kernel source '{source}': {e}") from None


def _prebuilt_or_raise(folder: str, source: str, text: bytes, params, num_warps, chip,
                       options, missing: CompilerNotFoundError) -> Tuple[str, str]:
    found = find_prebuilt(folder, portable_key(text, params, num_warps, chip, options))
    if found is None:
        raise CompilerNotFoundError(
            f"{missing}\nNo bundle of {source} with these params and options for "
            f"{chip} is in the cache {folder} either (one compiled elsewhere is "
            "used when its cache folder is carried here).")
    return found


def bundle_key(source: str, params: Optional[Mapping[str, object]] = None,
               num_warps: Optional[int] = None, chip: Optional[str] = "auto",
               options: Iterable[str] = (), *, tile_compile: Optional[str] = None,
               cache_dir: Optional[str] = None) -> str:
    """The cache key compile() would use, without compiling (without
    tile-compile: the key of the cached bundle compile() would use)."""
    params, options, exe, chip, version, ptxas, missing = _normalize(
        source, params, num_warps, chip, options, tile_compile)
    source = os.fspath(source)
    text = _read_source(source)
    if exe is None:
        return _prebuilt_or_raise(cache_dir or default_cache_dir(), source, text, params,
                                  num_warps, chip, options, missing)[1]
    return cache_key(source, text, params, num_warps, chip, options, version, ptxas)


_kernels: Dict[str, Kernel] = {}


def compile_bundle(source: str, params: Optional[Mapping[str, object]] = None,
                   num_warps: Optional[int] = None, chip: Optional[str] = "auto",
                   options: Iterable[str] = (), *, tile_compile: Optional[str] = None,
                   cache_dir: Optional[str] = None, force: bool = False,
                   timeout: Optional[float] = 900, verbose: Optional[bool] = None) -> str:
    """Compiles `source` (a kernel .mlir) and returns the bundle folder in
    the cache; a hit runs nothing but `tile-compile --version` (once per
    process and binary)."""
    params, options, exe, chip, version, ptxas, missing = _normalize(
        source, params, num_warps, chip, options, tile_compile)
    source = os.fspath(source)
    root = cache_dir or default_cache_dir()
    folder = os.path.join(root, "bundles")
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", os.path.splitext(os.path.basename(source))[0])[:40]
    loud = _verbose(verbose)
    if exe is None:
        # No compiler here (the GPU machine has no MLIR): a bundle compiled
        # from the same inputs elsewhere, its cache folder carried here.
        bundle = _prebuilt_or_raise(root, source, _read_source(source), params, num_warps,
                                    chip, options, missing)[0]
        if loud:
            _log(f"no tile-compile here: using the cached {bundle}")
        return bundle
    for _attempt in range(3):
        text = _read_source(source)
        key = cache_key(source, text, params, num_warps, chip, options, version, ptxas)
        final = os.path.join(folder, f"{stem}-{key[:32]}")
        if not force and os.path.isfile(os.path.join(final, "manifest.json")):
            if loud:
                _log(f"cache hit {final}")
            return final
        os.makedirs(folder, exist_ok=True)
        _remove_stale_temps(folder)
        tmp = tempfile.mkdtemp(prefix=f".tmp-{stem}-", dir=folder)
        try:
            out = os.path.join(tmp, "bundle")
            command = [exe, source, "-o", out, f"--chip={chip}"]
            if params:
                command.append("--params=" + ",".join(format_param(k, v)
                                                      for k, v in sorted(params.items())))
            if num_warps is not None:
                command.append(f"--num-warps={num_warps}")
            command += options
            if not loud and "--quiet" not in options:
                command.append("--quiet")
            if loud:
                _log("compiling: " + shlex.join(command))
            started = time.monotonic()
            try:
                run = subprocess.run(command, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise CompileError(f"tile-compile did not finish within {timeout} s "
                                   f"compiling {source}\ncommand: {shlex.join(command)}",
                                   command=command) from None
            except OSError as e:
                raise CompileError(f"cannot run {exe}: {e}", command=command) from None
            stderr = run.stderr.decode(errors="replace")
            if run.returncode != 0:
                what = ", ".join(format_param(k, v) for k, v in sorted(params.items()))
                raise CompileError(
                    f"tile-compile failed (exit status {run.returncode}) compiling "
                    f"{source} for {chip}{' with ' + what if what else ''}:\n"
                    f"{stderr.rstrip() or '(no diagnostics)'}\n"
                    f"command: {shlex.join(command)}", stderr, command, run.returncode)
            if loud:
                if stderr.strip():
                    sys.stderr.write(stderr)
                _log(f"compiled in {time.monotonic() - started:.1f} s")
            try:
                load_manifest(out)
            except BundleError as e:
                raise CompileError(f"tile-compile wrote an unusable bundle for "
                                   f"{source}: {e}", stderr, command) from None
            if _read_source(source) != text:
                continue  # the source changed while compiling: again
            with open(os.path.join(out, "compile.json"), "w") as f:
                json.dump({"source": os.path.abspath(source), "params": params,
                           "num_warps": num_warps, "chip": chip, "options": options,
                           "compiler": version, "ptxas": ptxas, "key": key,
                           "portable_key": portable_key(text, params, num_warps, chip,
                                                        options),
                           "command": command, "log": stderr}, f, indent=1,
                          sort_keys=True)
                f.write("\n")
            if force:  # the old bundle aside (whole), removed with tmp
                try:
                    os.rename(final, os.path.join(tmp, "old"))
                except OSError:
                    pass
            try:
                os.rename(out, final)
            except OSError:
                # Another process renamed its bundle there first (a folder
                # is renamed whole): use that one. A folder there without a
                # manifest is damage (the cache only ever renames whole
                # bundles in): moved aside and replaced.
                if not os.path.isfile(os.path.join(final, "manifest.json")):
                    os.rename(final, os.path.join(tmp, "damaged"))
                    try:
                        os.rename(out, final)
                    except OSError:
                        if not os.path.isfile(os.path.join(final, "manifest.json")):
                            raise
            return final
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    raise CompileError(f"{source} kept changing while it was being compiled")


def compile(source: str, params: Optional[Mapping[str, object]] = None,  # noqa: A001
            num_warps: Optional[int] = None, chip: Optional[str] = "auto",
            options: Iterable[str] = (), **kwargs) -> Kernel:
    """Compiles (or finds in the cache) and loads a kernel: see
    compile_bundle for the arguments. The same bundle gives the same Kernel
    object within a process (its module loads once)."""
    path = compile_bundle(source, params, num_warps, chip, options, **kwargs)
    with _memo_lock:
        kernel = None if kwargs.get("force") else _kernels.get(path)
        if kernel is None:
            kernel = Kernel(path)
            _kernels[path] = kernel
    return kernel
