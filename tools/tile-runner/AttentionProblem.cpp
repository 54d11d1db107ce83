//===- AttentionProblem.cpp - attention forward as a built-in problem -----===//
//
// Binds Q [B, H, Sq, D], K and V [B, HKV, Sk, D], Out [B, H, Sq, D],
// Lse [B, H, Sq] (f32), qk_scale (1/sqrt(D) unless --scale) and input_pos
// from the attention flags; checks the bundle's params (HEAD_DIM,
// QUERY_GROUP_SIZE, CAUSAL, DTYPE, EVEN_K, WITH_LSE) against them, and the
// outputs with FlashAttention's 2x rule (Attention.cpp on the host; the row
// kernel of reference.cu on the GPU, GpuChecks.cpp).
//
//===----------------------------------------------------------------------===//

#include "Problem.h"
#include "Report.h"

#include "tile/Support/Checked.h"

namespace tile {
namespace runner {
namespace {

class AttentionProblem : public Problem {
public:
  using Problem::Problem;
  std::string name() const override { return "attention"; }

  const AttentionConfig &cfg() const { return options.attention; }

  bool bind(const Manifest &m, RunSpec &spec,
            std::string &error) const override {
    const AttentionConfig &c = cfg();
    int64_t b = c.batch, h = c.heads, hkv = c.kvHeads;
    auto view = [&](const char *name, DType dtype, std::vector<int64_t> shape) {
      if (!m.abiEntry(name))
        return;
      TensorArg t;
      t.name = name;
      t.dtype = dtype;
      t.shape = std::move(shape);
      t.stddev = c.inputStd;
      spec.tensors.push_back(t);
    };
    view("Q", c.dtype, {b, h, c.seqQ, c.headDim});
    view("K", c.dtype, {b, hkv, c.seqK, c.headDim});
    view("V", c.dtype, {b, hkv, c.seqK, c.headDim});
    view("Out", c.dtype, {b, h, c.seqQ, c.headDim});
    view("Lse", DType::F32, {b, h, c.seqQ});
    if (m.abiEntry("qk_scale"))
      spec.scalars["qk_scale"] = ScalarBinding::ofReal(c.effectiveScale());
    if (m.abiEntry("input_pos"))
      spec.scalars["input_pos"] = ScalarBinding::ofInt(c.inputPos);
    spec.seed = c.seed;
    for (const char *needed : {"Q", "K", "V", "Out"})
      if (!m.abiEntry(needed)) {
        error = std::string("the attention problem binds Q, K, V, Out, Lse, "
                            "qk_scale and input_pos; kernel ") +
                m.kernel + " has no view '" + needed + "'";
        return false;
      }
    return true;
  }

  std::string checkFits(const Manifest &m, const RunSpec &) const override {
    const AttentionConfig &c = cfg();
    int64_t headDim, group, tileN = 0;
    bool causal, evenK, withLse = false;
    std::string dtype;
    if (!m.paramInt("HEAD_DIM", headDim))
      return "params lack an integer HEAD_DIM";
    if (!m.paramInt("QUERY_GROUP_SIZE", group))
      return "params lack an integer QUERY_GROUP_SIZE";
    if (!m.paramBool("CAUSAL", causal))
      return "params lack a boolean CAUSAL";
    if (!m.paramBool("EVEN_K", evenK))
      return "params lack a boolean EVEN_K";
    if (!m.paramString("DTYPE", dtype))
      return "params lack a DTYPE string";
    m.paramBool("WITH_LSE", withLse);
    if (headDim != c.headDim)
      return "HEAD_DIM = " + std::to_string(headDim) +
             " in the bundle, but --head-dim is " + std::to_string(c.headDim);
    int runGroup = c.kvHeads > 0 ? c.heads / c.kvHeads : 0;
    if (group != runGroup)
      return "QUERY_GROUP_SIZE = " + std::to_string(group) +
             " in the bundle, but --heads / --kv-heads = " +
             std::to_string(c.heads) + " / " + std::to_string(c.kvHeads) +
             " = " + std::to_string(runGroup);
    if (causal != c.causal)
      return std::string("CAUSAL = ") + (causal ? "true" : "false") +
             " in the bundle, but the run is " +
             (c.causal ? "causal (--causal)" : "not causal (no --causal)");
    if (dtype != dtypeName(c.dtype))
      return "DTYPE = " + dtype + " in the bundle, but --dtype is " +
             dtypeName(c.dtype);
    if (evenK) {
      if (!m.paramInt("TILE_N", tileN) || tileN <= 0)
        return "EVEN_K = true but params lack a positive TILE_N";
      if (c.seqK % tileN != 0)
        return "EVEN_K = true needs --seq-k to be a multiple of TILE_N = " +
               std::to_string(tileN) + ", got " + std::to_string(c.seqK);
    }
    if (c.withLse && !withLse)
      return "WITH_LSE = false in the bundle, but --lse asks for the "
             "log-sum-exp";
    return std::string();
  }

