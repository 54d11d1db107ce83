#!/usr/bin/env python3
"""GPU check of the attention backward (issue 24) against PyTorch, then its
speed against SDPA's backward.

usage: check_backward.py BUNDLE_DIR [--quick] [--no-timing]
  BUNDLE_DIR: `bench/compile_bundles.sh BUNDLE_DIR backward` (the forward
  with LSE and the three backward kernels for every dtype, D 64/128, causal
  or not, GQA group 1/4, EVEN_K; main-kernel variants in variants/).

1. Correctness, on shapes nobody tuned on (ragged lengths, GQA, both causal
   alignments, rows that see no key, Sq != Sk, fp16 and bf16, D 64 and 128):
   the three backward kernels run on outputs poisoned with NaN (dQ, dK,
   dV and the f32 dQ accumulator, which the preprocess must zero), after
   our forward (Out, Lse); dQ, dK, dV are compared with float64 autograd of
   the textbook attention. The bar (issue 24): each max error at most 2x
   the error of torch's own same-dtype backward (SDPA's, with GQA by
   repeating k and v, where SDPA has the semantics: no mask or top-left
   causal and every row seeing a key; else the same-dtype math
   implementation, noted "math"), plus 1e-4 * max(1, max|ref|) (a floor for
   gradients that are 0 in exact arithmetic: one key a row makes dS = 0, and
   torch's f32 gets it exactly while ours is off by f32 roundoff, ~1e-7).
   Also checks that
   tile_launcher.attention (the autograd function) gives the same gradients
   as the direct launches, and the forward's output against the reference;
   then each main-kernel variant of BUNDLE_DIR/variants the same way.
2. Timing (one process, one timer: triton.testing.do_bench, median; CUDA
   events if triton is missing): the backward alone, ours (the three
   kernels, through torch.autograd.grad of tile_launcher.attention) against
   SDPA's backward with the cuDNN and the flash backends (whichever this
   torch has), B*S = 16k, H*D = 2048, D = 128 (H = 16), S = 1k..16k, fp16
   and bf16, causal and not; TFLOPS with the usual convention: the
   backward counts 2.5x the forward's 4 B H S^2 D (halved for causal).
   Then each main-kernel variant of BUNDLE_DIR/variants at fp16.
Exit status 0 when every correctness check passed (timing never fails).
"""
import argparse
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile_launcher as tl  # noqa: E402

att = sys.modules["tile_launcher.attention"]
failures = []
DEVICE = "cuda"  # the dry run of the script's logic (no GPU) sets "cpu"
# The timed shapes: B * S = TOKENS, H * D = HEADS * 128 = 2048.
TOKENS, HEADS, SEQS = 16384, 16, [1024, 2048, 4096, 8192, 16384]


def synchronize():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def visible(sq, sk, causal, input_pos, device):
    m = torch.arange(sq, device=device).unsqueeze(1)
    n = torch.arange(sk, device=device).unsqueeze(0)
    if not causal:
        return torch.ones(sq, sk, dtype=torch.bool, device=device)
    return n <= m + input_pos


def math_attention(q, k, v, causal, scale, input_pos):
    """Textbook attention in q's dtype (float64 for the reference); rows
    that see no key give 0 (as our kernels)."""
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    s = (q @ k.transpose(-1, -2)).float() * scale if q.dtype != torch.float64 \
        else q @ k.transpose(-1, -2) * scale
    seen = visible(q.shape[2], k.shape[2], causal, input_pos, q.device)
    s = s.masked_fill(~seen, -math.inf)
    p = torch.softmax(s, -1).nan_to_num(0.0).to(q.dtype)
    return p @ v


def sdpa_attention(q, k, v, causal, scale):
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


def grads(fn, q, k, v, dout):
    q, k, v = (t.detach().clone().requires_grad_() for t in (q, k, v))
    out = fn(q, k, v)
    dq, dk, dv = torch.autograd.grad(out, (q, k, v), dout)
    return out.detach(), dq, dk, dv


