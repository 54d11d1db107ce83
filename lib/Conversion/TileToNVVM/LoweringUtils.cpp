//===- LoweringUtils.cpp - shared pieces of the NVVM lowering -------------===//

#include "LoweringUtils.h"

#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

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
  addConversion([ctx](MbarrierType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  // The generic address of the grid-constant parameter.
  addConversion(
      [ctx](TensorMapType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
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
    // The innermost stride is 1 by the launch contract (C2, checked by the
    // launchers; a dimension of size 1 is only ever indexed at 0): a
    // constant lets address arithmetic fold into immediate offsets.
    view.strides.push_back(
        d + 1 == rank
            ? i64Const(b, loc, 1)
            : LLVM::ExtractValueOp::create(
                  b, loc, desc, ArrayRef<int64_t>{2, static_cast<int64_t>(d)})
                  .getResult());
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

Value lowering::barrierAddress(OpBuilder &b, Location loc, Value base,
                               Value index) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                             ValueRange{index});
}

Value lowering::laneId(OpBuilder &b, Location loc) {
  return arith::AndIOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 31));
}

Value lowering::warpId(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 5));
}

Value lowering::uniformWarpgroupId(OpBuilder &b, Location loc) {
  Value group =
      arith::ShRUIOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 7));
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), i32Const(b, loc, -1),
                              group, i32Const(b, loc, 0), i32Const(b, loc, 31),
                              NVVM::ShflKind::idx, UnitAttr());
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

LogicalResult
lowering::replaceBySharedAddress(ConversionPatternRewriter &rewriter,
                                 Operation *op,
                                 std::optional<uint64_t> offset) {
  if (!offset)
    return op->emitOpError() << "has no offset: run tilegpu-allocate-shared";
  Value base = sharedMemoryBase(rewriter, op->getLoc(), op);
  rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
      op, base.getType(), rewriter.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(*offset)});
  return success();
}

Value lowering::sharedOffset(OpBuilder &b, Location loc,
                             SharedLayoutAttr layout,
                             ArrayRef<int64_t> tileShape, Value t0, int64_t c0,
                             Value t1, int64_t c1, unsigned threadChunkBits) {
  unsigned inner = layout.getOrder()[0];
  Value tRow = inner == 1 ? t0 : t1, tCol = inner == 1 ? t1 : t0;
  int64_t cRow = inner == 1 ? c0 : c1, cCol = inner == 1 ? c1 : c0;
  int64_t vec = layout.getVec(), vecLog = llvm::Log2_64(vec);
  int64_t period = layout.getPerPhase() * layout.getMaxPhase();
  int64_t rowSize = tileShape[inner] + layout.getPad();
  auto shr = [&](Value v, int64_t bits) -> Value {
    return bits ? Value(
                      arith::ShRUIOp::create(b, loc, v, i32Const(b, loc, bits)))
                : v;
  };
  if (int64_t chunk = layout.getChunk(); chunk && chunk < rowSize) {
    // Pieces of `chunk` columns are stacked as rows of a taller tile. When
    // the thread part stays inside one piece, the piece is compile-time.
    int64_t outer = tileShape[1 - inner];
    bool threadInPiece =
        (vec << threadChunkBits) <= chunk && (cCol % chunk) % vec == 0 &&
        (((cCol % chunk) / vec) & ((int64_t(1) << threadChunkBits) - 1)) == 0;
    if (threadInPiece) {
      cRow += (cCol / chunk) * outer;
      cCol %= chunk;
    } else {
      Value row = arith::AddIOp::create(b, loc, tRow, i32Const(b, loc, cRow));
      Value col = arith::AddIOp::create(b, loc, tCol, i32Const(b, loc, cCol));
      Value piece = shr(col, llvm::Log2_64(chunk));
      tRow = arith::AddIOp::create(
          b, loc, row,
          arith::MulIOp::create(b, loc, piece, i32Const(b, loc, outer)));
      tCol = arith::AndIOp::create(b, loc, col, i32Const(b, loc, chunk - 1));
      cRow = cCol = 0;
      threadChunkBits = llvm::Log2_64(chunk / vec);
    }
    rowSize = chunk;
  }
  auto phaseOf = [&](Value row) -> Value {
    return arith::AndIOp::create(b, loc,
                                 shr(row, llvm::Log2_32(layout.getPerPhase())),
                                 i32Const(b, loc, layout.getMaxPhase() - 1));
  };
  if (layout.getMaxPhase() == 1) {
    // No swizzle: a per-thread offset plus a compile-time one, added last so
    // that it becomes the immediate of the access.
    Value thread = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tRow, i32Const(b, loc, rowSize)),
        tCol);
    return arith::AddIOp::create(b, loc, thread,
                                 i32Const(b, loc, cRow * rowSize + cCol));
  }
  Value inVec = arith::AndIOp::create(b, loc, tCol, i32Const(b, loc, vec - 1));
  int64_t cChunk = cCol >> vecLog;
  bool factorizable = cRow % period == 0 && cCol % vec == 0 &&
                      (cChunk & ((int64_t(1) << threadChunkBits) - 1)) == 0;
  Value rowOffset, chunk;
  if (factorizable) {
    // Per thread: row * rowSize and (thread vector ^ phase); per access: an
    // immediate row offset and a constant XOR.
    rowOffset = arith::MulIOp::create(b, loc, tRow, i32Const(b, loc, rowSize));
    Value threadChunk =
        arith::XOrIOp::create(b, loc, shr(tCol, vecLog), phaseOf(tRow));
    chunk = cChunk ? Value(arith::XOrIOp::create(b, loc, threadChunk,
                                                 i32Const(b, loc, cChunk)))
                   : threadChunk;
    rowOffset = arith::AddIOp::create(b, loc, rowOffset,
                                      i32Const(b, loc, cRow * rowSize));
  } else {
    Value row = arith::AddIOp::create(b, loc, tRow, i32Const(b, loc, cRow));
    Value col = arith::AddIOp::create(b, loc, tCol, i32Const(b, loc, cCol));
    rowOffset = arith::MulIOp::create(b, loc, row, i32Const(b, loc, rowSize));
    chunk = arith::XOrIOp::create(b, loc, shr(col, vecLog), phaseOf(row));
    inVec = arith::AndIOp::create(b, loc, col, i32Const(b, loc, vec - 1));
  }
  Value colOffset = arith::AddIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, chunk, i32Const(b, loc, vecLog)),
      inVec);
  return arith::AddIOp::create(b, loc, rowOffset, colOffset);
}

