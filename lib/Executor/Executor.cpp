//===- Executor.cpp - the CPU reference executor of tile IR --------------===//
//
// Two phases. `Executable::compile` walks the kernel once: it gives every SSA
// value a slot, checks that each op is supported and each type static, and
// turns each op into an `Instr` (an opcode, operand/result slots and the
// attributes it needs, pre-decoded; constant tiles are built once). `run`
// interprets the instructions of each block of the grid with a frame of
// slots: one switch per op, then a tight loop over contiguous arrays. There
// is no per-element dispatch or map lookup.
//
// Values are tiles (rank >= 1) or scalars (rank 0, one element), held as
// immutable shared buffers (floats for f16/bf16/f32, sign-extended int64_t
// for integers and index; i1 true is -1), so that reshape is free; or views.
// Element kinds and shapes are static per value and live in the compiled
// program, not in the values.
//
// See Executor.h for the numerics.
//
//===----------------------------------------------------------------------===//

#include "tile/Executor/Executor.h"

#include "Numerics.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;
namespace nm = mlir::tile::exec::numerics;

using EK = ElementKind;

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

static bool isFloatKind(EK kind) { return kind >= EK::F16; }

static unsigned widthOf(EK kind) {
  switch (kind) {
  case EK::I1:
    return 1;
  case EK::I8:
    return 8;
  case EK::I16:
  case EK::F16:
  case EK::BF16:
    return 16;
  case EK::I32:
  case EK::F32:
    return 32;
  case EK::I64:
    return 64;
  }
  return 64;
}

/// The kind a value of `type` is held in; index is I64.
static std::optional<EK> getValueKind(Type type) {
  if (type.isIndex())
    return EK::I64;
  if (type.isSignlessInteger(1))
    return EK::I1;
  if (type.isSignlessInteger(8))
    return EK::I8;
  if (type.isSignlessInteger(16))
    return EK::I16;
  if (type.isSignlessInteger(32))
    return EK::I32;
  if (type.isSignlessInteger(64))
    return EK::I64;
  if (type.isF16())
    return EK::F16;
  if (type.isBF16())
    return EK::BF16;
  if (type.isF32())
    return EK::F32;
  return std::nullopt;
}

FailureOr<ElementKind> mlir::tile::exec::getMemoryElementKind(Type type) {
  if (type.isIndex())
    return failure();
  std::optional<EK> kind = getValueKind(type);
  if (!kind)
    return failure();
  return *kind;
}

int mlir::tile::exec::getElementBytes(ElementKind kind) {
  switch (kind) {
  case EK::I1:
  case EK::I8:
    return 1;
  case EK::I16:
  case EK::F16:
  case EK::BF16:
    return 2;
  case EK::I32:
  case EK::F32:
    return 4;
  case EK::I64:
    return 8;
  }
  return 4;
}

KernelArg KernelArg::getView(ViewArg view) {
  KernelArg arg;
  arg.kind = Kind::View;
  arg.view = std::move(view);
  return arg;
}

KernelArg KernelArg::getInt(int64_t value) {
  KernelArg arg;
  arg.kind = Kind::Int;
  arg.intValue = value;
  return arg;
}

KernelArg KernelArg::getFloat(double value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.floatValue = value;
  return arg;
}

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

/// Sign-extends the low `width` bits: the canonical form of integers.
static inline int64_t normalizeInt(int64_t value, unsigned width) {
  if (width >= 64)
    return value;
  unsigned shift = 64 - width;
  return static_cast<int64_t>(static_cast<uint64_t>(value) << shift) >> shift;
}

/// The low `width` bits, zero-extended: the unsigned reading of an integer.
static inline uint64_t unsignedInt(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

/// Rounds an exact float value to `kind` (f16/bf16 round to nearest even).
static inline float roundFloat(EK kind, float value) {
  if (kind == EK::F16)
    return nm::roundToHalf(value);
  if (kind == EK::BF16)
    return nm::roundToBFloat16(value);
  return value;
}

static void roundFloats(EK kind, float *values, int64_t n) {
  if (kind == EK::F16)
    for (int64_t i = 0; i < n; ++i)
      values[i] = nm::roundToHalf(values[i]);
  else if (kind == EK::BF16)
    for (int64_t i = 0; i < n; ++i)
      values[i] = nm::roundToBFloat16(values[i]);
}

static void normalizeInts(EK kind, int64_t *values, int64_t n) {
  unsigned width = widthOf(kind);
  if (width >= 64)
    return;
  for (int64_t i = 0; i < n; ++i)
    values[i] = normalizeInt(values[i], width);
}

/// An integer magnitude rounded to `bits` significant bits (nearest even),
/// as a float (exact: the result has at most 24 significant bits).
static float roundMagnitude(uint64_t magnitude, unsigned bits) {
  if (magnitude < (uint64_t(1) << bits))
    return static_cast<float>(magnitude);
  unsigned msb = 63 - __builtin_clzll(magnitude);
  unsigned shift = msb - (bits - 1);
  uint64_t quotient = magnitude >> shift;
  uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (quotient & 1)))
    ++quotient;
  return std::ldexp(static_cast<float>(quotient), static_cast<int>(shift));
}

/// Integer -> float of `kind`, one rounding to nearest even.
static float intToFloat(EK kind, bool negative, uint64_t magnitude) {
  float value;
  if (kind == EK::F16) {
    value = roundMagnitude(magnitude, 11);
    if (value > 65504.0f)
      value = INFINITY;
  } else if (kind == EK::BF16) {
    value = roundMagnitude(magnitude, 8);
  } else {
    value = roundMagnitude(magnitude, 24);
  }
  return negative ? -value : value;
}

/// Float -> integer of `width` bits: truncation toward zero, saturating to
/// the signed (or unsigned) range, NaN -> 0. Returns the canonical form.
static int64_t floatToInt(float value, unsigned width, bool isUnsigned) {
  if (std::isnan(value))
    return 0;
  double t = std::trunc(static_cast<double>(value));
  if (isUnsigned) {
    double max = std::ldexp(1.0, static_cast<int>(width)) - 1;
    if (t <= 0)
      return 0;
    uint64_t u = t >= max
                     ? (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1)
                     : static_cast<uint64_t>(t);
    return normalizeInt(static_cast<int64_t>(u), width);
  }
  double min = -std::ldexp(1.0, static_cast<int>(width) - 1);
  double max = -min - 1;
  if (t <= min)
    return width >= 64 ? std::numeric_limits<int64_t>::min()
                       : static_cast<int64_t>(min);
  if (t >= max)
    return width >= 64 ? std::numeric_limits<int64_t>::max()
                       : static_cast<int64_t>(max);
  return static_cast<int64_t>(t);
}

/// IEEE maximum/minimum (arith.maximumf/minimumf): NaN propagates, -0 < +0.
static inline float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

static inline float minimumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// maxNum/minNum (arith.maxnumf/minnumf): a NaN operand yields the other.
static inline float maxNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return maximumF(a, b);
}

static inline float minNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return minimumF(a, b);
}

static bool compareFloat(arith::CmpFPredicate predicate, float a, float b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  case P::AlwaysTrue:
    return true;
  }
  return false;
}

