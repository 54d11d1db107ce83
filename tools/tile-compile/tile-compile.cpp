//===- tile-compile.cpp - compile a tile kernel into a bundle -------------===//
//
// kernel.mlir -> specialize -> tile-level pipeline -> tilegpu -> NVVM -> PTX,
// written as a self-describing bundle (docs/bundle.md): kernel.ptx,
// kernel.cubin (where ptxas is found), kernel.mlir and manifest.json.
//
//   tile-compile kernels/fmha.mlir --params TILE_M=128,CAUSAL=true \
//       --chip sm_90a -o build/bundles/fmha-128x64
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tile-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string>
    outputDir("o", cl::desc("Bundle directory to write (created)"),
              cl::value_desc("dir"), cl::cat(category));
static cl::list<std::string>
    params("params", cl::desc("Parameter bindings NAME=VALUE,..."),
           cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string> chip("chip", cl::desc("Target chip"),
                                 cl::init("sm_80"), cl::cat(category));
static cl::opt<int> numWarps("num-warps",
                             cl::desc("Warps per block (0: kernel hint)"),
                             cl::init(0), cl::cat(category));
static cl::opt<int> occupancy("occupancy",
                              cl::desc("Blocks per SM hint (0: kernel hint)"),
                              cl::init(0), cl::cat(category));
static cl::opt<int> stages("stages",
                           cl::desc("Pipeline stages (0: from latency hints)"),
                           cl::init(0), cl::cat(category));
static cl::opt<std::string>
    syncMode("sync",
             cl::desc("Pipeline stage synchronization: barrier | mbarrier "
                      "(sm_90+) | auto (mbarrier on sm_90 and newer)"),
             cl::init("auto"), cl::cat(category));
static cl::opt<std::string> warpSpecialize(
    "warp-specialize",
    cl::desc("A producer warpgroup for the pipelined copies: off | on | auto "
             "(the kernel's hint, else when the kernel qualifies)"),
    cl::init("auto"), cl::cat(category));
static cl::opt<int>
    producerRegs("producer-regs",
                 cl::desc("Registers per producer thread (setmaxnreg, 24-256)"),
                 cl::init(40), cl::cat(category));
static cl::opt<std::string> pingPong(
    "ping-pong",
    cl::desc("Consumer warpgroups take turns issuing wgmma: off | on | auto "
             "(the kernel's hint, else when the kernel qualifies)"),
    cl::init("auto"), cl::cat(category));
static cl::opt<std::string>
    tma("tma",
        cl::desc("Load the producer's pipelined tiles with TMA (tensor maps in "
                 "the ABI): off | on | auto (the kernel's hint, else when the "
                 "kernel qualifies)"),
        cl::init("off"), cl::cat(category));
static cl::opt<bool> pinWaits(
    "pin-waits",
    cl::desc("Keep a wgmma wait after the work meant to overlap its mma"),
    cl::init(true), cl::cat(category));
static cl::opt<std::string>
    sharedLayout("shared-layout",
                 cl::desc("Shared tiles of mma operands: padded | swizzled"),
                 cl::init("padded"), cl::cat(category));
static cl::opt<unsigned> mmaVersion(
    "mma-version",
    cl::desc("Tensor-core instruction: 2 (mma.sync), 3 (wgmma, sm_90a), 0 "
             "(wgmma where the chip has it and the kernel fits, else "
             "mma.sync)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string> tilePipeline(
    "tile-pipeline",
    cl::desc("Textual pass pipeline run on the specialized kernel before the "
             "GPU lowering (e.g. 'tile-O3' or 'canonicalize,cse')"),
    cl::init("canonicalize,cse"), cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to produce: bundle (default), or print tile | tilegpu "
                  "| nvvm | ptx to stdout"),
         cl::init("bundle"), cl::cat(category));
static cl::opt<std::string>
    ptxasPath("ptxas",
              cl::desc("ptxas to assemble a cubin with (default: search)"),
              cl::init(""), cl::cat(category));
static cl::opt<int> ptxasOptLevel(
    "ptxas-O",
    cl::desc("ptxas optimization level for the cubin (0-3). Lower levels "
             "schedule less aggressively and can avoid spills in kernels at "
             "the register limit"),
    cl::init(3), cl::cat(category));
static cl::opt<bool> noCubin("no-cubin", cl::desc("Do not run ptxas"),
                             cl::init(false), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No progress output"),
                           cl::init(false), cl::cat(category));

namespace {

/// Progress lines with the time each step took, on stderr.
class Progress {
public:
  void step(StringRef what) {
    auto now = std::chrono::steady_clock::now();
    if (!quiet)
      llvm::errs() << llvm::format(
          "[tile-compile] %-34s %7.1f ms\n", what.str().c_str(),
          std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

std::string dtypeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The bundle's `abi` array from the kernel's signature.
llvm::json::Array describeABI(func::FuncOp kernel) {
  llvm::json::Array abi;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto name = kernel.getArgAttrOfType<StringAttr>(
        i, tile::TileDialect::getArgNameAttrName());
    std::string argName = name ? name.str() : "arg" + std::to_string(i);
    Type type = kernel.getArgumentTypes()[i];
    // A TMA tensor map (tilegpu-tma): one 128-byte parameter built by the
    // launcher from the view it names (contract C4).
    if (auto map =
            kernel.getArgAttrOfType<DictionaryAttr>(i, "tilegpu.tensor_map")) {
      llvm::json::Object entry{{"name", argName}, {"kind", "tensor_map"}};
      for (StringRef key : {"view", "swizzle"})
        if (Attribute v = map.get(key)) {
          if (auto str = dyn_cast<StringAttr>(v))
            entry[key] = str.str();
          else
            entry[key] = cast<IntegerAttr>(v).getInt();
        }
      for (StringRef key : {"dims", "box"}) {
        llvm::json::Array values;
        if (auto array = dyn_cast_or_null<ArrayAttr>(map.get(key)))
          for (Attribute v : array)
            values.push_back(cast<IntegerAttr>(v).getInt());
        entry[key] = std::move(values);
      }
      abi.push_back(std::move(entry));
      continue;
    }
    if (auto view = dyn_cast<tile::ViewType>(type))
      abi.push_back(
          llvm::json::Object{{"name", argName},
                             {"kind", "view"},
                             {"rank", view.getRank()},
                             {"dtype", dtypeName(view.getElementType())}});
    else
      abi.push_back(llvm::json::Object{
          {"name", argName}, {"kind", "scalar"}, {"dtype", dtypeName(type)}});
  }
  return abi;
}

llvm::json::Object describeParams(func::FuncOp kernel) {
  llvm::json::Object out;
  auto dict = kernel->getAttrOfType<DictionaryAttr>(
      tile::TileDialect::getParamsAttrName());
  if (!dict)
    return out;
  for (NamedAttribute entry : dict) {
    Attribute v = entry.getValue();
    if (auto b = dyn_cast<BoolAttr>(v))
      out[entry.getName().str()] = b.getValue();
    else if (auto i = dyn_cast<IntegerAttr>(v))
      out[entry.getName().str()] = i.getInt();
    else if (auto t = dyn_cast<TypeAttr>(v))
      out[entry.getName().str()] = dtypeName(t.getValue());
  }
  return out;
}

std::string findPtxas() {
  if (!ptxasPath.empty())
    return ptxasPath;
  SmallVector<std::string> candidates;
  if (const char *cuda = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(cuda) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::can_execute(c))
      return c;
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

/// Runs ptxas -v; fills the manifest's `ptxas` section. Returns false (with
/// the log printed) when ptxas rejects the PTX.
bool assemble(StringRef ptxas, StringRef ptxFile, StringRef cubinFile,
              llvm::json::Object &stats) {
  SmallString<128> logFile;
  llvm::sys::fs::createTemporaryFile("ptxas", "log", logFile);
  std::string arch = "-arch=" + chip.getValue();
  std::string opt = "-O" + std::to_string(ptxasOptLevel.getValue());
  SmallVector<StringRef> args = {ptxas,   arch, "-v",     opt,
                                 ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &error);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  std::string text = log ? (*log)->getBuffer().str() : "";
  llvm::sys::fs::remove(logFile);
  if (rc != 0) {
    llvm::errs() << "tile-compile: ptxas failed (" << rc << ")"
                 << (error.empty() ? "" : ": " + error) << "\n"
                 << text;
    return false;
  }
  auto grab = [&](StringRef pattern) -> int64_t {
    SmallVector<StringRef> m;
    if (llvm::Regex(pattern).match(text, &m))
      return std::stoll(m[1].str());
    return 0;
  };
  stats["registers"] = grab("Used ([0-9]+) registers");
  stats["spill_stores"] = grab("([0-9]+) bytes spill stores");
  stats["spill_loads"] = grab("([0-9]+) bytes spill loads");
  stats["stack_bytes"] = grab("([0-9]+) bytes stack frame");
  stats["ptxas"] = ptxas.str();
  stats["opt_level"] = ptxasOptLevel.getValue();
  if (!quiet)
    llvm::errs() << "[tile-compile] ptxas: " << stats["registers"]
                 << " registers, " << stats["spill_stores"]
                 << " bytes spill stores, " << stats["spill_loads"]
                 << " bytes spill loads\n";
  return true;
}

LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "tile-compile: " << error << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

LogicalResult compile(MLIRContext &context) {
  // Command-line errors first, before any work.
  if (emit != "bundle" && emit != "tile" && emit != "tilegpu" &&
      emit != "nvvm" && emit != "ptx") {
    llvm::errs() << "tile-compile: --emit must be bundle, tile, tilegpu, nvvm "
                    "or ptx, got '"
                 << emit << "'\n";
    return failure();
  }
  if (emit == "bundle" && outputDir.empty()) {
    llvm::errs() << "tile-compile: give the bundle directory with -o\n";
    return failure();
  }
  Progress progress;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile.getValue(), sourceMgr, &context);
  if (!module)
    return failure();
  progress.step("parse");

  func::FuncOp kernel;
  for (auto func : module->getOps<func::FuncOp>())
    if (func->hasAttr(tile::TileDialect::getKernelAttrName())) {
      if (kernel)
        return func.emitError() << "tile-compile takes one kernel per file";
      kernel = func;
    }
  if (!kernel)
    return module->emitError()
           << "no kernel: a func.func with a 'tile.kernel' attribute";

  tile::SpecializeOptions specialize;
  specialize.bindings.assign(params.begin(), params.end());
  specialize.numWarps = numWarps;
  specialize.occupancy = occupancy;
  if (failed(tile::specializeKernel(kernel, specialize)) ||
      failed(verify(*module)))
    return failure();
  progress.step("tile-specialize");

  PassManager tilePM(&context, ModuleOp::getOperationName());
  if (failed(parsePassPipeline(tilePipeline, tilePM, llvm::errs())))
    return failure();
  if (failed(applyPassManagerCLOptions(tilePM)))
    return failure();
  if (std::getenv("TILE_COMPILE_DEBUG")) {
    tilePM.printAsTextualPipeline(llvm::errs());
    llvm::errs() << "\n";
  }
  if (failed(tilePM.run(*module)))
    return failure();
  progress.step("tile pipeline (" + tilePipeline + ")");

  std::string tileIR;
  {
    llvm::raw_string_ostream os(tileIR);
    module->print(os);
  }
  if (emit == "tile") {
    llvm::outs() << tileIR;
    return success();
  }
  llvm::json::Object paramsJson = describeParams(kernel);
  std::string kernelName = kernel.getName().str();
  auto hints = kernel->getAttrOfType<DictionaryAttr>(
      tile::TileDialect::getKernelAttrName());
  llvm::json::Array grid;
  if (auto g = dyn_cast_or_null<ArrayAttr>(hints.get("grid")))
    for (Attribute e : g)
      grid.push_back(cast<StringAttr>(e).str());
  int64_t occupancyHint = tilegpu::getLaunchHint(kernel, "occupancy", chip, 1);

  tile::GPUPipelineOptions gpuOptions;
  gpuOptions.chip = chip;
  gpuOptions.numWarps = numWarps;
  gpuOptions.stages = stages;
  gpuOptions.sync = syncMode;
  gpuOptions.warpSpecialize = warpSpecialize;
  gpuOptions.producerRegs = producerRegs;
  gpuOptions.pingPong = pingPong;
  gpuOptions.pinWaits = pinWaits;
  gpuOptions.tma = tma;
  gpuOptions.sharedLayout = sharedLayout;
  gpuOptions.mmaVersion = mmaVersion;
  PassManager gpuPM(&context, ModuleOp::getOperationName());
  tile::buildTileToTileGPUPipeline(gpuPM, gpuOptions);
  if (failed(applyPassManagerCLOptions(gpuPM)) || failed(gpuPM.run(*module)))
    return failure();
  progress.step("layouts, shared memory, pipelining");
  if (emit == "tilegpu") {
    module->print(llvm::outs());
    return success();
  }
  // After the GPU passes: tilegpu-tma adds tensor-map arguments.
  llvm::json::Array abi = describeABI(kernel);
  auto warpsAttr = kernel->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
  auto sharedAttr = kernel->getAttrOfType<IntegerAttr>("tilegpu.shared_bytes");
  int64_t warps = warpsAttr.getInt();
  int64_t sharedBytes = sharedAttr ? sharedAttr.getInt() : 0;
  auto versionAttr = kernel->getAttrOfType<IntegerAttr>("tilegpu.mma_version");
  int64_t mmaVersionUsed = versionAttr ? versionAttr.getInt() : 2;

  gpuOptions.emitBinary = emit != "nvvm";
  PassManager ptxPM(&context, ModuleOp::getOperationName());
  tile::buildTileGPUToPTXPipeline(ptxPM, gpuOptions);
  if (failed(applyPassManagerCLOptions(ptxPM)) || failed(ptxPM.run(*module)))
    return failure();
  progress.step("NVVM and PTX (LLVM NVPTX)");
  if (emit == "nvvm") {
    module->print(llvm::outs());
    return success();
  }

  std::string ptx;
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(object))
        ptx = obj.getObject().str();
  });
  if (ptx.empty())
    return module->emitError() << "the pipeline produced no PTX";
  // The serialized assembly carries a trailing NUL.
  while (!ptx.empty() && ptx.back() == '\0')
    ptx.pop_back();
  if (emit == "ptx") {
    llvm::outs() << ptx;
    return success();
  }
  if (ptxasOptLevel < 0 || ptxasOptLevel > 3)
    return module->emitError() << "--ptxas-O must be 0, 1, 2 or 3";

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "tile-compile: cannot create " << outputDir << ": "
                 << ec.message() << "\n";
    return failure();
  }
  auto path = [&](StringRef file) {
    SmallString<256> p(outputDir.getValue());
    llvm::sys::path::append(p, file);
    return std::string(p);
  };
  if (failed(writeFile(path("kernel.ptx"), ptx)) ||
      failed(writeFile(path("kernel.mlir"), tileIR)))
    return failure();

  llvm::json::Object manifest{
      {"format", "tile-bundle-1"},
      {"kernel", kernelName},
      {"entry", kernelName},
      {"ptx", "kernel.ptx"},
      {"target", chip.getValue()},
      {"compiler", "tile-compiler 0.1, LLVM " LLVM_VERSION_STRING},
      {"source", inputFile.getValue()},
      {"pipeline", tilePipeline.getValue()},
      {"stages", stages.getValue()},
      {"sync", syncMode.getValue()},
      {"warp_specialize", warpSpecialize.getValue()},
      {"ping_pong", pingPong.getValue()},
      {"pin_waits", pinWaits.getValue()},
      {"tma", tma.getValue()},
      // wgmma operands always use the 128B-swizzle layout.
      {"shared_layout",
       mmaVersionUsed == 3 ? std::string("wgmma") : sharedLayout.getValue()},
      {"mma_version", mmaVersionUsed},
      {"num_warps", warps},
      {"block", llvm::json::Array{warps * 32, 1, 1}},
      {"occupancy", occupancyHint},
      {"shared_bytes", sharedBytes},
      {"grid", std::move(grid)},
      {"params", std::move(paramsJson)},
      {"abi", std::move(abi)},
  };
  if (!noCubin) {
    std::string ptxas = findPtxas();
    if (ptxas.empty()) {
      if (!quiet)
        llvm::errs() << "[tile-compile] no ptxas found: bundle without cubin "
                        "(the runner JIT-compiles the PTX)\n";
    } else {
      llvm::json::Object stats;
      if (!assemble(ptxas, path("kernel.ptx"), path("kernel.cubin"), stats))
        return failure();
      manifest["cubin"] = "kernel.cubin";
      manifest["ptxas"] = std::move(stats);
      progress.step("ptxas");
    }
  }
  std::string json;
  {
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
  }
  if (failed(writeFile(path("manifest.json"), json)))
    return failure();
  if (!quiet)
    llvm::errs() << "[tile-compile] wrote " << outputDir << " (" << kernelName
                 << ", " << chip << ", " << warps * 32 << " threads, "
                 << (mmaVersionUsed == 3 ? "wgmma" : "mma.sync") << ", "
                 << sharedBytes << " bytes shared)\n";
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Passes and pipelines are registered before the command line is parsed:
  // pipeline options are command-line options too.
  registerCanonicalizerPass();
  registerCSEPass();
  registerLoopInvariantCodeMotionPass();
  tile::registerTilePasses();
  tile::registerTileOptimizationPipelines();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv, "tile-compile: compile a tile kernel into a GPU bundle\n");

  DialectRegistry registry;
  registry.insert<tile::TileDialect, tilegpu::TileGPUDialect,
                  arith::ArithDialect, func::FuncDialect, math::MathDialect,
                  scf::SCFDialect, cf::ControlFlowDialect>();
  tile::registerGPUTargetDialects(registry);
  tile::enableShortSharedPointers();

  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the kernel source; the whole op in a note buries them.
  context.printOpOnDiagnostic(false);
  return failed(compile(context)) ? 1 : 0;
}
