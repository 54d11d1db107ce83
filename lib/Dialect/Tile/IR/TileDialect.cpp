//===- TileDialect.cpp - tile dialect, types and attributes ---------------===//
//
// Dialect registration, the `!tile.view` syntax, the verification of the
// kernel attributes (`tile.kernel`, `tile.params`, `tile.name`) and the
// shape-spec helpers shared by the ops and the passes.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "tile/Bundle/Expr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ViewType
//===----------------------------------------------------------------------===//

Type ViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  for (int64_t dim : shape) {
    if (!ShapedType::isDynamic(dim)) {
      parser.emitError(loc, "view dimensions are known only at run time: "
                            "write them as '?'");
      return {};
    }
  }
  return parser.getChecked<ViewType>(loc, parser.getContext(),
                                     static_cast<unsigned>(shape.size()),
                                     elementType);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << "<";
  for (unsigned i = 0; i < getRank(); ++i)
    printer << "?x";
  printer.printType(getElementType());
  printer << ">";
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned rank, Type elementType) {
  if (rank == 0 || rank > 8)
    return emitError() << "view rank must be between 1 and 8, got " << rank;
  if (!elementType.isIntOrFloat() && !isa<DTypeParamType>(elementType))
    return emitError() << "view element type must be an integer, a float or "
                          "a !tile.dtype parameter, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape specs
//===----------------------------------------------------------------------===//

int64_t mlir::tile::getShapeSpecDim(Attribute entry) {
  if (auto intAttr = dyn_cast<IntegerAttr>(entry))
    return intAttr.getInt();
  return ShapedType::kDynamic;
}

SmallVector<int64_t> mlir::tile::getShapeSpecSizes(ArrayAttr shape) {
  return llvm::map_to_vector(shape, getShapeSpecDim);
}

bool mlir::tile::isStaticShapeSpec(ArrayAttr shape) {
  return llvm::all_of(shape, [](Attribute a) { return isa<IntegerAttr>(a); });
}

ArrayAttr mlir::tile::buildShapeSpec(MLIRContext *ctx,
                                     ArrayRef<int64_t> sizes) {
  Builder b(ctx);
  return b.getArrayAttr(llvm::map_to_vector(
      sizes, [&](int64_t s) -> Attribute { return b.getI64IntegerAttr(s); }));
}

namespace {
/// Walks a parsed shape expression: what a size may not use (a view's run-time
/// size, comparisons, logic, `%`), and the parameter names it uses.
std::string checkShapeNode(const ::tilebundle::ExprNode &node,
                           const std::string &text,
                           SmallVectorImpl<std::string> *names) {
  using Kind = ::tilebundle::ExprNode::Kind;
  using ::tilebundle::ExprOp;
  switch (node.kind) {
  case Kind::Integer:
    return "";
  case Kind::Param:
    if (names)
      names->push_back(node.name);
    return "";
  case Kind::ViewDim:
    // Refused by the scopes, which see every view size (refuseViewDim).
    return "";
  case Kind::Not:
    return ::tilebundle::locateExprError(
        "'!' is not allowed in a shape (sizes use + - * / cdiv min max)",
        node.at, text);
  case Kind::Call:
  case Kind::Chain:
    break;
  }
  if (node.kind == Kind::Chain)
    for (auto [i, op] : llvm::enumerate(node.ops))
      if (op != ExprOp::Add && op != ExprOp::Sub && op != ExprOp::Mul &&
          op != ExprOp::Div)
        return ::tilebundle::locateExprError(
            std::string("'") + ::tilebundle::spellExprOp(op) +
                "' is not allowed in a shape (sizes use + - * / cdiv min max)",
            i < node.opAt.size() ? node.opAt[i] : node.at, text);
  for (const ::tilebundle::ExprNode &operand : node.operands) {
    std::string error = checkShapeNode(operand, text, names);
    if (!error.empty())
      return error;
  }
  return "";
}

/// A view's size (`X.0`) is known only at launch: never a tile size.
bool refuseViewDim(const std::string &name, int64_t dim, std::string &error) {
  error = "'" + name + "." + std::to_string(dim) +
          "' is a view's run-time size; a shape is known at compile time";
  return false;
}

/// Any parameter name, its value unknown: checks a shape expression before
/// specialization (names are looked up when they are bound).
class UnknownParamScope : public ::tilebundle::ExprScope {
public:
  bool viewDim(const std::string &name, int64_t dim, std::optional<int64_t> &,
               std::string &error) const override {
    return refuseViewDim(name, dim, error);
  }
  bool param(const std::string &, std::optional<int64_t> &value,
             std::string &) const override {
    value.reset();
    return true;
  }
};

/// Parameter values for a shape expression: integers only.
class ShapeParamScope : public ::tilebundle::ExprScope {
public:
  explicit ShapeParamScope(function_ref<Attribute(StringRef)> lookup)
      : lookup(lookup) {}
  bool viewDim(const std::string &name, int64_t dim, std::optional<int64_t> &,
               std::string &error) const override {
    return refuseViewDim(name, dim, error);
  }
  bool param(const std::string &name, std::optional<int64_t> &value,
             std::string &error) const override {
    Attribute bound = lookup(name);
    auto intAttr = dyn_cast_or_null<IntegerAttr>(bound);
    if (intAttr && !intAttr.getType().isInteger(1)) {
      value = intAttr.getInt();
      return true;
    }
    if (!bound)
      error = "no parameter named '" + name + "'";
    else
      error = "'" + name + "' is a " +
              std::string(isa<TypeAttr>(bound) ? "type" : "boolean") +
              " parameter, not a size";
    return false;
  }

private:
  function_ref<Attribute(StringRef)> lookup;
};
} // namespace

std::string mlir::tile::checkShapeExpr(StringRef text,
                                       SmallVectorImpl<std::string> *names) {
  std::string error;
  std::optional<::tilebundle::ParsedExpr> parsed =
      ::tilebundle::parseExpr(text.str(), error);
  if (!parsed)
    return error;
  return checkShapeNode(parsed->root, parsed->text, names);
}

FailureOr<int64_t>
mlir::tile::evaluateShapeExpr(StringRef text,
                              function_ref<Attribute(StringRef)> lookup,
                              std::string &error) {
  error = checkShapeExpr(text);
  if (!error.empty())
    return failure();
  ShapeParamScope scope(lookup);
  int64_t value;
  if (!::tilebundle::evalExpr(text.str(), scope, value, error))
    return failure();
  return value;
}

bool mlir::tile::isShapeParamName(StringRef text) {
  return !text.empty() && (llvm::isAlpha(text[0]) || text[0] == '_') &&
         llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult mlir::tile::verifyShapeAgainstSpec(Operation *op, ArrayAttr shape,
                                                 ShapedType type,
                                                 StringRef what) {
  if (static_cast<int64_t>(shape.size()) != type.getRank())
    return op->emitOpError()
           << what << " has rank " << type.getRank() << " but the shape lists "
           << shape.size() << " sizes";
  for (auto [i, entry] : llvm::enumerate(shape)) {
    int64_t dim = type.getDimSize(i);
    if (auto intAttr = dyn_cast<IntegerAttr>(entry)) {
      if (intAttr.getInt() <= 0)
        return op->emitOpError()
               << "shape sizes must be positive, got " << intAttr.getInt();
      if (dim != intAttr.getInt())
        return op->emitOpError()
               << what << " dimension " << i << " is "
               << (ShapedType::isDynamic(dim) ? std::string("?")
                                              : std::to_string(dim))
               << " but the shape says " << intAttr.getInt();
      continue;
    }
    auto text = dyn_cast<StringAttr>(entry);
    if (!text)
      return op->emitOpError() << "shape entries must be integers or "
                                  "parameter names";
    if (isShapeParamName(text.getValue())) {
      if (!ShapedType::isDynamic(dim))
        return op->emitOpError()
               << what << " dimension " << i << " must be '?' while the shape "
               << "names parameter " << entry;
      continue;
    }
    // An expression of parameters (`R * G`): its grammar, and what is known
    // before the parameters are bound (a division by a constant zero).
    std::string error = checkShapeExpr(text.getValue());
    std::optional<int64_t> value;
    if (error.empty())
      ::tilebundle::analyzeExpr(text.str(), UnknownParamScope(), value, error);
    if (!error.empty())
      return op->emitOpError() << "shape size " << i << ": " << error;
    if (!ShapedType::isDynamic(dim))
      return op->emitOpError()
             << what << " dimension " << i << " must be '?' while the shape "
             << "size '" << text.getValue() << "' depends on parameters";
  }
  // Sizes are positive here; the product is bounded before it can overflow.
  int64_t elements = 1;
  for (int64_t dim : type.getShape()) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim > kMaxTileElements / elements)
      return op->emitOpError()
             << what << " " << type << " has more than " << kMaxTileElements
             << " elements (the largest tile)";
    elements *= dim;
  }
  return success();
}

