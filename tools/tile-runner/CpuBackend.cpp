//===- CpuBackend.cpp - tile-runner's cpu backend -------------------------===//
//
// Parses the kernel, binds its parameters (the user's and those the problem
// implies), runs the requested pass pipeline, describes the kernel with the
// bundle library, evaluates the grid rule and executes the kernel on the
// host with the reference executor (lib/Executor).
//
//===----------------------------------------------------------------------===//

#include "CpuBackend.h"

#include "tile/Bundle/Launch.h"
#include "tile/Target/Bundle/KernelBundle.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Executor/Executor.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/SourceFile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <mutex>

using namespace mlir;

namespace tile {
namespace runner {
namespace exec = mlir::tile::exec;
namespace {

/// The passes a --pipeline may name: canonicalize, cse, licm, the project's
/// tile passes and its pipelines tile-O0..tile-O3. Registration is global, so
/// it happens once.
void registerPipelinePasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCanonicalizerPass();
    registerCSEPass();
    registerLoopInvariantCodeMotionPass();
    mlir::tile::registerTilePasses();
    mlir::tile::registerTileOptimizationPipelines();
  });
}

/// "NAME=VALUE" entries; an entry may itself hold several, comma-separated.
std::vector<std::pair<std::string, std::string>>
splitBindings(const std::vector<std::string> &params) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string &entry : params) {
    SmallVector<StringRef> items;
    StringRef(entry).split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      auto [name, value] = item.split('=');
      result.emplace_back(name.trim().str(), value.trim().str());
    }
  }
  return result;
}

bool isTrue(const std::string &value) {
  std::string lower = StringRef(value).lower();
  return lower == "true" || lower == "1";
}

/// The value a binding gives, or the kernel's default, as text.
std::string paramValue(const std::map<std::string, std::string> &bound,
                       DictionaryAttr defaults, StringRef name) {
  auto it = bound.find(name.str());
  if (it != bound.end())
    return it->second;
  if (!defaults)
    return "";
  Attribute value = defaults.get(name);
  if (auto boolAttr = dyn_cast_or_null<BoolAttr>(value))
    return boolAttr.getValue() ? "true" : "false";
  if (auto intAttr = dyn_cast_or_null<IntegerAttr>(value))
    return std::to_string(intAttr.getInt());
  if (auto typeAttr = dyn_cast_or_null<TypeAttr>(value)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << typeAttr.getValue();
    return text;
  }
  return "";
}

/// A view of `shape`, row-major; `data` may be null (work estimates).
exec::ViewArg viewOf(DType dtype, const std::vector<int64_t> &shape,
                     void *data) {
  exec::ViewArg view;
  view.data = data;
  switch (dtype) {
  case DType::F16:
    view.element = exec::ElementKind::F16;
    break;
  case DType::BF16:
    view.element = exec::ElementKind::BF16;
    break;
  case DType::F32:
    view.element = exec::ElementKind::F32;
    break;
  case DType::I32:
    view.element = exec::ElementKind::I32;
    break;
  case DType::F8E4M3FN:
    view.element = exec::ElementKind::F8E4M3FN;
    break;
  case DType::F8E5M2:
    view.element = exec::ElementKind::F8E5M2;
    break;
  }
  view.sizes.assign(shape.begin(), shape.end());
  view.strides.assign(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    view.strides[d] = view.strides[d + 1] * shape[d + 1];
  return view;
}

DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registry
      .insert<mlir::tile::TileDialect, arith::ArithDialect, func::FuncDialect,
              math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect>();
  return registry;
}

} // namespace

struct CpuKernel::State {
  MLIRContext ctx{makeRegistry()};
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;
  Manifest manifest;
  std::vector<std::string> bindings;
  unsigned threads = 0;
  uint64_t maxWork = exec::kDefaultMaxWork;
  /// Compiled on first use.
  std::unique_ptr<exec::Executable> executable;
};

CpuKernel::CpuKernel() : state(std::make_unique<State>()) {}
CpuKernel::~CpuKernel() = default;
const Manifest &CpuKernel::manifest() const { return state->manifest; }
const std::vector<std::string> &CpuKernel::bindings() const {
  return state->bindings;
}

