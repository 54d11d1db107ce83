//===- tile-compile.cpp - compile a tile kernel into a bundle -------------===//
//
// kernel.mlir -> tile-source-to-ptx (specialize, the tile-level pipeline,
// tilegpu, NVVM, PTX; tile/Pipelines) in one pass-manager run, written as a
// self-describing bundle (docs/bundle.md): kernel.ptx, kernel.cubin (where
// ptxas is found), kernel.mlir and manifest.json. `--emit` stops the
// pipeline at a stage and prints it.
//
//   tile-compile kernels/fmha.mlir --params TILE_M=128,CAUSAL=true \
//       --chip sm_90a -o build/bundles/fmha-128x64
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Manifest.h"
#include "tile/Bundle/Sha256.h"
#include "tile/Bundle/Target.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/SourceFile.h"
#include "tile/Target/Bundle/KernelBundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tile-compile options");

// The pipeline options (--params, --chip, --num-warps, --tile-pipeline, ...)
// are those of tile-source-to-ptx, PipelineOptions in tile/Pipelines; main()
// takes them off the command line before llvm::cl sees the rest.
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    outputDir("o", cl::desc("Bundle directory to write (created)"),
              cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to produce: bundle (default), or print the IR after "
                  "stage tile | tilegpu | nvvm, or the ptx, to stdout"),
         cl::init("bundle"), cl::cat(category));
static cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print the pass pipeline these options give and exit"),
    cl::init(false), cl::cat(category));
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
static cl::opt<unsigned> ptxasTimeout(
    "ptxas-timeout",
    cl::desc("Seconds ptxas may take before the compilation is abandoned"),
    cl::init(300), cl::cat(category));
static cl::opt<bool> noCubin("no-cubin", cl::desc("Do not run ptxas"),
                             cl::init(false), cl::cat(category));
