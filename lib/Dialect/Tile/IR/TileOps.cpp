//===- TileOps.cpp - tile dialect operations ------------------------------===//
//
// Custom syntax directives, verifiers and folders of the tile operations.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "tile/Bundle/Expr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

namespace {
/// One shape size written as an expression, read token by token (the MLIR
/// lexer has `+ - * /` and parentheses) into the text of the launch
/// expressions' grammar (tile/Bundle/Expr.h), which checks and evaluates it:
///
///   size    := product (('+' | '-') product)*
///   product := primary (('*' | '/') primary)*
///   primary := integer | bare-id | ('cdiv' | 'min' | 'max') '(' size ',' size
///   ')'
///            | '(' size ')'
class ShapeExprReader {
public:
  explicit ShapeExprReader(OpAsmParser &parser) : parser(parser) {}

  /// Reads one size into `text`, its normalized spelling (`R * G`,
  /// `cdiv(N, 2)`); `primaries` counts its integers, names and groups.
  ParseResult readSize() {
    if (readProduct())
      return failure();
    while (true) {
      if (succeeded(parser.parseOptionalPlus()))
        text += " + ";
      else if (succeeded(parser.parseOptionalMinus()))
        text += " - ";
      else
        return success();
      if (readProduct())
        return failure();
    }
  }

  std::string text;
  unsigned primaries = 0;

private:
  OpAsmParser &parser;
  int depth = 0;

  ParseResult readProduct() {
    if (readPrimary())
      return failure();
    while (true) {
      if (succeeded(parser.parseOptionalStar()))
        text += " * ";
      else if (succeeded(parser.parseOptionalSlash()))
        text += " / ";
      else
        return success();
      if (readPrimary())
        return failure();
    }
  }

  ParseResult readNested(llvm::function_ref<ParseResult()> body) {
    // Bounded as the launch expressions are (hostile inputs: scripts/fuzz.py).
    if (++depth > ::tilebundle::kMaxExprDepth)
      return parser.emitError(parser.getCurrentLocation(),
                              "shape expression nested too deeply");
    ParseResult result = body();
    --depth;
    return result;
  }

  ParseResult readPrimary() {
    ++primaries;
    int64_t size;
    OptionalParseResult intResult = parser.parseOptionalInteger(size);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      text += std::to_string(size);
      return success();
    }
    if (succeeded(parser.parseOptionalLParen())) {
      text += "(";
      return readNested([&]() -> ParseResult {
        if (readSize())
          return failure();
        text += ")";
        return parser.parseRParen();
      });
    }
    StringRef name;
    if (failed(parser.parseOptionalKeyword(&name)))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected a size, a parameter name or an "
                              "expression of them (R * G, cdiv(N, 64))");
    text += name.str();
    if ((name != "cdiv" && name != "min" && name != "max") ||
        failed(parser.parseOptionalLParen()))
      return success();
    text += "(";
    return readNested([&]() -> ParseResult {
      if (readSize())
        return failure();
      if (parser.parseComma())
        return failure();
      text += ", ";
      if (readSize())
        return failure();
      text += ")";
      return parser.parseRParen();
    });
  }
};
} // namespace

/// shape-spec ::= `[` size (`,` size)* `]`, each size an integer, a
/// parameter name or an expression of them (ShapeExprReader). An expression
/// of integers alone is folded to its value.
static ParseResult parseShapeSpec(OpAsmParser &parser, ArrayAttr &shape) {
  Builder &b = parser.getBuilder();
  SmallVector<Attribute> entries;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc at = parser.getCurrentLocation();
    ShapeExprReader reader(parser);
    if (reader.readSize())
      return failure();
    // A lone integer, negative ones included (the verifier refuses them
    // with the value), or a lone parameter name.
    if (reader.primaries == 1 && isShapeParamName(reader.text)) {
      entries.push_back(b.getStringAttr(reader.text));
      return success();
    }
    int64_t single;
    if (reader.primaries == 1 && llvm::to_integer(reader.text, single, 10)) {
      entries.push_back(b.getI64IntegerAttr(single));
      return success();
    }
    SmallVector<std::string> names;
    std::string error = checkShapeExpr(reader.text, &names);
    if (!error.empty())
      return parser.emitError(at) << "shape size: " << error;
    if (!names.empty()) {
      entries.push_back(b.getStringAttr(reader.text));
      return success();
    }
    FailureOr<int64_t> value = evaluateShapeExpr(
        reader.text, [](StringRef) { return Attribute(); }, error);
    if (failed(value))
      return parser.emitError(at) << "shape size: " << error;
    entries.push_back(b.getI64IntegerAttr(*value));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseEntry))
    return failure();
  shape = b.getArrayAttr(entries);
  return success();
}