static bool compareInt(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                       unsigned width) {
  using P = arith::CmpIPredicate;
  uint64_t ua = unsignedInt(a, width), ub = unsignedInt(b, width);
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// 2^x on f32, optionally flushing subnormal inputs and results to zero.
static inline float exp2F(float x, bool ftz) {
  if (!ftz)
    return std::exp2(x);
  return nm::flushToZero(std::exp2(nm::flushToZero(x)));
}

/// a / b: IEEE for nearest_even; a * (1 / b) for full and approx.
static inline float divideF(float a, float b, bool approximate, bool ftz) {
  if (ftz) {
    a = nm::flushToZero(a);
    b = nm::flushToZero(b);
  }
  float q = approximate ? a * (1.0f / b) : a / b;
  return ftz ? nm::flushToZero(q) : q;
}

//===----------------------------------------------------------------------===//
// The compiled program
//===----------------------------------------------------------------------===//

namespace {

/// Storage of a tile or scalar: floats or canonical integers, never both.
struct Buffer {
  std::unique_ptr<float[]> f;
  std::unique_ptr<int64_t[]> i;
};
using BufferRef = std::shared_ptr<const Buffer>;

static std::shared_ptr<Buffer> newFloats(int64_t n) {
  auto buffer = std::make_shared<Buffer>();
  buffer->f.reset(new float[std::max<int64_t>(n, 1)]);
  return buffer;
}

static std::shared_ptr<Buffer> newInts(int64_t n) {
  auto buffer = std::make_shared<Buffer>();
  buffer->i.reset(new int64_t[std::max<int64_t>(n, 1)]);
  return buffer;
}

/// A runtime value: a buffer, or a view argument.
struct Val {
  BufferRef buf;
  const ViewArg *view = nullptr;
  const float *f() const { return buf->f.get(); }
  const int64_t *i() const { return buf->i.get(); }
};

/// What is statically known about a slot.
struct SlotInfo {
  EK kind = EK::I32;
  bool isView = false;
  ArrayRef<int64_t> shape; ///< empty for scalars (types are uniqued)
  int64_t size = 1;
};

enum class Opc : uint8_t {
  // tile
  BlockId,
  NumBlocks,
  Dim,
  Const, // tile.full, tile.iota, arith.constant: a prebuilt buffer
  Splat,
  Load,
  Store,
  Mma,
  Exp2,
  Div,
  Reduce,
  StridedCopy, // tile.broadcast, tile.permute
  Alias,       // tile.reshape
  Select,      // elementwise select (tile.select, arith.select on tensors)
  SelectWhole, // arith.select with a scalar condition
  Convert,     // casts and tile.astype
  // arith/math, float
  BinaryF,
  UnaryF,
  FmaF,
  CmpF,
  // arith/math, integer
  BinaryI,
  UnaryI,
  CmpI,
  // control flow
  For,
  If,
  While,
};

enum class BinF : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Max,
  Min,
  MaxNum,
  MinNum,
  CopySign
};
enum class UnF : uint8_t {
  Neg,
  Abs,
  Exp2,
  Exp,
  Log2,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Floor,
  Ceil
};
enum class BinI : uint8_t {
  Add,
  Sub,
  Mul,
  DivS,
  DivU,
  RemS,
  RemU,
  CeilDivS,
  CeilDivU,
  FloorDivS,
  MaxS,
  MaxU,
  MinS,
  MinU,
  And,
  Or,
  Xor,
  Shl,
  ShrS,
  ShrU
};
enum class UnI : uint8_t { Abs };
enum class Conv : uint8_t {
  FloatToFloat,
  IntToIntSigned,
  IntToIntUnsigned,
  IntToFloatSigned,
  IntToFloatUnsigned,
  FloatToIntSigned,
  FloatToIntUnsigned,
  FloatToBool, // tile.astype to i1: nonzero after truncation
  Bitcast,
};

struct Instr;

/// A block: its arguments, its ops, and its terminator's operands.
struct CBlock {
  SmallVector<unsigned> args;
  std::vector<Instr> body;
  SmallVector<unsigned> yields;
  /// scf.condition's condition slot, or -1.
  int condition = -1;
};

struct Instr {
  Opc opc;
  Operation *op = nullptr;
  SmallVector<unsigned, 4> in, out;
  /// Element kind of the result (of the operands for compares and stores).
  EK kind = EK::F32;
  /// Element kind of the first operand (conversions).
  EK srcKind = EK::F32;
  /// Elements of the result (of the stored value for stores).
  int64_t n = 1;
  /// Op-specific small attributes (sub-opcode, predicate, axis, flags).
  uint8_t sub = 0;
  int64_t a0 = 0, a1 = 0;
  bool flag = false;
  /// Op-specific vectors: shapes, strides, load order.
  SmallVector<int64_t, 4> v0, v1;
  /// Prebuilt value of constants.
  BufferRef constant;
  std::vector<CBlock> regions;
};

} // namespace

struct mlir::tile::exec::Executable::Impl {
  func::FuncOp kernel;
  std::vector<SlotInfo> slots;
  CBlock entry;
};

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {

class Compiler {
public:
  explicit Compiler(Executable::Impl &impl) : impl(impl) {}

  LogicalResult compileKernel();

private:
  Executable::Impl &impl;
  DenseMap<Value, unsigned> slotOf;

  FailureOr<unsigned> define(Value value, Operation *at);
  FailureOr<unsigned> use(Value value, Operation *at);
  const SlotInfo &info(unsigned slot) const { return impl.slots[slot]; }
  LogicalResult compileBlock(Block &block, CBlock &out, Operation *parent);
  LogicalResult compileOp(Operation *op, Instr &instr);
  LogicalResult compileRegion(Region &region, CBlock &out, Operation *parent);
  FailureOr<BufferRef> buildConstant(Operation *op, Attribute value,
                                     const SlotInfo &info);
};

} // namespace

// The largest tile the executor allocates is tile::kMaxTileElements (256 MiB
// of floats): a kernel with a bigger one is refused instead of exhausting
// the host's memory.

FailureOr<unsigned> Compiler::define(Value value, Operation *at) {
  Type type = value.getType();
  SlotInfo slot;
  if (auto view = dyn_cast<ViewType>(type)) {
    FailureOr<EK> kind = getMemoryElementKind(view.getElementType());
    if (failed(kind))
      return at->emitError()
             << "tile executor: views of " << view.getElementType()
             << " are not supported (i1, i8, i16, i32, i64, "
                "f16, bf16 and f32 are)";
    slot.kind = *kind;
    slot.isView = true;
  } else if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return at->emitError()
             << "tile executor: dynamic tile shape " << type
             << "; specialize the kernel (tile-specialize) first";
    std::optional<EK> kind = getValueKind(tensor.getElementType());
    if (!kind)
      return at->emitError() << "tile executor: unsupported element type "
                             << tensor.getElementType() << " in " << type;
    slot.kind = *kind;
    slot.shape = tensor.getShape();
    // getNumElements() would overflow for shapes such as 2^32 x 2^32.
    int64_t elements = 1;
    bool overflow = false;
    for (int64_t dim : tensor.getShape())
      overflow |= llvm::MulOverflow(elements, dim, elements);
    std::optional<int64_t> size =
        overflow ? std::nullopt : std::optional<int64_t>(elements);
    if (!size || *size > kMaxTileElements)
      return at->emitError()
             << "tile executor: tile " << type << " has "
             << (size ? std::to_string(*size) : std::string("more than 2^63"))
             << " elements, more than the " << kMaxTileElements
             << " the executor holds";
    slot.size = *size;
  } else {
    std::optional<EK> kind = getValueKind(type);
    if (!kind)
      return at->emitError() << "tile executor: unsupported type " << type;
    slot.kind = *kind;
  }
  unsigned id = impl.slots.size();
  impl.slots.push_back(slot);
  slotOf[value] = id;
  return id;
}

FailureOr<unsigned> Compiler::use(Value value, Operation *at) {
  auto it = slotOf.find(value);
  if (it == slotOf.end())
    return at->emitError() << "tile executor: operand defined outside the "
                              "kernel or after its use";
  return it->second;
}

LogicalResult Compiler::compileKernel() {
  func::FuncOp kernel = impl.kernel;
  if (kernel.isExternal())
    return kernel.emitError() << "tile executor: kernel has no body";
  if (kernel.getNumResults() != 0)
    return kernel.emitError() << "tile executor: a kernel returns nothing";
  for (Type type : kernel.getArgumentTypes())
    if (!isa<ViewType, IntegerType, IndexType, FloatType>(type))
      return kernel.emitError()
             << "tile executor: kernel arguments are views and scalars, got "
             << type;
  return compileRegion(kernel.getBody(), impl.entry, kernel);
}

LogicalResult Compiler::compileRegion(Region &region, CBlock &out,
                                      Operation *parent) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return parent->emitError()
           << "tile executor: regions with several blocks are not supported";
  return compileBlock(region.front(), out, parent);
}

LogicalResult Compiler::compileBlock(Block &block, CBlock &out,
                                     Operation *parent) {
  for (BlockArgument arg : block.getArguments()) {
    FailureOr<unsigned> slot = define(arg, parent);
    if (failed(slot))
      return failure();
    out.args.push_back(*slot);
  }
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (!isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp>(op))
        return op.emitError() << "tile executor: unsupported terminator '"
                              << op.getName() << "'";
      ValueRange operands = op.getOperands();
      if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
        FailureOr<unsigned> slot = use(condition.getCondition(), &op);
        if (failed(slot))
          return failure();
        out.condition = *slot;
        operands = condition.getArgs();
      }
      for (Value operand : operands) {
        FailureOr<unsigned> slot = use(operand, &op);
        if (failed(slot))
          return failure();
        out.yields.push_back(*slot);
      }
      continue;
    }
    Instr instr;
    instr.op = &op;
    for (Value operand : op.getOperands()) {
      FailureOr<unsigned> slot = use(operand, &op);
      if (failed(slot))
        return failure();
      instr.in.push_back(*slot);
    }
    if (failed(compileOp(&op, instr)))
      return failure();
    out.body.push_back(std::move(instr));
  }
  return success();
}

