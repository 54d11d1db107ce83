//===- tile-exec.cpp - run tile IR on the CPU reference executor ----------===//
//
// Runs one kernel of an .mlir file on small host arrays given on the command
// line and prints the views afterwards: the driver of the executor's unit
// tests (test/Executor), and a debugging aid.
//
//   tile-exec kernel.mlir --grid=2,1,1 \
//       --arg='f32[4x8]=iota' --arg='f32[4x8]=fill:-1' --arg='i32=3'
//
// Argument specs, in kernel-argument order:
//   TYPE=VALUE            a scalar (i1, i8, i16, i32, i64, index, f16, bf16,
//                         f32); values are numbers, inf, -inf, nan
//   TYPE[D0xD1x...]=INIT  a view, row-major, INIT one of
//       zeros | iota | fill:V | values:V,V,... (repeated cyclically) |
//       random:SEED[:LO:HI] (uniform in [LO, HI), default [-1, 1))
//   @FILE.npy             a view read from a NumPy file (its shape; values
//                         converted to the kernel argument's element type)
//
// --save NAME=FILE.npy writes view NAME after the run (tile-runner --ref
// compares a GPU run with it).
//
// Every view is printed after the run, one line per row of its last
// dimension: `NAME[i, j]: v v v` (NAME is the argument's `tile.name`, else
// argN). --print=NAME,... restricts the list; --hex prints bit patterns.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Npy.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Executor/Executor.h"
#include "tile/Pipelines/Pipelines.h"

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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<kernel.mlir>"),
                                            llvm::cl::Required);
static llvm::cl::opt<std::string>
    kernelName("kernel", llvm::cl::desc("Kernel function (default: the first "
                                        "func.func with a body)"));
static llvm::cl::list<std::string>
    argSpecs("arg", llvm::cl::desc("Kernel argument (see the file header)"));
static llvm::cl::opt<std::string>
    gridSpec("grid", llvm::cl::desc("Blocks X[,Y[,Z]]"), llvm::cl::init("1"));
static llvm::cl::opt<unsigned>
    numThreads("num-threads", llvm::cl::desc("Worker threads (0: all cores)"),
               llvm::cl::init(1));
static llvm::cl::opt<std::string>
    printList("print", llvm::cl::desc("Views to print (names), default all"));
static llvm::cl::opt<bool>
    compileOnly("compile-only",
                llvm::cl::desc("Only check that the executor supports the "
                               "kernel; take no arguments, run nothing"));
static llvm::cl::opt<bool> printHex("hex",
                                    llvm::cl::desc("Print bit patterns"));
static llvm::cl::list<std::string>
    saveSpecs("save", llvm::cl::desc("Write view NAME after the run: "
                                     "NAME=FILE.npy"));

namespace {
/// A parsed view argument and its memory.
struct HostView {
  Type type;
  std::string name;
  std::vector<uint8_t> bytes;
  ViewArg view;
};
} // namespace

static FailureOr<double> parseNumber(StringRef text) {
  text = text.trim();
  if (text == "inf" || text == "+inf")
    return INFINITY;
  if (text == "-inf")
    return -INFINITY;
  if (text == "nan")
    return NAN;
  if (text == "true")
    return 1.0;
  if (text == "false")
    return 0.0;
  double value;
  if (text.getAsDouble(value))
    return failure();
  return value;
}

static Type parseElementType(StringRef text, MLIRContext &ctx) {
  Builder b(&ctx);
  if (text == "index")
    return b.getIndexType();
  if (text == "f16")
    return b.getF16Type();
  if (text == "bf16")
    return b.getBF16Type();
  if (text == "f32")
    return b.getF32Type();
  unsigned width;
  if (text.consume_front("i") && !text.getAsInteger(10, width) &&
      (width == 1 || width == 8 || width == 16 || width == 32 || width == 64))
    return b.getIntegerType(width);
  return {};
}