static void printShapeSpec(OpAsmPrinter &printer, Operation *,
                           ArrayAttr shape) {
  printer << "[";
  llvm::interleaveComma(shape, printer, [&](Attribute entry) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry))
      printer << intAttr.getInt();
    else
      printer << cast<StringAttr>(entry).getValue();
  });
  printer << "]";
}

/// fill-value ::= `-`? (`inf` | `nan` | float | integer) | `true` | `false`
static ParseResult parseFillValue(OpAsmParser &parser, Attribute &value) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalKeyword("true"))) {
    value = b.getBoolAttr(true);
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("false"))) {
    value = b.getBoolAttr(false);
    return success();
  }
  bool negative = succeeded(parser.parseOptionalMinus());
  if (succeeded(parser.parseOptionalKeyword("inf"))) {
    value = b.getF64FloatAttr(negative ? -INFINITY : INFINITY);
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("nan"))) {
    value = b.getF64FloatAttr(NAN);
    return success();
  }
  int64_t intValue;
  OptionalParseResult intResult = parser.parseOptionalInteger(intValue);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    value = b.getI64IntegerAttr(negative ? -intValue : intValue);
    return success();
  }
  double floatValue;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseFloat(floatValue))
    return failure();
  // A literal beyond the doubles parses as infinity: say so rather than
  // fill with it (fuzzer, seed 20261208: 3.4e+3402823669...).
  if (!std::isfinite(floatValue))
    return parser.emitError(at) << "the number is out of range (write inf or "
                                   "-inf for infinity)";
  value = b.getF64FloatAttr(negative ? -floatValue : floatValue);
  return success();
}

static void printFillValue(OpAsmPrinter &printer, Operation *,
                           Attribute value) {
  if (auto boolAttr = dyn_cast<BoolAttr>(value)) {
    printer << (boolAttr.getValue() ? "true" : "false");
    return;
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    printer << intAttr.getInt();
    return;
  }
  APFloat f = cast<FloatAttr>(value).getValue();
  if (f.isInfinity()) {
    printer << (f.isNegative() ? "-inf" : "inf");
    return;
  }
  if (f.isNaN()) {
    printer << "nan";
    return;
  }
  printer.printFloat(f);
}

namespace {
/// One optional clause: its keyword, and how to parse what follows it.
struct Clause {
  StringRef keyword;
  /// Owns the callable: a function_ref would dangle once the array of
  /// clauses is built from temporaries.
  std::function<ParseResult()> parse;
};
} // namespace

/// Optional clauses in any order, each at most once (tile.load's `order`,
/// `latency`, `padding`; tile.gather's and tile.atomic's). Stops at the first
/// token that is not a keyword; a keyword that is no clause is named.
static ParseResult parseClauses(OpAsmParser &parser, ArrayRef<Clause> clauses) {
  llvm::SmallDenseSet<StringRef> seen;
  while (true) {
    SMLoc at = parser.getCurrentLocation();
    StringRef keyword;
    if (failed(parser.parseOptionalKeyword(&keyword)))
      return success();
    const Clause *clause = llvm::find_if(
        clauses, [&](const Clause &c) { return c.keyword == keyword; });
    if (clause == clauses.end()) {
      std::string expected;
      for (const Clause &c : clauses)
        expected += "'" + c.keyword.str() + "', ";
      return parser.emitError(at)
             << "unknown clause '" << keyword << "': expected " << expected
             << "or ':' and the types";
    }
    if (!seen.insert(keyword).second)
      return parser.emitError(at) << "clause '" << keyword << "' given twice";
    if (clause->parse())
      return failure();
  }
}

