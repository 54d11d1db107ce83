//===- WorkEstimate.cpp - the work of a run, counted before it ------------===//
//
// `Executable::estimateWork`: the work units (instrWork, Program.h) a run
// would do, so that the tools refuse a run that would take hours before it
// starts (issue 11). It walks the program as the interpreter does, without
// view memory: scalar values that decide the control flow (block ids, view
// sizes, loop bounds and what is computed from them) are evaluated with the
// interpreter's own code, everything else only counted.
//
// A loop body (and the kernel over the grid) is first counted once with its
// induction variable and carried values (the block ids) unknown; when no
// decision of that count depended on an unknown value, every iteration
// (block) does the same work and the count is multiplied. Otherwise it is
// counted iteration by iteration (block by block), so that triangular loops
// (a causal mask's bound is the block id) are exact.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

namespace mlir {
namespace tile {
namespace exec {

/// Steps (ops and iterations visited) after which counting stops: about a
/// second, far less than any run the estimate could refuse.
constexpr uint64_t kMaxEstimateSteps = uint64_t(1) << 22;
/// Ops up to this work are evaluated when their operands are known (scalars,
/// small tiles); bigger ones only counted.
constexpr uint64_t kMaxEvaluatedWork = kDispatchWork + 64;

static uint64_t addWork(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t mulWork(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

class Estimator {
public:
  explicit Estimator(const Executable::Impl &impl)
      : frame(impl), known(impl.slots.size(), false) {}

  /// The work of running `block` once.
  uint64_t block(const CBlock &block);

  /// Holds the values of known slots (and the block ids when known).
  Frame frame;
  /// Whether a slot holds its runtime value.
  std::vector<bool> known;
  bool blockIdKnown = false;
  /// Decisions taken on unknown values: a count that took none holds for
  /// every value of what was unknown.
  uint64_t guesses = 0;
  bool complete = true;
  bool stopped = false;

private:
  void stop() {
    stopped = true;
    complete = false;
  }
  bool takeStep() {
    if (++steps > kMaxEstimateSteps)
      stop();
    return !stopped;
  }
  void evaluate(const Instr &instr);
  uint64_t forLoop(const Instr &instr);
  uint64_t ifOp(const Instr &instr);
  uint64_t whileLoop(const Instr &instr);
  /// Values and knowledge of `from` into `to`, through a copy (permuted
  /// yields).
  void copy(ArrayRef<unsigned> from, ArrayRef<unsigned> to);
  void forget(ArrayRef<unsigned> slots) {
    for (unsigned slot : slots)
      known[slot] = false;
  }

  uint64_t steps = 0;
};

} // namespace exec
} // namespace tile
} // namespace mlir

void Estimator::copy(ArrayRef<unsigned> from, ArrayRef<unsigned> to) {
  SmallVector<std::pair<Val, bool>, 8> values;
  for (unsigned slot : from)
    values.push_back({frame.slots[slot], known[slot]});
  for (auto [slot, value] : llvm::zip(to, values)) {
    frame.slots[slot] = value.first;
    known[slot] = value.second;
  }
}

void Estimator::evaluate(const Instr &instr) {
  bool evaluable = llvm::all_of(instr.in, [&](unsigned s) { return known[s]; });
  switch (instr.opc) {
  case Opc::BlockId:
    evaluable = blockIdKnown;
    break;
  case Opc::Load:
  case Opc::Store:
  case Opc::Read:
  case Opc::Gather:
  case Opc::Scatter:
  case Opc::Atomic:
    evaluable = false; // view data, and writes the estimate must not make
    break;
  case Opc::SelectWhole:
    // A known condition picks a value, known or not.
    if (known[instr.in[0]]) {
      (void)frame.exec(instr);
      known[instr.out[0]] =
          known[instr.in[frame.scalarInt(instr.in[0]) ? 1 : 2]];
      return;
    }
    break;
  default:
    evaluable &= instr.work <= kMaxEvaluatedWork;
    break;
  }
  // A failing op (division by zero) fails the run; its value is unknown.
  bool done = evaluable && succeeded(frame.exec(instr));
  for (unsigned slot : instr.out)
    known[slot] = done;
}

/// Iterations of an scf.for from `lower` to `upper` by `step`, as
/// Frame::execFor runs them (none for a step it refuses).
static uint64_t tripCount(int64_t lower, int64_t upper, int64_t step,
                          unsigned width, bool isUnsigned) {
  uint64_t lo, hi, by;
  if (isUnsigned) {
    lo = unsignedInt(lower, width);
    hi = unsignedInt(upper, width);
    by = unsignedInt(step, width);
  } else {
    if (step <= 0 || lower >= upper)
      return 0;
    lo = 0;
    hi = static_cast<uint64_t>(upper) - static_cast<uint64_t>(lower);
    by = static_cast<uint64_t>(step);
  }
  if (by == 0 || lo >= hi)
    return 0;
  return (hi - lo - 1) / by + 1;
}

uint64_t Estimator::forLoop(const Instr &instr) {
  const CBlock &body = instr.regions[0];
  ArrayRef<unsigned> inits = ArrayRef<unsigned>(instr.in).drop_front(3);
  ArrayRef<unsigned> iterArgs = ArrayRef<unsigned>(body.args).drop_front(1);
  if (!known[instr.in[0]] || !known[instr.in[1]] || !known[instr.in[2]]) {
    // Bounds from view data: one iteration counts, a lower bound.
    ++guesses;
    complete = false;
    forget(body.args);
    uint64_t work = addWork(kDispatchWork, block(body));
    forget(instr.out);
    return work;
  }
  const int64_t lower = frame.scalarInt(instr.in[0]),
                step = frame.scalarInt(instr.in[2]);
  const unsigned width = widthOf(instr.srcKind);
  const uint64_t trips =
      tripCount(lower, frame.scalarInt(instr.in[1]), step, width, instr.flag);
  if (trips == 0) {
    copy(inits, instr.out);
    return 0;
  }
  // One iteration, the induction variable and carried values unknown.
  const uint64_t guessesBefore = guesses;
  const bool completeBefore = complete;
  forget(body.args);
  uint64_t once = block(body);
  if (stopped)
    return once;
  if (guesses == guessesBefore) {
    forget(instr.out);
    return mulWork(trips, addWork(once, kDispatchWork));
  }
  // Iteration by iteration.
  guesses = guessesBefore;
  complete = completeBefore;
  copy(inits, iterArgs);
  uint64_t work = 0;
  int64_t iv = lower;
  for (uint64_t trip = 0; trip < trips; ++trip) {
    if (!takeStep())
      return work;
    frame.slots[body.args[0]].buf = Frame::makeInt(iv);
    known[body.args[0]] = true;
    work = addWork(work, addWork(kDispatchWork, block(body)));
    copy(body.yields, iterArgs);
    if (stopped)
      return work;
    iv = normalizeInt(static_cast<int64_t>(static_cast<uint64_t>(iv) +
                                           static_cast<uint64_t>(step)),
                      width);
  }
  copy(iterArgs, instr.out);
  return work;
}

uint64_t Estimator::ifOp(const Instr &instr) {
  const unsigned condition = instr.in[0];
  if (known[condition]) {
    const CBlock &branch =
        frame.scalarInt(condition) ? instr.regions[0] : instr.regions[1];
    uint64_t work = block(branch);
    if (!instr.out.empty())
      copy(branch.yields, instr.out);
    return work;
  }
  // On view data (or on what a count left unknown): the costlier branch.
  ++guesses;
  uint64_t thenWork = block(instr.regions[0]);
  uint64_t elseWork = block(instr.regions[1]);
  forget(instr.out);
  return std::max(thenWork, elseWork);
}

uint64_t Estimator::whileLoop(const Instr &instr) {
  const CBlock &before = instr.regions[0], &after = instr.regions[1];
  copy(instr.in, before.args);
  uint64_t work = 0;
  while (takeStep()) {
    work = addWork(work, addWork(kDispatchWork, block(before)));
    if (stopped)
      return work;
    if (!known[before.condition]) {
      // Runs until a condition on view data fails: a lower bound.
      ++guesses;
      complete = false;
      forget(after.args);
      work = addWork(work, block(after));
      forget(instr.out);
      return work;
    }
    if (!frame.scalarInt(before.condition)) {
      copy(before.yields, instr.out);
      return work;
    }
    copy(before.yields, after.args);
    work = addWork(work, block(after));
    copy(after.yields, before.args);
  }
  return work;
}

uint64_t Estimator::block(const CBlock &block) {
  uint64_t work = 0;
  for (const Instr &instr : block.body) {
    if (!takeStep())
      return work;
    work = addWork(work, instr.work);
    switch (instr.opc) {
    case Opc::For:
      work = addWork(work, forLoop(instr));
      break;
    case Opc::If:
      work = addWork(work, ifOp(instr));
      break;
    case Opc::While:
      work = addWork(work, whileLoop(instr));
      break;
    default:
      evaluate(instr);
      break;
    }
    if (stopped)
      return work;
  }
  return work;
}

FailureOr<WorkEstimate>
Executable::estimateWork(ArrayRef<KernelArg> args,
                         const RunOptions &options) const {
  std::vector<Val> argValues;
  if (failed(bindArguments(*impl, args, /*needData=*/false, argValues)))
    return failure();
  FailureOr<int64_t> blocks = countBlocks(impl->kernel, options.grid);
  if (failed(blocks))
    return failure();
  WorkEstimate result;
  if (*blocks == 0)
    return result;
  Estimator estimator(*impl);
  estimator.frame.numBlocks = options.grid;
  for (auto [slot, value] : llvm::zip(impl->entry.args, argValues)) {
    estimator.frame.slots[slot] = value;
    estimator.known[slot] = true;
  }
  // All blocks at once, then block by block when the work depends on the
  // block ids (or on view data).
  uint64_t once = estimator.block(impl->entry);
  if (estimator.stopped) {
    result.work = once;
  } else if (estimator.guesses == 0) {
    result.work = mulWork(once, static_cast<uint64_t>(*blocks));
  } else {
    estimator.guesses = 0;
    estimator.complete = true;
    estimator.blockIdKnown = true;
    const auto &grid = options.grid;
    for (int64_t id = 0; id < *blocks; ++id) {
      estimator.frame.blockId = {id % grid[0], (id / grid[0]) % grid[1],
                                 id / (grid[0] * grid[1])};
      result.work = addWork(result.work, estimator.block(impl->entry));
      if (estimator.stopped)
        break;
    }
  }
  result.complete = estimator.complete;
  return result;
}
