//===- WgmmaToNVVM.cpp - Hopper warpgroup mma -----------------------------===//
//
// tilegpu.mma with an #mma version 3 accumulator -> wgmma.mma_async.
//
// Each warpgroup (warps 4g .. 4g+3) computes, per repetition `rep` of the
// layout, the 64 rows rep * 16 * W + 64 * g + [0, 64) of the tile with one
// m64nNk16 instruction per 16-wide k step (N = the whole tile width); fp8
// (e4m3, e5m2) with one m64nNk32 per 32-wide step: 32 bytes of K either
// way, so the descriptors advance alike. fp8 has no transposed operands:
// both are K-major (checked by tilegpu-assign-layouts), and A is shared. The
// accumulator registers of a warp are those of the mma.sync layout in the
// same order (PTX ISA, "wgmma register fragments": d[4i .. 4i+3] of a thread
// are the m16n8 C fragment of column block i), and a register A operand (P)
// is the mma.sync A fragment of the warp's 16 rows, so no data moves.
//
// Shared operands are read through matrix descriptors. The tile is in the
// 128B-swizzle layout with 128-byte pieces (#tilegpu.shared chunk = 64
// 16-bit or 128 8-bit elements, E of them a piece row):
//   element (outer o, inner i) at (i / E) * piece + o * 128 + (i % E) * bytes
//   bytes, piece = outer * 128, swizzled by the hardware with address bits
//   [7, 10) (the tile is 1024-byte aligned).
// K-major operand (inner = K): start = element (mn0, k0), stride byte offset
//   (SBO) 1024 between 8-row groups; the leading offset is unused.
// MN-major operand (inner = M or N, transposed): start = element (k0, mn0),
//   leading byte offset (LBO) = piece (the next 64 of M/N), SBO = 1024 (the
//   next 8 of K).
// Descriptor (PTX ISA, "matrix descriptor"): bits 0-13 start >> 4, 16-29
// LBO >> 4, 32-45 SBO >> 4, 62-63 swizzle mode (1 = 128B).
// Which dimension of a buffer is K follows the mma's transpose_a /
// transpose_b (MmaTranspose.h): a transposed buffer is K x M (N x K), so
// the same tile reads K-major for one mma and MN-major for another.
//
// An accumulator that is a zero tile (S = Q K^T) is not materialized: the
// first k step of each row block runs with scale-d = 0 (D = A B).
//
// The sequence is fence; the instructions; commit; wait 0. The fence and
// the wait are inline asm that take the accumulator (and register A) as
// tied operands, so no instruction that writes or reads those registers can
// be scheduled between them and the mma.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "tile/Dialect/TileGPU/IR/MmaTranspose.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

constexpr int64_t kPieceRowBytes = 128; // one 128B-swizzle row
constexpr int64_t kAtomBytes = 1024;    // 8 rows of 128 bytes

/// Descriptor arithmetic for one shared operand of a wgmma. The low word
/// of the tile's first descriptor is computed once; each instruction's
/// descriptor adds its element's offset >> 4 to it (the start field cannot
/// carry: shared addresses >> 4 stay below 2^14) and pairs it with the
/// constant high word, so that each costs one add (ptxas keeps both words
/// in uniform registers when the address is warp-uniform).
struct SharedOperand {
  int64_t outer = 0;
  bool kMajor = false;
  int64_t elementBytes = 2;
  Value low; // i32: start >> 4 | LBO >> 4 << 16 of the tile's first element

  /// Byte offset of the instruction's first element (mn0, k0).
  int64_t offset(int64_t mn0, int64_t k0) const {
    int64_t o = kMajor ? mn0 : k0, i = kMajor ? k0 : mn0;
    int64_t perPiece = kPieceRowBytes / elementBytes;
    return (i / perPiece) * outer * kPieceRowBytes + o * kPieceRowBytes +
           (i % perPiece) * elementBytes;
  }

