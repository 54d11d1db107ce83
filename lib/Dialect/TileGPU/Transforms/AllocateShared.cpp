//===- AllocateShared.cpp - shared-memory offsets -------------------------===//
//
// tilegpu-allocate-shared: every tilegpu.alloc and mbarrier group gets an
// offset into the block's dynamic shared memory. Buffers live for the whole
// kernel (the kernels here allocate a handful), so this is a bump allocator.
// Ops that need scratch while they run (layout conversions through shared
// memory, reductions across warps) share one area after the buffers: each
// such op starts with a barrier, so one's scratch is free when the next
// writes. A warp-local move (each warp keeps its elements) synchronizes only
// its warp, so it gets an area of its own.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHARED
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// 128-byte alignment keeps every swizzle phase aligned with the banks;
/// wgmma's 128B-swizzle atoms (chunked layouts) start on 1024 bytes, since
/// the hardware swizzles with address bits [7, 10).
constexpr int64_t kSharedAlignment = 128;
constexpr int64_t kSwizzleAtomAlignment = 1024;

struct TileGPUAllocateSharedPass
    : public tilegpu::impl::TileGPUAllocateSharedBase<
          TileGPUAllocateSharedPass> {
  using TileGPUAllocateSharedBase::TileGPUAllocateSharedBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    int64_t maxSharedBytes = target->getMaxSharedPerBlock();
    Builder b(func.getContext());
    int64_t offset = 0;
    func.walk([&](AllocOp alloc) {
      SharedBufferType type = alloc.getType();
      auto layout = cast<SharedLayoutAttr>(type.getLayout());
      offset = llvm::alignTo(offset, layout.getChunk() ? kSwizzleAtomAlignment
                                                       : kSharedAlignment);
      alloc.setOffsetAttr(b.getI64IntegerAttr(offset));
      offset += type.getTileBytes() * type.getNumStages();
    });
    // mbarriers: 8 bytes each, 8-byte aligned, after the tiles.
    func.walk([&](MbarrierAllocOp alloc) {
      offset = llvm::alignTo(offset, 8);
      alloc.setOffsetAttr(b.getI64IntegerAttr(offset));
      offset += 8 * alloc.getType().getCount();
    });
    ScratchNeeds scratch = getScratchNeeds(func);
    auto place = [&](ArrayRef<Operation *> users, int64_t bytes) {
      offset = llvm::alignTo(offset, kSharedAlignment);
      for (Operation *op : users)
        op->setAttr(kScratchOffsetAttrName, b.getI64IntegerAttr(offset));
      offset += bytes;
    };
    if (scratch.sharedBytes)
      place(scratch.users, scratch.sharedBytes);
    for (auto [op, bytes] : scratch.warpLocalUsers)
      place(op, bytes);
    if (offset > maxSharedBytes) {
      func.emitError() << "the kernel needs " << offset
                       << " bytes of shared memory; " << maxSharedBytes
                       << " are available per block on " << target->getName()
                       << " (smaller tiles or fewer pipeline stages)";
      return signalPassFailure();
    }
    func->setAttr("tilegpu.shared_bytes", b.getI64IntegerAttr(offset));
  }
};

} // namespace