/// A float attribute value converted to `kind` with one rounding.
static float convertFloatAttr(const APFloat &value, EK kind) {
  APFloat converted = value;
  bool losesInfo;
  const llvm::fltSemantics &semantics = kind == EK::F16 ? APFloat::IEEEhalf()
                                        : kind == EK::BF16
                                            ? APFloat::BFloat()
                                            : APFloat::IEEEsingle();
  converted.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  bool ignored;
  converted.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &ignored);
  return converted.convertToFloat();
}

FailureOr<BufferRef> Compiler::buildConstant(Operation *op, Attribute value,
                                             const SlotInfo &slot) {
  int64_t n = slot.size;
  if (isFloatKind(slot.kind)) {
    auto buffer = newFloats(n);
    auto fill = [&](float v) {
      std::fill(buffer->f.get(), buffer->f.get() + n, v);
    };
    if (auto f = dyn_cast<FloatAttr>(value)) {
      fill(convertFloatAttr(f.getValue(), slot.kind));
    } else if (auto i = dyn_cast<IntegerAttr>(value)) {
      APFloat converted(APFloat::IEEEdouble());
      converted.convertFromAPInt(i.getValue(), /*isSigned=*/true,
                                 APFloat::rmNearestTiesToEven);
      fill(convertFloatAttr(converted, slot.kind));
    } else if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
      int64_t k = 0;
      for (const APFloat &element : dense.getValues<APFloat>())
        buffer->f[k++] = convertFloatAttr(element, slot.kind);
      if (dense.isSplat())
        fill(buffer->f[0]);
    } else {
      return op->emitError() << "tile executor: unsupported constant " << value;
    }
    return BufferRef(buffer);
  }
  auto buffer = newInts(n);
  unsigned width = widthOf(slot.kind);
  auto fill = [&](int64_t v) {
    std::fill(buffer->i.get(), buffer->i.get() + n, normalizeInt(v, width));
  };
  if (auto b = dyn_cast<BoolAttr>(value)) {
    fill(b.getValue() ? -1 : 0);
  } else if (auto i = dyn_cast<IntegerAttr>(value)) {
    fill(i.getValue().getBitWidth() == 1 ? -int64_t(i.getValue().getZExtValue())
                                         : i.getValue().getSExtValue());
  } else if (auto dense = dyn_cast<DenseIntElementsAttr>(value)) {
    int64_t k = 0;
    for (const APInt &element : dense.getValues<APInt>())
      buffer->i[k++] = normalizeInt(element.getBitWidth() == 1
                                        ? -int64_t(element.getZExtValue())
                                        : element.getSExtValue(),
                                    width);
    if (dense.isSplat())
      fill(buffer->i[0]);
  } else {
    return op->emitError() << "tile executor: unsupported constant " << value;
  }
  return BufferRef(buffer);
}

/// Row-major strides of `shape`.
static SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

