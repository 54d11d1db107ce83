//===- Executor.h - the CPU reference executor of tile IR -------*- C++ -*-===//
//
// Runs a specialized tile kernel (every shape static, no `tile.param` left)
// directly on host arrays: a grid of blocks, each block executing the
// kernel function with `tile.block_id`/`tile.num_blocks` set. It is the
// oracle that lets tests without a GPU prove that the kernel computes what
// it should and that every tile-level pass preserves it.
//
// Numerics emulate the GPU's types, deterministically:
//   - f32 operations are evaluated in float (never double), one IEEE
//     operation per op, in program order; an op carrying
//     `fastmath<contract>` is still evaluated exactly as written (no
//     fusion), which is one of the results the GPU may legally produce.
//   - f16/bf16 values are held as floats that are exactly representable in
//     their type: every op producing them rounds to nearest even (loads,
//     `astype`, `arith.truncf`, arithmetic on f16/bf16 tiles).
//   - `tile.mma` multiplies f16/bf16 inputs exactly (the products are exact
//     in f32) and accumulates in f32, k in increasing order, starting from
//     the accumulator.
//   - `tile.exp2` is exp2f; with `flush_to_zero`, subnormal inputs and
//     results are flushed to zero (as `ex2.approx.ftz.f32` does).
//   - `tile.div` `nearest_even` is IEEE f32 division; `full` and `approx`
//     are evaluated as a * (1.0f / b) (with flush-to-zero of inputs and
//     result when `flush_to_zero` is set): this approximates, but does not
//     reproduce bit for bit, the hardware's `div.full.f32`/`div.approx.f32`.
//   - `tile.reduce` folds in increasing index order (sum in f32; max
//     propagates NaN and orders -0 below +0, as arith.maximumf does).
//   - float -> integer conversions truncate toward zero and saturate (NaN
//     gives 0), as PTX `cvt.rzi` does; i1 converts to 0/1 in `tile.astype`.
//
// Blocks may run in parallel on several threads. Each block computes
// independently and writes what it stores, so the results are bitwise the
// same for any thread count, provided no two blocks store to the same
// element (a data race on the GPU too).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXECUTOR_EXECUTOR_H
#define TILE_EXECUTOR_EXECUTOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <cstdint>
#include <memory>

namespace mlir {
namespace tile {
namespace exec {

/// Element types of view memory on the host. I1 is one byte (0 or 1);
/// F16/BF16 are their 16-bit patterns, F8E4M3FN/F8E5M2 their 8-bit ones.
/// The float kinds come last (from F16 on).
enum class ElementKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F8E4M3FN,
  F8E5M2
};

/// The memory element kind of `type`, or failure for types the executor
/// cannot hold in memory.
FailureOr<ElementKind> getMemoryElementKind(Type type);

/// Bytes per element of view memory.
int getElementBytes(ElementKind kind);

/// A strided tensor in host memory, the argument of a `!tile.view`.
struct ViewArg {
  void *data = nullptr;
  ElementKind element = ElementKind::F32;
  SmallVector<int64_t, 4> sizes;
  /// In elements, per dimension.
  SmallVector<int64_t, 4> strides;
};

/// One kernel argument: a view, or a scalar (integers of any width and
/// index as int64_t, floats as double, rounded to the argument's type).
struct KernelArg {
  enum class Kind { View, Int, Float };
  Kind kind = Kind::Int;
  ViewArg view;
  int64_t intValue = 0;
  double floatValue = 0;

  static KernelArg getView(ViewArg view);
  static KernelArg getInt(int64_t value);
  static KernelArg getFloat(double value);
};

struct RunOptions {
  /// Blocks along x, y, z.
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Worker threads over the grid; 0 uses std::thread::hardware_concurrency.
  unsigned numThreads = 0;
  /// The most work units the run may do (0: no limit). A unit is about one
  /// element operation: each op costs 16 for its dispatch plus the elements
  /// it computes (a tile.mma its multiply-adds, a reduction its input
  /// elements), each loop iteration 16. A run that passes the limit stops
  /// with an error.
  uint64_t maxWork = 0;
  /// When set, receives the work units the run did.
  uint64_t *workDone = nullptr;
};

/// The tools' default work limit (tile-exec and tile-runner's cpu backend,
/// `--max-work`): 2^32 units, about 5 s of one core (measured: the fmha
/// kernel 0.85e9 units a second, a scalar loop 0.6e9; issue 11 asks that no
/// run go past 20 s). The largest test run (fmha-long) is 3.5e9.
constexpr uint64_t kDefaultMaxWork = uint64_t(1) << 32;

/// The work a run would do, counted before it starts (Executable::
/// estimateWork).
struct WorkEstimate {
  /// Work units, as RunOptions::maxWork counts them; saturates.
  uint64_t work = 0;
  /// False when `work` is only a lower bound: a loop whose trip count
  /// depends on view data, or counting stopped after 2^22 steps of its own
  /// (an scf.while that runs long, many iterations or blocks whose work
  /// differs).
  bool complete = true;
};

/// A kernel prepared for execution. It refers to the IR it was compiled
/// from, which must outlive it and stay unchanged.
class Executable {
public:
  /// Checks that every op of `kernel` is supported and every type static,
  /// and prepares the ops for fast interpretation. Emits located errors.
  static FailureOr<std::unique_ptr<Executable>> compile(func::FuncOp kernel);

  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  /// Runs every block of the grid. Errors (bad arguments, integer division
  /// by zero, the work limit, ...) are emitted at the kernel or at the
  /// failing op.
  LogicalResult run(ArrayRef<KernelArg> args, const RunOptions &options) const;

  /// The work run(args, options) would do, without running it and without
  /// reading view memory (views may have no data yet): it evaluates the
  /// scalar arithmetic that decides the control flow (block ids, view sizes,
  /// loop bounds) and counts every op, multiplying loop bodies whose work
  /// does not depend on the iteration by their trip counts. An scf.if on
  /// view data counts its costlier branch. Counting stops after 2^22 steps
  /// of its own (well under a second). Bad arguments are emitted as by run().
  FailureOr<WorkEstimate> estimateWork(ArrayRef<KernelArg> args,
                                       const RunOptions &options) const;

  func::FuncOp getKernel() const;

  struct Impl;

private:
  explicit Executable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace exec
} // namespace tile
} // namespace mlir

#endif // TILE_EXECUTOR_EXECUTOR_H
