//===- Specialize.cpp - bind compile-time parameters ----------------------===//
//
// tile-specialize: one kernel source, many variants. Binds the parameters of
// `tile.params`, replaces `tile.param` reads by constants and type
// parameters by types, and re-infers every tile type so that shapes become
// static. Each parameter is bound once: a name given twice, or a binding of
// a kernel that is already specialized (`tile.specialized`), is an error,
// and integers must fit the parameter's type.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Specialize.h"
#include "tile/Dialect/Tile/IR/KernelChecks.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Support/Checked.h"

#include "tile/Bundle/Expr.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The bound parameters of one kernel and the rewrites that follow from them.
class Specializer {
public:
  Specializer(func::FuncOp kernel) : kernel(kernel), builder(kernel) {}

  LogicalResult run(const SpecializeOptions &options);

private:
  func::FuncOp kernel;
  OpBuilder builder;
  /// Parameter name -> bound value (IntegerAttr or TypeAttr).
  llvm::StringMap<Attribute> values;
  /// Parameter name -> the binding that named it, in this run.
  llvm::StringMap<std::string> boundBy;

  LogicalResult bind(StringRef binding);
  Type substitute(Type type);
  FailureOr<ArrayAttr> bindShape(Operation *op, ArrayAttr shape);
  LogicalResult refineBlock(Block &block);
  LogicalResult refineOp(Operation *op);
  std::string substituteGridExpr(StringRef expr);
};

/// A bound value as a binding writes it: 128, true, bf16.
static std::string printValue(Attribute value) {
  if (auto b = dyn_cast<BoolAttr>(value))
    return b.getValue() ? "true" : "false";
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getType().isInteger(1)
               ? (i.getValue().getBoolValue() ? "true" : "false")
               : std::to_string(i.getInt());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << cast<TypeAttr>(value).getValue();
  return text;
}

LogicalResult Specializer::bind(StringRef binding) {
  auto [name, text] = binding.split('=');
  name = name.trim();
  text = text.trim();
  if (name.empty() || text.empty())
    return kernel.emitError()
           << "binding '" << binding << "' is not of the form NAME=VALUE";
  auto it = values.find(name);
  if (it == values.end()) {
    std::string known;
    for (auto &entry : values)
      known += (known.empty() ? "" : ", ") + entry.getKey().str();
    return kernel.emitError()
           << "kernel '" << kernel.getName() << "' has no parameter '" << name
           << "' (parameters: " << known << ")";
  }
  if (kernel->hasAttr(TileDialect::getSpecializedAttrName()))
    return kernel.emitError()
           << "cannot bind '" << binding << "': kernel '" << kernel.getName()
           << "' is already specialized, with " << name << "="
           << printValue(it->second) << "; bind each parameter once";
  auto [previous, first] = boundBy.try_emplace(name, binding.str());
  if (!first)
    return kernel.emitError()
           << "parameter '" << name << "' is bound twice ('" << previous->second
           << "' and '" << binding << "'); bind each parameter once";
  Attribute current = it->second;
  MLIRContext *ctx = kernel.getContext();
  if (isa<TypeAttr>(current)) {
    Type type = parseType(text, ctx);
    if (!type || !type.isIntOrFloat())
      return kernel.emitError()
             << "parameter '" << name
             << "' takes a type such as f16 or bf16, got '" << text << "'";
    it->second = TypeAttr::get(type);
    return success();
  }
  auto intAttr = cast<IntegerAttr>(current);
  if (intAttr.getType().isInteger(1)) {
    std::string lower = text.lower();
    if (lower != "true" && lower != "false" && lower != "1" && lower != "0")
      return kernel.emitError()
             << "parameter '" << name << "' is a boolean, got '" << text << "'";
    it->second = BoolAttr::get(ctx, lower == "true" || lower == "1");
    return success();
  }
  // Checked against the parameter's type: 2147483648 is not an i32 (and
  // must not come back as -2147483648).
  unsigned width = intAttr.getType().isIndex()
                       ? 64
                       : intAttr.getType().getIntOrFloatBitWidth();
  int64_t min = width >= 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
  int64_t max = width >= 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1;
  std::string_view digits(text.data(), text.size());
  std::optional<int64_t> value = ::tile::checked::parseInt(digits, min, max);
  if (!value) {
    std::string error;
    ::tile::checked::parseInt(digits, INT64_MIN, INT64_MAX, &error);
    if (error.find("out of range") == std::string::npos && !error.empty())
      return kernel.emitError() << "parameter '" << name
                                << "' is an integer, got '" << text << "'";
    return kernel.emitError()
           << "parameter '" << name << "' is an "
           << printValue(TypeAttr::get(intAttr.getType())) << " in [" << min
           << ", " << max << "], got '" << text << "'";
  }
  it->second = IntegerAttr::get(intAttr.getType(), *value);
  return success();
}