LogicalResult Compiler::compileOp(Operation *op, Instr &instr) {
  // Results first: their slots give the static kinds and shapes.
  for (Value result : op->getResults()) {
    FailureOr<unsigned> slot = define(result, op);
    if (failed(slot))
      return failure();
    instr.out.push_back(*slot);
  }
  if (!instr.out.empty()) {
    instr.kind = info(instr.out[0]).kind;
    instr.n = info(instr.out[0]).size;
  }
  if (!instr.in.empty())
    instr.srcKind = info(instr.in[0]).kind;

  auto setBinaryF = [&](BinF kind) {
    instr.opc = Opc::BinaryF;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setUnaryF = [&](UnF kind) {
    instr.opc = Opc::UnaryF;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setBinaryI = [&](BinI kind) {
    instr.opc = Opc::BinaryI;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setConvert = [&](Conv kind) {
    instr.opc = Opc::Convert;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setConstant = [&](Attribute value) -> LogicalResult {
    FailureOr<BufferRef> buffer = buildConstant(op, value, info(instr.out[0]));
    if (failed(buffer))
      return failure();
    instr.opc = Opc::Const;
    instr.constant = *buffer;
    return success();
  };

  // Region ops.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    instr.opc = Opc::For;
    instr.flag = forOp.getUnsignedCmp();
    instr.srcKind = info(instr.in[0]).kind;
    instr.regions.resize(1);
    return compileRegion(forOp.getRegion(), instr.regions[0], op);
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    instr.opc = Opc::If;
    instr.regions.resize(2);
    if (failed(compileRegion(ifOp.getThenRegion(), instr.regions[0], op)) ||
        failed(compileRegion(ifOp.getElseRegion(), instr.regions[1], op)))
      return failure();
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    instr.opc = Opc::While;
    instr.regions.resize(2);
    if (failed(compileRegion(whileOp.getBefore(), instr.regions[0], op)) ||
        failed(compileRegion(whileOp.getAfter(), instr.regions[1], op)))
      return failure();
    return success();
  }
  if (op->getNumRegions() != 0)
    return op->emitError() << "tile executor: unsupported operation '"
                           << op->getName() << "'";

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // tile
      .Case([&](ParamOp param) -> LogicalResult {
        return param.emitError()
               << "tile executor: parameter '" << param.getName()
               << "' is unbound; specialize the kernel (tile-specialize) "
                  "before executing it";
      })
      .Case([&](BlockIdOp id) {
        instr.opc = Opc::BlockId;
        instr.a0 = static_cast<int64_t>(id.getDim());
        return success();
      })
      .Case([&](NumBlocksOp id) {
        instr.opc = Opc::NumBlocks;
        instr.a0 = static_cast<int64_t>(id.getDim());
        return success();
      })
      .Case([&](DimOp dim) {
        instr.opc = Opc::Dim;
        instr.a0 = dim.getDimension();
        return success();
      })
      .Case([&](IotaOp iota) -> LogicalResult {
        const SlotInfo &slot = info(instr.out[0]);
        int64_t dim = iota.getDimension();
        SmallVector<int64_t, 4> strides = rowMajorStrides(slot.shape);
        auto buffer = newInts(slot.size);
        for (int64_t k = 0; k < slot.size; ++k)
          buffer->i[k] = normalizeInt((k / strides[dim]) % slot.shape[dim],
                                      widthOf(slot.kind));
        instr.opc = Opc::Const;
        instr.constant = buffer;
        return success();
      })
      .Case([&](FullOp full) { return setConstant(full.getValue()); })
      .Case([&](SplatOp) {
        instr.opc = Opc::Splat;
        return success();
      })
      .Case([&](LoadOp load) {
        instr.opc = Opc::Load;
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        instr.v0.assign(shape.begin(), shape.end());
        if (std::optional<ArrayRef<int64_t>> order = load.getOrder())
          instr.v1.assign(order->begin(), order->end());
        else
          for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
            instr.v1.push_back(d);
        instr.a0 = static_cast<int64_t>(load.getPadding());
        return success();
      })
      .Case([&](StoreOp) {
        instr.opc = Opc::Store;
        const SlotInfo &value = info(instr.in[0]);
        instr.kind = value.kind;
        instr.n = value.size;
        instr.v0.assign(value.shape.begin(), value.shape.end());
        return success();
      })
      .Case([&](MmaOp) -> LogicalResult {
        instr.opc = Opc::Mma;
        const SlotInfo &a = info(instr.in[0]);
        const SlotInfo &b = info(instr.in[1]);
        if (a.shape.size() != 2 || b.shape.size() != 2 ||
            a.shape[1] != b.shape[0] || instr.kind != EK::F32 ||
            info(instr.out[0]).shape[0] != a.shape[0] ||
            info(instr.out[0]).shape[1] != b.shape[1])
          return op->emitError() << "tile executor: mma shapes do not agree";
        instr.a0 = a.shape[0];   // M
        instr.a1 = a.shape[1];   // K
        instr.v0 = {b.shape[1]}; // N
        return success();
      })
      .Case([&](Exp2Op exp2) {
        instr.opc = Opc::Exp2;
        instr.flag = exp2.getFlushToZero();
        return success();
      })
      .Case([&](DivOp div) {
        instr.opc = Opc::Div;
        instr.flag = div.getFlushToZero();
        instr.a0 = div.getRounding() != Rounding::nearest_even;
        return success();
      })
      .Case([&](ReduceOp reduce) {
        instr.opc = Opc::Reduce;
        const SlotInfo &source = info(instr.in[0]);
        int64_t axis = reduce.getAxis();
        int64_t outer = 1, inner = 1;
        for (int64_t d = 0; d < axis; ++d)
          outer *= source.shape[d];
        for (int64_t d = axis + 1;
             d < static_cast<int64_t>(source.shape.size()); ++d)
          inner *= source.shape[d];
        instr.v0 = {outer, source.shape[axis], inner};
        instr.sub = static_cast<uint8_t>(reduce.getKind());
        return success();
      })
      .Case([&](BroadcastOp) {
        instr.opc = Opc::StridedCopy;
        const SlotInfo &source = info(instr.in[0]);
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        SmallVector<int64_t, 4> strides = rowMajorStrides(source.shape);
        for (size_t d = 0; d < shape.size(); ++d)
          if (source.shape[d] != shape[d])
            strides[d] = 0;
        instr.v0.assign(shape.begin(), shape.end());
        instr.v1 = strides;
        return success();
      })
      .Case([&](PermuteOp permute) {
        instr.opc = Opc::StridedCopy;
        const SlotInfo &source = info(instr.in[0]);
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        SmallVector<int64_t, 4> strides = rowMajorStrides(source.shape);
        instr.v0.assign(shape.begin(), shape.end());
        for (int64_t d : permute.getPermutation())
          instr.v1.push_back(strides[d]);
        return success();
      })
      .Case([&](ReshapeOp) {
        instr.opc = Opc::Alias;
        return success();
      })
      .Case([&](tile::SelectOp) {
        instr.opc = Opc::Select;
        return success();
      })
      .Case([&](AsTypeOp) {
        EK from = instr.srcKind, to = instr.kind;
        if (isFloatKind(from) && isFloatKind(to))
          return setConvert(Conv::FloatToFloat);
        if (isFloatKind(from))
          return setConvert(to == EK::I1 ? Conv::FloatToBool
                                         : Conv::FloatToIntSigned);
        if (isFloatKind(to))
          return setConvert(from == EK::I1 ? Conv::IntToFloatUnsigned
                                           : Conv::IntToFloatSigned);
        return setConvert(from == EK::I1 ? Conv::IntToIntUnsigned
                                         : Conv::IntToIntSigned);
      })
      // arith
      .Case([&](arith::ConstantOp constant) {
        return setConstant(constant.getValue());
      })
      .Case([&](arith::AddFOp) { return setBinaryF(BinF::Add); })
      .Case([&](arith::SubFOp) { return setBinaryF(BinF::Sub); })
      .Case([&](arith::MulFOp) { return setBinaryF(BinF::Mul); })
      .Case([&](arith::DivFOp) { return setBinaryF(BinF::Div); })
      .Case([&](arith::RemFOp) { return setBinaryF(BinF::Rem); })
      .Case([&](arith::MaximumFOp) { return setBinaryF(BinF::Max); })
      .Case([&](arith::MinimumFOp) { return setBinaryF(BinF::Min); })
      .Case([&](arith::MaxNumFOp) { return setBinaryF(BinF::MaxNum); })
      .Case([&](arith::MinNumFOp) { return setBinaryF(BinF::MinNum); })
      .Case([&](arith::NegFOp) { return setUnaryF(UnF::Neg); })
      .Case([&](arith::AddIOp) { return setBinaryI(BinI::Add); })
      .Case([&](arith::SubIOp) { return setBinaryI(BinI::Sub); })
      .Case([&](arith::MulIOp) { return setBinaryI(BinI::Mul); })
      .Case([&](arith::DivSIOp) { return setBinaryI(BinI::DivS); })
      .Case([&](arith::DivUIOp) { return setBinaryI(BinI::DivU); })
      .Case([&](arith::RemSIOp) { return setBinaryI(BinI::RemS); })
      .Case([&](arith::RemUIOp) { return setBinaryI(BinI::RemU); })
      .Case([&](arith::CeilDivSIOp) { return setBinaryI(BinI::CeilDivS); })
      .Case([&](arith::CeilDivUIOp) { return setBinaryI(BinI::CeilDivU); })
      .Case([&](arith::FloorDivSIOp) { return setBinaryI(BinI::FloorDivS); })
      .Case([&](arith::MaxSIOp) { return setBinaryI(BinI::MaxS); })
      .Case([&](arith::MaxUIOp) { return setBinaryI(BinI::MaxU); })
      .Case([&](arith::MinSIOp) { return setBinaryI(BinI::MinS); })
      .Case([&](arith::MinUIOp) { return setBinaryI(BinI::MinU); })
      .Case([&](arith::AndIOp) { return setBinaryI(BinI::And); })
      .Case([&](arith::OrIOp) { return setBinaryI(BinI::Or); })
      .Case([&](arith::XOrIOp) { return setBinaryI(BinI::Xor); })
      .Case([&](arith::ShLIOp) { return setBinaryI(BinI::Shl); })
      .Case([&](arith::ShRSIOp) { return setBinaryI(BinI::ShrS); })
      .Case([&](arith::ShRUIOp) { return setBinaryI(BinI::ShrU); })
      .Case([&](arith::CmpFOp cmp) {
        instr.opc = Opc::CmpF;
        instr.sub = static_cast<uint8_t>(cmp.getPredicate());
        return success();
      })
      .Case([&](arith::CmpIOp cmp) {
        instr.opc = Opc::CmpI;
        instr.sub = static_cast<uint8_t>(cmp.getPredicate());
        return success();
      })
      .Case([&](arith::SelectOp select) {
        bool scalarCondition =
            !isa<RankedTensorType>(select.getCondition().getType());
        instr.opc = scalarCondition && isa<RankedTensorType>(select.getType())
                        ? Opc::SelectWhole
                        : Opc::Select;
        return success();
      })
      .Case([&](arith::ExtFOp) { return setConvert(Conv::FloatToFloat); })
      .Case([&](arith::TruncFOp truncf) -> LogicalResult {
        if (std::optional<arith::RoundingMode> mode = truncf.getRoundingmode())
          if (*mode != arith::RoundingMode::to_nearest_even)
            return truncf.emitError()
                   << "tile executor: only the to_nearest_even rounding mode "
                      "of arith.truncf is supported";
        return setConvert(Conv::FloatToFloat);
      })
      .Case([&](arith::ExtSIOp) { return setConvert(Conv::IntToIntSigned); })
      .Case([&](arith::TruncIOp) { return setConvert(Conv::IntToIntSigned); })
      .Case(
          [&](arith::IndexCastOp) { return setConvert(Conv::IntToIntSigned); })
      .Case([&](arith::ExtUIOp) { return setConvert(Conv::IntToIntUnsigned); })
      .Case([&](arith::IndexCastUIOp) {
        return setConvert(Conv::IntToIntUnsigned);
      })
      .Case([&](arith::SIToFPOp) { return setConvert(Conv::IntToFloatSigned); })
      .Case(
          [&](arith::UIToFPOp) { return setConvert(Conv::IntToFloatUnsigned); })
      .Case([&](arith::FPToSIOp) { return setConvert(Conv::FloatToIntSigned); })
      .Case(
          [&](arith::FPToUIOp) { return setConvert(Conv::FloatToIntUnsigned); })
      .Case([&](arith::BitcastOp) { return setConvert(Conv::Bitcast); })
      // math
      .Case([&](math::Exp2Op) { return setUnaryF(UnF::Exp2); })
      .Case([&](math::ExpOp) { return setUnaryF(UnF::Exp); })
      .Case([&](math::Log2Op) { return setUnaryF(UnF::Log2); })
      .Case([&](math::LogOp) { return setUnaryF(UnF::Log); })
      .Case([&](math::SqrtOp) { return setUnaryF(UnF::Sqrt); })
      .Case([&](math::RsqrtOp) { return setUnaryF(UnF::Rsqrt); })
      .Case([&](math::AbsFOp) { return setUnaryF(UnF::Abs); })
      .Case([&](math::TanhOp) { return setUnaryF(UnF::Tanh); })
      .Case([&](math::FloorOp) { return setUnaryF(UnF::Floor); })
      .Case([&](math::CeilOp) { return setUnaryF(UnF::Ceil); })
      .Case([&](math::CopySignOp) { return setBinaryF(BinF::CopySign); })
      .Case([&](math::FmaOp) {
        instr.opc = Opc::FmaF;
        return success();
      })
      .Case([&](math::AbsIOp) {
        instr.opc = Opc::UnaryI;
        instr.sub = static_cast<uint8_t>(UnI::Abs);
        return success();
      })
      .Default([&](Operation *) {
        return op->emitError() << "tile executor: unsupported operation '"
                               << op->getName() << "'";
      });
}

//===----------------------------------------------------------------------===//
// Interpretation
//===----------------------------------------------------------------------===//

namespace {

/// A runtime failure: where, and why.
struct RunError {
  Operation *op = nullptr;
  std::string message;
};

/// The state of one worker: a slot per SSA value, the current block.
class Frame {
public:
  Frame(const Executable::Impl &impl) : impl(impl), slots(impl.slots.size()) {}

  LogicalResult runBlock(const CBlock &block);

  const Executable::Impl &impl;
  std::vector<Val> slots;
  std::array<int64_t, 3> blockId = {0, 0, 0};
  std::array<int64_t, 3> numBlocks = {1, 1, 1};
  RunError error;

private:
  LogicalResult fail(const Instr &instr, std::string message) {
    error.op = instr.op;
    error.message = std::move(message);
    return failure();
  }
  LogicalResult exec(const Instr &instr);
  LogicalResult execFor(const Instr &instr);
  LogicalResult execIf(const Instr &instr);
  LogicalResult execWhile(const Instr &instr);
  LogicalResult execBinaryI(const Instr &instr);
  void execLoad(const Instr &instr);
  void execStore(const Instr &instr);
  void execConvert(const Instr &instr);

  const SlotInfo &info(unsigned slot) const { return impl.slots[slot]; }
  const Val &in(const Instr &instr, unsigned k) const {
    return slots[instr.in[k]];
  }
  void setOut(const Instr &instr, BufferRef buffer) {
    slots[instr.out[0]].buf = std::move(buffer);
  }
  int64_t scalarInt(unsigned slot) const { return slots[slot].buf->i[0]; }
  static BufferRef makeInt(int64_t value) {
    auto buffer = newInts(1);
    buffer->i[0] = value;
    return buffer;
  }
};

} // namespace

/// The 65536 f16 values, for loads.
static const float *halfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits)
      values[bits] = nm::halfToFloat(static_cast<uint16_t>(bits));
    return values;
  }();
  return table.data();
}

