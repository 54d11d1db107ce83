#!/usr/bin/env python3
"""GPU check and timing of kernels/gemm_fp8.mlir (FP8 e4m3 GEMM) against
PyTorch's torch._scaled_mm (cuBLAS).

usage: check_fp8.py BUNDLE_DIR   (bench/compile_bundles.sh BUNDLE_DIR fp8)

1. Correctness: every bundle in BUNDLE_DIR on fresh random inputs of ragged
   shapes (not the timed ones), its output poisoned (NaN) first. A and B
   ([N, K], K-major) are e4m3, the scales f32 (per tensor: one element;
   per row/column with the bundle's ROW_SCALE/COL_SCALE). The reference is
   a float64 matmul of the dequantized inputs (the e4m3 values are exact in
   float64) times the scales, plus bias and activation. Passes when no
   element is NaN/Inf and the error, relative to max |ref|, is at most
   max(2 * torch._scaled_mm's own error, 2^-7): the peer's error where it
   runs the shape, bf16 rounding otherwise; the fp8 tensor cores
   accumulate in reduced precision (the PROMOTE bundles add each K step's
   partial product into the f32 accumulator). The error of a float32
   matmul of the dequantized inputs is printed alongside.
   Alignment rule (the bundles' 16-byte contract, TMA): K % 16 == 0 (rows
   of A and B are K bytes), N % 8 == 0 for bf16/f16 C (N % 4 for f32); M
   is free. Scales and bias are contiguous 1-D tensors.
2. Timing, one process, one timer (triton.testing.do_bench, median):
   ours against torch._scaled_mm(a, b.t(), scale_a, scale_b,
   out_dtype=torch.bfloat16) at 4096^3 and 8192^3 (per-tensor scales, and
   row/column scales for the bundles that have them), and skinny M = 16,
   32, 64, 128 with N = K = 8192 (reported only). TFLOPS = 2 M N K / t.

Exit status 1 on any correctness failure (timing failures are reported).
"""
import os
import sys

try:
    import torch
except ImportError:  # the checks need PyTorch with CUDA (and triton to time)
    torch = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
import tile_launcher  # noqa: E402

E4M3 = torch.float8_e4m3fn if torch else None
OUT = ({"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
       if torch else {})
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def params_of(k):
    p = k.manifest.params
    return dict(row=bool(p.get("ROW_SCALE", False)),
                col=bool(p.get("COL_SCALE", False)),
                bias=bool(p.get("HAS_BIAS", False)),
                act=int(p.get("ACTIVATION", 0)),
                out=str(p.get("OUT_DTYPE", "bf16")))


def inputs(m, n, k, p, scale=1.0):
    """e4m3 A [m, k], B [n, k] (std 1 scaled, well inside e4m3's range),
    the scales and bias of the bundle's parameters."""
    a = (torch.randn(m, k, device="cuda") * scale).to(E4M3)
    b = (torch.randn(n, k, device="cuda") * scale).to(E4M3)
    sa = (torch.rand(m if p["row"] else 1, device="cuda") * 1.5 + 0.25)
    sb = (torch.rand(n if p["col"] else 1, device="cuda") * 1.5 + 0.25)
    out_dt = OUT[p["out"]]
    bias = (torch.randn(n, device="cuda").to(out_dt) if p["bias"]
            else torch.zeros(n, device="cuda", dtype=out_dt))
    return a, b, sa, sb, bias


def activation(x, act):
    if act == 1:
        return torch.relu(x)
    if act == 2:
        return torch.nn.functional.gelu(x, approximate="tanh")
    return x


def epilogue(prod, sa, sb, bias, p):
    """Scales, bias, activation on a float64/float32 product."""
    x = prod * sa.to(prod.dtype).view(-1, 1) * sb.to(prod.dtype).view(1, -1)
    if p["bias"]:
        x = x + bias.to(prod.dtype).view(1, -1)
    return activation(x, p["act"])


def peer(a, b, sa, sb, p, out_dtype):
    """torch._scaled_mm with the same scales (None where it refuses the
    shape or the scaling mode)."""
    try:
        if p["row"] or p["col"]:
            # Row-wise scaling: both per-row / per-column (a scale of 1
            # stands for the absent one).
            m, n = a.shape[0], b.shape[0]
            sa2 = sa.expand(m).reshape(m, 1).contiguous()
            sb2 = sb.expand(n).reshape(1, n).contiguous()
            return torch._scaled_mm(a, b.t(), scale_a=sa2, scale_b=sb2,
                                    out_dtype=out_dtype)
        return torch._scaled_mm(a, b.t(), scale_a=sa.reshape(()),
                                scale_b=sb.reshape(()), out_dtype=out_dtype)
    except Exception:  # noqa: BLE001 - shapes/modes cuBLAS does not take
        return None


def correctness(k, name, m, n, kk):
    p = params_of(k)
    a, b, sa, sb, bias = inputs(m, n, kk, p)
    out_dt = OUT[p["out"]]
    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dt)
    k(A=a, B=b, C=c, ScaleA=sa, ScaleB=sb, Bias=bias)
    torch.cuda.synchronize()
    ref = epilogue(a.double() @ b.double().t(), sa.double(), sb.double(),
                   bias, p)
    ref32 = epilogue(a.float() @ b.float().t(), sa, sb, bias, p)
    scale = max(ref.abs().max().item(), 1e-30)
    finite = bool(torch.isfinite(c).all().item())
    err = (c.double() - ref).abs().max().item() / scale
    err32 = (ref32.double() - ref).abs().max().item() / scale
    gate = 2.0 ** -7
    peer_txt = "peer n/a"
    if not p["bias"] and p["act"] == 0 and out_dt != torch.float32:
        pc = peer(a, b, sa, sb, p, out_dt)
        if pc is not None:
            perr = (pc.double() - ref).abs().max().item() / scale
            gate = max(gate, 2 * perr)
            peer_txt = f"_scaled_mm {perr:.2e}"
    check(f"{name} {m}x{n}x{kk}", finite and err <= gate,
          f"max err/max|ref| {err:.2e} (gate {gate:.2e}; {peer_txt}; "
          f"f32 matmul {err32:.2e}){'' if finite else ' NaN/Inf in C'}")