/// load-clauses ::= (`order` `[` int (`,` int)* `]` | `latency` int
///                   | `padding` padding-kind)*, in any order.
static ParseResult parseLoadClauses(OpAsmParser &parser,
                                    DenseI64ArrayAttr &order,
                                    IntegerAttr &latency,
                                    PaddingAttr &padding) {
  Clause clauses[] = {
      {"order",
       [&]() -> ParseResult {
         return parser.parseCustomAttributeWithFallback(order, Type());
       }},
      {"latency",
       [&]() -> ParseResult {
         int32_t value;
         if (parser.parseInteger(value))
           return failure();
         latency = parser.getBuilder().getI32IntegerAttr(value);
         return success();
       }},
      {"padding", [&]() -> ParseResult {
         return parser.parseCustomAttributeWithFallback(padding, Type());
       }}};
  return parseClauses(parser, clauses);
}

static void printLoadClauses(OpAsmPrinter &printer, Operation *,
                             DenseI64ArrayAttr order, IntegerAttr latency,
                             PaddingAttr padding) {
  if (order) {
    printer << " order ";
    printer.printStrippedAttrOrType(order);
  }
  if (latency)
    printer << " latency " << latency.getInt();
  if (padding && padding.getValue() != Padding::zero) {
    printer << " padding ";
    printer.printStrippedAttrOrType(padding);
  }
}

/// gather-clauses ::= (`mask` ssa-id `:` type | `padding` padding-kind)*
static ParseResult
parseGatherClauses(OpAsmParser &parser,
                   std::optional<OpAsmParser::UnresolvedOperand> &mask,
                   Type &maskType, PaddingAttr &padding) {
  Clause clauses[] = {
      {"mask",
       [&]() -> ParseResult {
         mask.emplace();
         return failure(parser.parseOperand(*mask) || parser.parseColon() ||
                        parser.parseType(maskType));
       }},
      {"padding", [&]() -> ParseResult {
         return parser.parseCustomAttributeWithFallback(padding, Type());
       }}};
  return parseClauses(parser, clauses);
}

static void printGatherClauses(OpAsmPrinter &printer, Operation *, Value mask,
                               Type maskType, PaddingAttr padding) {
  if (mask)
    printer << " mask " << mask << " : " << maskType;
  if (padding && padding.getValue() != Padding::zero) {
    printer << " padding ";
    printer.printStrippedAttrOrType(padding);
  }
}

/// atomic-clauses ::= (`compare` ssa-id `:` type | `mask` ssa-id `:` type
///                     | `sem` memory-order)*
static ParseResult parseAtomicClauses(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &compare,
    Type &compareType, std::optional<OpAsmParser::UnresolvedOperand> &mask,
    Type &maskType, MemoryOrderAttr &sem) {
  Clause clauses[] = {
      {"compare",
       [&]() -> ParseResult {
         compare.emplace();
         return failure(parser.parseOperand(*compare) || parser.parseColon() ||
                        parser.parseType(compareType));
       }},
      {"mask",
       [&]() -> ParseResult {
         mask.emplace();
         return failure(parser.parseOperand(*mask) || parser.parseColon() ||
                        parser.parseType(maskType));
       }},
      {"sem", [&]() -> ParseResult {
         return parser.parseCustomAttributeWithFallback(sem, Type());
       }}};
  return parseClauses(parser, clauses);
}

