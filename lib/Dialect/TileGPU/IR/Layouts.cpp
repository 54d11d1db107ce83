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

/// The largest power of two dividing `n` (n > 0).
static int64_t powerOfTwoPart(int64_t n) { return n & -n; }

/// Keeps the registers of `layout` whose coordinate is 0 along each
/// dimension in `unitDims` and clears the thread terms there: the map of a
/// tile that is 1 along those dimensions (their lanes and warps replicate).
static RegisterLayout restrictToUnitDims(const RegisterLayout &layout,
                                         ArrayRef<unsigned> unitDims) {
  RegisterLayout result;
  result.numWarps = layout.numWarps;
  for (ArrayRef<int64_t> coord : layout.regCoords)
    if (llvm::all_of(unitDims, [&](unsigned d) { return coord[d] == 0; }))
      result.regCoords.push_back(SmallVector<int64_t, 2>(coord));
  result.threadTerms = layout.threadTerms;
  for (unsigned d : unitDims)
    result.threadTerms[d].clear();
  return result;
}

/// The mma.sync m16n8 accumulator map for a [M, N] tile; a size-1
/// dimension keeps the registers of row or column 0.
static FailureOr<RegisterLayout>
getMmaLayout(MmaLayoutAttr mma, ArrayRef<int64_t> shape,
             function_ref<InFlightDiagnostic()> emitError) {
  unsigned warpsM = mma.getWarps()[0];
  if (shape.size() != 2)
    return emitError() << "an #mma layout needs a 2-d tile";
  int64_t m = shape[0], n = shape[1];
  if ((m != 1 && m % (16 * warpsM) != 0) || (n != 1 && n % 8 != 0))
    return emitError() << "a " << m << "x" << n
                       << " tile does not fit an #mma layout with " << warpsM
                       << " warps: M must be a multiple of " << 16 * warpsM
                       << " and N of 8 (or either 1)";
  SmallVector<unsigned> unitDims;
  int64_t fullM = m, fullN = n;
  if (m == 1) {
    unitDims.push_back(0);
    fullM = 16 * warpsM;
  }
  if (n == 1) {
    unitDims.push_back(1);
    fullN = 8;
  }
  RegisterLayout layout;
  layout.numWarps = warpsM;
  int64_t repM = fullM / (16 * warpsM);
  for (int64_t rep = 0; rep < repM; ++rep)
    for (int64_t nt = 0; nt < fullN / 8; ++nt)
      for (int64_t half = 0; half < 2; ++half)
        for (int64_t b = 0; b < 2; ++b)
          layout.regCoords.push_back(
              {rep * 16 * warpsM + half * 8, nt * 8 + b});
  // row: lane / 4 + 16 * warp; column: 2 * (lane % 4).
  layout.threadTerms.push_back({{false, 4, 8, 1}, {true, 1, warpsM, 16}});
  layout.threadTerms.push_back({{false, 1, 4, 2}});
  if (unitDims.empty())
    return layout;
  return restrictToUnitDims(layout, unitDims);
}

