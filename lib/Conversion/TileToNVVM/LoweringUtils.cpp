//===- LoweringUtils.cpp - shared pieces of the NVVM lowering -------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> std::optional<Type> {
    if (!type.getEncoding())
      return std::nullopt;
    int64_t regs = getNumRegs(type);
    if (regs <= 0)
      return std::nullopt;
    return VectorType::get({regs}, type.getElementType());
  });
  addConversion([ctx](ViewType type) -> Type {
    return getViewStructType(ctx, type.getRank());
  });
  addConversion([ctx](SharedBufferType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  // Values crossing the boundary of converted and unconverted IR.
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

LLVM::LLVMStructType lowering::getViewStructType(MLIRContext *ctx,
                                                 unsigned rank) {
  auto i32 = IntegerType::get(ctx, 32);
  auto i64 = IntegerType::get(ctx, 64);
  return LLVM::LLVMStructType::getLiteral(
      ctx,
      {LLVM::LLVMPointerType::get(ctx, 1), LLVM::LLVMArrayType::get(i32, rank),
       LLVM::LLVMArrayType::get(i64, rank)});
}

ViewDescriptor lowering::unpackView(OpBuilder &b, Location loc, Value desc,
                                    unsigned rank) {
  ViewDescriptor view;
  view.ptr = LLVM::ExtractValueOp::create(b, loc, desc, ArrayRef<int64_t>{0});
  for (unsigned d = 0; d < rank; ++d) {
    view.sizes.push_back(LLVM::ExtractValueOp::create(
        b, loc, desc, ArrayRef<int64_t>{1, static_cast<int64_t>(d)}));
    view.strides.push_back(LLVM::ExtractValueOp::create(
        b, loc, desc, ArrayRef<int64_t>{2, static_cast<int64_t>(d)}));
  }
  return view;
}

Value lowering::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value lowering::i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value lowering::threadIdX(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value lowering::laneId(OpBuilder &b, Location loc) {
  return arith::AndIOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 31));
}

Value lowering::warpId(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 5));
}

Value lowering::threadCoord(OpBuilder &b, Location loc, const RegisterLayout &l,
                            unsigned dim, Value lane, Value warp) {
  Value sum = i32Const(b, loc, 0);
  for (const ThreadTerm &term : l.threadTerms[dim]) {
    Value id = term.isWarp ? warp : lane;
    Value v = id;
    if (term.div != 1)
      v = arith::ShRUIOp::create(b, loc, v,
                                 i32Const(b, loc, llvm::Log2_32(term.div)));
    v = arith::AndIOp::create(b, loc, v, i32Const(b, loc, term.mod - 1));
    if (term.mul != 1)
      v = arith::MulIOp::create(b, loc, v, i32Const(b, loc, term.mul));
    sum = arith::AddIOp::create(b, loc, sum, v);
  }
  return sum;
}

Value lowering::isOwnerThread(OpBuilder &b, Location loc,
                              const RegisterLayout &l, Value lane, Value warp) {
  unsigned laneMask = ~l.usedLaneBits & 31u;
  unsigned warpMask = ~l.usedWarpBits & (l.numWarps - 1);
  Value owner;
  auto addCondition = [&](Value id, unsigned mask) {
    if (!mask)
      return;
    Value bits = arith::AndIOp::create(b, loc, id, i32Const(b, loc, mask));
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                       i32Const(b, loc, 0));
    owner = owner ? arith::AndIOp::create(b, loc, owner, zero) : zero;
  };
  addCondition(lane, laneMask);
  addCondition(warp, warpMask);
  return owner;
}

RegisterLayout lowering::getLayout(Type tensorType) {
  auto type = cast<RankedTensorType>(tensorType);
  return *getRegisterLayout(type.getEncoding(), type.getShape(),
                            [] { return InFlightDiagnostic(); });
}

SmallVector<Value> lowering::unpackVector(OpBuilder &b, Location loc,
                                          Value vector) {
  auto type = cast<VectorType>(vector.getType());
  SmallVector<Value> elements;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    elements.push_back(vector::ExtractOp::create(b, loc, vector, i));
  return elements;
}

Value lowering::packVector(OpBuilder &b, Location loc, Type vectorType,
                           ArrayRef<Value> elements) {
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(vectorType),
                                        elements);
}

Value lowering::sharedMemoryBase(OpBuilder &b, Location loc, Operation *from) {
  auto module = from->getParentOfType<gpu::GPUModuleOp>();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemorySymbol);
  assert(global && "the kernel module declares dynamic shared memory");
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value lowering::sharedOffset(OpBuilder &b, Location loc,
                             SharedLayoutAttr layout,
                             ArrayRef<int64_t> tileShape, Value i0, Value i1) {
  unsigned inner = layout.getOrder()[0];
  Value row = inner == 1 ? i0 : i1;
  Value col = inner == 1 ? i1 : i0;
  int64_t vecLog = llvm::Log2_32(layout.getVec());
  Value phase = row;
  if (layout.getPerPhase() != 1)
    phase = arith::ShRUIOp::create(
        b, loc, phase, i32Const(b, loc, llvm::Log2_32(layout.getPerPhase())));
  phase = arith::AndIOp::create(b, loc, phase,
                                i32Const(b, loc, layout.getMaxPhase() - 1));
  Value chunk = arith::ShRUIOp::create(b, loc, col, i32Const(b, loc, vecLog));
  chunk = arith::XOrIOp::create(b, loc, chunk, phase);
  Value inVec =
      arith::AndIOp::create(b, loc, col, i32Const(b, loc, layout.getVec() - 1));
  Value rowBase =
      arith::MulIOp::create(b, loc, row, i32Const(b, loc, tileShape[inner]));
  Value colOffset = arith::AddIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, chunk, i32Const(b, loc, vecLog)),
      inVec);
  return arith::AddIOp::create(b, loc, rowBase, colOffset);
}

Value lowering::viewElementAddress(OpBuilder &b, Location loc,
                                   const ViewDescriptor &view,
                                   ArrayRef<Value> coords, Type elementType) {
  Value offset = i64Const(b, loc, 0);
  for (auto [coord, stride] : llvm::zip(coords, view.strides)) {
    Value c = arith::ExtSIOp::create(b, loc, b.getI64Type(), coord);
    offset = arith::AddIOp::create(b, loc, offset,
                                   arith::MulIOp::create(b, loc, c, stride));
  }
  return LLVM::GEPOp::create(b, loc, view.ptr.getType(), elementType, view.ptr,
                             ValueRange{offset});
}

Value lowering::inBounds(OpBuilder &b, Location loc, const ViewDescriptor &view,
                         ArrayRef<Value> coords) {
  Value ok;
  for (auto [coord, size] : llvm::zip(coords, view.sizes)) {
    // Unsigned compare: negative coordinates are out of bounds too.
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coord, size);
    ok = ok ? arith::AndIOp::create(b, loc, ok, in) : in;
  }
  return ok;
}
