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

/// One entry of a shape spec: a static size, or a string: the name of a
/// parameter (`TILE_M`) or an expression of parameters and integers
/// (`R * G`, `cdiv(N, 2) + 1`; see checkShapeExpr). Returns the static size,
/// or ShapedType::kDynamic for a string.
int64_t getShapeSpecDim(Attribute entry);

/// The sizes of a shape spec, parameters as ShapedType::kDynamic.
SmallVector<int64_t> getShapeSpecSizes(ArrayAttr shape);

/// True when every entry of the shape spec is a static size.
bool isStaticShapeSpec(ArrayAttr shape);

/// Builds a shape spec from static sizes.
ArrayAttr buildShapeSpec(MLIRContext *ctx, ArrayRef<int64_t> sizes);

/// Checks a shape entry written as text: a parameter name or an expression
/// in the grammar of the launch expressions (tile/Bundle/Expr.h) restricted
/// to what a size needs: integers, parameter names, `+ - * /`, `cdiv`,
/// `min`, `max` and parentheses. Returns the empty string when it is one,
/// else why not ("'%' is not allowed in a shape ... at column 3 of 'N % 2'").
/// `names`, when given, receives the parameter names it uses.
std::string checkShapeExpr(StringRef text,
                           SmallVectorImpl<std::string> *names = nullptr);

/// Evaluates a shape entry written as text with the parameter values
/// `lookup` gives (null: no parameter of that name). Only integer
/// parameters are sizes: a boolean or a type is an error. Fails with a
/// located message in `error`: an unknown name, a division by zero, an
/// overflow (the result is not checked for positivity here).
FailureOr<int64_t> evaluateShapeExpr(StringRef text,
                                     function_ref<Attribute(StringRef)> lookup,
                                     std::string &error);

/// True when the shape entry text is one parameter name, not an expression.
bool isShapeParamName(StringRef text);

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

/// A diagnostic handler that explains the most common type error of tile
/// kernels: MLIR's "use of value '%x' expects different type than prior
/// uses" where the two types are tiles that differ only in `?` against a
/// static size (or two static sizes), as loop-carried values and yields
/// meet it. It attaches a note saying what to write and returns failure, so
/// that the next handler reports the error with its note. Tools install it
/// after their own handler (ScopedDiagnosticHandler), or through
/// registerTypeMismatchHints when the tile dialect loads.
LogicalResult addTypeMismatchHint(Diagnostic &diag);

/// Makes every context that loads the tile dialect call addTypeMismatchHint
/// first on each diagnostic (tile-opt, whose parse MlirOptMain runs).
void registerTypeMismatchHints(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_TILE_H
