//===- MmaToNVVM.cpp - tensor-core mma on shared or register operands -----===//
//
// tilegpu.mma -> ldmatrix + mma.sync.m16n8k16. For each 16-wide k step the
// warp loads the A fragments of its row blocks (ldmatrix, or a register
// repack when A is a register tile) and, per pair of 8-wide column blocks,
// the B fragments (ldmatrix.x4), then issues one mma.sync per
// (row block, column block).
//
// Fragment facts used (PTX ISA, mma.m16n8k16 with .f16/.bf16):
//   thread t, g = t / 4, c = t % 4;
//   A (16x16, row): a0 = (g, 2c..2c+1), a1 = (g+8, 2c..), a2 = (g, 8+2c..),
//                   a3 = (g+8, 8+2c..);
//   B (16x8, col):  b0 = (k = 2c..2c+1, n = g), b1 = (k = 8+2c.., n = g);
//   C (16x8):       c0,c1 = (g, 2c..2c+1), c2,c3 = (g+8, 2c..2c+1).
// ldmatrix.x4: lanes 8j..8j+7 give the row addresses of matrix j; thread t
// receives row t/4, elements 2(t%4), 2(t%4)+1 of each matrix (with .trans,
// column t/4, rows 2(t%4), 2(t%4)+1).
// A buffer the mma reads transposed (transpose_a / transpose_b,
// MmaTranspose.h) is addressed with its coordinates swapped, and takes
// `.trans` where the untransposed operand would not (and the reverse).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "tile/Dialect/TileGPU/IR/MmaTranspose.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// Reads fragments of a swizzled shared tile with ldmatrix. Coordinates
/// are the operand's (M x K for A, K x N for B); a `transposed` buffer
/// (the mma's transpose_a / transpose_b) holds the operand's transpose,
/// so each coordinate pair is swapped to address it.
struct SharedTileReader {
  Value base; // !llvm.ptr<3>
  SharedLayoutAttr layout;
  SmallVector<int64_t, 2> shape; // the buffer's
  Type elementType;
  bool transposed = false;

  /// The operand dimension that is contiguous in shared memory.
  unsigned innerDim() const {
    unsigned inner = layout.getOrder()[0];
    return transposed ? 1 - inner : inner;
  }

  /// An element of the tile as thread-dependent parts plus constants.
  struct Coord {
    Value t0;
    int64_t c0;
    Value t1;
    int64_t c1;
  };

  /// ldmatrix of `count` 8x8 matrices; lane l addresses row l % 8 of matrix
  /// l / 8, the element `laneElement(j, r)` gives. `.trans` is used when
  /// the rows of the stored matrices are not the fragment's (`transpose`).
  /// `threadChunkBits` bounds the thread part of the contiguous coordinate
  /// (in 16-byte vectors), see sharedOffset.
  SmallVector<Value> load(OpBuilder &b, Location loc, Value lane, int count,
                          function_ref<Coord(Value, Value)> laneElement,
                          bool transpose, unsigned threadChunkBits) const {
    // Lane l: matrix j = l / 8, row r = l % 8 (lanes past 8 * count repeat).
    Value j = arith::ShRUIOp::create(b, loc, lane, i32Const(b, loc, 3));
    j = arith::AndIOp::create(b, loc, j, i32Const(b, loc, count - 1));
    Value r = arith::AndIOp::create(b, loc, lane, i32Const(b, loc, 7));
    Coord e = laneElement(j, r);
    if (transposed)
      e = {e.t1, e.c1, e.t0, e.c0};
    Value addr = sharedAddress(b, loc, base, layout, shape, elementType, e.t0,
                               e.c0, e.t1, e.c1, threadChunkBits);
    Type i32 = b.getI32Type();
    SmallVector<Type> fields(count, i32);
    Type resultType =
        count == 1
            ? i32
            : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), fields));
    Value result = NVVM::LdMatrixOp::create(
        b, loc, resultType, addr, count,
        transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    if (count == 1)
      return {result};
    SmallVector<Value> regs;
    for (int k = 0; k < count; ++k)
      regs.push_back(LLVM::ExtractValueOp::create(b, loc, result, k));
    return regs;
  }
};