/// Visits the rows of a tile read from or written to a view: for each
/// row (all tile dimensions but the last), `row(at, offset, lo, hi, valid,
/// stride)` with `at` the index of the row's first tile element, `offset`
/// the view offset of the row's column 0 (meaningful only when `valid`, and
/// possibly outside the view), [lo, hi) the in-bounds columns and `stride`
/// the view stride between columns. Tile dimension i walks view dimension
/// order[i] from indices[i] * shape[i].
template <typename RowFn>
static void forEachViewRow(const ViewArg &view, ArrayRef<int64_t> shape,
                           ArrayRef<int64_t> order, ArrayRef<int64_t> indices,
                           RowFn row) {
  const int rank = shape.size();
  SmallVector<int64_t, 8> base(rank), size(rank), stride(rank), e(rank, 0);
  for (int d = 0; d < rank; ++d) {
    base[d] = indices[d] * shape[d];
    size[d] = view.sizes[order[d]];
    stride[d] = view.strides[order[d]];
  }
  const int last = rank - 1;
  const int64_t cols = shape[last];
  const int64_t lo = std::clamp<int64_t>(-base[last], 0, cols);
  const int64_t hi = std::clamp<int64_t>(size[last] - base[last], 0, cols);
  int64_t rows = 1;
  for (int d = 0; d < last; ++d)
    rows *= shape[d];
  for (int64_t r = 0; r < rows; ++r) {
    bool valid = true;
    int64_t offset = (base[last]) * stride[last];
    for (int d = 0; d < last; ++d) {
      int64_t c = base[d] + e[d];
      valid &= c >= 0 && c < size[d];
      offset += c * stride[d];
    }
    row(r * cols, offset, lo, hi, valid, stride[last]);
    for (int d = last - 1; d >= 0; --d) {
      if (++e[d] < shape[d])
        break;
      e[d] = 0;
    }
  }
}

void Frame::execLoad(const Instr &instr) {
  const ViewArg &view = *in(instr, 0).view;
  SmallVector<int64_t, 8> indices;
  for (size_t k = 1; k < instr.in.size(); ++k)
    indices.push_back(scalarInt(instr.in[k]));
  const EK kind = instr.kind;
  if (isFloatKind(kind)) {
    float pad = 0;
    switch (static_cast<Padding>(instr.a0)) {
    case Padding::zero:
      pad = 0;
      break;
    case Padding::neg_inf:
      pad = -INFINITY;
      break;
    case Padding::pos_inf:
      pad = INFINITY;
      break;
    case Padding::nan:
      pad = std::numeric_limits<float>::quiet_NaN();
      break;
    }
    auto buffer = newFloats(instr.n);
    float *dst = buffer->f.get();
    auto load = [&](auto convert, const auto *mem) {
      forEachViewRow(view, instr.v0, instr.v1, indices,
                     [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                         bool valid, int64_t stride) {
                       int64_t cols = instr.v0.back();
                       float *out = dst + at;
                       if (!valid) {
                         std::fill(out, out + cols, pad);
                         return;
                       }
                       std::fill(out, out + lo, pad);
                       for (int64_t c = lo; c < hi; ++c)
                         out[c] = convert(mem[offset + c * stride]);
                       std::fill(out + hi, out + cols, pad);
                     });
    };
    if (kind == EK::F16) {
      const float *table = halfTable();
      load([table](uint16_t bits) { return table[bits]; },
           static_cast<const uint16_t *>(view.data));
    } else if (kind == EK::BF16) {
      load([](uint16_t bits) { return nm::bfloat16ToFloat(bits); },
           static_cast<const uint16_t *>(view.data));
    } else {
      load([](float value) { return value; },
           static_cast<const float *>(view.data));
    }
    setOut(instr, buffer);
    return;
  }
  auto buffer = newInts(instr.n);
  int64_t *dst = buffer->i.get();
  auto load = [&](auto convert, const auto *mem) {
    forEachViewRow(view, instr.v0, instr.v1, indices,
                   [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                       bool valid, int64_t stride) {
                     int64_t cols = instr.v0.back();
                     int64_t *out = dst + at;
                     if (!valid) {
                       std::fill(out, out + cols, 0);
                       return;
                     }
                     std::fill(out, out + lo, 0);
                     for (int64_t c = lo; c < hi; ++c)
                       out[c] = convert(mem[offset + c * stride]);
                     std::fill(out + hi, out + cols, 0);
                   });
  };
  auto identity = [](auto value) { return static_cast<int64_t>(value); };
  switch (kind) {
  case EK::I1:
    load([](uint8_t value) { return value ? int64_t(-1) : int64_t(0); },
         static_cast<const uint8_t *>(view.data));
    break;
  case EK::I8:
    load(identity, static_cast<const int8_t *>(view.data));
    break;
  case EK::I16:
    load(identity, static_cast<const int16_t *>(view.data));
    break;
  case EK::I32:
    load(identity, static_cast<const int32_t *>(view.data));
    break;
  default:
    load(identity, static_cast<const int64_t *>(view.data));
    break;
  }
  setOut(instr, buffer);
}

void Frame::execStore(const Instr &instr) {
  const Val &value = in(instr, 0);
  const ViewArg &view = *in(instr, 1).view;
  SmallVector<int64_t, 8> indices, order;
  for (size_t k = 2; k < instr.in.size(); ++k)
    indices.push_back(scalarInt(instr.in[k]));
  for (int64_t d = 0; d < static_cast<int64_t>(instr.v0.size()); ++d)
    order.push_back(d);
  auto store = [&](const auto *src, auto convert, auto *mem) {
    forEachViewRow(view, instr.v0, order, indices,
                   [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                       bool valid, int64_t stride) {
                     if (!valid)
                       return;
                     for (int64_t c = lo; c < hi; ++c)
                       mem[offset + c * stride] = convert(src[at + c]);
                   });
  };
  switch (instr.kind) {
  case EK::F16:
    store(
        value.f(), [](float v) { return nm::floatToHalf(v); },
        static_cast<uint16_t *>(view.data));
    break;
  case EK::BF16:
    store(
        value.f(), [](float v) { return nm::floatToBFloat16(v); },
        static_cast<uint16_t *>(view.data));
    break;
  case EK::F32:
    store(
        value.f(), [](float v) { return v; }, static_cast<float *>(view.data));
    break;
  case EK::I1:
    store(
        value.i(), [](int64_t v) { return static_cast<uint8_t>(v & 1); },
        static_cast<uint8_t *>(view.data));
    break;
  case EK::I8:
    store(
        value.i(), [](int64_t v) { return static_cast<int8_t>(v); },
        static_cast<int8_t *>(view.data));
    break;
  case EK::I16:
    store(
        value.i(), [](int64_t v) { return static_cast<int16_t>(v); },
        static_cast<int16_t *>(view.data));
    break;
  case EK::I32:
    store(
        value.i(), [](int64_t v) { return static_cast<int32_t>(v); },
        static_cast<int32_t *>(view.data));
    break;
  case EK::I64:
    store(
        value.i(), [](int64_t v) { return v; },
        static_cast<int64_t *>(view.data));
    break;
  }
}

