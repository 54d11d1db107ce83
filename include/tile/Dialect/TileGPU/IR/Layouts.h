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

/// The most shared memory a block has on any supported chip (227 KB on
/// sm_90 and sm_100): no shared buffer is larger.
constexpr int64_t kMaxSharedBytes = 232448;

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

/// The register map of `layout` (an #mma or #slice attribute) for a tile of
/// `shape`; fails with a diagnostic when the shape does not fit the layout.
FailureOr<RegisterLayout>
getRegisterLayout(Attribute layout, ArrayRef<int64_t> shape,
                  function_ref<InFlightDiagnostic()> emitError);

/// Number of registers per thread of a tile type with a register layout.
int64_t getNumRegs(RankedTensorType type);

/// Number of warps a distributed layout spans.
unsigned getNumWarps(Attribute layout);

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
