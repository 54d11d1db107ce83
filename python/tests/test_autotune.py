"""tile_launcher.autotune without a GPU or PyTorch: fake tensors (what
abi.view_of reads), Kernel launches replaced by a recorder, and a fake
timer that reports a chosen time per candidate. Run:
    python3 -m unittest discover -s python/tests
"""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import tile_launcher as tl  # noqa: E402
from tile_launcher import compiler  # noqa: E402
from tile_launcher.launch import Kernel  # noqa: E402
from test_compile import FIXTURE, SOURCE, write_fake_compiler  # noqa: E402


class FakeTensor:
    """What abi.view_of reads of a torch tensor, plus clone/copy_ (restore)."""

    def __init__(self, shape, dtype="torch.float16", address=0x10000, value=0):
        self.shape = list(shape)
        self.dtype = dtype
        self._address = address
        self.value = value

    def data_ptr(self):
        return self._address

    def stride(self):
        strides, n = [], 1
        for s in reversed(self.shape):
            strides.insert(0, n)
            n *= s
        return tuple(strides)

    def clone(self):
        return FakeTensor(self.shape, self.dtype, self._address + 0x1000000, self.value)

    def copy_(self, other):
        self.value = other.value


def attention_args(B=2, H=4, S=256, D=64, address=0x10000):
    return dict(Q=FakeTensor([B, H, S, D], address=address),
                K=FakeTensor([B, H, S, D], address=0x200000),
                V=FakeTensor([B, H, S, D], address=0x300000),
                Out=FakeTensor([B, H, S, D], address=0x400000),
                Lse=FakeTensor([B, H, S], "torch.float32", address=0x500000),
                qk_scale=0.125, input_pos=0)


def make_bundle(folder, name, requires=(), tile_n=64):
    path = os.path.join(folder, name)
    shutil.copytree(FIXTURE, path)
    with open(os.path.join(path, "manifest.json")) as f:
        m = json.load(f)
    m["requires"] = list(requires)
    m["params"]["TILE_N"] = tile_n
    with open(os.path.join(path, "manifest.json"), "w") as f:
        json.dump(m, f)
    return path


class FakeTimer:
    """Launches the candidate once (through the patched Kernel.__call__)
    and reports the time given for its bundle's TILE_N."""

    def __init__(self, launches, times):
        self.launches, self.times, self.calls = launches, times, []

    def __call__(self, fn, warmup, rep):
        self.calls.append((warmup, rep))
        fn()
        kernel = self.launches[-1]
        return self.times[kernel.manifest.params["TILE_N"]]


class AutotuneTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.cache = os.path.join(self.dir, "cache")
        self.launches = []
        self.failing = {}  # TILE_N -> exception a launch raises

        def fake_call(kernel, stream=None, **args):
            kernel.plan(**args)
            self.launches.append(kernel)
            err = self.failing.get(kernel.manifest.params["TILE_N"])
            if err is not None:
                raise err
        self.patch = mock.patch.object(Kernel, "__call__", fake_call)
        self.patch.start()
        self.bundles = [make_bundle(self.dir, "n32", tile_n=32),
                        make_bundle(self.dir, "n64", tile_n=64),
                        make_bundle(self.dir, "n128", tile_n=128),
                        make_bundle(self.dir, "d128", requires=["Q.3 == 128"], tile_n=256)]
        self.times = {32: 0.30, 64: 0.10, 128: 0.20, 256: 0.01}

    def tearDown(self):
        self.patch.stop()
        shutil.rmtree(self.dir)

    def tuner(self, timer=None, **kw):
        kw.setdefault("cache_dir", self.cache)
        kw.setdefault("device", "test-gpu")
        return tl.autotune(self.bundles, timer=timer or FakeTimer(self.launches, self.times),
                           **kw)

    def test_chooses_the_fastest_that_fits(self):
        timer = FakeTimer(self.launches, self.times)
        t = self.tuner(timer, warmup=5, rep=20)
        args = attention_args()
        t(**args)
        self.assertEqual(t.best(**args).manifest.params["TILE_N"], 64)
        # Three timed (the d128 candidate's requires refuse D = 64), then
        # the call itself launched the winner.
        self.assertEqual(len(timer.calls), 3)
        self.assertEqual(timer.calls[0], (5, 20))
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 64)
        entry = t.results[t.key_of(args)]
        self.assertEqual(entry["best_label"], "n64")
        self.assertAlmostEqual(entry["ms"], 0.10)
        self.assertIn("does not fit", entry["timings"]["d128"])
        self.assertIn("Q.3 == 128", entry["timings"]["d128"])
        # Later calls of the key: no timing.
        t(**args)
        t(**attention_args())  # other tensors, same shapes
        self.assertEqual(len(timer.calls), 3)
        # Another shape: tuned again; here the d128 candidate fits and wins.
        t(**attention_args(D=128))
        self.assertEqual(len(timer.calls), 7)
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 256)

    def test_skips_candidates_that_fail_to_launch(self):
        self.failing[64] = tl.CudaError("cuLaunchKernel", 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES")
        self.failing[32] = tl.BundleError("n32: PTX for sm_100 does not run on compute capability 9.0")
        t = self.tuner()
        args = attention_args()
        self.assertEqual(t.best(**args).manifest.params["TILE_N"], 128)
        timings = t.results[t.key_of(args)]["timings"]
        self.assertIn("failed: CudaError", timings["n64"])
        self.assertIn("failed: BundleError", timings["n32"])

    def test_a_fault_stops_the_tuning(self):
        # A fault loses the context: the error is raised, not blamed on the
        # candidates after it.
        self.failing[32] = tl.CudaError("cuCtxSynchronize", 700, "CUDA_ERROR_ILLEGAL_ADDRESS")
        with self.assertRaises(tl.CudaError):
            self.tuner().best(**attention_args())

    def test_no_candidate_fits(self):
        t = tl.autotune([self.bundles[3]], cache_dir=self.cache, device="test-gpu",
                        timer=FakeTimer(self.launches, self.times))
        with self.assertRaises(tl.LaunchError) as ctx:
            t(**attention_args())
        self.assertIn("no candidate runs this call", str(ctx.exception))
        self.assertIn("d128: does not fit", str(ctx.exception))

    def test_disk_cache_across_instances(self):
        args = attention_args()
        t1 = self.tuner()
        t1(**args)
        path = t1.cache_file()
        self.assertTrue(path.startswith(os.path.join(self.cache, "autotune")))
        with open(path) as f:
            data = json.load(f)
        self.assertEqual(data["format"], "tile-autotune-1")
        self.assertEqual([c["label"] for c in data["candidates"]], ["n32", "n64", "n128", "d128"])
        (entry_key, entry), = data["entries"].items()
        self.assertEqual(json.loads(entry_key)[0], "test-gpu")
        self.assertEqual(entry["best_label"], "n64")
        self.assertEqual(sorted(os.listdir(os.path.dirname(path))), [os.path.basename(path)])

        def no_timing(fn, warmup, rep):
            raise AssertionError("timed although the choice is on disk")
        t2 = self.tuner(no_timing)  # a new instance: a later process
        t2(**args)
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 64)
        # Another device: its own entry.
        t3 = self.tuner(device="other-gpu")
        t3(**args)
        with open(path) as f:
            self.assertEqual(len(json.load(f)["entries"]), 2)
        # Another candidate set: another file.
        t4 = tl.autotune(self.bundles[:2], cache_dir=self.cache, device="test-gpu",
                         timer=FakeTimer(self.launches, self.times))
        self.assertNotEqual(t4.cache_file(), path)
        # A changed bundle (recompiled): another file too.
        with open(os.path.join(self.bundles[0], "kernel.ptx"), "a") as f:
            f.write("// recompiled\n")
        self.assertNotEqual(self.tuner().cache_file(), path)
        # cache=False: neither read nor written.
        timer = FakeTimer(self.launches, self.times)
        self.tuner(timer, cache=False)(**args)
        self.assertEqual(len(timer.calls), 3)

    def test_damaged_cache_file_is_retuned(self):
        args = attention_args()
        t1 = self.tuner()
        t1(**args)
        with open(t1.cache_file(), "w") as f:
            f.write("{not json")
        timer = FakeTimer(self.launches, self.times)
        self.tuner(timer)(**args)
        self.assertEqual(len(timer.calls), 3)
        with open(t1.cache_file()) as f:
            self.assertEqual(len(json.load(f)["entries"]), 1)

    def test_shape_key(self):
        t = self.tuner()
        key = json.loads(t.key_of(attention_args()))
        self.assertEqual(key[0], ["K", [2, 4, 256, 64], "f16", 16])
        self.assertEqual([k[0] for k in key], ["K", "Lse", "Out", "Q", "V"])  # scalars out
        # Sizes, dtype and alignment make other keys.
        keys = {t.key_of(attention_args()), t.key_of(attention_args(S=257)),
                t.key_of(attention_args(address=0x10008))}
        args = attention_args()
        args["Q"] = FakeTensor([2, 4, 256, 64], "torch.bfloat16")
        keys.add(t.key_of(args))
        self.assertEqual(len(keys), 4)
        self.assertEqual(json.loads(t.key_of(attention_args(address=0x10008)))[3][3], 8)
        # A key of named arguments (Triton's key=[...]); dtypes and
        # alignment of every tensor still count.
        named = self.tuner(key=["Q", "input_pos"])
        k1 = named.key_of(attention_args())
        args = attention_args()
        args["K"] = FakeTensor([2, 4, 999, 64], address=0x200000)
        self.assertEqual(named.key_of(args), k1)
        args["input_pos"] = 3
        self.assertNotEqual(named.key_of(args), k1)
        with self.assertRaises(tl.LaunchError):
            named.key_of({"Q": args["Q"]})
        # A key function.
        fn = self.tuner(key=lambda a: a["Q"].shape[2] // 128)
        self.assertEqual(fn.key_of(attention_args(S=200)), fn.key_of(attention_args(S=255)))

    def test_verbose_reports_timings(self):
        err = io.StringIO()
        with redirect_stderr(err), \
                mock.patch.dict(os.environ, {"TILE_LAUNCHER_AUTOTUNE_VERBOSE": "1"}):
            self.tuner()(**attention_args())
        text = err.getvalue()
        self.assertIn("[autotune fmha] tuning", text)
        self.assertIn("n64: 0.1000 ms", text)
        self.assertIn("d128: does not fit", text)
        self.assertIn("best for", text)
        quiet = io.StringIO()
        with redirect_stderr(quiet):
            self.tuner(verbose=False, cache=False)(**attention_args())
        self.assertEqual(quiet.getvalue(), "")

    def test_restore(self):
        seen = []

        def timer(fn, warmup, rep):
            seen.append(args["Out"].value)
            args["Out"].value += 1  # the kernel accumulates into Out
            fn()
            return self.times[self.launches[-1].manifest.params["TILE_N"]]
        args = attention_args()
        args["Out"].value = 5
        self.tuner(timer, restore=["Out"])(**args)
        self.assertEqual(seen, [5, 5, 5])
        self.assertEqual(args["Out"].value, 5)

    def test_reset_to_zero_and_configs(self):
        zeroed = []

        class Zeroable(FakeTensor):
            def zero_(self):
                zeroed.append(1)
        args = attention_args()
        args["Lse"] = Zeroable([2, 4, 256], "torch.float32", address=0x500000)
        t = tl.autotune(configs=self.bundles, reset_to_zero=["Lse"], cache_dir=self.cache,
                        device="test-gpu", timer=FakeTimer(self.launches, self.times))
        t(**args)
        self.assertEqual(len(zeroed), 3)  # once in each timed call
        with self.assertRaises(ValueError):
            tl.autotune(self.bundles, configs=self.bundles)

    def test_candidates_as_kernels_and_labels(self):
        k = tl.load(self.bundles[1])
        t = tl.autotune([k, self.bundles[0], self.bundles[0]], cache_dir=self.cache,
                        device="test-gpu", timer=FakeTimer(self.launches, self.times))
        self.assertEqual([c.label for c in t.candidates], ["n64", "n32 #1", "n32 #2"])
        self.assertIs(t.best(**attention_args()), k)
        self.assertEqual(t.manifest.kernel, "fmha")
        with self.assertRaises(ValueError):
            tl.autotune([])
        with self.assertRaises(TypeError):
            tl.autotune([42])
        with self.assertRaises(ValueError) as ctx:
            tl.autotune([{"TILE_N": 64}])
        self.assertIn("give source=", str(ctx.exception))


class AutotuneCompiledTest(unittest.TestCase):
    """Parameter sets compiled through compile() (the fake tile-compile)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.exe = write_fake_compiler(self.dir)
        self.log = os.path.join(self.dir, "log.jsonl")
        self.source = os.path.join(self.dir, "attention.mlir")
        with open(self.source, "w") as f:
            f.write(SOURCE)
        self.env = mock.patch.dict(os.environ, {
            "FAKE_TILE_COMPILE_LOG": self.log, "FAKE_TILE_COMPILE_FIXTURE": FIXTURE,
            "TILE_LAUNCHER_CACHE_DIR": os.path.join(self.dir, "cache")})
        self.env.start()
        self.launches = []

        def fake_call(kernel, stream=None, **args):
            kernel.plan(**args)
            self.launches.append(kernel)
        self.patch = mock.patch.object(Kernel, "__call__", fake_call)
        self.patch.start()

    def tearDown(self):
        self.patch.stop()
        self.env.stop()
        compiler._kernels.clear()
        shutil.rmtree(self.dir)

    def compilations(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def tuner(self, timer):
        return tl.autotune([tl.Config({"TILE_N": 32}, num_warps=4),
                            tl.Config({"TILE_N": 64}, num_warps=8, options=["--stages=2"]),
                            {"TILE_N": 128}],
                           source=self.source, chip="sm_80", device="test-gpu",
                           timer=timer, compile_kwargs={"tile_compile": self.exe})

    def test_compiled_candidates(self):
        timer = FakeTimer(self.launches, {32: 0.3, 64: 0.1, 128: 0.2})
        t = self.tuner(timer)
        self.assertEqual([c.label for c in t.candidates],
                         ["TILE_N=32 num_warps=4", "TILE_N=64 num_warps=8 --stages=2",
                          "TILE_N=128"])
        args = attention_args()
        t(**args)
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 64)
        argvs = self.compilations()
        self.assertEqual(len(argvs), 3)
        self.assertIn("--num-warps=8", argvs[1])
        self.assertIn("--stages=2", argvs[1])
        self.assertIn("--chip=sm_80", argvs[2])
        # A later process: the choice from disk, the winner from the bundle
        # cache; nothing compiled, nothing timed.
        compiler._kernels.clear()

        def no_timing(fn, warmup, rep):
            raise AssertionError("timed although the choice is on disk")
        t2 = self.tuner(no_timing)
        t2(**args)
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 64)
        self.assertEqual(len(self.compilations()), 3)

    def test_carried_cache_without_a_compiler(self):
        # Tuned where tile-compile is (the choice and the bundles in the
        # cache) ...
        self.tuner(FakeTimer(self.launches, {32: 0.3, 64: 0.1, 128: 0.2}))(**attention_args())
        compiler._kernels.clear()

        def no_timing(fn, warmup, rep):
            raise AssertionError("timed although the choice is on disk")
        # ... and used where it is not (the GPU machine): same choice.
        with mock.patch.dict(os.environ, {"PATH": self.dir}), \
                mock.patch.object(compiler, "_repo_build_bin",
                                  lambda: os.path.join(self.dir, "nope", "tile-compile")):
            t = tl.autotune([tl.Config({"TILE_N": 32}, num_warps=4),
                             tl.Config({"TILE_N": 64}, num_warps=8, options=["--stages=2"]),
                             {"TILE_N": 128}],
                            source=self.source, chip="sm_80", device="test-gpu",
                            timer=no_timing)
            t(**attention_args())
        self.assertEqual(self.launches[-1].manifest.params["TILE_N"], 64)
        self.assertEqual(len(self.compilations()), 3)

    def test_a_candidate_that_does_not_compile_is_skipped(self):
        t = tl.autotune([{"TILE_N": 64}, {"TILE_N": 128}], source=self.source, chip="sm_80",
                        device="test-gpu", compile_kwargs={"tile_compile": self.exe},
                        timer=FakeTimer(self.launches, {64: 0.1, 128: 0.2}))
        bad = os.path.join(self.dir, "bad.mlir")
        with open(bad, "w") as f:
            f.write("FAIL\n")
        t.candidates[0].spec.source = bad
        args = attention_args()
        self.assertEqual(t.best(**args).manifest.params["TILE_N"], 128)
        self.assertIn("not compiled: tile-compile failed",
                      t.results[t.key_of(args)]["timings"]["TILE_N=64"])


if __name__ == "__main__":
    unittest.main()