/// The #blocked map: per dimension, the block, then the lanes, then the
/// warps take the powers of two that divide what is left of the size; the
/// rest repeats. Lane and warp bits are numbered along `order`.
static FailureOr<RegisterLayout>
getBlockedLayout(BlockedLayoutAttr blocked, ArrayRef<int64_t> shape,
                 function_ref<InFlightDiagnostic()> emitError) {
  unsigned rank = blocked.getRank();
  if (shape.size() != rank)
    return emitError() << "a #blocked layout of rank " << rank
                       << " needs a tile of rank " << rank << ", got "
                       << shape.size();
  ArrayRef<unsigned> order = blocked.getOrder();
  SmallVector<int64_t> block(rank), lanes(rank), warps(rank), reps(rank);
  SmallVector<unsigned> laneShift(rank), warpShift(rank);
  unsigned laneBit = 0, warpBit = 0;
  for (unsigned d : order) {
    laneShift[d] = laneBit;
    warpShift[d] = warpBit;
    laneBit += llvm::Log2_32(blocked.getThreadsPerWarp()[d]);
    warpBit += llvm::Log2_32(blocked.getWarpsPerCTA()[d]);
  }
  RegisterLayout layout;
  layout.numWarps = blocked.getNumWarps();
  layout.threadTerms.resize(rank);
  for (unsigned d = 0; d < rank; ++d) {
    // Positive: getRegisterLayout checks the sizes first.
    int64_t left = shape[d];
    block[d] =
        std::min<int64_t>(blocked.getSizePerThread()[d], powerOfTwoPart(left));
    left /= block[d];
    lanes[d] =
        std::min<int64_t>(blocked.getThreadsPerWarp()[d], powerOfTwoPart(left));
    left /= lanes[d];
    warps[d] =
        std::min<int64_t>(blocked.getWarpsPerCTA()[d], powerOfTwoPart(left));
    left /= warps[d];
    reps[d] = left;
    if (lanes[d] > 1)
      layout.threadTerms[d].push_back({false, 1u << laneShift[d],
                                       static_cast<unsigned>(lanes[d]),
                                       block[d]});
    if (warps[d] > 1)
      layout.threadTerms[d].push_back({true, 1u << warpShift[d],
                                       static_cast<unsigned>(warps[d]),
                                       block[d] * lanes[d]});
  }
  // Registers: the block (fastest dimension first), then the repetitions.
  SmallVector<int64_t> counts, strides;
  SmallVector<unsigned> dims;
  for (unsigned d : order) {
    counts.push_back(block[d]);
    strides.push_back(1);
    dims.push_back(d);
  }
  for (unsigned d : order) {
    counts.push_back(reps[d]);
    strides.push_back(block[d] * lanes[d] * warps[d]);
    dims.push_back(d);
  }
  int64_t total = 1;
  for (int64_t c : counts)
    total *= c;
  for (int64_t r = 0; r < total; ++r) {
    SmallVector<int64_t, 2> coord(rank, 0);
    int64_t rest = r;
    for (auto [count, stride, d] : llvm::zip(counts, strides, dims)) {
      coord[d] += (rest % count) * stride;
      rest /= count;
    }
    layout.regCoords.push_back(coord);
  }
  return layout;
}

unsigned mlir::tilegpu::getLayoutRank(Attribute layout) {
  if (isa_and_nonnull<MmaLayoutAttr>(layout))
    return 2;
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    unsigned parent = getLayoutRank(slice.getParent());
    return parent == 0 ? 0 : parent - 1;
  }
  return 0;
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
  } else if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(attr)) {
    result = getBlockedLayout(blocked, shape, emitError);
  } else if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(attr)) {
    unsigned dim = slice.getDim();
    unsigned parentRank = getLayoutRank(slice.getParent());
    if (shape.size() == parentRank && shape[dim] == 1)
      // The keepdims form: the parent's map on this shape.
      return getRegisterLayout(slice.getParent(), shape, emitError);
    if (shape.size() + 1 != parentRank)
      return emitError() << "a #slice layout with dim = " << dim
                         << " of a rank-" << parentRank
                         << " parent needs a tile of rank " << parentRank - 1
                         << " (or " << parentRank << " with size 1 at " << dim
                         << ")";
    // The parent's map with the removed dimension of size 1, which every
    // layout keeps as coordinate 0 (replicated over its lanes and warps).
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + dim, 1);
    FailureOr<RegisterLayout> parent =
        getRegisterLayout(slice.getParent(), parentShape, emitError);
    if (failed(parent))
      return failure();
    RegisterLayout layout;
    layout.numWarps = parent->numWarps;
    for (ArrayRef<int64_t> coord : parent->regCoords) {
      SmallVector<int64_t, 2> c(coord);
      c.erase(c.begin() + dim);
      layout.regCoords.push_back(c);
    }
    layout.threadTerms = parent->threadTerms;
    layout.threadTerms.erase(layout.threadTerms.begin() + dim);
    result = layout;
  } else {
    return emitError() << "no register layout (expected #tilegpu.mma, "
                          "#tilegpu.blocked or #tilegpu.slice), got "
                       << attr;
  }
  if (failed(result))
    return failure();
  result->usedLaneBits = result->usedWarpBits = 0;
  for (auto &terms : result->threadTerms)
    for (const ThreadTerm &term : terms)
      (term.isWarp ? result->usedWarpBits : result->usedLaneBits) |=
          termBits(term);
  return result;
}

bool mlir::tilegpu::fitsRegisterLayout(Attribute layout,
                                       ArrayRef<int64_t> shape) {
  return succeeded(
      getRegisterLayout(layout, shape, [] { return InFlightDiagnostic(); }));
}

int64_t mlir::tilegpu::getNumRegs(RankedTensorType type) {
  FailureOr<RegisterLayout> layout = getRegisterLayout(
      type.getEncoding(), type.getShape(), [] { return InFlightDiagnostic(); });
  return succeeded(layout) ? layout->getNumRegs() : -1;
}

