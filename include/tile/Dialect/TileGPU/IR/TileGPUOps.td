//===- TileGPUOps.td - tilegpu operations ------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tile/Dialect/TileGPU/IR/TileGPUTypes.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TileGPU_Tensor : RankedTensorOf<[AnyType]>;

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

def TileGPU_LoadOp : TileGPU_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load a tile of a view into registers";
  let description = [{
    `offsets` are element coordinates of the tile's origin, one per view
    dimension. Result dimension `r` walks view dimension `dims[r]` from its
    offset; the other view dimensions stay at their offsets. Elements
    outside the view read `padding`. Each thread loads the elements its
    layout gives it.

    ```mlir
    %x = tilegpu.load %A[%o0, %o1] dims [0, 1]
        : !tile.view<?x?xf16> -> tensor<64x64xf16, #mma>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<I32>:$offsets,
                   DenseI64ArrayAttr:$dims,
                   DefaultValuedAttr<Tile_PaddingAttr, "::mlir::tile::Padding::zero">:$padding);
  let results = (outs TileGPU_Tensor:$result);
  let assemblyFormat = [{
    $view `[` $offsets `]` `dims` $dims (`padding` `` $padding^)? attr-dict
    `:` type($view) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_StoreOp : TileGPU_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile from registers into a view";
  let description = [{
    The value's non-unit dimensions, in order, walk the view dimensions
    `dims` from `offsets`. Elements outside the view are not written; an
    element held by several threads is written by one.

    ```mlir
    tilegpu.store %o, %Out[%b, %h, %m, %c0] dims [2, 3]
        : tensor<128x128xf16, #mma>, !tile.view<?x?x?x?xf16>
    ```
  }];
  let arguments = (ins TileGPU_Tensor:$value, Tile_ViewType:$view,
                   Variadic<I32>:$offsets, DenseI64ArrayAttr:$dims);
  let assemblyFormat = [{
    $value `,` $view `[` $offsets `]` `dims` $dims attr-dict
    `:` type($value) `,` type($view)
  }];
  let hasVerifier = 1;
}

def TileGPU_AtomicOp : TileGPU_Op<"atomic", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic read-modify-write of a tile of view elements";
  let description = [{
    `tile.atomic` on a tile, with its addressing resolved as for
    `tilegpu.store`: the value's non-unit dimensions walk the view
    dimensions `dims` from `offsets`. Each element held by the thread that
    owns it (one per replicated element) is combined with one atomic
    instruction at GPU scope; elements outside the view or masked off are
    left alone and return 0.

    ```mlir
    tilegpu.atomic add %dq, %DQ[%b, %h, %m, %c0] dims [2, 3]
        : tensor<64x128xf32, #mma>, !tile.view<?x?x?x?xf32>
    ```

    With `vector` (set by `tilegpu-assign-layouts` for the chips that have
    it, sm_90 and newer: a relaxed f32 `add` whose old values are not
    returned and that has no mask), the elements a thread holds
    consecutively along the view's contiguous dimension, as far as the
    alignment is proven, are combined by one vector reduction
    (`red.global.add.v2.f32` / `.v4.f32`); at the view's edge, one by one.
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, TileGPU_Tensor:$value,
                   Tile_ViewType:$view, Variadic<I32>:$offsets,
                   DenseI64ArrayAttr:$dims,
                   Optional<TileGPU_Tensor>:$compare,
                   Optional<TileGPU_Tensor>:$mask,
                   DefaultValuedAttr<Tile_MemoryOrderAttr, "::mlir::tile::MemoryOrder::relaxed">:$sem,
                   UnitAttr:$vector);
  let results = (outs Optional<TileGPU_Tensor>:$result);
  let assemblyFormat = [{
    $kind $value `,` $view `[` $offsets `]` `dims` $dims
    (`compare` $compare^ `:` type($compare))? (`mask` $mask^ `:` type($mask))?
    (`sem` $sem^)? (`vector` $vector^)? attr-dict `:` type($value) `,`
    type($view) (`->` type($result)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TileGPU_AllocOp : TileGPU_Op<"alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a shared-memory buffer";
  let description = [{
    `offset` (bytes into the block's dynamic shared memory) is set by
    `tilegpu-allocate-shared`.

    ```mlir
    %k = tilegpu.alloc : !tilegpu.smem<2x64x128xf16, #shared>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_SharedBufferType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_SubviewOp : TileGPU_Op<"subview", [Pure]> {
  let summary = "one stage of a multi-stage shared-memory buffer";
  let description = [{
    ```mlir
    %s = tilegpu.subview %k[%stage] : !tilegpu.smem<2x64x128xf16, #shared> -> !tilegpu.smem<64x128xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_SharedBufferType:$buffer, I32:$stage);
  let results = (outs TileGPU_SharedBufferType:$result);
  let assemblyFormat = [{
    $buffer `[` $stage `]` attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start copying a tile of a view into shared memory (cp.async)";
  let description = [{
    Addresses the view like `tilegpu.load` and writes the tile into the
    shared buffer; elements outside the view become zero. The copy is
    asynchronous: it joins the group closed by the next `async_commit` and
    is complete after an `async_wait` that leaves fewer groups pending,
    and visible to other threads after the following `barrier`.
    When `predicate` is false, nothing is copied (the group still counts).

    ```mlir
    tilegpu.async_copy %K[%b, %h, %n, %c0] dims [3, 2] into %buf
        : !tile.view<?x?x?x?xf16>, !tilegpu.smem<128x64xf16, #sharedT>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<I32>:$offsets,
                   DenseI64ArrayAttr:$dims, TileGPU_SharedBufferType:$buffer,
                   Optional<I1>:$predicate);
  let assemblyFormat = [{
    $view `[` $offsets `]` `dims` $dims `into` $buffer (`if` $predicate^)?
    attr-dict `:` type($view) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitOp : TileGPU_Op<"async_commit"> {
  let summary = "close the current group of asynchronous copies";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "wait until at most `pending` copy groups are in flight";
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier"> {
  let summary = "block-wide barrier (bar.sync 0)";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def TileGPU_MmaOp : TileGPU_Op<"mma", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "tensor-core a x b + acc with operands in shared memory or registers";
  let description = [{
    `a` is a shared buffer (`M x K`) or a register tile in the accumulator
    layout (`M x K`, f16/bf16: the P operand of attention); `b` is a shared
    buffer (`K x N`). `acc` and the result are `M x N` f32 in an `#mma`
    layout.

    With `async` (wgmma only, `#mma` version 3), the op issues the
    tensor-core work and returns at once: its result and its register
    operand `a` are in flight until a `tilegpu.mma_wait` that names them
    (tilegpu-async-mma places it), and nothing else may read the result
    before.

    ```mlir
    %s = tilegpu.mma %q, %k, %zero : !tilegpu.smem<128x128xf16, #sa>,
        !tilegpu.smem<128x64xf16, #sb>, tensor<128x64xf32, #mma>
    ```
  }];
  let arguments = (ins AnyType:$a, TileGPU_SharedBufferType:$b,
                   TileGPU_Tensor:$acc, UnitAttr:$async);
  let results = (outs TileGPU_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def TileGPU_MmaWaitOp : TileGPU_Op<"mma_wait",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["values", "results"]>]> {
  let summary = "wait for asynchronous mmas; returns its operands";
  let description = [{
    Waits until at most `pending` of the asynchronous `tilegpu.mma` groups
    issued before it (in this block) are still running (wgmma.wait_group:
    groups complete in issue order), then returns `values` unchanged. The
    operands are the in-flight results it makes readable and the register
    operands of those mmas, which must stay intact until here. A wait
    without operands only orders completion: after it the shared memory
    that the completed mmas read may be reused (tilegpu-pipeline keeps an
    accumulation in flight across loop iterations this way).

    With `pin`, the wait also stays after every instruction before it: ptxas
    otherwise moves a `wgmma.wait_group` up over independent work (to fill
    the first latency stall it meets, such as a shuffle's), so that the work
    meant to run under the mma (attention's exponentials) runs after it.
    The lowering puts a `membar.cta` right before the wait, which ptxas does
    not schedule instructions across.

    ```mlir
    %s2, %p2 = tilegpu.mma_wait %s, %p {pending = 1} : tensor<128x128xf32, #mma>, tensor<128x128xf16, #mma>
    %o2 = tilegpu.mma_wait %o {pending = 0, pin} : tensor<128x128xf32, #mma>
    tilegpu.mma_wait {pending = 1}
    ```
  }];
  let arguments = (ins Variadic<TileGPU_Tensor>:$values, I32Attr:$pending,
                       UnitAttr:$pin);
  let results = (outs Variadic<TileGPU_Tensor>:$results);
  // The optional group keeps a wait without values from printing two
  // spaces before its attributes.
  let assemblyFormat = [{
    ($values^)? attr-dict (`:` type($values)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "move a tile to another layout";
  let description = [{
    The same tile (shape and element type) in another register layout.
    Layout assignment emits a conversion where a value is needed in two
    layouts, and `tilegpu-remove-layout-conversions` removes those it can,
    so that each one left is visible in the IR. A conversion between
    layouts that hold the same elements in the same registers is free; one
    that keeps each thread's elements but reorders its registers is a
    register permutation; any other goes through shared memory (write in
    the source layout, barrier, read in the target layout) in the scratch
    area `tilegpu-allocate-shared` gives it (`tilegpu.scratch_offset`).

    ```mlir
    %y = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    ```
  }];
  let arguments = (ins TileGPU_Tensor:$source);
  let results = (outs TileGPU_Tensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a register tile into a shared-memory tile";
  let description = [{
    Each thread writes the elements its layout gives it to their places in
    the shared tile's layout (replicated elements are written by every
    holder, with the same value). Like a copy, the tile is visible to other
    threads after the next `tilegpu.barrier`. This stages mma operands that
    are computed in registers (a B operand, or an A operand not in the
    accumulator layout) and operands loaded from views too narrowly aligned
    for `cp.async`.

    ```mlir
    tilegpu.local_store %b, %buf : tensor<32x64xf16, #blocked>, !tilegpu.smem<32x64xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_Tensor:$value, TileGPU_SharedBufferType:$buffer);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:` type($value) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pipelines on mbarriers, named barriers (Hopper pipeline, sm_80 and newer)
//===----------------------------------------------------------------------===//

def TileGPU_MbarrierAllocOp : TileGPU_Op<"mbarrier_alloc",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "a group of mbarriers in shared memory";
  let description = [{
    `offset` (bytes into the block's dynamic shared memory) is set by
    `tilegpu-allocate-shared`. `tilegpu.mbarrier_init` initializes them.

    ```mlir
    %full = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_MbarrierType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_MbarrierInitOp : TileGPU_Op<"mbarrier_init"> {
  let summary = "initialize every mbarrier of a group";
  let description = [{
    Thread 0 initializes each barrier of the group at phase 0, expecting
    `arrivals` arrivals per phase. A block-wide barrier must follow before
    any other thread uses them (`tilegpu-pipeline` places it).

    ```mlir
    tilegpu.mbarrier_init %full arrivals 256 : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MbarrierType:$barriers, I32Attr:$arrivals);
  let assemblyFormat = [{
    $barriers `arrivals` $arrivals attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_MbarrierWaitOp : TileGPU_Op<"mbarrier_wait"> {
  let summary = "wait until barrier `index` of the group completes the phase of `parity`";
  let description = [{
    Blocks the executing thread until the phase of barrier `index` whose
    parity is `parity` (0 or 1) has completed; a phase of the other parity
    in progress counts as the earlier phase completed, so a producer's first
    wait for parity 1 on a fresh barrier returns at once. With acquire
    semantics: what the arriving threads did before their arrival (and the
    cp.async copies they tracked on it) is visible afterwards. Lowered to a
    `mbarrier.try_wait.parity` loop (sm_90 and newer).

    ```mlir
    tilegpu.mbarrier_wait %full[%stage] parity %phase : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MbarrierType:$barriers, I32:$index,
                   I32:$parity);
  let assemblyFormat = [{
    $barriers `[` $index `]` `parity` $parity attr-dict `:` type($barriers)
  }];
}

def TileGPU_MbarrierArriveOp : TileGPU_Op<"mbarrier_arrive"> {
  let summary = "the executing thread arrives on barrier `index` of the group";
  let description = [{
    One arrival per executing thread, with release semantics (a consumer
    releasing a pipeline stage it has finished reading).

    ```mlir
    tilegpu.mbarrier_arrive %empty[%stage] : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MbarrierType:$barriers, I32:$index);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers)
  }];
}

def TileGPU_MbarrierArriveCopiesOp : TileGPU_Op<"mbarrier_arrive_copies"> {
  let summary = "arrive on barrier `index` once the thread's cp.async copies complete";
  let description = [{
    `cp.async.mbarrier.arrive.noinc`: the barrier tracks every cp.async the
    executing thread issued before, and the thread's arrival happens when
    they have all completed (it counts as one of the expected arrivals).

    ```mlir
    tilegpu.mbarrier_arrive_copies %full[%stage] : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MbarrierType:$barriers, I32:$index);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers)
  }];
}

def TileGPU_MbarrierExpectTxOp : TileGPU_Op<"mbarrier_expect_tx"> {
  let summary = "arrive on barrier `index`, expecting `bytes` of TMA copies";
  let description = [{
    `mbarrier.arrive.expect_tx`: one arrival of the executing thread, and the
    current phase also waits for `bytes` bytes of asynchronous copies that
    complete on the barrier (`tilegpu.tma_copy`).

    ```mlir
    tilegpu.mbarrier_expect_tx %full[%stage], 32768 : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MbarrierType:$barriers, I32:$index,
                   I32Attr:$bytes);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $bytes attr-dict `:` type($barriers)
  }];
}

def TileGPU_TmaCopyOp : TileGPU_Op<"tma_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a tile into shared memory with the tensor memory accelerator";
  let description = [{
    `cp.async.bulk.tensor` from the view that tensor map `map` describes:
    `coords` are the element offsets of the tile in each view dimension
    (view order), `dims` the view dimension of each tile dimension, as for
    `tilegpu.async_copy`. The buffer must be in the 128B-swizzle layout with
    128-byte pieces (64 16-bit or 128 fp8 elements: the wgmma layout); each
    piece is one box of the map.
    Elements outside the view are zero. The copies complete on barrier
    `index` of `barriers` (complete_tx); whoever issues them also announces
    their bytes there (`tilegpu.mbarrier_expect_tx`). Executed by the
    threads that reach it: `tilegpu-tma` issues it from one thread.

    ```mlir
    tilegpu.tma_copy %kmap[%b, %h, %n, %c0] dims [3, 2] into %stage,
        %full[%s] : !tilegpu.smem<128x128xf16, #wgT>, !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_TensorMapType:$map, Variadic<I32>:$coords,
                   DenseI64ArrayAttr:$dims, TileGPU_SharedBufferType:$buffer,
                   TileGPU_MbarrierType:$barriers, I32:$index);
  let assemblyFormat = [{
    $map `[` $coords `]` `dims` $dims `into` $buffer `,` $barriers `[` $index
    `]` attr-dict `:` type($buffer) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_ThreadIdOp : TileGPU_Op<"thread_id", [Pure]> {
  let summary = "the executing thread's index in the block (x)";
  let description = [{
    For code that one thread of a role runs (the TMA issue of a producer).

    ```mlir
    %tid = tilegpu.thread_id
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared"> {
  let summary = "order shared-memory writes of the generic proxy before the async proxy";
  let description = [{
    `fence.proxy.async.shared::cta`: cp.async and ordinary stores write
    through the generic proxy, wgmma and TMA read through the async proxy.
    A thread that has observed such writes (after the barrier that
    published them) issues this before the wgmma that reads them.
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_NamedBarrierOp : TileGPU_Op<"named_barrier"> {
  let summary = "barrier `id` over `threads` threads (bar.sync / bar.arrive)";
  let description = [{
    Hardware barrier `id` (0 to 15) for `threads` threads (a multiple of
    32): the executing warps wait until `threads` threads have arrived;
    with `arrive`, they arrive without waiting. Barrier 0 over the whole
    block is `tilegpu.barrier`. With an `offset` (the same in every thread
    of a warp, such as a warpgroup id), the barrier is `id + offset`.

    ```mlir
    tilegpu.named_barrier 1, 256
    tilegpu.named_barrier 3, 256 arrive
    tilegpu.named_barrier 2 + %wg, 256
    ```
  }];
  let arguments = (ins I32Attr:$id, Optional<I32>:$offset, I32Attr:$threads,
                   UnitAttr:$arrive);
  let assemblyFormat =
      "$id (`+` $offset^)? `,` $threads (`arrive` $arrive^)? attr-dict";
  let hasVerifier = 1;
}

def TileGPU_WarpgroupIdOp : TileGPU_Op<"warpgroup_id", [Pure]> {
  let summary = "the executing thread's warpgroup (thread id / 128)";
  let description = [{
    Warps 4g .. 4g+3 form warpgroup g. The value is the same in every
    thread of a warp, so it can select a named barrier.

    ```mlir
    %wg = tilegpu.warpgroup_id
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_WarpSpecializeOp : TileGPU_Op<"warp_specialize",
    [NoTerminator, RecursiveMemoryEffects]> {
  let summary = "split the block into a producer warpgroup and consumer warps";
  let description = [{
    Warps `consumer_warps` .. `consumer_warps + producer_warps - 1` run the
    `producer` region (the copies of a pipeline), the warps before them the
    `consumers` region (everything else). Each role first moves its
    register limit with `setmaxnreg` (down to `producer_regs`, up to
    `consumer_regs`), which ptxas honours when the kernel has a register
    cap at entry and each role is one branch of one if/else: that is how
    this op lowers. `tilegpu-warp-specialize` creates it.

    ```mlir
    tilegpu.warp_specialize producer(warps = 4, regs = 40) {
      ... waits on empty barriers, copies, arrivals on full barriers ...
    } consumers(warps = 8, regs = 232) {
      ... waits on full barriers, mma, softmax, arrivals on empty barriers ...
    }
    ```
  }];
  let arguments = (ins I32Attr:$producer_warps, I32Attr:$producer_regs,
                   I32Attr:$consumer_warps, I32Attr:$consumer_regs);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumers);
  let assemblyFormat = [{
    `producer` `(` `warps` `=` $producer_warps `,` `regs` `=` $producer_regs `)`
    $producer `consumers` `(` `warps` `=` $consumer_warps `,` `regs` `=`
    $consumer_regs `)` $consumers attr-dict
  }];
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