static void printAtomicClauses(OpAsmPrinter &printer, Operation *,
                               Value compare, Type compareType, Value mask,
                               Type maskType, MemoryOrderAttr sem) {
  if (compare)
    printer << " compare " << compare << " : " << compareType;
  if (mask)
    printer << " mask " << mask << " : " << maskType;
  if (sem && sem.getValue() != MemoryOrder::relaxed) {
    printer << " sem ";
    printer.printStrippedAttrOrType(sem);
  }
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string dimString(int64_t d) {
  return ShapedType::isDynamic(d) ? "?" : std::to_string(d);
}

/// Two sizes agree when equal or when either is still a parameter.
static bool sizesAgree(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

LogicalResult ParamOp::verify() {
  Operation *kernel = getEnclosingKernel(*this);
  if (!kernel)
    return emitOpError() << "must be inside a kernel (a func.func with "
                            "'tile.kernel')";
  auto params =
      kernel->getAttrOfType<DictionaryAttr>(TileDialect::getParamsAttrName());
  Attribute value = params ? params.get(getName()) : Attribute();
  if (!value)
    return emitOpError() << "parameter '" << getName()
                         << "' is not declared in the kernel's 'tile.params'";
  if (isa<TypeAttr>(value))
    return emitOpError() << "parameter '" << getName()
                         << "' is a type; use it as !tile.dtype<\"" << getName()
                         << "\">";
  auto intValue = cast<IntegerAttr>(value);
  Type type = getType();
  bool isBool = intValue.getType().isInteger(1);
  if (isBool != type.isInteger(1) || isa<FloatType>(type))
    return emitOpError() << "parameter '" << getName() << "' is "
                         << (isBool ? "a boolean (read it as i1)"
                                    : "an integer (read it as an integer)")
                         << ", not " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  auto type = getType();
  if (failed(verifyShapeAgainstSpec(*this, getShape(), type, "result")))
    return failure();
  // The GPU lowering counts in i32 or i64; i1, i8 and i16 failed there.
  if (!type.getElementType().isInteger(32) &&
      !type.getElementType().isInteger(64))
    return emitOpError() << "counts in i32 or i64, not "
                         << type.getElementType()
                         << " (convert the result with arith.trunci)";
  // The attribute is signed in the IR; read it as such so that a negative
  // dimension is reported as what it is.
  int64_t dimension = getDimensionAttr().getInt();
  if (dimension < 0 || dimension >= type.getRank())
    return emitOpError() << "dimension " << dimension
                         << " is out of range for a rank-" << type.getRank()
                         << " tile";
  return success();
}

LogicalResult FullOp::verify() {
  auto type = getType();
  if (failed(verifyShapeAgainstSpec(*this, getShape(), type, "result")))
    return failure();
  Type element = type.getElementType();
  Attribute value = getValue();
  if (element.isInteger(1)) {
    if (!isa<BoolAttr>(value))
      return emitOpError() << "an i1 tile is filled with true or false";
    return success();
  }
  if (auto intType = dyn_cast<IntegerType>(element)) {
    if (!isa<IntegerAttr>(value) || isa<BoolAttr>(value))
      return emitOpError() << "an integer tile is filled with an integer";
    // Signed or unsigned, the value must fit the bits (no truncation).
    int64_t v = cast<IntegerAttr>(value).getInt();
    unsigned bits = intType.getWidth();
    if (bits < 64 &&
        (v < -(int64_t(1) << (bits - 1)) || v >= (int64_t(1) << bits)))
      return emitOpError() << "the value " << v << " does not fit in "
                           << element;
    return success();
  }
  if (isFloatLikeElementType(element)) {
    if (isa<BoolAttr>(value) || !isa<FloatAttr, IntegerAttr>(value))
      return emitOpError() << "a float tile is filled with a number, inf or "
                              "nan";
    // A finite number that rounds to infinity in the element type.
    if (auto floatType = dyn_cast<FloatType>(element)) {
      APFloat v(floatType.getFloatSemantics());
      bool finite = true;
      if (auto f = dyn_cast<FloatAttr>(value)) {
        finite = f.getValue().isFinite();
        v = f.getValue();
        bool lost;
        v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
      } else {
        v.convertFromAPInt(cast<IntegerAttr>(value).getValue(),
                           /*IsSigned=*/true, APFloat::rmNearestTiesToEven);
      }
      if (finite && v.isInfinity())
        return emitOpError() << "the value does not fit in " << element
                             << " (it rounds to infinity; write inf for "
                                "infinity)";
    }
    return success();
  }
  return emitOpError() << "cannot fill a tile of " << element;
}

LogicalResult SplatOp::verify() {
  auto type = getType();
  if (failed(verifyShapeAgainstSpec(*this, getShape(), type, "result")))
    return failure();
  if (type.getElementType() != getValue().getType())
    return emitOpError() << "splats a " << getValue().getType()
                         << " into a tile of " << type.getElementType();
  return success();
}

namespace {
/// splat(arith.constant c) -> full c: a constant tile is easier to analyse.
struct SplatOfConstant : OpRewritePattern<SplatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplatOp op,
                                PatternRewriter &rewriter) const override {
    Attribute value;
    if (!matchPattern(op.getValue(), m_Constant(&value)))
      return rewriter.notifyMatchFailure(op, "splat of a non-constant");
    // tile.full fills integer and float tiles only (not index ones).
    if (!isa<IntegerType, FloatType>(op.getType().getElementType()))
      return rewriter.notifyMatchFailure(op, "no tile.full of this type");
    Attribute fill;
    if (auto f = dyn_cast<FloatAttr>(value))
      fill = rewriter.getF64FloatAttr(f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(value))
      fill = i.getType().isInteger(1)
                 ? Attribute(rewriter.getBoolAttr(i.getValue().getBoolValue()))
                 : Attribute(rewriter.getI64IntegerAttr(i.getInt()));
    else
      return rewriter.notifyMatchFailure(op, "unsupported constant");
    rewriter.replaceOpWithNewOp<FullOp>(op, op.getType(), fill, op.getShape());
    return success();
  }
};
} // namespace

void SplatOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SplatOfConstant>(context);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  int64_t rank = getView().getType().getRank();
  int64_t dimension = getDimensionAttr().getInt();
  if (dimension < 0 || dimension >= rank)
    return emitOpError() << "dimension " << dimension
                         << " is out of range for a rank-" << rank << " view";
  return success();
}

LogicalResult LoadOp::verify() {
  ViewType view = getView().getType();
  auto type = getType();
  int64_t rank = view.getRank();
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError() << "takes " << rank << " tile indices for a rank-"
                         << rank << " view, got " << getIndices().size();
  if (type.getRank() != rank)
    return emitOpError() << "loads a rank-" << type.getRank()
                         << " tile from a rank-" << rank << " view";
  if (failed(verifyShapeAgainstSpec(*this, getShape(), type, "result")))
    return failure();
  if (type.getElementType() != view.getElementType())
    return emitOpError() << "loads " << type.getElementType()
                         << " from a view of " << view.getElementType();
  if (std::optional<ArrayRef<int64_t>> order = getOrder()) {
    if (static_cast<int64_t>(order->size()) != rank)
      return emitOpError() << "order must list " << rank << " dimensions";
    SmallVector<bool> seen(rank, false);
    for (int64_t d : *order) {
      if (d < 0 || d >= rank || seen[d])
        return emitOpError()
               << "order must be a permutation of [0, " << rank << ")";
      seen[d] = true;
    }
  }
  if (std::optional<uint32_t> latency = getLatency())
    if (*latency < 1 || *latency > 10)
      return emitOpError() << "latency must be in [1, 10], got " << *latency;
  if (getPadding() != Padding::zero &&
      !isFloatLikeElementType(type.getElementType()))
    return emitOpError() << "padding " << stringifyPadding(getPadding())
                         << " needs a float element type";
  return success();
}

LogicalResult StoreOp::verify() {
  ViewType view = getView().getType();
  auto type = cast<RankedTensorType>(getValue().getType());
  int64_t rank = view.getRank();
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError() << "takes " << rank << " tile indices for a rank-"
                         << rank << " view, got " << getIndices().size();
  if (type.getRank() != rank)
    return emitOpError() << "stores a rank-" << type.getRank()
                         << " tile into a rank-" << rank << " view";
  if (type.getElementType() != view.getElementType())
    return emitOpError() << "stores " << type.getElementType()
                         << " into a view of " << view.getElementType();
  return success();
}