unsigned mlir::tilegpu::getNumWarps(Attribute layout) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return getNumWarps(slice.getParent());
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout))
    return mma.getNumWarps();
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    return blocked.getNumWarps();
  return 1;
}

SmallVector<int64_t>
mlir::tilegpu::getRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

LinearMap mlir::tilegpu::getStridedLinearMap(const RegisterLayout &layout,
                                             ArrayRef<int64_t> strides) {
  LinearMap map;
  for (ArrayRef<int64_t> coord : layout.regCoords) {
    int64_t linear = 0;
    for (auto [c, stride] : llvm::zip(coord, strides))
      linear += c * stride;
    map.regs.push_back(linear);
  }
  map.lanes.assign(5, 0);
  map.warps.assign(llvm::Log2_32_Ceil(layout.numWarps), 0);
  for (auto [d, terms] : llvm::enumerate(layout.threadTerms))
    for (const ThreadTerm &term : terms) {
      unsigned lo = llvm::Log2_32(term.div);
      SmallVector<int64_t> &bits = term.isWarp ? map.warps : map.lanes;
      for (unsigned b = 0; b < llvm::Log2_32(term.mod); ++b)
        if (lo + b < bits.size())
          bits[lo + b] += (term.mul << b) * strides[d];
    }
  return map;
}

LinearMap mlir::tilegpu::getLinearMap(const RegisterLayout &layout,
                                      ArrayRef<int64_t> shape) {
  return getStridedLinearMap(layout, getRowMajorStrides(shape));
}

bool mlir::tilegpu::haveSameRegisters(Attribute layoutA,
                                      ArrayRef<int64_t> shapeA,
                                      Attribute layoutB,
                                      ArrayRef<int64_t> shapeB) {
  auto quiet = [] { return InFlightDiagnostic(); };
  FailureOr<RegisterLayout> a = getRegisterLayout(layoutA, shapeA, quiet);
  FailureOr<RegisterLayout> b = getRegisterLayout(layoutB, shapeB, quiet);
  if (failed(a) || failed(b) || a->numWarps != b->numWarps)
    return false;
  return getLinearMap(*a, shapeA) == getLinearMap(*b, shapeB);
}

unsigned mlir::tilegpu::getVectorWidth(const RegisterLayout &layout,
                                       unsigned dim, unsigned maxWidth) {
  for (unsigned v = llvm::bit_floor(std::max(maxWidth, 1u)); v > 1; v /= 2) {
    if (layout.getNumRegs() % v != 0)
      continue;
    bool ok = llvm::all_of(layout.threadTerms[dim],
                           [&](const ThreadTerm &t) { return t.mul % v == 0; });
    for (int64_t r = 0; ok && r < layout.getNumRegs(); r += v) {
      ArrayRef<int64_t> first = layout.regCoords[r];
      ok = first[dim] % v == 0;
      for (unsigned k = 1; ok && k < v; ++k) {
        SmallVector<int64_t, 2> next(first);
        next[dim] += k;
        ok = ArrayRef<int64_t>(layout.regCoords[r + k]) ==
             ArrayRef<int64_t>(next);
      }
    }
    if (ok)
      return v;
  }
  return 1;
}

SmallVector<unsigned> mlir::tilegpu::getRowMajorOrder(unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d > 0; --d)
    order.push_back(d - 1);
  return order;
}

BlockedLayoutAttr mlir::tilegpu::getDefaultBlockedLayout(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> order,
    unsigned vecElems, unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> block(rank, 1), lanes(rank, 1), warps(rank, 1);
  SmallVector<int64_t> left(shape);
  unsigned fastest = order[0];
  block[fastest] = static_cast<unsigned>(std::min<int64_t>(
      llvm::bit_floor(std::max(vecElems, 1u)), powerOfTwoPart(left[fastest])));
  left[fastest] /= block[fastest];
  unsigned lanesLeft = kWarpSize, warpsLeft = numWarps;
  for (unsigned d : order) {
    unsigned t = static_cast<unsigned>(
        std::min<int64_t>(lanesLeft, powerOfTwoPart(left[d])));
    lanes[d] = t;
    lanesLeft /= t;
    left[d] /= t;
  }
  lanes[order.back()] *= lanesLeft;
  for (unsigned d : llvm::reverse(order)) {
    unsigned w = static_cast<unsigned>(
        std::min<int64_t>(warpsLeft, powerOfTwoPart(left[d])));
    warps[d] = w;
    warpsLeft /= w;
    left[d] /= w;
  }
  warps[order.back()] *= warpsLeft;
  return BlockedLayoutAttr::get(ctx, block, lanes, warps, order);
}