Type Specializer::substitute(Type type) {
  if (auto param = dyn_cast<DTypeParamType>(type))
    return cast<TypeAttr>(values.lookup(param.getName())).getValue();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(),
                                 substitute(tensor.getElementType()),
                                 tensor.getEncoding());
  if (auto view = dyn_cast<ViewType>(type))
    return ViewType::get(type.getContext(), view.getRank(),
                         substitute(view.getElementType()));
  return type;
}

FailureOr<ArrayAttr> Specializer::bindShape(Operation *op, ArrayAttr shape) {
  SmallVector<int64_t> sizes;
  for (Attribute entry : shape) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry)) {
      sizes.push_back(intAttr.getInt());
      continue;
    }
    StringRef name = cast<StringAttr>(entry).getValue();
    if (!isShapeParamName(name)) {
      // An expression of parameters (`R * G`), now that they are bound.
      std::string error;
      FailureOr<int64_t> size = evaluateShapeExpr(
          name, [&](StringRef param) { return values.lookup(param); }, error);
      if (failed(size))
        return op->emitOpError() << "shape size '" << name << "': " << error;
      if (*size <= 0)
        return op->emitOpError()
               << "shape size '" << name << "' is " << *size
               << " with the bound parameters; sizes must be positive";
      sizes.push_back(*size);
      continue;
    }
    Attribute value = values.lookup(name);
    auto intValue = dyn_cast_or_null<IntegerAttr>(value);
    if (!intValue || intValue.getType().isInteger(1))
      return op->emitOpError()
             << "shape names '" << name
             << "', which is not an integer parameter of the kernel";
    if (intValue.getInt() <= 0)
      return op->emitOpError()
             << "shape parameter '" << name << "' must be positive, got "
             << intValue.getInt();
    sizes.push_back(intValue.getInt());
  }
  return buildShapeSpec(op->getContext(), sizes);
}

/// The static type a shape-spec op produces now that `shape` is bound.
static Type withShape(Type resultType, ArrayAttr shape) {
  auto tensor = cast<RankedTensorType>(resultType);
  return RankedTensorType::get(getShapeSpecSizes(shape),
                               tensor.getElementType(), tensor.getEncoding());
}

/// A tensor type of `shape`, keeping `like`'s element type and encoding.
static RankedTensorType reshaped(Type like, ArrayRef<int64_t> shape) {
  auto tensor = cast<RankedTensorType>(like);
  return RankedTensorType::get(shape, tensor.getElementType(),
                               tensor.getEncoding());
}

LogicalResult Specializer::refineBlock(Block &block) {
  for (BlockArgument arg : block.getArguments())
    arg.setType(substitute(arg.getType()));
  for (Operation &op : block)
    if (failed(refineOp(&op)))
      return failure();
  return success();
}