bool mlir::tile::isMmaOperandElementType(Type type) {
  return type.isF16() || type.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type, DTypeParamType>(type);
}

bool mlir::tile::isFloatLikeElementType(Type type) {
  return isa<FloatType, DTypeParamType>(type);
}

Operation *mlir::tile::getEnclosingKernel(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (parent->hasAttr(TileDialect::getKernelAttrName()))
      return parent;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The type-mismatch hint
//===----------------------------------------------------------------------===//

LogicalResult mlir::tile::addTypeMismatchHint(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return failure();
  std::string message = diag.str();
  if (message.find("expects different type than prior uses") ==
      std::string::npos)
    return failure();
  SmallVector<Type, 2> types;
  for (const DiagnosticArgument &arg : diag.getArguments())
    if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::Type)
      types.push_back(arg.getAsType());
  if (types.size() != 2)
    return failure();
  auto here = dyn_cast<RankedTensorType>(types[0]);
  auto prior = dyn_cast<RankedTensorType>(types[1]);
  if (!here || !prior || here.getRank() != prior.getRank() ||
      here.getElementType() != prior.getElementType())
    return failure();
  for (int64_t i = 0; i < here.getRank(); ++i) {
    int64_t a = here.getDimSize(i), b = prior.getDimSize(i);
    if (a == b)
      continue;
    auto spell = [](int64_t d) {
      return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
    };
    Diagnostic &note = diag.attachNote();
    note << "tile types must agree exactly on every use of a value: dimension "
         << i << " is " << spell(a) << " here but " << spell(b)
         << " where the value was first typed";
    if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
      note << "; a shape size that names a parameter (shape [TILE_M, 1]) is "
              "'?' until tile-specialize binds it, a number stays that number";
    note << ": write " << prior
         << " here, and the same in scf.for's iter_args and result types and "
            "in scf.yield (or change the value's definition)";
    return failure();
  }
  return failure();
}