/// `layout` (of some rank R) with a unit dimension inserted at `pos`, or
/// null.
static Attribute insertUnitDim(Attribute layout, unsigned pos) {
  MLIRContext *ctx = layout.getContext();
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    unsigned dim = slice.getDim();
    if (pos == dim)
      return slice.getParent();
    // The slice's dimensions are the parent's without `dim`.
    unsigned parentPos = pos <= dim ? pos : pos + 1;
    Attribute parent = insertUnitDim(slice.getParent(), parentPos);
    if (!parent)
      return {};
    return SliceLayoutAttr::get(ctx, parentPos <= dim ? dim + 1 : dim, parent);
  }
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    auto insert = [&](ArrayRef<unsigned> values) {
      SmallVector<unsigned> v(values);
      v.insert(v.begin() + pos, 1);
      return v;
    };
    SmallVector<unsigned> order;
    for (unsigned d : blocked.getOrder())
      order.push_back(d >= pos ? d + 1 : d);
    order.push_back(pos);
    return BlockedLayoutAttr::get(ctx, insert(blocked.getSizePerThread()),
                                  insert(blocked.getThreadsPerWarp()),
                                  insert(blocked.getWarpsPerCTA()), order);
  }
  return {};
}

static SmallVector<int64_t> nonUnitSizes(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> sizes;
  for (int64_t d : shape)
    if (d != 1)
      sizes.push_back(d);
  return sizes;
}

Attribute mlir::tilegpu::getReshapedLayout(Attribute layout,
                                           ArrayRef<int64_t> from,
                                           ArrayRef<int64_t> to) {
  if (!layout || !fitsRegisterLayout(layout, from))
    return {};
  if (from == to)
    return layout;
  Attribute result;
  if (nonUnitSizes(from) == nonUnitSizes(to)) {
    // Unit dimensions only: remove those of `from` (last first), then
    // insert those of `to` (first first).
    result = layout;
    for (int64_t d = static_cast<int64_t>(from.size()) - 1; d >= 0; --d)
      if (from[d] == 1)
        result = SliceLayoutAttr::get(layout.getContext(), d, result);
    for (auto [d, size] : llvm::enumerate(to))
      if (size == 1 && result)
        result = insertUnitDim(result, d);
  } else {
    // A split or merge: the row-major blocked layout of the target with
    // the source's vector, when it holds the same elements.
    FailureOr<RegisterLayout> map =
        getRegisterLayout(layout, from, [] { return InFlightDiagnostic(); });
    unsigned vec = getVectorWidth(*map, from.size() - 1, 16);
    result = getDefaultBlockedLayout(layout.getContext(), to,
                                     getRowMajorOrder(to.size()), vec,
                                     getNumWarps(layout));
  }
  if (result && haveSameRegisters(layout, from, result, to))
    return result;
  return {};
}

Attribute mlir::tilegpu::getPermutedLayout(Attribute layout,
                                           ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return layout;
  MLIRContext *ctx = layout.getContext();
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    auto permute = [&](ArrayRef<unsigned> values) {
      SmallVector<unsigned> v;
      for (int64_t p : permutation)
        v.push_back(values[p]);
      return v;
    };
    SmallVector<unsigned> inverse(permutation.size());
    for (auto [i, p] : llvm::enumerate(permutation))
      inverse[p] = i;
    SmallVector<unsigned> order;
    for (unsigned d : blocked.getOrder())
      order.push_back(inverse[d]);
    return BlockedLayoutAttr::get(ctx, permute(blocked.getSizePerThread()),
                                  permute(blocked.getThreadsPerWarp()),
                                  permute(blocked.getWarpsPerCTA()), order);
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    // Permute the parent's other dimensions the same way; `dim` stays.
    unsigned dim = slice.getDim();
    auto toParent = [&](int64_t i) { return i < dim ? i : i + 1; };
    SmallVector<int64_t> parentPerm;
    for (unsigned j = 0; j <= permutation.size(); ++j)
      parentPerm.push_back(
          j == dim ? dim : toParent(permutation[j < dim ? j : j - 1]));
    Attribute parent = getPermutedLayout(slice.getParent(), parentPerm);
    return parent ? SliceLayoutAttr::get(ctx, dim, parent) : Attribute();
  }
  return {};
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