  /// Sets `low` for the tile at shared address `base` (i32).
  void setBase(OpBuilder &b, Location loc, Value base) {
    int64_t lbo = kMajor ? 1 : outer * kPieceRowBytes >> 4;
    low = arith::AddIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, base, i32Const(b, loc, 4)),
        i32Const(b, loc, lbo << 16));
  }

  /// The descriptor (i64) of the element `bytes` past the tile's first.
  Value descriptor(OpBuilder &b, Location loc, int64_t bytes) const {
    assert(bytes % 16 == 0 && "wgmma operands start at 16-byte offsets");
    Value start =
        bytes ? arith::AddIOp::create(b, loc, low, i32Const(b, loc, bytes >> 4))
              : low;
    int64_t high = (kAtomBytes >> 4) | (int64_t(1) << 30); // SBO, 128B swizzle
    Value words = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, b.getI32Type()),
        ValueRange{start, i32Const(b, loc, high)});
    return LLVM::BitcastOp::create(b, loc, b.getI64Type(), words);
  }
};

/// Checks that `type` is in the wgmma layout and describes it (the base
/// is set after); `kDim` is the tile dimension that is the mma's K.
FailureOr<SharedOperand> describe(Operation *op, SharedBufferType type,
                                  unsigned kDim) {
  auto layout = cast<SharedLayoutAttr>(type.getLayout());
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  ArrayRef<int64_t> shape = type.getShape();
  unsigned inner = layout.getOrder()[0];
  if (layout.getChunk() * elementBytes != kPieceRowBytes ||
      layout.getMaxPhase() != 8 || layout.getPerPhase() != 1 ||
      layout.getVec() * elementBytes != 16 || shape[1 - inner] % 8 != 0)
    return op->emitOpError()
           << "a wgmma operand needs the 128B-swizzle layout with 128-byte "
              "pieces and whole 8-row atoms, got "
           << type;
  return SharedOperand{shape[1 - inner], inner == kDim, elementBytes, {}};
}

/// The 32-bit registers of a 16-bit register tile, element pairs (2i, 2i+1)
/// packed as the wgmma A operand reads them. The mma and its wait build the
/// same instructions, which LLVM merges, so the wait keeps the very
/// registers the hardware reads alive until the mma completes.
SmallVector<Value> packPairs(OpBuilder &b, Location loc, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  Type pairType = VectorType::get({2}, type.getElementType());
  SmallVector<Value> elements = unpackVector(b, loc, vector);
  SmallVector<Value> regs;
  for (size_t i = 0; i + 1 < elements.size(); i += 2) {
    Value pair = vector::FromElementsOp::create(
        b, loc, cast<VectorType>(pairType),
        ValueRange{elements[i], elements[i + 1]});
    regs.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair));
  }
  return regs;
}

/// One inline asm statement whose results are `tied` (same constraints as
/// inputs) plus `inputs`; `ptx` refers to tied values as $0.. and to the
/// other inputs after them.
SmallVector<Value> emitAsm(OpBuilder &b, Location loc, StringRef ptx,
                           ValueRange tied, ValueRange inputs,
                           ArrayRef<StringRef> inputConstraints) {
  std::string constraints;
  SmallVector<Type> types;
  for (Value v : tied) {
    types.push_back(v.getType());
    constraints += v.getType().isF32() ? "=f," : "=r,";
  }
  for (StringRef c : inputConstraints)
    constraints += (c + ",").str();
  for (size_t i = 0; i < tied.size(); ++i)
    constraints += std::to_string(i) + ",";
  if (!constraints.empty())
    constraints.pop_back();
  SmallVector<Value> operands(inputs);
  operands.append(tied.begin(), tied.end());
  Type resultType =
      types.empty()
          ? Type(LLVM::LLVMVoidType::get(b.getContext()))
          : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), types));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, ptx, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> results;
  for (size_t i = 0; i < tied.size(); ++i)
    results.push_back(
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return results;
}

