//===- Layouts.cpp - register and shared-memory index maps ----------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"

using namespace mlir;
using namespace mlir::tilegpu;

int64_t RegisterLayout::findReg(ArrayRef<int64_t> coord) const {
  for (auto [i, c] : llvm::enumerate(regCoords))
    if (ArrayRef<int64_t>(c) == coord)
      return i;
  return -1;
}

/// Bits [log2(div), log2(div * mod)) of a power-of-two term.
static unsigned termBits(const ThreadTerm &term) {
  unsigned lo = llvm::Log2_32(term.div);
  unsigned width = llvm::Log2_32(term.mod);
  return ((1u << width) - 1) << lo;
}

/// The mma.sync m16n8 accumulator map for a [M, N] tile.
static FailureOr<RegisterLayout>
getMmaLayout(MmaLayoutAttr mma, ArrayRef<int64_t> shape,
             function_ref<InFlightDiagnostic()> emitError) {
  unsigned warpsM = mma.getWarps()[0];
  if (shape.size() != 2)
    return emitError() << "an #mma layout needs a 2-d tile";
  int64_t m = shape[0], n = shape[1];
  if (m % (16 * warpsM) != 0 || n % 8 != 0)
    return emitError() << "a " << m << "x" << n
                       << " tile does not fit an #mma layout with " << warpsM
                       << " warps: M must be a multiple of " << 16 * warpsM
                       << " and N of 8";
  RegisterLayout layout;
  layout.numWarps = warpsM;
  int64_t repM = m / (16 * warpsM);
  for (int64_t rep = 0; rep < repM; ++rep)
    for (int64_t nt = 0; nt < n / 8; ++nt)
      for (int64_t half = 0; half < 2; ++half)
        for (int64_t b = 0; b < 2; ++b)
          layout.regCoords.push_back(
              {rep * 16 * warpsM + half * 8, nt * 8 + b});
  // row: lane / 4 + 16 * warp; column: 2 * (lane % 4).
  layout.threadTerms.push_back({{false, 4, 8, 1}, {true, 1, warpsM, 16}});
  layout.threadTerms.push_back({{false, 1, 4, 2}});
  return layout;
}

FailureOr<RegisterLayout>
mlir::tilegpu::getRegisterLayout(Attribute attr, ArrayRef<int64_t> shape,
                                 function_ref<InFlightDiagnostic()> emitError) {
  if (ShapedType::isDynamicShape(shape))
    return emitError() << "a register layout needs a static tile shape";
  // Bounded before the map (one entry per register) is built.
  int64_t elements = 1;
  for (int64_t dim : shape) {
    if (dim <= 0)
      return emitError() << "a register layout needs positive tile sizes";
    if (dim > kMaxRegisterTileElements / elements)
      return emitError() << "a tile of more than " << kMaxRegisterTileElements
                         << " elements cannot be held in registers";
    elements *= dim;
  }
  FailureOr<RegisterLayout> result = failure();
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(attr)) {
    result = getMmaLayout(mma, shape, emitError);
  } else if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(attr)) {
    unsigned dim = slice.getDim();
    if (shape.size() != 2 || shape[dim] != 1)
      return emitError() << "a #slice layout with dim = " << dim
                         << " needs a 2-d tile with size 1 there";
    // The parent map of the tile widened to 8 along `dim`, keeping the
    // registers of one column (dim = 1) or one row (dim = 0).
    SmallVector<int64_t> parentShape(shape);
    auto mma = cast<MmaLayoutAttr>(slice.getParent());
    parentShape[dim] = dim == 0 ? 16 * mma.getWarps()[0] : 8;
    FailureOr<RegisterLayout> parent =
        getRegisterLayout(mma, parentShape, emitError);
    if (failed(parent))
      return failure();
    RegisterLayout layout;
    layout.numWarps = parent->numWarps;
    for (ArrayRef<int64_t> coord : parent->regCoords)
      if (coord[dim] == 0)
        layout.regCoords.push_back(SmallVector<int64_t, 2>(coord));
    layout.threadTerms = parent->threadTerms;
    layout.threadTerms[dim].clear();
    result = layout;
  } else {
    return emitError() << "no register layout (expected #tilegpu.mma or "
                          "#tilegpu.slice), got "
                       << attr;
  }
  if (failed(result))
    return failure();
  for (auto &terms : result->threadTerms)
    for (const ThreadTerm &term : terms)
      (term.isWarp ? result->usedWarpBits : result->usedLaneBits) |=
          termBits(term);
  return result;
}