def direct_backward(plan, q, k, v, out, lse, dout, scale, input_pos):
    """The three backward kernels, every output poisoned with NaN first."""
    B, H, Sq, D = q.shape
    nan = float("nan")
    delta = torch.full((B, H, Sq), nan, dtype=torch.float32, device=q.device)
    dq_acc = torch.full(plan.dq_acc_shape(B, H, Sq, D), nan, dtype=torch.float32,
                        device=q.device)
    dk, dv, dq = torch.full_like(k, nan), torch.full_like(v, nan), torch.full_like(q, nan)
    b = plan.bundles
    b.kernel(plan.pre)(Out=out, dO=dout, Delta=delta, DQacc=dq_acc)
    b.kernel(plan.main)(Q=q, K=k, V=v, dO=dout, Lse=lse, Delta=delta, DQacc=dq_acc,
                        dK=dk, dV=dv, qk_scale=scale, input_pos=input_pos)
    b.kernel(plan.post)(DQacc=dq_acc, dQ=dq, qk_scale=scale)
    synchronize()
    return dq, dk, dv


CASES = [
    # B, H, Hkv, Sq, Sk, D, dtype, causal, alignment
    (2, 4, 4, 300, 300, 128, torch.float16, False, "top-left"),
    (1, 8, 2, 257, 257, 64, torch.bfloat16, True, "top-left"),
    (1, 4, 1, 200, 333, 128, torch.float16, True, "bottom-right"),
    (1, 4, 4, 333, 200, 64, torch.float16, True, "bottom-right"),   # rows without keys
    (1, 4, 4, 100, 1000, 128, torch.bfloat16, True, "top-left"),    # the last keys unseen
    (2, 4, 1, 1000, 100, 64, torch.bfloat16, False, "top-left"),
    (3, 2, 2, 1024, 1024, 128, torch.float16, True, "top-left"),    # EVEN_K
    (1, 8, 2, 640, 640, 128, torch.bfloat16, False, "top-left"),    # EVEN_K, GQA
    (1, 2, 2, 1, 77, 64, torch.float16, False, "top-left"),
    (2, 4, 4, 77, 1, 128, torch.float16, True, "bottom-right"),
]


