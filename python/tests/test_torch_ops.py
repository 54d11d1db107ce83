"""tile_launcher.register_op: the op's signature without torch; with torch
(skipped without it), a custom op around a CPU stand-in kernel under eager,
opcheck and torch.compile(fullgraph=True); with a GPU, the runner's fixture
attention bundles as an op under torch.compile (also mode="reduce-overhead")
and CUDA graph capture, and autotune timing them with CUDA events. Run:
    python3 -m unittest discover -s python/tests
"""

import itertools
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import tile_launcher as tl  # noqa: E402
from tile_launcher import torch_ops  # noqa: E402

try:
    import torch
    HAVE_TORCH = hasattr(torch, "library") and hasattr(torch.library, "custom_op")
except ImportError:  # the tests without torch still run the rest
    torch = None
    HAVE_TORCH = False
HAVE_GPU = HAVE_TORCH and torch.cuda.is_available()

from test_launcher import ptx_for  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
BUNDLES = os.path.join(ROOT, "test", "Runner", "Inputs", "bundles")
_ids = itertools.count()


def softmax_bundle(folder, extra_abi=()):
    raw = {
        "format": "tile-bundle-2", "kernel": "softmax", "entry": "softmax",
        "ptx": "kernel.ptx", "target": "sm_80", "num_warps": 4,
        "block": [128, 1, 1], "shared_bytes": 0, "grid": ["cdiv(X.0, 4)", "1", "1"],
        "requires": ["Y.0 == X.0 && Y.1 == X.1"], "params": {"DTYPE": "f32"},
        "abi": [
            {"name": "X", "kind": "view", "rank": 2, "dtype": "f32", "align": 16,
             "access": "read"},
            {"name": "Y", "kind": "view", "rank": 2, "dtype": "f32", "align": 16,
             "access": "write"},
            {"name": "scale", "kind": "scalar", "dtype": "f32"},
        ] + list(extra_abi),
    }
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(raw, f)
    with open(os.path.join(folder, "kernel.ptx"), "w") as f:
        f.write(ptx_for(raw))  # a PTX whose entry matches the ABI (not run)
    return tl.load_manifest(folder)