void mlir::tile::registerTypeMismatchHints(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TileDialect *) {
    ctx->getDiagEngine().registerHandler(addTypeMismatchHint);
  });
}

//===----------------------------------------------------------------------===//
// Kernel attributes
//===----------------------------------------------------------------------===//

namespace {
/// Checks a dictionary of launch hints: num_warps, occupancy,
/// warp_specialize, ping_pong, tma and coalesce_stores.
LogicalResult verifyLaunchHints(Operation *op, DictionaryAttr hints,
                                StringRef where,
                                ArrayRef<StringRef> extraKeys) {
  for (NamedAttribute entry : hints) {
    StringRef key = entry.getName().getValue();
    if (key == "num_warps" || key == "occupancy") {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value)
        return op->emitOpError()
               << where << ": '" << key << "' must be an integer";
      int64_t v = value.getInt();
      // A count such as 12 likely includes the producer warpgroup that
      // tilegpu-warp-specialize adds (docs/kernels.md's gemm: 8 + 4).
      if (key == "num_warps" && v > 8 && v <= 32 && llvm::isPowerOf2_64(v - 4))
        return op->emitOpError()
               << where << ": num_warps must be a power of two in [1, 32], got "
               << v
               << "; a warp-specialized kernel's producer warpgroup (4 warps) "
                  "is added by the compiler: give the consumer warps, "
               << v - 4 << " for " << v << " in all";
      if (key == "num_warps" && (v < 1 || v > 32 || !llvm::isPowerOf2_64(v)))
        return op->emitOpError()
               << where << ": num_warps must be a power of two in [1, 32], got "
               << v;
      if (key == "occupancy" && (v < 1 || v > 32))
        return op->emitOpError()
               << where << ": occupancy must be in [1, 32], got " << v;
      continue;
    }
    // A producer warpgroup for the pipelined copies (tilegpu-warp-
    // specialize), consumer warpgroups taking turns (tilegpu-ping-pong),
    // TMA loads (tilegpu-tma), accumulators stored in 16-byte accesses
    // (tilegpu-assign-layouts): 1 forces it, 0 disables it.
    if (key == "warp_specialize" || key == "ping_pong" || key == "tma" ||
        key == "coalesce_stores") {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value || (value.getInt() != 0 && value.getInt() != 1))
        return op->emitOpError()
               << where << ": " << key << " must be 0 or 1 (or a bool)";
      continue;
    }
    if (llvm::is_contained(extraKeys, key))
      continue;
    return op->emitOpError()
           << where << ": unknown launch hint '" << key << "'";
  }
  return success();
}