/// dst = src gathered with `strides` over `shape` (broadcast, permute).
template <typename T>
static void stridedCopy(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                        const T *src, T *dst) {
  const int rank = shape.size();
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int last = rank - 1;
  const int64_t cols = shape[last], stride = strides[last];
  int64_t rows = 1;
  for (int d = 0; d < last; ++d)
    rows *= shape[d];
  SmallVector<int64_t, 8> e(rank, 0);
  int64_t offset = 0;
  for (int64_t r = 0; r < rows; ++r, dst += cols) {
    const T *row = src + offset;
    if (stride == 1)
      std::copy(row, row + cols, dst);
    else if (stride == 0)
      std::fill(dst, dst + cols, row[0]);
    else
      for (int64_t c = 0; c < cols; ++c)
        dst[c] = row[c * stride];
    for (int d = last - 1; d >= 0; --d) {
      offset += strides[d];
      if (++e[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      e[d] = 0;
    }
  }
}

void Frame::execConvert(const Instr &instr) {
  const Val &src = in(instr, 0);
  const int64_t n = instr.n;
  const EK from = instr.srcKind, to = instr.kind;
  const unsigned fromWidth = widthOf(from), toWidth = widthOf(to);
  switch (static_cast<Conv>(instr.sub)) {
  case Conv::FloatToFloat: {
    auto buffer = newFloats(n);
    std::copy(src.f(), src.f() + n, buffer->f.get());
    roundFloats(to, buffer->f.get(), n);
    setOut(instr, buffer);
    return;
  }
  case Conv::IntToIntSigned:
  case Conv::IntToIntUnsigned: {
    bool isUnsigned = static_cast<Conv>(instr.sub) == Conv::IntToIntUnsigned;
    auto buffer = newInts(n);
    int64_t *dst = buffer->i.get();
    for (int64_t k = 0; k < n; ++k) {
      int64_t value =
          isUnsigned ? static_cast<int64_t>(unsignedInt(src.i()[k], fromWidth))
                     : src.i()[k];
      dst[k] = normalizeInt(value, toWidth);
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::IntToFloatSigned:
  case Conv::IntToFloatUnsigned: {
    bool isUnsigned = static_cast<Conv>(instr.sub) == Conv::IntToFloatUnsigned;
    auto buffer = newFloats(n);
    float *dst = buffer->f.get();
    for (int64_t k = 0; k < n; ++k) {
      int64_t value = src.i()[k];
      if (isUnsigned)
        dst[k] = intToFloat(to, false, unsignedInt(value, fromWidth));
      else
        dst[k] = intToFloat(to, value < 0,
                            value < 0 ? 0 - static_cast<uint64_t>(value)
                                      : static_cast<uint64_t>(value));
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::FloatToIntSigned:
  case Conv::FloatToIntUnsigned:
  case Conv::FloatToBool: {
    auto buffer = newInts(n);
    int64_t *dst = buffer->i.get();
    Conv conv = static_cast<Conv>(instr.sub);
    for (int64_t k = 0; k < n; ++k) {
      float value = src.f()[k];
      if (conv == Conv::FloatToBool)
        dst[k] = (!std::isnan(value) && std::trunc(value) != 0) ? -1 : 0;
      else
        dst[k] = floatToInt(value, toWidth, conv == Conv::FloatToIntUnsigned);
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::Bitcast: {
    // Same width on both sides (verified by arith.bitcast).
    auto bitsOf = [&](int64_t k) -> uint64_t {
      if (!isFloatKind(from))
        return unsignedInt(src.i()[k], fromWidth);
      float value = src.f()[k];
      if (from == EK::F16)
        return nm::floatToHalf(value);
      if (from == EK::BF16)
        return nm::floatToBFloat16(value);
      return nm::bitsOf(value);
    };
    if (isFloatKind(to)) {
      auto buffer = newFloats(n);
      for (int64_t k = 0; k < n; ++k) {
        uint64_t bits = bitsOf(k);
        buffer->f[k] = to == EK::F16    ? nm::halfToFloat(bits)
                       : to == EK::BF16 ? nm::bfloat16ToFloat(bits)
                                        : nm::fromBits(bits);
      }
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->i[k] = normalizeInt(static_cast<int64_t>(bitsOf(k)), toWidth);
      setOut(instr, buffer);
    }
    return;
  }
  }
}

template <typename F>
static BufferRef mapFloat2(const Val &a, const Val &b, int64_t n, EK kind,
                           F f) {
  auto buffer = newFloats(n);
  const float *x = a.f(), *y = b.f();
  float *z = buffer->f.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k], y[k]);
  roundFloats(kind, z, n);
  return buffer;
}

template <typename F>
static BufferRef mapFloat1(const Val &a, int64_t n, EK kind, F f) {
  auto buffer = newFloats(n);
  const float *x = a.f();
  float *z = buffer->f.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k]);
  roundFloats(kind, z, n);
  return buffer;
}

template <typename F>
static BufferRef mapInt2(const Val &a, const Val &b, int64_t n, EK kind, F f) {
  auto buffer = newInts(n);
  const int64_t *x = a.i(), *y = b.i();
  int64_t *z = buffer->i.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k], y[k]);
  normalizeInts(kind, z, n);
  return buffer;
}

LogicalResult Frame::execBinaryI(const Instr &instr) {
  const Val &a = in(instr, 0), &b = in(instr, 1);
  const int64_t n = instr.n;
  const EK kind = instr.kind;
  const unsigned w = widthOf(kind);
  const int64_t minValue = normalizeInt(int64_t(1) << (w - 1), w);
  auto u = [w](int64_t v) { return unsignedInt(v, w); };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  // Division: check the divisors (and the one overflowing quotient) first.
  auto checkDivision = [&](bool isSigned) -> LogicalResult {
    for (int64_t k = 0; k < n; ++k) {
      if (b.i()[k] == 0)
        return fail(instr, "integer division by zero");
      if (isSigned && b.i()[k] == -1 && a.i()[k] == minValue)
        return fail(instr, "signed integer division overflows");
    }
    return success();
  };
  auto checkShift = [&]() -> LogicalResult {
    for (int64_t k = 0; k < n; ++k)
      if (u(b.i()[k]) >= w)
        return fail(instr, "shift amount " + std::to_string(u(b.i()[k])) +
                               " is not below the bit width " +
                               std::to_string(w));
    return success();
  };
  BufferRef result;
  switch (static_cast<BinI>(instr.sub)) {
  case BinI::Add:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) + u(y)); });
    break;
  case BinI::Sub:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) - u(y)); });
    break;
  case BinI::Mul:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) * u(y)); });
    break;
  case BinI::DivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x / y; });
    break;
  case BinI::DivU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) / u(y)); });
    break;
  case BinI::RemS:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return y == -1 ? 0 : x % y; });
    break;
  case BinI::RemU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) % u(y)); });
    break;
  case BinI::CeilDivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) {
      int64_t q = x / y;
      if (x % y != 0 && ((x > 0) == (y > 0)))
        ++q;
      return q;
    });
    break;
  case BinI::CeilDivU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return wrap(u(x) / u(y) + (u(x) % u(y) != 0));
    });
    break;
  case BinI::FloorDivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) {
      int64_t q = x / y;
      if (x % y != 0 && ((x < 0) != (y < 0)))
        --q;
      return q;
    });
    break;
  case BinI::MaxS:
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return std::max(x, y); });
    break;
  case BinI::MinS:
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return std::min(x, y); });
    break;
  case BinI::MaxU:
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return u(x) >= u(y) ? x : y;
    });
    break;
  case BinI::MinU:
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return u(x) <= u(y) ? x : y;
    });
    break;
  case BinI::And:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x & y; });
    break;
  case BinI::Or:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x | y; });
    break;
  case BinI::Xor:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x ^ y; });
    break;
  case BinI::Shl:
    if (failed(checkShift()))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) << u(y)); });
    break;
  case BinI::ShrS:
    if (failed(checkShift()))
      return failure();
    result =
        mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) { return x >> u(y); });
    break;
  case BinI::ShrU:
    if (failed(checkShift()))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) >> u(y)); });
    break;
  }
  setOut(instr, std::move(result));
  return success();
}