/// The widest access (a power of two up to `maxWidth`) for which the
/// registers of `map` come in groups of consecutive indices, aligned to the
/// group size, with every thread contribution a multiple of it.
static unsigned getMoveWidth(const LinearMap &map, int64_t rowSize,
                             unsigned maxWidth) {
  for (unsigned v = maxWidth; v > 1; v /= 2) {
    if (map.regs.size() % v != 0 || rowSize % v != 0)
      continue;
    bool ok = llvm::all_of(map.lanes, [&](int64_t c) { return c % v == 0; }) &&
              llvm::all_of(map.warps, [&](int64_t c) { return c % v == 0; });
    for (size_t r = 0; ok && r < map.regs.size(); r += v) {
      ok = map.regs[r] % v == 0;
      for (unsigned k = 1; ok && k < v; ++k)
        ok = map.regs[r + k] == map.regs[r] + k;
    }
    if (ok)
      return v;
  }
  return 1;
}

bool RegisterMove::splitsByThread(const LinearMap &map) const {
  if (!llvm::isPowerOf2_64(rowSize))
    return false;
  int64_t threadBits = 0;
  for (int64_t c : llvm::concat<const int64_t>(map.lanes, map.warps)) {
    if (c == 0)
      continue;
    if (!llvm::isPowerOf2_64(c) || (threadBits & c))
      return false;
    threadBits |= c;
  }
  return llvm::none_of(map.regs, [&](int64_t r) { return r & threadBits; });
}

/// Whether every element index below `numel` is held by exactly one warp
/// in `a` and in `b`, the same one.
static bool holdInSameWarps(const LinearMap &a, const LinearMap &b,
                            unsigned numWarps, int64_t numel) {
  // A warp bit that adds nothing replicates across warps. The walk below
  // visits every (warp, lane, register): more than 32 visits an element
  // (replication within registers) answers no rather than spend the time
  // (the answer only decides whether a move may skip block barriers).
  auto replicatesWarps = [](const LinearMap &map) {
    return llvm::is_contained(map.warps, 0);
  };
  auto tooMany = [&](const LinearMap &map) {
    return static_cast<int64_t>(map.regs.size()) * numWarps >
           static_cast<int64_t>(numel);
  };
  if (a.warps != b.warps || replicatesWarps(a) || tooMany(a) || tooMany(b))
    return false;
  // The warp holding each element (-1: none yet); empty on a clash.
  auto owners = [&](const LinearMap &map) {
    SmallVector<int> owner(numel, -1);
    auto offset = [](ArrayRef<int64_t> bits, unsigned id) {
      int64_t sum = 0;
      for (auto [b, c] : llvm::enumerate(bits))
        if (id & (1u << b))
          sum += c;
      return sum;
    };
    for (unsigned w = 0; w < numWarps; ++w)
      for (unsigned l = 0; l < kWarpSize; ++l) {
        int64_t base = offset(map.warps, w) + offset(map.lanes, l);
        for (int64_t r : map.regs) {
          int64_t i = base + r;
          if (i < 0 || i >= numel)
            return SmallVector<int>();
          int &o = owner[i];
          if (o != -1 && o != static_cast<int>(w))
            return SmallVector<int>();
          o = static_cast<int>(w);
        }
      }
    if (llvm::is_contained(owner, -1))
      return SmallVector<int>();
    return owner;
  };
  SmallVector<int> fromA = owners(a);
  return !fromA.empty() && fromA == owners(b);
}

