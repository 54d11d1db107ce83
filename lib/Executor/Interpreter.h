//===- Interpreter.h - one worker of the executor ---------------*- C++ -*-===//
//
// Internal to the executor: the state of one worker thread (`Frame`: a slot
// per SSA value, the block of the grid it runs) and its entry point,
// `runBlock`, which interprets the program's instructions (Interpreter.cpp,
// InterpreterMemory.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_EXECUTOR_INTERPRETER_H
#define TILE_LIB_EXECUTOR_INTERPRETER_H

#include "Program.h"

#include <array>
#include <atomic>
#include <string>
#include <vector>

namespace mlir {
namespace tile {
namespace exec {

//===----------------------------------------------------------------------===//
// Interpretation
//===----------------------------------------------------------------------===//

/// Work a worker does between two additions to the run's total: the limit
/// is checked that often (and before any op bigger than this).
constexpr uint64_t kWorkChunk = uint64_t(1) << 16;

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

  /// Adds the pending work to the run's total; fails (at `at`, or at the
  /// kernel) once the total passes maxWork.
  LogicalResult flushWork(const Instr *at);

  const Executable::Impl &impl;
  std::vector<Val> slots;
  std::array<int64_t, 3> blockId = {0, 0, 0};
  std::array<int64_t, 3> numBlocks = {1, 1, 1};
  RunError error;
  /// Work units (instrWork) done and not yet added to *sharedWork, the
  /// run's total; maxWork is its limit (0: none).
  uint64_t pendingWork = 0;
  std::atomic<uint64_t> *sharedWork = nullptr;
  uint64_t maxWork = 0;

private:
  friend class Estimator;

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
  void execRead(const Instr &instr);
  void execGather(const Instr &instr);
  void execScatter(const Instr &instr);
  void execAtomic(const Instr &instr);
  void execReduce(const Instr &instr);
  int64_t indexedOffset(const Instr &instr, const ViewArg &view, unsigned first,
                        int mask, int64_t e) const;
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

/// The runtime values of the kernel's arguments, checked against its
/// signature (errors at the kernel). View memory may be null unless
/// `needData`.
LogicalResult bindArguments(const Executable::Impl &impl,
                            ArrayRef<KernelArg> args, bool needData,
                            std::vector<Val> &argValues);

/// The blocks of `grid`, at most 2^20 (errors at the kernel).
FailureOr<int64_t> countBlocks(func::FuncOp kernel,
                               const std::array<int64_t, 3> &grid);

} // namespace exec
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_EXECUTOR_INTERPRETER_H