/// Loads with MLIR diagnostics going to `diagnostics`.
static std::string loadKernel(const CpuRunOptions &options,
                              const ImpliedParams &implied, CpuKernel::State &s,
                              std::string &diagnostics) {
  MLIRContext &ctx = s.ctx;
  llvm::raw_string_ostream diagStream(diagnostics);
  SourceMgrDiagnosticHandler handler(s.sourceMgr, &ctx, diagStream);
  // Called first: explains tile types that disagree in `?` (a note).
  ScopedDiagnosticHandler typeHints(&ctx, mlir::tile::addTypeMismatchHint);
  // A bounded read of a regular file (a link to /dev/zero is refused).
  std::string readError;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::tile::readSourceFile(options.kernelPath, readError);
  if (!input || !mlir::tile::checkSourceNesting(*input, readError))
    return readError;
  s.sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  s.module = parseSourceFile<ModuleOp>(s.sourceMgr, ParserConfig(&ctx));
  if (!s.module)
    return "cannot parse kernel '" + options.kernelPath + "'";
  func::FuncOp kernel;
  for (auto func : s.module->getOps<func::FuncOp>())
    if (func->hasAttr(mlir::tile::TileDialect::getKernelAttrName())) {
      kernel = func;
      break;
    }
  if (!kernel)
    return "'" + options.kernelPath +
           "' has no kernel (a func.func with 'tile.kernel')";
  std::string kernelName = kernel.getName().str();

  // Bindings: the user's, then what the problem implies for the parameters
  // the kernel declares and the user left out.
  auto defaults = kernel->getAttrOfType<DictionaryAttr>(
      mlir::tile::TileDialect::getParamsAttrName());
  std::map<std::string, std::string> bound;
  for (auto &[name, value] : splitBindings(options.params)) {
    if (name.empty() || value.empty())
      return "bad parameter binding '" + name + "=" + value +
             "' (expected NAME=VALUE)";
    if (bound.count(name))
      return "parameter " + name + " is bound twice";
    bound[name] = value;
    s.bindings.push_back(name + "=" + value);
  }
  std::vector<std::string> impliedList;
  if (implied)
    impliedList = implied([&](const std::string &name) {
      return paramValue(bound, defaults, name);
    });
  for (const std::string &entry : impliedList) {
    size_t eq = entry.find('=');
    std::string name = entry.substr(0, eq), value = entry.substr(eq + 1);
    if (!defaults || !defaults.get(name))
      continue;
    auto given = bound.find(name);
    if (given == bound.end()) {
      s.bindings.push_back(name + "=" + value);
      continue;
    }
    // A given value must agree with the problem (EVEN_K=false always may).
    bool agrees;
    if (name == "EVEN_K")
      agrees = !isTrue(given->second) || isTrue(value);
    else if (value == "true" || value == "false")
      agrees = isTrue(given->second) == isTrue(value);
    else
      agrees = given->second == value;
    if (!agrees)
      return name + "=" + given->second +
             " contradicts the problem, which needs " + name + "=" + value;
  }

  mlir::tile::SpecializeOptions specialize;
  for (const std::string &binding : s.bindings)
    specialize.bindings.push_back(binding);
  if (failed(mlir::tile::specializeKernel(kernel, specialize)))
    return "cannot specialize '" + kernelName + "'";

  if (!options.pipeline.empty()) {
    registerPipelinePasses();
    PassManager pm(&ctx, ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Implicit);
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(mlir::tile::parsePipeline(options.pipeline, pm, errorStream)))
      return "bad pipeline '" + options.pipeline + "': " + error;
    if (failed(pm.run(*s.module)))
      return "pipeline '" + options.pipeline + "' failed";
  }
  s.kernel = s.module->lookupSymbol<func::FuncOp>(kernelName);
  if (!s.kernel)
    return "the pipeline removed kernel '" + kernelName + "'";
  s.manifest = Manifest();
  if (failed(mlir::tile::describeKernelForBundle(s.kernel, s.manifest)))
    return "kernel '" + kernelName + "' cannot be described for a launch";
  s.manifest.source = options.kernelPath;
  s.manifest.pipeline = options.pipeline;
  return "";
}