struct MmaLowering : OpConversionPattern<tilegpu::MmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto accType = op.getAcc().getType();
    auto mma = cast<MmaLayoutAttr>(accType.getEncoding());
    if (mma.getVersion() != 2)
      return failure(); // wgmma: WgmmaToNVVM.cpp
    int64_t warpsM = mma.getWarps()[0];
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1);
    SharedBufferType bType = op.getB().getType();
    int64_t k = bType.getShape()[isTransposedB(op) ? 1 : 0];
    Type elementType = bType.getElementType();
    if (!elementType.isF16() && !elementType.isBF16())
      return op.emitOpError() << "mma.sync is lowered for f16 and bf16";
    if (k % 16 != 0)
      return op.emitOpError() << "K = " << k << " must be a multiple of 16";
    int64_t repM = m / (16 * warpsM), nTiles = n / 8, kSteps = k / 16;
    bool isBF16 = elementType.isBF16();

    Value lane = laneId(rewriter, loc);
    Value warp = warpId(rewriter, loc);
    Value g =
        arith::ShRUIOp::create(rewriter, loc, lane, i32Const(rewriter, loc, 2));
    (void)g;
    SmallVector<Value> acc = unpackVector(rewriter, loc, adaptor.getAcc());

    // Operand A: shared tile or registers in the accumulator layout.
    std::optional<SharedTileReader> aReader;
    SmallVector<Value> aRegs;
    int64_t aTiles = 0; // 8-wide column blocks of a register A
    if (auto aBuf = dyn_cast<SharedBufferType>(op.getA().getType())) {
      aReader =
          SharedTileReader{opaqueInLoop(rewriter, loc, op, adaptor.getA()),
                           cast<SharedLayoutAttr>(aBuf.getLayout()),
                           SmallVector<int64_t, 2>(aBuf.getShape()),
                           elementType, isTransposedA(op)};
    } else {
      aRegs = unpackVector(rewriter, loc, adaptor.getA());
      aTiles = k / 8;
    }
    auto bLayout = cast<SharedLayoutAttr>(bType.getLayout());
    SharedTileReader bReader{opaqueInLoop(rewriter, loc, op, adaptor.getB()),
                             bLayout, SmallVector<int64_t, 2>(bType.getShape()),
                             elementType, isTransposedB(op)};
    // B is K x N; ldmatrix rows are n when K is contiguous (no .trans).
    bool bTrans = bReader.innerDim() == 1;

    Type pairType = VectorType::get({2}, elementType);
    auto asOperand = [&](Value i32Reg) -> Value {
      return isBF16 ? i32Reg
                    : Value(LLVM::BitcastOp::create(rewriter, loc, pairType,
                                                    i32Reg));
    };
    auto packPair = [&](Value lo, Value hi) -> Value {
      Value v = vector::FromElementsOp::create(
          rewriter, loc, cast<VectorType>(pairType), ValueRange{lo, hi});
      return isBF16 ? Value(LLVM::BitcastOp::create(rewriter, loc,
                                                    rewriter.getI32Type(), v))
                    : v;
    };
    auto c = [&](int64_t v) { return i32Const(rewriter, loc, v); };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(rewriter, loc, x, y);
    };
    auto mul = [&](Value x, int64_t y) -> Value {
      return arith::MulIOp::create(rewriter, loc, x, c(y));
    };
    auto accIndex = [&](int64_t rep, int64_t nt, int64_t r) {
      return (rep * nTiles + nt) * 4 + r;
    };

    for (int64_t ks = 0; ks < kSteps; ++ks) {
      // A fragments, one set of four registers per row block.
      SmallVector<SmallVector<Value, 4>> aFrag(repM);
      for (int64_t rep = 0; rep < repM; ++rep) {
        if (aReader) {
          bool aTrans = aReader->innerDim() == 0;
          Value warpRow = mul(warp, 16);
          SmallVector<Value> regs = aReader->load(
              rewriter, loc, lane, 4,
              [&](Value j, Value r) -> SharedTileReader::Coord {
                // Matrix j: rows (j % 2) * 8, columns (j / 2) * 8 of the
                // 16x16 A block; without .trans lane rows are tile rows.
                Value jm = arith::AndIOp::create(rewriter, loc, j, c(1));
                Value jk = arith::ShRUIOp::create(rewriter, loc, j, c(1));
                Value rowOff = add(warpRow, mul(jm, 8)), colOff = mul(jk, 8);
                int64_t row0 = rep * 16 * warpsM;
                if (!aTrans)
                  return {add(rowOff, r), row0, colOff, ks * 16};
                // M contiguous: lane rows walk k.
                return {rowOff, row0, add(colOff, r), ks * 16};
              },
              aTrans, aTrans ? llvm::Log2_64(2 * warpsM) : 1);
          for (Value reg : regs)
            aFrag[rep].push_back(asOperand(reg));
        } else {
          // Register A in the accumulator layout: 8-wide blocks 2ks and
          // 2ks+1 hold columns (2c, 2c+1) and (8+2c, 8+2c+1).
          auto regIdx = [&](int64_t nt, int64_t r) {
            return (rep * aTiles + nt) * 4 + r;
          };
          aFrag[rep] = {
              packPair(aRegs[regIdx(2 * ks, 0)], aRegs[regIdx(2 * ks, 1)]),
              packPair(aRegs[regIdx(2 * ks, 2)], aRegs[regIdx(2 * ks, 3)]),
              packPair(aRegs[regIdx(2 * ks + 1, 0)],
                       aRegs[regIdx(2 * ks + 1, 1)]),
              packPair(aRegs[regIdx(2 * ks + 1, 2)],
                       aRegs[regIdx(2 * ks + 1, 3)])};
        }
      }
      // B fragments, two 8-wide column blocks per ldmatrix.x4.
      for (int64_t nt = 0; nt < nTiles; nt += 2) {
        int count = nt + 1 < nTiles ? 4 : 2;
        SmallVector<Value> regs = bReader.load(
            rewriter, loc, lane, count,
            [&](Value j, Value r) -> SharedTileReader::Coord {
              // Matrix j: k block (j % 2) * 8, n block nt * 8 + (j / 2) * 8.
              Value jk = arith::AndIOp::create(rewriter, loc, j, c(1));
              Value jn = arith::ShRUIOp::create(rewriter, loc, j, c(1));
              Value kOff = mul(jk, 8), nOff = mul(jn, 8);
              if (!bTrans) // K contiguous: lane rows walk n.
                return {kOff, ks * 16, add(nOff, r), nt * 8};
              return {add(kOff, r), ks * 16, nOff, nt * 8}; // rows walk k
            },
            bTrans, 1);
        for (int64_t half = 0; half < count / 2; ++half) {
          Value b0 = asOperand(regs[2 * half]),
                b1 = asOperand(regs[2 * half + 1]);
          for (int64_t rep = 0; rep < repM; ++rep) {
            int64_t tile = nt + half;
            SmallVector<Value> cIn;
            for (int64_t r = 0; r < 4; ++r)
              cIn.push_back(acc[accIndex(rep, tile, r)]);
            Type f32 = rewriter.getF32Type();
            auto resultType = LLVM::LLVMStructType::getLiteral(
                rewriter.getContext(), {f32, f32, f32, f32});
            std::optional<std::array<NVVM::MMATypes, 2>> ptxTypes;
            if (isBF16)
              ptxTypes = std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                                       NVVM::MMATypes::bf16};
            Value d = NVVM::MmaOp::create(
                rewriter, loc, resultType, aFrag[rep], ValueRange{b0, b1}, cIn,
                ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
                ptxTypes,
                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                               NVVM::MMALayout::col});
            for (int64_t r = 0; r < 4; ++r)
              acc[accIndex(rep, tile, r)] =
                  LLVM::ExtractValueOp::create(rewriter, loc, d, r);
          }
        }
      }
    }
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(accType),
                                      acc));
    return success();
  }
};

} // namespace

void lowering::populateMmaPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<MmaLowering>(converter, patterns.getContext());
}
