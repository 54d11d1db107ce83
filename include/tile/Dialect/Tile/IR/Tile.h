//===- Tile.h - tile dialect ------------------------------------*- C++ -*-===//
//
// The `tile` dialect: its types, attributes and operations, and the helpers
// every pass uses to read shapes that may name compile-time parameters.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILE_H
#define TILE_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

#include "tile/Dialect/Tile/IR/KernelChecks.h"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir {
namespace tile {

/// One entry of a shape spec: a static size or the name of a parameter.
/// Returns the static size, or ShapedType::kDynamic for a parameter.
int64_t getShapeSpecDim(Attribute entry);

/// The sizes of a shape spec, parameters as ShapedType::kDynamic.
SmallVector<int64_t> getShapeSpecSizes(ArrayAttr shape);

/// True when every entry of the shape spec is a static size.
bool isStaticShapeSpec(ArrayAttr shape);

/// Builds a shape spec from static sizes.
ArrayAttr buildShapeSpec(MLIRContext *ctx, ArrayRef<int64_t> sizes);

/// The most elements a tile may have (the CPU executor's limit too): 2^26,
/// 256 MiB of f32, far above any tile a GPU block holds, and small enough
/// that element counts and byte sizes never overflow.
constexpr int64_t kMaxTileElements = int64_t(1) << 26;

/// Checks that `type`'s shape agrees with the shape spec: equal static sizes,
/// and dynamic sizes where the spec names a parameter; and that a static
/// shape has at most kMaxTileElements elements.
LogicalResult verifyShapeAgainstSpec(Operation *op, ArrayAttr shape,
                                     ShapedType type, StringRef what);

/// True for element types an f16/bf16 tensor-core operand may have: f16,
/// bf16, or a `!tile.dtype` parameter (bound to one of them later).
bool isMmaOperandElementType(Type type);

/// True for float element types, counting `!tile.dtype` parameters.
bool isFloatLikeElementType(Type type);

/// The kernel function (a `func.func` with `tile.kernel`) enclosing `op`, or
/// null.
Operation *getEnclosingKernel(Operation *op);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_TILE_H
