"""tile_launcher.compile without MLIR or a GPU: a fake tile-compile
(fake_tile_compile.py) writes the runner's fixture bundle, so that the cache
keys, the atomic writes, the error messages and chip="auto" can be checked.
One test runs the real tile-compile when $TILE_COMPILE names one. Run:
    python3 -m unittest discover -s python/tests
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import tile_launcher as tl  # noqa: E402
from tile_launcher import compiler, driver  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
FIXTURE = os.path.abspath(os.path.join(ROOT, "test", "Runner", "Inputs", "bundles",
                                       "fmha-d64-causal-lse-w4"))
SOURCE = """// a kernel source (the fake compiler does not read it)
func.func @k() attributes {tile.kernel = {}} { return }
"""


def write_fake_compiler(folder, extra=""):
    """An executable tile-compile in `folder` running fake_tile_compile.py;
    `extra` changes the binary (a rebuilt compiler)."""
    path = os.path.join(folder, "tile-compile")
    with open(os.path.join(HERE, "fake_tile_compile.py")) as f:
        body = f.read()
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\n# {extra}\n{body}")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


class FakeCompilerCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.bin = os.path.join(self.dir, "bin")
        os.makedirs(self.bin)
        self.exe = write_fake_compiler(self.bin)
        self.cache = os.path.join(self.dir, "cache")
        self.log = os.path.join(self.dir, "log.jsonl")
        self.source = os.path.join(self.dir, "softmax.mlir")
        with open(self.source, "w") as f:
            f.write(SOURCE)
        self.env = mock.patch.dict(os.environ, {
            "FAKE_TILE_COMPILE_LOG": self.log, "FAKE_TILE_COMPILE_FIXTURE": FIXTURE,
            "TILE_LAUNCHER_CACHE_DIR": self.cache})
        self.env.start()
        os.environ.pop("TILE_COMPILE", None)
        os.environ.pop("TILE_LAUNCHER_VERBOSE", None)

    def tearDown(self):
        self.env.stop()
        shutil.rmtree(self.dir)

    def compilations(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def compile(self, **kw):
        args = dict(params={"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False, "DTYPE": "f16"},
                    num_warps=4, chip="sm_90a", tile_compile=self.exe)
        args.update(kw)
        return tl.compile(self.source, **args)


class CompileCacheTest(FakeCompilerCase):
    def test_hit_on_the_same_input(self):
        k1 = self.compile()
        k2 = self.compile()
        self.assertIs(k1, k2)  # one Kernel (one module load) per bundle
        self.assertEqual(len(self.compilations()), 1)
        # The bundle is in the cache folder (from the environment) and loads.
        self.assertTrue(k1.manifest.dir.startswith(os.path.join(self.cache, "bundles")))
        self.assertEqual(k1.manifest.params["ROWS"], 4)
        self.assertEqual(k1.manifest.target, "sm_90a")
        # A later process: the same bundle, no compilation.
        compiler._kernels.clear()
        self.assertEqual(self.compile().manifest.dir, k1.manifest.dir)
        self.assertEqual(len(self.compilations()), 1)

    def test_command_line(self):
        self.compile(options=["--stages=2", "--tile-pipeline=tile-O3{overlap-mma=true}"])
        argv = self.compilations()[0]
        self.assertEqual(argv[0], self.source)
        self.assertIn("--chip=sm_90a", argv)
        self.assertIn("--params=BLOCK_N=1024,DTYPE=f16,ONLINE=false,ROWS=4", argv)
        self.assertIn("--num-warps=4", argv)
        self.assertIn("--quiet", argv)
        self.assertEqual(argv[-3:-1], ["--stages=2", "--tile-pipeline=tile-O3{overlap-mma=true}"])
        out = argv[argv.index("-o") + 1]
        # Written into a temporary folder beside the final place.
        self.assertTrue(os.path.basename(os.path.dirname(out)).startswith(".tmp-"))

    def test_miss_when_an_input_changes(self):
        base = self.compile().manifest.dir
        dirs = {base}
        changes = [
            dict(params={"ROWS": 2, "BLOCK_N": 1024, "ONLINE": False, "DTYPE": "f16"}),
            dict(params={"ROWS": 4, "BLOCK_N": 1024, "ONLINE": True, "DTYPE": "f16"}),
            dict(num_warps=8),
            dict(chip="sm_80"),
            dict(options=["--stages=2"]),
            dict(options=["--stages=3"]),
        ]
        for change in changes:
            with self.subTest(change=change):
                d = self.compile(**change).manifest.dir
                self.assertNotIn(d, dirs)
                dirs.add(d)
        n = len(self.compilations())
        self.assertEqual(n, 1 + len(changes))
        # The source's text.
        with open(self.source, "a") as f:
            f.write("// edited\n")
        d = self.compile().manifest.dir
        self.assertNotIn(d, dirs)
        dirs.add(d)
        # The same text at another path.
        other = os.path.join(self.dir, "other", "softmax.mlir")
        os.makedirs(os.path.dirname(other))
        shutil.copy(self.source, other)
        d = tl.compile(other, params={"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False,
                                      "DTYPE": "f16"}, num_warps=4, chip="sm_90a",
                       tile_compile=self.exe).manifest.dir
        self.assertNotIn(d, dirs)
        dirs.add(d)
        # A rebuilt compiler (another binary, same --version banner).
        write_fake_compiler(self.bin, extra="rebuilt")
        d = self.compile().manifest.dir
        self.assertNotIn(d, dirs)
        self.assertEqual(len(self.compilations()), n + 3)
        # Nothing changed: a hit.
        self.assertEqual(self.compile().manifest.dir, d)
        self.assertEqual(len(self.compilations()), n + 3)

    def test_version_is_the_banner_and_the_binary(self):
        v1 = compiler.compiler_version(self.exe)
        self.assertIn("LLVM version 22.1.8", v1)
        self.assertIn("sha256 ", v1)
        write_fake_compiler(self.bin, extra="rebuilt")
        self.assertNotEqual(compiler.compiler_version(self.exe), v1)

    def test_params_order_does_not_matter(self):
        a = self.compile(params={"ROWS": 4, "BLOCK_N": 1024}).manifest.dir
        b = self.compile(params={"BLOCK_N": 1024, "ROWS": 4}).manifest.dir
        self.assertEqual(a, b)
        self.assertEqual(len(self.compilations()), 1)

    def test_force_recompiles(self):
        d = self.compile().manifest.dir
        self.assertEqual(self.compile(force=True).manifest.dir, d)
        self.assertEqual(len(self.compilations()), 2)

    def test_atomic_write(self):
        bundle = self.compile().manifest.dir
        folder = os.path.dirname(bundle)
        self.assertEqual([e for e in os.listdir(folder) if e.startswith(".tmp-")], [])
        self.assertEqual(sorted(os.listdir(bundle)),
                         ["compile.json", "kernel.ptx", "manifest.json"])
        with open(os.path.join(bundle, "compile.json")) as f:
            record = json.load(f)
        self.assertEqual(record["chip"], "sm_90a")
        self.assertIn("LLVM version", record["compiler"])
        # A failing compilation leaves neither a bundle nor a temporary folder.
        with open(self.source, "w") as f:
            f.write("FAIL\n")
        with self.assertRaises(tl.CompileError):
            self.compile()
        self.assertEqual(sorted(os.listdir(folder)), [os.path.basename(bundle)])
        # A damaged bundle at the final place (no manifest) is not a hit:
        # it is replaced.
        with open(self.source, "w") as f:
            f.write(SOURCE + "// 2\n")
        key = compiler.bundle_key(self.source, {"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False,
                                                "DTYPE": "f16"}, 4, "sm_90a",
                                  tile_compile=self.exe)
        final = os.path.join(folder, f"softmax-{key[:32]}")
        os.makedirs(final)
        with open(os.path.join(final, "kernel.ptx"), "w") as f:
            f.write("// half")
        self.assertEqual(self.compile().manifest.dir, final)
        self.assertTrue(os.path.isfile(os.path.join(final, "compile.json")))
        self.assertFalse(any(e.startswith(".tmp-") for e in os.listdir(folder)))

    def test_stale_temporary_folders_are_removed(self):
        folder = os.path.join(self.cache, "bundles")
        stale = os.path.join(folder, ".tmp-softmax-old")
        fresh = os.path.join(folder, ".tmp-softmax-new")
        os.makedirs(stale)
        os.makedirs(fresh)
        os.utime(stale, (0, 0))
        self.compile()
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(fresh))  # maybe another process's

    def test_concurrent_processes_both_succeed(self):
        script = textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {os.path.join(HERE, '..')!r})
            import tile_launcher as tl
            k = tl.compile({self.source!r}, params={{"ROWS": 4}}, chip="sm_80",
                           tile_compile={self.exe!r})
            print(k.manifest.dir)
        """)
        env = dict(os.environ, FAKE_TILE_COMPILE_SLEEP="0.5")
        procs = [subprocess.Popen([sys.executable, "-c", script], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(3)]
        outs = [p.communicate(timeout=120) for p in procs]
        for p, (out, err) in zip(procs, outs):
            self.assertEqual(p.returncode, 0, err.decode())
        dirs = {out.decode().strip() for out, _ in outs}
        self.assertEqual(len(dirs), 1)
        # Those that started before the first finished compiled too.
        self.assertIn(len(self.compilations()), (1, 2, 3))
        folder = os.path.join(self.cache, "bundles")
        self.assertEqual(len(os.listdir(folder)), 1)
        tl.load_manifest(dirs.pop())

    def test_losing_the_race(self):
        # Another process renames its bundle in while this one compiles:
        # this one's rename fails and it uses the winner's.
        params = {"ROWS": 4}
        key = compiler.bundle_key(self.source, params, None, "sm_80", tile_compile=self.exe)
        final = os.path.join(self.cache, "bundles", f"softmax-{key[:32]}")
        with mock.patch.dict(os.environ, {"FAKE_TILE_COMPILE_WINNER": final}):
            k = tl.compile(self.source, params=params, chip="sm_80", tile_compile=self.exe)
        self.assertEqual(k.manifest.dir, final)
        self.assertTrue(os.path.isfile(os.path.join(final, "winner")))
        self.assertFalse(os.path.exists(os.path.join(final, "compile.json")))
        self.assertEqual(os.listdir(os.path.dirname(final)), [os.path.basename(final)])

    def test_source_changed_while_compiling(self):
        # The fake compiler edits the source the first time: compile() sees
        # the text it keyed on changed, and compiles the new text again.
        marker = os.path.join(self.dir, "edited")
        exe = os.path.join(self.bin, "editing-tile-compile")
        with open(exe, "w") as f:
            f.write(f"#!/bin/sh\nif [ \"$1\" != --version ] && [ ! -e {marker} ]; then "
                    f"touch {marker}; echo '// edited' >> {self.source}; fi\n"
                    f"exec {self.exe} \"$@\"\n")
        os.chmod(exe, 0o755)
        k = self.compile(tile_compile=exe)
        self.assertEqual(len(self.compilations()), 2)
        with open(os.path.join(k.manifest.dir, "compile.json")) as f:
            key = json.load(f)["key"]
        self.assertEqual(key, compiler.bundle_key(
            self.source, {"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False, "DTYPE": "f16"},
            4, "sm_90a", tile_compile=exe))


class CompileErrorTest(FakeCompilerCase):
    def test_compile_failure_has_the_located_error(self):
        with open(self.source, "w") as f:
            f.write("// line 1\n// line 2\n    FAIL\n")
        with self.assertRaises(tl.CompileError) as ctx:
            self.compile()
        message = str(ctx.exception)
        self.assertIn(f"{self.source}:3:5: error: 'tile.load' op expects a view", message)
        self.assertIn("exit status 1", message)
        self.assertIn("command: ", message)
        self.assertIn("ROWS=4", message)
        self.assertEqual(ctx.exception.returncode, 1)
        self.assertIn(":3:5: error:", ctx.exception.stderr)

    def test_compiler_missing(self):
        with mock.patch.dict(os.environ, {"PATH": self.dir}), \
                mock.patch.object(compiler, "_repo_build_bin",
                                  lambda: os.path.join(self.dir, "nope", "tile-compile")):
            with self.assertRaises(tl.CompilerNotFoundError) as ctx:
                tl.compile(self.source, chip="sm_80")
            message = str(ctx.exception)
            self.assertIn("tile-compile was not found", message)
            self.assertIn("make build", message)
            self.assertIn("TILE_COMPILE", message)
            self.assertIn("tile_launcher.load", message)
            # It is a FileNotFoundError too.
            self.assertIsInstance(ctx.exception, FileNotFoundError)
            # Found on PATH, by the environment variable, by the argument.
            os.environ["PATH"] = self.bin
            self.assertEqual(compiler.find_tile_compile(), self.exe)
            os.environ["TILE_COMPILE"] = os.path.join(self.dir, "missing")
            with self.assertRaises(tl.CompilerNotFoundError) as ctx:
                compiler.find_tile_compile()
            self.assertIn("$TILE_COMPILE names", str(ctx.exception))
            self.assertEqual(compiler.find_tile_compile(self.exe), self.exe)
        # Prebuilt bundles load without it.
        with mock.patch.dict(os.environ, {"PATH": self.dir}):
            self.assertEqual(tl.load(FIXTURE).manifest.kernel, "fmha")

    def test_without_a_compiler_a_carried_cache_is_used(self):
        # Compiled here (the build machine) for an explicit chip ...
        k = self.compile(options=["--stages=2"])
        key = json.load(open(os.path.join(k.manifest.dir, "compile.json")))["key"]
        compiler._kernels.clear()
        # ... then, without tile-compile (the GPU machine), the same
        # source at another path finds that bundle.
        other = os.path.join(self.dir, "elsewhere", "softmax.mlir")
        os.makedirs(os.path.dirname(other))
        shutil.copy(self.source, other)
        params = {"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False, "DTYPE": "f16"}
        with mock.patch.dict(os.environ, {"PATH": self.dir}), \
                mock.patch.object(compiler, "_repo_build_bin",
                                  lambda: os.path.join(self.dir, "nope", "tile-compile")):
            err = []
            with mock.patch.object(compiler, "_log", err.append):
                k2 = tl.compile(other, params=params, num_warps=4, chip="sm_90a",
                                options=["--stages=2"], verbose=True)
            self.assertEqual(k2.manifest.dir, k.manifest.dir)
            self.assertIn("no tile-compile here", err[0])
            self.assertEqual(compiler.bundle_key(other, params, 4, "sm_90a", ["--stages=2"]),
                             key)
            # Other inputs: nothing to use, and the error says so.
            with self.assertRaises(tl.CompilerNotFoundError) as ctx:
                tl.compile(other, params=params, num_warps=8, chip="sm_90a",
                           options=["--stages=2"])
            self.assertIn("tile-compile was not found", str(ctx.exception))
            self.assertIn("No bundle of", str(ctx.exception))
        self.assertEqual(len(self.compilations()), 1)

    def test_argument_errors(self):
        cases = [
            (dict(options=["-o", "x"]), "the cache chooses the bundle folder"),
            (dict(options=["--params=A=1"]), "give params="),
            (dict(options=["--chip=sm_80"]), "give chip="),
            (dict(options=["--num-warps=8"]), "give num_warps="),
            (dict(options=["--emit=ptx"]), "makes bundles"),
            (dict(options="--stages=2"), "must be a list"),
            (dict(params={"ROWS": 1.5}), "not an integer, a boolean or a type name"),
            (dict(params={"ROWS": "4,BLOCK_N=8"}), "not an integer, a boolean"),
            (dict(params={"9X": 1}), "not an identifier"),
            (dict(num_warps=0), "num_warps must be"),
            (dict(chip="sm_75"), "chip 'sm_75' is not one tile-compile supports"),
        ]
        for kw, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(tl.CompileError) as ctx:
                    self.compile(**kw)
                self.assertIn(message, str(ctx.exception))
        with self.assertRaises(tl.CompileError) as ctx:
            tl.compile(os.path.join(self.dir, "absent.mlir"), chip="sm_80",
                       tile_compile=self.exe)
        self.assertIn("cannot read the kernel source", str(ctx.exception))
        self.assertEqual(self.compilations(), [])

    def test_verbose_reports_the_command(self):
        err = []
        with mock.patch.object(compiler, "_log", err.append):
            self.compile(verbose=True)
            self.compile(verbose=True)
        self.assertTrue(any(e.startswith("compiling: ") for e in err))
        self.assertTrue(any(e.startswith("cache hit ") for e in err))
        self.assertNotIn("--quiet", self.compilations()[0])


class ChipTest(unittest.TestCase):
    def test_capability_to_chip(self):
        for cc, chip in [((8, 0), "sm_80"), ((8, 6), "sm_86"), ((8, 7), "sm_87"),
                         ((8, 8), "sm_87"), ((8, 9), "sm_89"), ((9, 0), "sm_90a"),
                         ((10, 0), "sm_100"), ((10, 3), "sm_100"), ((11, 0), "sm_100"),
                         ((12, 0), "sm_120"), ((12, 1), "sm_120")]:
            with self.subTest(cc=cc):
                self.assertEqual(compiler.chip_for_capability(*cc), chip)
        with self.assertRaises(tl.CompileError) as ctx:
            compiler.chip_for_capability(7, 5)
        self.assertIn("sm_80 (Ampere) or newer", str(ctx.exception))

    def test_auto_without_a_gpu(self):
        def no_driver():
            raise driver.CudaError("dlopen(libcuda.so.1)", -1, "no CUDA driver")
        with mock.patch.dict(sys.modules, {"torch": None}), \
                mock.patch.object(driver, "lib", no_driver):
            with self.assertRaises(tl.CompileError) as ctx:
                compiler.resolve_chip("auto")
        message = str(ctx.exception)
        self.assertIn("chip='auto' asks the GPU for its compute capability", message)
        self.assertIn("no CUDA driver", message)
        self.assertIn("chip='sm_90a'", message)

    def test_auto_asks_the_device(self):
        with mock.patch.object(compiler, "device_capability", lambda: (9, 0)):
            self.assertEqual(compiler.resolve_chip("auto"), "sm_90a")
        with mock.patch.object(compiler, "device_capability", lambda: (8, 9)):
            self.assertEqual(compiler.resolve_chip(None), "sm_89")
        self.assertEqual(compiler.resolve_chip("sm_80"), "sm_80")


class CacheDirTest(unittest.TestCase):
    def test_default_and_override(self):
        with mock.patch.dict(os.environ, {"TILE_LAUNCHER_CACHE_DIR": "/tmp/x/../y"}):
            self.assertEqual(compiler.default_cache_dir(), "/tmp/y")
        with mock.patch.dict(os.environ, {"XDG_CACHE_HOME": "/c"}):
            os.environ.pop("TILE_LAUNCHER_CACHE_DIR", None)
            self.assertEqual(compiler.default_cache_dir(), "/c/tile_launcher")
        with mock.patch.dict(os.environ, {"HOME": "/h"}):
            os.environ.pop("TILE_LAUNCHER_CACHE_DIR", None)
            os.environ.pop("XDG_CACHE_HOME", None)
            self.assertEqual(compiler.default_cache_dir(), "/h/.cache/tile_launcher")


@unittest.skipUnless(os.environ.get("TILE_COMPILE"), "TILE_COMPILE names no tile-compile")
class RealCompilerTest(unittest.TestCase):
    """The real tile-compile: TILE_COMPILE=build/bin/tile-compile python3 -m
    unittest discover -s python/tests (no GPU needed: the chip is given)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_softmax(self):
        source = os.path.join(ROOT, "kernels", "softmax.mlir")
        params = {"ROWS": 4, "BLOCK_N": 1024, "ONLINE": False, "DTYPE": "f16"}
        k = tl.compile(source, params=params, num_warps=4, chip="sm_90a",
                       options=["--no-cubin"], cache_dir=self.dir)
        m = k.manifest
        self.assertEqual(m.kernel, "softmax")
        self.assertEqual(m.target, "sm_90a")
        self.assertEqual(m.num_warps, 4)
        self.assertEqual(m.params["BLOCK_N"], 1024)
        self.assertEqual([e.name for e in m.views()], ["X", "Y"])
        self.assertIn("LLVM version", compiler.compiler_version(compiler.find_tile_compile()))
        compiler._kernels.clear()
        self.assertEqual(tl.compile(source, params=params, num_warps=4, chip="sm_90a",
                                    options=["--no-cubin"], cache_dir=self.dir).manifest.dir,
                         m.dir)

    def test_error_is_located(self):
        source = os.path.join(self.dir, "broken.mlir")
        with open(source, "w") as f:
            f.write("func.func @softmax(%X: i32) attributes {tile.kernel = {grid = [\"1\"]}} {\n"
                    "  %0 = tile.nonsense\n  return\n}\n")
        with self.assertRaises(tl.CompileError) as ctx:
            tl.compile(source, chip="sm_80", cache_dir=self.dir)
        self.assertIn(f"{source}:2:", str(ctx.exception))
        self.assertIn("error:", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
