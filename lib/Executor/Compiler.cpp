//===- Compiler.cpp - tile IR -> the executor's program ----------------===//
//
// `Executable::compile`: walks the kernel once, gives every SSA value a slot,
// checks that each op is supported and each type static (located errors
// otherwise), and turns each op into an `Instr` of the program (Program.h),
// attributes pre-decoded and constant tiles built once.
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {

class Compiler {
public:
  explicit Compiler(Executable::Impl &impl) : impl(impl) {}

  LogicalResult compileKernel();

private:
  Executable::Impl &impl;
  DenseMap<Value, unsigned> slotOf;

  FailureOr<unsigned> define(Value value, Operation *at);
  FailureOr<unsigned> use(Value value, Operation *at);
  const SlotInfo &info(unsigned slot) const { return impl.slots[slot]; }
  LogicalResult compileBlock(Block &block, CBlock &out, Operation *parent);
  LogicalResult compileOp(Operation *op, Instr &instr);
  LogicalResult compileRegion(Region &region, CBlock &out, Operation *parent);
  FailureOr<BufferRef> buildConstant(Operation *op, Attribute value,
                                     const SlotInfo &info);
};

} // namespace

FailureOr<unsigned> Compiler::define(Value value, Operation *at) {
  Type type = value.getType();
  SlotInfo slot;
  if (auto view = dyn_cast<ViewType>(type)) {
    FailureOr<EK> kind = getMemoryElementKind(view.getElementType());
    if (failed(kind))
      return at->emitError()
             << "tile executor: views of " << view.getElementType()
             << " are not supported (i1, i8, i16, i32, i64, "
                "f16, bf16, f32, f8E4M3FN and f8E5M2 are)";
    slot.kind = *kind;
    slot.isView = true;
  } else if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return at->emitError()
             << "tile executor: dynamic tile shape " << type
             << "; specialize the kernel (tile-specialize) first";
    std::optional<EK> kind = getValueKind(tensor.getElementType());
    if (!kind)
      return at->emitError() << "tile executor: unsupported element type "
                             << tensor.getElementType() << " in " << type;
    slot.kind = *kind;
    slot.shape = tensor.getShape();
    // The largest tile the executor allocates is tile::kMaxTileElements (256
    // MiB of floats). getNumElements() would overflow for shapes such as
    // 2^32 x 2^32.
    int64_t elements = 1;
    bool overflow = false;
    for (int64_t dim : tensor.getShape())
      overflow |= llvm::MulOverflow(elements, dim, elements);
    if (overflow || elements > kMaxTileElements)
      return at->emitError() << "tile executor: tile " << type << " has "
                             << (overflow ? std::string("more than 2^63")
                                          : std::to_string(elements))
                             << " elements, more than the " << kMaxTileElements
                             << " the executor holds";
    slot.size = elements;
  } else {
    std::optional<EK> kind = getValueKind(type);
    if (!kind)
      return at->emitError() << "tile executor: unsupported type " << type;
    slot.kind = *kind;
  }
  unsigned id = impl.slots.size();
  impl.slots.push_back(slot);
  slotOf[value] = id;
  return id;
}

FailureOr<unsigned> Compiler::use(Value value, Operation *at) {
  auto it = slotOf.find(value);
  if (it == slotOf.end())
    return at->emitError() << "tile executor: operand defined outside the "
                              "kernel or after its use";
  return it->second;
}

LogicalResult Compiler::compileKernel() {
  func::FuncOp kernel = impl.kernel;
  if (kernel.isExternal())
    return kernel.emitError() << "tile executor: kernel has no body";
  if (kernel.getNumResults() != 0)
    return kernel.emitError() << "tile executor: a kernel returns nothing";
  for (Type type : kernel.getArgumentTypes())
    if (!isa<ViewType, IntegerType, IndexType, FloatType>(type))
      return kernel.emitError()
             << "tile executor: kernel arguments are views and scalars, got "
             << type;
  return compileRegion(kernel.getBody(), impl.entry, kernel);
}

LogicalResult Compiler::compileRegion(Region &region, CBlock &out,
                                      Operation *parent) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return parent->emitError()
           << "tile executor: regions with several blocks are not supported";
  return compileBlock(region.front(), out, parent);
}