def timing(kernels):
    import triton.testing as tt
    print("\n| shape | bundle | scales | ours ms | TFLOPS | _scaled_mm ms | "
          "TFLOPS | ours/peer |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    shapes = [(4096, 4096, 4096), (8192, 8192, 8192)] + \
        [(m, 8192, 8192) for m in (16, 32, 64, 128)]
    for (m, n, kk) in shapes:
        torch.manual_seed(m + n)
        for name, k in kernels:
            p = params_of(k)
            if p["bias"] or p["act"] or p["out"] != "bf16":
                continue
            a, b, sa, sb, bias = inputs(m, n, kk, p)
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            try:
                ours = tt.do_bench(lambda: k(A=a, B=b, C=c, ScaleA=sa,
                                             ScaleB=sb, Bias=bias),
                                   return_mode="median")
            except Exception as e:  # noqa: BLE001
                print(f"| {m}x{n}x{kk} | {name} | - | failed: "
                      f"{type(e).__name__}: {e} | | | | |")
                continue
            pc = peer(a, b, sa, sb, p, torch.bfloat16)
            theirs = None
            if pc is not None:
                if p["row"] or p["col"]:
                    sa2 = sa.expand(m).reshape(m, 1).contiguous()
                    sb2 = sb.expand(n).reshape(1, n).contiguous()
                    fn = (lambda: torch._scaled_mm(a, b.t(), scale_a=sa2,
                                                   scale_b=sb2,
                                                   out_dtype=torch.bfloat16))
                else:
                    s0, s1 = sa.reshape(()), sb.reshape(())
                    fn = (lambda: torch._scaled_mm(a, b.t(), scale_a=s0,
                                                   scale_b=s1,
                                                   out_dtype=torch.bfloat16))
                theirs = tt.do_bench(fn, return_mode="median")
            flops = 2.0 * m * n * kk
            scales = ("row/col" if p["row"] or p["col"] else "tensor")
            t_txt = (f"{theirs:.4f} | {flops / theirs / 1e9:.0f} | "
                     f"{theirs / ours:.3f}" if theirs else "n/a | | ")
            print(f"| {m}x{n}x{kk} | {name} | {scales} | {ours:.4f} | "
                  f"{flops / ours / 1e9:.0f} | {t_txt} |", flush=True)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    bundles = sys.argv[1]
    if torch is None or not torch.cuda.is_available():
        print("check_fp8.py needs PyTorch with a CUDA GPU")
        return 2
    torch.manual_seed(20261203)
    kernels = []
    for entry in sorted(os.listdir(bundles)):
        path = os.path.join(bundles, entry)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        try:
            kernels.append((entry, tile_launcher.load(path)))
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, str(e))
    # Ragged M, N (% 8), K (% 16); shapes not timed below.
    shapes = [(1, 8, 16), (77, 104, 48), (200, 136, 1008), (1000, 264, 272),
              (257, 1032, 4112), (2049, 520, 160)]
    for name, k in kernels:
        for m, n, kk in shapes:
            try:
                correctness(k, name, m, n, kk)
            except Exception as e:  # noqa: BLE001 - reported; the rest runs
                check(f"{name} {m}x{n}x{kk}", False, f"{type(e).__name__}: {e}")
    # A bundle must refuse K not a multiple of 16 (its 16-byte contract).
    for name, k in kernels[:1]:
        p = params_of(k)
        a, b, sa, sb, bias = inputs(64, 64, 40, p)
        c = torch.empty(64, 64, device="cuda", dtype=OUT[p["out"]])
        try:
            k(A=a, B=b, C=c, ScaleA=sa, ScaleB=sb, Bias=bias)
            torch.cuda.synchronize()
            check(f"{name} refuses K=40", False, "launched")
        except tile_launcher.LaunchError as e:
            check(f"{name} refuses K=40", True, str(e).splitlines()[0][:120])
        except Exception as e:  # noqa: BLE001
            check(f"{name} refuses K=40", False, f"{type(e).__name__}: {e}")
    try:
        timing(kernels)
    except Exception as e:  # noqa: BLE001
        print(f"timing failed: {type(e).__name__}: {e}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