int64_t mlir::tilegpu::getNumRegs(RankedTensorType type) {
  FailureOr<RegisterLayout> layout = getRegisterLayout(
      type.getEncoding(), type.getShape(), [] { return InFlightDiagnostic(); });
  return succeeded(layout) ? layout->getNumRegs() : -1;
}

unsigned mlir::tilegpu::getNumWarps(Attribute layout) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    layout = slice.getParent();
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout))
    return mma.getNumWarps();
  return 1;
}

int64_t mlir::tilegpu::getSharedOffset(SharedLayoutAttr layout,
                                       ArrayRef<int64_t> tileShape, int64_t i0,
                                       int64_t i1) {
  unsigned inner = layout.getOrder()[0];
  int64_t innerSize = tileShape[inner];
  int64_t row = inner == 1 ? i0 : i1;
  int64_t col = inner == 1 ? i1 : i0;
  if (int64_t chunk = layout.getChunk(); chunk && chunk < innerSize) {
    // Piece col / chunk follows the previous ones: a taller tile of rows
    // `chunk` wide (the swizzle phase is unchanged for whole 8-row atoms).
    row += (col / chunk) * tileShape[1 - inner];
    col %= chunk;
    innerSize = chunk;
  }
  int64_t vec = layout.getVec();
  int64_t phase = (row / layout.getPerPhase()) % layout.getMaxPhase();
  int64_t chunk = (col / vec) ^ phase;
  return row * (innerSize + layout.getPad()) + chunk * vec + col % vec;
}

SharedLayoutAttr mlir::tilegpu::getSwizzledSharedLayout(
    MLIRContext *ctx, ArrayRef<int64_t> shape, unsigned elementBits,
    unsigned contiguousDim) {
  unsigned vec = 128 / elementBits; // one 16-byte vector
  int64_t rowBytes = shape[contiguousDim] * elementBits / 8;
  unsigned perPhase =
      std::max<int64_t>(1, 128 / std::max<int64_t>(rowBytes, 1));
  unsigned maxPhase =
      std::max<int64_t>(1, std::min<int64_t>(8, shape[contiguousDim] / vec));
  SmallVector<unsigned> order = {contiguousDim, 1 - contiguousDim};
  return SharedLayoutAttr::get(ctx, order, vec, perPhase, maxPhase, 0, 0);
}

SharedLayoutAttr mlir::tilegpu::getPaddedSharedLayout(MLIRContext *ctx,
                                                      unsigned elementBits,
                                                      unsigned contiguousDim) {
  unsigned vec = 128 / elementBits;
  SmallVector<unsigned> order = {contiguousDim, 1 - contiguousDim};
  return SharedLayoutAttr::get(ctx, order, vec, 1, 1, vec, 0);
}

SharedLayoutAttr mlir::tilegpu::getWgmmaSharedLayout(MLIRContext *ctx,
                                                     unsigned elementBits,
                                                     unsigned contiguousDim) {
  unsigned vec = 128 / elementBits;
  SmallVector<unsigned> order = {contiguousDim, 1 - contiguousDim};
  return SharedLayoutAttr::get(ctx, order, vec, /*perPhase=*/1,
                               /*maxPhase=*/8, /*pad=*/0,
                               /*chunk=*/1024 / elementBits);
}

bool mlir::tilegpu::fitsWgmmaSharedLayout(ArrayRef<int64_t> shape,
                                          unsigned elementBits,
                                          unsigned contiguousDim) {
  return shape.size() == 2 &&
         shape[contiguousDim] % (1024 / elementBits) == 0 &&
         shape[1 - contiguousDim] % 8 == 0;
}