LogicalResult Compiler::compileBlock(Block &block, CBlock &out,
                                     Operation *parent) {
  for (BlockArgument arg : block.getArguments()) {
    FailureOr<unsigned> slot = define(arg, parent);
    if (failed(slot))
      return failure();
    out.args.push_back(*slot);
  }
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (!isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp>(op))
        return op.emitError() << "tile executor: unsupported terminator '"
                              << op.getName() << "'";
      ValueRange operands = op.getOperands();
      if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
        FailureOr<unsigned> slot = use(condition.getCondition(), &op);
        if (failed(slot))
          return failure();
        out.condition = *slot;
        operands = condition.getArgs();
      }
      for (Value operand : operands) {
        FailureOr<unsigned> slot = use(operand, &op);
        if (failed(slot))
          return failure();
        out.yields.push_back(*slot);
      }
      continue;
    }
    Instr instr;
    instr.op = &op;
    for (Value operand : op.getOperands()) {
      FailureOr<unsigned> slot = use(operand, &op);
      if (failed(slot))
        return failure();
      instr.in.push_back(*slot);
    }
    if (failed(compileOp(&op, instr)))
      return failure();
    instr.work = instrWork(instr);
    out.body.push_back(std::move(instr));
  }
  return success();
}

/// A float attribute value converted to `kind` with one rounding.
static float convertFloatAttr(const APFloat &value, EK kind) {
  APFloat converted = value;
  bool losesInfo;
  const llvm::fltSemantics &semantics =
      kind == EK::F16        ? APFloat::IEEEhalf()
      : kind == EK::BF16     ? APFloat::BFloat()
      : kind == EK::F8E4M3FN ? APFloat::Float8E4M3FN()
      : kind == EK::F8E5M2   ? APFloat::Float8E5M2()
                             : APFloat::IEEEsingle();
  converted.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  bool ignored;
  converted.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &ignored);
  return converted.convertToFloat();
}

FailureOr<BufferRef> Compiler::buildConstant(Operation *op, Attribute value,
                                             const SlotInfo &slot) {
  int64_t n = slot.size;
  if (isFloatKind(slot.kind)) {
    auto buffer = newFloats(n);
    auto fill = [&](float v) {
      std::fill(buffer->f.get(), buffer->f.get() + n, v);
    };
    if (auto f = dyn_cast<FloatAttr>(value)) {
      fill(convertFloatAttr(f.getValue(), slot.kind));
    } else if (auto i = dyn_cast<IntegerAttr>(value)) {
      APFloat converted(APFloat::IEEEdouble());
      converted.convertFromAPInt(i.getValue(), /*isSigned=*/true,
                                 APFloat::rmNearestTiesToEven);
      fill(convertFloatAttr(converted, slot.kind));
    } else if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
      int64_t k = 0;
      for (const APFloat &element : dense.getValues<APFloat>())
        buffer->f[k++] = convertFloatAttr(element, slot.kind);
      if (dense.isSplat())
        fill(buffer->f[0]);
    } else {
      return op->emitError() << "tile executor: unsupported constant " << value;
    }
    return BufferRef(buffer);
  }
  auto buffer = newInts(n);
  unsigned width = widthOf(slot.kind);
  auto fill = [&](int64_t v) {
    std::fill(buffer->i.get(), buffer->i.get() + n, normalizeInt(v, width));
  };
  if (auto b = dyn_cast<BoolAttr>(value)) {
    fill(b.getValue() ? -1 : 0);
  } else if (auto i = dyn_cast<IntegerAttr>(value)) {
    fill(i.getValue().getBitWidth() == 1 ? -int64_t(i.getValue().getZExtValue())
                                         : i.getValue().getSExtValue());
  } else if (auto dense = dyn_cast<DenseIntElementsAttr>(value)) {
    int64_t k = 0;
    for (const APInt &element : dense.getValues<APInt>())
      buffer->i[k++] = normalizeInt(element.getBitWidth() == 1
                                        ? -int64_t(element.getZExtValue())
                                        : element.getSExtValue(),
                                    width);
    if (dense.isSplat())
      fill(buffer->i[0]);
  } else {
    return op->emitError() << "tile executor: unsupported constant " << value;
  }
  return BufferRef(buffer);
}