FailureOr<RegisterMove>
mlir::tilegpu::getRegisterMove(RankedTensorType srcType,
                               RankedTensorType dstType,
                               ArrayRef<int64_t> permutation) {
  auto quiet = [] { return InFlightDiagnostic(); };
  FailureOr<RegisterLayout> src =
      getRegisterLayout(srcType.getEncoding(), srcType.getShape(), quiet);
  FailureOr<RegisterLayout> dst =
      getRegisterLayout(dstType.getEncoding(), dstType.getShape(), quiet);
  if (failed(src) || failed(dst) || src->numWarps != dst->numWarps ||
      srcType.getNumElements() != dstType.getNumElements())
    return failure();
  RegisterMove move;
  move.src = *src;
  move.dst = *dst;
  move.dstStrides = getRowMajorStrides(dstType.getShape());
  if (permutation.empty()) {
    move.srcStrides = getRowMajorStrides(srcType.getShape());
  } else {
    move.srcStrides.assign(srcType.getRank(), 0);
    for (auto [i, p] : llvm::enumerate(permutation))
      move.srcStrides[p] = move.dstStrides[i];
  }
  LinearMap from = getStridedLinearMap(*src, move.srcStrides);
  LinearMap to = getStridedLinearMap(*dst, move.dstStrides);
  if (from == to)
    return move;
  if (from.lanes == to.lanes && from.warps == to.warps) {
    // The same elements in each thread: a register permutation.
    move.kind = RegisterMove::Permutation;
    for (int64_t index : to.regs) {
      auto it = llvm::find(from.regs, index);
      if (it == from.regs.end()) {
        move.shuffle.clear();
        break;
      }
      move.shuffle.push_back(it - from.regs.begin());
    }
    if (!move.shuffle.empty())
      return move;
  }
  move.kind = RegisterMove::Shared;
  Type elementType = dstType.getElementType();
  move.elementBytes =
      std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  move.rowSize = dstType.getShape().empty() ? 1 : dstType.getShape().back();
  unsigned maxWidth =
      static_cast<unsigned>(std::max<int64_t>(1, 16 / move.elementBytes));
  move.writeVec = getMoveWidth(from, move.rowSize, maxWidth);
  move.readVec = getMoveWidth(to, move.rowSize, maxWidth);
  // Padding each row by the wider access shifts consecutive rows to other
  // banks and keeps both sides' vectors aligned.
  move.pad = std::max(move.writeVec, move.readVec);
  int64_t numel = dstType.getNumElements();
  move.bytes = move.offset(numel - 1) * move.elementBytes + move.elementBytes;
  // With one warp the block barrier is the warp's, and the moves may share
  // one scratch area.
  move.warpLocal =
      src->numWarps > 1 && holdInSameWarps(from, to, src->numWarps, numel);
  return move;
}

int64_t mlir::tilegpu::getScratchBytes(Operation *op, bool *warpLocal) {
  if (warpLocal)
    *warpLocal = false;
  auto tensorType = [](Value v) {
    return dyn_cast<RankedTensorType>(v.getType());
  };
  if (isa<ConvertLayoutOp, tile::ReshapeOp, tile::PermuteOp>(op)) {
    auto src = tensorType(op->getOperand(0));
    auto dst = tensorType(op->getResult(0));
    if (!src || !dst || !src.getEncoding() || !dst.getEncoding())
      return 0;
    ArrayRef<int64_t> perm;
    if (auto permute = dyn_cast<tile::PermuteOp>(op))
      perm = permute.getPermutation();
    FailureOr<RegisterMove> move = getRegisterMove(src, dst, perm);
    if (failed(move) || move->kind != RegisterMove::Shared)
      return 0;
    if (warpLocal)
      *warpLocal = move->warpLocal;
    return move->bytes;
  }
  // A scalar atomic hands its old value to the block through 8 bytes.
  if (auto atomic = dyn_cast<tile::AtomicOp>(op))
    return atomic.getResult() && !tensorType(atomic.getValue()) ? 8 : 0;
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    auto src = tensorType(reduce.getSource());
    auto dst = tensorType(reduce.getResult());
    if (!src.getEncoding() || !dst.getEncoding())
      return 0;
    FailureOr<RegisterLayout> layout = getRegisterLayout(
        src.getEncoding(), src.getShape(), [] { return InFlightDiagnostic(); });
    if (failed(layout))
      return 0;
    // One partial per warp along the axis and output element.
    int64_t warps = 1;
    for (const ThreadTerm &term : layout->threadTerms[reduce.getAxis()])
      if (term.isWarp)
        warps *= term.mod;
    if (warps == 1)
      return 0;
    return warps * dst.getNumElements() *
           std::max<int64_t>(4,
                             src.getElementType().getIntOrFloatBitWidth() / 8);
  }
  return 0;
}

ScratchNeeds mlir::tilegpu::getScratchNeeds(Operation *root) {
  ScratchNeeds needs;
  root->walk([&](Operation *op) {
    bool warpLocal;
    int64_t bytes = getScratchBytes(op, &warpLocal);
    if (!bytes)
      return;
    if (warpLocal) {
      needs.warpLocalUsers.push_back({op, bytes});
      return;
    }
    needs.sharedBytes = std::max(needs.sharedBytes, bytes);
    needs.users.push_back(op);
  });
  return needs;
}

int64_t ScratchNeeds::totalBytes(int64_t alignment) const {
  int64_t total = llvm::alignTo(sharedBytes, alignment);
  for (auto [op, bytes] : warpLocalUsers)
    total += llvm::alignTo(bytes, alignment);
  return total;
}