struct WgmmaLowering : OpConversionPattern<tilegpu::MmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto accType = op.getAcc().getType();
    auto mma = cast<MmaLayoutAttr>(accType.getEncoding());
    if (mma.getVersion() != 3)
      return failure();
    Location loc = op.getLoc();
    int64_t warps = mma.getWarps()[0];
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1);
    SharedBufferType bType = op.getB().getType();
    // transpose_b: the buffer is N x K (its K dimension is 1).
    int64_t k = bType.getShape()[isTransposedB(op) ? 1 : 0];
    Type elementType = bType.getElementType();
    bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(elementType);
    if (!elementType.isF16() && !elementType.isBF16() && !fp8)
      return op.emitOpError()
             << "wgmma is lowered for f16, bf16, f8E4M3FN and f8E5M2";
    // K of one instruction: 32 bytes of each row of A and column of B.
    int64_t kStep = fp8 ? 32 : 16;
    if (k % kStep != 0 || n % 8 != 0 || n > 256 || warps % 4 != 0)
      return op.emitOpError()
             << "a " << m << "x" << n << "x" << k << " mma with " << warps
             << " warps does not fit wgmma m64nNk" << kStep
             << " (K a multiple of " << kStep
             << ", N of 8 up to 256, whole warpgroups)";
    if (fp8 && !isa<SharedBufferType>(op.getA().getType()))
      return op.emitOpError() << "fp8 wgmma reads A from shared memory only";
    int64_t repM = m / (16 * warps), nTiles = n / 8, kSteps = k / kStep;
    int64_t accPerRep = nTiles * 4;
    StringRef ptxType = elementType.isBF16()                 ? "bf16"
                        : isa<Float8E4M3FNType>(elementType) ? "e4m3"
                        : isa<Float8E5M2Type>(elementType)   ? "e5m2"
                                                             : "f16";
    auto c32 = [&](int64_t v) { return i32Const(rewriter, loc, v); };
    Type i32 = rewriter.getI32Type();

    auto sharedBase = [&](Value ptr) -> Value {
      return LLVM::PtrToIntOp::create(rewriter, loc, i32,
                                      opaqueInLoop(rewriter, loc, op, ptr));
    };
    FailureOr<SharedOperand> bOperand =
        describe(op, bType, /*kDim=*/isTransposedB(op) ? 1 : 0);
    if (failed(bOperand))
      return failure();
    bOperand->setBase(rewriter, loc, sharedBase(adaptor.getB()));

    // Operand A: a shared tile (its warpgroup's rows start 64 * g in) or
    // the P registers.
    std::optional<SharedOperand> aOperand;
    SmallVector<Value> aRegs;
    if (auto aBuf = dyn_cast<SharedBufferType>(op.getA().getType())) {
      // transpose_a: the buffer is K x M (its K dimension is 0).
      FailureOr<SharedOperand> a =
          describe(op, aBuf, /*kDim=*/isTransposedA(op) ? 0 : 1);
      if (failed(a))
        return failure();
      aOperand = *a;
      if (fp8 && (!aOperand->kMajor || !bOperand->kMajor))
        return op.emitOpError()
               << "fp8 wgmma has no transposed operands: A and B must be "
                  "K-major in shared memory";
      Value groupBytes = arith::MulIOp::create(
          rewriter, loc, uniformWarpgroupId(rewriter, loc),
          c32(aOperand->offset(64, 0)));
      aOperand->setBase(rewriter, loc,
                        arith::AddIOp::create(rewriter, loc,
                                              sharedBase(adaptor.getA()),
                                              groupBytes));
    } else {
      SmallVector<Value> pairs = packPairs(rewriter, loc, adaptor.getA());
      int64_t aTiles = k / 8;
      for (int64_t rep = 0; rep < repM; ++rep)
        for (int64_t ks = 0; ks < kSteps; ++ks)
          for (int64_t reg = 0; reg < 4; ++reg) {
            // mma.sync A order: (rows g, k 0-7), (g+8, 0-7), (g, 8-15), ...
            int64_t tile = 2 * ks + reg / 2, half = reg % 2;
            aRegs.push_back(pairs[((rep * aTiles + tile) * 4 + 2 * half) / 2]);
          }
    }

    // The fence: accumulator and register A pass through it.
    bool zeroAcc = false;
    if (auto full = op.getAcc().getDefiningOp<tile::FullOp>())
      if (auto value = dyn_cast<FloatAttr>(full.getValue()))
        zeroAcc = value.getValue().isPosZero();
    SmallVector<Value> acc;
    if (zeroAcc)
      acc.assign(n * m / (32 * warps),
                 LLVM::PoisonOp::create(rewriter, loc, rewriter.getF32Type()));
    else
      acc = unpackVector(rewriter, loc, adaptor.getAcc());
    SmallVector<Value> fenced(acc);
    fenced.append(aRegs);
    fenced =
        emitAsm(rewriter, loc, "wgmma.fence.sync.aligned;", fenced, {}, {});
    acc.assign(fenced.begin(), fenced.begin() + acc.size());
    aRegs.assign(fenced.begin() + acc.size(), fenced.end());

    for (int64_t rep = 0; rep < repM; ++rep) {
      int64_t row0 = rep * 16 * warps;
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        std::string ptx;
        llvm::raw_string_ostream os(ptx);
        // scale-d (accumulate) is a predicate: set from the last input.
        int64_t scaleD = accPerRep + (aOperand ? 1 : 4) + 1;
        os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << scaleD << ", 0;\n";
        os << "wgmma.mma_async.sync.aligned.m64n" << n << "k" << kStep
           << ".f32." << ptxType << "." << ptxType << " {";
        for (int64_t i = 0; i < accPerRep; ++i)
          os << (i ? ", " : "") << "$" << i;
        os << "}, ";
        SmallVector<Value> inputs;
        SmallVector<StringRef> constraints;
        int64_t next = accPerRep;
        if (aOperand) {
          inputs.push_back(aOperand->descriptor(
              rewriter, loc, aOperand->offset(row0, ks * kStep)));
          constraints.push_back("l");
          os << "$" << next++ << ", ";
        } else {
          os << "{";
          for (int64_t reg = 0; reg < 4; ++reg) {
            inputs.push_back(aRegs[(rep * kSteps + ks) * 4 + reg]);
            constraints.push_back("r");
            os << (reg ? ", " : "") << "$" << next++;
          }
          os << "}, ";
        }
        inputs.push_back(bOperand->descriptor(rewriter, loc,
                                              bOperand->offset(0, ks * kStep)));
        constraints.push_back("l");
        // p, scale-a = scale-b = 1, then the transpose flags (register A
        // has none; fp8 has none: both operands are K-major).
        os << "$" << next++ << ", p, 1, 1";
        if (!fp8) {
          if (aOperand)
            os << ", " << (aOperand->kMajor ? 0 : 1);
          os << ", " << (bOperand->kMajor ? 0 : 1);
        }
        os << ";\n}";
        inputs.push_back(c32(zeroAcc && ks == 0 ? 0 : 1));
        constraints.push_back("r");
        SmallVector<Value> tied(acc.begin() + rep * accPerRep,
                                acc.begin() + (rep + 1) * accPerRep);
        SmallVector<Value> out =
            emitAsm(rewriter, loc, ptx, tied, inputs, constraints);
        llvm::copy(out, acc.begin() + rep * accPerRep);
      }
    }

    // Commit, and wait unless asynchronous (then tilegpu.mma_wait does): the
    // results are read only after the wait.
    acc = emitAsm(rewriter, loc,
                  op.getAsync() ? "wgmma.commit_group.sync.aligned;"
                                : "wgmma.commit_group.sync.aligned;\n"
                                  "wgmma.wait_group.sync.aligned 0;",
                  acc, {}, {});
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(accType),
                                      acc));
    return success();
  }
};