/// Row-major strides of `shape`.
static SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

LogicalResult Compiler::compileOp(Operation *op, Instr &instr) {
  // Results first: their slots give the static kinds and shapes.
  for (Value result : op->getResults()) {
    FailureOr<unsigned> slot = define(result, op);
    if (failed(slot))
      return failure();
    instr.out.push_back(*slot);
  }
  if (!instr.out.empty()) {
    instr.kind = info(instr.out[0]).kind;
    instr.n = info(instr.out[0]).size;
  }
  if (!instr.in.empty())
    instr.srcKind = info(instr.in[0]).kind;

  auto setBinaryF = [&](BinF kind) {
    instr.opc = Opc::BinaryF;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setUnaryF = [&](UnF kind) {
    instr.opc = Opc::UnaryF;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setBinaryI = [&](BinI kind) {
    instr.opc = Opc::BinaryI;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setConvert = [&](Conv kind) {
    instr.opc = Opc::Convert;
    instr.sub = static_cast<uint8_t>(kind);
    return success();
  };
  auto setConstant = [&](Attribute value) -> LogicalResult {
    FailureOr<BufferRef> buffer = buildConstant(op, value, info(instr.out[0]));
    if (failed(buffer))
      return failure();
    instr.opc = Opc::Const;
    instr.constant = *buffer;
    return success();
  };

  // Region ops.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    instr.opc = Opc::For;
    instr.flag = forOp.getUnsignedCmp();
    instr.srcKind = info(instr.in[0]).kind;
    instr.regions.resize(1);
    return compileRegion(forOp.getRegion(), instr.regions[0], op);
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    instr.opc = Opc::If;
    instr.regions.resize(2);
    if (failed(compileRegion(ifOp.getThenRegion(), instr.regions[0], op)) ||
        failed(compileRegion(ifOp.getElseRegion(), instr.regions[1], op)))
      return failure();
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    instr.opc = Opc::While;
    instr.regions.resize(2);
    if (failed(compileRegion(whileOp.getBefore(), instr.regions[0], op)) ||
        failed(compileRegion(whileOp.getAfter(), instr.regions[1], op)))
      return failure();
    return success();
  }
  if (op->getNumRegions() != 0)
    return op->emitError() << "tile executor: unsupported operation '"
                           << op->getName() << "'";

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // tile
      .Case([&](ParamOp param) -> LogicalResult {
        return param.emitError()
               << "tile executor: parameter '" << param.getName()
               << "' is unbound; specialize the kernel (tile-specialize) "
                  "before executing it";
      })
      .Case([&](BlockIdOp id) {
        instr.opc = Opc::BlockId;
        instr.a0 = static_cast<int64_t>(id.getDim());
        return success();
      })
      .Case([&](NumBlocksOp id) {
        instr.opc = Opc::NumBlocks;
        instr.a0 = static_cast<int64_t>(id.getDim());
        return success();
      })
      .Case([&](DimOp dim) {
        instr.opc = Opc::Dim;
        instr.a0 = dim.getDimension();
        return success();
      })
      .Case([&](IotaOp iota) -> LogicalResult {
        const SlotInfo &slot = info(instr.out[0]);
        int64_t dim = iota.getDimension();
        SmallVector<int64_t, 4> strides = rowMajorStrides(slot.shape);
        auto buffer = newInts(slot.size);
        for (int64_t k = 0; k < slot.size; ++k)
          buffer->i[k] = normalizeInt((k / strides[dim]) % slot.shape[dim],
                                      widthOf(slot.kind));
        instr.opc = Opc::Const;
        instr.constant = buffer;
        return success();
      })
      .Case([&](FullOp full) { return setConstant(full.getValue()); })
      .Case([&](SplatOp) {
        instr.opc = Opc::Splat;
        return success();
      })
      .Case([&](LoadOp load) {
        instr.opc = Opc::Load;
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        instr.v0.assign(shape.begin(), shape.end());
        if (std::optional<ArrayRef<int64_t>> order = load.getOrder())
          instr.v1.assign(order->begin(), order->end());
        else
          for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
            instr.v1.push_back(d);
        instr.a0 = static_cast<int64_t>(load.getPadding());
        instr.flag = load.getElementOffsets();
        return success();
      })
      .Case([&](StoreOp store) {
        instr.opc = Opc::Store;
        const SlotInfo &value = info(instr.in[0]);
        instr.kind = value.kind;
        instr.n = value.size;
        instr.v0.assign(value.shape.begin(), value.shape.end());
        instr.flag = store.getElementOffsets();
        return success();
      })
      .Case([&](ReadOp) {
        instr.opc = Opc::Read;
        return success();
      })
      .Case([&](GatherOp gather) {
        instr.opc = Opc::Gather;
        instr.a0 = static_cast<int64_t>(gather.getPadding());
        instr.a1 = static_cast<int64_t>(gather.getIndices().size());
        instr.flag = static_cast<bool>(gather.getMask());
        return success();
      })
      .Case([&](ScatterOp scatter) {
        instr.opc = Opc::Scatter;
        const SlotInfo &value = info(instr.in[0]);
        instr.kind = value.kind;
        instr.n = value.size;
        instr.a1 = static_cast<int64_t>(scatter.getIndices().size());
        instr.flag = static_cast<bool>(scatter.getMask());
        return success();
      })
      .Case([&](AtomicOp atomic) {
        instr.opc = Opc::Atomic;
        const SlotInfo &value = info(instr.in[0]);
        instr.kind = value.kind;
        instr.n = value.size;
        instr.v0.assign(value.shape.begin(), value.shape.end());
        instr.sub = static_cast<uint8_t>(atomic.getKind());
        instr.a0 = static_cast<int64_t>(atomic.getIndices().size());
        instr.a1 = (atomic.getCompare() ? 1 : 0) | (atomic.getMask() ? 2 : 0);
        instr.flag = atomic.getElementOffsets();
        impl.sequential = true;
        return success();
      })
      .Case([&](MmaOp) -> LogicalResult {
        instr.opc = Opc::Mma;
        const SlotInfo &a = info(instr.in[0]);
        const SlotInfo &b = info(instr.in[1]);
        if (a.shape.size() != 2 || b.shape.size() != 2 ||
            a.shape[1] != b.shape[0] || instr.kind != EK::F32 ||
            info(instr.out[0]).shape[0] != a.shape[0] ||
            info(instr.out[0]).shape[1] != b.shape[1])
          return op->emitError() << "tile executor: mma shapes do not agree";
        instr.a0 = a.shape[0];   // M
        instr.a1 = a.shape[1];   // K
        instr.v0 = {b.shape[1]}; // N
        return success();
      })
      .Case([&](Exp2Op exp2) {
        instr.opc = Opc::Exp2;
        instr.flag = exp2.getFlushToZero();
        return success();
      })
      .Case([&](MulHiUOp) { return setBinaryI(BinI::MulHiU); })
      .Case([&](DivOp div) {
        instr.opc = Opc::Div;
        instr.flag = div.getFlushToZero();
        instr.a0 = div.getRounding() != Rounding::nearest_even;
        return success();
      })
      .Case([&](ReduceOp reduce) {
        instr.opc = Opc::Reduce;
        const SlotInfo &source = info(instr.in[0]);
        int64_t axis = reduce.getAxis();
        int64_t outer = 1, inner = 1;
        for (int64_t d = 0; d < axis; ++d)
          outer *= source.shape[d];
        for (int64_t d = axis + 1;
             d < static_cast<int64_t>(source.shape.size()); ++d)
          inner *= source.shape[d];
        instr.v0 = {outer, source.shape[axis], inner};
        instr.sub = static_cast<uint8_t>(reduce.getKind());
        return success();
      })
      .Case([&](BroadcastOp) {
        instr.opc = Opc::StridedCopy;
        const SlotInfo &source = info(instr.in[0]);
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        SmallVector<int64_t, 4> strides = rowMajorStrides(source.shape);
        for (size_t d = 0; d < shape.size(); ++d)
          if (source.shape[d] != shape[d])
            strides[d] = 0;
        instr.v0.assign(shape.begin(), shape.end());
        instr.v1 = strides;
        return success();
      })
      .Case([&](PermuteOp permute) {
        instr.opc = Opc::StridedCopy;
        const SlotInfo &source = info(instr.in[0]);
        ArrayRef<int64_t> shape = info(instr.out[0]).shape;
        SmallVector<int64_t, 4> strides = rowMajorStrides(source.shape);
        instr.v0.assign(shape.begin(), shape.end());
        for (int64_t d : permute.getPermutation())
          instr.v1.push_back(strides[d]);
        return success();
      })
      .Case([&](ReshapeOp) {
        instr.opc = Opc::Alias;
        return success();
      })
      .Case([&](tile::SelectOp) {
        instr.opc = Opc::Select;
        return success();
      })
      .Case([&](AsTypeOp) {
        EK from = instr.srcKind, to = instr.kind;
        if (isFloatKind(from) && isFloatKind(to))
          return setConvert(Conv::FloatToFloat);
        if (isFloatKind(from))
          return setConvert(to == EK::I1 ? Conv::FloatToBool
                                         : Conv::FloatToIntSigned);
        if (isFloatKind(to))
          return setConvert(from == EK::I1 ? Conv::IntToFloatUnsigned
                                           : Conv::IntToFloatSigned);
        return setConvert(from == EK::I1 ? Conv::IntToIntUnsigned
                                         : Conv::IntToIntSigned);
      })
      // arith
      .Case([&](arith::ConstantOp constant) {
        return setConstant(constant.getValue());
      })
      .Case([&](arith::AddFOp) { return setBinaryF(BinF::Add); })
      .Case([&](arith::SubFOp) { return setBinaryF(BinF::Sub); })
      .Case([&](arith::MulFOp) { return setBinaryF(BinF::Mul); })
      .Case([&](arith::DivFOp) { return setBinaryF(BinF::Div); })
      .Case([&](arith::RemFOp) { return setBinaryF(BinF::Rem); })
      .Case([&](arith::MaximumFOp) { return setBinaryF(BinF::Max); })
      .Case([&](arith::MinimumFOp) { return setBinaryF(BinF::Min); })
      .Case([&](arith::MaxNumFOp) { return setBinaryF(BinF::MaxNum); })
      .Case([&](arith::MinNumFOp) { return setBinaryF(BinF::MinNum); })
      .Case([&](arith::NegFOp) { return setUnaryF(UnF::Neg); })
      .Case([&](arith::AddIOp) { return setBinaryI(BinI::Add); })
      .Case([&](arith::SubIOp) { return setBinaryI(BinI::Sub); })
      .Case([&](arith::MulIOp) { return setBinaryI(BinI::Mul); })
      .Case([&](arith::DivSIOp) { return setBinaryI(BinI::DivS); })
      .Case([&](arith::DivUIOp) { return setBinaryI(BinI::DivU); })
      .Case([&](arith::RemSIOp) { return setBinaryI(BinI::RemS); })
      .Case([&](arith::RemUIOp) { return setBinaryI(BinI::RemU); })
      .Case([&](arith::CeilDivSIOp) { return setBinaryI(BinI::CeilDivS); })
      .Case([&](arith::CeilDivUIOp) { return setBinaryI(BinI::CeilDivU); })
      .Case([&](arith::FloorDivSIOp) { return setBinaryI(BinI::FloorDivS); })
      .Case([&](arith::MaxSIOp) { return setBinaryI(BinI::MaxS); })
      .Case([&](arith::MaxUIOp) { return setBinaryI(BinI::MaxU); })
      .Case([&](arith::MinSIOp) { return setBinaryI(BinI::MinS); })
      .Case([&](arith::MinUIOp) { return setBinaryI(BinI::MinU); })
      .Case([&](arith::AndIOp) { return setBinaryI(BinI::And); })
      .Case([&](arith::OrIOp) { return setBinaryI(BinI::Or); })
      .Case([&](arith::XOrIOp) { return setBinaryI(BinI::Xor); })
      .Case([&](arith::ShLIOp) { return setBinaryI(BinI::Shl); })
      .Case([&](arith::ShRSIOp) { return setBinaryI(BinI::ShrS); })
      .Case([&](arith::ShRUIOp) { return setBinaryI(BinI::ShrU); })
      .Case([&](arith::CmpFOp cmp) {
        instr.opc = Opc::CmpF;
        instr.sub = static_cast<uint8_t>(cmp.getPredicate());
        return success();
      })
      .Case([&](arith::CmpIOp cmp) {
        instr.opc = Opc::CmpI;
        instr.sub = static_cast<uint8_t>(cmp.getPredicate());
        return success();
      })
      .Case([&](arith::SelectOp select) -> LogicalResult {
        // A view is a kernel argument, not a value to choose: the executor
        // keeps no view slots for results (a crash before this check).
        if (isa<ViewType>(select.getType()))
          return select.emitError()
                 << "tile executor: arith.select between views is not "
                    "supported; branch with scf.if around the accesses";
        bool scalarCondition =
            !isa<RankedTensorType>(select.getCondition().getType());
        instr.opc = scalarCondition && isa<RankedTensorType>(select.getType())
                        ? Opc::SelectWhole
                        : Opc::Select;
        return success();
      })
      .Case([&](arith::ExtFOp) { return setConvert(Conv::FloatToFloat); })
      .Case([&](arith::TruncFOp truncf) -> LogicalResult {
        if (std::optional<arith::RoundingMode> mode = truncf.getRoundingmode())
          if (*mode != arith::RoundingMode::to_nearest_even)
            return truncf.emitError()
                   << "tile executor: only the to_nearest_even rounding mode "
                      "of arith.truncf is supported";
        return setConvert(Conv::FloatToFloat);
      })
      .Case([&](arith::ExtSIOp) { return setConvert(Conv::IntToIntSigned); })
      .Case([&](arith::TruncIOp) { return setConvert(Conv::IntToIntSigned); })
      .Case(
          [&](arith::IndexCastOp) { return setConvert(Conv::IntToIntSigned); })
      .Case([&](arith::ExtUIOp) { return setConvert(Conv::IntToIntUnsigned); })
      .Case([&](arith::IndexCastUIOp) {
        return setConvert(Conv::IntToIntUnsigned);
      })
      .Case([&](arith::SIToFPOp) { return setConvert(Conv::IntToFloatSigned); })
      .Case(
          [&](arith::UIToFPOp) { return setConvert(Conv::IntToFloatUnsigned); })
      .Case([&](arith::FPToSIOp) { return setConvert(Conv::FloatToIntSigned); })
      .Case(
          [&](arith::FPToUIOp) { return setConvert(Conv::FloatToIntUnsigned); })
      .Case([&](arith::BitcastOp) { return setConvert(Conv::Bitcast); })
      // math
      .Case([&](math::Exp2Op) { return setUnaryF(UnF::Exp2); })
      .Case([&](math::ExpOp) { return setUnaryF(UnF::Exp); })
      .Case([&](math::Log2Op) { return setUnaryF(UnF::Log2); })
      .Case([&](math::LogOp) { return setUnaryF(UnF::Log); })
      .Case([&](math::SqrtOp) { return setUnaryF(UnF::Sqrt); })
      .Case([&](math::RsqrtOp) { return setUnaryF(UnF::Rsqrt); })
      .Case([&](math::AbsFOp) { return setUnaryF(UnF::Abs); })
      .Case([&](math::TanhOp) { return setUnaryF(UnF::Tanh); })
      .Case([&](math::FloorOp) { return setUnaryF(UnF::Floor); })
      .Case([&](math::CeilOp) { return setUnaryF(UnF::Ceil); })
      .Case([&](math::CopySignOp) { return setBinaryF(BinF::CopySign); })
      .Case([&](math::FmaOp) {
        instr.opc = Opc::FmaF;
        return success();
      })
      .Case([&](math::AbsIOp) {
        instr.opc = Opc::UnaryI;
        instr.sub = static_cast<uint8_t>(UnI::Abs);
        return success();
      })
      .Default([&](Operation *) {
        return op->emitError() << "tile executor: unsupported operation '"
                               << op->getName() << "'";
      });
}

FailureOr<std::unique_ptr<Executable>>
Executable::compile(func::FuncOp kernel) {
  auto impl = std::make_unique<Impl>();
  impl->kernel = kernel;
  if (failed(Compiler(*impl).compileKernel()))
    return failure();
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}