  std::vector<std::string> impliedParams(
      const std::function<std::string(const std::string &)> &paramValue)
      const override {
    const AttentionConfig &c = cfg();
    std::vector<std::string> implied = {
        "HEAD_DIM=" + std::to_string(c.headDim),
        "QUERY_GROUP_SIZE=" + std::to_string(c.heads / c.kvHeads),
        std::string("CAUSAL=") + (c.causal ? "true" : "false"),
        std::string("WITH_LSE=") + (c.withLse ? "true" : "false"),
        std::string("DTYPE=") + dtypeName(c.dtype)};
    std::optional<int64_t> tileN =
        checked::parseInt(paramValue("TILE_N"), 1, INT32_MAX);
    if (tileN)
      implied.push_back(std::string("EVEN_K=") +
                        (c.seqK % *tileN == 0 ? "true" : "false"));
    return implied;
  }

  bool checkOnHost(const Manifest &m, const RunSpec &spec,
                   const std::map<std::string, HostTensor> &tensors,
                   ProblemCheck &check, std::string &error) const override {
    const AttentionConfig &c = cfg();
    AttentionTensors t;
    auto get = [&](const char *name, HostTensor &out) {
      auto it = tensors.find(name);
      if (it != tensors.end())
        out = it->second;
      return it != tensors.end();
    };
    if (!get("Q", t.q) || !get("K", t.k) || !get("V", t.v) ||
        !get("Out", t.out)) {
      error = "the attention check needs Q, K, V and Out";
      return false;
    }
    const TensorArg *lseArg = spec.find("Lse");
    bool checkLse = c.withLse && lseArg && lseArg->written();
    if (!get("Lse", t.lse))
      t.lse = HostTensor::zeros({c.batch, c.heads, c.seqQ}, DType::F32);
    std::vector<double> ref, refLse, refLow;
    referenceAttention(c, t, ref, refLse);
    lowPrecisionAttention(c, t, refLow);
    AttentionConfig checked = c;
    checked.withLse = checkLse;
    CheckResult cr =
        checkAttention(checked, t, ref, refLow, checkLse ? &refLse : nullptr);
    check.done = true;
    check.hasAttention = true;
    check.reference = "float64 host reference (Attention.cpp)";
    check.rowsChecked = check.rowsTotal = t.lse.numElements();
    AttentionCheckInfo &a = check.attention;
    a.maxError = cr.maxError;
    a.lowPrecError = cr.lowPrecError;
    a.tolerance = cr.tolerance;
    a.atol = cr.tolerance - 2 * cr.lowPrecError;
    a.lseChecked = checkLse;
    a.lseRule = "|lse - ref| <= 0.001 + 0.0001 |ref|; FLT_MAX where no key";
    a.maxLseError = cr.maxLseError;
    OutputCheck out;
    out.name = "Out";
    out.elements = t.out.numElements();
    out.nonFinite = cr.nonFinite;
    check.outputs.push_back(out);
    // The message says why and ends with the seed.
    if (!cr.passed)
      check.failures.push_back(cr.message);
    (void)m;
    return true;
  }

  double flops(const Manifest &, const RunSpec &,
               std::string *formula) const override {
    return attentionFlops(cfg(), formula);
  }

  std::string shapeSummary(const RunSpec &) const override {
    return runner::shapeSummary(cfg());
  }
};

} // namespace

std::unique_ptr<Problem> makeAttentionProblem(const ProblemOptions &options) {
  return std::make_unique<AttentionProblem>(options);
}

} // namespace runner
} // namespace tile