LogicalResult Specializer::refineOp(Operation *op) {
  // Structured control flow: iteration arguments take the types of their
  // initial values; results take the types the regions yield.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [arg, init] :
         llvm::zip(forOp.getRegionIterArgs(), forOp.getInitArgs()))
      arg.setType(init.getType());
    if (failed(refineBlock(*forOp.getBody())))
      return failure();
    for (auto [result, init] :
         llvm::zip(forOp.getResults(), forOp.getInitArgs()))
      result.setType(init.getType());
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (Region &region : ifOp->getRegions())
      for (Block &block : region)
        if (failed(refineBlock(block)))
          return failure();
    if (ifOp.getNumResults() != 0)
      for (auto [result, yielded] :
           llvm::zip(ifOp.getResults(), ifOp.thenYield().getOperands()))
        result.setType(yielded.getType());
    return success();
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(refineBlock(block)))
        return failure();

  // Element types first: type parameters become types.
  for (OpResult result : op->getResults())
    result.setType(substitute(result.getType()));

  auto shapeAttr = op->getAttrOfType<ArrayAttr>("shape");
  if (shapeAttr &&
      isa<IotaOp, FullOp, SplatOp, LoadOp, BroadcastOp, ReshapeOp>(op)) {
    FailureOr<ArrayAttr> bound = bindShape(op, shapeAttr);
    if (failed(bound))
      return failure();
    op->setAttr("shape", *bound);
    op->getResult(0).setType(withShape(op->getResult(0).getType(), *bound));
    return success();
  }
  if (auto mma = dyn_cast<MmaOp>(op)) {
    mma.getResult().setType(mma.getAcc().getType());
    return success();
  }
  if (isa<Exp2Op, DivOp, MulHiUOp>(op)) {
    op->getResult(0).setType(op->getOperand(0).getType());
    return success();
  }
  if (auto select = dyn_cast<SelectOp>(op)) {
    select.getResult().setType(select.getTrueValue().getType());
    return success();
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    auto source = cast<RankedTensorType>(reduce.getSource().getType());
    SmallVector<int64_t> shape(source.getShape());
    if (reduce.getKeepdims())
      shape[reduce.getAxis()] = 1;
    else
      shape.erase(shape.begin() + reduce.getAxis());
    Type element = reduce.getKind() == ReduceKind::argmax ||
                           reduce.getKind() == ReduceKind::argmin
                       ? reduce.getType().getElementType()
                       : source.getElementType();
    reduce.getResult().setType(
        RankedTensorType::get(shape, element, source.getEncoding()));
    return success();
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    if (!gather.getIndices().empty())
      gather.getResult().setType(reshaped(
          gather.getType(),
          cast<RankedTensorType>(gather.getIndices()[0].getType()).getShape()));
    return success();
  }
  if (auto atomic = dyn_cast<AtomicOp>(op)) {
    if (atomic.getResult())
      atomic.getResult().setType(atomic.getValue().getType());
    return success();
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    auto source = cast<RankedTensorType>(permute.getSource().getType());
    SmallVector<int64_t> shape;
    for (int64_t d : permute.getPermutation())
      shape.push_back(source.getDimSize(d));
    permute.getResult().setType(reshaped(source, shape));
    return success();
  }
  if (auto astype = dyn_cast<AsTypeOp>(op)) {
    auto source = cast<RankedTensorType>(astype.getSource().getType());
    astype.getResult().setType(
        reshaped(astype.getResult().getType(), source.getShape()));
    return success();
  }
  // Elementwise arith/math ops on tiles: the result has the operands' shape.
  if (op->hasTrait<OpTrait::Elementwise>()) {
    for (Value operand : op->getOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(operand.getType());
      if (!tensor)
        continue;
      for (OpResult result : op->getResults())
        if (isa<RankedTensorType>(result.getType()))
          result.setType(reshaped(result.getType(), tensor.getShape()));
      break;
    }
  }
  return success();
}

/// Parameters in a grid rule or a `requires` expression become their values,
/// booleans 1 and 0 (contract C3).
std::string Specializer::substituteGridExpr(StringRef expr) {
  std::map<std::string, int64_t> ints;
  for (auto &entry : values)
    if (auto value = dyn_cast<IntegerAttr>(entry.getValue()))
      ints[entry.getKey().str()] =
          value.getType().isInteger(1)
              ? (value.getValue().getBoolValue() ? 1 : 0)
              : value.getInt();
  return ::tilebundle::substituteParams(expr.str(), ints);
}