/// Writes `value` as element `i` of view memory of `kind`.
static void storeElement(HostView &host, int64_t i, double value) {
  uint8_t *p = host.bytes.data() + i * getElementBytes(host.view.element);
  auto put = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
  float f = static_cast<float>(value);
  switch (host.view.element) {
  case ElementKind::F16: {
    // Through the executor's own rounding: tile.astype does the same.
    APFloat a(f);
    bool loses;
    a.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &loses);
    put(static_cast<uint16_t>(a.bitcastToAPInt().getZExtValue()));
    return;
  }
  case ElementKind::BF16: {
    APFloat a(f);
    bool loses;
    a.convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &loses);
    put(static_cast<uint16_t>(a.bitcastToAPInt().getZExtValue()));
    return;
  }
  case ElementKind::F32:
    put(f);
    return;
  case ElementKind::I1:
    put(static_cast<uint8_t>(value != 0));
    return;
  case ElementKind::I8:
    put(static_cast<int8_t>(value));
    return;
  case ElementKind::I16:
    put(static_cast<int16_t>(value));
    return;
  case ElementKind::I32:
    put(static_cast<int32_t>(value));
    return;
  case ElementKind::I64:
    put(static_cast<int64_t>(value));
    return;
  }
}

static LogicalResult parseViewArg(StringRef spec, StringRef typeText,
                                  StringRef dims, StringRef init,
                                  MLIRContext &ctx, HostView &host) {
  host.type = parseElementType(typeText, ctx);
  FailureOr<ElementKind> kind = failure();
  if (host.type)
    kind = getMemoryElementKind(host.type);
  if (failed(kind)) {
    llvm::errs() << "error: bad element type in '" << spec << "'\n";
    return failure();
  }
  host.view.element = *kind;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  int64_t n = 1;
  for (StringRef part : parts) {
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size < 0) {
      llvm::errs() << "error: bad shape in '" << spec << "'\n";
      return failure();
    }
    host.view.sizes.push_back(size);
    n *= size;
  }
  host.view.strides.assign(host.view.sizes.size(), 1);
  for (int d = static_cast<int>(host.view.sizes.size()) - 2; d >= 0; --d)
    host.view.strides[d] = host.view.strides[d + 1] * host.view.sizes[d + 1];
  host.bytes.assign(n * getElementBytes(*kind), 0);
  host.view.data = host.bytes.data();

  if (init == "zeros")
    return success();
  if (init == "iota") {
    for (int64_t i = 0; i < n; ++i)
      storeElement(host, i, static_cast<double>(i));
    return success();
  }
  if (init.consume_front("fill:")) {
    FailureOr<double> value = parseNumber(init);
    if (failed(value)) {
      llvm::errs() << "error: bad fill value in '" << spec << "'\n";
      return failure();
    }
    for (int64_t i = 0; i < n; ++i)
      storeElement(host, i, *value);
    return success();
  }
  if (init.consume_front("values:")) {
    SmallVector<StringRef> items;
    init.split(items, ',');
    SmallVector<double> values;
    for (StringRef item : items) {
      FailureOr<double> value = parseNumber(item);
      if (failed(value)) {
        llvm::errs() << "error: bad value '" << item << "' in '" << spec
                     << "'\n";
        return failure();
      }
      values.push_back(*value);
    }
    for (int64_t i = 0; i < n; ++i)
      storeElement(host, i, values[i % values.size()]);
    return success();
  }
  if (init.consume_front("random:")) {
    // SEED or SEED:LO:HI; uniform in [LO, HI), default [-1, 1).
    SmallVector<StringRef> fields;
    init.split(fields, ':');
    uint64_t state;
    double lo = -1.0, hi = 1.0;
    bool bad = (fields.size() != 1 && fields.size() != 3) ||
               fields[0].getAsInteger(10, state);
    if (!bad && fields.size() == 3) {
      FailureOr<double> l = parseNumber(fields[1]), h = parseNumber(fields[2]);
      bad = failed(l) || failed(h) || !std::isfinite(*l) ||
            !std::isfinite(*h) || !(*l < *h);
      if (!bad) {
        lo = *l;
        hi = *h;
      }
    }
    if (bad) {
      llvm::errs() << "error: bad random initializer in '" << spec
                   << "' (random:SEED or random:SEED:LO:HI with LO < HI)\n";
      return failure();
    }
    for (int64_t i = 0; i < n; ++i) {
      uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      double unit = static_cast<double>(z >> 11) * 0x1p-53; // [0, 1)
      storeElement(host, i, lo + (hi - lo) * unit);
    }
    return success();
  }
  llvm::errs() << "error: unknown initializer '" << init << "' in '" << spec
               << "'\n";
  return failure();
}