LogicalResult verifyDTypeUses(Operation *op, DictionaryAttr params);

/// Accepts every name with an unknown value: a kernel whose signature was
/// lowered (views expanded to pointers) can no longer resolve them.
class AnyNameScope : public ::tilebundle::ExprScope {
public:
  bool viewDim(const std::string &, int64_t, std::optional<int64_t> &value,
               std::string &) const override {
    value.reset();
    return true;
  }
  bool param(const std::string &, std::optional<int64_t> &value,
             std::string &) const override {
    value.reset();
    return true;
  }
};

/// Checks the grid rule and the `requires` expressions of a kernel against
/// its signature: names are view arguments (`NAME.d`, d below the rank) or
/// parameters, no division by a constant zero, bounded nesting (contract
/// C3; the grammar is in tile/Bundle/Expr.h).
LogicalResult verifyLaunchExprs(Operation *op, DictionaryAttr dict) {
  auto func = cast<FunctionOpInterface>(op);
  ::tilebundle::SignatureScope signature;
  bool tileSignature = true;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Type type = func.getArgumentTypes()[i];
    auto name =
        func.getArgAttrOfType<StringAttr>(i, TileDialect::getArgNameAttrName());
    if (auto view = dyn_cast<ViewType>(type)) {
      if (name)
        signature.viewRanks[name.str()] = view.getRank();
    } else if (type.isIntOrIndexOrFloat()) {
      if (name)
        signature.scalars.push_back(name.str());
    } else {
      tileSignature = false;
    }
  }
  if (auto params =
          op->getAttrOfType<DictionaryAttr>(TileDialect::getParamsAttrName()))
    for (NamedAttribute p : params)
      if (isa<IntegerAttr>(p.getValue()))
        signature.params[p.getName().str()] = std::nullopt;
  AnyNameScope anyName;
  const ::tilebundle::ExprScope &scope =
      tileSignature ? static_cast<const ::tilebundle::ExprScope &>(signature)
                    : anyName;
  auto check = [&](StringRef key, ArrayAttr exprs) -> LogicalResult {
    for (auto [i, expr] : llvm::enumerate(exprs)) {
      std::optional<int64_t> value;
      std::string error;
      std::string text = cast<StringAttr>(expr).str();
      if (!::tilebundle::analyzeExpr(text, scope, value, error))
        return op->emitOpError()
               << "'tile.kernel' " << key << "[" << i << "]: " << error;
      if (value && key == "grid" && *value < 1)
        return op->emitOpError()
               << "'tile.kernel' grid[" << i << "]: '" << text << "' is "
               << *value << " for every shape (a grid size is at least 1)";
      if (value && key == "requires" && *value == 0)
        return op->emitOpError() << "'tile.kernel' requires[" << i << "]: '"
                                 << text << "' is false for every shape";
    }
    return success();
  };
  if (auto grid = dyn_cast_or_null<ArrayAttr>(dict.get("grid")))
    if (failed(check("grid", grid)))
      return failure();
  if (auto req = dyn_cast_or_null<ArrayAttr>(dict.get("requires")))
    if (failed(check("requires", req)))
      return failure();
  return success();
}

