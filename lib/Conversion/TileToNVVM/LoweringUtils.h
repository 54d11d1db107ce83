//===- LoweringUtils.h - shared pieces of the NVVM lowering -----*- C++ -*-===//
//
// The type converter (tiles -> the registers one thread holds) and the
// helpers every conversion pattern uses: thread and warp ids, coordinates
// from layouts, view descriptors, swizzled shared-memory addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVVM_LOWERINGUTILS_H
#define TILE_LIB_CONVERSION_TILETONVVM_LOWERINGUTILS_H

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Alignment.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace tile {
namespace lowering {

/// Maps tile values to per-thread values:
///   tensor<..., #layout>   -> vector<R x T> (R registers of this thread)
///   !tile.view<rank x T>   -> !llvm.struct<(ptr<1>, array<R x i32>, array<R x
///   i64>)> !tilegpu.smem<...>     -> !llvm.ptr<3>
class TileTypeConverter : public TypeConverter {
public:
  explicit TileTypeConverter(MLIRContext *ctx);
};

/// The LLVM struct a view of `rank` lowers to.
LLVM::LLVMStructType getViewStructType(MLIRContext *ctx, unsigned rank);

/// A view's pointer, sizes and strides, extracted from its struct.
struct ViewDescriptor {
  Value ptr;
  SmallVector<Value> sizes;   ///< i32
  SmallVector<Value> strides; ///< i64, in elements
};
ViewDescriptor unpackView(OpBuilder &b, Location loc, Value desc,
                          unsigned rank);

Value i32Const(OpBuilder &b, Location loc, int64_t v);
Value i64Const(OpBuilder &b, Location loc, int64_t v);
/// Thread index in the block (tid.x), lane (tid % 32) and warp (tid / 32).
Value threadIdX(OpBuilder &b, Location loc);
Value laneId(OpBuilder &b, Location loc);
Value warpId(OpBuilder &b, Location loc);
/// The warpgroup (tid / 128), broadcast from lane 0 so that ptxas knows it
/// is the same in every lane: what is computed from it (wgmma descriptors,
/// named-barrier ids) then stays in uniform registers.
Value uniformWarpgroupId(OpBuilder &b, Location loc);
/// Address (!llvm.ptr<3>) of barrier `index` (i32) of a group at `base`.
Value barrierAddress(OpBuilder &b, Location loc, Value base, Value index);

/// The thread-dependent part of coordinate `dim` of a layout (an i32).
Value threadCoord(OpBuilder &b, Location loc, const tilegpu::RegisterLayout &l,
                  unsigned dim, Value lane, Value warp);

/// True for the one thread among replicas that should write an element:
/// every replicated lane or warp bit is zero. Null when nothing replicates.
Value isOwnerThread(OpBuilder &b, Location loc,
                    const tilegpu::RegisterLayout &l, Value lane, Value warp);

/// The register layout of a tile type (assumed verified by the pass).
tilegpu::RegisterLayout getLayout(Type tensorType);

SmallVector<Value> unpackVector(OpBuilder &b, Location loc, Value vector);
Value packVector(OpBuilder &b, Location loc, Type vectorType,
                 ArrayRef<Value> elements);

/// Applies `fn` to every register of a vector.
Value mapScalars(OpBuilder &b, Location loc, Value vector,
                 function_ref<Value(Value)> fn);
/// A call of the LLVM intrinsic `name`.
Value callIntrinsic(OpBuilder &b, Location loc, StringRef name, Type result,
                    ValueRange args);

/// Base of the block's dynamic shared memory (!llvm.ptr<3>).
Value sharedMemoryBase(OpBuilder &b, Location loc, Operation *from);
/// Replaces an allocation op (tilegpu.alloc, tilegpu.mbarrier_alloc) by its
/// address in the dynamic shared memory, `offset` bytes in; fails at the op
/// when tilegpu-allocate-shared has not set the offset.
LogicalResult replaceBySharedAddress(ConversionPatternRewriter &rewriter,
                                     Operation *op,
                                     std::optional<uint64_t> offset);
/// Element offset (i32) of element (t0 + c0, t1 + c1) of a swizzled shared
/// tile, where t0/t1 are thread-dependent values and c0/c1 constants.
/// `threadChunkBits` bounds the thread part of the contiguous coordinate,
/// counted in 16-byte vectors (t < vec << threadChunkBits).
///
/// The code is factorized so that LLVM keeps few values live across loops:
/// when the constant row is a multiple of the swizzle period and the
/// constant vector index has no bits in common with the thread's, the
/// swizzle phase and the thread's swizzled vector are per-thread values
/// computed once, and each access adds an immediate and XORs a constant.
Value sharedOffset(OpBuilder &b, Location loc, tilegpu::SharedLayoutAttr layout,
                   ArrayRef<int64_t> tileShape, Value t0, int64_t c0, Value t1,
                   int64_t c1, unsigned threadChunkBits);

/// The address (!llvm.ptr<3>) of that element in the buffer at `base`:
/// `base + thread part` and then a separate constant offset, so that LLVM
/// keeps one address per thread part and folds constants into immediates.
Value sharedAddress(OpBuilder &b, Location loc, Value base,
                    tilegpu::SharedLayoutAttr layout,
                    ArrayRef<int64_t> tileShape, Type elementType, Value t0,
                    int64_t c0, Value t1, int64_t c1, unsigned threadChunkBits);

/// `sharedPtr` (a shared-memory pointer) passed through an opaque move when
/// `user` is inside a loop, else `sharedPtr` itself. Addresses derived from
/// it then stay in the loop: LLVM's LICM would otherwise hoist every
/// `base + thread offset + constant` of an unrolled tile access (one per
/// ldmatrix or cp.async, 40-60 of them in attention) out of the loop and keep
/// each in a register, where ptxas spills them. In the loop they fold into
/// the instructions' immediate offsets, for one mov per iteration.
Value opaqueInLoop(OpBuilder &b, Location loc, Operation *user,
                   Value sharedPtr);

/// The same for an i32 value (a thread coordinate): in a loop, per-register
/// `value + constant` tiles (an iota's element positions) are then computed
/// where they are used instead of living in registers across the loop.
Value opaqueI32InLoop(OpBuilder &b, Location loc, Operation *user, Value value);

/// Address of the element of a view at `coords` (i32 each).
Value viewElementAddress(OpBuilder &b, Location loc, const ViewDescriptor &view,
                         ArrayRef<Value> coords, Type elementType);
/// coord in [0, size) for every dimension, as an i1.
Value inBounds(OpBuilder &b, Location loc, const ViewDescriptor &view,
               ArrayRef<Value> coords);

/// The thread's part of the index sum(coord[d] * strides[d]) of the
/// elements it holds in layout `l` (an i32).
Value threadIndex(OpBuilder &b, Location loc, const tilegpu::RegisterLayout &l,
                  ArrayRef<int64_t> strides, Value lane, Value warp);

/// The scratch area tilegpu-allocate-shared gave `op` (!llvm.ptr<3>), or
/// failure (reported at the op) when it has none.
FailureOr<Value> scratchBase(OpBuilder &b, Location loc, Operation *op);

/// Name of the attribute the conversion puts on ops that synchronize the
/// block around their scratch area inside a warp-specialized kernel's
/// consumers: the consumer thread count (the producer warps do not come).
constexpr llvm::StringLiteral kBarrierThreadsAttrName =
    "tilegpu.barrier_threads";

/// A barrier over the threads that run `op`: bar.sync 0 for the whole
/// block, or named barrier 1 over the consumer threads in a
/// warp-specialized kernel (tilegpu.barrier_threads).
void scratchBarrier(OpBuilder &b, Location loc, Operation *op);

using tilegpu::knownDivisor;

/// Name of the attribute the conversion puts on each op that accesses a
/// view: the alignment (bytes) the kernel assumes for it (its `tile.align`).
constexpr llvm::StringLiteral kViewAlignAttrName = "tilegpu.view_align";

/// The alignment (bytes) assumed for the view `op` accesses: its
/// tilegpu.view_align, or 16 (the default of view-align) when absent.
int64_t getAccessAlign(Operation *op);

/// Loads `count` consecutive elements (a vector when count > 1, aligned to
/// its size) at `ptr`, or stores them; i1 elements go through memory as i8.
Value loadElements(OpBuilder &b, Location loc, Type elementType, unsigned count,
                   Value ptr);
void storeElements(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                   Value ptr);

/// Name of the dynamic shared-memory symbol in the gpu.module.
constexpr llvm::StringLiteral kSharedMemorySymbol = "__tile_shared_memory";

void populateElementwisePatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateMemoryPatterns(TileTypeConverter &converter,
                            RewritePatternSet &patterns);
void populateMmaPatterns(TileTypeConverter &converter,
                         RewritePatternSet &patterns);
void populateWgmmaPatterns(TileTypeConverter &converter,
                           RewritePatternSet &patterns);
void populateConvertLayoutPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateReducePatterns(TileTypeConverter &converter,
                            RewritePatternSet &patterns);
void populateGlobalAccessPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateMathPatterns(TileTypeConverter &converter,
                          RewritePatternSet &patterns);
void populateBarrierPatterns(TileTypeConverter &converter,
                             RewritePatternSet &patterns);
void populateTmaPatterns(TileTypeConverter &converter,
                         RewritePatternSet &patterns);

} // namespace lowering
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CONVERSION_TILETONVVM_LOWERINGUTILS_H