/// wgmma.wait_group with every register of the waited values tied: f32
/// accumulators pass through, 16-bit register operands are kept alive.
struct MmaWaitLowering : OpConversionPattern<tilegpu::MmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> tied;
    SmallVector<std::pair<size_t, size_t>> ranges; // of each value in tied
    for (Value v : adaptor.getValues()) {
      auto type = cast<VectorType>(v.getType());
      size_t begin = tied.size();
      if (type.getElementType().isF32())
        llvm::append_range(tied, unpackVector(rewriter, loc, v));
      else if (type.getElementType().getIntOrFloatBitWidth() == 16)
        llvm::append_range(tied, packPairs(rewriter, loc, v));
      else
        return op.emitOpError() << "waits for f32 or 16-bit tiles only";
      ranges.push_back({begin, tied.size()});
    }
    // A pinned wait stays after the work before it: ptxas schedules no
    // instruction across a membar (a wait alone it hoists into the first
    // stall of that work).
    std::string ptx;
    llvm::raw_string_ostream(ptx)
        << (op.getPin() ? "membar.cta;\n" : "")
        << "wgmma.wait_group.sync.aligned " << op.getPending() << ";";
    SmallVector<Value> out = emitAsm(rewriter, loc, ptx, tied, {}, {});
    SmallVector<Value> results;
    for (auto [v, range] : llvm::zip(adaptor.getValues(), ranges)) {
      auto type = cast<VectorType>(v.getType());
      if (!type.getElementType().isF32()) {
        results.push_back(v); // unchanged; only kept alive until here
        continue;
      }
      results.push_back(packVector(
          rewriter, loc, type,
          ArrayRef<Value>(out).slice(range.first, range.second - range.first)));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void lowering::populateWgmmaPatterns(TileTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<WgmmaLowering, MmaWaitLowering>(converter,
                                               patterns.getContext());
}