/// The bundle ABI's element type of `kind` (the .npy files carry those).
static std::optional<tilebundle::DType> bundleDType(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return tilebundle::DType::F16;
  case ElementKind::BF16:
    return tilebundle::DType::BF16;
  case ElementKind::F32:
    return tilebundle::DType::F32;
  case ElementKind::I32:
    return tilebundle::DType::I32;
  default:
    return std::nullopt;
  }
}

/// A view argument read from a .npy file, of the kernel argument's type.
static LogicalResult readNpyArg(StringRef file, Type argType, HostView &host) {
  auto viewType = dyn_cast<ViewType>(argType);
  FailureOr<ElementKind> kind = failure();
  if (viewType)
    kind = getMemoryElementKind(viewType.getElementType());
  std::optional<tilebundle::DType> dtype =
      succeeded(kind) ? bundleDType(*kind) : std::nullopt;
  if (!dtype) {
    llvm::errs() << "error: @" << file
                 << ": the argument is not a view of f16, bf16, f32 or i32\n";
    return failure();
  }
  tilebundle::NpyArray array;
  std::vector<char> data;
  std::string error;
  if (!tilebundle::readNpy(file.str(), array, error) ||
      !tilebundle::convertNpy(array, *dtype, data, file.str(), error)) {
    llvm::errs() << "error: " << error << "\n";
    return failure();
  }
  if (static_cast<int64_t>(array.shape.size()) != viewType.getRank()) {
    llvm::errs() << "error: @" << file << " has rank " << array.shape.size()
                 << ", but the argument has rank " << viewType.getRank()
                 << "\n";
    return failure();
  }
  host.type = viewType.getElementType();
  host.view.element = *kind;
  host.view.sizes.assign(array.shape.begin(), array.shape.end());
  host.view.strides.assign(host.view.sizes.size(), 1);
  for (int d = static_cast<int>(host.view.sizes.size()) - 2; d >= 0; --d)
    host.view.strides[d] = host.view.strides[d + 1] * host.view.sizes[d + 1];
  host.bytes.assign(data.begin(), data.end());
  host.view.data = host.bytes.data();
  return success();
}

static void printValue(llvm::raw_ostream &os, const HostView &host, int64_t i) {
  const uint8_t *p = host.bytes.data() + i * getElementBytes(host.view.element);
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  auto printFloat = [&](float f, int digits) {
    if (std::isnan(f)) {
      os << "nan";
      return;
    }
    if (std::isinf(f)) {
      os << (f < 0 ? "-inf" : "inf");
      return;
    }
    char text[64];
    std::snprintf(text, sizeof(text), "%.*g", digits, f);
    os << text;
  };
  switch (host.view.element) {
  case ElementKind::F16:
  case ElementKind::BF16: {
    uint16_t bits = get(uint16_t());
    if (printHex) {
      os << llvm::format_hex(bits, 6);
      return;
    }
    APInt apBits(16, bits);
    APFloat a(host.view.element == ElementKind::F16 ? APFloat::IEEEhalf()
                                                    : APFloat::BFloat(),
              apBits);
    bool loses;
    a.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &loses);
    printFloat(a.convertToFloat(), 6);
    return;
  }
  case ElementKind::F32: {
    float f = get(float());
    if (printHex) {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      os << llvm::format_hex(bits, 10);
      return;
    }
    printFloat(f, 9);
    return;
  }
  case ElementKind::I1:
    os << static_cast<int>(get(uint8_t()));
    return;
  case ElementKind::I8:
    os << static_cast<int>(get(int8_t()));
    return;
  case ElementKind::I16:
    os << get(int16_t());
    return;
  case ElementKind::I32:
    os << get(int32_t());
    return;
  case ElementKind::I64:
    os << get(int64_t());
    return;
  }
}

