#!/usr/bin/env python3
"""GPU check and timing of the serving attention kernels against PyTorch.

Runs the bundles of `bench/compile_bundles.sh OUT serving` (named NAME-CHIP;
each bundle's parameters are read from its manifest) through tile_launcher:

Correctness (every bundle whose name does not start with `perf-`), on fresh
random inputs of ragged shapes, outputs poisoned with NaN first:
- paged_decode: ragged sequence lengths with empty ones (0) and ones shorter
  than the query length, pages shuffled in a larger cache (page 0 and the
  last page in use), NaN in every cache row no sequence owns, block-table
  entries past a sequence's pages set to -1 or past the cache, 1..Q_TILE
  query tokens (bottom-right causal among them), 1 to 5 splits.
- varlen_fmha: packed batches with empty sequences, Lq != Lk, causal
  (bottom-right per sequence) or not, the bundle's GQA group.
Reference: float64 attention on the gathered dense K/V (torch, on the GPU).
FlashAttention's 2x rule: our max error <= 2 x the max error of torch's
scaled_dot_product_attention in the same dtype (per sequence, bottom-right
mask) + atol (two half-ulps of the dtype at 1); rows that see no key must be
exactly 0 with LSE -inf; LSE (natural log) within 1e-3 relative to
max(1, |lse|); the decode kernel's ticket counters back at 0.

Timing (triton.testing.do_bench, median; one process, one timer):
- decode: KV bytes read / time against the copy bandwidth measured here on
  the same bytes (torch copy_: bytes read + written / time), at B*S = 64k
  tokens (B=16, S=4096) and B=1, S=32k, D=128, 8 KV heads, groups 4 and 8,
  page sizes 16/64/256 and contiguous (one page a sequence); the number of
  splits is chosen per shape by timing a few candidates (printed); torch
  SDPA (enable_gqa) on the same contiguous KV as the peer. Bars (issue 23):
  >= 85% of copy at 64k tokens, >= 70% at B=1 S=32k, page 16 within 5% of
  contiguous, faster than SDPA.
- varlen forward: TFLOPS on a batch mixed from 512 to 8k tokens (H=32,
  D=128, fp16) against our dense fmha bundle on the same total tokens
  (B = total / 4096, S = 4096) and torch SDPA called per sequence.

usage: check_serving.py BUNDLE_DIR   (exit status 0 when every check passed)
Environment: SKIP_TIMING=1 runs only the checks.
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

failures = []
# The device the inputs live on: the GPU; a CPU run tests this script's own
# logic with a stand-in kernel (python/tests style), never the kernels.
DEV = os.environ.get("CHECK_SERVING_DEVICE", "cuda")
DT = {"f16": torch.float16, "bf16": torch.bfloat16}
ATOL = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8}  # two half-ulps at 1


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def params_of(path):
    with open(os.path.join(path, "manifest.json")) as f:
        return json.load(f)["params"]


# --- references ---------------------------------------------------------------


def attention_ref(q, k, v, scale, shift, dtype=None):
    """q [Lq, H, D], k/v [Lk, Hkv, D]; query i sees keys <= i + shift
    (bottom-right causal: shift = Lk - Lq; non-causal: shift = Lk).
    float64 unless `dtype` (then torch SDPA in that dtype). Returns
    (out [Lq, H, D] float64, lse [Lq, H] float64, seen [Lq] bool)."""
    Lq, H, D = q.shape
    Lk, Hkv = k.shape[0], k.shape[1]
    i = torch.arange(Lq, device=q.device).unsqueeze(1)
    j = torch.arange(Lk, device=q.device).unsqueeze(0)
    mask = j <= i + shift  # [Lq, Lk]
    seen = mask.any(1)
    if dtype is not None:
        qq = q.to(dtype).transpose(0, 1).unsqueeze(0)
        kk = k.to(dtype).transpose(0, 1).unsqueeze(0)
        vv = v.to(dtype).transpose(0, 1).unsqueeze(0)
        o = F.scaled_dot_product_attention(qq, kk, vv, attn_mask=mask, scale=scale,
                                           enable_gqa=True)
        return o[0].transpose(0, 1).double(), None, seen
    G = H // Hkv
    qd = q.double().transpose(0, 1)  # [H, Lq, D]
    kd = k.double().transpose(0, 1).repeat_interleave(G, 0)  # [H, Lk, D]
    vd = v.double().transpose(0, 1).repeat_interleave(G, 0)
    s = torch.matmul(qd, kd.transpose(1, 2)) * scale
    s = s.masked_fill(~mask, -math.inf)
    lse = torch.logsumexp(s, dim=-1)  # [H, Lq]
    p = torch.exp(s - lse.unsqueeze(-1).where(seen.unsqueeze(0).unsqueeze(-1),
                                               torch.zeros_like(lse.unsqueeze(-1))))
    p = p.masked_fill(~mask, 0.0)
    o = torch.matmul(p, vd).transpose(0, 1)  # [Lq, H, D]
    return o, lse.transpose(0, 1), seen


class Errors:
    """Accumulates |ours - f64| and |sdpa - f64| over rows that see a key,
    and checks rows that see none."""

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype
        self.ours = self.peer = self.lse = 0.0
        self.bad = []

    def add(self, out, lse, ref, ref_lse, peer, seen, where):
        if not torch.isfinite(out).all():
            self.bad.append(f"{where}: not finite / not written")
            return
        if seen.any():
            self.ours = max(self.ours, (out[seen].double() - ref[seen]).abs().max().item())
            self.peer = max(self.peer, (peer[seen] - ref[seen]).abs().max().item())
            rl = ref_lse[seen]
            err = ((lse[seen].double() - rl).abs() / rl.abs().clamp(min=1.0)).max().item()
            self.lse = max(self.lse, err if math.isfinite(err) else math.inf)
        if (~seen).any():
            if (out[~seen] != 0).any():
                self.bad.append(f"{where}: a row that sees no key is not 0")
            if not (lse[~seen] == -math.inf).all():
                self.bad.append(f"{where}: LSE of a row that sees no key is not -inf")

    def verdict(self, extra=""):
        tol = 2 * self.peer + ATOL[self.dtype]
        ok = not self.bad and self.ours <= tol and self.lse <= 1e-3
        check(self.name, ok, f"err {self.ours:.2e} <= 2 x sdpa {self.peer:.2e} + atol "
              f"({tol:.2e}), lse rel err {self.lse:.1e}{extra} " + "; ".join(self.bad[:3]))


# --- paged decode ---------------------------------------------------------------


def make_paged(lens, Sq, Hkv, G, D, PS, dtype, free_pages=3, shuffle=True, poison=True):
    dev = DEV
    B = len(lens)
    H = Hkv * G
    pages_of = [-(-L // PS) for L in lens]
    max_pages = max(pages_of + [1]) + 1
    used = sum(pages_of)
    num_pages = used + free_pages
    ids = torch.randperm(num_pages).tolist() if shuffle else list(range(num_pages))
    chosen = ids[:used]
    if shuffle and used >= 2:
        for edge in (0, num_pages - 1):
            if edge not in chosen:
                i = next(i for i, x in enumerate(chosen) if x not in (0, num_pages - 1))
                chosen[i] = edge
    table = torch.empty(B, max_pages, dtype=torch.int32)
    it = iter(chosen)
    for b in range(B):
        for p in range(max_pages):
            table[b, p] = next(it) if p < pages_of[b] else (-1 if (p + b) % 2 else num_pages + 7)
    kc = torch.randn(num_pages, PS, Hkv, D, device=dev).to(dtype)
    vc = torch.randn(num_pages, PS, Hkv, D, device=dev).to(dtype)
    if poison:
        owned = torch.zeros(num_pages, PS, dtype=torch.bool)
        for b in range(B):
            for n in range(lens[b]):
                owned[table[b, n // PS], n % PS] = True
        owned = owned.to(dev)
        kc[~owned] = float("nan")
        vc[~owned] = float("nan")
    q = torch.randn(B, Sq, H, D, device=dev).to(dtype)
    return q, kc, vc, table.to(dev), torch.tensor(lens, dtype=torch.int32, device=dev)


def gather_dense(kc, table, b, L, PS):
    pages = table[b, : -(-L // PS)].long()
    return kc[pages].reshape(-1, kc.shape[2], kc.shape[3])[:L]


def run_paged(k, q, kc, vc, table, seqlens, splits, rows, out=None, lse=None, work=None):
    B, Sq, H, D = q.shape
    Hkv = kc.shape[2]
    if out is None:
        out = torch.full_like(q, float("nan"))
        lse = torch.full((B, Sq, H), float("nan"), device=DEV)
    if work is None:
        work = (torch.full((B, Hkv, splits, rows, D), float("nan"), device=DEV),
                torch.full((B, Hkv, splits, rows), float("nan"), device=DEV),
                torch.zeros(B, Hkv, dtype=torch.int32, device=DEV))
    k(Q=q, KCache=kc, VCache=vc, BlockTable=table, SeqLens=seqlens, Out=out, Lse=lse,
      PartO=work[0], PartLse=work[1], Count=work[2], qk_scale=1.0 / math.sqrt(D))
    return out, lse, work


def check_paged(k, name, p, lens, Sq, Hkv, splits):
    dtype = DT[p["DTYPE"]]
    G, D, PS, rows = p["QUERY_GROUP_SIZE"], p["HEAD_DIM"], p["PAGE_SIZE"], p["ROWS"]
    q, kc, vc, table, seqlens = make_paged(lens, Sq, Hkv, G, D, PS, dtype)
    out, lse, work = run_paged(k, q, kc, vc, table, seqlens, splits, rows)
    sync()
    e = Errors(f"{name} lens={lens} Sq={Sq} Hkv={Hkv} splits={splits}", p["DTYPE"])
    scale = 1.0 / math.sqrt(D)
    for b, L in enumerate(lens):
        kd = gather_dense(kc, table, b, L, PS)
        vd = gather_dense(vc, table, b, L, PS)
        ref, ref_lse, seen = attention_ref(q[b], kd, vd, scale, L - Sq)
        if L == 0:
            peer = torch.zeros_like(ref)
        else:
            peer, _, _ = attention_ref(q[b], kd, vd, scale, L - Sq, dtype)
        e.add(out[b], lse[b], ref, ref_lse, peer, seen, f"b={b}")
    if (work[2] != 0).any():
        e.bad.append("Count not back at 0")
    e.verdict()


def paged_checks(k, name, p):
    qt = p["Q_TILE"]
    for lens, Sq, Hkv, splits in [
            ([0, 17, 300, 64, 1], min(qt, 2), 2, 3),
            ([5, 130, 257], 1, 1, 1),
            ([1, 600, 0, 2], qt, 2, 5),
            ([4097, 33], min(qt, 3), 3, 4),
            ([0, 0], 1, 2, 2)]:
        check_paged(k, name, p, lens, Sq, Hkv, splits)


# --- varlen forward -------------------------------------------------------------


def make_varlen(lq, lk, H, Hkv, D, dtype):
    cq = [0]
    ck = [0]
    for a, b in zip(lq, lk):
        cq.append(cq[-1] + a)
        ck.append(ck[-1] + b)
    q = torch.randn(max(cq[-1], 1), H, D, device=DEV).to(dtype)
    kk = torch.randn(max(ck[-1], 1), Hkv, D, device=DEV).to(dtype)
    vv = torch.randn(max(ck[-1], 1), Hkv, D, device=DEV).to(dtype)
    return (q, kk, vv, torch.tensor(cq, dtype=torch.int32, device=DEV),
            torch.tensor(ck, dtype=torch.int32, device=DEV), cq, ck)


def check_varlen(k, name, p, lq, lk, Hkv):
    dtype = DT[p["DTYPE"]]
    G, D, causal = p["QUERY_GROUP_SIZE"], p["HEAD_DIM"], bool(p["CAUSAL"])
    H = Hkv * G
    q, kk, vv, cuq, cuk, cq, ck = make_varlen(lq, lk, H, Hkv, D, dtype)
    out = torch.full_like(q, float("nan"))
    lse = torch.full((H, q.shape[0]), float("nan"), device=DEV)
    scale = 1.0 / math.sqrt(D)
    k(Q=q, K=kk, V=vv, CuSeqlensQ=cuq, CuSeqlensK=cuk, Out=out, Lse=lse, qk_scale=scale)
    sync()
    e = Errors(f"{name} lq={lq} lk={lk} Hkv={Hkv}", p["DTYPE"])
    for b in range(len(lq)):
        if lq[b] == 0:
            continue
        qs, ks = slice(cq[b], cq[b + 1]), slice(ck[b], ck[b + 1])
        shift = lk[b] - lq[b] if causal else lk[b]
        ref, ref_lse, seen = attention_ref(q[qs], kk[ks], vv[ks], scale, shift)
        if lk[b] == 0:
            peer = torch.zeros_like(ref)
        else:
            peer, _, _ = attention_ref(q[qs], kk[ks], vv[ks], scale, shift, dtype)
        e.add(out[qs], lse[:, qs].transpose(0, 1), ref, ref_lse, peer, seen, f"seq {b}")
    if cq[-1] == 0 and torch.isfinite(out).any():
        e.bad.append("an empty batch wrote Out")
    e.verdict()


def varlen_checks(k, name, p):
    for lq, lk, Hkv in [([1, 0, 77, 64, 300], [1, 5, 200, 64, 300], 2),
                        ([129, 3, 0, 33], [40, 0, 9, 1000], 1),
                        ([1000], [1000], 2),
                        ([0], [0], 1),
                        ([255, 256, 257, 1], [257, 256, 255, 700], 2)]:
        check_varlen(k, name, p, lq, lk, Hkv)


# --- timing ---------------------------------------------------------------------


def bench(fn):
    import triton.testing as tt
    return tt.do_bench(fn, return_mode="median")


def copy_bandwidth(nbytes):
    x = torch.empty(nbytes // 2, dtype=torch.float16, device=DEV).normal_()
    y = torch.empty_like(x)
    ms = bench(lambda: y.copy_(x))
    return 2 * nbytes / ms / 1e6  # GB/s, read + written


def time_decode(bundles):
    perf = {}
    for entry in sorted(os.listdir(bundles)):
        if entry.startswith("perf-pd-"):
            p = params_of(os.path.join(bundles, entry))
            perf.setdefault((p["QUERY_GROUP_SIZE"], p["PAGE_SIZE"]), []).append(entry)
    if not perf:
        return
    Hkv, D = 8, 128
    print("\ndecode, fp16, D=128, 8 KV heads, 1 query token; GB/s = K+V bytes / time")
    print(f"{'B':>3} {'S':>6} {'G':>2} {'page':>6} {'bundle':<36} {'splits':>6} {'us':>8} "
          f"{'GB/s':>6} {'copy%':>6} {'sdpa us':>8} {'vs sdpa':>7}")
    for B, S in [(16, 4096), (1, 32768)]:
        kv_bytes = B * S * Hkv * D * 2 * 2
        copy_bw = copy_bandwidth(kv_bytes)
        print(f"copy bandwidth on {kv_bytes / 1e6:.0f} MB: {copy_bw:.0f} GB/s")
        for G in (4, 8):
            H = Hkv * G
            # The peer: SDPA on contiguous KV [B, Hkv, S, D].
            qd = torch.randn(B, H, 1, D, device=DEV, dtype=torch.float16)
            kd = torch.randn(B, Hkv, S, D, device=DEV, dtype=torch.float16)
            vd = torch.randn(B, Hkv, S, D, device=DEV, dtype=torch.float16)
            t_sdpa = bench(lambda: F.scaled_dot_product_attention(qd, kd, vd, enable_gqa=True))
            del qd, kd, vd
            best_paged = {}
            for PS in (16, 64, 256, 4096, 32768):
                if PS > S or (G, PS) not in perf:
                    continue
                q, kc, vc, table, seqlens = make_paged([S] * B, 1, Hkv, G, D, PS,
                                                       torch.float16, free_pages=0,
                                                       poison=False)
                out = torch.empty_like(q)
                lse = torch.empty(B, 1, H, device=DEV)
                waves = [1, 2, 4, 8]
                cands = sorted({max(1, min(64, round(132 * w / (B * Hkv)))) for w in waves} | {1})
                for entry in perf[(G, PS)]:
                    k = tile_launcher.load(os.path.join(bundles, entry))
                    rows = params_of(os.path.join(bundles, entry))["ROWS"]
                    best = None
                    for splits in cands:
                        work = (torch.empty(B, Hkv, splits, rows, D, device=DEV),
                                torch.empty(B, Hkv, splits, rows, device=DEV),
                                torch.zeros(B, Hkv, dtype=torch.int32, device=DEV))
                        try:
                            ms = bench(lambda: run_paged(k, q, kc, vc, table, seqlens, splits,
                                                         rows, out, lse, work))
                        except Exception as ex:  # noqa: BLE001
                            check(f"time {entry} splits={splits}", False, str(ex))
                            continue
                        if best is None or ms < best[0]:
                            best = (ms, splits)
                    if best is None:
                        continue
                    ms, splits = best
                    gbs = kv_bytes / ms / 1e6
                    print(f"{B:>3} {S:>6} {G:>2} {PS:>6} {entry:<36} {splits:>6} {ms * 1e3:>8.1f} "
                          f"{gbs:>6.0f} {100 * gbs / copy_bw:>5.1f}% {t_sdpa * 1e3:>8.1f} "
                          f"{t_sdpa / ms:>6.2f}x", flush=True)
                    best_paged[PS] = min(best_paged.get(PS, math.inf), ms)
                del q, kc, vc
            contig = best_paged.get(S)
            if 16 in best_paged and contig:
                print(f"  page 16 vs contiguous (B={B}, S={S}, G={G}): "
                      f"{best_paged[16] / contig:.3f}x the time")
            torch.cuda.empty_cache()


def varlen_flops(lq, lk, H, D, causal):
    total = 0
    for a, b in zip(lq, lk):
        if causal:  # bottom-right: query i sees min(Lk, i + Lk - Lq + 1) keys
            pairs = sum(max(0, min(b, i + b - a + 1)) for i in range(a))
        else:
            pairs = a * b
        total += 4 * pairs * D * H
    return total


def time_varlen(bundles):
    H, D = 32, 128
    lens = [512, 8192, 1024, 4096, 2048, 6144, 768, 3072, 5120, 1792]  # 32768 tokens
    total = sum(lens)
    print(f"\nvarlen forward, fp16, H={H}, D={D}, {len(lens)} sequences of 512..8192, "
          f"{total} tokens")
    print(f"{'causal':>6} {'kernel':<36} {'ms':>8} {'TFLOPS':>7}")
    for c in ("c", "n"):
        causal = c == "c"
        q, kk, vv, cuq, cuk, _, _ = make_varlen(lens, lens, H, H, D, torch.float16)
        out = torch.empty_like(q)
        lse = torch.empty(H, total, device=DEV)
        fl = varlen_flops(lens, lens, H, D, causal)
        for entry in sorted(os.listdir(bundles)):
            if not (entry.startswith("vf-f16-d128-") and entry.endswith(f"-{c}-sm_90a")):
                continue
            k = tile_launcher.load(os.path.join(bundles, entry))
            ms = bench(lambda: k(Q=q, K=kk, V=vv, CuSeqlensQ=cuq, CuSeqlensK=cuk, Out=out,
                                 Lse=lse, qk_scale=1 / math.sqrt(D)))
            print(f"{c:>6} {entry:<36} {ms:>8.3f} {fl / ms / 1e9:>7.0f}", flush=True)
        # torch SDPA per sequence.
        qs = [q[a:b].transpose(0, 1).unsqueeze(0) for a, b in zip(cuq.tolist(), cuq.tolist()[1:])]
        ks = [kk[a:b].transpose(0, 1).unsqueeze(0) for a, b in zip(cuk.tolist(), cuk.tolist()[1:])]
        vs = [vv[a:b].transpose(0, 1).unsqueeze(0) for a, b in zip(cuk.tolist(), cuk.tolist()[1:])]

        def per_seq():
            for a, b_, v_ in zip(qs, ks, vs):
                F.scaled_dot_product_attention(a, b_, v_, is_causal=causal)
        ms = bench(per_seq)
        print(f"{c:>6} {'torch sdpa, per sequence':<36} {ms:>8.3f} {fl / ms / 1e9:>7.0f}")
        # Our dense fmha on the same total tokens: B = total / 4096 of S = 4096.
        dense = os.path.join(bundles, f"fmha-f16-d128-tmaov-cs-{c}-sm_90a")
        if os.path.isdir(dense):
            S = 4096
            B = total // S
            k = tile_launcher.load(dense)
            qd = torch.randn(B, H, S, D, device=DEV, dtype=torch.float16)
            kd = torch.randn_like(qd)
            vd = torch.randn_like(qd)
            od = torch.empty_like(qd)
            ld = torch.empty(B, H, S, device=DEV)
            ms = bench(lambda: k(Q=qd, K=kd, V=vd, Out=od, Lse=ld, qk_scale=1 / math.sqrt(D),
                                 input_pos=0))
            fl_d = varlen_flops([S] * B, [S] * B, H, D, causal)
            print(f"{c:>6} {'dense fmha B=' + str(B) + ' S=4096':<36} {ms:>8.3f} "
                  f"{fl_d / ms / 1e9:>7.0f}")
        torch.cuda.empty_cache()


def main():
    bundles = sys.argv[1]
    torch.manual_seed(20261203)
    for entry in sorted(os.listdir(bundles)):
        if entry.startswith("perf-") or entry.startswith("fmha-"):
            continue
        path = os.path.join(bundles, entry)
        try:
            k = tile_launcher.load(path)
            p = params_of(path)
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, str(e))
            continue
        try:
            if entry.startswith("pd-"):
                paged_checks(k, entry, p)
            elif entry.startswith("vf-"):
                varlen_checks(k, entry, p)
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(entry, False, f"{type(e).__name__}: {e}")
    if os.environ.get("SKIP_TIMING") != "1":
        for part in (time_decode, time_varlen):
            try:
                part(bundles)
            except Exception as e:  # noqa: BLE001
                check(part.__name__, False, f"{type(e).__name__}: {e}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