LogicalResult verifyKernelAttr(Operation *op, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return op->emitOpError() << "'tile.kernel' must be a dictionary";
  if (failed(verifyLaunchHints(op, dict, "'tile.kernel'",
                               {"grid", "hints", "requires"})))
    return failure();
  if (Attribute grid = dict.get("grid")) {
    auto array = dyn_cast<ArrayAttr>(grid);
    if (!array || array.empty() || array.size() > 3 ||
        !llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError() << "'tile.kernel' grid must list 1 to 3 "
                                  "expressions as strings";
  }
  // Launch preconditions (contract C3): boolean expressions that launchers
  // evaluate before a launch.
  if (Attribute req = dict.get("requires")) {
    auto array = dyn_cast<ArrayAttr>(req);
    if (!array ||
        !llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError() << "'tile.kernel' requires must list "
                                  "expressions as strings";
  }
  if (failed(verifyLaunchExprs(op, dict)))
    return failure();
  if (Attribute hints = dict.get("hints")) {
    auto perArch = dyn_cast<DictionaryAttr>(hints);
    if (!perArch)
      return op->emitOpError()
             << "'tile.kernel' hints must map architectures to dictionaries";
    llvm::Regex archRe("^sm_[0-9]+a?$");
    for (NamedAttribute arch : perArch) {
      if (!archRe.match(arch.getName().getValue()))
        return op->emitOpError()
               << "'tile.kernel' hints: '" << arch.getName().getValue()
               << "' is not an architecture like sm_90";
      auto archHints = dyn_cast<DictionaryAttr>(arch.getValue());
      if (!archHints)
        return op->emitOpError()
               << "'tile.kernel' hints for " << arch.getName().getValue()
               << " must be a dictionary";
      if (failed(verifyLaunchHints(
              op, archHints,
              ("'tile.kernel' hints for " + arch.getName().getValue()).str(),
              {})))
        return failure();
    }
  }
  // With 'tile.params', its verifier checks the !tile.dtype uses.
  if (!op->hasAttr(TileDialect::getParamsAttrName()))
    return verifyDTypeUses(op, DictionaryAttr());
  return success();
}

LogicalResult verifyParamsAttr(Operation *op, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return op->emitOpError() << "'tile.params' must be a dictionary";
  for (NamedAttribute entry : dict) {
    Attribute value = entry.getValue();
    if (auto typeAttr = dyn_cast<TypeAttr>(value)) {
      Type type = typeAttr.getValue();
      if (!type.isIntOrFloat())
        return op->emitOpError()
               << "'tile.params' type parameter '" << entry.getName().getValue()
               << "' must be an integer or float type, got " << type;
      continue;
    }
    if (!isa<IntegerAttr>(value))
      return op->emitOpError()
             << "'tile.params' entry '" << entry.getName().getValue()
             << "' must be an integer, a boolean or a type";
  }
  return verifyDTypeUses(op, dict);
}

/// Every `!tile.dtype<"X">` used in the kernel must name a type parameter of
/// `params` (null: the kernel declares none).
LogicalResult verifyDTypeUses(Operation *op, DictionaryAttr params) {
  WalkResult walk = op->walk([&](Operation *nested) -> WalkResult {
    auto check = [&](Type type) -> LogicalResult {
      Type element = type;
      if (auto shaped = dyn_cast<ShapedType>(type))
        element = shaped.getElementType();
      else if (auto view = dyn_cast<ViewType>(type))
        element = view.getElementType();
      auto param = dyn_cast<DTypeParamType>(element);
      if (!param)
        return success();
      auto bound = dyn_cast_or_null<TypeAttr>(
          params ? params.get(param.getName()) : Attribute());
      if (bound)
        return success();
      return nested->emitOpError()
             << "uses !tile.dtype<\"" << param.getName()
             << "\"> but the kernel's 'tile.params' declares no such type "
                "parameter";
    };
    for (Type t : nested->getResultTypes())
      if (failed(check(t)))
        return WalkResult::interrupt();
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(arg.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
} // namespace

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getKernelAttrName() || name == getParamsAttrName()) {
    // Kernels are func.func ops; the GPU lowering keeps the attributes on the
    // gpu.func it outlines, so any function-like op may carry them.
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' belongs on a func.func";
    return name == getKernelAttrName() ? verifyKernelAttr(op, attr.getValue())
                                       : verifyParamsAttr(op, attr.getValue());
  }
  if (name == getSpecializedAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' belongs on a func.func";
    return success();
  }
  if (name == getSplitRemainderAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  return op->emitOpError() << "unknown tile dialect attribute '" << name << "'";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName().getValue() == kAlignArgAttrName) {
    // Contract C2: the alignment (bytes) a view argument is compiled for.
    auto align = dyn_cast<IntegerAttr>(attr.getValue());
    if (!align || align.getInt() < 1 || align.getInt() > 16 ||
        !llvm::isPowerOf2_64(align.getInt()))
      return op->emitOpError() << "'tile.align' of argument " << argIndex
                               << " must be a power of two in [1, 16]";
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (func && argIndex < func.getNumArguments() &&
        !isa<ViewType>(func.getArgumentTypes()[argIndex]))
      return op->emitOpError() << "'tile.align' of argument " << argIndex
                               << " belongs on a view argument";
    return success();
  }
  if (attr.getName().getValue() != getArgNameAttrName())
    return op->emitOpError() << "unknown tile dialect argument attribute '"
                             << attr.getName().getValue() << "'";
  auto name = dyn_cast<StringAttr>(attr.getValue());
  if (!name || name.getValue().empty())
    return op->emitOpError() << "'tile.name' of argument " << argIndex
                             << " must be a non-empty string";
  return success();
}