class SignatureTest(unittest.TestCase):
    """What register_op makes of an ABI (no torch needed)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_signature(self):
        m = softmax_bundle(self.dir, [
            {"name": "n", "kind": "scalar", "dtype": "i32"},
            {"name": "X@tma0", "kind": "tensor_map", "view": "X", "dims": [1, 0],
             "box": [16, 4], "swizzle": 128}])
        self.assertEqual(torch_ops.op_signature(m, ["Y"]),
                         [("X", "Tensor"), ("scale", "float"), ("n", "int")])
        self.assertEqual(torch_ops.op_signature(m, []),
                         [("X", "Tensor"), ("Y", "Tensor"), ("scale", "float"), ("n", "int")])
        with self.assertRaises(tl.LaunchError) as ctx:
            torch_ops.op_signature(m, ["scale"])
        self.assertIn("output 'scale' is not a view argument of softmax", str(ctx.exception))

    def test_not_a_kernel(self):
        with self.assertRaises(TypeError):
            torch_ops._manifest_of(object())


class CpuSoftmax:
    """A stand-in kernel that runs on the CPU through torch: what
    register_op needs of a Kernel is .manifest and a call by ABI names."""

    def __init__(self, manifest):
        self.manifest = manifest
        self.calls = 0

    def __call__(self, stream=None, **args):
        self.calls += 1
        args["Y"].copy_(torch.softmax(args["X"] * args["scale"], dim=-1))


@unittest.skipUnless(HAVE_TORCH, "needs torch (>= 2.4, torch.library.custom_op)")
class CpuOpTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.kernel = CpuSoftmax(softmax_bundle(self.dir))
        torch._dynamo.reset()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def op(self, **kw):
        kw.setdefault("outputs", {"Y": "X"})
        kw.setdefault("device_types", "cpu")
        return tl.register_op(f"tiletest::softmax{next(_ids)}", self.kernel, **kw)

    def test_eager_opcheck_and_compile(self):
        op = self.op(defaults={"scale": 1.0})
        x = torch.randn(8, 32)
        torch.testing.assert_close(op(x), torch.softmax(x, -1))
        torch.testing.assert_close(op(x, 0.5), torch.softmax(x * 0.5, -1))
        torch.library.opcheck(op, (x, 0.5))
        f = torch.compile(lambda x: op(x, 0.5) * 2, fullgraph=True, backend="aot_eager")
        torch.testing.assert_close(f(x), torch.softmax(x * 0.5, -1) * 2)
        # Dynamic shapes: the fake function mirrors a symbolic shape.
        g = torch.compile(lambda x: op(x, 1.0) + 1, fullgraph=True, dynamic=True,
                          backend="aot_eager")
        for rows in (3, 5, 9):
            x = torch.randn(rows, 16)
            torch.testing.assert_close(g(x), torch.softmax(x, -1) + 1)

    def test_output_specs(self):
        # A shape function (with a dtype), a list of names.
        op = self.op(outputs={"Y": lambda X, scale: (X.shape, torch.float32)})
        x = torch.randn(4, 8)
        torch.testing.assert_close(op(x, 1.0), torch.softmax(x, -1))
        op = self.op(outputs=["Y"])
        torch.testing.assert_close(op(x, 1.0), torch.softmax(x, -1))
        f = torch.compile(lambda x: op(x, 2.0), fullgraph=True, backend="aot_eager")
        torch.testing.assert_close(f(x), torch.softmax(2 * x, -1))

    def test_in_place(self):
        op = self.op(outputs=[], mutates=["Y"])
        x, y = torch.randn(4, 8), torch.zeros(4, 8)
        self.assertIsNone(op(x, y, 1.0))
        torch.testing.assert_close(y, torch.softmax(x, -1))
        torch.library.opcheck(op, (x, torch.zeros(4, 8), 1.0))

    def test_errors(self):
        with self.assertRaises(ValueError):
            tl.register_op("nonamespace", self.kernel, outputs=["Y"])
        with self.assertRaises(tl.LaunchError) as ctx:
            self.op(outputs={"Y": "Z"})
        self.assertIn("mirrors 'Z'", str(ctx.exception))
        with self.assertRaises(tl.LaunchError):
            self.op(mutates=["Y"])  # an output, not an argument
        with self.assertRaises(tl.LaunchError):
            self.op(defaults={"X": 1.0})


def attention_reference(q, k, v, scale):
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    n = q.shape[2]
    mask = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, -1) @ v.float(), torch.logsumexp(s, -1)


@unittest.skipUnless(HAVE_GPU, "needs torch with a GPU")
class GpuOpTest(unittest.TestCase):
    """The runner's fixture attention bundles (hand-written PTX for sm_80,
    run by the driver's JIT): causal, head dim 64."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        torch._dynamo.reset()
        torch.manual_seed(0)
        B, H, S, D = 2, 4, 256, 64
        self.q, self.k, self.v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16)
                                  for _ in range(3))
        self.scale = 1 / math.sqrt(D)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def register(self, kernel):
        return tl.register_op(
            f"tiletest::fmha{next(_ids)}", kernel,
            outputs={"Out": "Q", "Lse": lambda Q, **_: (Q.shape[:3], torch.float32)})

    def check(self, out, lse=None, q=None):
        ref, ref_lse = attention_reference(self.q if q is None else q, self.k, self.v,
                                           self.scale)
        torch.testing.assert_close(out.float(), ref, atol=2e-3, rtol=2e-3)
        if lse is not None:  # the fixture writes it in log2 units
            torch.testing.assert_close(lse * math.log(2), ref_lse, atol=1e-3, rtol=1e-3)

    def test_op_eager_compile_and_graphs(self):
        kernel = tl.load(os.path.join(BUNDLES, "fmha-d64-causal-lse-w4"))
        op = self.register(kernel)
        out, lse = op(self.q, self.k, self.v, self.scale, 0)
        self.check(out, lse)
        torch.library.opcheck(op, (self.q, self.k, self.v, self.scale, 0))
        f = torch.compile(lambda q, k, v: op(q, k, v, self.scale, 0)[0] * 2, fullgraph=True)
        torch.testing.assert_close(f(self.q, self.k, self.v), out * 2)
        # CUDA graphs through torch.compile.
        g = torch.compile(lambda q, k, v: op(q, k, v, self.scale, 0)[0] + 1,
                          mode="reduce-overhead", fullgraph=True)
        for _ in range(3):
            torch.testing.assert_close(g(self.q, self.k, self.v), out + 1)
        # A captured graph, replayed on new data.
        static_q = self.q.clone()
        op(static_q, self.k, self.v, self.scale, 0)  # warm (module loaded)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            gout, glse = op(static_q, self.k, self.v, self.scale, 0)
        new_q = torch.randn_like(self.q)
        static_q.copy_(new_q)
        graph.replay()
        torch.cuda.synchronize()
        self.check(gout, glse, q=new_q)

    def test_autotune_with_cuda_events(self):
        names = ["fmha-d64-causal-lse-w4", "fmha-d64-causal-evenk-w8", "fmha-d64-causal-spills"]
        cands = [os.path.join(BUNDLES, n) for n in names]
        tuner = tl.autotune(cands, warmup=5, rep=20, cache_dir=self.dir, verbose=True)
        out = torch.empty_like(self.q)
        lse = torch.empty(self.q.shape[:3], device="cuda", dtype=torch.float32)
        args = dict(Q=self.q, K=self.k, V=self.v, Out=out, Lse=lse, qk_scale=self.scale,
                    input_pos=0)
        tuner(**args)
        torch.cuda.synchronize()
        self.check(out)
        entry = tuner.results[tuner.key_of(args)]
        timings = entry["timings"]
        self.assertEqual(sorted(timings), sorted(names))
        # The spills fixture names a cubin it lacks: skipped as not loaded
        # (by a launcher that refuses such bundles) or timed.
        self.assertTrue(isinstance(timings[names[2]], float)
                        or timings[names[2]].startswith("not loaded"))
        timed = {n: t for n, t in timings.items() if isinstance(t, float)}
        self.assertTrue(all(t > 0 for t in timed.values()))
        self.assertIn(names[0], timed)
        self.assertIn(names[1], timed)
        self.assertEqual(entry["best_label"], min(timed, key=timed.get))
        again = tl.autotune(cands, cache_dir=self.dir,
                            timer=lambda *a: self.fail("timed again"))
        self.assertEqual(again.best(**args).name, entry["best_label"])
        # The autotuner as a custom op, under torch.compile.
        op = self.register(tuner)
        f = torch.compile(lambda q: op(q, self.k, self.v, self.scale, 0)[0], fullgraph=True)
        self.check(f(self.q))
        # A fresh autotuner under CUDA graphs (reduce-overhead): it tunes in
        # the eager warm-up run, before any capture.
        fresh = tl.autotune(cands[:2], warmup=2, rep=5, cache=False)
        op = self.register(fresh)
        g = torch.compile(lambda q: op(q, self.k, self.v, self.scale, 0)[0] * 1,
                          mode="reduce-overhead", fullgraph=True)
        for _ in range(3):
            self.check(g(self.q))
        self.assertEqual(len(fresh.results), 1)
        # Tuning a new key inside a capture is refused with a clear error.
        fresh2 = tl.autotune(cands[:2], warmup=2, rep=5, cache=False)
        out2 = torch.empty_like(self.q)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with self.assertRaises(RuntimeError) as ctx:
            with torch.cuda.graph(graph):
                fresh2(**dict(args, Out=out2))
        self.assertIn("before capturing", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