/// Whether two tile types have one shape (sizes still parameters agree).
static bool shapesAgree(RankedTensorType a, RankedTensorType b) {
  if (a.getRank() != b.getRank())
    return false;
  for (int64_t d = 0; d < a.getRank(); ++d)
    if (!sizesAgree(a.getDimSize(d), b.getDimSize(d)))
      return false;
  return true;
}

/// Shared checks of gather and scatter: one index tile per view dimension,
/// each an i32 or i64 tile of the data's shape, and an i1 mask of it.
static LogicalResult verifyIndexTiles(Operation *op, ViewType view,
                                      RankedTensorType data, ValueRange indices,
                                      Value mask) {
  if (static_cast<int64_t>(indices.size()) != view.getRank())
    return op->emitOpError() << "takes one index tile per view dimension ("
                             << view.getRank() << "), got " << indices.size();
  for (auto [d, index] : llvm::enumerate(indices)) {
    auto type = cast<RankedTensorType>(index.getType());
    if (!type.getElementType().isInteger(32) &&
        !type.getElementType().isInteger(64))
      return op->emitOpError()
             << "index tile " << d << " must be of i32 or i64, got "
             << type.getElementType();
    if (!shapesAgree(type, data))
      return op->emitOpError() << "index tile " << d << " must have the "
                               << "shape of the data tile";
  }
  if (mask) {
    auto type = cast<RankedTensorType>(mask.getType());
    if (!type.getElementType().isInteger(1) || !shapesAgree(type, data))
      return op->emitOpError() << "mask must be an i1 tile of the data's shape";
  }
  return success();
}

LogicalResult ReadOp::verify() {
  ViewType view = getView().getType();
  if (static_cast<int64_t>(getIndices().size()) != view.getRank())
    return emitOpError() << "takes " << view.getRank()
                         << " element coordinates for a rank-" << view.getRank()
                         << " view, got " << getIndices().size();
  if (getType() != view.getElementType())
    return emitOpError() << "reads " << getType() << " from a view of "
                         << view.getElementType();
  return success();
}

LogicalResult GatherOp::verify() {
  ViewType view = getView().getType();
  auto type = getType();
  if (type.getElementType() != view.getElementType())
    return emitOpError() << "gathers " << type.getElementType()
                         << " from a view of " << view.getElementType();
  if (getPadding() != Padding::zero &&
      !isFloatLikeElementType(type.getElementType()))
    return emitOpError() << "padding " << stringifyPadding(getPadding())
                         << " needs a float element type";
  return verifyIndexTiles(*this, view, type, getIndices(), getMask());
}

LogicalResult ScatterOp::verify() {
  ViewType view = getView().getType();
  auto type = cast<RankedTensorType>(getValue().getType());
  if (type.getElementType() != view.getElementType())
    return emitOpError() << "scatters " << type.getElementType()
                         << " into a view of " << view.getElementType();
  return verifyIndexTiles(*this, view, type, getIndices(), getMask());
}