Value lowering::sharedAddress(OpBuilder &b, Location loc, Value base,
                              SharedLayoutAttr layout,
                              ArrayRef<int64_t> tileShape, Type elementType,
                              Value t0, int64_t c0, Value t1, int64_t c1,
                              unsigned threadChunkBits) {
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  Type i8 = b.getI8Type();
  if (layout.getMaxPhase() == 1 && layout.getChunk() == 0) {
    unsigned inner = layout.getOrder()[0];
    int64_t rowSize = tileShape[inner] + layout.getPad();
    Value tRow = inner == 1 ? t0 : t1, tCol = inner == 1 ? t1 : t0;
    int64_t cRow = inner == 1 ? c0 : c1, cCol = inner == 1 ? c1 : c0;
    Value thread = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tRow, i32Const(b, loc, rowSize)),
        tCol);
    Value threadBytes =
        arith::MulIOp::create(b, loc, thread, i32Const(b, loc, elementBytes));
    Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), i8, base,
                                    ValueRange{threadBytes});
    int64_t constBytes = (cRow * rowSize + cCol) * elementBytes;
    if (constBytes == 0)
      return ptr;
    return LLVM::GEPOp::create(
        b, loc, base.getType(), i8, ptr,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(constBytes)});
  }
  Value offset =
      sharedOffset(b, loc, layout, tileShape, t0, c0, t1, c1, threadChunkBits);
  Value bytes =
      arith::MulIOp::create(b, loc, offset, i32Const(b, loc, elementBytes));
  return LLVM::GEPOp::create(b, loc, base.getType(), i8, base,
                             ValueRange{bytes});
}

Value lowering::opaqueI32InLoop(OpBuilder &b, Location loc, Operation *user,
                                Value value) {
  if (!user->getParentOfType<scf::ForOp>())
    return value;
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), ValueRange{value}, "mov.b32 $0, $1;",
             "=r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, /*asm_dialect=*/LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

