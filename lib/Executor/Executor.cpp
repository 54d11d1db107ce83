//===- Executor.cpp - the CPU reference executor's public API ------------===//
//
// What Executor.h declares: element kinds of view memory, kernel arguments,
// and `Executable::run`, which checks the arguments against the kernel and
// runs the grid's blocks on worker threads, reporting the first failing
// block. The executor in two phases: Compiler.cpp (tile IR -> the program of
// Program.h), and Interpreter.cpp with InterpreterMemory.cpp (running it);
// Numerics.h holds the numerics of one element, as Executor.h states them.
//
//===----------------------------------------------------------------------===//

#include "tile/Executor/Executor.h"

#include "Interpreter.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

//===----------------------------------------------------------------------===//
// Element kinds and arguments
//===----------------------------------------------------------------------===//

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
  case EK::F8E4M3FN:
  case EK::F8E5M2:
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
// Executable
//===----------------------------------------------------------------------===//

Executable::Executable(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Executable::~Executable() = default;

func::FuncOp Executable::getKernel() const { return impl->kernel; }

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

LogicalResult mlir::tile::exec::bindArguments(const Executable::Impl &impl,
                                              ArrayRef<KernelArg> args,
                                              bool needData,
                                              std::vector<Val> &argValues) {
  func::FuncOp kernel = impl.kernel;
  if (args.size() != kernel.getNumArguments())
    return kernel.emitError()
           << "tile executor: the kernel takes " << kernel.getNumArguments()
           << " arguments, got " << args.size();
  argValues.assign(args.size(), Val());
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
      if (needData && !v.data && !empty)
        return fail() << "null data";
      argValues[index].view = &v;
      continue;
    }
    bool isFloat = isa<FloatType>(type);
    if (arg.kind != (isFloat ? KernelArg::Kind::Float : KernelArg::Kind::Int))
      return fail() << "expected " << (isFloat ? "a float" : "an integer");
    argValues[index].buf = scalarArg(type, arg);
  }
  return success();
}

FailureOr<int64_t>
mlir::tile::exec::countBlocks(func::FuncOp kernel,
                              const std::array<int64_t, 3> &grid) {
  int64_t total = 1;
  for (int64_t size : grid) {
    if (size < 0 || size > std::numeric_limits<int32_t>::max())
      return kernel.emitError() << "tile executor: grid sizes must be in "
                                   "[0, 2^31), got "
                                << size;
    // An interpreter runs a few thousand blocks a second: more than 2^20
    // would run for hours (issue 11: no run without an end in sight).
    if (size != 0 && total > (int64_t(1) << 20) / size)
      return kernel.emitError()
             << "tile executor: the grid has more than 2^20 blocks, the most "
                "the CPU executor runs";
    total *= size;
  }
  return total;
}

LogicalResult Executable::run(ArrayRef<KernelArg> args,
                              const RunOptions &options) const {
  func::FuncOp kernel = impl->kernel;
  const CBlock &entry = impl->entry;
  std::vector<Val> argValues;
  if (failed(bindArguments(*impl, args, /*needData=*/true, argValues)))
    return failure();
  FailureOr<int64_t> blocks = countBlocks(kernel, options.grid);
  if (failed(blocks))
    return failure();
  const int64_t total = *blocks;
  if (options.workDone)
    *options.workDone = 0;
  if (total == 0)
    return success();

  unsigned threads = options.numThreads;
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  if (impl->sequential)
    threads = 1;
  threads = static_cast<unsigned>(std::min<int64_t>(threads, total));

  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> work{0};
  std::mutex errorMutex;
  int64_t errorBlock = -1;
  RunError firstError;
  const auto grid = options.grid;
  auto worker = [&]() {
    Frame frame(*impl);
    for (auto [slot, value] : llvm::zip(entry.args, argValues))
      frame.slots[slot] = value;
    frame.numBlocks = grid;
    frame.sharedWork = &work;
    frame.maxWork = options.maxWork;
    while (!stop.load(std::memory_order_relaxed)) {
      int64_t block = next.fetch_add(1);
      if (block >= total)
        break;
      frame.blockId = {block % grid[0], (block / grid[0]) % grid[1],
                       block / (grid[0] * grid[1])};
      if (failed(frame.runBlock(entry)) || failed(frame.flushWork(nullptr))) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (errorBlock < 0 || block < errorBlock) {
          errorBlock = block;
          firstError = frame.error;
        }
        stop = true;
        break;
      }
    }
    work += frame.pendingWork;
    frame.pendingWork = 0;
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
  if (options.workDone)
    *options.workDone = work.load();
  if (errorBlock >= 0) {
    Operation *at = firstError.op ? firstError.op : kernel.getOperation();
    return at->emitError() << "tile executor: " << firstError.message
                           << " (block " << errorBlock % grid[0] << ", "
                           << (errorBlock / grid[0]) % grid[1] << ", "
                           << errorBlock / (grid[0] * grid[1]) << ")";
  }
  return success();
}