def correctness(bundles, cases):
    for (B, H, Hk, Sq, Sk, D, dtype, causal, align) in cases:
        name = (f"B{B} H{H}/{Hk} Sq{Sq} Sk{Sk} D{D} {str(dtype)[6:]} "
                f"{'causal-' + align if causal else 'full'}")
        try:
            g = torch.Generator(device=DEVICE).manual_seed(Sq * 7 + Sk)
            mk = lambda *s: torch.randn(*s, generator=g, device=DEVICE).to(dtype)  # noqa: E731
            q, k, v, dout = mk(B, H, Sq, D), mk(B, Hk, Sk, D), mk(B, Hk, Sk, D), mk(B, H, Sq, D)
            scale = D ** -0.5
            pos = Sk - Sq if causal and align == "bottom-right" else 0
            plan = att.Plan(bundles, att._DTYPES[str(dtype)], D, H // Hk, causal, Sk)
            out, lse = plan.run_forward(torch, q, k, v, scale, pos)
            dq, dk, dv = direct_backward(plan, q, k, v, out, lse, dout, scale, pos)
            ref = grads(lambda a, b, c: math_attention(a, b, c, causal, scale, pos),
                        *(t.double() for t in (q, k, v, dout)))
            # SDPA's is_causal is top-left, and it has no row without a key.
            use_sdpa = not causal or pos == 0
            base_name = "sdpa" if use_sdpa else "math"
            try:
                base = grads((lambda a, b, c: sdpa_attention(a, b, c, causal, scale))
                             if use_sdpa else
                             (lambda a, b, c: math_attention(a, b, c, causal, scale, pos)),
                             q, k, v, dout)
            except (RuntimeError, AttributeError, TypeError) as e:  # no SDPA kernel: math
                print(f"     (sdpa: {str(e)[:80]}; math baseline)")
                base_name = "math"
                base = grads(lambda a, b, c: math_attention(a, b, c, causal, scale, pos),
                             q, k, v, dout)
            ok_all, parts = True, []
            for label, ours, theirs, want in zip(("O", "dQ", "dK", "dV"),
                                                 (out, dq, dk, dv), base, ref):
                finite = bool(torch.isfinite(ours).all())
                err = (ours.double() - want).abs().max().item() if finite else math.inf
                tref = (theirs.double() - want).abs().nan_to_num(math.inf).max().item()
                bar = 2 * tref + 1e-4 * max(1.0, want.abs().max().item())
                ok = finite and err <= bar
                ok_all &= ok
                parts.append(f"{label} {err:.2e}/{tref:.2e}{'' if ok else ' !'}")
            check(name, ok_all, f"[ours/{base_name}] " + "  ".join(parts))
            # The autograd function gives the same gradients.
            got = grads(lambda a, b, c: tl.attention(a, b, c, causal=causal, scale=scale,
                                                     causal_alignment=align, bundles=bundles),
                        q, k, v, dout)
            same = all(torch.allclose(x.float(), y.float(), rtol=2e-2, atol=1e-2 *
                                      (y.float().abs().max().item() + 1e-6))
                       for x, y in zip(got, (out, dq, dk, dv)))
            check(name + " autograd", same)
        except Exception as e:  # one failing case does not stop the rest
            check(name, False, f"{type(e).__name__}: {e}")


def check_variants(bundles, bundle_dir):
    """Each main-kernel variant of BUNDLE_DIR/variants on a shape of its
    params (fp16 D=128, no GQA, EVEN_K), poisoned outputs, the same bar."""
    for m in load_variants(bundle_dir):
        causal = m.params.get("CAUSAL")
        B, H, S, D = 2, 4, 640, 128
        name = f"variant {os.path.basename(m.dir)} B{B} H{H} S{S} D{D}"
        try:
            g = torch.Generator(device=DEVICE).manual_seed(S + (1 if causal else 0))
            mk = lambda *s: torch.randn(*s, generator=g, device=DEVICE).half()  # noqa: E731
            q, k, v, dout = (mk(B, H, S, D) for _ in range(4))
            plan = att.Plan(bundles, "f16", D, 1, causal, S)
            plan.main = m
            out, lse = plan.run_forward(torch, q, k, v, D ** -0.5, 0)
            got = direct_backward(plan, q, k, v, out, lse, dout, D ** -0.5, 0)
            ref = grads(lambda a, b, c: math_attention(a, b, c, causal, D ** -0.5, 0),
                        *(t.double() for t in (q, k, v, dout)))[1:]
            base = grads(lambda a, b, c: sdpa_attention(a, b, c, causal, D ** -0.5),
                         q, k, v, dout)[1:]
            parts, ok_all = [], True
            for label, ours, theirs, want in zip(("dQ", "dK", "dV"), got, base, ref):
                finite = bool(torch.isfinite(ours).all())
                err = (ours.double() - want).abs().max().item() if finite else math.inf
                tref = (theirs.double() - want).abs().max().item()
                ok = finite and err <= 2 * tref + 1e-4 * max(1.0, want.abs().max().item())
                ok_all &= ok
                parts.append(f"{label} {err:.2e}/{tref:.2e}{'' if ok else ' !'}")
            check(name, ok_all, "[ours/sdpa] " + "  ".join(parts))
        except Exception as e:
            check(name, False, f"{type(e).__name__}: {e}")


def load_variants(bundle_dir):
    vdir = os.path.join(bundle_dir, "variants")
    if not os.path.isdir(vdir):
        return []
    return [tl.load_manifest(os.path.join(vdir, d)) for d in sorted(os.listdir(vdir))
            if os.path.isfile(os.path.join(vdir, d, "manifest.json"))]


def bench(fn):
    try:
        import triton.testing as tt
        return tt.do_bench(fn, return_mode="median")
    except ImportError:
        for _ in range(3):
            fn()
        times = []
        for _ in range(20):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b))
        return sorted(times)[len(times) // 2]


def sdpa_backends():
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return []
    out = []
    for name in ("CUDNN_ATTENTION", "FLASH_ATTENTION"):
        if hasattr(SDPBackend, name):
            out.append((name.split("_")[0].lower(), sdpa_kernel, getattr(SDPBackend, name)))
    return out


def timing(bundles, bundle_dir, quick):
    print("\nbackward timing (ms, median; TFLOPS = 2.5 x 4 B H S^2 D [/2 causal] / t)")
    backends = sdpa_backends()
    head = f"{'dtype':5} {'causal':6} {'S':>6} {'ours ms':>8} {'TFLOPS':>7}"
    for b, _, _ in backends:
        head += f" {b + ' ms':>9} {'TFLOPS':>7} {'ours/' + b:>10}"
    print(head)
    H, D = HEADS, 128
    seqs = SEQS[::2] if quick else SEQS
    dtypes = [torch.float16] if quick else [torch.float16, torch.bfloat16]
    variants = load_variants(bundle_dir)
    rows = []
    for dtype in dtypes:
        for causal in (False, True):
            for S in seqs:
                B = TOKENS // S
                q, k, v, dout = (torch.randn(B, H, S, D, device=DEVICE, dtype=dtype)
                                 for _ in range(4))
                flops = 2.5 * 4 * B * H * S * S * D / (2 if causal else 1)
                line = f"{'f16' if dtype == torch.float16 else 'bf16':5} {str(causal):6} {S:>6}"
                try:
                    qq, kk, vv = (t.clone().requires_grad_() for t in (q, k, v))
                    out = tl.attention(qq, kk, vv, causal=causal, bundles=bundles)
                    ms = bench(lambda: torch.autograd.grad(out, (qq, kk, vv), dout,
                                                           retain_graph=True))
                    line += f" {ms:8.3f} {flops / ms / 1e9:7.1f}"
                except Exception as e:
                    ms = None
                    line += f" {'error':>8} {'':7}  ({type(e).__name__}: {str(e)[:60]})"
                for bname, ctx, backend in backends:
                    try:
                        with ctx([backend]):
                            qs, ks, vs = (t.clone().requires_grad_() for t in (q, k, v))
                            o = F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal)
                            pm = bench(lambda: torch.autograd.grad(o, (qs, ks, vs), dout,
                                                                   retain_graph=True))
                        ratio = f"{pm / ms:10.2f}" if ms else f"{'':10}"
                        line += f" {pm:9.3f} {flops / pm / 1e9:7.1f} {ratio}"
                    except Exception as e:
                        line += f" {'n/a':>9} {'':7} {'':10}"
                        print(f"     ({bname}: {type(e).__name__}: {str(e)[:80]})")
                print(line, flush=True)
                # Main-kernel variants (fp16 D=128, the timed shape's params).
                if dtype == torch.float16 and variants:
                    try:
                        plan = att.Plan(bundles, "f16", D, 1, causal, S)
                        o2, lse = plan.run_forward(torch, q, k, v, D ** -0.5, 0)
                        for m in variants:
                            if m.params.get("CAUSAL") != causal:
                                continue
                            plan.main = m
                            vm = bench(lambda: plan.run_backward(torch, q, k, v, o2, lse, dout,
                                                                 D ** -0.5, 0))
                            print(f"      variant {os.path.basename(m.dir):16} {vm:8.3f} ms "
                                  f"{flops / vm / 1e9:7.1f} TFLOPS", flush=True)
                    except Exception as e:
                        print(f"      variants: {type(e).__name__}: {str(e)[:100]}")
                del q, k, v, dout
                if DEVICE == "cuda":
                    torch.cuda.empty_cache()
                rows.append(line)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("bundle_dir")
    p.add_argument("--quick", action="store_true", help="fewer timing points")
    p.add_argument("--no-timing", action="store_true")
    a = p.parse_args()
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, bundles {a.bundle_dir}")
    bundles = tl.BundleSet(a.bundle_dir)
    correctness(bundles, CASES)
    check_variants(bundles, a.bundle_dir)
    if not a.no_timing:
        timing(bundles, a.bundle_dir, a.quick)
    print(f"\n{len(failures)} failed" + (": " + ", ".join(failures) if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
