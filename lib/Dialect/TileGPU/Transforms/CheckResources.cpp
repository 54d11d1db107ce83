//===- CheckResources.cpp - refuse kernels the chip cannot run ------------===//
//
// tilegpu-check-resources: the last step before the NVVM conversion checks
// what a chip bounds and ptxas would otherwise find out slowly or cryptically:
//  - the register footprint: the tiles live at the same time, in 32-bit
//    registers per thread under their layouts; far above the 255 a thread
//    has, ptxas spends minutes spilling (a 256x256 f32 tile on one warp is
//    2048 registers per thread), so such a kernel is refused;
//  - the launch hints: blocks per SM (occupancy) times threads, times shared
//    memory, and the blocks themselves, against the chip's SM;
//  - the instructions: Hopper ops (mbarrier waits, TMA, async-proxy fences,
//    wgmma, setmaxnreg) on an older chip, which the NVPTX backend rejects
//    with "LLVM ERROR: Cannot select" (fuzzer, seed 20261208: a
//    tilegpu.fence_async_shared spliced into a kernel built for sm_80).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUCHECKRESOURCES
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// 32-bit registers per thread of a value: float tiles with a register
/// layout (mma, slice or blocked: a 1000x1024 blocked f32 tile on 4 warps
/// is 8000), packed two to a register below 32 bits (f16x2, as mma
/// fragments are). Left out, since LLVM folds them or keeps a few registers for
/// them: integer tiles (offsets, masks), constants and splats (immediates or
/// one register), broadcasts (their source's registers).
int64_t registersOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || !isa<FloatType>(tensor.getElementType()) ||
      !isa_and_nonnull<MmaLayoutAttr, SliceLayoutAttr, BlockedLayoutAttr>(
          tensor.getEncoding()))
    return 0;
  if (Operation *def = value.getDefiningOp();
      def &&
      isa<tile::FullOp, tile::SplatOp, tile::BroadcastOp, arith::ConstantOp>(
          def))
    return 0;
  int64_t elements = getNumRegs(tensor);
  if (elements < 0)
    return 0;
  unsigned bits = tensor.getElementType().getIntOrFloatBitWidth();
  if (bits == 16)
    return (elements + 1) / 2;
  return bits <= 32 ? elements : elements * (bits / 32);
}

/// The peak of registers live in `block` with `outside` live around it:
/// a value is live from its definition to the op of this block that holds
/// its last use. Records the op at the peak.
struct Peak {
  int64_t registers = 0;
  Operation *where = nullptr;
};

Peak findPeak(Block &block, int64_t outside) {
  DenseMap<Operation *, int64_t> index;
  int64_t n = 0;
  for (Operation &op : block)
    index[&op] = n++;
  SmallVector<int64_t> delta(n + 1, 0);
  auto addRange = [&](Value value, int64_t start) {
    int64_t registers = registersOf(value);
    if (registers == 0 || n == 0)
      return;
    int64_t end = start;
    for (Operation *user : value.getUsers())
      if (Operation *ancestor = block.findAncestorOpInBlock(*user))
        end = std::max(end, index.lookup(ancestor));
    delta[std::max<int64_t>(start, 0)] += registers;
    delta[end + 1] -= registers;
  };
  for (BlockArgument arg : block.getArguments())
    addRange(arg, 0);
  for (Operation &op : block)
    for (Value result : op.getResults())
      addRange(result, index[&op]);

  Peak peak;
  int64_t live = outside;
  for (Operation &op : block) {
    live += delta[index[&op]];
    if (live > peak.registers)
      peak = {live, &op};
    for (Region &region : op.getRegions())
      for (Block &nested : region) {
        Peak inner = findPeak(nested, live);
        if (inner.registers > peak.registers)
          peak = inner;
      }
  }
  return peak;
}