LogicalResult Frame::exec(const Instr &instr) {
  const int64_t n = instr.n;
  const EK kind = instr.kind;
  switch (instr.opc) {
  case Opc::BlockId:
    setOut(instr, makeInt(normalizeInt(blockId[instr.a0], 32)));
    return success();
  case Opc::NumBlocks:
    setOut(instr, makeInt(normalizeInt(numBlocks[instr.a0], 32)));
    return success();
  case Opc::Dim:
    setOut(instr, makeInt(normalizeInt(in(instr, 0).view->sizes[instr.a0],
                                       widthOf(kind))));
    return success();
  case Opc::Const:
    setOut(instr, instr.constant);
    return success();
  case Opc::Splat: {
    const Val &value = in(instr, 0);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      std::fill(buffer->f.get(), buffer->f.get() + n, value.f()[0]);
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      std::fill(buffer->i.get(), buffer->i.get() + n, value.i()[0]);
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::Load:
    execLoad(instr);
    return success();
  case Opc::Store:
    execStore(instr);
    return success();
  case Opc::Mma: {
    const float *a = in(instr, 0).f(), *b = in(instr, 1).f();
    const float *acc = in(instr, 2).f();
    const int64_t m = instr.a0, k = instr.a1, cols = instr.v0[0];
    auto buffer = newFloats(n);
    float *c = buffer->f.get();
    std::copy(acc, acc + n, c);
    // c[i][j] = (((acc + a[i][0] b[0][j]) + a[i][1] b[1][j]) + ...): every
    // product of f16/bf16 values is exact in f32, every sum rounds in f32.
    for (int64_t i = 0; i < m; ++i) {
      float *cRow = c + i * cols;
      const float *aRow = a + i * k;
      for (int64_t kk = 0; kk < k; ++kk) {
        const float scale = aRow[kk];
        const float *bRow = b + kk * cols;
        for (int64_t j = 0; j < cols; ++j)
          cRow[j] += scale * bRow[j];
      }
    }
    setOut(instr, buffer);
    return success();
  }
  case Opc::Exp2: {
    bool ftz = instr.flag;
    setOut(instr, mapFloat1(in(instr, 0), n, kind,
                            [ftz](float x) { return exp2F(x, ftz); }));
    return success();
  }
  case Opc::Div: {
    bool ftz = instr.flag, approximate = instr.a0 != 0;
    setOut(instr, mapFloat2(in(instr, 0), in(instr, 1), n, kind,
                            [ftz, approximate](float x, float y) {
                              return divideF(x, y, approximate, ftz);
                            }));
    return success();
  }
  case Opc::Reduce: {
    const int64_t outer = instr.v0[0], len = instr.v0[1], inner = instr.v0[2];
    bool isMax = static_cast<ReduceKind>(instr.sub) == ReduceKind::max;
    const Val &src = in(instr, 0);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(outer * inner);
      float *dst = buffer->f.get();
      if (len == 0)
        std::fill(dst, dst + outer * inner, isMax ? -INFINITY : 0.0f);
      for (int64_t o = 0; o < outer && len > 0; ++o) {
        const float *s = src.f() + o * len * inner;
        float *d = dst + o * inner;
        std::copy(s, s + inner, d);
        for (int64_t r = 1; r < len; ++r) {
          const float *row = s + r * inner;
          if (isMax)
            for (int64_t c = 0; c < inner; ++c)
              d[c] = maximumF(d[c], row[c]);
          else
            for (int64_t c = 0; c < inner; ++c)
              d[c] += row[c];
        }
      }
      if (!isMax)
        roundFloats(kind, dst, outer * inner);
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(outer * inner);
      int64_t *dst = buffer->i.get();
      if (len == 0)
        std::fill(dst, dst + outer * inner,
                  isMax ? normalizeInt(int64_t(1) << (widthOf(kind) - 1),
                                       widthOf(kind))
                        : 0);
      for (int64_t o = 0; o < outer && len > 0; ++o) {
        const int64_t *s = src.i() + o * len * inner;
        int64_t *d = dst + o * inner;
        std::copy(s, s + inner, d);
        for (int64_t r = 1; r < len; ++r) {
          const int64_t *row = s + r * inner;
          for (int64_t c = 0; c < inner; ++c)
            d[c] = isMax ? std::max(d[c], row[c])
                         : static_cast<int64_t>(static_cast<uint64_t>(d[c]) +
                                                static_cast<uint64_t>(row[c]));
        }
      }
      normalizeInts(kind, dst, outer * inner);
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::StridedCopy: {
    const Val &src = in(instr, 0);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      stridedCopy(instr.v0, instr.v1, src.f(), buffer->f.get());
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      stridedCopy(instr.v0, instr.v1, src.i(), buffer->i.get());
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::Alias:
    setOut(instr, in(instr, 0).buf);
    return success();
  case Opc::Select: {
    const int64_t *cond = in(instr, 0).i();
    const Val &a = in(instr, 1), &b = in(instr, 2);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->f[k] = cond[k] ? a.f()[k] : b.f()[k];
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->i[k] = cond[k] ? a.i()[k] : b.i()[k];
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::SelectWhole:
    setOut(instr, in(instr, 0).i()[0] ? in(instr, 1).buf : in(instr, 2).buf);
    return success();
  case Opc::Convert:
    execConvert(instr);
    return success();
  case Opc::BinaryF: {
    const Val &a = in(instr, 0), &b = in(instr, 1);
    BufferRef result;
    switch (static_cast<BinF>(instr.sub)) {
    case BinF::Add:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x + y; });
      break;
    case BinF::Sub:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x - y; });
      break;
    case BinF::Mul:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x * y; });
      break;
    case BinF::Div:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x / y; });
      break;
    case BinF::Rem:
      result = mapFloat2(a, b, n, kind,
                         [](float x, float y) { return std::fmod(x, y); });
      break;
    case BinF::Max:
      result = mapFloat2(a, b, n, kind, maximumF);
      break;
    case BinF::Min:
      result = mapFloat2(a, b, n, kind, minimumF);
      break;
    case BinF::MaxNum:
      result = mapFloat2(a, b, n, kind, maxNumF);
      break;
    case BinF::MinNum:
      result = mapFloat2(a, b, n, kind, minNumF);
      break;
    case BinF::CopySign:
      result = mapFloat2(a, b, n, kind,
                         [](float x, float y) { return std::copysign(x, y); });
      break;
    }
    setOut(instr, std::move(result));
    return success();
  }
  case Opc::UnaryF: {
    const Val &a = in(instr, 0);
    BufferRef result;
    switch (static_cast<UnF>(instr.sub)) {
    case UnF::Neg:
      result = mapFloat1(a, n, kind, [](float x) { return -x; });
      break;
    case UnF::Abs:
      result = mapFloat1(a, n, kind, [](float x) { return std::fabs(x); });
      break;
    case UnF::Exp2:
      result = mapFloat1(a, n, kind, [](float x) { return std::exp2(x); });
      break;
    case UnF::Exp:
      result = mapFloat1(a, n, kind, [](float x) { return std::exp(x); });
      break;
    case UnF::Log2:
      result = mapFloat1(a, n, kind, [](float x) { return std::log2(x); });
      break;
    case UnF::Log:
      result = mapFloat1(a, n, kind, [](float x) { return std::log(x); });
      break;
    case UnF::Sqrt:
      result = mapFloat1(a, n, kind, [](float x) { return std::sqrt(x); });
      break;
    case UnF::Rsqrt:
      result =
          mapFloat1(a, n, kind, [](float x) { return 1.0f / std::sqrt(x); });
      break;
    case UnF::Tanh:
      result = mapFloat1(a, n, kind, [](float x) { return std::tanh(x); });
      break;
    case UnF::Floor:
      result = mapFloat1(a, n, kind, [](float x) { return std::floor(x); });
      break;
    case UnF::Ceil:
      result = mapFloat1(a, n, kind, [](float x) { return std::ceil(x); });
      break;
    }
    setOut(instr, std::move(result));
    return success();
  }
  case Opc::FmaF: {
    const float *x = in(instr, 0).f(), *y = in(instr, 1).f(),
                *z = in(instr, 2).f();
    auto buffer = newFloats(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->f[k] = std::fma(x[k], y[k], z[k]);
    roundFloats(kind, buffer->f.get(), n);
    setOut(instr, buffer);
    return success();
  }
  case Opc::CmpF: {
    auto predicate = static_cast<arith::CmpFPredicate>(instr.sub);
    const float *x = in(instr, 0).f(), *y = in(instr, 1).f();
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = compareFloat(predicate, x[k], y[k]) ? -1 : 0;
    setOut(instr, buffer);
    return success();
  }
  case Opc::CmpI: {
    auto predicate = static_cast<arith::CmpIPredicate>(instr.sub);
    const int64_t *x = in(instr, 0).i(), *y = in(instr, 1).i();
    unsigned width = widthOf(instr.srcKind);
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = compareInt(predicate, x[k], y[k], width) ? -1 : 0;
    setOut(instr, buffer);
    return success();
  }
  case Opc::BinaryI:
    return execBinaryI(instr);
  case Opc::UnaryI: {
    const int64_t *x = in(instr, 0).i();
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = x[k] < 0
                         ? static_cast<int64_t>(0 - static_cast<uint64_t>(x[k]))
                         : x[k];
    normalizeInts(kind, buffer->i.get(), n);
    setOut(instr, buffer);
    return success();
  }
  case Opc::For:
    return execFor(instr);
  case Opc::If:
    return execIf(instr);
  case Opc::While:
    return execWhile(instr);
  }
  return fail(instr, "unknown instruction");
}