std::unique_ptr<CpuKernel> CpuKernel::load(const CpuRunOptions &options,
                                           const ImpliedParams &implied,
                                           std::string &error) {
  std::unique_ptr<CpuKernel> k(new CpuKernel());
  k->state->threads = options.threads;
  if (options.maxWork >= 0)
    k->state->maxWork = static_cast<uint64_t>(options.maxWork);
  std::string diagnostics;
  error = loadKernel(options, implied, *k->state, diagnostics);
  if (error.empty())
    return k;
  while (!diagnostics.empty() && diagnostics.back() == '\n')
    diagnostics.pop_back();
  if (!diagnostics.empty())
    error += "\n" + diagnostics;
  return nullptr;
}

/// The executor's arguments for `spec` (views from `tensors`, or without
/// data when it is null), its grid, and the compiled kernel; "" or an error.
static std::string prepare(CpuKernel::State &s, const RunSpec &spec,
                           std::map<std::string, HostTensor> *tensors,
                           std::vector<exec::KernelArg> &args,
                           exec::RunOptions &runOptions,
                           std::string &diagnostics) {
  for (const tilebundle::AbiEntry &e : s.manifest.abi) {
    if (e.kind == tilebundle::AbiEntry::Kind::View) {
      const TensorArg *t = spec.find(e.name);
      HostTensor *tensor = nullptr;
      if (tensors) {
        auto it = tensors->find(e.name);
        tensor = it == tensors->end() ? nullptr : &it->second;
      }
      if (!t || (tensors && !tensor))
        return "view '" + e.name + "' is not bound";
      args.push_back(exec::KernelArg::getView(
          tensor ? viewOf(tensor->dtype, tensor->shape, tensor->data())
                 : viewOf(t->dtype, t->shape, nullptr)));
    } else {
      const ScalarBinding &v = spec.scalars.at(e.name);
      args.push_back(e.dtype == DType::I32
                         ? exec::KernelArg::getInt(v.integer)
                         : exec::KernelArg::getFloat(static_cast<float>(
                               v.isInteger ? v.integer : v.real)));
    }
  }
  runOptions.numThreads = s.threads;
  runOptions.maxWork = s.maxWork;
  std::string error;
  if (!tilebundle::evalGrid(s.manifest, spec.launchBinding(), runOptions.grid,
                            error))
    return error;
  if (!s.executable) {
    FailureOr<std::unique_ptr<exec::Executable>> executable =
        exec::Executable::compile(s.kernel);
    if (failed(executable))
      return "cannot execute kernel '" + s.manifest.kernel + "'\n" +
             diagnostics;
    s.executable = std::move(*executable);
  }
  return "";
}

std::string CpuKernel::checkWork(const RunSpec &spec) const {
  State &s = *state;
  if (s.maxWork == 0)
    return "";
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  SourceMgrDiagnosticHandler handler(s.sourceMgr, &s.ctx, diagStream);
  std::vector<exec::KernelArg> args;
  exec::RunOptions runOptions;
  std::string error = prepare(s, spec, nullptr, args, runOptions, diagnostics);
  if (!error.empty())
    return error;
  FailureOr<exec::WorkEstimate> estimate =
      s.executable->estimateWork(args, runOptions);
  if (failed(estimate))
    return "kernel '" + s.manifest.kernel + "' failed\n" + diagnostics;
  if (estimate->work <= s.maxWork)
    return "";
  return "the run needs " + std::string(estimate->complete ? "" : "at least ") +
         std::to_string(estimate->work) +
         " units of work on the reference executor (estimated before it "
         "starts, about one per element operation), more than the limit of " +
         std::to_string(s.maxWork) + " (--max-work; 0 for no limit)";
}

std::string CpuKernel::run(const RunSpec &spec,
                           std::map<std::string, HostTensor> &tensors,
                           double *seconds) const {
  State &s = *state;
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  SourceMgrDiagnosticHandler handler(s.sourceMgr, &s.ctx, diagStream);
  std::vector<exec::KernelArg> args;
  exec::RunOptions runOptions;
  std::string error = prepare(s, spec, &tensors, args, runOptions, diagnostics);
  if (!error.empty())
    return error;
  auto start = std::chrono::steady_clock::now();
  if (failed(s.executable->run(args, runOptions)))
    return "kernel '" + s.manifest.kernel + "' failed\n" + diagnostics;
  if (seconds)
    *seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  return "";
}

} // namespace runner
} // namespace tile
