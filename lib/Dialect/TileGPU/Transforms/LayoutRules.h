//===- LayoutRules.h - how tile ops relate the layouts of their tiles -----===//
//
// Shared by tilegpu-assign-layouts and tilegpu-remove-layout-conversions:
// which ops relate the layouts of their operands and results and how
// (elementwise ops: one layout; broadcast, reduce, reshape, permute: the
// layout adjusted to the shape), the coalesced layout of a global access
// under the view's alignment, and the staging of mma operands in shared
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTRULES_H
#define TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTRULES_H

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Alignment.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace tilegpu {

/// Elementwise ops on tiles (arith, math, tile.exp2/div/select/astype): one
/// layout for every tile operand and the result.
bool isElementwiseTileOp(Operation *op);

/// Ops whose tile operands and results have layouts related by a rule:
/// elementwise (arith, math, tile.exp2/div/select/astype), tile.broadcast,
/// tile.reduce, tile.reshape, tile.permute.
bool isLayoutTransparent(Operation *op);

/// Given that tile `known` (an operand or result of `op`, a
/// layout-transparent op) is in `layout`, the layout each other tile
/// operand and result of `op` takes; null where no layout follows.
SmallVector<std::pair<Value, Attribute>>
deriveLayouts(Operation *op, Value known, Attribute layout);

/// The tile dimension of a load or store that walks the view's last
/// (contiguous) dimension, or -1.
int getContiguousTileDim(int64_t viewRank, ArrayRef<int64_t> dims);
int getContiguousTileDim(LoadOp load);
int getContiguousTileDim(StoreOp store);
/// The same for a stored value of `type` whose non-unit dimensions walk
/// `dims` (stores, atomics).
int getContiguousTileDim(int64_t viewRank, RankedTensorType type,
                         ArrayRef<int64_t> dims);

/// Elements in `bytes` bytes of `type` (at least 1).
unsigned getVectorElements(Type type, int64_t bytes);

/// The coalesced layout of a global access to a tile of `type` at element
/// `offsets`: 16-byte vectors (or what getAccessAlign allows) along the
/// dimension that
/// walks the view's contiguous dimension, lanes along it first.
BlockedLayoutAttr getAccessLayout(Value view, ValueRange offsets,
                                  RankedTensorType type, int contiguousDim,
                                  int numWarps);

/// The access layout (getAccessLayout) of a store of a tile of `type` held
/// in `from`, with more consecutive elements per thread along the
/// dimension the warps split where that keeps every element in the warp
/// that holds it in `from`: the move to it is then warp-local
/// (RegisterMove::warpLocal) and synchronizes no other warp. From an mma
/// accumulator (warps over 16-row slabs) this is 16 rows per warp.
BlockedLayoutAttr getStoreLayout(Value view, ValueRange offsets,
                                 RankedTensorType type, int contiguousDim,
                                 int numWarps, Attribute from);

/// Whether a global access in `layout` is coalesced enough: a thread holds
/// at least two consecutive elements along the contiguous dimension, or
/// the lowest lane bit that does not replicate walks it.
bool isGoodAccessLayout(Attribute layout, ArrayRef<int64_t> shape,
                        int contiguousDim);

/// Stages mma operands in shared memory: loaded tiles by cp.async (or, for
/// views aligned below 4 bytes, a register load and tilegpu.local_store),
/// computed tiles by tilegpu.local_store; barriers around both.
/// The load whose tile `operand` is the transpose of: `operand` is a
/// 2-d `tile.permute [1, 0]` of the 2-d result of a load, each possibly
/// through `tile.reshape`s that only add or drop unit dimensions, and the
/// load one that MmaOperandStager::stageLoad stages (zero padding, a tile
/// dimension along the view's contiguous one). Null otherwise. Such an mma
/// operand reads the load's staged buffer transposed (tilegpu.mma transpose_a /
/// transpose_b): no second buffer.
LoadOp getTransposedLoad(Value operand);

class MmaOperandStager {
public:
  MmaOperandStager(func::FuncOp func, MmaLayoutAttr mma, bool padded)
      : func(func), mma(mma), padded(padded) {}

  /// The shared tile of the mma operand `load` (one per load).
  FailureOr<Value> stageLoad(LoadOp load, bool isOperandA);
  /// The shared tile holding the computed operand `value` of `user`.
  FailureOr<Value> stageValue(Value value, Operation *user, bool isOperandA);
  /// The shared layout of an operand tile whose `contiguousDim` is
  /// contiguous.
  SharedLayoutAttr getOperandLayout(ArrayRef<int64_t> shape,
                                    unsigned elementBits,
                                    unsigned contiguousDim) const;

private:
  Value allocate(SharedBufferType type, Operation *forOp, Location loc);

  func::FuncOp func;
  MmaLayoutAttr mma;
  bool padded;
  /// Shared buffers already made for a load or value, so two mmas share one.
  DenseMap<Value, Value> staged;
  /// Every staging buffer, with the loop it was made for (null outside
  /// loops), and the buffers each loop uses, for reuse across loops.
  struct StagedBuffer {
    Value buffer;
    Operation *loop;
    SharedBufferType type;
  };
  SmallVector<StagedBuffer> stagedBuffers;
  DenseMap<Operation *, SmallVector<Value>> takenIn;
};

} // namespace tilegpu
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTRULES_H