static void printView(llvm::raw_ostream &os, const HostView &host) {
  ArrayRef<int64_t> sizes = host.view.sizes;
  int64_t cols = sizes.back();
  int64_t rows = 1;
  for (int64_t size : sizes.drop_back())
    rows *= size;
  SmallVector<int64_t> index(sizes.size() - 1, 0);
  for (int64_t r = 0; r < rows; ++r) {
    os << host.name;
    if (!index.empty()) {
      os << "[";
      llvm::interleave(index, os, ", ");
      os << "]";
    }
    os << ":";
    for (int64_t c = 0; c < cols; ++c) {
      os << " ";
      printValue(os, host, r * cols + c);
    }
    os << "\n";
    for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

static int run(MLIRContext &ctx, const PipelineOptions &pipelineOptions) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, ParserConfig(&ctx));
  if (!module)
    return 1;

  func::FuncOp kernel;
  // The first function with a body, or the one named (which the executor
  // refuses if it has none).
  for (auto func : module->getOps<func::FuncOp>()) {
    if (kernelName.empty() ? !func.isExternal()
                           : func.getName() == kernelName) {
      kernel = func;
      break;
    }
  }
  if (!kernel) {
    llvm::errs() << "error: no kernel"
                 << (kernelName.empty() ? "" : " named '" + kernelName + "'")
                 << " in " << inputFile << "\n";
    return 1;
  }

  // The tile stage of the pipeline, on the chosen kernel: specialize it,
  // then run the textual pipeline.
  if (!pipelineOptions.bindings.empty() || pipelineOptions.numWarps ||
      pipelineOptions.occupancy) {
    SpecializeOptions options;
    options.bindings.assign(pipelineOptions.bindings.begin(),
                            pipelineOptions.bindings.end());
    options.numWarps = pipelineOptions.numWarps;
    options.occupancy = pipelineOptions.occupancy;
    if (failed(specializeKernel(kernel, options)))
      return 1;
  }
  StringRef pipeline = pipelineOptions.tilePipeline.getValue();
  if (!pipeline.empty()) {
    PassManager pm(&ctx, ModuleOp::getOperationName());
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(parsePipeline(pipeline, pm, errorStream))) {
      llvm::errs() << "error: bad pipeline '" << pipeline << "': " << error
                   << "\n";
      return 1;
    }
    if (failed(pm.run(*module)))
      return 1;
  }

  std::array<int64_t, 3> grid = {1, 1, 1};
  SmallVector<StringRef> gridItems;
  StringRef(gridSpec).split(gridItems, ',');
  if (gridItems.size() > 3) {
    llvm::errs() << "error: --grid takes at most 3 sizes\n";
    return 1;
  }
  for (auto [i, item] : llvm::enumerate(gridItems))
    if (item.trim().getAsInteger(10, grid[i])) {
      llvm::errs() << "error: bad grid size '" << item << "'\n";
      return 1;
    }

  if (compileOnly)
    return failed(Executable::compile(kernel)) ? 1 : 0;

  if (argSpecs.size() != kernel.getNumArguments()) {
    llvm::errs() << "error: kernel '" << kernel.getName() << "' takes "
                 << kernel.getNumArguments() << " arguments, "
                 << argSpecs.size() << " given\n";
    return 1;
  }
  std::vector<std::unique_ptr<HostView>> views;
  std::vector<KernelArg> args;
  for (auto [index, specText] : llvm::enumerate(argSpecs)) {
    StringRef spec(specText);
    auto [lhs, init] = spec.split('=');
    lhs = lhs.trim();
    if (spec.starts_with("@") || lhs.ends_with("]")) {
      auto host = std::make_unique<HostView>();
      if (spec.starts_with("@")) {
        if (failed(readNpyArg(spec.drop_front(),
                              kernel.getArgumentTypes()[index], *host)))
          return 1;
      } else {
        auto [typeText, dims] = lhs.drop_back().split('[');
        if (failed(parseViewArg(spec, typeText, dims, init.trim(), ctx, *host)))
          return 1;
      }
      auto name = kernel.getArgAttrOfType<StringAttr>(
          index, TileDialect::getArgNameAttrName());
      host->name = name ? name.str() : "arg" + std::to_string(index);
      args.push_back(KernelArg::getView(host->view));
      views.push_back(std::move(host));
      continue;
    }
    Type type = parseElementType(lhs, ctx);
    FailureOr<double> value = parseNumber(init);
    if (!type || failed(value)) {
      llvm::errs() << "error: bad scalar argument '" << spec << "'\n";
      return 1;
    }
    args.push_back(isa<FloatType>(type)
                       ? KernelArg::getFloat(*value)
                       : KernelArg::getInt(static_cast<int64_t>(*value)));
  }

  FailureOr<std::unique_ptr<Executable>> executable =
      Executable::compile(kernel);
  if (failed(executable))
    return 1;
  RunOptions options;
  options.grid = grid;
  options.numThreads = numThreads;
  if (failed((*executable)->run(args, options)))
    return 1;

  for (StringRef save : saveSpecs) {
    auto [name, file] = save.split('=');
    const HostView *found = nullptr;
    for (const auto &host : views)
      if (host->name == name)
        found = host.get();
    std::optional<tilebundle::DType> dtype =
        found ? bundleDType(found->view.element) : std::nullopt;
    std::string error;
    if (!found || file.empty() || !dtype) {
      llvm::errs() << "error: --save " << save
                   << ": expected NAME=FILE.npy naming a view of f16, bf16, "
                      "f32 or i32\n";
      return 1;
    }
    std::vector<int64_t> shape(found->view.sizes.begin(),
                               found->view.sizes.end());
    if (!tilebundle::writeFileBytes(
            file.str(),
            tilebundle::encodeNpy(*dtype, shape, found->bytes.data()), error)) {
      llvm::errs() << "error: " << error << "\n";
      return 1;
    }
  }

  SmallVector<StringRef> wanted;
  StringRef(printList).split(wanted, ',', -1, false);
  for (const auto &host : views)
    if (wanted.empty() || llvm::is_contained(wanted, host->name))
      printView(llvm::outs(), *host);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerCanonicalizerPass();
  registerCSEPass();
  registerLoopInvariantCodeMotionPass();
  registerTilePasses();
  registerTileOptimizationPipelines();

  // The pipeline options (PipelineOptions, tile/Pipelines) that the CPU
  // executor paths read: --bind, --num-warps, --occupancy and
  // --tile-pipeline (also spelled --pipeline); no pipeline by default.
  PipelineOptions pipelineOptions;
  pipelineOptions.tilePipeline = "";
  SmallVector<char *> rest;
  std::string error;
  if (failed(takePipelineFlags(argc, argv, pipelineOptions, ReadByExecutor,
                               {{"pipeline", "tile-pipeline"}}, rest, error))) {
    llvm::errs() << "tile-exec: " << error << "\n";
    return 1;
  }
  std::string overview = "tile-exec: run tile IR on the CPU\n\n"
                         "Pipeline options:\n";
  llvm::raw_string_ostream os(overview);
  pipelineOptions.printHelp(os, ReadByExecutor);
  llvm::cl::ParseCommandLineOptions(rest.size(), rest.data(), overview);

  DialectRegistry registry;
  registry.insert<TileDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect>();
  MLIRContext ctx(registry);
  return run(ctx, pipelineOptions);
}
