//===- Passes.td - tile-level transformations --------------*- tablegen -*-===//
//
// Target-independent passes on tile IR. Each pass lives in its own .cpp file
// in lib/Dialect/Tile/Transforms, named after the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSpecialize : Pass<"tile-specialize", "ModuleOp"> {
  let summary = "Bind a kernel's compile-time parameters and make every shape static";
  let description = [{
    A kernel is written once, with compile-time parameters declared in its
    `tile.params` dictionary (with default values). Shapes may name integer
    parameters (`shape [TILE_M, HEAD_DIM]`, giving `?` dimensions), element
    types may be type parameters (`!tile.dtype<"DTYPE">`), and code may read
    any parameter with `tile.param`. This pass binds every parameter (the
    `bind` option overrides defaults), then:

    - replaces each `tile.param` by an `arith.constant`, so branches on
      booleans such as `CAUSAL` fold away under canonicalization;
    - replaces `!tile.dtype<"X">` by the bound type everywhere;
    - rewrites shape specs to integers and re-infers the type of every value
      (through `scf.for`/`scf.if`), so that all tiles have static shapes;
    - substitutes parameter names in the kernel's grid rule and launch
      preconditions (`requires`; booleans become 1/0);
    - records the bound values in `tile.params`, which later stages (the
      bundle manifest) read back.

    Before (`bind=TILE_M=128,DTYPE=bf16`):

    ```mlir
    %q = tile.load %Q[...] shape [TILE_M, 64]
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x64x!tile.dtype<"DTYPE">>
    ```

    After:

    ```mlir
    %q = tile.load %Q[...] shape [128, 64]
        : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    ```

    Unknown parameters, values of the wrong kind, and non-positive sizes are
    errors located at the kernel.
  }];
  let options = [
    ListOption<"bindings", "bind", "std::string",
               "Parameter bindings NAME=VALUE (integers, true/false, types)">,
    Option<"numWarps", "num-warps", "int", "0",
           "Override the kernel's num_warps launch hint (0: keep)">,
    Option<"occupancy", "occupancy", "int", "0",
           "Override the kernel's occupancy launch hint (0: keep)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileOverlapMma : Pass<"tile-overlap-mma", "func::FuncOp"> {
  let summary = "Rotate a loop with two dependent mmas so that they can overlap";
  let description = [{
    Software-pipelines an `scf.for` (step 1) whose body has two `tile.mma`
    ops, the second fed by the first (attention: S = Q K^T, the softmax,
    then O += P V), by one stage: the second mma of iteration `i - 1` moves
    into iteration `i`, right after the first mma, and the rescale of O and
    the softmax of iteration `i` come after both. A prologue (guarded by
    `lb < ub`) runs the first part of iteration `lb`, an epilogue the second
    mma of the last iteration. Without an iteration, the carried
    accumulator is the loop's initial one and the epilogue yields it, so
    the epilogue's two branches yield values that can share registers.

    Stage 1 is the second mma and the ops that only feed its B operand (the
    load of V and its index arithmetic, cloned with `i - 1`); its A operand
    (P) and accumulator (the rescaled O) become loop-carried values. Every
    value is computed by the same ops from the same inputs, so results are
    bitwise identical. With asynchronous wgmma (`tilegpu-async-mma`), the
    softmax of iteration `i` then runs while P V of iteration `i - 1` is on
    the tensor cores (FlashAttention-3's intra-warpgroup overlap).

    A loop whose body does not have this shape is left alone with a remark
    saying why.

    ```mlir
    // before
    %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = .., %l = .., %acc = ..) {
      %s = tile.mma %q, %k_j, %zero ...
      ... softmax: %mn, %ln, %p, %accs = %acc * %alpha ...
      %o = tile.mma %p, %v_j, %accs ...
      scf.yield %mn, %ln, %o
    }
    // after: the loop runs j = 1 .. n - 1 with state (%m, %l, %p, %accs)
    //   %s = tile.mma %q, %k_j, %zero ...
    //   %o = tile.mma %p_prev, %v_{j-1}, %accs_prev ...
    //   ... softmax of %s; %accs = %o * %alpha; ...
    ```
  }];
  let options = [
    Option<"lateSoftmaxOps", "late-softmax-ops", "bool", "false",
           "Also move the f32 -> f16 conversion of P and the rescale of O "
           "into stage 1 (FlashAttention-3's order; carries the f32 P)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileSplitLoop : Pass<"tile-split-loop", "func::FuncOp"> {
  let summary = "Split loops where a branch or a mask on the induction variable is uniform";
  let description = [{
    Index-set splitting of `scf.for` loops, the cuTile post's "K-loop split"
    done by the compiler. A loop is split into consecutive loops over
    `[lb, s)`, `[s, e)` and `[e, ub)` (`lb <= s <= e <= ub`, on the loop's
    iteration lattice) such that in the middle loop a condition is known to
    hold on every iteration, so that the condition disappears from it:

    - **branches**: an `scf.if` whose condition is a comparison (`slt`,
      `sle`, `sgt`, `sge`, either operand order, possibly `andi`-combined) of
      an affine function of the induction variable with loop-invariant
      values. The middle loop keeps the `then` region, the others keep the
      `else` region; the branch is gone from all of them.
    - **masks**: a `tile.select %mask, %x, %y` whose `%mask` is built from
      `arith.cmpi` of integer tiles affine in the induction variable
      (`tile.iota` + `tile.splat(j * TILE_N)` against `tile.splat(n)` or
      `tile.iota + tile.splat(m)`, through `tile.broadcast`, `reshape`,
      `permute`, `arith.addi/subi/muli`, combined with `arith.andi`). An
      analysis describes each integer tile as `a*j + b + [lo, hi]` (`a` a
      constant, `b` a sum of loop-invariant scalars, `[lo, hi]` the range of
      the per-element offsets) and derives, for every comparison, the
      iterations where it holds for *all* elements. In the middle loop the
      mask is replaced by `tile.full true`, so `tile.select` folds away under
      `canonicalize`; the remainder loops keep the mask and are marked
      `tile.split_remainder` so that running the pass again leaves them alone.

    The split points are computed before the loop in `i64` (no overflow),
    clamped into `[lb, ub]` and aligned to the (constant, positive) step. The
    analysis treats the `i32` index arithmetic of the condition as
    mathematical integers, i.e. it assumes that positions do not wrap around
    2^31, as the kernel's own indexing does. Loops with `unsignedCmp` or a
    non-constant step are left alone. Fully masked iterations are not
    removed: skipping them is not an identity on the online-softmax state
    when V holds infinities or NaNs, and the kernel's loop bound already
    stops at the diagonal.

    Causal flash attention (`tile-specialize` with `CAUSAL=true`, then
    `canonicalize`), before:

    ```mlir
    scf.for %j = %c0 to %n step %c1 iter_args(...) {
      %qk = tile.mma %q, %k, %zero : ...
      %nj = arith.muli %j, %c64 : i32
      %cols = arith.addi %iota_n, (tile.splat %nj) : tensor<1x64xi32>
      %ge = arith.cmpi sge, (tile.broadcast %offs_m), (tile.broadcast %cols)
      %s = tile.select %ge, %qk, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
      ...
    }
    ```

    After (`%m_start` is the block's first query position):

    ```mlir
    %e = arith.floordivsi (%m_start + 1), 64       // in i64, clamped
    %split = arith.trunci ... : i64 to i32
    scf.for %j = %c0 to %split step %c1 iter_args(...) {
      %qk = tile.mma %q, %k, %zero : ...           // no mask
      ...
    }
    scf.for %j = %split to %n step %c1 iter_args(...) {
      ...                                          // masked, as before
    } {tile.split_remainder}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileRemapBlocks : Pass<"tile-remap-blocks", "func::FuncOp"> {
  let summary = "Reorder blocks: heaviest first, optionally grouped for L2 reuse";
  let description = [{
    Rewrites the block ids a kernel reads, so that the hardware launches its
    work in a better order. Both mappings are bijections of the grid onto
    itself and blocks never communicate, so every block computes exactly
    what some block computed before: results are bitwise identical.

    **Reversal** (`mode`): `tile.block_id x` becomes
    `tile.num_blocks x - 1 - tile.block_id x`. Blocks are launched in order
    of increasing linear id; in causal attention the block with query tile
    `x` visits `~x + 1` key tiles, so running the heavy blocks first leaves
    the short ones to fill the tail of the last wave (the cuTile post's
    "ProgramId remapping"). `mode=auto` reverses the dimension `dim` only
    when the kernel has a loop whose trip count provably grows with
    `tile.block_id dim` (upper bound non-decreasing in the block id, and
    depending on it; lower bound and step not growing with it), as in causal
    attention and not in non-causal attention. `mode=reverse` always
    reverses, `mode=none` never does.

    **Grouping** (`group-size=G`, `G > 1`): the hardware launches blocks in
    linear order `L = x + nx * y` (x fastest), so all query tiles of one
    (batch, head) already run side by side. With grouped-query attention,
    `G` consecutive heads (`y` values) share one K/V head; grouping makes the
    blocks that read the *same* K/V tiles at the same time adjacent: with
    `nx = num_blocks x`, `ny = num_blocks y`, for every z

    ```
    L     = x + nx * y                 // launch order of the hardware ids
    group = L / (G * nx)               // groups of G rows of the grid
    first = group * G                  // first y of the group
    rows  = min(G, ny - first)         // the last group may be smaller
    r     = L % (G * nx)
    y'    = first + r % rows           // y runs fastest inside a group
    x'    = r / rows
    ```

    `(x', y')` is a bijection of `[0, nx) x [0, ny)`. Use
    `group-size=QUERY_GROUP_SIZE` so that groups are aligned with K/V heads
    (y = batch * H + head, head / QUERY_GROUP_SIZE = K/V head). Reversal, if
    any, is applied to `x'`.

    Before:

    ```mlir
    %bid_x = tile.block_id x
    %row = arith.muli %bid_x, %c64 : i32
    ```

    After (`mode=reverse`):

    ```mlir
    %hw = tile.block_id x
    %n = tile.num_blocks x
    %last = arith.subi %n, %c1 : i32
    %bid_x = arith.subi %last, %hw : i32
    %row = arith.muli %bid_x, %c64 : i32
    ```

    Only kernels (`func.func` with `tile.kernel`) are rewritten.
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "Reverse the block order along `dim`: auto, reverse or none">,
    Option<"dim", "dim", "std::string", "\"x\"",
           "The grid dimension that walks the query tiles (x, y or z)">,
    Option<"groupSize", "group-size", "int", "1",
           "Make the blocks of G consecutive y rows adjacent (1: off)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TilePersistent : Pass<"tile-persistent", "func::FuncOp"> {
  let summary = "One block walks many tiles: a persistent grid of at most N blocks";
  let description = [{
    Turns a kernel whose blocks each compute one tile of its grid into one
    whose `max-blocks` blocks (at most) walk the tiles: block `b` takes
    tiles `b`, `b + blocks`, `b + 2 blocks`, ... in the hardware's launch
    order (x fastest, then y, then z). On a GPU with a producer warpgroup,
    the next tile's loads then run while this tile finishes
    (tilegpu-pipeline carries the ring slots across the tiles), and a
    kernel launches once per SM instead of once per tile.

    The grid rule `[gx, gy, gz]` (after specialization) becomes
    `["min((gx) * (gy) * (gz), N)", "1", "1"]`, and the launch contract gains
    the precondition `(gx) * (gy) * (gz) <= 2147483647` (the tile index is
    an i32). In the body, evaluated at the top of the kernel from the views'
    sizes, `gx`, `gy`, `gz` replace `tile.num_blocks x/y/z`, and the tile's
    coordinates replace `tile.block_id x/y/z`:

    ```
    for t = block_id x; t < gx * gy * gz; t += num_blocks x:
      x = t % gx;  y = (t / gx) % gy;  z = t / (gx * gy)
      <the kernel's body>
    ```

    With `order=paired`, for work that grows (or falls) with x, as in
    causal attention, a block takes pairs of tiles along x, `gx - 1 - i`
    then `i`, pairs `b`, `b + blocks`, ... (pairs numbered i fastest, then
    y, then z): every pair has the same work, so every block does within
    one pair of the same. The middle tile of an odd `gx` is its own pair's
    two members: computed twice, by the same block, with the same result.

    Every tile is computed exactly as before by the same code, so results
    are bitwise identical. Run it after tile-remap-blocks: its reordering
    then applies to the tiles. The grid expressions may use integers, view
    sizes (`Q.2`), `+ - * / %`, `cdiv`, `min` and `max`; a kernel whose
    rule uses anything else is reported.
  }];
  let options = [
    Option<"maxBlocks", "max-blocks", "int", "0",
           "The most blocks launched (the number of SMs); 0: off">,
    Option<"order", "order", "std::string", "\"grid\"",
           "The tiles a block takes: grid (b, b + blocks, ...) or paired "
           "(pairs of x tiles gx - 1 - i and i)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileFastMath : Pass<"tile-fast-math", "func::FuncOp"> {
  let summary = "Trade exactness for speed: ftz exp2, approximate division, FMA";
  let description = [{
    **WARNING: this pass changes numerical results.** Outputs are no longer
    bitwise identical to those of the unoptimized kernel, subnormal values
    become zero, and divisions are accurate to about 2 ulp instead of being
    correctly rounded. It is the cuTile post's fast-math "rescue"; keep it
    out of pipelines whose results must be reproducible bit for bit, and
    compare fast-math and precise runs against a float64 reference.

    Each part has an option:

    - `flush-exp2`: sets `flush_to_zero` on every `tile.exp2`, which lowers
      to `ex2.approx.ftz.f32`;
    - `approx-div`: sets `rounding approx` and `flush_to_zero` on every f32
      `tile.div` (`div.approx.ftz.f32`);
    - `approx-tanh`: marks every `math.tanh` `fastmath<afn>`, which the
      GPU lowering takes as leave to use `tanh.approx.f32` (about 2^-11
      relative error) instead of the precise sequence (within 3 ulp: a
      polynomial, or an exponential and a division); the CPU executor
      computes tanh exactly either way;
    - `fuse-fma`: rewrites a multiply feeding an add or subtract into one
      `math.fma` (a single rounding):

      ```
      subf(mulf(x, s), m)  ->  fma(x, s, negf(m))
      addf(mulf(x, s), m)  ->  fma(x, s, m)        (either operand order)
      subf(m, mulf(x, s))  ->  fma(negf(x), s, m)
      ```

      The multiply must have no other use (otherwise it would be computed
      twice). A negated `tile.broadcast`/`tile.splat` is negated before it
      is broadcast. The pass writes `math.fma` rather than marking the ops
      `fastmath<contract>`: the fused form is then fixed in the IR, so the
      CPU reference executor and the GPU compute the same rounding, instead
      of leaving the choice to the backend.

    Before:

    ```mlir
    %s = arith.mulf %qk, %scale : tensor<64x64xf32>
    %d = arith.subf %s, %m : tensor<64x64xf32>
    %p = tile.exp2 %d : tensor<64x64xf32>
    %o = tile.div %acc, %l : tensor<64x128xf32>
    ```

    After:

    ```mlir
    %n = arith.negf %m : tensor<64x64xf32>
    %d = math.fma %qk, %scale, %n : tensor<64x64xf32>
    %p = tile.exp2 %d flush_to_zero : tensor<64x64xf32>
    %o = tile.div %acc, %l rounding approx flush_to_zero : tensor<64x128xf32>
    ```
  }];
  let options = [
    Option<"flushExp2", "flush-exp2", "bool", "true",
           "Set flush_to_zero on tile.exp2">,
    Option<"approxDiv", "approx-div", "bool", "true",
           "Use rounding approx + flush_to_zero on f32 tile.div">,
    Option<"fuseFma", "fuse-fma", "bool", "true",
           "Fuse multiply-add/subtract into math.fma">,
    Option<"approxTanh", "approx-tanh", "bool", "true",
           "Mark math.tanh fastmath<afn> (tanh.approx.f32 on the GPU)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