LogicalResult AtomicOp::verify() {
  ViewType view = getView().getType();
  Type valueType = getValue().getType();
  auto tensor = dyn_cast<RankedTensorType>(valueType);
  Type element = tensor ? tensor.getElementType() : valueType;
  if (!tensor && !element.isIntOrFloat())
    return emitOpError() << "value must be a tile or a scalar, got "
                         << valueType;
  if (static_cast<int64_t>(getIndices().size()) != view.getRank())
    return emitOpError() << "takes " << view.getRank() << " indices for a rank-"
                         << view.getRank() << " view, got "
                         << getIndices().size();
  if (tensor && tensor.getRank() != view.getRank())
    return emitOpError() << "combines a rank-" << tensor.getRank()
                         << " tile into a rank-" << view.getRank() << " view";
  if (element != view.getElementType())
    return emitOpError() << "combines " << element << " into a view of "
                         << view.getElementType();
  if (getResult() && getResult().getType() != valueType)
    return emitOpError() << "result must have the value's type " << valueType;
  if (getCompare() && getCompare().getType() != valueType)
    return emitOpError() << "compare must have the value's type " << valueType;
  if (getMask()) {
    auto mask = cast<RankedTensorType>(getMask().getType());
    if (!tensor)
      return emitOpError() << "a scalar atomic takes no mask";
    if (!mask.getElementType().isInteger(1) || !shapesAgree(mask, tensor))
      return emitOpError() << "mask must be an i1 tile of the value's shape";
  }
  if (!tensor && getElementOffsets())
    return emitOpError() << "a scalar atomic addresses an element already "
                            "('at' is for tiles)";
  AtomicKind kind = getKind();
  if ((kind == AtomicKind::cas) != static_cast<bool>(getCompare()))
    return emitOpError() << (kind == AtomicKind::cas
                                 ? "cas needs a compare value"
                                 : "only cas takes a compare value");
  // Types the GPU has the operation for (or a compare-and-swap loop for).
  bool isInt = element.isInteger(32) || element.isInteger(64);
  bool ok = false;
  switch (kind) {
  case AtomicKind::add:
    ok = isInt || element.isF32() || element.isF16() || element.isBF16();
    break;
  case AtomicKind::max:
  case AtomicKind::min:
    ok = isInt || element.isF32();
    break;
  case AtomicKind::xchg:
    ok = isInt || element.isF32();
    break;
  case AtomicKind::cas:
    ok = isInt;
    break;
  }
  if (!ok && !isa<DTypeParamType>(element))
    return emitOpError() << "atomic " << stringifyAtomicKind(kind)
                         << " is not available for " << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getAcc().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands must be rank-2 tiles";
  if (!isMmaOperandElementType(a.getElementType()))
    return emitOpError()
           << "operand a must be f16, bf16, f8E4M3FN or f8E5M2, got "
           << a.getElementType();
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "operands a and b must have one element type, got "
                         << a.getElementType() << " and " << b.getElementType();
  if (!c.getElementType().isF32())
    return emitOpError() << "the accumulator must be f32, got "
                         << c.getElementType();
  if (!sizesAgree(a.getDimSize(1), b.getDimSize(0)))
    return emitOpError() << "a is " << dimString(a.getDimSize(0)) << "x"
                         << dimString(a.getDimSize(1)) << " but b is "
                         << dimString(b.getDimSize(0)) << "x"
                         << dimString(b.getDimSize(1))
                         << ": the K dimensions differ";
  if (!sizesAgree(a.getDimSize(0), c.getDimSize(0)) ||
      !sizesAgree(b.getDimSize(1), c.getDimSize(1)))
    return emitOpError() << "the accumulator is " << dimString(c.getDimSize(0))
                         << "x" << dimString(c.getDimSize(1))
                         << " but a x b is " << dimString(a.getDimSize(0))
                         << "x" << dimString(b.getDimSize(1));
  return success();
}

LogicalResult Exp2Op::verify() {
  Type element = getType().getElementType();
  if (!isFloatLikeElementType(element))
    return emitOpError() << "needs a float tile, got " << element;
  return success();
}

LogicalResult MulHiUOp::verify() {
  Type element = getType().getElementType();
  if (!element.isSignlessInteger(32) && !element.isSignlessInteger(64))
    return emitOpError() << "needs an i32 or i64 tile, got " << element;
  return success();
}

LogicalResult DivOp::verify() {
  Type element = getType().getElementType();
  if (!isFloatLikeElementType(element))
    return emitOpError() << "needs a float tile, got " << element;
  if (getRounding() == Rounding::approx && !element.isF32())
    return emitOpError() << "rounding approx is defined for f32, got "
                         << element;
  return success();
}