LogicalResult Specializer::run(const SpecializeOptions &options) {
  MLIRContext *ctx = kernel.getContext();
  if (auto params = kernel->getAttrOfType<DictionaryAttr>(
          TileDialect::getParamsAttrName()))
    for (NamedAttribute entry : params)
      values[entry.getName().getValue()] = entry.getValue();
  for (const std::string &binding : options.bindings)
    if (failed(bind(binding)))
      return failure();

  // tile.param -> constants.
  SmallVector<ParamOp> reads;
  kernel.walk([&](ParamOp op) { reads.push_back(op); });
  for (ParamOp read : reads) {
    auto value = cast<IntegerAttr>(values.lookup(read.getName()));
    builder.setInsertionPoint(read);
    Type type = read.getType();
    TypedAttr constant =
        type.isInteger(1)
            ? TypedAttr(builder.getBoolAttr(value.getValue().getBoolValue()))
            : TypedAttr(builder.getIntegerAttr(type, value.getInt()));
    Value replacement =
        arith::ConstantOp::create(builder, read.getLoc(), constant);
    read.replaceAllUsesWith(replacement);
    read.erase();
  }

  // Types and shapes, in program order.
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes())
    argTypes.push_back(substitute(type));
  SmallVector<Type> resultTypes;
  for (Type type : kernel.getResultTypes())
    resultTypes.push_back(substitute(type));
  kernel.setFunctionType(FunctionType::get(ctx, argTypes, resultTypes));
  for (Block &block : kernel.getBody())
    if (failed(refineBlock(block)))
      return failure();

  WalkResult dynamic = kernel.walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        if (!tensor.hasStaticShape())
          return op->emitOpError() << "still has a dynamic tile shape after "
                                      "specialization: "
                                   << type;
    return WalkResult::advance();
  });
  if (dynamic.wasInterrupted())
    return failure();

  auto hints =
      kernel->getAttrOfType<DictionaryAttr>(TileDialect::getKernelAttrName());
  NamedAttrList newHints(hints);
  for (StringRef key : {"grid", "requires"}) {
    auto list = dyn_cast_or_null<ArrayAttr>(newHints.get(key));
    if (!list)
      continue;
    SmallVector<Attribute> exprs;
    for (Attribute expr : list)
      exprs.push_back(builder.getStringAttr(
          substituteGridExpr(cast<StringAttr>(expr).getValue())));
    newHints.set(key, builder.getArrayAttr(exprs));
  }
  if (options.numWarps > 0)
    newHints.set("num_warps", builder.getI32IntegerAttr(options.numWarps));
  if (options.occupancy > 0)
    newHints.set("occupancy", builder.getI32IntegerAttr(options.occupancy));
  kernel->setAttr(TileDialect::getKernelAttrName(),
                  newHints.getDictionary(ctx));

  NamedAttrList bound;
  for (auto &entry : values)
    bound.set(entry.getKey(), entry.getValue());
  kernel->setAttr(TileDialect::getParamsAttrName(), bound.getDictionary(ctx));
  kernel->setAttr(TileDialect::getSpecializedAttrName(), UnitAttr::get(ctx));
  return success();
}

struct TileSpecializePass
    : public mlir::tile::impl::TileSpecializeBase<TileSpecializePass> {
  using TileSpecializeBase::TileSpecializeBase;

  void runOnOperation() override {
    SpecializeOptions options;
    options.bindings.assign(bindings.begin(), bindings.end());
    options.numWarps = numWarps;
    options.occupancy = occupancy;
    bool any = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr(TileDialect::getKernelAttrName()))
        continue;
      any = true;
      if (failed(specializeKernel(func, options)))
        return signalPassFailure();
    }
    if (!any && !bindings.empty()) {
      getOperation().emitError() << "tile-specialize: no kernel (func.func "
                                    "with 'tile.kernel') to bind "
                                    "parameters of";
      return signalPassFailure();
    }
  }
};

} // namespace

LogicalResult mlir::tile::specializeKernel(func::FuncOp kernel,
                                           const SpecializeOptions &options) {
  // A count such as 12 likely includes the producer warpgroup that
  // tilegpu-warp-specialize adds (docs/kernels.md's gemm: 8 + 4).
  int64_t warps = options.numWarps;
  if (warps > 8 && warps <= 32 && llvm::isPowerOf2_64(warps - 4))
    return kernel.emitError()
           << "num-warps must be a power of two in [1, 32], got " << warps
           << "; a warp-specialized kernel's producer warpgroup (4 warps) is "
              "added by the compiler: give the consumer warps, "
           << warps - 4 << " for " << warps << " in all";
  if (warps < 0 || warps > 32 || (warps && !llvm::isPowerOf2_64(warps)))
    return kernel.emitError()
           << "num-warps must be a power of two in [1, 32], got " << warps;
  // The launch-hint verifier's range; 0 keeps the kernel's hint.
  if (options.occupancy < 0 || options.occupancy > 32)
    return kernel.emitError() << "occupancy must be in [0, 32] (0: keep the "
                                 "kernel's hint), got "
                              << options.occupancy;
  if (failed(Specializer(kernel).run(options)))
    return failure();
  // With the parameters bound, what the lowering must never see.
  return checkKernelBody(kernel);
}