/// Moves the values of `from` slots into `to` slots (through a copy, so
/// that permuted yields work).
static void transfer(std::vector<Val> &slots, ArrayRef<unsigned> from,
                     ArrayRef<unsigned> to) {
  SmallVector<Val, 8> values;
  for (unsigned slot : from)
    values.push_back(slots[slot]);
  for (auto [slot, value] : llvm::zip(to, values))
    slots[slot] = std::move(value);
}

LogicalResult Frame::execFor(const Instr &instr) {
  const CBlock &body = instr.regions[0];
  const int64_t lower = scalarInt(instr.in[0]), upper = scalarInt(instr.in[1]),
                step = scalarInt(instr.in[2]);
  const unsigned width = widthOf(instr.srcKind);
  if (instr.flag ? unsignedInt(step, width) == 0 : step <= 0)
    return fail(instr,
                "scf.for step must be positive, got " + std::to_string(step));
  ArrayRef<unsigned> inits = ArrayRef<unsigned>(instr.in).drop_front(3);
  ArrayRef<unsigned> iterArgs = ArrayRef<unsigned>(body.args).drop_front(1);
  transfer(slots, inits, iterArgs);
  const bool isUnsigned = instr.flag;
  int64_t iv = lower;
  while (isUnsigned ? unsignedInt(iv, width) < unsignedInt(upper, width)
                    : iv < upper) {
    slots[body.args[0]].buf = makeInt(iv);
    if (failed(runBlock(body)))
      return failure();
    transfer(slots, body.yields, iterArgs);
    int64_t next =
        normalizeInt(static_cast<int64_t>(static_cast<uint64_t>(iv) +
                                          static_cast<uint64_t>(step)),
                     width);
    // Stop when the induction variable would wrap around.
    if (isUnsigned ? unsignedInt(next, width) <= unsignedInt(iv, width)
                   : next <= iv)
      break;
    iv = next;
  }
  transfer(slots, iterArgs, instr.out);
  return success();
}

LogicalResult Frame::execIf(const Instr &instr) {
  const CBlock &branch =
      scalarInt(instr.in[0]) ? instr.regions[0] : instr.regions[1];
  if (failed(runBlock(branch)))
    return failure();
  if (!instr.out.empty())
    transfer(slots, branch.yields, instr.out);
  return success();
}

LogicalResult Frame::execWhile(const Instr &instr) {
  const CBlock &before = instr.regions[0], &after = instr.regions[1];
  transfer(slots, instr.in, before.args);
  while (true) {
    if (failed(runBlock(before)))
      return failure();
    if (!scalarInt(before.condition)) {
      transfer(slots, before.yields, instr.out);
      return success();
    }
    transfer(slots, before.yields, after.args);
    if (failed(runBlock(after)))
      return failure();
    transfer(slots, after.yields, before.args);
  }
}

LogicalResult Frame::runBlock(const CBlock &block) {
  for (const Instr &instr : block.body)
    if (failed(exec(instr)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

Executable::Executable(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Executable::~Executable() = default;

func::FuncOp Executable::getKernel() const { return impl->kernel; }

FailureOr<std::unique_ptr<Executable>>
Executable::compile(func::FuncOp kernel) {
  auto impl = std::make_unique<Impl>();
  impl->kernel = kernel;
  if (failed(Compiler(*impl).compileKernel()))
    return failure();
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

/// The runtime value of a scalar argument of `type`.
static BufferRef scalarArg(Type type, const KernelArg &arg) {
  EK kind = *getValueKind(type);
  if (isFloatKind(kind)) {
    auto buffer = newFloats(1);
    buffer->f[0] = roundFloat(kind, static_cast<float>(arg.floatValue));
    return buffer;
  }
  auto buffer = newInts(1);
  buffer->i[0] = normalizeInt(arg.intValue, widthOf(kind));
  return buffer;
}

LogicalResult Executable::run(ArrayRef<KernelArg> args,
                              const RunOptions &options) const {
  func::FuncOp kernel = impl->kernel;
  if (args.size() != kernel.getNumArguments())
    return kernel.emitError()
           << "tile executor: the kernel takes " << kernel.getNumArguments()
           << " arguments, got " << args.size();
  const CBlock &entry = impl->entry;
  std::vector<Val> argValues(args.size());
  for (auto [index, arg] : llvm::enumerate(args)) {
    Type type = kernel.getArgument(index).getType();
    auto fail = [&, index = index]() {
      return kernel.emitError()
             << "tile executor: argument " << index << " (" << type << "): ";
    };
    if (auto view = dyn_cast<ViewType>(type)) {
      if (arg.kind != KernelArg::Kind::View)
        return fail() << "expected a view";
      const ViewArg &v = arg.view;
      if (v.sizes.size() != view.getRank() ||
          v.strides.size() != view.getRank())
        return fail() << "expected rank " << view.getRank() << ", got "
                      << v.sizes.size() << " sizes and " << v.strides.size()
                      << " strides";
      if (v.element != *getMemoryElementKind(view.getElementType()))
        return fail() << "the view's memory has another element type";
      bool empty = false;
      for (int64_t size : v.sizes) {
        if (size < 0 || size > std::numeric_limits<int32_t>::max())
          return fail() << "view sizes must be in [0, 2^31)";
        empty |= size == 0;
      }
      if (!v.data && !empty)
        return fail() << "null data";
      argValues[index].view = &v;
      continue;
    }
    bool isFloat = isa<FloatType>(type);
    if (arg.kind != (isFloat ? KernelArg::Kind::Float : KernelArg::Kind::Int))
      return fail() << "expected " << (isFloat ? "a float" : "an integer");
    argValues[index].buf = scalarArg(type, arg);
  }
  int64_t total = 1;
  for (int64_t size : options.grid) {
    if (size < 0 || size > std::numeric_limits<int32_t>::max())
      return kernel.emitError() << "tile executor: grid sizes must be in "
                                   "[0, 2^31), got "
                                << size;
    if (size != 0 && total > (int64_t(1) << 40) / size)
      return kernel.emitError()
             << "tile executor: the grid has more than 2^40 blocks";
    total *= size;
  }
  if (total == 0)
    return success();

  unsigned threads = options.numThreads;
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<int64_t>(threads, total));

  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex errorMutex;
  int64_t errorBlock = -1;
  RunError firstError;
  const auto grid = options.grid;
  auto worker = [&]() {
    Frame frame(*impl);
    for (auto [slot, value] : llvm::zip(entry.args, argValues))
      frame.slots[slot] = value;
    frame.numBlocks = grid;
    while (!stop.load(std::memory_order_relaxed)) {
      int64_t block = next.fetch_add(1);
      if (block >= total)
        return;
      frame.blockId = {block % grid[0], (block / grid[0]) % grid[1],
                       block / (grid[0] * grid[1])};
      if (failed(frame.runBlock(entry))) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (errorBlock < 0 || block < errorBlock) {
          errorBlock = block;
          firstError = frame.error;
        }
        stop = true;
        return;
      }
    }
  };
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(worker);
    for (std::thread &thread : pool)
      thread.join();
  }
  if (errorBlock >= 0) {
    Operation *at = firstError.op ? firstError.op : kernel.getOperation();
    return at->emitError() << "tile executor: " << firstError.message
                           << " (block " << errorBlock % grid[0] << ", "
                           << (errorBlock / grid[0]) % grid[1] << ", "
                           << errorBlock / (grid[0] * grid[1]) << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

LogicalResult mlir::tile::exec::parseKernelPipeline(StringRef pipeline,
                                                    OpPassManager &pm,
                                                    raw_ostream &errorStream) {
  // Split the top-level list at commas outside parentheses and braces.
  SmallVector<StringRef> elements;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= pipeline.size(); ++i) {
    char c = i < pipeline.size() ? pipeline[i] : ',';
    if (c == '(' || c == '{')
      ++depth;
    else if (c == ')' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      StringRef element = pipeline.slice(start, i).trim();
      if (!element.empty())
        elements.push_back(element);
      start = i + 1;
    }
  }
  if (depth != 0) {
    errorStream << "unbalanced parentheses or braces";
    return failure();
  }
  for (StringRef element : elements) {
    std::string error;
    llvm::raw_string_ostream errors(error);
    if (succeeded(parsePassPipeline(element, pm, errors)))
      continue;
    // A pass anchored on func.func: nest it.
    std::string nestedError;
    llvm::raw_string_ostream nestedErrors(nestedError);
    if (succeeded(parsePassPipeline(
            (func::FuncOp::getOperationName() + "(" + element + ")").str(), pm,
            nestedErrors)))
      continue;
    errorStream << error;
    return failure();
  }
  return success();
}