LogicalResult ReduceOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= source.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-"
                         << source.getRank() << " tile";
  bool isArg =
      getKind() == ReduceKind::argmax || getKind() == ReduceKind::argmin;
  if (isArg && !result.getElementType().isInteger(32))
    return emitOpError() << stringifyReduceKind(getKind())
                         << " gives i32 indices, not "
                         << result.getElementType();
  if (!isArg && source.getElementType() != result.getElementType())
    return emitOpError() << "result element type must equal the source's";
  if (getKind() != ReduceKind::sum && source.getElementType().isInteger(1))
    return emitOpError() << stringifyReduceKind(getKind())
                         << " of i1 tiles is not supported (convert to i32)";
  SmallVector<int64_t> expected(source.getShape());
  if (getKeepdims())
    expected[axis] = 1;
  else
    expected.erase(expected.begin() + axis);
  if (static_cast<int64_t>(expected.size()) != result.getRank())
    return emitOpError() << "result must have rank " << expected.size();
  for (auto [i, dim] : llvm::enumerate(expected))
    if (!sizesAgree(dim, result.getDimSize(i)) ||
        ShapedType::isDynamic(dim) != result.isDynamicDim(i))
      return emitOpError() << "result dimension " << i << " must be "
                           << dimString(dim) << ", got "
                           << dimString(result.getDimSize(i));
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = getType();
  if (failed(verifyShapeAgainstSpec(*this, getShape(), result, "result")))
    return failure();
  if (source.getRank() != result.getRank())
    return emitOpError() << "cannot broadcast a rank-" << source.getRank()
                         << " tile to rank " << result.getRank()
                         << " (reshape first)";
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "result element type must equal the source's";
  for (int64_t i = 0; i < source.getRank(); ++i) {
    int64_t s = source.getDimSize(i);
    if (s != 1 && !sizesAgree(s, result.getDimSize(i)))
      return emitOpError() << "source dimension " << i << " is " << dimString(s)
                           << "; only size-1 dimensions "
                           << "broadcast, and the result's is "
                           << dimString(result.getDimSize(i));
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType() && getType().hasStaticShape())
    return getSource();
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = getType();
  if (failed(verifyShapeAgainstSpec(*this, getShape(), result, "result")))
    return failure();
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "result element type must equal the source's";
  if (source.hasStaticShape() && result.hasStaticShape() &&
      source.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot reshape " << source.getNumElements()
                         << " elements into " << result.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType() && getType().hasStaticShape())
    return getSource();
  // reshape(reshape(x)) -> reshape(x): only the final shape matters.
  if (auto inner = getSource().getDefiningOp<ReshapeOp>()) {
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}

LogicalResult PermuteOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = getType();
  ArrayRef<int64_t> perm = getPermutation();
  int64_t rank = source.getRank();
  if (static_cast<int64_t>(perm.size()) != rank || result.getRank() != rank)
    return emitOpError() << "permutation must list " << rank
                         << " dimensions, as must the result";
  SmallVector<bool> seen(rank, false);
  for (auto [i, d] : llvm::enumerate(perm)) {
    if (d < 0 || d >= rank || seen[d])
      return emitOpError() << "permutation must be a permutation of [0, "
                           << rank << ")";
    seen[d] = true;
    if (source.getDimSize(d) != result.getDimSize(i))
      return emitOpError() << "result dimension " << i << " must be source "
                           << "dimension " << d << " ("
                           << dimString(source.getDimSize(d)) << ")";
  }
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "result element type must equal the source's";
  return success();
}

OpFoldResult PermuteOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  for (auto [i, d] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != d)
      return {};
  return getSource();
}

LogicalResult SelectOp::verify() {
  auto cond = cast<RankedTensorType>(getCondition().getType());
  auto result = getType();
  if (!cond.getElementType().isInteger(1))
    return emitOpError() << "condition must be a tile of i1, got "
                         << cond.getElementType();
  if (cond.getShape() != result.getShape())
    return emitOpError() << "condition and values must have one shape";
  return success();
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getTrueValue() == getFalseValue())
    return getTrueValue();
  if (auto full = getCondition().getDefiningOp<FullOp>())
    if (auto value = dyn_cast<BoolAttr>(full.getValue()))
      return value.getValue() ? getTrueValue() : getFalseValue();
  return {};
}

LogicalResult AsTypeOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = getType();
  if (source.getShape() != result.getShape())
    return emitOpError() << "changes only the element type; shapes differ";
  auto convertible = [](Type t) {
    return isa<IntegerType>(t) || isFloatLikeElementType(t);
  };
  if (!convertible(source.getElementType()) ||
      !convertible(result.getElementType()))
    return emitOpError() << "converts between integer and float types only";
  return success();
}

OpFoldResult AsTypeOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  return {};
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
