//===- Passes.td - tilegpu passes --------------------------*- tablegen -*-===//
//
// From specialized tile IR to tilegpu IR ready for conversion to NVVM:
// memory ops with explicit addressing, layouts on every tile, shared
// memory and asynchronous copies, software pipelining, shared-memory
// allocation.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUSetTarget : Pass<"tilegpu-set-target", "::mlir::ModuleOp"> {
  let summary = "Record on the module the chip it is compiled for";
  let description = [{
    Sets `tilegpu.target` on the module to the chip it is compiled for,
    after checking that the GPU lowering compiles for that chip. The passes
    that depend on the chip (per-architecture launch hints, wgmma and
    setmaxnreg, mbarriers, TMA, shared memory per block, the SM's limits)
    read it there, and the chip's facts from the one table of
    `tile/Bundle/Target.h`; none takes a chip option. `tile-to-ptx` runs
    this pass first, with its `chip` option. A pass that needs the target
    reports a located error on a module without one.

    ```mlir
    // tilegpu-set-target{target=sm_90a}
    module attributes {tilegpu.target = "sm_90a"} {
      func.func @kernel(...) attributes {tile.kernel = {...}} { ... }
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "The chip: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, "
           "sm_120">
  ];
}

def TileGPULowerMemoryOps : Pass<"tilegpu-lower-memory-ops", "::mlir::func::FuncOp"> {
  let summary = "Turn tile loads and stores into element-offset tilegpu loads and stores";
  let description = [{
    `tile.load` addresses a view in tile space and returns a tile of the
    view's rank; kernels then reshape away the unit dimensions. This pass
    computes element offsets (`index * size` per dimension), folds the
    permutation `order` and the unit-dimension reshapes into the `dims` of
    a `tilegpu.load` that returns the tile without unit dimensions, and
    does the same for `tile.store`.

    Before:

    ```mlir
    %k4 = tile.load %K[%b, %h, %c0, %j] shape [1, 1, 128, 64] order [0, 1, 3, 2]
        : !tile.view<?x?x?x?xf16> -> tensor<1x1x128x64xf16>
    %k = tile.reshape %k4 shape [128, 64] : tensor<1x1x128x64xf16> -> tensor<128x64xf16>
    ```

    After:

    ```mlir
    %n = arith.muli %j, %c64 : i32
    %k = tilegpu.load %K[%b, %h, %n, %c0] dims [3, 2]
        : !tile.view<?x?x?x?xf16> -> tensor<128x64xf16>
    ```
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUExpandReductions : Pass<"tilegpu-expand-reductions", "::mlir::func::FuncOp"> {
  let summary = "Write argmax and argmin as two reductions the lowering has";
  let description = [{
    The GPU lowering reduces one value per element (shuffles, then one
    partial per warp). argmax and argmin become a max (min) of the values,
    then a min of the indices where the value equals that extreme, so the
    lowest index wins ties as in torch. A NaN counts as the extreme (the
    max propagates it and `x != x` selects it), so the first NaN's index
    is the answer, again as torch. Values compare in f32 (other float types
    are widened) or as signed integers.

    Before:

    ```mlir
    %i = tile.reduce %x argmax axis 1 : tensor<16x256xf32> -> tensor<16xi32>
    ```

    After:

    ```mlir
    %m = tile.reduce %x max axis 1 keepdims : tensor<16x256xf32> -> tensor<16x1xf32>
    %mb = tile.broadcast %m shape [16, 256] : tensor<16x1xf32> -> tensor<16x256xf32>
    %eq = arith.cmpf oeq, %x, %mb : tensor<16x256xf32>
    %nan = arith.cmpf uno, %x, %x : tensor<16x256xf32>
    %hit = arith.ori %eq, %nan : tensor<16x256xi1>
    %iota = tile.iota shape [16, 256] dim 1 : tensor<16x256xi32>
    %big = tile.full 256 shape [16, 256] : tensor<16x256xi32>
    %cand = tile.select %hit, %iota, %big : tensor<16x256xi1>, tensor<16x256xi32>
    %i = tile.reduce %cand min axis 1 : tensor<16x256xi32> -> tensor<16xi32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tile::TileDialect"];
}

def TileGPURematerialize : Pass<"tilegpu-rematerialize", "::mlir::func::FuncOp"> {
  let summary = "Recompute cheap tiles inside the loops that use them";
  let description = [{
    Loop-invariant code motion hoists every invariant tile out of loops. For
    tiles that cost nothing to recompute but a register per element to keep
    (a constant, a splat of a scalar, an iota, a broadcast of a row or
    column), that trades a few instructions for dozens of live registers
    across the loop: the broadcast of the query positions to the 128x64
    score tile of a masked loop is 64 registers per thread. This pass clones
    such tiles (and the cheap chains that build them) next to their uses in
    each loop; their sources stay hoisted. Registers, not semantics, change.

    Before:

    ```mlir
    %rows = tile.broadcast %offs_m shape [128, 64] : tensor<128x1xi32> -> tensor<128x64xi32>
    scf.for ... {
      %mask = arith.cmpi sge, %rows, %cols : tensor<128x64xi32>
    }
    ```

    After:

    ```mlir
    scf.for ... {
      %rows = tile.broadcast %offs_m shape [128, 64] : tensor<128x1xi32> -> tensor<128x64xi32>
      %mask = arith.cmpi sge, %rows, %cols : tensor<128x64xi32>
    }
    ```
  }];
}

def TileGPUSetViewAlign : Pass<"tilegpu-set-view-align", "::mlir::func::FuncOp"> {
  let summary = "Give every view argument of a kernel its assumed alignment";
  let description = [{
    The alignment a kernel assumes for a view is part of its ABI (contract
    C2): the view's base address and each outer stride in bytes are
    multiples of `tile.align` (a power of two from 1 to 16). This pass sets
    `tile.align = view-align` on every view argument of a kernel that has
    none, before layouts are chosen; the vector widths of global accesses
    and of cp.async follow it (16 bytes at 16, 8 or 4 bytes with `.ca` at 8
    and 4, element-wise register accesses below 4 bytes, with mma operands
    then staged by `tilegpu.local_store`). `tile-compile` writes it into the
    manifest, and launchers refuse views that do not meet it.

    ```mlir
    func.func @gemm(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16> {tile.align = 2 : i64}) ...
    // tilegpu-set-view-align{view-align=8}:
    func.func @gemm(%A: !tile.view<?x?xf16> {tile.align = 8 : i64}, %B: !tile.view<?x?xf16> {tile.align = 2 : i64}) ...
    ```
  }];
  let options = [
    Option<"viewAlign", "view-align", "int", "tile::kDefaultViewAlign",
           "Alignment (bytes, a power of two from 1 to 16) assumed for view "
           "arguments without tile.align">
  ];
}

def TileGPUAssignLayouts : Pass<"tilegpu-assign-layouts", "::mlir::func::FuncOp"> {
  let summary = "Give every tile a thread layout and stage mma operands in shared memory";
  let description = [{
    Anchors layouts, propagates them, and makes every tile type carry its
    layout:

    1. `#tilegpu.mma` on every `tile.mma` result, accumulator and register
       A operand (warps split M);
    2. at each global load, then each store, a coalesced `#tilegpu.blocked`
       layout (16-byte vectors along the view's contiguous dimension, or
       what its `tile.align` allows), largest tiles first, unless a layout
       reached the tile already (a small bias adapts to the big tile);
    3. a row-major blocked layout for any tile connected to none of these.

    Each anchor propagates forward and backward through elementwise ops,
    broadcasts (one layout, the source on its size-1 shape), reductions
    (`keepdims`: the source's layout; without: `#tilegpu.slice`), reshapes
    (unit dimensions added or removed, or blocked layouts split or merged,
    when the registers stay), permutes (a blocked layout permuted) and
    `scf.for`/`scf.if`. A value needed in a layout other than its own (two
    anchors meet, a loop-carried value, a store whose layout walks the view
    with one element per thread, or with `coalesce-stores` an accumulator
    stored from its mma layout) gets a visible `tilegpu.convert_layout`;
    `tilegpu-remove-layout-conversions` then removes what it can. The
    coalesced layout of an accumulator's store gives each thread as many
    rows as keep every row in the warp that computed it (16-row slabs:
    e.g. `sizePerThread = [8, 8]` for 128 f16 columns), so the move through
    shared memory synchronizes only the warp and the warpgroups of a
    ping-pong kernel never wait for each other in the epilogue.

    A `tile.mma` operand produced by a load becomes a shared-memory tile:
    `tilegpu.alloc` (padded or swizzled so that `ldmatrix` reads it without
    bank conflicts), `tilegpu.async_copy` (cp.async), commit, wait and
    barrier, all visible for `tilegpu-pipeline` to reorder; from a view
    aligned below 4 bytes, a register load and `tilegpu.local_store`
    instead. A computed B operand, or a computed A operand not in the
    accumulator layout, is stored by `tilegpu.local_store`. An f16/bf16 A
    computed in the accumulator layout (attention's P) stays in registers:
    its fragments are the A operand without any data movement.

    On sm_90a the accumulators get `#tilegpu.mma<version = 3>` (wgmma,
    whole warpgroups over M) and the staged operands the 128B-swizzle
    layout that wgmma descriptors read (`chunk` = 128 bytes), when every
    mma fits (N <= 256, num_warps a multiple of 4, operand tiles whole
    swizzle atoms); otherwise mma.sync, or an error at the mma that does
    not fit when `mma-version=3` is explicit.

    Before (a row softmax):

    ```mlir
    %x = tilegpu.load %X[%r, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x1024xf16>
    %m = tile.reduce %xf max axis 1 keepdims : tensor<4x1024xf32> -> tensor<4x1xf32>
    ```

    After:

    ```mlir
    %x = tilegpu.load %X[%r, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x1024xf16, #blocked>
    %m = tile.reduce %xf max axis 1 keepdims : tensor<4x1024xf32, #blocked> -> tensor<4x1xf32, #blocked>
    ```
  }];
  let options = [
    Option<"numWarps", "num-warps", "int", "0",
           "Warps per block (0: the kernel's num_warps hint for the chip)">,
    Option<"sharedLayout", "shared-layout", "std::string", "\"padded\"",
           "Shared tiles for mma.sync operands: padded (immediate offsets) "
           "or swizzled (XOR swizzle over whole rows)">,
    Option<"mmaVersion", "mma-version", "unsigned", "0",
           "Tensor-core instruction: 2 (mma.sync), 3 (wgmma, sm_90a), 0 "
           "(wgmma where the chip has it and every mma fits, else mma.sync)">,
    Option<"coalesceStores", "coalesce-stores", "std::string", "\"auto\"",
           "Accumulator tiles stored through shared memory in 16-byte "
           "accesses: auto (the kernel's coalesce_stores hint, else off), "
           "on, off">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPURemoveLayoutConversions : Pass<"tilegpu-remove-layout-conversions", "::mlir::func::FuncOp"> {
  let summary = "Remove the layout conversions that cheaper code can replace";
  let description = [{
    `tilegpu-assign-layouts` inserts a `tilegpu.convert_layout` wherever a
    value is needed in a layout other than its own. Most conversions go
    through shared memory; this pass removes those it can:

    - conversions of a conversion, or to the same layout, fold;
    - tiles that are free to build (`tile.full`, `tile.splat`, `tile.iota`,
      splat constants) are built again in the target layout;
    - a conversion of a broadcast converts the smaller source instead, and
      a conversion of an elementwise op whose operands are all cheap to
      have in the target layout (constants, broadcasts, conversions from
      it) computes the op in the target layout;
    - a conversion of a loop-invariant value moves out of the loop;
    - a loop-carried value that each iteration converts to layout B and
      back is carried in layout B (one conversion before the loop and one
      after instead of two per iteration).

    The conversions left are the ones the kernel needs.

    Before:

    ```mlir
    %c = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #blocked>
    %d = tilegpu.convert_layout %c : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    ```

    After:

    ```mlir
    %d = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    ```
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUAsyncMma : Pass<"tilegpu-async-mma", "::mlir::func::FuncOp"> {
  let summary = "Issue wgmma asynchronously and wait at the first use of the result";
  let description = [{
    Every `tilegpu.mma` with a version 3 (wgmma) accumulator becomes `async`
    and gets a `tilegpu.mma_wait` right before the first op of its block
    that reads the result (or the block's terminator). Ops in between run
    while the tensor cores work; with two mmas in flight, the wait for the
    older one leaves the younger pending (`pending = 1`), since groups
    complete in issue order. The wait also names a register operand `a`
    (attention's P), which must not change until the mma completes.

    ```mlir
    %s = tilegpu.mma %q, %k, %zero {async} : ...
    %o = tilegpu.mma %p, %v, %acc {async} : ...
    %s1, = tilegpu.mma_wait %s {pending = 1} : ...
    ... softmax of %s1, overlapping P V ...
    %o1, %p1 = tilegpu.mma_wait %o, %p {pending = 0} : ...
    ```

    Flash attention gets the second mma of iteration j next to the first
    mma of iteration j + 1 from `tile-overlap-mma`.

    A wait that has another wait between it and its mma (the softmax window
    above) is `pin`ned (`pin-waits`, on by default): ptxas would otherwise
    hoist it to the first stall of the window (seen in the SASS: the wait
    for P V right after the first row-max shuffle, before every
    exponential), and the window would run after the mma instead of under
    it.
  }];
  let options = [
    Option<"pinWaits", "pin-waits", "bool", "true",
           "Keep a wait with work meant to overlap its mma after that work">,
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "::mlir::func::FuncOp"> {
  let summary = "Software-pipeline asynchronous copies in loops (multi-stage buffers)";
  let description = [{
    For an `scf.for` whose body copies tiles into shared memory
    (`tilegpu.async_copy` + commit + wait 0 + barrier before their use),
    keeps `S` copies in flight: the buffers become rings of `S` stages, a
    prologue issues the copies of iterations `lb .. lb + S - 2`, and
    iteration `i` waits for its own copies (`async_wait` with the exact
    count of younger groups), then issues the copy for iteration
    `i + S - 1` into the stage consumed in iteration `i - 1` (free after the
    barrier). Copies past the loop end are predicated off but still commit
    a (empty) group, so the wait counts are the same in every iteration.

    `S` comes from the loads' `latency` hints (`tilegpu.latency`, carried
    from `tile.load`): latency 1 keeps one stage, 2-3 two, 4 and more three;
    the `stages` option overrides; the total stays within the shared memory
    per block of the module's target chip (`tilegpu.target`).

    With `sync=mbarrier` (the default on sm_90 and newer, when every
    pipelined loop is at the kernel's top level or in a top-level loop,
    which then carries each ring's next slot as loop state and turns its
    own copies into rings of two stages, one where shared memory is short)
    no block-wide barrier is
    left in the loop: each ring gets a full and an empty mbarrier per
    stage. Slot n (numbered across the loops that share the ring) is stage
    `n % S`; a copy into it waits for the empty barrier's parity
    `(n / S + 1) % 2`, and arrives on the full barrier when its cp.async
    copies land; readers wait for the full barrier's parity `(n / S) % 2`
    and arrive on the empty barrier after their last read (for an
    asynchronous wgmma, after its `mma_wait`). Copies past the loop's end
    are not issued.

    ```mlir
    %n = arith.addi %base, %k : i32
    tilegpu.mbarrier_wait %kfull[%stage] parity %phase : !tilegpu.mbarrier<2>
    %kj = tilegpu.subview %kring[%stage] ...
    scf.if %ahead_in_range {
      tilegpu.mbarrier_wait %kempty[%next] parity %free : !tilegpu.mbarrier<2>
      tilegpu.async_copy %K[...] into %kring_next ...
      tilegpu.mbarrier_arrive_copies %kfull[%next] : !tilegpu.mbarrier<2>
    }
    %s = tilegpu.mma %q, %kj, %zero {async} ...
    %s1 = tilegpu.mma_wait %s {pending = 0} ...
    tilegpu.mbarrier_arrive %kempty[%stage] : !tilegpu.mbarrier<2>
    ```

    Staged copies outside the pipelined loops get slots too: one whose
    buffer is read only in its own block (a tile peeled into an `scf.if`
    before or after the loop) takes the next slot of the ring of its tile
    type, between the loops' slots (the counter advances when its branch
    runs); a top-level copy that the loops read gets a one-stage ring of
    its own. Their readers wait on the full barrier where the copy's wait
    was.

    Before (one iteration):

    ```mlir
    tilegpu.barrier
    tilegpu.async_copy %K[...] dims [3, 2] into %kbuf ...
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %q, %kbuf, %zero ...
    ```

    After (S = 2): the copy of tile `j + 1` is in flight while tile `j`
    is multiplied:

    ```mlir
    tilegpu.async_wait 1
    tilegpu.barrier
    %kj = tilegpu.subview %kring[%stage_j] ...
    tilegpu.async_copy %K[... j + 1 ...] dims [3, 2] into %kring_next if %in_range
    tilegpu.async_commit
    %s = tilegpu.mma %q, %kj, %zero ...
    ```
  }];
  let options = [
    Option<"stages", "stages", "int", "0",
           "Pipeline stages for every pipelined loop (0: from latency hints)">,
    Option<"sync", "sync", "std::string", "\"auto\"",
           "Stage synchronization: barrier (cp.async groups and block-wide "
           "barriers), mbarrier (full/empty mbarriers per stage, sm_90+), "
           "auto (mbarrier on sm_90 and newer)">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUWarpSpecialize : Pass<"tilegpu-warp-specialize", "::mlir::func::FuncOp"> {
  let summary = "Give the copies of mbarrier pipelines to a producer warpgroup";
  let description = [{
    After `tilegpu-pipeline` with mbarriers, every thread both copies and
    computes. This pass splits the kernel after the barrier initialization
    into a `tilegpu.warp_specialize`: a producer warpgroup (4 more warps,
    after the consumers) keeps the copies of the pipelined loops (the waits
    on empty barriers, the cp.async copies, the arrivals on full barriers),
    with the loops and the index arithmetic they need and nothing else; the
    consumer warps keep everything else (waits on full barriers, the mmas,
    the softmax, the arrivals on empty barriers, copies outside pipelines,
    whose block-wide barriers become named barriers over the consumers). A
    copy before the loops that only the loops read (the query tile) goes to
    the producer too: the first full barrier covers it. The barriers'
    arrival counts become the producer's and the consumers' thread counts,
    and `setmaxnreg` moves registers from the producer to the consumers.

    It applies (`mode=auto`) when the kernel has an mbarrier pipeline and
    wgmma (sm_90a: whole consumer warpgroups, `setmaxnreg`) and the
    producer's part depends on nothing but loop counters and invariants;
    the kernel hint `warp_specialize` (0 or 1, per-architecture hints
    first) or `mode=on|off` forces the choice (`on` reports why it cannot).

    Before (every thread, in the loop):

    ```mlir
    tilegpu.mbarrier_wait %full[%s] parity %p : !tilegpu.mbarrier<2>
    scf.if %ahead { wait empty; async_copy; mbarrier_arrive_copies %full[%t] }
    %s = tilegpu.mma ...
    tilegpu.mbarrier_arrive %empty[%s] : !tilegpu.mbarrier<2>
    ```

    After:

    ```mlir
    tilegpu.warp_specialize producer(warps = 4, regs = 40) {
      scf.for ... { scf.if %ahead { wait empty; async_copy; arrive_copies } }
    } consumers(warps = 8, regs = 232) {
      scf.for ... { wait full; mma ...; mbarrier_arrive %empty[%s] }
    }
    ```
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "auto (when the kernel qualifies), on (or report why not), off">,
    Option<"producerRegs", "producer-regs", "int", "40",
           "Registers per producer thread after setmaxnreg (24-256, a "
           "multiple of 8); the consumers get the rest, up to 240">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUPingPong : Pass<"tilegpu-ping-pong", "::mlir::func::FuncOp"> {
  let summary = "Take turns issuing wgmma between consumer warpgroups";
  let description = [{
    With two (or more) consumer warpgroups after `tilegpu-warp-specialize`,
    every warpgroup issues its wgmmas at the same time and then runs its
    softmax at the same time: the tensor cores idle during the softmax.
    This pass orders the issue (FlashAttention-3's "ping-pong"): in every
    block of the consumers that issues asynchronous wgmmas (loop bodies, and
    the peeled first and last iterations in their `scf.if`s), warpgroup g
    waits on named barrier `2 + g` before each group of wgmmas it issues
    back to back, and arrives on the barrier of warpgroup `(g + 1) % G`
    after the group. Warpgroup 0 arrives on its own barrier once before the
    consumers' work, so it goes first, and syncs on it once at the end,
    which balances the last arrival. One warpgroup's softmax then runs
    under the other's wgmmas, and in a persistent kernel the turns go on
    across tiles: one warpgroup's epilogue and first softmax run under the
    other's last P V and first S.

    ```mlir
    %wg = tilegpu.warpgroup_id
    tilegpu.named_barrier 2 + %c0, 256 arrive   // warpgroup 0 only
    scf.for ... {
      tilegpu.mbarrier_wait %full[...] ...
      tilegpu.named_barrier 2 + %wg, 256
      %s = tilegpu.mma %q, %k, %zero {async}
      %o = tilegpu.mma %p, %v, %acc {async}
      tilegpu.named_barrier 2 + %next, 256 arrive
      ...
    }
    ```

    Every warpgroup must pass the same groups in the same order, so it
    applies (`mode=auto`) when each op around a group is a loop with scalar
    bounds that do not depend on the thread or warpgroup id and no block or
    consumer barrier inside, or an `scf.if` on a condition that does not
    depend on them; the kernel hint `ping_pong` (0 or 1) or `mode=on|off`
    forces the choice (`on` reports why it cannot).
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "auto (when the kernel qualifies), on (or report why not), off">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUTma : Pass<"tilegpu-tma", "::mlir::func::FuncOp"> {
  let summary = "Load the producer's pipelined tiles with TMA";
  let description = [{
    After `tilegpu-warp-specialize`, the producer warpgroup fills the rings
    with cp.async (every producer thread copies part of a tile, then
    `cp.async.mbarrier.arrive` on the stage's full barrier). This pass gives
    each ring copy to the tensor memory accelerator: one thread of the
    producer announces the tile's bytes on the full barrier
    (`tilegpu.mbarrier_expect_tx`, the barrier's only arrival) and issues
    `tilegpu.tma_copy` (one `cp.async.bulk.tensor` per 64-element piece of
    the 128B-swizzled stage), which completes on that barrier. A copy
    before the loops that the first full barrier covered (the query tile)
    gets a barrier of its own, which the consumers wait for before they
    first read the tile. Each view copied this way gets a tensor map: a new
    kernel argument `!tilegpu.tensor_map` named `VIEW@tmaN` with
    `tilegpu.tensor_map = {view, dims, box, swizzle = 128}`, which the
    bundle lists as a `tensor_map` ABI entry. TMA writes through the async
    proxy, so the consumers' proxy fences after those waits go.

    ```mlir
    // before (producer)
    tilegpu.mbarrier_wait %empty[%s] parity %p
    tilegpu.async_copy %K[%b, %h, %n, %c0] dims [3, 2] into %stage
    tilegpu.mbarrier_arrive_copies %full[%s]
    // after
    tilegpu.mbarrier_wait %empty[%s] parity %p
    scf.if %leader {
      tilegpu.mbarrier_expect_tx %full[%s], 32768
      tilegpu.tma_copy %kmap[%b, %h, %n, %c0] dims [3, 2] into %stage, %full[%s]
    }
    ```

    It applies (`mode=auto`) when every copy of the producer qualifies: a
    view that is a kernel argument (16-byte aligned base and strides, which
    launchers check when they build the map), 16-bit or 8-bit elements,
    the wgmma layout (128-byte pieces, at most 256 rows), no predicate; `mode=on`
    reports why not, `mode=off` keeps cp.async. The kernel hint `tma` (0 or
    1) chooses per kernel.

    What is left of the producer is then the issuing thread's: waits on the
    empty barriers and scalar index arithmetic. When nothing else is there
    (no barrier, no per-thread arrival, no tile value), it runs under
    `scf.if (tid < first + 32)`: one warp waits and issues, and the other
    three warps of the producer warpgroup leave after their `setmaxnreg`
    instead of spinning on the same barriers next to the consumers (as
    cuDNN's and FlashAttention-3's single producer warp).
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "auto (when the kernel qualifies), on (or report why not), off">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUAllocateShared : Pass<"tilegpu-allocate-shared", "::mlir::func::FuncOp"> {
  let summary = "Give every shared-memory buffer its offset";
  let description = [{
    Assigns each `tilegpu.alloc` a 128-byte aligned offset in the block's
    dynamic shared memory, then gives every op that needs scratch while it
    runs (a `tilegpu.convert_layout`, `tile.reshape` or `tile.permute`
    through shared memory, a `tile.reduce` across warps) the offset of one
    area after the buffers, as large as the largest need, in
    `tilegpu.scratch_offset` (these ops start with a barrier, so they take
    turns). A warp-local move (every element stays in its warp) synchronizes
    only its warp, so it gets an area of its own after that one. Records the
    total as `tilegpu.shared_bytes` on the kernel, which the bundle manifest
    reports and the runner requests at launch. Fails when the total exceeds
    the shared memory per block of the module's target chip
    (`tilegpu.target`).

    ```mlir
    %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 16384 : i64}
        : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    ```
  }];
}

def TileGPUCheckResources : Pass<"tilegpu-check-resources", "::mlir::func::FuncOp"> {
  let summary = "Refuse kernels whose registers or launch hints the chip cannot hold";
  let description = [{
    Runs on kernels with layouts (`tilegpu.num_warps`), after shared memory
    is allocated, and fails with a located error instead of leaving ptxas
    to spill for minutes or to fail without a location:

    - the register footprint: at every op, the tiles live there in 32-bit
      registers per thread under their layouts (two 16-bit elements to a
      register). Above `max-registers` (default 1024, four times the 255 a
      thread has) the error names the op at the peak and the largest tile,
      and suggests more warps or smaller tiles;
    - the launch hints for the module's target chip (`tilegpu.target`):
      threads per block; `tilegpu.occupancy`
      blocks per SM against the SM's blocks, threads and shared memory.

    For example, with one warp:

    ```mlir
    %s = tile.mma %q, %kt, %acc : ... -> tensor<256x256xf32, #tilegpu.mma<...>>
    // error: the tiles live here need about 3584 registers per thread
    // with 1 warps, far above the 255 a thread has (limit 1024): use more
    // warps (num-warps) or smaller tiles
    ```
  }];
  let options = [
    Option<"maxRegisters", "max-registers", "int64_t", "1024",
           "Most 32-bit registers per thread the live tiles may need">
  ];
}

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