Value lowering::opaqueInLoop(OpBuilder &b, Location loc, Operation *user,
                             Value sharedPtr) {
  if (!user->getParentOfType<scf::ForOp>())
    return sharedPtr;
  // Shared pointers are 32-bit (enableShortSharedPointers).
  Value asInt = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), sharedPtr);
  Value moved = opaqueI32InLoop(b, loc, user, asInt);
  return LLVM::IntToPtrOp::create(b, loc, sharedPtr.getType(), moved);
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

Value lowering::threadIndex(OpBuilder &b, Location loc, const RegisterLayout &l,
                            ArrayRef<int64_t> strides, Value lane, Value warp) {
  Value sum = i32Const(b, loc, 0);
  for (auto [d, stride] : llvm::enumerate(strides)) {
    if (l.threadTerms[d].empty())
      continue;
    Value c = threadCoord(b, loc, l, d, lane, warp);
    if (stride != 1)
      c = arith::MulIOp::create(b, loc, c, i32Const(b, loc, stride));
    sum = arith::AddIOp::create(b, loc, sum, c);
  }
  return sum;
}

FailureOr<Value> lowering::scratchBase(OpBuilder &b, Location loc,
                                       Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttrName);
  if (!offset)
    return op->emitOpError()
           << "needs shared-memory scratch but has no "
           << kScratchOffsetAttrName << ": run tilegpu-allocate-shared";
  Value base = sharedMemoryBase(b, loc, op);
  return Value(LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset.getInt())}));
}

int64_t lowering::getAccessAlign(Operation *op) {
  if (auto align = op->getAttrOfType<IntegerAttr>(kViewAlignAttrName))
    return align.getInt();
  return kDefaultViewAlign;
}

Value lowering::loadElements(OpBuilder &b, Location loc, Type elementType,
                             unsigned count, Value ptr) {
  bool isBool = elementType.isInteger(1);
  Type memType = isBool ? b.getI8Type() : elementType;
  int64_t bytes = std::max<int64_t>(1, memType.getIntOrFloatBitWidth() / 8);
  Type type = count == 1 ? memType : VectorType::get({count}, memType);
  Value value = LLVM::LoadOp::create(b, loc, type, ptr, bytes * count);
  if (!isBool)
    return value;
  Type boolType =
      count == 1 ? elementType : VectorType::get({count}, elementType);
  return arith::TruncIOp::create(b, loc, boolType, value);
}

void lowering::storeElements(OpBuilder &b, Location loc,
                             ArrayRef<Value> elements, Value ptr) {
  Type elementType = elements.front().getType();
  bool isBool = elementType.isInteger(1);
  Type memType = isBool ? b.getI8Type() : elementType;
  int64_t bytes = std::max<int64_t>(1, memType.getIntOrFloatBitWidth() / 8);
  auto toMemory = [&](Value e) -> Value {
    return isBool ? Value(arith::ExtUIOp::create(b, loc, memType, e)) : e;
  };
  Value value;
  if (elements.size() == 1) {
    value = toMemory(elements.front());
  } else {
    SmallVector<Value> values = llvm::map_to_vector(elements, toMemory);
    value = vector::FromElementsOp::create(
        b, loc, VectorType::get({static_cast<int64_t>(values.size())}, memType),
        values);
  }
  LLVM::StoreOp::create(b, loc, value, ptr, bytes * elements.size());
}

Value lowering::mapScalars(OpBuilder &b, Location loc, Value vector,
                           function_ref<Value(Value)> fn) {
  SmallVector<Value> elements = unpackVector(b, loc, vector);
  for (Value &e : elements)
    e = fn(e);
  return packVector(b, loc, vector.getType(), elements);
}

Value lowering::callIntrinsic(OpBuilder &b, Location loc, StringRef name,
                              Type result, ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name),
                                       args)
      .getResult(0);
}

void lowering::scratchBarrier(OpBuilder &b, Location loc, Operation *op) {
  auto threads = op->getAttrOfType<IntegerAttr>(kBarrierThreadsAttrName);
  if (!threads) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  // The id tilegpu-warp-specialize gives the consumers' barriers.
  NVVM::BarrierOp::create(b, loc, TypeRange{}, i32Const(b, loc, 1),
                          i32Const(b, loc, threads.getInt()),
                          NVVM::BarrierReductionAttr(), Value());
}
