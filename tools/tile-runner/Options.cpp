//===- Options.cpp - tile-runner's command line ---------------------------===//

#include "Options.h"

#include "Problem.h"

#include "tile/Support/Checked.h"
#include "tile/Support/EnumNames.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <set>

namespace tile {
namespace runner {

static constexpr ::tile::EnumName<Backend> kBackendNames[] = {
    {Backend::Auto, "auto"}, {Backend::Gpu, "gpu"}, {Backend::Cpu, "cpu"}};
static_assert(::tile::listsEnum(kBackendNames, Backend::Cpu));

static constexpr ::tile::EnumName<InputSource> kInputSourceNames[] = {
    {InputSource::Auto, "auto"},
    {InputSource::Host, "host"},
    {InputSource::Device, "device"}};
static_assert(::tile::listsEnum(kInputSourceNames, InputSource::Device));

const char *backendName(Backend backend) {
  return ::tile::enumName(kBackendNames, backend);
}

const char *inputSourceName(InputSource source) {
  return ::tile::enumName(kInputSourceNames, source);
}

std::string usageText() {
  return R"(usage: tile-runner [options]

Runs a compiled kernel (any kernel: its arguments are bound by name from the
bundle's ABI) and checks it against a built-in problem's reference or a
reference .npy.

Backends:
  --backend=gpu|cpu|auto   auto (default): gpu when a CUDA device answers, else cpu
  --bundle DIR             gpu: a kernel bundle folder (docs/bundle.md)
  --autotune --bundles DIR gpu: time every bundle folder in DIR that fits the
                           shape, keep the fastest in the autotune cache, run it
  --kernel FILE            cpu: kernel source (kernels/fmha.mlir)
  --params K=V,...         cpu: parameter bindings (TILE_M=64,TILE_N=64)
  --pipeline STR           cpu: pass pipeline run after tile-specialize
  --max-work N             cpu: the most units of work (about one per element
                           operation) the run may do; refused before it starts
                           when the estimate is higher (0: no limit; 2^32)
  --device N               gpu: CUDA device ordinal (default 0)

Arguments:
  --problem NAME           attention (default), gemm, softmax, layernorm: binds
                           the arguments from a few sizes and checks the
                           outputs against its own reference
  --shape M=..,N=..[,K=..] the sizes of gemm (M, N, K), softmax and
                           layernorm (M, N)
  --arg NAME=DTYPE[D0,..]  bind view NAME: dtype and shape, seeded random input
  --arg NAME=@FILE.npy     bind view NAME to a .npy file
  --arg NAME=NUMBER        bind scalar NAME
  --save NAME=FILE.npy     write view NAME after the run
  --ref NAME=FILE.npy      check view NAME against a reference (e.g. written
                           by tile-exec --save): |out - ref| <= atol + rtol |ref|
  --rtol F (1e-3) --atol F (1e-5)
  Outputs (views the kernel writes) are poisoned before the launch.

Attention (Q [B,H,Sq,D], K/V [B,HKV,Sk,D]):
  --batch N  --heads N  --kv-heads N (default: --heads)  --head-dim N
  --seq N (sets --seq-q and --seq-k)  --seq-q N  --seq-k N
  --causal[=0|1]           causal mask: query i sees keys 0..input_pos+i
  --input-pos N|top-left|bottom-right
                           position of query row 0 (causal): top-left is 0,
                           bottom-right is seq-k - seq-q (may be negative)
  --dtype f16|bf16  --lse[=0|1]  --scale F (default 1/sqrt(D))
  --seed N  --std F        random inputs: normal(0, std), seeded
  --inputs auto|host|device
                           gpu: where the inputs are made (auto: device for
                           problems over 2^27 Q+K+V elements)

Checking (FlashAttention's 2x rule against an independent reference):
  --check-rows N|all       gpu: check N sampled query rows, or all (default:
                           all when rows * seq-k <= 2^28, else 8192 rows)
  --no-check               skip the reference check (NaN/poison still checked)
  --determinism            run twice, require bitwise-equal outputs
  --allow-spills           do not fail a kernel whose ptxas reports spills

Timing (gpu: CUDA events, L2 flushed before every sample):
  --bench  --reps N (20)  --warmup N (3)  --no-l2-flush

Autotuning (each variant is timed in a child process, so that a kernel
fault loses only that variant; the run then exits with status 2):
  --autotune-timeout S     seconds a variant may take (120)
  --autotune-cache PATH    default ~/.cache/tile-compiler/autotune.json
  --print-autotune         every variant: time, why skipped, why the winner won
  --retune                 time again even when the cache has the shape
  --autotune-reps N        timed launches per variant (10)

Output:
  --json                   one JSON object on stdout instead of the table
  --dry-run                gpu: check the bundle against the shape and show the
                           launch (grid, parameters) without a GPU
  --verbose  --help

Memory: the run's memory is estimated before anything is allocated and
refused when the device's free memory or the host's (MemAvailable; capped by
the environment variable TILE_RUNNER_HOST_MEMORY, bytes) cannot hold it.

Exit status: 0 when every check passed, 1 when a check failed, 2 on errors
(a kernel fault included; in --autotune, a faulting variant is reported and
the others still run).
)";
}

namespace {

/// The options that take a value.
const std::set<std::string> &valueOptions() {
  static const std::set<std::string> names = {
      "--backend",       "--bundle",
      "--bundles",       "--kernel",
      "--params",        "--pipeline",
      "--device",        "--inputs",
      "--batch",         "--heads",
      "--kv-heads",      "--seq",
      "--seq-q",         "--seq-k",
      "--head-dim",      "--input-pos",
      "--dtype",         "--scale",
      "--seed",          "--std",
      "--check-rows",    "--reps",
      "--warmup",        "--autotune-cache",
      "--autotune-reps", "--autotune-timeout",
      "--problem",       "--shape",
      "--arg",           "--save",
      "--ref",           "--rtol",
      "--atol",          "--max-work"};
  return names;
}

/// The flags of the attention problem.
bool isAttentionFlag(const std::string &name) {
  static const std::set<std::string> names = {
      "--batch", "--heads", "--kv-heads", "--seq",
      "--seq-q", "--seq-k", "--head-dim", "--input-pos",
      "--dtype", "--scale", "--causal",   "--lse"};
  return names.count(name) != 0;
}

/// Flags; those in `boolFlags` also take =0/1/true/false.
const std::set<std::string> &flagOptions() {
  static const std::set<std::string> names = {
      "--causal",       "--lse",         "--json",           "--bench",
      "--autotune",     "--retune",      "--print-autotune", "--determinism",
      "--no-check",     "--verbose",     "--dry-run",        "--help",
      "--allow-spills", "--no-l2-flush", "--autotune-child"};
  return names;
}

bool parseInt64(const std::string &text, int64_t &value) {
  std::optional<int64_t> v = checked::parseInt(text);
  if (!v)
    return false;
  value = *v;
  return true;
}

bool parseFloat(const std::string &text, double &value) {
  std::optional<double> v = checked::parseDouble(text);
  if (!v)
    return false;
  value = *v;
  return true;
}

bool parseBoolText(const std::string &text, bool &value) {
  if (text == "1" || text == "true" || text == "on" || text == "yes") {
    value = true;
    return true;
  }
  if (text == "0" || text == "false" || text == "off" || text == "no") {
    value = false;
    return true;
  }
  return false;
}

class Parser {
public:
  Parser(RunnerOptions &options, std::string &error)
      : o(options), error(error) {}

  bool run(int argc, const char *const *argv) {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "-h")
        arg = "--help";
      if (arg.compare(0, 2, "--") != 0)
        return fail("unexpected argument '" + arg +
                    "' (options start with --; see --help)");
      std::string name = arg, value;
      bool hasValue = false;
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        name = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        hasValue = true;
      }
      if (valueOptions().count(name)) {
        if (!hasValue) {
          if (i + 1 >= argc)
            return fail(name + " needs a value");
          value = argv[++i];
        }
      } else if (flagOptions().count(name)) {
        if (hasValue && name != "--causal" && name != "--lse")
          return fail(name + " takes no value");
        if (!hasValue)
          value = "1";
      } else {
        return fail("unknown option '" + name + "' (see --help)");
      }
      given.insert(name);
      if (isAttentionFlag(name))
        o.attentionFlags = true;
      if (!apply(name, value))
        return false;
    }
    return finish();
  }

private:
  RunnerOptions &o;
  std::string &error;
  std::set<std::string> given;
  std::string inputPos = "0";
  int64_t seq = -1, seqQ = -1, seqK = -1, kvHeads = -1;

