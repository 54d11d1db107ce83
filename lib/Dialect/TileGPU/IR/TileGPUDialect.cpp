//===- TileGPUDialect.cpp - tilegpu dialect -------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"

#include "tile/Bundle/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

void TileGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned version, ArrayRef<unsigned> warps) {
  if (version != 2 && version != 3)
    return emitError() << "mma version must be 2 (mma.sync) or 3 (wgmma), got "
                       << version;
  if (warps.size() != 2)
    return emitError() << "mma layout needs warps = [M, N]";
  if (warps[1] != 1)
    return emitError() << "mma version " << version
                       << " splits M only: warps[1] must be 1";
  if (warps[0] == 0 || warps[0] > 32 || !llvm::isPowerOf2_32(warps[0]))
    return emitError() << "warps[0] must be a power of two in [1, 32]";
  if (version == 3 && warps[0] % 4 != 0)
    return emitError() << "mma version 3 (wgmma) needs whole warpgroups: "
                          "warps[0] must be a multiple of 4";
  return success();
}

LogicalResult BlockedLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "a blocked layout needs sizePerThread, "
                          "threadsPerWarp, warpsPerCTA and order of one rank "
                          "(at least 1)";
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "blocked layout order must be a permutation of "
                            "the dimensions";
    seen[d] = true;
  }
  unsigned lanes = 1, warps = 1;
  for (size_t d = 0; d < rank; ++d) {
    for (unsigned v : {sizePerThread[d], threadsPerWarp[d], warpsPerCTA[d]})
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "blocked layout parameters must be powers of "
                              "two";
    lanes *= threadsPerWarp[d];
    warps *= warpsPerCTA[d];
  }
  if (lanes != kWarpSize)
    return emitError() << "threadsPerWarp must multiply to 32, got " << lanes;
  if (warps > 32)
    return emitError() << "warpsPerCTA must multiply to at most 32, got "
                       << warps;
  return success();
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, Attribute parent) {
  unsigned rank = getLayoutRank(parent);
  if (rank == 0)
    return emitError() << "slice parent must be a register layout "
                          "(#tilegpu.mma, #tilegpu.blocked or #tilegpu.slice)";
  if (dim >= rank)
    return emitError() << "slice dim must be less than the parent's rank ("
                       << rank << ")";
  return success();
}

/// A register layout fits a static tile shape when it has an index map for
/// it; dynamic shapes (tile IR before specialization) are not checked.
static LogicalResult
verifyRegisterEncoding(Attribute layout, ArrayRef<int64_t> shape,
                       function_ref<InFlightDiagnostic()> emitError) {
  if (ShapedType::isDynamicShape(shape))
    return success();
  return getRegisterLayout(layout, shape, emitError);
}

LogicalResult MmaLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRegisterEncoding(*this, shape, emitError);
}

LogicalResult BlockedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRegisterEncoding(*this, shape, emitError);
}

LogicalResult SliceLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRegisterEncoding(*this, shape, emitError);
}

/// A shared layout describes !tilegpu.smem buffers; a tensor is a tile in
/// registers, which no pass lowers with this encoding (a tensor in a plain
/// function with it was accepted and never lowered).
LogicalResult SharedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return emitError() << "#tilegpu.shared is the layout of a !tilegpu.smem "
                        "buffer, not of a tensor (a tile in registers takes "
                        "#tilegpu.mma, #tilegpu.blocked or #tilegpu.slice)";
}

Attribute SharedLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> order;
  unsigned vec = 0, perPhase = 0, maxPhase = 0, pad = 0, chunk = 0;
  SMLoc loc = parser.getCurrentLocation();
  auto parseNamed = [&](StringRef name, unsigned &value) -> bool {
    return parser.parseKeyword(name) || parser.parseEqual() ||
           parser.parseInteger(value);
  };
  if (parser.parseLess() || parser.parseKeyword("order") ||
      parser.parseEqual() ||
      failed(parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                            [&] {
                                              unsigned d;
                                              if (parser.parseInteger(d))
                                                return failure();
                                              order.push_back(d);
                                              return success();
                                            })) ||
      parser.parseComma() || parseNamed("vec", vec) || parser.parseComma() ||
      parseNamed("perPhase", perPhase) || parser.parseComma() ||
      parseNamed("maxPhase", maxPhase))
    return {};
  // Optional fields, in order: pad, chunk.
  bool seenChunk = false;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (key == "pad" && !seenChunk) {
      if (parser.parseEqual() || parser.parseInteger(pad))
        return {};
    } else if (key == "chunk" && !seenChunk) {
      seenChunk = true;
      if (parser.parseEqual() || parser.parseInteger(chunk))
        return {};
    } else {
      parser.emitError(parser.getCurrentLocation())
          << "expected 'pad' or 'chunk' (in that order), got '" << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SharedLayoutAttr>(
      loc, parser.getContext(), order, vec, perPhase, maxPhase, pad, chunk);
}

void SharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<order = [";
  llvm::interleaveComma(getOrder(), printer);
  printer << "], vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase();
  if (getPad())
    printer << ", pad = " << getPad();
  if (getChunk())
    printer << ", chunk = " << getChunk();
  printer << ">";
}

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<unsigned> order, unsigned vec,
                         unsigned perPhase, unsigned maxPhase, unsigned pad,
                         unsigned chunk) {
  if (order.size() != 2 || order[0] == order[1] || order[0] > 1 || order[1] > 1)
    return emitError() << "shared layout order must be [1, 0] or [0, 1]";
  if (vec == 0 || !llvm::isPowerOf2_32(vec) || perPhase == 0 ||
      !llvm::isPowerOf2_32(perPhase) || maxPhase == 0 ||
      !llvm::isPowerOf2_32(maxPhase))
    return emitError() << "vec, perPhase and maxPhase must be powers of two";
  if (pad % vec != 0)
    return emitError() << "pad must be a multiple of vec (rows stay 16-byte "
                          "aligned)";
  if (chunk != 0 && (!llvm::isPowerOf2_32(chunk) || chunk % vec != 0 ||
                     chunk < vec * maxPhase))
    return emitError() << "chunk must be a power of two holding whole "
                          "swizzle rows (a multiple of vec * maxPhase)";
  if (chunk != 0 && pad != 0)
    return emitError() << "a chunked shared layout has no padding";
  return success();
}

//===----------------------------------------------------------------------===//
// SharedBufferType
//===----------------------------------------------------------------------===//

Type SharedBufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(layout) || parser.parseGreater())
    return {};
  return parser.getChecked<SharedBufferType>(loc, parser.getContext(), shape,
                                             elementType, layout);
}

void SharedBufferType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getLayout() << ">";
}

LogicalResult
SharedBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType,
                         Attribute layout) {
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "a shared buffer is a 2-d tile or a ring of them";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "shared buffer sizes must be positive";
  auto shared = dyn_cast<SharedLayoutAttr>(layout);
  if (!shared)
    return emitError() << "shared buffer layout must be #tilegpu.shared";
  if (!elementType.isIntOrFloat())
    return emitError() << "shared buffer element type must be int or float";
  // The buffer's bytes (padding included) must fit the largest shared
  // memory of any chip; checked step by step, so nothing overflows.
  int64_t bits = elementType.getIntOrFloatBitWidth();
  unsigned inner = shared.getOrder()[0];
  SmallVector<int64_t> padded(shape);
  int64_t &padDim = padded[shape.size() - 2 + inner];
  // The padding is added with an overflow check: a size near 2^63 plus the
  // pad must not wrap to a small (accepted) one.
  bool padOverflows =
      llvm::AddOverflow(padDim, int64_t(shared.getPad()), padDim);
  int64_t maxBytes = tilebundle::maxSharedPerBlockOfLoweringTargets();
  int64_t limitBits = maxBytes * 8;
  int64_t totalBits = bits;
  for (int64_t d : padded) {
    if (padOverflows || d > limitBits / totalBits) {
      std::string dims;
      for (int64_t size : shape)
        dims += (dims.empty() ? "" : "x") + std::to_string(size);
      return emitError() << "a shared buffer of " << dims << " " << elementType
                         << " is larger than the " << maxBytes
                         << " bytes of shared memory any chip has";
    }
    totalBits *= d;
  }
  int64_t innerSize = shape.take_back(2)[shared.getOrder()[0]];
  if (shared.getChunk() != 0 && innerSize % shared.getChunk() != 0)
    return emitError() << "the contiguous tile dimension (" << innerSize
                       << ") must be a multiple of the layout's chunk ("
                       << shared.getChunk() << ")";
  return success();
}

LogicalResult MbarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t count) {
  if (count < 1 || count > 64)
    return emitError() << "an mbarrier group holds 1 to 64 barriers, got "
                       << count;
  return success();
}

int64_t SharedBufferType::getTileBytes() const {
  ArrayRef<int64_t> tile = getTileShape();
  auto layout = cast<SharedLayoutAttr>(getLayout());
  unsigned inner = layout.getOrder()[0];
  int64_t rowElements = tile[inner] + layout.getPad();
  return tile[1 - inner] * rowElements *
         getElementType().getIntOrFloatBitWidth() / 8;
}
