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
// At most 2^20 elements of a view are printed.
//
// User input is checked before anything is allocated (Support/Checked.h):
// integers must fit their type (i32=4294967296 and i32=1.5 are errors, not
// wrapped or truncated), floats must be finite in their type unless written
// inf, -inf or nan, view sizes must be in [0, 2^31), and the views together
// must fit in memory: the machine's physical memory (or the ulimit where
// lower), or --max-memory. The executor runs at most 2^20 blocks, and at
// most --max-work units of work (default 2^32, a few seconds): a run whose
// estimate (Executable::estimateWork) is higher is refused before any view
// memory is allocated.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Npy.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Executor/Executor.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/Checked.h"
#include "tile/Support/Float16.h"
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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

/// The options --help lists: the tool's own (the pipeline options are in the
/// overview); LLVM's and MLIR's stay accepted but hidden.
static llvm::cl::OptionCategory category("tile-exec options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<kernel.mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    kernelName("kernel",
               llvm::cl::desc("Kernel function (default: the first "
                              "func.func with a body)"),
               llvm::cl::value_desc("name"), llvm::cl::cat(category));
static llvm::cl::list<std::string>
    argSpecs("arg",
             llvm::cl::desc("A kernel argument, in kernel-argument order: "
                            "TYPE=VALUE, TYPE[D0x...]=INIT or @FILE.npy "
                            "(the grammar is above)"),
             llvm::cl::value_desc("spec"), llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    gridSpec("grid",
             llvm::cl::desc("Blocks X[,Y[,Z]], each 0 to 2^31 - 1 (--max-work "
                            "bounds what runs)"),
             llvm::cl::init("1"), llvm::cl::value_desc("x[,y[,z]]"),
             llvm::cl::cat(category));
static llvm::cl::opt<unsigned>
    numThreads("num-threads",
               llvm::cl::desc("Worker threads (0: all cores; at most 1024)"),
               llvm::cl::init(1), llvm::cl::cat(category));
static llvm::cl::opt<std::string> maxMemory(
    "max-memory",
    llvm::cl::desc("Largest total size of the views in bytes (default: the "
                   "machine's physical memory, or ulimit -v where lower)"),
    llvm::cl::value_desc("bytes"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> maxWork(
    "max-work",
    llvm::cl::desc("Most units of work (about one per element operation) the "
                   "run may do; it is refused when the estimate before it "
                   "starts is higher and stopped when it gets there (0: no "
                   "limit; default 2^32)"),
    llvm::cl::value_desc("units"), llvm::cl::cat(category));
static llvm::cl::opt<bool> printWork(
    "print-work",
    llvm::cl::desc("Print the work estimated before the run and the work it "
                   "did (stderr)"),
    llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    printList("print", llvm::cl::desc("Views to print (names), default all"),
              llvm::cl::value_desc("NAME,..."), llvm::cl::cat(category));
static llvm::cl::opt<bool>
    compileOnly("compile-only",
                llvm::cl::desc("Only check that the executor supports the "
                               "kernel; take no arguments, run nothing"),
                llvm::cl::cat(category));
static llvm::cl::opt<bool> printHex("hex", llvm::cl::desc("Print bit patterns"),
                                    llvm::cl::cat(category));
static llvm::cl::list<std::string>
    saveSpecs("save",
              llvm::cl::desc("Write view NAME after the run: "
                             "NAME=FILE.npy"),
              llvm::cl::value_desc("NAME=FILE.npy"), llvm::cl::cat(category));

/// The value of a limit option (--max-memory, --max-work): an integer in
/// [0, 2^63), or `fallback` when the option is not given (an empty value is
/// refused, not taken as the default); nullopt after an error.
static std::optional<int64_t>
limitOption(const llvm::cl::opt<std::string> &option, int64_t fallback) {
  if (!option.getNumOccurrences())
    return fallback;
  std::string error;
  std::optional<int64_t> value =
      ::tile::checked::parseInt(option.getValue(), 0, INT64_MAX, &error);
  if (!value)
    llvm::errs() << "error: bad --" << option.ArgStr << ": " << error << "\n";
  return value;
}

namespace {
/// A parsed view argument and its memory.
struct HostView {
  Type type;
  std::string name;
  /// The view's memory: `allocated` (`size` bytes) or `loadedBytes`.
  uint8_t *bytes() {
    return allocated ? allocated.get()
                     : reinterpret_cast<uint8_t *>(loadedBytes.data());
  }
  const uint8_t *bytes() const {
    return allocated ? allocated.get()
                     : reinterpret_cast<const uint8_t *>(loadedBytes.data());
  }
  size_t size = 0;
  /// From calloc: the pages of a large view stay untouched (and zero) until
  /// written, so "zeros" costs nothing and other initializers touch each
  /// page once.
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t[], Free> allocated;
  std::vector<char> loadedBytes;
  ViewArg view;
  /// Read from a .npy file: its memory holds the values already.
  bool loaded = false;
};
} // namespace

namespace {
/// A value of an argument or an initializer, parsed for its element type:
/// integers stay exact (an i64 above 2^53 is not rounded through a double).
struct Number {
  int64_t i = 0;
  double f = 0;
};
} // namespace

/// The range of an integer element type.
static std::pair<int64_t, int64_t> getIntRange(unsigned width) {
  if (width == 1)
    return {0, 1};
  if (width >= 64)
    return {INT64_MIN, INT64_MAX};
  int64_t half = int64_t(1) << (width - 1);
  return {-half, half - 1};
}

/// Parses `text` as a value of `type` (an integer, index or float type):
/// integers whole and in range, floats finite in the type unless written
/// inf, -inf or nan. On failure `error` says why.
static FailureOr<Number> parseNumber(StringRef text, Type type,
                                     std::string &error) {
  text = text.trim();
  Number number;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (text == "inf" || text == "+inf" || text == "-inf" || text == "nan") {
      number.f = text == "nan" ? NAN : text == "-inf" ? -INFINITY : INFINITY;
      return number;
    }
    std::optional<double> value = ::tile::checked::parseDouble(
        std::string_view(text.data(), text.size()), false, &error);
    if (!value)
      return failure();
    // Finite values that round to infinity in the element type do not fit.
    APFloat converted(*value);
    bool loses;
    converted.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &loses);
    if (converted.isInfinity()) {
      APFloat largest = APFloat::getLargest(floatType.getFloatSemantics());
      SmallString<16> largestText;
      largest.toString(largestText);
      error = "'" + text.str() + "' is out of range for " +
              (isa<Float16Type>(type)    ? std::string("f16")
               : isa<BFloat16Type>(type) ? std::string("bf16")
                                         : std::string("f32")) +
              " (largest finite value " + largestText.str().str() + ")";
      return failure();
    }
    number.f = *value;
    return number;
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (width == 1 && (text == "true" || text == "false")) {
    number.i = text == "true";
    return number;
  }
  auto [min, max] = getIntRange(width);
  std::optional<int64_t> value = ::tile::checked::parseInt(
      std::string_view(text.data(), text.size()), min, max, &error);
  if (!value)
    return failure();
  number.i = *value;
  return number;
}

static Type parseElementType(StringRef text, MLIRContext &ctx) {
  Builder b(&ctx);
  if (text == "index")
    return b.getIndexType();
  if (text == "f16")
    return b.getF16Type();
  if (text == "bf16")
    return b.getBF16Type();
  if (text == "f8E4M3FN")
    return b.getType<Float8E4M3FNType>();
  if (text == "f8E5M2")
    return b.getType<Float8E5M2Type>();
  if (text == "f32")
    return b.getF32Type();
  unsigned width;
  if (text.consume_front("i") && !text.getAsInteger(10, width) &&
      (width == 1 || width == 8 || width == 16 || width == 32 || width == 64))
    return b.getIntegerType(width);
  return {};
}

static bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F8E4M3FN ||
         kind == ElementKind::F8E5M2;
}

/// Writes `value` as element `i` of view memory of `kind`: its `f` for
/// float kinds, its `i` (in range, checked when parsed) for integers.
static void storeElement(HostView &host, int64_t i, Number value) {
  uint8_t *p = host.bytes() + i * getElementBytes(host.view.element);
  auto put = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
  float f = static_cast<float>(value.f);
  switch (host.view.element) {
  case ElementKind::F16:
    // The executor's own rounding (tile.astype's), nearest-even.
    put(tilefloat::floatToHalf(f));
    return;
  case ElementKind::BF16:
    put(tilefloat::floatToBFloat16(f));
    return;
  case ElementKind::F8E4M3FN:
    // Nearest even, saturating (tile.astype's rounding).
    put(tilefloat::doubleToFloat8(f, tilefloat::Float8::E4M3FN));
    return;
  case ElementKind::F8E5M2:
    put(tilefloat::doubleToFloat8(f, tilefloat::Float8::E5M2));
    return;
  case ElementKind::F32:
    put(f);
    return;
  case ElementKind::I1:
    put(static_cast<uint8_t>(value.i != 0));
    return;
  case ElementKind::I8:
    put(static_cast<int8_t>(value.i));
    return;
  case ElementKind::I16:
    put(static_cast<int16_t>(value.i));
    return;
  case ElementKind::I32:
    put(static_cast<int32_t>(value.i));
    return;
  case ElementKind::I64:
    put(static_cast<int64_t>(value.i));
    return;
  }
}

/// Parses the element type and shape of a view argument; allocates nothing.
/// Sizes are those the executor takes ([0, 2^31)), and the view's bytes
/// must be representable.
static LogicalResult parseViewShape(StringRef spec, StringRef typeText,
                                    StringRef dims, MLIRContext &ctx,
                                    HostView &host, int64_t &bytes) {
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
  for (StringRef part : parts) {
    std::string error;
    std::optional<int64_t> size = ::tile::checked::parseInt(
        std::string_view(part.trim().data(), part.trim().size()), 0,
        std::numeric_limits<int32_t>::max(), &error);
    if (!size) {
      llvm::errs() << "error: bad shape in '" << spec << "': " << error << "\n";
      return failure();
    }
    host.view.sizes.push_back(*size);
  }
  std::optional<int64_t> n = ::tile::checked::product(host.view.sizes);
  std::optional<int64_t> size =
      n ? ::tile::checked::mul(*n, getElementBytes(*kind)) : std::nullopt;
  if (!size) {
    llvm::errs() << "error: the view '" << spec
                 << "' has more than 2^63 bytes\n";
    return failure();
  }
  bytes = *size;
  host.view.strides.assign(host.view.sizes.size(), 1);
  for (int d = static_cast<int>(host.view.sizes.size()) - 2; d >= 0; --d)
    host.view.strides[d] = host.view.strides[d + 1] * host.view.sizes[d + 1];
  return success();
}

/// Copies the first `filled` bytes of `memory` over the rest of its `size`
/// bytes, doubling the copied run: a pattern repeated in O(log n) memcpys.
static void repeatPattern(uint8_t *memory, size_t filled, size_t size) {
  while (filled < size) {
    size_t chunk = std::min(filled, size - filled);
    std::memcpy(memory + filled, memory, chunk);
    filled += chunk;
  }
}

/// Allocates the memory of a view whose shape parseViewShape read and
/// fills it from `init`.
static LogicalResult initView(StringRef spec, StringRef init, HostView &host) {
  int64_t n = *::tile::checked::product(host.view.sizes);
  size_t elementBytes = getElementBytes(host.view.element);
  host.size = static_cast<size_t>(n) * elementBytes;
  // At least one byte, so that an empty view has an address too.
  host.allocated.reset(static_cast<uint8_t *>(std::calloc(host.size + 1, 1)));
  if (!host.allocated) {
    llvm::errs() << "error: cannot allocate the "
                 << ::tile::checked::formatBytes(host.size) << " of '" << spec
                 << "'\n";
    return failure();
  }
  host.view.data = host.bytes();
  bool isFloat = isFloatKind(host.view.element);

  if (init == "zeros")
    return success();
  if (init == "iota") {
    if (!isFloat && n > 0) {
      unsigned width =
          host.type.isIndex() ? 64 : host.type.getIntOrFloatBitWidth();
      if (n - 1 > getIntRange(width).second) {
        llvm::errs() << "error: iota in '" << spec << "' counts to " << n - 1
                     << ", which does not fit " << host.type << "\n";
        return failure();
      }
    }
    for (int64_t i = 0; i < n; ++i)
      storeElement(host, i, Number{i, static_cast<double>(i)});
    return success();
  }
  // fill:V is values:V with one value.
  bool isFill = init.consume_front("fill:");
  if (isFill || init.consume_front("values:")) {
    SmallVector<StringRef> items;
    if (isFill)
      items.push_back(init);
    else
      init.split(items, ',');
    SmallVector<Number> values;
    for (StringRef item : items) {
      std::string error;
      FailureOr<Number> value = parseNumber(item, host.type, error);
      if (failed(value)) {
        if (isFill)
          llvm::errs() << "error: bad fill value in '" << spec << "': " << error
                       << "\n";
        else
          llvm::errs() << "error: bad value '" << item << "' in '" << spec
                       << "': " << error << "\n";
        return failure();
      }
      values.push_back(*value);
    }
    // The values once, then copies of them (cyclically, as if stored one
    // element at a time).
    int64_t once = std::min<int64_t>(n, static_cast<int64_t>(values.size()));
    for (int64_t i = 0; i < once; ++i)
      storeElement(host, i, values[i]);
    repeatPattern(host.bytes(), static_cast<size_t>(once) * elementBytes,
                  host.size);
    return success();
  }
  if (init.consume_front("random:")) {
    // SEED or SEED:LO:HI; uniform in [LO, HI), default [-1, 1).
    SmallVector<StringRef> fields;
    init.split(fields, ':');
    double lo = -1.0, hi = 1.0;
    std::string error;
    std::optional<int64_t> seed;
    if (fields.size() != 1 && fields.size() != 3)
      error = "random:SEED or random:SEED:LO:HI";
    else
      seed = ::tile::checked::parseInt(
          std::string_view(fields[0].data(), fields[0].size()), 0, INT64_MAX,
          &error);
    if (seed && fields.size() == 3) {
      std::optional<double> l = ::tile::checked::parseDouble(
          std::string_view(fields[1].data(), fields[1].size()), false, &error);
      std::optional<double> h =
          l ? ::tile::checked::parseDouble(
                  std::string_view(fields[2].data(), fields[2].size()), false,
                  &error)
            : std::nullopt;
      if (l && h && !(*l < *h))
        error = "LO must be below HI";
      if (l && h && *l < *h) {
        lo = *l;
        hi = *h;
      } else {
        seed.reset();
      }
    }
    if (!seed) {
      llvm::errs() << "error: bad random initializer in '" << spec
                   << "' (random:SEED or random:SEED:LO:HI with LO < HI): "
                   << error << "\n";
      return failure();
    }
    uint64_t state = static_cast<uint64_t>(*seed);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      double unit = static_cast<double>(z >> 11) * 0x1p-53; // [0, 1)
      double value = lo + (hi - lo) * unit;
      storeElement(host, i, Number{static_cast<int64_t>(value), value});
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
  case ElementKind::F8E4M3FN:
    return tilebundle::DType::F8E4M3FN;
  case ElementKind::F8E5M2:
    return tilebundle::DType::F8E5M2;
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
  host.loadedBytes = std::move(data);
  host.size = host.loadedBytes.size();
  host.view.data = host.bytes();
  host.loaded = true;
  return success();
}

static void printValue(llvm::raw_ostream &os, const HostView &host, int64_t i) {
  const uint8_t *p = host.bytes() + i * getElementBytes(host.view.element);
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
  case ElementKind::F8E4M3FN:
  case ElementKind::F8E5M2: {
    uint8_t bits = get(uint8_t());
    if (printHex) {
      os << llvm::format_hex(bits, 4);
      return;
    }
    printFloat(static_cast<float>(tilefloat::float8ToDouble(
                   bits, host.view.element == ElementKind::F8E4M3FN
                             ? tilefloat::Float8::E4M3FN
                             : tilefloat::Float8::E5M2)),
               4);
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

/// The most elements printed of one view: the output is for reading.
static constexpr int64_t kMaxPrintedElements = int64_t(1) << 20;

static void printView(llvm::raw_ostream &os, const HostView &host) {
  ArrayRef<int64_t> sizes = host.view.sizes;
  int64_t cols = sizes.back();
  int64_t rows = 1;
  for (int64_t size : sizes.drop_back())
    rows *= size;
  SmallVector<int64_t> index(sizes.size() - 1, 0);
  int64_t printed = 0;
  for (int64_t r = 0; r < rows; ++r) {
    os << host.name;
    if (!index.empty()) {
      os << "[";
      llvm::interleave(index, os, ", ");
      os << "]";
    }
    os << ":";
    for (int64_t c = 0; c < cols; ++c, ++printed) {
      if (printed == kMaxPrintedElements) {
        os << "\n"
           << host.name << ": " << rows * cols - printed
           << " more elements not printed (tile-exec prints "
           << kMaxPrintedElements << " of a view)\n";
        return;
      }
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
  std::string readError;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::tile::readSourceFile(inputFile, readError);
  if (!input) {
    llvm::errs() << "error: " << readError << "\n";
    return 1;
  }
  if (!mlir::tile::checkSourceNesting(*input, readError)) {
    llvm::errs() << readError << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  // Called first: explains tile types that disagree in `?` (a note).
  ScopedDiagnosticHandler typeHints(&ctx, mlir::tile::addTypeMismatchHint);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
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
  for (auto [i, item] : llvm::enumerate(gridItems)) {
    // The executor's limit, which is also CUDA's for x.
    std::string error;
    StringRef text = item.trim();
    std::optional<int64_t> size =
        ::tile::checked::parseInt(std::string_view(text.data(), text.size()), 0,
                                  std::numeric_limits<int32_t>::max(), &error);
    if (!size) {
      llvm::errs() << "error: bad grid size in --grid=" << gridSpec << ": "
                   << error << "\n";
      return 1;
    }
    grid[i] = *size;
  }
  if (numThreads > 1024) {
    llvm::errs() << "error: --num-threads must be at most 1024, got "
                 << numThreads << "\n";
    return 1;
  }
  std::string limitName;
  int64_t memoryLimit = ::tile::checked::memoryLimitBytes(limitName);
  std::optional<int64_t> memoryOption = limitOption(maxMemory, memoryLimit);
  std::optional<int64_t> workOption =
      limitOption(maxWork, static_cast<int64_t>(kDefaultMaxWork));
  if (!memoryOption || !workOption)
    return 1;
  if (maxMemory.getNumOccurrences()) {
    memoryLimit = *memoryOption;
    limitName = "the limit of --max-memory";
  }
  uint64_t workLimit = static_cast<uint64_t>(*workOption);

  if (compileOnly)
    return failed(Executable::compile(kernel)) ? 1 : 0;

  if (argSpecs.size() != kernel.getNumArguments()) {
    llvm::errs() << "error: kernel '" << kernel.getName() << "' takes "
                 << kernel.getNumArguments() << " arguments, "
                 << argSpecs.size() << " given\n";
    return 1;
  }
  // Two passes: every spec is parsed and the memory of the views estimated
  // before any of it is allocated.
  std::vector<std::unique_ptr<HostView>> views;
  SmallVector<StringRef> viewSpecs, viewInits;
  SmallVector<size_t> viewArgIndices;
  std::vector<KernelArg> args;
  int64_t totalBytes = 0;
  for (auto [index, specText] : llvm::enumerate(argSpecs)) {
    StringRef spec(specText);
    auto [lhs, init] = spec.split('=');
    lhs = lhs.trim();
    if (spec.starts_with("@") || lhs.ends_with("]")) {
      auto host = std::make_unique<HostView>();
      int64_t bytes;
      if (spec.starts_with("@")) {
        // Read whole (a bounded read of a regular file): its size counts.
        if (failed(readNpyArg(spec.drop_front(),
                              kernel.getArgumentTypes()[index], *host)))
          return 1;
        bytes = static_cast<int64_t>(host->size);
      } else {
        auto [typeText, dims] = lhs.drop_back().split('[');
        if (failed(parseViewShape(spec, typeText, dims, ctx, *host, bytes)))
          return 1;
      }
      std::optional<int64_t> sum = ::tile::checked::add(totalBytes, bytes);
      totalBytes = sum ? *sum : INT64_MAX;
      auto name = kernel.getArgAttrOfType<StringAttr>(
          index, TileDialect::getArgNameAttrName());
      host->name = name ? name.str() : "arg" + std::to_string(index);
      views.push_back(std::move(host));
      viewSpecs.push_back(spec);
      viewInits.push_back(init.trim());
      viewArgIndices.push_back(args.size());
      args.emplace_back(); // set once the memory is allocated
      continue;
    }
    Type type = parseElementType(lhs, ctx);
    if (!type) {
      llvm::errs() << "error: bad scalar argument '" << spec
                   << "': unknown type '" << lhs << "'\n";
      return 1;
    }
    // The executor narrows integers to the kernel's type: a wider spec
    // would be wrapped silently.
    Type argType = kernel.getArgument(index).getType();
    if (argType.isIntOrIndexOrFloat() && type != argType) {
      llvm::errs() << "error: bad scalar argument '" << spec << "': argument "
                   << index << " of '" << kernel.getName() << "' is " << argType
                   << "\n";
      return 1;
    }
    std::string error;
    FailureOr<Number> value = parseNumber(init, type, error);
    if (failed(value)) {
      llvm::errs() << "error: bad scalar argument '" << spec << "': " << error
                   << "\n";
      return 1;
    }
    args.push_back(isa<FloatType>(type) ? KernelArg::getFloat(value->f)
                                        : KernelArg::getInt(value->i));
  }
  if (memoryLimit > 0 && totalBytes > memoryLimit) {
    std::string need = totalBytes == INT64_MAX
                           ? std::string("more than 2^63 bytes")
                           : ::tile::checked::formatBytes(totalBytes) + " (" +
                                 std::to_string(totalBytes) + " bytes)";
    llvm::errs() << "error: the views need " << need << ", more than "
                 << limitName << " ("
                 << ::tile::checked::formatBytes(memoryLimit) << ")\n";
    return 1;
  }
  FailureOr<std::unique_ptr<Executable>> executable =
      Executable::compile(kernel);
  if (failed(executable))
    return 1;
  RunOptions options;
  options.grid = grid;
  options.numThreads = numThreads;
  options.maxWork = workLimit;
  // The work, estimated before any view memory is allocated (views without
  // data yet).
  for (auto [host, argIndex] : llvm::zip(views, viewArgIndices))
    args[argIndex] = KernelArg::getView(host->view);
  std::optional<WorkEstimate> estimate;
  if (workLimit != 0 || printWork) {
    FailureOr<WorkEstimate> counted =
        (*executable)->estimateWork(args, options);
    if (failed(counted))
      return 1;
    estimate = *counted;
    if (workLimit != 0 && estimate->work > workLimit) {
      llvm::errs() << "error: the run needs "
                   << (estimate->complete ? "" : "at least ") << estimate->work
                   << " units of work (estimated before it starts), more "
                      "than the limit of "
                   << workLimit << " (--max-work; 0 for no limit)\n";
      return 1;
    }
  }
  for (auto [host, spec, init, argIndex] :
       llvm::zip(views, viewSpecs, viewInits, viewArgIndices)) {
    if (!host->loaded && failed(initView(spec, init, *host)))
      return 1;
    args[argIndex] = KernelArg::getView(host->view);
  }
  uint64_t workDone = 0;
  options.workDone = &workDone;
  if (failed((*executable)->run(args, options)))
    return 1;
  if (printWork)
    llvm::errs() << "work: estimated "
                 << (estimate->complete ? "" : "at least ") << estimate->work
                 << ", done " << workDone << "\n";

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
            file.str(), tilebundle::encodeNpy(*dtype, shape, found->bytes()),
            error)) {
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
  std::string overview =
      "tile-exec: run tile IR on the CPU reference executor\n\n"
      "Runs one kernel on host arrays given with --arg and prints every view\n"
      "afterwards, a line per row: `NAME[i, j]: v v v`.\n\n"
      "  tile-exec kernel.mlir --grid=2,1,1 \\\n"
      "      --arg='f32[4x8]=iota' --arg='f32[4x8]=fill:-1' --arg='i32=3'\n\n"
      "--arg, one per kernel argument, in order:\n"
      "  TYPE=VALUE            a scalar: TYPE i1, i8, i16, i32, i64, index, "
      "f16,\n"
      "                        bf16 or f32; VALUE a number, inf, -inf or nan\n"
      "  TYPE[D0xD1x...]=INIT  a view, row-major; INIT zeros | iota | "
      "fill:V |\n"
      "                        values:V,V,... (repeated cyclically) |\n"
      "                        random:SEED[:LO:HI] (uniform in [LO, HI), "
      "default\n"
      "                        [-1, 1))\n"
      "  @FILE.npy             a view read from a NumPy file (its shape, its\n"
      "                        values converted to the argument's element "
      "type)\n"
      "Values must fit their type (i32=1.5 is an error, not truncated).\n\n"
      "Pipeline options (--pipeline is --tile-pipeline; none runs by "
      "default):\n";
  llvm::raw_string_ostream os(overview);
  pipelineOptions.printHelp(os, ReadByExecutor);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(rest.size(), rest.data(), overview);

  DialectRegistry registry;
  registry.insert<TileDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect>();
  MLIRContext ctx(registry);
  // Diagnostics point at the kernel source; the whole op in a note buries
  // them.
  ctx.printOpOnDiagnostic(false);
  return run(ctx, pipelineOptions);
}
