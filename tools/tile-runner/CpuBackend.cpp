//===- CpuBackend.cpp - tile-runner's cpu backend -------------------------===//
//
// Parses the kernel, binds its parameters from the attention problem,
// runs the requested pass pipeline, evaluates the grid rule and executes
// the kernel on the host with the reference executor (lib/Executor).
//
//===----------------------------------------------------------------------===//

#include "CpuBackend.h"
#include "GridExpr.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Executor/Executor.h"

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

exec::ViewArg viewOf(HostTensor &tensor) {
  exec::ViewArg view;
  view.data = tensor.data();
  switch (tensor.dtype) {
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
  }
  view.sizes.assign(tensor.shape.begin(), tensor.shape.end());
  std::vector<int64_t> strides = tensor.strides();
  view.strides.assign(strides.begin(), strides.end());
  return view;
}

/// The whole run, with MLIR diagnostics going to `diagnostics`.
std::string run(const CpuRunOptions &options, const AttentionConfig &cfg,
                AttentionTensors &tensors, double *seconds, MLIRContext &ctx,
                std::string &diagnostics) {
  llvm::SourceMgr sourceMgr;
  llvm::raw_string_ostream diagStream(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, diagStream);

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(options.kernelPath, sourceMgr, &ctx);
  if (!module)
    return "cannot parse kernel '" + options.kernelPath + "'";

  func::FuncOp kernel;
  for (auto func : module->getOps<func::FuncOp>())
    if (func->hasAttr(mlir::tile::TileDialect::getKernelAttrName())) {
      kernel = func;
      break;
    }
  if (!kernel)
    return "'" + options.kernelPath +
           "' has no kernel (a func.func with 'tile.kernel')";
  std::string kernelName = kernel.getName().str();

  // Bindings: the user's, then what the attention problem implies for the
  // parameters the kernel declares and the user left out.
  auto defaults = kernel->getAttrOfType<DictionaryAttr>(
      mlir::tile::TileDialect::getParamsAttrName());
  std::map<std::string, std::string> bound;
  std::vector<std::string> bindings;
  for (auto &[name, value] : splitBindings(options.params)) {
    if (name.empty() || value.empty())
      return "bad parameter binding '" + name + "=" + value +
             "' (expected NAME=VALUE)";
    bound[name] = value;
    bindings.push_back(name + "=" + value);
  }
  std::string tileN = paramValue(bound, defaults, "TILE_N");
  int64_t tileNValue = 0;
  if (!tileN.empty() && StringRef(tileN).getAsInteger(10, tileNValue))
    return "TILE_N must be an integer, got '" + tileN + "'";
  std::map<std::string, std::string> implied = {
      {"HEAD_DIM", std::to_string(cfg.headDim)},
      {"QUERY_GROUP_SIZE", std::to_string(cfg.heads / cfg.kvHeads)},
      {"CAUSAL", cfg.causal ? "true" : "false"},
      {"WITH_LSE", cfg.withLse ? "true" : "false"},
      {"DTYPE", dtypeName(cfg.dtype)},
  };
  if (tileNValue > 0)
    implied["EVEN_K"] = cfg.seqK % tileNValue == 0 ? "true" : "false";
  for (auto &[name, value] : implied) {
    if (!defaults || !defaults.get(name))
      continue;
    auto given = bound.find(name);
    if (given == bound.end()) {
      bindings.push_back(name + "=" + value);
      continue;
    }
    // A given value must agree with the problem (EVEN_K=false always may).
    bool agrees;
    if (name == "EVEN_K")
      agrees = !isTrue(given->second) || isTrue(value);
    else if (name == "CAUSAL" || name == "WITH_LSE")
      agrees = isTrue(given->second) == isTrue(value);
    else
      agrees = given->second == value;
    if (!agrees)
      return name + "=" + given->second +
             " contradicts the problem, which needs " + name + "=" + value;
  }

  mlir::tile::SpecializeOptions specialize;
  for (const std::string &binding : bindings)
    specialize.bindings.push_back(binding);
  if (failed(mlir::tile::specializeKernel(kernel, specialize)))
    return "cannot specialize '" + kernelName + "'";

  if (!options.pipeline.empty()) {
    registerPipelinePasses();
    PassManager pm(&ctx, ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Implicit);
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(exec::parseKernelPipeline(options.pipeline, pm, errorStream)))
      return "bad pipeline '" + options.pipeline + "': " + error;
    if (failed(pm.run(*module)))
      return "pipeline '" + options.pipeline + "' failed";
  }
  kernel = module->lookupSymbol<func::FuncOp>(kernelName);
  if (!kernel)
    return "the pipeline removed kernel '" + kernelName + "'";

  if (!options.dumpIrPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(options.dumpIrPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return "cannot write '" + options.dumpIrPath + "': " + ec.message();
    module->print(os);
  }

  // Arguments by name; the grid from the view shapes.
  ViewShapes shapes;
  std::vector<exec::KernelArg> args;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto nameAttr = kernel.getArgAttrOfType<StringAttr>(
        i, mlir::tile::TileDialect::getArgNameAttrName());
    std::string name = nameAttr ? nameAttr.str() : "";
    HostTensor *tensor = name == "Q"     ? &tensors.q
                         : name == "K"   ? &tensors.k
                         : name == "V"   ? &tensors.v
                         : name == "Out" ? &tensors.out
                         : name == "Lse" ? &tensors.lse
                                         : nullptr;
    if (tensor) {
      shapes[name] = tensor->shape;
      args.push_back(exec::KernelArg::getView(viewOf(*tensor)));
    } else if (name == "qk_scale") {
      args.push_back(exec::KernelArg::getFloat(cfg.effectiveScale()));
    } else if (name == "input_pos") {
      args.push_back(exec::KernelArg::getInt(cfg.inputPos));
    } else {
      return "kernel argument " + std::to_string(i) + " is named '" + name +
             "'; the attention problem binds Q, K, V, Out, Lse, qk_scale "
             "and input_pos";
    }
  }
  auto hints = kernel->getAttrOfType<DictionaryAttr>(
      mlir::tile::TileDialect::getKernelAttrName());
  auto gridAttr =
      hints ? dyn_cast_or_null<ArrayAttr>(hints.get("grid")) : ArrayAttr();
  if (!gridAttr || gridAttr.size() != 3)
    return "kernel '" + kernelName +
           "' has no grid rule ('grid' of three expressions in tile.kernel)";
  exec::RunOptions runOptions;
  runOptions.numThreads = options.threads;
  for (unsigned d = 0; d < 3; ++d) {
    auto expr = dyn_cast<StringAttr>(gridAttr[d]);
    if (!expr)
      return "grid rule entry " + std::to_string(d) + " is not a string";
    std::string error;
    if (!evalGridExpr(expr.str(), shapes, runOptions.grid[d], error))
      return "grid rule '" + expr.str() + "': " + error;
  }

  FailureOr<std::unique_ptr<exec::Executable>> executable =
      exec::Executable::compile(kernel);
  if (failed(executable))
    return "cannot execute kernel '" + kernelName + "'";
  auto start = std::chrono::steady_clock::now();
  if (failed((*executable)->run(args, runOptions)))
    return "kernel '" + kernelName + "' failed";
  if (seconds)
    *seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  return "";
}

} // namespace

std::string runAttentionOnCpu(const CpuRunOptions &options,
                              const AttentionConfig &cfg,
                              AttentionTensors &tensors, double *seconds) {
  std::string invalid = cfg.validate();
  if (!invalid.empty())
    return invalid;
  DialectRegistry registry;
  registry
      .insert<mlir::tile::TileDialect, arith::ArithDialect, func::FuncDialect,
              math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect>();
  MLIRContext ctx(registry);
  std::string diagnostics;
  std::string error = run(options, cfg, tensors, seconds, ctx, diagnostics);
  if (error.empty())
    return "";
  while (!diagnostics.empty() && diagnostics.back() == '\n')
    diagnostics.pop_back();
  return diagnostics.empty() ? error : error + "\n" + diagnostics;
}

} // namespace runner
} // namespace tile
