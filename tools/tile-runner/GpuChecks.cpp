//===- GpuChecks.cpp - reference kernels and checks on the GPU ------------===//

#include "GpuChecks.h"

#include "Tolerance.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

/// The fatbin of reference.cu, embedded at build time (EmbedFile.cmake).
extern "C" {
extern const unsigned char tileRunnerReferenceFatbin[];
extern const unsigned long long tileRunnerReferenceFatbinSize;
}

namespace tile {
namespace runner {

int refDType(DType dtype);
bool paramFlag(const Manifest &m, const std::string &name, bool fallback);
int64_t paramInt(const Manifest &m, const std::string &name, int64_t fallback);

namespace {
/// The log-sum-exp of a row passes within kLseAbs + kLseRel * |ref|; rows
/// that see no key must hold FLT_MAX.
constexpr double kLseAbs = 1e-3;
constexpr double kLseRel = 1e-4;
/// Scratch memory of the reference checks, bounding the rows per launch.
constexpr size_t kReferenceScratchBytes = size_t(256) << 20;
} // namespace

std::string Reference::load(const Gpu &gpu) {
  api = gpu.api;
  sms = gpu.sms;
  std::string log;
  std::string error = loadImage(api, tileRunnerReferenceFatbin, module, log,
                                "the runner's reference kernels");
  if (!error.empty())
    return error + "\n(the embedded fatbin holds " TILE_RUNNER_CUDA_ARCHS
                   " code; rebuild with TILE_RUNNER_CUDA_ARCHS naming this "
                   "device)";
  struct {
    CUfunction *function;
    const char *name;
  } functions[] = {{&rows, kRefAttentionRows},
                   {&nonFinite16, kRefCountNonFinite16},
                   {&nonFinite32, kRefCountNonFinite32},
                   {&diff16, kRefCountDiff16},
                   {&fillNormal, kRefFillNormal},
                   {&fillNormal32, kRefFillNormal32},
                   {&compare, kRefCompare},
                   {&gemm, kRefGemm},
                   {&softmax, kRefSoftmax},
                   {&layernorm, kRefLayerNorm}};
  for (auto &f : functions)
    CU_TRY(cuModuleGetFunction(f.function, module.module, f.name));
  return counter.allocate(api, 2 * sizeof(unsigned long long));
}

std::string Reference::launchStride(CUfunction function, int64_t n,
                                    std::vector<void *> params) {
  int64_t blocks = std::max<int64_t>(
      1, std::min<int64_t>((n + 255) / 256, int64_t(sms) * 16));
  return launch(api, function, {blocks, 1, 1}, {256, 1, 1}, 0, params.data());
}

std::string Reference::countBad(CUdeviceptr p, DType dtype, int64_t n,
                                uint64_t &poisoned, uint64_t &nonFinite) {
  CU_TRY(cuMemsetD32(counter.get(), 0, 4));
  CUdeviceptr c = counter.get();
  long long elements = n;
  if (dtypeBytes(dtype) == 2) {
    unsigned mask = dtype == DType::BF16 ? 0x7f80u : 0x7c00u;
    unsigned poison = tilebundle::poisonBits(dtype);
    TRY(launchStride(nonFinite16, n, {&p, &elements, &mask, &poison, &c}));
  } else {
    // i32 views have no NaN: count only the poison (exponent mask 0 would
    // count everything; an all-ones mask no value but the poison reaches).
    unsigned poison = tilebundle::kPoisonF32;
    TRY(launchStride(nonFinite32, n, {&p, &elements, &poison, &c}));
  }
  TRY(synchronize(api, "the NaN/Inf count"));
  unsigned long long v[2] = {0, 0};
  CU_TRY(cuMemcpyDtoH(v, counter.get(), sizeof(v)));
  poisoned = v[0];
  nonFinite = dtype == DType::I32 ? 0 : v[1];
  return std::string();
}

std::string Reference::countDiff16(CUdeviceptr a, CUdeviceptr b, int64_t n,
                                   uint64_t &count) {
  CU_TRY(cuMemsetD32(counter.get(), 0, 4));
  CUdeviceptr c = counter.get();
  long long elements = n;
  TRY(launchStride(diff16, n, {&a, &b, &elements, &c}));
  TRY(synchronize(api, "the determinism comparison"));
  unsigned long long v[2] = {0, 0};
  CU_TRY(cuMemcpyDtoH(v, counter.get(), sizeof(v)));
  count = v[0];
  return std::string();
}

std::string Reference::fill(CUdeviceptr p, DType dtype, int64_t n,
                            uint64_t seed, float stddev) {
  long long elements = n;
  unsigned long long s = seed;
  if (dtype == DType::F32) {
    TRY(launchStride(fillNormal32, n, {&p, &elements, &s, &stddev}));
  } else {
    int isBf16 = dtype == DType::BF16;
    TRY(launchStride(fillNormal, n, {&p, &elements, &s, &stddev, &isBf16}));
  }
  return synchronize(api, "the input generator");
}

std::string checkWrittenOnGpu(Reference &ref, const RunSpec &spec,
                              const DeviceViews &views, RunResult &result) {
  result.writtenChecked = true;
  for (const TensorArg &t : spec.tensors) {
    if (!t.written())
      continue;
    uint64_t unwritten = 0, nonFinite = 0;
    TRY(ref.countBad(views.at(t.name).get(), t.dtype, t.elements(), unwritten,
                     nonFinite));
    if (!t.poisoned())
      unwritten = 0;
    result.outputElements += t.elements();
    result.badElements += static_cast<int64_t>(unwritten + nonFinite);
    writtenFailures(t.name, t.elements(), static_cast<int64_t>(unwritten),
                    static_cast<int64_t>(nonFinite), result.failures);
  }
  return std::string();
}

std::string copyToHost(const CudaApi *api, const TensorArg &arg,
                       const DeviceBuffer &buffer, HostTensor &tensor) {
  tensor = HostTensor::zeros(arg.shape, arg.dtype);
  if (tensor.sizeBytes())
    CU_TRY(cuMemcpyDtoH(tensor.data(), buffer.get(), tensor.sizeBytes()));
  return std::string();
}

namespace {

/// FlashAttention's 2x rule on the selected rows, against reference.cu.
std::string checkAttention(Reference &ref, const RunnerOptions &options,
                           const AttentionConfig &cfg, const RunSpec &spec,
                           const DeviceViews &views, RunResult &result) {
  const CudaApi *api = ref.api;
  const int64_t totalRows = int64_t(cfg.batch) * cfg.heads * cfg.seqQ;
  int64_t count = options.checkRows;
  if (count < 0)
    count = totalRows * cfg.seqK <= kFullCheckPairs ? 0 : kDefaultSampleRows;
  std::vector<int64_t> rows = selectCheckRows(totalRows, cfg.seqQ, count);
  const int64_t numRows = static_cast<int64_t>(rows.size());
  const TensorArg *lseArg = spec.find("Lse");
  const bool checkLse = cfg.withLse && lseArg && lseArg->written();

  DeviceBuffer rowBuffer, scratch, statsBuffer;
  int64_t chunk = std::max<int64_t>(
      1, std::min<int64_t>(numRows,
                           kReferenceScratchBytes / (size_t(8) * cfg.seqK)));
  TRY(rowBuffer.allocate(api, rows.size() * sizeof(int64_t)));
  TRY(scratch.allocate(api, size_t(chunk) * 2 * cfg.seqK * sizeof(float)));
  TRY(statsBuffer.allocate(api, size_t(chunk) * sizeof(RowStats)));
  CU_TRY(cuMemcpyHtoD(rowBuffer.get(), rows.data(),
                      rows.size() * sizeof(int64_t)));

  std::vector<RowStats> stats(rows.size());
  CUdeviceptr q = views.at("Q").get(), k = views.at("K").get(),
              v = views.at("V").get(), out = views.at("Out").get(),
              lse = views.count("Lse") ? views.at("Lse").get() : 0,
              scratchPtr = scratch.get(), statsPtr = statsBuffer.get();
  int isBf16 = cfg.dtype == DType::BF16, heads = cfg.heads,
      kvHeads = cfg.kvHeads, seqQ = cfg.seqQ, seqK = cfg.seqK,
      headDim = cfg.headDim, causal = cfg.causal, inputPos = cfg.inputPos,
      lseFlag = checkLse;
  float scale = cfg.effectiveScale();
  for (int64_t first = 0; first < numRows; first += chunk) {
    int64_t n = std::min(chunk, numRows - first);
    CUdeviceptr rowPtr = rowBuffer.get() + first * sizeof(int64_t);
    void *params[] = {&q,       &k,          &v,        &out,   &lse,
                      &isBf16,  &heads,      &kvHeads,  &seqQ,  &seqK,
                      &headDim, &causal,     &inputPos, &scale, &lseFlag,
                      &rowPtr,  &scratchPtr, &statsPtr};
    TRY(launch(api, ref.rows, {n, 1, 1}, {kRefRowThreads, 1, 1},
               int64_t(cfg.headDim) * sizeof(float), params));
    TRY(synchronize(api, "the reference kernel"));
    CU_TRY(cuMemcpyDtoH(stats.data() + first, statsBuffer.get(),
                        n * sizeof(RowStats)));
  }

  ProblemCheck &c = result.check;
  AttentionCheckInfo &a = c.attention;
  c.done = true;
  c.hasAttention = true;
  c.rowsChecked = numRows;
  c.rowsTotal = totalRows;
  a.sampled = numRows < totalRows;
  a.lseChecked = checkLse;
  a.lseRule = format("|lse - ref| <= %g + %g |ref|; FLT_MAX where no key",
                     kLseAbs, kLseRel);
  c.reference = std::string("GPU naive attention (reference.cu): fp32 "
                            "scores, fp64 softmax sums; low-precision twin "
                            "in ") +
                dtypeName(cfg.dtype);
  double atolTerm = 0;
  int64_t nonFinite = 0, nonZeroEmpty = 0, lseBad = 0, worstIndex = -1;
  for (int64_t i = 0; i < numRows; ++i) {
    const RowStats &s = stats[i];
    if (s.worstColumn >= 0 && (worstIndex < 0 || s.maxError > a.maxError)) {
      a.maxError = s.maxError;
      worstIndex = rows[i] * cfg.headDim + s.worstColumn;
    }
    a.lowPrecError = std::max<double>(a.lowPrecError, s.maxLowPrec);
    atolTerm = std::max<double>(atolTerm, s.maxAtolTerm);
    if (checkLse) {
      if (s.visibleKeys)
        a.maxLseError = std::max<double>(a.maxLseError, s.lseError);
      if (!(s.lseError <= kLseAbs + kLseRel * std::fabs(s.lseRef)))
        ++lseBad;
    }
    nonFinite += s.nonFinite;
    nonZeroEmpty += s.nonZeroEmpty;
  }
  a.lseBadRows = lseBad;
  a.atol = 2 * atolTerm;
  a.tolerance = 2 * a.lowPrecError + a.atol;
  if (!std::isfinite(a.lowPrecError)) {
    a.tolerance = 1e-2 + a.atol;
    c.notes.push_back(
        "the low-precision reference overflowed (inputs too large for the "
        "dtype); the tolerance falls back to 1e-2 + atol");
  }
  auto fail = [&](const std::string &m) {
    c.failures.push_back(m);
    result.failures.push_back(m);
  };
  if (a.maxError > a.tolerance) {
    int64_t flat = worstIndex, d = flat % cfg.headDim;
    int64_t row = flat / cfg.headDim, i = row % cfg.seqQ,
            h = (row / cfg.seqQ) % cfg.heads,
            b = row / (int64_t(cfg.seqQ) * cfg.heads);
    fail(format("max|out - ref| = %.4e at Out[%lld, %lld, %lld, %lld] "
                "exceeds the tolerance %.4e (seed %llu)",
                a.maxError, static_cast<long long>(b),
                static_cast<long long>(h), static_cast<long long>(i),
                static_cast<long long>(d), a.tolerance,
                static_cast<unsigned long long>(cfg.seed)));
  }
  if (nonZeroEmpty)
    fail(format("%lld output elements are nonzero in rows that see no key "
                "(they must be exactly 0; seed %llu)",
                static_cast<long long>(nonZeroEmpty),
                static_cast<unsigned long long>(cfg.seed)));
  if (lseBad)
    fail(format("%lld log-sum-exp rows are off (max error %.4e; %s; seed "
                "%llu)",
                static_cast<long long>(lseBad), a.maxLseError,
                a.lseRule.c_str(), static_cast<unsigned long long>(cfg.seed)));
  (void)nonFinite; // counted by checkWrittenOnGpu
  return std::string();
}

/// Compares output `name` (rows `rows` of row length `rowLength`) with the
/// reference and tolerance in `refBuf`/`tolBuf`, into `check` (replaced).
std::string compareOutput(Reference &ref, const TensorArg &arg, CUdeviceptr out,
                          CUdeviceptr rowsPtr, int64_t numRows,
                          int64_t rowLength, CUdeviceptr refPtr,
                          CUdeviceptr tolPtr, OutputCheck &check) {
  const CudaApi *api = ref.api;
  int64_t total = numRows * rowLength;
  int64_t blocks = std::max<int64_t>(
      1, std::min<int64_t>((total + kRefBlockThreads - 1) / kRefBlockThreads,
                           int64_t(ref.sms) * 8));
  DeviceBuffer partials;
  TRY(partials.allocate(api, blocks * sizeof(CompareStats)));
  int dtype = refDType(arg.dtype), checkPoison = arg.poisoned();
  long long nr = numRows, rl = rowLength;
  CUdeviceptr partialPtr = partials.get();
  void *params[] = {&out, &dtype,  &checkPoison, &rowsPtr,   &nr,
                    &rl,  &refPtr, &tolPtr,      &partialPtr};
  TRY(launch(api, ref.compare, {blocks, 1, 1}, {kRefBlockThreads, 1, 1}, 0,
             params));
  TRY(synchronize(api, "the comparison with the reference"));
  std::vector<CompareStats> stats(blocks);
  CU_TRY(cuMemcpyDtoH(stats.data(), partials.get(),
                      blocks * sizeof(CompareStats)));
  CompareStats all = emptyCompareStats();
  for (const CompareStats &s : stats)
    mergeCompareStats(all, s);
  // OutputCheck's fields in their order (Problem.h).
  check = OutputCheck{arg.name,
                      static_cast<int64_t>(all.compared),
                      static_cast<int64_t>(all.unwritten),
                      static_cast<int64_t>(all.nonFinite),
                      static_cast<int64_t>(all.violations),
                      all.maxError,
                      all.maxRatio,
                      all.worst,
                      all.worstOut,
                      all.worstRef,
                      all.worstTol};
  return std::string();
}

/// gemm, softmax, layernorm: float64 references of the sampled rows.
std::string checkRows(const Gpu &gpu, Reference &ref,
                      const RunnerOptions &options, const Problem &problem,
                      const Manifest &m, const RunSpec &spec,
                      const DeviceViews &views, RunResult &result) {
  const CudaApi *api = gpu.api;
  const std::string name = problem.name();
  const char *outName = name == "gemm" ? "C" : "Y";
  const TensorArg *out = spec.find(outName);
  const TensorArg *in = spec.find(name == "gemm" ? "A" : "X");
  int64_t mSize = out->shape[0], nSize = out->shape[1];
  // A row costs the reference N * K (gemm) or N operations: sample large
  // problems unless --check-rows says otherwise.
  int64_t work = name == "gemm" ? nSize * in->shape[1] : nSize;
  int64_t count = options.checkRows;
  if (count < 0)
    count = mSize * work <= (int64_t(1) << 32) ? 0 : 2048;
  std::vector<int64_t> rows = selectCheckRows(mSize, mSize, count);
  int64_t numRows = static_cast<int64_t>(rows.size());
  DeviceBuffer rowBuffer, refBuf, tolBuf, statsBuf;
  TRY(rowBuffer.allocate(api, rows.size() * sizeof(int64_t)));
  CU_TRY(cuMemcpyHtoD(rowBuffer.get(), rows.data(),
                      rows.size() * sizeof(int64_t)));
  TRY(refBuf.allocate(api, size_t(numRows) * nSize * sizeof(double)));
  TRY(tolBuf.allocate(api, size_t(numRows) * nSize * sizeof(double)));
  CUdeviceptr rowsPtr = rowBuffer.get(), refPtr = refBuf.get(),
              tolPtr = tolBuf.get(), x = views.at(in->name).get();
  int inDtype = refDType(in->dtype), outDtype = refDType(out->dtype);
  int n = static_cast<int>(nSize);
  ProblemCheck &c = result.check;
  bool rms = false;
  if (name == "gemm") {
    const TensorArg *bias = spec.find("Bias");
    CUdeviceptr b = views.at("B").get(),
                biasPtr = bias ? views.at("Bias").get() : 0;
    int k = static_cast<int>(in->shape[1]);
    int transB = paramFlag(m, "TRANS_B", false);
    int hasBias = paramFlag(m, "HAS_BIAS", false) && bias;
    int activation = static_cast<int>(paramInt(m, "ACTIVATION", 0));
    int biasDtype = bias ? refDType(bias->dtype) : outDtype;
    float scale = spec.scalars.count("scale")
                      ? static_cast<float>(spec.scalars.at("scale").real)
                      : 1.0f;
    void *params[] = {&x,     &b,       &biasPtr, &inDtype, &biasDtype,
                      &n,     &k,       &transB,  &hasBias, &activation,
                      &scale, &rowsPtr, &refPtr,  &tolPtr};
    TRY(launch(api, ref.gemm, {(nSize + 127) / 128, numRows, 1}, {128, 1, 1}, 0,
               params));
    c.rule = "|C - ref| <= 2 u |ref| + 4 sqrt(K) u_f32 |scale| sum|a b| + a "
             "(Tolerance.h)";
    c.reference = "GPU float64 GEMM (reference.cu)";
  } else if (name == "softmax") {
    void *params[] = {&x, &inDtype, &n, &outDtype, &rowsPtr, &refPtr, &tolPtr};
    TRY(launch(api, ref.softmax, {numRows, 1, 1}, {kRefBlockThreads, 1, 1}, 0,
               params));
    c.rule = "|Y - ref| <= (2 u + 1e-5 + 4 sqrt(N) u_f32) |ref| + a "
             "(Tolerance.h)";
    c.reference = "GPU float64 softmax (reference.cu)";
  } else {
    TRY(statsBuf.allocate(api, size_t(numRows) * 4 * sizeof(double)));
    rms = paramFlag(m, "RMS", false);
    const TensorArg *bArg = spec.find("B");
    CUdeviceptr w = views.at("W").get(), b = bArg ? views.at("B").get() : 0,
                statsPtr = statsBuf.get();
    int rmsFlag = rms, hasBias = bArg != nullptr;
    float eps = spec.scalars.count("eps")
                    ? static_cast<float>(spec.scalars.at("eps").real)
                    : 0.0f;
    void *params[] = {&x,      &w,       &b,       &inDtype,  &n,
                      &eps,    &rmsFlag, &hasBias, &outDtype, &rowsPtr,
                      &refPtr, &tolPtr,  &statsPtr};
    TRY(launch(api, ref.layernorm, {numRows, 1, 1}, {kRefBlockThreads, 1, 1}, 0,
               params));
    c.rule = "|Y - ref| <= 2 u |ref| + (1e-5 + 4 sqrt(N) u_f32) (|xhat w| + "
             "|b|) + a; Mean, Rstd relative (Tolerance.h)";
    c.reference = "GPU float64 LayerNorm (reference.cu)";
  }
  TRY(synchronize(api, "the " + name + " reference kernel"));
  OutputCheck oc;
  TRY(compareOutput(ref, *out, views.at(out->name).get(), rowsPtr, numRows,
                    nSize, refPtr, tolPtr, oc));
  c.outputs.push_back(oc);
  if (name == "layernorm") {
    // Mean and Rstd: numRows values, compared on the host.
    std::vector<double> stats(size_t(numRows) * 4);
    CU_TRY(cuMemcpyDtoH(stats.data(), statsBuf.get(),
                        stats.size() * sizeof(double)));
    for (int which = 0; which < 2; ++which) {
      const TensorArg *s = spec.find(which == 0 ? "Mean" : "Rstd");
      if (!s || !s->written() || (which == 0 && rms))
        continue;
      HostTensor h;
      TRY(copyToHost(api, *s, views.at(s->name), h));
      OutputCheck sc;
      sc.name = s->name;
      for (int64_t r = 0; r < numRows; ++r)
        accumulate(sc, rows[r], h.get(rows[r]), stats[4 * r + 2 * which],
                   stats[4 * r + 2 * which + 1],
                   s->poisoned() && h.isPoison(rows[r]));
      c.outputs.push_back(sc);
    }
  }
  c.rowsChecked = numRows;
  c.rowsTotal = mSize;
  c.finish(spec.seed);
  for (const std::string &f : c.failures)
    result.failures.push_back(f);
  return std::string();
}

} // namespace

std::string checkProblemOnGpu(const Gpu &gpu, Reference &ref,
                              const RunnerOptions &options,
                              const Problem &problem, const Manifest &m,
                              const RunSpec &spec, const DeviceViews &views,
                              RunResult &result) {
  if (problem.name() == "attention")
    return checkAttention(ref, options, problem.options.attention, spec, views,
                          result);
  return checkRows(gpu, ref, options, problem, m, spec, views, result);
}

} // namespace runner
} // namespace tile
