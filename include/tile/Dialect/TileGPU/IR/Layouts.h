//===- Layouts.h - register and shared-memory index maps --------*- C++ -*-===//
//
// The index maps behind the layout attributes: which warp, lane and register
// of a block holds each element of a tile (distributed layouts), and where
// an element lies in a swizzled shared-memory tile. Every lowering of a tile
// op reads these maps instead of recomputing them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_LAYOUTS_H
#define TILE_DIALECT_TILEGPU_IR_LAYOUTS_H

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace tilegpu {

constexpr unsigned kWarpSize = 32;

/// The most elements a tile with a register layout may have: 2^20 elements
/// over the 1024 threads of the largest block are 1024 registers per thread,
/// four times what a thread can have. Bounds the index maps' size.
constexpr int64_t kMaxRegisterTileElements = int64_t(1) << 20;

/// One term of a thread-dependent coordinate: ((id / div) % mod) * mul,
/// where id is the lane (0..31) or the warp index.
struct ThreadTerm {
  bool isWarp;
  unsigned div;
  unsigned mod;
  int64_t mul;
};

/// The elements one thread holds. Register r holds element
///   coord[d] = regCoords[r][d] + sum(threadTerms[d](lane, warp)),
/// the same thread terms for every register (all our layouts separate so).
struct RegisterLayout {
  SmallVector<SmallVector<int64_t, 2>> regCoords;
  SmallVector<SmallVector<ThreadTerm, 2>, 2> threadTerms;
  /// Lane bits (of 5) and warp bits that select different elements; the
  /// others replicate: threads differing only there hold the same elements.
  unsigned usedLaneBits = 0;
  unsigned usedWarpBits = 0;
  unsigned numWarps = 1;

  int64_t getNumRegs() const { return regCoords.size(); }
  /// The register holding the element whose constant part is `coord`, or -1.
  int64_t findReg(ArrayRef<int64_t> coord) const;
};

/// The register map of `layout` (#mma, #blocked or #slice) for a tile of
/// `shape`; fails with a diagnostic when the shape does not fit the layout.
FailureOr<RegisterLayout>
getRegisterLayout(Attribute layout, ArrayRef<int64_t> shape,
                  function_ref<InFlightDiagnostic()> emitError);

/// Whether `layout` is a register layout with a map for `shape`.
bool fitsRegisterLayout(Attribute layout, ArrayRef<int64_t> shape);

/// The rank of the tiles a register layout describes (#slice: its parent's
/// rank minus one); 0 for anything else.
unsigned getLayoutRank(Attribute layout);

/// Number of registers per thread of a tile type with a register layout.
int64_t getNumRegs(RankedTensorType type);

/// Number of warps a distributed layout spans.
unsigned getNumWarps(Attribute layout);

/// A register map in terms of the row-major linear index of the element it
/// holds: register r holds `regs[r] + sum of lanes[b] (lane bit b set) +
/// sum of warps[b] (warp bit b set)`. A lane or warp bit that contributes 0
/// replicates. Two maps with equal descriptions hold the same elements in
/// the same registers of the same threads.
struct LinearMap {
  SmallVector<int64_t> regs;
  SmallVector<int64_t> lanes;
  SmallVector<int64_t> warps;
  bool operator==(const LinearMap &other) const {
    return regs == other.regs && lanes == other.lanes && warps == other.warps;
  }
};
LinearMap getLinearMap(const RegisterLayout &layout, ArrayRef<int64_t> shape);
/// The same with the index of coordinate c taken as sum(c[d] * strides[d]).
LinearMap getStridedLinearMap(const RegisterLayout &layout,
                              ArrayRef<int64_t> strides);

/// Row-major strides of a shape.
SmallVector<int64_t> getRowMajorStrides(ArrayRef<int64_t> shape);

/// Whether a tile of `shapeA` in `layoutA` and one of `shapeB` (as many
/// elements) in `layoutB` hold, in every thread and register, the element
/// of the same row-major index: then a reshape or a layout conversion
/// between them moves no data.
bool haveSameRegisters(Attribute layoutA, ArrayRef<int64_t> shapeA,
                       Attribute layoutB, ArrayRef<int64_t> shapeB);

/// The widest v (a power of two up to `maxWidth`) such that the registers
/// of `layout` come in groups of v consecutive registers holding v
/// consecutive elements along `dim`, each group starting at a multiple of v
/// in every thread: the vector width of a load or store along `dim`.
unsigned getVectorWidth(const RegisterLayout &layout, unsigned dim,
                        unsigned maxWidth);

/// The blocked layout a global access chooses for a tile of `shape`: the
/// dimensions in `order` (fastest first), `vecElems` consecutive elements
/// per thread along order[0] (at most what the shape allows), lanes along
/// the fastest dimensions, warps along the slowest (so that a reduction
/// along a fast dimension stays inside a warp where the tile allows).
BlockedLayoutAttr getDefaultBlockedLayout(MLIRContext *ctx,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<unsigned> order,
                                          unsigned vecElems, unsigned numWarps);

/// The row-major order (last dimension fastest) of a rank.
SmallVector<unsigned> getRowMajorOrder(unsigned rank);

/// A layout for the tile of shape `to` that a `tile.reshape` of a tile of
/// shape `from` in `layout` produces with no data movement (the same
/// registers: haveSameRegisters), or null when none is known: unit
/// dimensions added or removed (#slice / its parent / a blocked layout with
/// a trivial dimension), or a blocked layout split or merged row-major.
Attribute getReshapedLayout(Attribute layout, ArrayRef<int64_t> from,
                            ArrayRef<int64_t> to);

/// The layout of `tile.permute` with `permutation` (result dimension i is
/// source dimension permutation[i]) of a tile in `layout`, or null when the
/// layout cannot be permuted (#mma).
Attribute getPermutedLayout(Attribute layout, ArrayRef<int64_t> permutation);

/// How a tile moves from registers in one layout to registers in another
/// (tilegpu.convert_layout, and tile.reshape / tile.permute between layouts
/// that do not line up). Elements are indexed in the destination's
/// row-major order; `srcStrides` gives that index for source coordinates.
struct RegisterMove {
  enum Kind {
    None,        ///< every thread holds the same elements in the same registers
    Permutation, ///< same elements per thread, other registers: `shuffle`
    Shared,      ///< through shared memory (`scratch` below)
  };
  Kind kind = None;
  RegisterLayout src, dst;
  SmallVector<int64_t> srcStrides, dstStrides;
  /// Permutation: destination register r is source register shuffle[r].
  SmallVector<int64_t> shuffle;
  /// Shared: rows of `rowSize` elements (the destination's last dimension),
  /// each followed by `pad` unused ones; accesses of `writeVec` / `readVec`
  /// consecutive elements.
  int64_t rowSize = 1, pad = 0, elementBytes = 1, bytes = 0;
  unsigned writeVec = 1, readVec = 1;
  /// Shared: every element is held by one warp, the same on both sides.
  /// Then each warp writes and reads only its own part of the scratch area,
  /// and a warp barrier orders the move (no barrier across warps).
  bool warpLocal = false;

  /// Element offset in the scratch area of destination index `index`.
  int64_t offset(int64_t index) const {
    return index + (index / rowSize) * pad;
  }
  /// Whether offset(thread index + register index) is offset(thread index)
  /// + offset(register index) for every thread and register of `map` (a
  /// side of this move): power-of-two rows, and register and thread bits
  /// disjoint. Then a thread's addresses are one base plus immediates.
  bool splitsByThread(const LinearMap &map) const;
};

/// The move of a tile of `srcType` to `dstType` (a reshape when the shapes
/// differ); `permutation` (result dimension i is source dimension
/// permutation[i]) for tile.permute.
FailureOr<RegisterMove> getRegisterMove(RankedTensorType srcType,
                                        RankedTensorType dstType,
                                        ArrayRef<int64_t> permutation = {});

/// Bytes of shared-memory scratch `op` needs while it runs: a layout
/// conversion (or a reshape or permute) that goes through shared memory, a
/// reduction across warps. 0 for anything else. `warpLocal` (if given) is
/// set when the op is a warp-local move (RegisterMove::warpLocal).
int64_t getScratchBytes(Operation *op, bool *warpLocal = nullptr);

/// The scratch the ops under `root` need: one area that serves the ops
/// synchronizing the whole block, one after another (each starts with a
/// barrier), sized for the largest, and one area for each warp-local move
/// (it synchronizes only its warps, so its scratch is its own). `users`
/// collects the shared area's ops, `warpLocalUsers` the others.
struct ScratchNeeds {
  int64_t sharedBytes = 0;
  SmallVector<Operation *> users;
  SmallVector<std::pair<Operation *, int64_t>> warpLocalUsers;
  int64_t totalBytes(int64_t alignment) const;
};
ScratchNeeds getScratchNeeds(Operation *root);

/// Name of the attribute holding an op's scratch offset (bytes into the
/// block's dynamic shared memory), set by tilegpu-allocate-shared.
constexpr llvm::StringLiteral kScratchOffsetAttrName = "tilegpu.scratch_offset";

/// Element offset (in elements, from the tile's base) of element
/// `(i0, i1)` of a 2-d tile with a #shared layout.
int64_t getSharedOffset(SharedLayoutAttr layout, ArrayRef<int64_t> tileShape,
                        int64_t i0, int64_t i1);

/// The swizzled shared layout for a 2-d tile of `shape` and element bit
/// width whose dimension `contiguousDim` is contiguous in memory.
SharedLayoutAttr getSwizzledSharedLayout(MLIRContext *ctx,
                                         ArrayRef<int64_t> shape,
                                         unsigned elementBits,
                                         unsigned contiguousDim);

/// The padded shared layout (one 16-byte vector of padding per row) for a
/// 2-d tile whose dimension `contiguousDim` is contiguous in memory.
SharedLayoutAttr getPaddedSharedLayout(MLIRContext *ctx, unsigned elementBits,
                                       unsigned contiguousDim);

/// The wgmma canonical layout: 128-byte pieces of the contiguous dimension,
/// each 128B-swizzled (see #tilegpu.shared's `chunk`).
SharedLayoutAttr getWgmmaSharedLayout(MLIRContext *ctx, unsigned elementBits,
                                      unsigned contiguousDim);

/// Whether a `[rows, cols]` tile of `elementBits` elements whose dimension
/// `contiguousDim` is contiguous can use the wgmma layout: whole 128-byte
/// pieces along it and whole 8-row swizzle atoms along the other.
bool fitsWgmmaSharedLayout(ArrayRef<int64_t> shape, unsigned elementBits,
                           unsigned contiguousDim);

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_IR_LAYOUTS_H
