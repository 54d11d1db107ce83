//===- Program.h - the executor's compiled program --------------*- C++ -*-===//
//
// Internal to the executor: what `Executable::compile` produces and the
// interpreter runs. Every SSA value of the kernel has a slot (`SlotInfo`:
// element kind, shape, size, known statically); each op becomes an `Instr`
// (an opcode, operand/result slots and its attributes, pre-decoded;
// constants prebuilt); regions become `CBlock`s. At run time a slot holds a
// `Val`: an immutable shared buffer (floats for f16/bf16/f32, sign-extended
// int64_t for integers and index; i1 true is -1), so that reshape is free,
// or a view argument.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_EXECUTOR_PROGRAM_H
#define TILE_LIB_EXECUTOR_PROGRAM_H

#include "Numerics.h"

#include "mlir/IR/Operation.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace mlir {
namespace tile {
namespace exec {

//===----------------------------------------------------------------------===//
// The compiled program
//===----------------------------------------------------------------------===//

/// Storage of a tile or scalar: floats or canonical integers, never both.
struct Buffer {
  std::unique_ptr<float[]> f;
  std::unique_ptr<int64_t[]> i;
};
using BufferRef = std::shared_ptr<const Buffer>;

inline std::shared_ptr<Buffer> newFloats(int64_t n) {
  auto buffer = std::make_shared<Buffer>();
  buffer->f.reset(new float[std::max<int64_t>(n, 1)]);
  return buffer;
}

inline std::shared_ptr<Buffer> newInts(int64_t n) {
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
  Read,    // tile.read: one element of a view
  Gather,  // tile.gather
  Scatter, // tile.scatter
  Atomic,  // tile.atomic (tile or scalar)
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
  MulHiU,
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
  /// Work units of one execution (instrWork), the bodies of regions aside.
  uint64_t work = 1;
};

/// The work units of dispatching an op or starting a loop iteration: the
/// interpreter spends about as long on it (a buffer allocated, slots moved)
/// as on 16 element operations.
constexpr uint64_t kDispatchWork = 16;

/// The work of one execution of `instr`, in the units of the work limit
/// (RunOptions::maxWork): its dispatch plus one per element the op computes
/// (per multiply-add of a tile.mma, per input element of a reduction).
/// Constants, aliases, scalar ids and region ops cost their dispatch only;
/// their bodies count where they run. Saturates.
inline uint64_t instrWork(const Instr &instr) {
  auto times = [](uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX / 2 : r;
  };
  uint64_t elements = static_cast<uint64_t>(instr.n);
  switch (instr.opc) {
  case Opc::Const:
  case Opc::Alias:
  case Opc::SelectWhole:
  case Opc::BlockId:
  case Opc::NumBlocks:
  case Opc::Dim:
  case Opc::For:
  case Opc::If:
  case Opc::While:
    return kDispatchWork;
  case Opc::Mma:
    elements += times(times(instr.a0, instr.a1), instr.v0[0]);
    break;
  case Opc::Reduce:
    elements = times(times(instr.v0[0], instr.v0[1]), instr.v0[2]);
    break;
  case Opc::Read:
    return kDispatchWork;
  default:
    break;
  }
  return std::min<uint64_t>(elements, UINT64_MAX / 2) + kDispatchWork;
}

struct Executable::Impl {
  func::FuncOp kernel;
  std::vector<SlotInfo> slots;
  CBlock entry;
  /// The kernel has atomics: its blocks run one after another, in order,
  /// so that results do not depend on the interleaving of workers.
  bool sequential = false;
};

} // namespace exec
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_EXECUTOR_PROGRAM_H