static cl::opt<bool> allowSpills(
    "allow-spills",
    cl::desc("Write the bundle even when ptxas reports register spills "
             "(refused by default: a spilling kernel is slow)"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No progress output"),
                           cl::init(false), cl::cat(category));

namespace {

//===----------------------------------------------------------------------===//
// The bundle: manifest.json, kernel.ptx, kernel.mlir, kernel.cubin
// (docs/bundle.md). Everything that writes the bundle is in this section.
//===----------------------------------------------------------------------===//

/// What the bundle records, taken from the IR at the end of the stages.
struct BundleInfo {
  // At the end of the tile stage: name, params, grid, requires and ABI
  // (tile::describeKernelForBundle), and the tile IR.
  ::tilebundle::Manifest manifest;
  std::string tileIR;
  bool described = false;
  // At the end of the tilegpu stage.
  int64_t numWarps = 0;
  int64_t sharedBytes = 0;
  int64_t mmaVersion = 2;
  // At the end of the ptx stage.
  std::string ptx;
  // The kernel's source location: ptxas errors are reported there (the
  // conversion to NVVM replaces the kernel).
  Location kernelLoc = UnknownLoc();
};

/// Whether `name` can be the kernel's PTX .entry and manifest name.
bool isKernelName(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The kernel's signature, parameters and launch rules, after the tile stage.
void describeTileKernel(ModuleOp module, func::FuncOp kernel, StringRef chip,
                        int64_t viewAlign, BundleInfo &info) {
  llvm::raw_string_ostream os(info.tileIR);
  module.print(os);
  info.described = succeeded(
      tile::describeKernelForBundle(kernel, info.manifest, viewAlign));
  info.manifest.occupancy =
      tilegpu::getLaunchHint(kernel, "occupancy", chip, 1);
}

/// The launch configuration the tilegpu stage chose.
void describeTileGPUKernel(func::FuncOp kernel, BundleInfo &info) {
  if (auto warps = kernel->getAttrOfType<IntegerAttr>("tilegpu.num_warps"))
    info.numWarps = warps.getInt();
  if (auto shared = kernel->getAttrOfType<IntegerAttr>("tilegpu.shared_bytes"))
    info.sharedBytes = shared.getInt();
  if (auto version = kernel->getAttrOfType<IntegerAttr>("tilegpu.mma_version"))
    info.mmaVersion = version.getInt();
  // tilegpu-tma appends tensor-map arguments, each built by the launcher from
  // the view it names (contract C4).
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto map = kernel.getArgAttrOfType<DictionaryAttr>(i, "tilegpu.tensor_map");
    if (!map)
      continue;
    auto name = kernel.getArgAttrOfType<StringAttr>(
        i, tile::TileDialect::getArgNameAttrName());
    auto view = map.getAs<StringAttr>("view");
    auto swizzle = map.getAs<IntegerAttr>("swizzle");
    auto ints = [&](StringRef key) {
      std::vector<int64_t> values;
      if (auto array = map.getAs<ArrayAttr>(key))
        for (Attribute v : array)
          values.push_back(cast<IntegerAttr>(v).getInt());
      return values;
    };
    info.manifest.abi.push_back(::tilebundle::AbiEntry::makeTensorMap(
        name ? name.str() : "arg" + std::to_string(i), view ? view.str() : "",
        ints("dims"), ints("box"),
        swizzle ? static_cast<int>(swizzle.getInt()) : 0));
  }
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

/// Runs ptxas -v, for at most --ptxas-timeout seconds; fills the manifest's
/// `ptxas` section. When ptxas fails or runs out of time, reports it with
/// ptxas's log as an error at the kernel and returns false.
bool assemble(StringRef ptxas, StringRef chip, StringRef ptxFile,
              StringRef cubinFile, const BundleInfo &info,
              ::tilebundle::PtxasStats &stats) {
  SmallString<128> logFile;
  llvm::sys::fs::createTemporaryFile("ptxas", "log", logFile);
  std::string arch = "-arch=" + chip.str();
  std::string opt = "-O" + std::to_string(ptxasOptLevel.getValue());
  SmallVector<StringRef> args = {ptxas,   arch, "-v",     opt,
                                 ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     ptxasTimeout, 0, &error);
  auto logBuffer = llvm::MemoryBuffer::getFile(logFile);
  std::string text = logBuffer ? (*logBuffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(logFile);
  StringRef log = StringRef(text).trim();
  if (rc == -2) {
    emitError(info.kernelLoc)
        << "ptxas did not finish within " << ptxasTimeout.getValue()
        << " s (--ptxas-timeout): the kernel is likely too large for its "
           "warps; use more warps or smaller tiles";
    return false;
  }
  if (rc != 0) {
    InFlightDiagnostic diag = emitError(info.kernelLoc);
    diag << "ptxas rejected the kernel (" << ptxas << ", exit status " << rc
         << (error.empty() ? "" : ", " + error) << ")"
         << (log.empty() ? "" : ":\n") << log;
    int64_t occupancy = info.manifest.occupancy;
    int64_t threads = info.numWarps * 32;
    if (occupancy > 1 && threads > 0)
      diag.attachNote() << "the occupancy hint " << occupancy << " with "
                        << threads << " threads a block leaves ptxas at most "
                        << 65536 / (occupancy * threads)
                        << " registers per thread";
    return false;
  }
  ::tilebundle::PtxasReport report;
  ::tilebundle::parsePtxasLog(text, info.manifest.entry, report);
  stats.registers = std::max<int64_t>(report.registers, 0);
  stats.spillStores = report.spillStores;
  stats.spillLoads = report.spillLoads;
  stats.stackBytes = report.stackBytes;
  stats.ptxas = ptxas.str();
  stats.optLevel = ptxasOptLevel.getValue();
  if ((stats.spillStores > 0 || stats.spillLoads > 0) && !allowSpills) {
    InFlightDiagnostic diag = emitError(info.kernelLoc);
    diag << "ptxas reports register spills: " << stats.registers
         << " registers, " << stats.spillStores << " bytes spill stores, "
         << stats.spillLoads
         << " bytes spill loads; a spilling kernel is slow. Use more warps "
            "(--num-warps), smaller tiles, fewer stages (--stages), a lower "
            "occupancy hint or another --ptxas-O, or pass --allow-spills to "
            "write the bundle anyway";
    return false;
  }
  if (!quiet)
    llvm::errs() << "[tile-compile] ptxas: " << stats.registers
                 << " registers, " << stats.spillStores
                 << " bytes spill stores, " << stats.spillLoads
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
  // The data reach the disk at the close: a full disk fails there.
  file->os().close();
  if (std::error_code ec = file->os().error()) {
    file->os().clear_error();
    llvm::errs() << "tile-compile: cannot write " << path << ": "
                 << ec.message() << "\n";
    return failure();
  }
  file->keep();
  return success();
}

/// `dir` without trailing separators ("out/b/" is "out/b").
std::string withoutTrailingSeparators(StringRef dir) {
  std::string path = dir.str();
  while (path.size() > 1 && llvm::sys::path::is_separator(path.back()))
    path.pop_back();
  return path;
}

/// Whether an existing `dir` may be replaced by a new bundle: it is empty
/// or holds only what tile-compile writes (a bundle of an earlier run);
/// else `what` names a file that is not.
bool isReplaceableBundle(StringRef dir, std::string &what) {
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (name != "manifest.json" && name != "kernel.ptx" &&
        name != "kernel.cubin" && name != "kernel.mlir") {
      what = name.str();
      return false;
    }
  }
  if (ec) {
    what = ec.message();
    return false;
  }
  return true;
}

/// Replaces (or creates) `dir` with the complete bundle in `temp`, a sibling:
/// the old folder is moved aside, the new one renamed into place, and the
/// old one removed only then.
LogicalResult replaceBundleDir(StringRef temp, StringRef dir) {
  std::error_code ec;
  SmallString<256> aside;
  if (llvm::sys::fs::exists(dir)) {
    ec = llvm::sys::fs::createUniqueDirectory(dir + ".old", aside);
    if (!ec) {
      llvm::sys::fs::remove(aside);
      ec = llvm::sys::fs::rename(dir, aside);
    }
    if (ec) {
      llvm::errs() << "tile-compile: cannot replace " << dir << ": "
                   << ec.message() << "\n";
      return failure();
    }
  }
  if ((ec = llvm::sys::fs::rename(temp, dir))) {
    llvm::errs() << "tile-compile: cannot rename " << temp << " to " << dir
                 << ": " << ec.message() << "\n";
    if (!aside.empty())
      llvm::sys::fs::rename(aside, dir);
    return failure();
  }
  if (!aside.empty())
    llvm::sys::fs::remove_directories(aside);
  return success();
}

/// Writes the bundle directory: kernel.ptx, kernel.mlir, kernel.cubin (with
/// ptxas) and manifest.json, with the digests of the first three. They are
/// written into a temporary sibling folder that replaces the bundle only
/// when all of them are written: a recompile that fails (at ptxas, on a
/// full disk) leaves the old bundle whole, never the old manifest and cubin
/// beside a new PTX.
LogicalResult writeBundle(const tile::PipelineOptions &options,
                          BundleInfo &info) {
  std::string dir = withoutTrailingSeparators(outputDir);
  if (llvm::sys::fs::exists(dir)) {
    std::string what;
    if (!llvm::sys::fs::is_directory(dir)) {
      llvm::errs() << "tile-compile: " << dir
                   << " exists and is not a folder; not replacing it\n";
      return failure();
    }
    if (!isReplaceableBundle(dir, what)) {
      llvm::errs() << "tile-compile: " << dir
                   << " is not a bundle folder (it holds '" << what
                   << "'); not replacing it\n";
      return failure();
    }
  }
  StringRef parent = llvm::sys::path::parent_path(dir);
  if (!parent.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
      llvm::errs() << "tile-compile: cannot create " << parent << ": "
                   << ec.message() << "\n";
      return failure();
    }
  // createUniqueDirectory puts a relative prefix under the system's
  // temporary folder: the sibling must be named by an absolute path (a
  // relative -o DIR with a parent failed: "cannot create sub/x").
  SmallString<256> sibling(dir + ".tmp");
  llvm::sys::fs::make_absolute(sibling);
  SmallString<256> temp;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory(sibling, temp)) {
    llvm::errs() << "tile-compile: cannot create " << dir << ": "
                 << ec.message() << "\n";
    return failure();
  }
  // Whatever fails below, the temporary folder goes.
  bool done = false;
  llvm::scope_exit cleanup([&] {
    if (!done)
      llvm::sys::fs::remove_directories(temp);
  });
  auto path = [&](StringRef file) {
    SmallString<256> p(temp);
    llvm::sys::path::append(p, file);
    return std::string(p);
  };
  // The abi the PTX is compiled for, on its first line: a launcher compares
  // it with the manifest's (an edited dtype changes no parameter size).
  info.ptx = ::tilebundle::ptxAbiLine(info.manifest.entry, info.manifest.abi) +
             info.ptx;
  if (failed(writeFile(path("kernel.ptx"), info.ptx)) ||
      failed(writeFile(path("kernel.mlir"), info.tileIR)))
    return failure();

  std::string chip = options.chip;
  ::tilebundle::Manifest &manifest = info.manifest;
  manifest.ptx = "kernel.ptx";
  manifest.target = chip;
  manifest.compiler = "tile-compiler 0.1, LLVM " LLVM_VERSION_STRING;
  manifest.source = inputFile.getValue();
  manifest.pipeline = options.tilePipeline.getValue();
  manifest.stages = options.stages.getValue();
  manifest.sync = options.sync.getValue();
  manifest.warpSpecialize = options.warpSpecialize.getValue();
  manifest.pingPong = options.pingPong.getValue();
  manifest.tma = options.tma.getValue();
  manifest.pinWaits = options.pinWaits ? "true" : "false";
  // wgmma operands always use the 128B-swizzle layout.
  manifest.sharedLayout = info.mmaVersion == 3
                              ? std::string("wgmma")
                              : options.sharedLayout.getValue();
  manifest.mmaVersion = info.mmaVersion;
  manifest.numWarps = info.numWarps;
  manifest.block = {info.numWarps * 32, 1, 1};
  manifest.sharedBytes = info.sharedBytes;
  auto addDigest = [&](StringRef name, StringRef bytes) {
    ::tilebundle::FileDigest digest;
    digest.name = name.str();
    digest.sha256 = ::tilebundle::sha256Hex(bytes.str());
    digest.bytes = static_cast<int64_t>(bytes.size());
    manifest.files.push_back(digest);
  };
  addDigest("kernel.ptx", info.ptx);
  if (!noCubin) {
    std::string ptxas = findPtxas();
    if (ptxas.empty()) {
      if (!quiet)
        llvm::errs() << "[tile-compile] no ptxas found: bundle without cubin "
                        "(the runner JIT-compiles the PTX); register spills "
                        "are not checked\n";
    } else {
      ::tilebundle::PtxasStats stats;
      if (!assemble(ptxas, chip, path("kernel.ptx"), path("kernel.cubin"), info,
                    stats))
        return failure();
      manifest.cubin = "kernel.cubin";
      manifest.ptxas = stats;
      auto cubin = llvm::MemoryBuffer::getFile(path("kernel.cubin"));
      if (!cubin) {
        llvm::errs() << "tile-compile: cannot read the cubin ptxas wrote: "
                     << cubin.getError().message() << "\n";
        return failure();
      }
      addDigest("kernel.cubin", (*cubin)->getBuffer());
    }
  }
  addDigest("kernel.mlir", info.tileIR);
  std::string json, error;
  if (!::tilebundle::writeManifest(manifest, json, error)) {
    llvm::errs() << "tile-compile: invalid bundle manifest: " << error << "\n";
    return failure();
  }
  if (failed(writeFile(path("manifest.json"), json)) ||
      failed(replaceBundleDir(temp, dir)))
    return failure();
  done = true;
  if (!quiet)
    llvm::errs() << "[tile-compile] wrote " << outputDir << " ("
                 << manifest.kernel << ", " << chip << ", "
                 << info.numWarps * 32 << " threads, "
                 << (info.mmaVersion == 3 ? "wgmma" : "mma.sync") << ", "
                 << info.sharedBytes << " bytes shared)\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Compiling: one run of tile-source-to-ptx
//===----------------------------------------------------------------------===//

/// Calls `onStage` with the module at each tile-checkpoint, and prints how
/// long each stage took.
class StageObserver : public PassInstrumentation {
public:
  StageObserver(std::function<void(tile::Stage, ModuleOp)> onStage,
                std::string tileStageName)
      : onStage(std::move(onStage)), tileStageName(std::move(tileStageName)) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    std::optional<tile::Stage> stage = tile::getCheckpointStage(*pass);
    if (!stage)
      return;
    step(*stage);
    onStage(*stage, cast<ModuleOp>(op));
  }

  /// Prints the time since the last step.
  void step(std::optional<tile::Stage> stage, StringRef what = "") {
    auto now = std::chrono::steady_clock::now();
    std::string name = what.str();
    if (stage) {
      static const char *const descriptions[] = {
          "", "layouts, shared memory, pipelining", "NVVM", "PTX (LLVM NVPTX)"};
      name = "stage " + tile::getStageName(*stage).str() + " (" +
             (*stage == tile::Stage::Tile
                  ? tileStageName
                  : std::string(descriptions[static_cast<int>(*stage)])) +
             ")";
    }
    if (!quiet)
      llvm::errs() << llvm::format(
          "[tile-compile] %-44s %7.1f ms\n", name.c_str(),
          std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  }

private:
  std::function<void(tile::Stage, ModuleOp)> onStage;
  std::string tileStageName;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// The stopping point of --emit (bundle needs the PTX).
tile::Stage emitStage() {
  return emit == "bundle" ? tile::Stage::PTX : *tile::parseStage(emit);
}

LogicalResult compile(MLIRContext &context, tile::PipelineOptions &options) {
  // Command-line errors first, before any work.
  if (emit != "bundle" && !tile::parseStage(emit)) {
    llvm::errs() << "tile-compile: --emit must be bundle, tile, tilegpu, nvvm "
                    "or ptx, got '"
                 << emit << "'\n";
    return failure();
  }
  if (options.stopAfter.hasValue()) {
    llvm::errs() << "tile-compile: the stopping point is --emit\n";
    return failure();
  }
  options.stopAfter = tile::getStageName(emitStage()).str();
  if (ptxasOptLevel < 0 || ptxasOptLevel > 3) {
    llvm::errs() << "tile-compile: --ptxas-O must be 0, 1, 2 or 3, got "
                 << ptxasOptLevel << "\n";
    return failure();
  }
  if (ptxasTimeout == 0) {
    llvm::errs() << "tile-compile: --ptxas-timeout must be at least 1 s\n";
    return failure();
  }
  PassManager pm(&context, ModuleOp::getOperationName());
  std::string pipelineError;
  llvm::raw_string_ostream pipelineErrors(pipelineError);
  if (failed(tile::buildSourceToPTXPipeline(pm, options, pipelineErrors))) {
    llvm::errs() << "tile-compile: " << pipelineError;
    return failure();
  }
  if (printPipeline) {
    pm.printAsTextualPipeline(llvm::outs(), /*pretty=*/true);
    llvm::outs() << "\n";
    return success();
  }
  if (inputFile.empty()) {
    llvm::errs() << "tile-compile: no input file\n";
    return failure();
  }
  if (emit == "bundle" && outputDir.empty()) {
    llvm::errs() << "tile-compile: give the bundle directory with -o\n";
    return failure();
  }

  // What the stages leave for the bundle (or for --emit), taken at the
  // checkpoints that end them.
  BundleInfo info;
  std::string kernelName;
  std::string chip = options.chip;
  std::string stageIR;
  auto observer = std::make_unique<StageObserver>(
      [&](tile::Stage stage, ModuleOp at) {
        auto func = at.lookupSymbol<func::FuncOp>(kernelName);
        // Only a bundle needs the ABI (and reports what it cannot carry).
        if (stage == tile::Stage::Tile && func && emit == "bundle")
          describeTileKernel(at, func, chip, options.viewAlign, info);
        if (stage == tile::Stage::TileGPU && func)
          describeTileGPUKernel(func, info);
        if (stage == emitStage() && emit != "bundle" &&
            stage != tile::Stage::PTX) {
          llvm::raw_string_ostream os(stageIR);
          at.print(os);
        }
      },
      "tile-specialize, " + options.tilePipeline);
  StageObserver &progress = *observer;

  std::string readError;
  std::unique_ptr<llvm::MemoryBuffer> input =
      tile::readSourceFile(inputFile.getValue(), readError);
  if (!input) {
    llvm::errs() << "tile-compile: " << readError << "\n";
    return failure();
  }
  if (!tile::checkSourceNesting(*input, readError)) {
    llvm::errs() << readError << "\n";
    return failure();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  // Called first: explains tile types that disagree in `?` (a note).
  ScopedDiagnosticHandler typeHints(&context, tile::addTypeMismatchHint);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return failure();
  progress.step(std::nullopt, "parse");

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
  kernelName = kernel.getName().str();
  // The name becomes the PTX .entry: LLVM's NVPTX printer aborts on other
  // characters.
  if (!isKernelName(kernelName))
    return kernel.emitError()
           << "kernel name '" << kernelName
           << "' is not an identifier (letters, digits and _, not starting "
              "with a digit): it names the PTX .entry";
  info.kernelLoc = kernel.getLoc();

  pm.addInstrumentation(std::move(observer));
  if (failed(applyPassManagerCLOptions(pm)) || failed(pm.run(*module)))
    return failure();
  // describeKernelForBundle reported what the ABI cannot carry on the kernel.
  if (emit == "bundle" && !info.described)
    return failure();
  if (emit != "bundle" && emit != "ptx") {
    llvm::outs() << stageIR;
    return success();
  }

  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(object))
        info.ptx = obj.getObject().str();
  });
  if (info.ptx.empty())
    return module->emitError() << "the pipeline produced no PTX";
  // The serialized assembly carries a trailing NUL.
  while (!info.ptx.empty() && info.ptx.back() == '\0')
    info.ptx.pop_back();
  if (emit == "ptx") {
    llvm::outs() << info.ptx;
    return success();
  }
  if (failed(writeBundle(options, info)))
    return failure();
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
  tile::registerTilePipelines();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();

  // The options of tile-source-to-ptx, as flags (--params is `bind`).
  tile::PipelineOptions options;
  SmallVector<char *> rest;
  std::string error;
  if (failed(tile::takePipelineFlags(argc, argv, options, tile::ReadBySource,
                                     {{"params", "bind"}}, rest, error))) {
    llvm::errs() << "tile-compile: " << error << "\n";
    return 1;
  }
  std::string overview =
      "tile-compile: compile a tile kernel into a GPU bundle\n\n"
      "  tile-compile kernels/gemm.mlir --params BLOCK_N=256 --chip sm_90a "
      "\\\n"
      "      -o build/bundles/gemm\n\n"
      "writes kernel.ptx, kernel.cubin (where ptxas is found), kernel.mlir "
      "and\nmanifest.json (docs/bundle.md).\n\n"
      "Pipeline options (tile-source-to-ptx; --params is --bind):\n";
  // --stop-after is --emit here (compile() refuses it).
  std::string pipelineHelp;
  llvm::raw_string_ostream helpOs(pipelineHelp);
  options.printHelp(helpOs, tile::ReadBySource);
  SmallVector<StringRef> helpLines;
  StringRef(pipelineHelp).split(helpLines, '\n', -1, false);
  for (StringRef line : helpLines)
    if (!line.starts_with("  --stop-after"))
      overview += line.str() + "\n";
  overview += "\nMLIR's pass-manager and printer options "
              "(--mlir-print-ir-after-all, ...) are\naccepted as well.\n";
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(rest.size(), rest.data(), overview);

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
  return failed(compile(context, options)) ? 1 : 0;
}
