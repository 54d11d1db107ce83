"""tile_launcher.attention: choosing the bundles (no torch needed), and with
torch (skipped without it) the autograd function end to end, its launches
stood in for by CPU kernels that compute what each kernel computes (in
float64, through tile_launcher's own argument check, abi.bind, against the
kernels' manifests): forward and gradients against a float64 autograd
reference, GQA, both causal alignments, rows that see no key, ragged
lengths, the scale, empty problems, and the errors. No GPU needed. Run:
    python3 -m unittest discover -s python/tests
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import tile_launcher as tl  # noqa: E402
from tile_launcher import abi  # noqa: E402

from test_launcher import FakeTensor, ptx_for  # noqa: E402

# The module (the package's `attention` is the function).
att = sys.modules["tile_launcher.attention"]

try:
    import torch
except ImportError:  # the tests without torch still run the rest
    torch = None

ROOT = os.path.join(HERE, "..", "..")


def _view(name, dtype, rank, access, align=16):
    return {"name": name, "kind": "view", "dtype": dtype, "rank": rank, "align": align,
            "access": access}


def _scalar(name, dtype):
    return {"name": name, "kind": "scalar", "dtype": dtype}


def manifest_of(kernel, dtype="f16", head_dim=64, causal=True, group=1, even_k=False,
                tile=64, target="sm_80", dq_t=False):
    """The manifest tile-compile writes for `kernel` (kernels/<kernel>.mlir)
    with these parameters (without the compiler-specific fields; the
    kernels' ABI, grid and requires: CompiledManifestTest compares them with
    tile-compile's where it is built)."""
    d, t = str(head_dim), str(tile)
    flag = "1" if even_k else "0"
    tq = "1" if dq_t else "0"  # DQ_TRANSPOSED as tile-compile substitutes it
    if kernel == "fmha":
        params = {"CAUSAL": causal, "DTYPE": dtype, "EVEN_K": even_k, "HEAD_DIM": head_dim,
                  "QUERY_GROUP_SIZE": group, "TILE_M": tile, "TILE_N": tile,
                  "WITH_LSE": True, "WINDOW_LEFT": -1, "WINDOW_RIGHT": -1, "SOFTCAP": 0}
        grid = [f"cdiv(Q.2, {t})", "Q.0 * Q.1", "1"]
        requires = [f"Q.3 == {d}", f"K.3 == {d}", f"Q.1 == K.1 * {group}",
                    f"{flag} == 0 || K.2 % {t} == 0"]
        abi_ = [_view("Q", dtype, 4, "read"), _view("K", dtype, 4, "read"),
                _view("V", dtype, 4, "read"), _view("Out", dtype, 4, "write"),
                _view("Lse", "f32", 3, "write", 4), _scalar("qk_scale", "f32"),
                _scalar("input_pos", "i32")]
    elif kernel == "fmha_backward_preprocess":
        params = {"DQ_TRANSPOSED": dq_t, "DTYPE": dtype, "HEAD_DIM": head_dim,
                  "TILE_M": tile}
        grid = [f"cdiv(Out.2, {t})", "Out.0 * Out.1", "1"]
        requires = [f"Out.3 == {d}", f"dO.3 == {d}", "dO.2 == Out.2", "dO.1 == Out.1",
                    "dO.0 == Out.0", f"{tq} || (DQacc.3 == {d} && DQacc.2 == Out.2)",
                    f"!{tq} || (DQacc.2 == {d} && DQacc.3 == Out.2)"]
        abi_ = [_view("Out", dtype, 4, "read"), _view("dO", dtype, 4, "read"),
                _view("Delta", "f32", 3, "write", 4), _view("DQacc", "f32", 4, "write")]
    elif kernel == "fmha_backward":
        params = {"CAUSAL": causal, "DQ_TRANSPOSED": dq_t, "DTYPE": dtype,
                  "EVEN_K": even_k, "HEAD_DIM": head_dim, "QUERY_GROUP_SIZE": group,
                  "TILE_M": tile, "TILE_N": tile,
                  "WINDOW_LEFT": -1, "WINDOW_RIGHT": -1, "SOFTCAP": 0}
        grid = [f"cdiv(K.2, {t})", "K.0 * K.1", "1"]
        requires = [f"Q.3 == {d}", f"K.3 == {d}", f"Q.1 == K.1 * {group}",
                    f"{flag} == 0 || K.2 % {t} == 0",
                    f"{tq} || (DQacc.2 == Q.2 && DQacc.3 == {d})",
                    f"!{tq} || (DQacc.2 == {d} && DQacc.3 == Q.2)"]
        abi_ = [_view("Q", dtype, 4, "read"), _view("K", dtype, 4, "read"),
                _view("V", dtype, 4, "read"), _view("dO", dtype, 4, "read"),
                _view("Lse", "f32", 3, "read", 4), _view("Delta", "f32", 3, "read", 4),
                _view("DQacc", "f32", 4, "readwrite"), _view("dK", dtype, 4, "write"),
                _view("dV", dtype, 4, "write"), _scalar("qk_scale", "f32"),
                _scalar("input_pos", "i32")]
    elif kernel == "fmha_backward_postprocess":
        params = {"DQ_TRANSPOSED": dq_t, "DTYPE": dtype, "HEAD_DIM": head_dim,
                  "TILE_M": tile}
        grid = [f"cdiv(dQ.2, {t})", "dQ.0 * dQ.1", "1"]
        requires = [f"dQ.3 == {d}", f"{tq} || (DQacc.3 == {d} && DQacc.2 == dQ.2)",
                    f"!{tq} || (DQacc.2 == {d} && DQacc.3 == dQ.2)",
                    "DQacc.1 == dQ.1", "DQacc.0 == dQ.0"]
        abi_ = [_view("DQacc", "f32", 4, "read"), _view("dQ", dtype, 4, "write"),
                _scalar("qk_scale", "f32")]
    else:
        raise ValueError(kernel)
    return {"format": "tile-bundle-2", "kernel": kernel, "entry": kernel,
            "ptx": "kernel.ptx", "target": target, "num_warps": 4, "block": [128, 1, 1],
            "shared_bytes": 0, "grid": grid, "requires": requires, "params": params,
            "abi": abi_}


def write_bundle(folder, raw):
    os.makedirs(folder)
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(raw, f)
    with open(os.path.join(folder, "kernel.ptx"), "w") as f:
        f.write(ptx_for(raw))


def write_set(root, dtypes=("f16", "bf16"), dims=(64,), groups=(1, 2), target="sm_80",
              even=(False, True)):
    """A bundle folder as bench/compile_bundles.sh's `backward` set makes it."""
    n = 0
    for dtype in dtypes:
        for d in dims:
            for k in ("fmha_backward_preprocess", "fmha_backward_postprocess"):
                write_bundle(os.path.join(root, f"{k}-{dtype}-d{d}-{target}"),
                             manifest_of(k, dtype, d, target=target))
            for causal in (False, True):
                for g in groups:
                    for e in even:
                        for k in ("fmha", "fmha_backward"):
                            n += 1
                            write_bundle(os.path.join(root, f"{k}-{n}-{target}"),
                                         manifest_of(k, dtype, d, causal, g, e,
                                                     target=target))


class BundleSetTest(unittest.TestCase):
    """Which bundle a call gets, and the errors (no torch needed)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_select(self):
        write_set(self.dir)
        s = tl.BundleSet(self.dir, device=(8, 0))
        want = dict(HEAD_DIM=64, DTYPE="f16", CAUSAL=True, QUERY_GROUP_SIZE=2)
        # A key length that is a multiple of TILE_N: the EVEN_K bundle.
        self.assertIs(s.select("fmha_backward", want, 128).params["EVEN_K"], True)
        # Ragged: EVEN_K = false.
        m = s.select("fmha_backward", want, 77)
        self.assertIs(m.params["EVEN_K"], False)
        self.assertEqual(m.params["QUERY_GROUP_SIZE"], 2)
        self.assertEqual(s.select("fmha_backward_preprocess",
                                  dict(HEAD_DIM=64, DTYPE="bf16")).params["DTYPE"], "bf16")
        plan = att.Plan(s, "bf16", 64, 1, False, 100)
        self.assertEqual(plan.forward.kernel, "fmha")
        self.assertIs(plan.forward.params["WITH_LSE"], True)
        self.assertIs(plan.main.params["CAUSAL"], False)
        self.assertEqual(plan.post.kernel, "fmha_backward_postprocess")

    def test_window_not_plain(self):
        # A sliding-window or soft-capped bundle never serves plain attention.
        write_set(self.dir, dtypes=("f16",), groups=(1,), even=(True,))
        for name, extra in (("w", {"WINDOW_LEFT": 64}), ("sc", {"SOFTCAP": 30})):
            m = manifest_of("fmha", "f16", 64, True, 1, False)
            m["params"].update(extra)
            write_bundle(os.path.join(self.dir, f"fmha-{name}-sm_80"), m)
        s = tl.BundleSet(self.dir, device=(8, 0))
        # Ragged keys: only the window and cap bundles have EVEN_K = false.
        with self.assertRaises(tl.AttentionError):
            att.Plan(s, "f16", 64, 1, True, 77)
        plan = att.Plan(s, "f16", 64, 1, True, 640)
        self.assertEqual(plan.forward.params["WINDOW_LEFT"], -1)
        self.assertEqual(plan.forward.params["SOFTCAP"], 0)
        # Asked for, a window is selected.
        m = s.select("fmha", dict(HEAD_DIM=64, DTYPE="f16", WINDOW_LEFT=64), 77)
        self.assertEqual(m.params["WINDOW_LEFT"], 64)

    def test_dq_transposed(self):
        """The pre- and postprocess follow the main kernel's DQ_TRANSPOSED
        (a variant set as plan.main after construction too), and so does
        the accumulator's shape; bundles without the param count as false."""
        write_set(self.dir, dtypes=("f16",), groups=(1,))
        for k in ("fmha_backward_preprocess", "fmha_backward_postprocess",
                  "fmha_backward"):
            write_bundle(os.path.join(self.dir, f"{k}-t"),
                         manifest_of(k, "f16", 64, True, 1, True, dq_t=True))
        # A bundle compiled before the param existed: false.
        raw = manifest_of("fmha_backward_preprocess", "bf16", 64)
        del raw["params"]["DQ_TRANSPOSED"]
        write_bundle(os.path.join(self.dir, "old-pre"), raw)
        s = tl.BundleSet(self.dir, device=(8, 0))
        plan = att.Plan(s, "f16", 64, 1, True, 128)
        self.assertIs(plan.main.params["DQ_TRANSPOSED"], False)
        self.assertIs(plan.pre.params["DQ_TRANSPOSED"], False)
        self.assertIs(plan.post.params["DQ_TRANSPOSED"], False)
        self.assertEqual(plan.dq_acc_shape(2, 4, 100, 64), (2, 4, 100, 64))
        plan.main = s.select("fmha_backward", dict(HEAD_DIM=64, DTYPE="f16", CAUSAL=True,
                                                   DQ_TRANSPOSED=True), 128)
        self.assertTrue(plan.pre.dir.endswith("fmha_backward_preprocess-t"))
        self.assertTrue(plan.post.dir.endswith("fmha_backward_postprocess-t"))
        self.assertEqual(plan.dq_acc_shape(2, 4, 100, 64), (2, 4, 64, 100))
        self.assertTrue(s.select("fmha_backward_preprocess",
                                 dict(DTYPE="bf16", DQ_TRANSPOSED=False)).dir.endswith("old-pre"))

    def test_missing(self):
        write_set(self.dir, dims=(64,), groups=(1,))
        s = tl.BundleSet(self.dir, device=(8, 0))
        with self.assertRaises(tl.AttentionError) as ctx:
            att.Plan(s, "f16", 128, 1, True, 64)
        msg = str(ctx.exception)
        self.assertIn("no fmha bundle with HEAD_DIM=128, DTYPE=f16, CAUSAL=true", msg)
        self.assertIn("it has: CAUSAL=false, DTYPE=bf16, EVEN_K=false, HEAD_DIM=64", msg)
        self.assertIn("WITH_LSE=true [sm_80]", msg)
        self.assertIn("compile_bundles.sh OUT backward", msg)
        with self.assertRaises(tl.AttentionError) as ctx:
            att.Plan(s, "f16", 64, 4, True, 64)
        self.assertIn("QUERY_GROUP_SIZE=4", str(ctx.exception))

    def test_only_even_k(self):
        write_set(self.dir, dtypes=("f16",), groups=(1,), even=(True,))
        s = tl.BundleSet(self.dir, device=(8, 0))
        self.assertIs(att.Plan(s, "f16", 64, 1, True, 640).main.params["EVEN_K"], True)
        with self.assertRaises(tl.AttentionError) as ctx:
            att.Plan(s, "f16", 64, 1, True, 77)
        self.assertIn("EVEN_K=false (or true with TILE_N dividing 77)", str(ctx.exception))

    def test_device(self):
        # sm_90a PTX does not run on 8.0; sm_80 PTX runs on 9.0, where the
        # sm_90a bundles are preferred.
        write_set(self.dir, dtypes=("f16",), groups=(1,), target="sm_90a")
        with self.assertRaises(tl.AttentionError) as ctx:
            att.Plan(tl.BundleSet(self.dir, device=(8, 0)), "f16", 64, 1, True, 64)
        self.assertIn("for compute capability 8.0", str(ctx.exception))
        self.assertIn("[sm_90a]", str(ctx.exception))
        write_set(os.path.join(self.dir, "more"), dtypes=("f16",), groups=(1,))
        # Sub-folders of sub-folders are not searched: only the top level.
        with self.assertRaises(tl.AttentionError):
            att.Plan(tl.BundleSet(self.dir, device=(8, 0)), "f16", 64, 1, True, 64)
        shutil.rmtree(os.path.join(self.dir, "more"))
        sub = tempfile.mkdtemp()
        try:
            write_set(sub, dtypes=("f16",), groups=(1,), target="sm_80")
            for name in os.listdir(self.dir):
                shutil.copytree(os.path.join(self.dir, name), os.path.join(sub, name))
            s = tl.BundleSet(sub, device=(9, 0))
            self.assertEqual(att.Plan(s, "f16", 64, 1, True, 64).main.target, "sm_90a")
            s = tl.BundleSet(sub, device=(8, 6))
            self.assertEqual(att.Plan(s, "f16", 64, 1, True, 64).main.target, "sm_80")
        finally:
            shutil.rmtree(sub)

    def test_folder_errors(self):
        with self.assertRaises(tl.AttentionError) as ctx:
            tl.BundleSet(os.path.join(self.dir, "nope"))
        self.assertIn("is not a folder", str(ctx.exception))
        with self.assertRaises(tl.AttentionError) as ctx:
            tl.BundleSet(self.dir)
        self.assertIn("holds no bundle of fmha, fmha_backward_preprocess", str(ctx.exception))
        with self.assertRaises(tl.AttentionError):
            tl.BundleSet(None)
        with mock.patch.dict(os.environ, {att.ENV_VAR: ""}):
            with self.assertRaises(tl.AttentionError) as ctx:
                att.bundle_set(None)
        self.assertIn("TILE_ATTENTION_BUNDLES", str(ctx.exception))
        # A damaged bundle is named, not skipped.
        os.makedirs(os.path.join(self.dir, "bad"))
        with open(os.path.join(self.dir, "bad", "manifest.json"), "w") as f:
            f.write("{")
        with self.assertRaises(tl.BundleError):
            tl.BundleSet(self.dir)

    def test_environment(self):
        write_set(self.dir, dtypes=("f16",), groups=(1,))
        with mock.patch.dict(os.environ, {att.ENV_VAR: self.dir}):
            s = att.bundle_set(None)
        self.assertEqual(s.directory, os.path.abspath(self.dir))
        self.assertIs(att.bundle_set(s), s)


TILE_COMPILE = os.path.join(ROOT, "build", "bin", "tile-compile")


@unittest.skipUnless(os.access(TILE_COMPILE, os.X_OK), "needs build/bin/tile-compile")
class CompiledManifestTest(unittest.TestCase):
    """manifest_of says what tile-compile writes for the four kernels: their
    ABI (names, dtypes, ranks, alignment, access), grid and requires."""

    def test_same_as_tile_compile(self):
        tmp = tempfile.mkdtemp()
        try:
            for kernel, params, kw in [
                    ("fmha", "HEAD_DIM=64,DTYPE=bf16,WITH_LSE=true,QUERY_GROUP_SIZE=2,"
                     "EVEN_K=false", dict(dtype="bf16", group=2, even_k=False)),
                    ("fmha_backward", "HEAD_DIM=128,CAUSAL=false,QUERY_GROUP_SIZE=4",
                     dict(head_dim=128, causal=False, group=4, even_k=True)),
                    ("fmha_backward_preprocess", "HEAD_DIM=64", {}),
                    ("fmha_backward_postprocess", "HEAD_DIM=64,DTYPE=bf16",
                     dict(dtype="bf16"))]:
                out = os.path.join(tmp, kernel)
                subprocess.run([TILE_COMPILE, os.path.join(ROOT, "kernels", kernel + ".mlir"),
                                "--chip=sm_80", "--no-cubin", "--quiet", "--params=" + params,
                                "-o", out], check=True)
                with open(os.path.join(out, "manifest.json")) as f:
                    real = json.load(f)
                ours = manifest_of(kernel, **kw)
                for field in ("grid", "requires", "params", "abi"):
                    self.assertEqual(real[field], ours[field], f"{kernel}: {field}")
        finally:
            shutil.rmtree(tmp)


# --- the autograd function on CPU stand-ins ----------------------------------

LOG2E = 1.0 / math.log(2.0)
FLT_MAX = 3.4028234663852886e38


def visible(Sq, Sk, causal, input_pos):
    """[Sq, Sk] bool: key n is seen by query m."""
    m = torch.arange(Sq).unsqueeze(1)
    n = torch.arange(Sk).unsqueeze(0)
    return (n <= m + input_pos) if causal else torch.ones(Sq, Sk, dtype=torch.bool)


class CpuAttentionKernels:
    """Kernels that compute, on the CPU in float64, what kernels/fmha.mlir
    (WITH_LSE) and the three backward kernels compute, each call checked
    against its manifest first (abi.bind: names, dtypes, ranks, alignment,
    requires, grid)."""

    def __init__(self):
        self.calls = []

    def load(self, folder):
        manifest = tl.load_manifest(folder)

        def run(**args):
            # The check sees the CPU tensors as GPU ones (FakeTensor: their
            # address, shape, strides and dtype).
            abi.bind(manifest, {n: FakeTensor(t.shape, str(t.dtype), t.data_ptr(),
                                              list(t.stride()))
                                if isinstance(t, torch.Tensor) else t
                                for n, t in args.items()})
            self.calls.append(manifest.kernel)
            getattr(self, manifest.kernel)(manifest.params, **args)
        return run

    @staticmethod
    def _expand(x, group):
        return x.double().repeat_interleave(group, dim=1)

    def fmha(self, p, Q, K, V, Out, Lse, qk_scale, input_pos):
        group = p["QUERY_GROUP_SIZE"]
        k, v = self._expand(K, group), self._expand(V, group)
        s = Q.double() @ k.transpose(-1, -2) * qk_scale
        seen = visible(Q.shape[2], K.shape[2], p["CAUSAL"], input_pos)
        s = s.masked_fill(~seen, -math.inf)
        lse = torch.logsumexp(s, -1)
        empty = torch.isinf(lse)
        prob = torch.exp(s - lse.unsqueeze(-1)).nan_to_num(0.0)
        Out.copy_((prob @ v).to(Out.dtype))
        Lse.copy_(torch.where(empty, torch.full_like(lse, FLT_MAX), lse * LOG2E).float())

    def fmha_backward_preprocess(self, p, Out, dO, Delta, DQacc):
        Delta.copy_((Out.double() * dO.double()).sum(-1).float())
        DQacc.zero_()

    def fmha_backward(self, p, Q, K, V, dO, Lse, Delta, DQacc, dK, dV, qk_scale, input_pos):
        group = p["QUERY_GROUP_SIZE"]
        k, v = self._expand(K, group), self._expand(V, group)
        s = Q.double() @ k.transpose(-1, -2)
        seen = visible(Q.shape[2], K.shape[2], p["CAUSAL"], input_pos)
        arg = (s * (qk_scale * LOG2E) - Lse.double().unsqueeze(-1)).masked_fill(~seen, -math.inf)
        prob = torch.exp2(arg)
        dp = dO.double() @ v.transpose(-1, -2)
        ds = prob * (dp - Delta.double().unsqueeze(-1))
        dv = prob.transpose(-1, -2) @ dO.double()
        dk = ds.transpose(-1, -2) @ Q.double() * qk_scale
        B, Hk = K.shape[:2]
        dV.copy_(dv.reshape(B, Hk, group, *dv.shape[2:]).sum(2).to(dV.dtype))
        dK.copy_(dk.reshape(B, Hk, group, *dk.shape[2:]).sum(2).to(dK.dtype))
        dq = ds @ k
        # DQ_TRANSPOSED: the accumulator is [B, H, D, Sq].
        DQacc.add_((dq.transpose(-1, -2) if p.get("DQ_TRANSPOSED") else dq).float())

    def fmha_backward_postprocess(self, p, DQacc, dQ, qk_scale):
        acc = DQacc.transpose(-1, -2) if p.get("DQ_TRANSPOSED") else DQacc
        dQ.copy_((acc.double() * qk_scale).to(dQ.dtype))


def reference(q, k, v, causal, scale, input_pos):
    """softmax attention in float64 through torch autograd; rows that see
    no key give 0."""
    group = q.shape[1] // k.shape[1]
    kk, vv = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    s = q @ kk.transpose(-1, -2) * scale
    seen = visible(q.shape[2], k.shape[2], causal, input_pos)
    s = s.masked_fill(~seen, -math.inf)
    prob = torch.softmax(s, -1).nan_to_num(0.0)
    return prob @ vv


@unittest.skipUnless(torch is not None, "needs torch")
class AutogradTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        write_set(self.dir, dims=(64, 32), groups=(1, 2, 4))
        self.kernels = CpuAttentionKernels()
        self.bundles = tl.BundleSet(self.dir, loader=self.kernels.load, device=(8, 0))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check(self, B=1, H=2, Hk=2, Sq=77, Sk=77, D=64, dtype=None, causal=False,
              alignment="top-left", scale=None, seed=0):
        dtype = dtype or torch.float16
        g = torch.Generator().manual_seed(seed)
        q = torch.randn(B, H, Sq, D, generator=g).to(dtype).requires_grad_()
        k = torch.randn(B, Hk, Sk, D, generator=g).to(dtype).requires_grad_()
        v = torch.randn(B, Hk, Sk, D, generator=g).to(dtype).requires_grad_()
        dout = torch.randn(B, H, Sq, D, generator=g).to(dtype)
        out = tl.attention(q, k, v, causal=causal, scale=scale,
                           causal_alignment=alignment, bundles=self.bundles)
        self.assertEqual(out.dtype, dtype)
        self.assertEqual(out.shape, q.shape)
        out.backward(dout)
        ref_in = [t.detach().double().requires_grad_() for t in (q, k, v)]
        pos = Sk - Sq if causal and alignment == "bottom-right" else 0
        ref = reference(*ref_in, causal, scale if scale is not None else D ** -0.5, pos)
        ref.backward(dout.double())
        tol = 2 ** -7 if dtype == torch.bfloat16 else 2 ** -10
        for name, got, want in [("out", out, ref)] + [
                (n, t.grad, r.grad) for n, t, r in zip("qkv", (q, k, v), ref_in)]:
            self.assertEqual(got.dtype, dtype, name)
            self.assertTrue(torch.isfinite(got).all(), name)
            err = (got.double() - want).abs().max().item()
            scale_ = want.abs().max().item() + 1e-3
            self.assertLessEqual(err, 4 * tol * scale_, f"{name}: error {err}")
        return q, k, v

    def test_dq_transposed(self):
        """A DQ_TRANSPOSED main kernel (the two-warpgroup variant) set as
        plan.main runs with its pre- and postprocess and a [B, H, D, Sq]
        accumulator (each launch checked against its manifest's requires),
        and gives the default plan's gradients."""
        for k in ("fmha_backward_preprocess", "fmha_backward_postprocess", "fmha_backward"):
            write_bundle(os.path.join(self.dir, f"{k}-t"),
                         manifest_of(k, "f16", 64, False, 1, True, dq_t=True))
        bundles = tl.BundleSet(self.dir, loader=self.kernels.load, device=(8, 0))
        g = torch.Generator().manual_seed(5)
        q, k, v, dout = (torch.randn(1, 2, 128, 64, generator=g).half() for _ in range(4))
        plan = att.Plan(bundles, "f16", 64, 1, False, 128)
        out, lse = plan.run_forward(torch, q, k, v, 0.125, 0)
        want = plan.run_backward(torch, q, k, v, out, lse, dout, 0.125, 0)
        plan.main = bundles.select("fmha_backward", dict(HEAD_DIM=64, DTYPE="f16", CAUSAL=False,
                                                         DQ_TRANSPOSED=True), 128)
        self.kernels.calls.clear()
        got = plan.run_backward(torch, q, k, v, out, lse, dout, 0.125, 0)
        self.assertEqual(self.kernels.calls, ["fmha_backward_preprocess", "fmha_backward",
                                              "fmha_backward_postprocess"])
        for x, y in zip(got, want):
            self.assertTrue(torch.equal(x, y))

    def test_plain(self):
        self.check()
        self.assertEqual(self.kernels.calls, ["fmha", "fmha_backward_preprocess",
                                              "fmha_backward", "fmha_backward_postprocess"])

    def test_causal_gqa_bf16(self):
        self.check(H=8, Hk=2, Sq=100, Sk=100, causal=True, dtype=torch.bfloat16)

    def test_bottom_right_rows_that_see_nothing(self):
        # Sq > Sk, bottom-right: the first Sq - Sk rows see no key: 0, and
        # their q gradient is 0.
        q, _, _ = self.check(H=4, Hk=1, Sq=90, Sk=30, causal=True, alignment="bottom-right")
        self.assertEqual(q.grad[:, :, :59].abs().max().item(), 0.0)

    def test_top_left_sq_less_than_sk(self):
        self.check(Sq=33, Sk=128, causal=True, D=32, scale=0.3, seed=3)
        self.check(B=2, Sq=33, Sk=128, causal=True, alignment="bottom-right", seed=4)

    def test_scale_passed(self):
        q = torch.randn(1, 2, 64, 64).half()
        with mock.patch.object(self.kernels, "fmha_backward_postprocess",
                               wraps=self.kernels.fmha_backward_postprocess) as post:
            out = tl.attention(q.requires_grad_(), q.detach().clone(), q.detach().clone(),
                               scale=0.25, bundles=self.bundles)
            out.sum().backward()
        self.assertAlmostEqual(post.call_args.kwargs["qk_scale"], 0.25)

    def test_noncontiguous_inputs(self):
        # (B, S, H, D) tensors transposed to (B, H, S, D), as models make them,
        # and a gradient with zero strides (sum().backward()).
        x = torch.randn(1, 70, 2, 64).half()
        q = x.transpose(1, 2).requires_grad_()
        out = tl.attention(q, q.detach(), q.detach(), bundles=self.bundles)
        out.sum().backward()
        self.assertEqual(q.grad.shape, q.shape)
        self.assertTrue(torch.isfinite(q.grad).all())

    def test_empty(self):
        q = torch.randn(1, 2, 0, 64).half().requires_grad_()
        k = torch.randn(1, 2, 5, 64).half().requires_grad_()
        out = tl.attention(q, k, k.detach().clone(), bundles=self.bundles)
        self.assertEqual(out.shape, (1, 2, 0, 64))
        out.sum().backward()
        self.assertEqual(k.grad.abs().max().item(), 0.0)
        q = torch.randn(1, 2, 7, 64).half().requires_grad_()
        k = torch.randn(1, 2, 0, 64).half()
        out = tl.attention(q, k, k, bundles=self.bundles)
        self.assertEqual(out.abs().max().item(), 0.0)
        self.assertEqual(self.kernels.calls, [])

    def test_errors(self):
        q = torch.randn(1, 2, 16, 64).half()
        cases = [
            (dict(q=q.float(), k=q.float(), v=q.float()), "the kernels take torch.float16"),
            (dict(q=q[0]), "must be 4-D"),
            (dict(k=q.bfloat16(), v=q.bfloat16()), "must have one dtype"),
            (dict(v=q[..., :32]), "k and v must have one shape"),
            (dict(k=q[..., :32], v=q[..., :32]), "q has head dimension 64, k and v 32"),
            (dict(k=torch.randn(1, 3, 16, 64).half(), v=torch.randn(1, 3, 16, 64).half()),
             "must be a multiple of the key/value heads"),
            (dict(k=torch.randn(2, 2, 16, 64).half(), v=torch.randn(2, 2, 16, 64).half()),
             "q has batch 1"),
            (dict(causal=1), "causal must be a bool"),
            (dict(causal_alignment="left"), "causal_alignment must be"),
            (dict(scale=math.inf), "scale must be finite"),
            (dict(q=[1]), "q must be a torch.Tensor"),
            (dict(q=torch.randn(1, 2, 16, 96).half(), k=torch.randn(1, 2, 16, 96).half(),
                  v=torch.randn(1, 2, 16, 96).half()), "no fmha bundle with HEAD_DIM=96"),
        ]
        for kw, msg in cases:
            args = dict(q=q, k=q, v=q)
            args.update(kw)
            with self.subTest(msg=msg):
                with self.assertRaises(tl.AttentionError) as ctx:
                    tl.attention(bundles=self.bundles, **args)
                self.assertIn(msg, str(ctx.exception))

    def test_launch_check_runs(self):
        # The stand-ins check each call against the manifest: a bundle whose
        # requires disagree with the call is refused by abi.bind.
        shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        for k in ("fmha", "fmha_backward_preprocess", "fmha_backward",
                  "fmha_backward_postprocess"):
            raw = manifest_of(k, "f16", 64, causal=False, group=1, even_k=True)
            if k == "fmha":
                raw["requires"][0] = "Q.3 == 65"
            write_bundle(os.path.join(self.dir, k), raw)
        bundles = tl.BundleSet(self.dir, loader=self.kernels.load, device=(8, 0))
        q = torch.randn(1, 2, 64, 64).half()
        with self.assertRaises(tl.LaunchError) as ctx:
            tl.attention(q, q, q, bundles=bundles)
        self.assertIn("Q.3 == 65", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