struct TileGPUCheckResourcesPass
    : public tilegpu::impl::TileGPUCheckResourcesBase<
          TileGPUCheckResourcesPass> {
  using TileGPUCheckResourcesBase::TileGPUCheckResourcesBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto warpsAttr = func->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
    if (!warpsAttr)
      return;
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target) || failed(checkInstructions(func, *target)) ||
        failed(checkRegisters(func, warpsAttr.getInt())) ||
        failed(checkLaunch(func, warpsAttr.getInt(), *target)))
      signalPassFailure();
  }

  /// The chip each op needs: "sm_90" (sm_90 and newer) or "sm_90a" (that
  /// chip only: wgmma, setmaxnreg); "" for any supported chip.
  static StringRef neededChip(Operation *op) {
    if (auto mma = dyn_cast<MmaOp>(op)) {
      auto layout =
          dyn_cast<MmaLayoutAttr>(mma.getAcc().getType().getEncoding());
      return layout && layout.getVersion() == 3 ? "sm_90a" : "";
    }
    if (isa<MmaWaitOp, WarpSpecializeOp>(op))
      return "sm_90a";
    if (isa<MbarrierWaitOp, MbarrierExpectTxOp, TmaCopyOp, FenceAsyncSharedOp>(
            op))
      return "sm_90";
    if (auto atomic = dyn_cast<AtomicOp>(op); atomic && atomic.getVector())
      return "sm_90";
    return "";
  }

  LogicalResult checkInstructions(func::FuncOp func, const TargetChip &target) {
    WalkResult result = func.walk([&](Operation *op) {
      StringRef needed = neededChip(op);
      if (needed.empty() || (needed == "sm_90" && target.isHopperOrNewer()) ||
          (needed == "sm_90a" && target.hasWgmma()))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName() << "' needs chip "
                      << (needed == "sm_90" ? "sm_90 or newer" : "sm_90a")
                      << ", got '" << target.getName() << "'";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  LogicalResult checkRegisters(func::FuncOp func, int64_t warps) {
    if (func.getBody().empty())
      return success();
    Peak peak = findPeak(func.getBody().front(), 0);
    if (peak.registers <= maxRegisters)
      return success();
    // Name the largest tile live there: the one to shrink first.
    Value largest;
    func.walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (!largest || registersOf(v) > registersOf(largest))
          largest = v;
    });
    InFlightDiagnostic diag = peak.where->emitError();
    diag << "the tiles live here need about " << peak.registers
         << " registers per thread with " << warps
         << " warps, far above the 255 a thread has (max-registers "
         << maxRegisters.getValue()
         << "): use more warps (num-warps) or smaller tiles";
    if (largest)
      diag.attachNote(largest.getLoc())
          << "the largest tile, " << largest.getType() << ", takes "
          << registersOf(largest) << " registers per thread";
    return failure();
  }

  LogicalResult checkLaunch(func::FuncOp func, int64_t warps,
                            const TargetChip &target) {
    const tilebundle::ChipFacts &limits = target.getFacts();
    StringRef chip = target.getName();
    int64_t threads = warps * kWarpSize;
    auto occupancyAttr = func->getAttrOfType<IntegerAttr>("tilegpu.occupancy");
    int64_t occupancy = occupancyAttr ? occupancyAttr.getInt() : 1;
    auto sharedAttr = func->getAttrOfType<IntegerAttr>("tilegpu.shared_bytes");
    int64_t shared = sharedAttr ? sharedAttr.getInt() : 0;
    if (threads > limits.maxThreadsPerBlock)
      return func.emitError()
             << warps << " warps are " << threads
             << " threads; a block has at most " << limits.maxThreadsPerBlock;
    if (occupancy < 1 || occupancy > limits.maxBlocksPerSM)
      return func.emitError()
             << "occupancy " << occupancy << " is not possible on " << chip
             << ": an SM runs 1 to " << limits.maxBlocksPerSM << " blocks";
    if (occupancy * threads > limits.maxThreadsPerSM)
      return func.emitError()
             << "occupancy " << occupancy << " with " << threads
             << " threads a block needs " << occupancy * threads
             << " threads per SM; " << chip << " runs at most "
             << limits.maxThreadsPerSM << " (lower the occupancy hint or "
             << "use fewer warps)";
    if (occupancy * shared > limits.sharedPerSM)
      return func.emitError()
             << "occupancy " << occupancy << " with " << shared
             << " bytes of shared memory a block needs " << occupancy * shared
             << " bytes per SM; " << chip << " has " << limits.sharedPerSM
             << " (lower the occupancy hint, or use smaller tiles or fewer "
                "pipeline stages)";
    return success();
  }
};

} // namespace