  bool fail(const std::string &message) {
    if (error.empty())
      error = message;
    return false;
  }
  bool has(const char *name) const { return given.count(name) != 0; }

  bool intOption(const std::string &name, const std::string &text,
                 int64_t &value, int64_t min, int64_t max) {
    std::string why;
    std::optional<int64_t> v = checked::parseInt(text, min, max, &why);
    if (!v)
      return fail(name + ": " + why);
    value = *v;
    return true;
  }
  bool intOption(const std::string &name, const std::string &text, int &value,
                 int64_t min, int64_t max = INT32_MAX) {
    int64_t v;
    if (!intOption(name, text, v, min, max))
      return false;
    value = static_cast<int>(v);
    return true;
  }

  bool apply(const std::string &name, const std::string &value) {
    AttentionConfig &cfg = o.cfg;
    if (name == "--problem") {
      // Checked here, as other values are, so that --help does not hide it.
      if (value.empty() || !makeProblem(value, ProblemOptions()))
        return fail("--problem must be one of " + problemNames() + ", got '" +
                    value + "'");
      o.problem = value;
    } else if (name == "--shape") {
      return parseShape(value, o.shape, error) || fail(error);
    } else if (name == "--arg") {
      ArgOverride arg;
      if (!parseArgOverride(value, arg, error))
        return false;
      o.args.push_back(arg);
    } else if (name == "--save" || name == "--ref") {
      SaveRequest save;
      std::string why;
      if (!parseSaveRequest(value, save, why))
        return fail(name + " takes NAME=FILE.npy, got '" + value + "'");
      (name == "--save" ? o.saves : o.refs).push_back(save);
    } else if (name == "--rtol" || name == "--atol") {
      double v;
      if (!parseFloat(value, v) || v < 0)
        return fail(name + " must be a non-negative number, got '" + value +
                    "'");
      (name == "--rtol" ? o.rtol : o.atol) = v;
    } else if (name == "--autotune-timeout") {
      return intOption(name, value, o.autotuneTimeout, 1, 86400);
    } else if (name == "--autotune-child") {
      o.autotuneChild = true;
    } else if (name == "--backend") {
      std::optional<Backend> backend =
          ::tile::parseEnumName(kBackendNames, value);
      if (!backend)
        return fail("--backend must be gpu, cpu or auto, got '" + value + "'");
      o.backend = *backend;
    } else if (name == "--bundle") {
      o.bundleDir = value;
    } else if (name == "--bundles") {
      o.bundlesDir = value;
    } else if (name == "--kernel") {
      o.kernelPath = value;
    } else if (name == "--params") {
      size_t start = 0;
      while (start <= value.size()) {
        size_t comma = value.find(',', start);
        std::string item =
            value.substr(start, comma == std::string::npos ? std::string::npos
                                                           : comma - start);
        if (item.find('=') == std::string::npos || item.front() == '=')
          return fail("--params takes NAME=VALUE pairs separated by commas, "
                      "got '" +
                      item + "'");
        o.params.push_back(item);
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (name == "--pipeline") {
      o.pipeline = value;
      o.pipelineGiven = true;
    } else if (name == "--device") {
      return intOption(name, value, o.device, 0);
    } else if (name == "--inputs") {
      std::optional<InputSource> inputs =
          ::tile::parseEnumName(kInputSourceNames, value);
      if (!inputs)
        return fail("--inputs must be auto, host or device, got '" + value +
                    "'");
      o.inputs = *inputs;
    } else if (name == "--batch") {
      return intOption(name, value, cfg.batch, 1);
    } else if (name == "--heads") {
      return intOption(name, value, cfg.heads, 1);
    } else if (name == "--kv-heads") {
      return intOption(name, value, kvHeads, 1, INT32_MAX);
    } else if (name == "--seq") {
      return intOption(name, value, seq, 1, INT32_MAX);
    } else if (name == "--seq-q") {
      return intOption(name, value, seqQ, 1, INT32_MAX);
    } else if (name == "--seq-k") {
      return intOption(name, value, seqK, 1, INT32_MAX);
    } else if (name == "--head-dim") {
      return intOption(name, value, cfg.headDim, 1);
    } else if (name == "--input-pos") {
      inputPos = value;
    } else if (name == "--dtype") {
      std::string text = value == "fp16" ? "f16" : value;
      if (!parseDType(text, cfg.dtype) ||
          (cfg.dtype != DType::F16 && cfg.dtype != DType::BF16))
        return fail("--dtype must be f16 or bf16, got '" + value + "'");
    } else if (name == "--scale") {
      double scale;
      if (!parseFloat(value, scale) || scale <= 0)
        return fail("--scale must be a positive number, got '" + value + "'");
      cfg.scale = static_cast<float>(scale);
    } else if (name == "--seed") {
      int64_t seed;
      if (!intOption(name, value, seed, 0, INT64_MAX))
        return false;
      cfg.seed = static_cast<uint64_t>(seed);
    } else if (name == "--std") {
      double std;
      if (!parseFloat(value, std) || std <= 0)
        return fail("--std must be a positive number, got '" + value + "'");
      cfg.inputStd = static_cast<float>(std);
    } else if (name == "--causal" || name == "--lse") {
      bool flag;
      if (!parseBoolText(value, flag))
        return fail(name + " takes 0 or 1 (or no value), got '" + value + "'");
      (name == "--causal" ? cfg.causal : cfg.withLse) = flag;
    } else if (name == "--check-rows") {
      if (value == "all") {
        o.checkRows = 0;
        return true;
      }
      return intOption(name, value, o.checkRows, 1, INT64_MAX);
    } else if (name == "--reps") {
      return intOption(name, value, o.reps, 1, 100000);
    } else if (name == "--max-work") {
      return intOption(name, value, o.maxWork, 0, INT64_MAX);
    } else if (name == "--warmup") {
      return intOption(name, value, o.warmup, 0, 100000);
    } else if (name == "--autotune-cache") {
      o.autotuneCache = value;
    } else if (name == "--autotune-reps") {
      return intOption(name, value, o.autotuneReps, 1, 100000);
    } else if (name == "--json") {
      o.json = true;
    } else if (name == "--bench") {
      o.bench = true;
    } else if (name == "--autotune") {
      o.autotune = true;
    } else if (name == "--retune") {
      o.retune = true;
    } else if (name == "--print-autotune") {
      o.printAutotune = true;
    } else if (name == "--determinism") {
      o.determinism = true;
    } else if (name == "--no-check") {
      o.check = false;
    } else if (name == "--verbose") {
      o.verbose = true;
    } else if (name == "--dry-run") {
      o.dryRun = true;
    } else if (name == "--help") {
      o.help = true;
    } else if (name == "--allow-spills") {
      o.allowSpills = true;
    } else if (name == "--no-l2-flush") {
      o.flushL2 = false;
    }
    return true;
  }

  bool finishShape() {
    AttentionConfig &cfg = o.cfg;
    if (seq > 0)
      cfg.seqQ = cfg.seqK = static_cast<int>(seq);
    if (seqQ > 0)
      cfg.seqQ = static_cast<int>(seqQ);
    if (seqK > 0)
      cfg.seqK = static_cast<int>(seqK);
    cfg.kvHeads = kvHeads > 0 ? static_cast<int>(kvHeads) : cfg.heads;
    if (cfg.heads % cfg.kvHeads != 0)
      return fail("--heads " + std::to_string(cfg.heads) +
                  " is not a multiple of --kv-heads " +
                  std::to_string(cfg.kvHeads));

    // input_pos: the position of query row 0.
    int64_t pos;
    if (inputPos == "top-left") {
      pos = 0;
    } else if (inputPos == "bottom-right") {
      if (!cfg.causal)
        return fail("--input-pos bottom-right needs --causal");
      pos = int64_t(cfg.seqK) - cfg.seqQ;
    } else if (!parseInt64(inputPos, pos)) {
      return fail("--input-pos must be an integer, top-left or bottom-right, "
                  "got '" +
                  inputPos + "'");
    }
    if (pos < 0) {
      int64_t bottomRight = int64_t(cfg.seqK) - cfg.seqQ;
      if (!cfg.causal || cfg.seqQ <= cfg.seqK)
        return fail("--input-pos " + std::to_string(pos) +
                    ": a negative position is allowed only with --causal "
                    "and --seq-q > --seq-k (bottom-right alignment)");
      if (pos < bottomRight)
        return fail("--input-pos " + std::to_string(pos) +
                    " is below the bottom-right alignment seq-k - seq-q = " +
                    std::to_string(bottomRight));
    }
    if (pos + cfg.seqQ > INT32_MAX)
      return fail("--input-pos " + std::to_string(pos) +
                  " + --seq-q overflows a 32-bit position");
    if (pos != 0 && !cfg.causal)
      return fail("--input-pos " + std::to_string(pos) +
                  " has no effect without --causal");
    cfg.inputPos = static_cast<int>(pos);

    // Sizes: every tensor must be addressable with int64 element offsets;
    // the runner refuses more than 2^34 elements per tensor (32 GiB fp16).
    const double limit = double(int64_t(1) << 34);
    double qElems = double(cfg.batch) * cfg.heads * cfg.seqQ * cfg.headDim;
    double kElems = double(cfg.batch) * cfg.kvHeads * cfg.seqK * cfg.headDim;
    if (qElems > limit || kElems > limit)
      return fail("the shape is too large: Q has " +
                  std::to_string(static_cast<long long>(qElems)) + " and K " +
                  std::to_string(static_cast<long long>(kElems)) +
                  " elements (at most 2^34 each)");
    std::string why = cfg.validate();
    if (!why.empty())
      return fail(why);
    return true;
  }

  bool finishCombinations() {
    auto needs = [&](const char *option, bool ok, const std::string &what) {
      return ok || fail(std::string(option) + " " + what);
    };
    for (const char *option : {"--reps", "--warmup", "--no-l2-flush"})
      if (has(option) && !needs(option, o.bench, "applies only with --bench"))
        return false;
    for (const char *option : {"--print-autotune", "--autotune-cache",
                               "--retune", "--autotune-reps"})
      if (has(option) &&
          !needs(option, o.autotune, "applies only with --autotune"))
        return false;
    if (has("--check-rows") && !o.check)
      return fail("--check-rows and --no-check exclude each other");
    if (!o.bundleDir.empty() && !o.bundlesDir.empty())
      return fail("--bundle and --bundles exclude each other (--bundles DIR "
                  "is the folder of variants --autotune times)");
    if (!o.bundlesDir.empty() && !o.autotune)
      return fail("--bundles DIR is for --autotune; use --bundle DIR to run "
                  "one bundle");
    if (o.autotune && o.bundlesDir.empty())
      return fail("--autotune needs --bundles DIR (a folder of bundle "
                  "folders)");

    bool cpuInputs =
        !o.kernelPath.empty() || !o.params.empty() || o.pipelineGiven;
    const char *cpuOptions = !o.kernelPath.empty() ? "--kernel"
                             : !o.params.empty()   ? "--params"
                                                   : "--pipeline";
    if (o.backend == Backend::Gpu) {
      if (cpuInputs)
        return fail(std::string(cpuOptions) +
                    " is for --backend=cpu; --backend=gpu runs --bundle DIR");
      if (o.bundleDir.empty() && !o.autotune)
        return fail("--backend=gpu needs --bundle DIR (or --autotune "
                    "--bundles DIR)");
    }
    if (o.backend == Backend::Cpu) {
      if (o.autotune)
        return fail("--autotune runs on the gpu backend; drop --backend=cpu");
      if (o.kernelPath.empty() && o.bundleDir.empty())
        return fail("--backend=cpu needs --kernel FILE (e.g. "
                    "kernels/fmha.mlir)");
      if (!o.kernelPath.empty() && !o.bundleDir.empty())
        return fail("--backend=cpu takes --kernel FILE or --bundle DIR (whose "
                    "manifest names the source), not both");
      for (const char *option : {"--device", "--check-rows", "--reps",
                                 "--warmup", "--no-l2-flush", "--dry-run"})
        if (has(option))
          return fail(std::string(option) + " is for --backend=gpu");
      if (o.inputs == InputSource::Device)
        return fail("--inputs device is for --backend=gpu");
    }
    if ((o.backend == Backend::Gpu || o.autotune) && has("--max-work"))
      return fail("--max-work limits the cpu backend's reference executor; "
                  "drop it or use --backend=cpu");
    if (o.backend == Backend::Auto && o.kernelPath.empty() &&
        o.bundleDir.empty() && !o.autotune)
      return fail("nothing to run: give --bundle DIR (gpu), --kernel FILE "
                  "(cpu) or --autotune --bundles DIR");
    if (o.dryRun && o.bundleDir.empty() && !o.autotune)
      return fail("--dry-run needs --bundle DIR or --autotune --bundles DIR");
    return true;
  }

  bool finishProblem() {
    if (!has("--problem"))
      o.problem = o.args.empty() || o.attentionFlags ? "attention" : "";
    if (o.problem != "attention") {
      for (const std::string &name : given)
        if (isAttentionFlag(name))
          return fail(name + " is a flag of the attention problem; --problem " +
                      (o.problem.empty() ? std::string("is not given (a run "
                                                       "bound with --arg)")
                                         : o.problem + " takes --shape"));
    }
    if (has("--shape") && (o.problem.empty() || o.problem == "attention"))
      return fail("--shape gives the sizes of --problem gemm, softmax or "
                  "layernorm");
    if ((has("--rtol") || has("--atol")) && o.refs.empty())
      return fail("--rtol and --atol apply to --ref NAME=FILE.npy");
    return true;
  }

  bool finish() {
    if (o.help)
      return true;
    return finishProblem() && finishShape() && finishCombinations();
  }
};

} // namespace

std::vector<std::string> autotuneChildArgs(const std::vector<std::string> &argv,
                                           const std::string &self,
                                           const std::string &dir, int reps) {
  static const std::set<std::string> dropped = {"--bundles",
                                                "--autotune-cache",
                                                "--autotune-reps",
                                                "--autotune-timeout",
                                                "--reps",
                                                "--warmup",
                                                "--check-rows",
                                                "--save",
                                                "--ref",
                                                "--rtol",
                                                "--atol",
                                                "--autotune",
                                                "--print-autotune",
                                                "--retune",
                                                "--bench",
                                                "--json",
                                                "--determinism",
                                                "--verbose",
                                                "--dry-run",
                                                "--no-check",
                                                "--no-l2-flush",
                                                "--backend",
                                                "--dump-out",
                                                "--cpu-threads",
                                                "--autotune-child"};
  std::vector<std::string> out = {self};
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string &arg = argv[i];
    std::string name = arg.substr(0, arg.find('='));
    bool inlineValue = name.size() < arg.size();
    bool takesValue = valueOptions().count(name) || name == "--dump-out" ||
                      name == "--cpu-threads";
    if (dropped.count(name)) {
      if (takesValue && !inlineValue)
        ++i;
      continue;
    }
    out.push_back(arg);
    if (takesValue && !inlineValue && i + 1 < argv.size())
      out.push_back(argv[++i]);
  }
  for (const char *a : {"--backend=gpu", "--bundle"})
    out.push_back(a);
  out.push_back(dir);
  for (const std::string &a :
       {std::string("--bench"), std::string("--reps"), std::to_string(reps),
        std::string("--warmup"), std::string("2"), std::string("--json"),
        std::string("--autotune-child")})
    out.push_back(a);
  return out;
}

bool parseOptions(int argc, const char *const *argv, RunnerOptions &options,
                  std::string &error) {
  options = RunnerOptions();
  error.clear();
  return Parser(options, error).run(argc, argv);
}

} // namespace runner
} // namespace tile
