//===- TileGPUAttrs.td - layouts ---------------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "tile/Dialect/TileGPU/IR/TileGPUBase.td"
include "mlir/IR/TensorEncoding.td"

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TileGPU_MmaLayoutAttr : TileGPU_Attr<"MmaLayout", "mma",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "tensor-core accumulator layout (mma.sync m16n8, wgmma m64nN)";
  let description = [{
    The accumulator fragments of `mma.sync.m16n8k16`, tiled over a
    `[M, N]` tile: the tile is cut into 16x8 pieces; piece row `i / 16` goes
    to warp `(i / 16) % warps[0]` (warps split M; `warps[1]` must be 1 for
    version 2); inside a piece, lane `4 * (i % 8) + (j % 8) / 2` holds
    element `(i, j)` in register `2 * ((i % 16) / 8) + j % 2`, and a thread's
    pieces are numbered row-major (repetition along M, then N).

    A tile in this layout is 2-d with `M` a multiple of `16 * warps[0]` and
    `N` a multiple of 8 (the tensor type is rejected otherwise), or 1 along
    either dimension: then the threads that hold the other coordinate in
    the full tile hold it, replicated (the row maxima of attention,
    `[M, 1]`, in the registers of column 0).
    Each thread holds `(M / 16 / warps[0]) * (N / 8) * 4` elements. An f16
    or bf16 tile in this layout is also the A operand of a following `mma`
    (the register-only P trick: the A fragment of a 16x16 piece is two
    adjacent accumulator pieces).

    Version 3 is the same map computed by Hopper's `wgmma.mma_async`:
    warps `4g .. 4g+3` form warpgroup `g`, and one m64nN instruction of
    warpgroup `g` fills the 64 rows its four warps hold in one repetition
    (rows `rep * 16 * warps[0] + 64 * g + [0, 64)`), with each warp's
    registers in exactly the mma.sync order above. `warps[0]` must then be
    a multiple of 4. Only the instruction that computes the tile differs,
    so every other op lowers the same for both versions.

    ```mlir
    tensor<128x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
    tensor<128x128xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>
    ```
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warps);
  let assemblyFormat = "`<` `version` `=` $version `,` `warps` `=` `[` $warps `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const { return getWarps()[0] * getWarps()[1]; }
  }];
}

def TileGPU_BlockedLayoutAttr : TileGPU_Attr<"BlockedLayout", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "a distributed layout for tiles no mma owns (Triton's #blocked)";
  let description = [{
    For a tile of rank R, per dimension `d`: each thread holds a block of
    `sizePerThread[d]` consecutive elements, `threadsPerWarp[d]` lanes and
    `warpsPerCTA[d]` warps tile the dimension one block after the other, and
    the pattern repeats along the dimension until the tile is covered.
    `order` lists the dimensions from fastest to slowest: lanes and warps are
    numbered along `order[0]` first, and a thread's registers hold its
    `sizePerThread` blocks (fastest dimension first), then its repetitions
    (fastest dimension first). So a thread's 16-byte vector along the
    contiguous dimension is in consecutive registers.

    Every parameter is a power of two; the threads per warp multiply to 32.
    Any tile shape fits: along a dimension of size S the block, lanes and
    warps take only the powers of two that divide what is left of S (in
    that order), and the unused lane and warp bits replicate (several
    threads hold the same element; one of them stores it). A size-1
    dimension is thus held by every lane and warp along it, which is how a
    reduction with `keepdims` and the source of a broadcast keep the
    parent's layout.

    ```mlir
    // 64x64 f16 loaded from a row-major view: 8 f16 (16 bytes) per thread
    // along dim 1, 8 lanes per row, 4 rows per warp, 4 warps over the rows.
    tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8],
        threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const {
      unsigned n = 1;
      for (unsigned w : getWarpsPerCTA())
        n *= w;
      return n;
    }
  }];
}

def TileGPU_SliceLayoutAttr : TileGPU_Attr<"SliceLayout", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "a parent layout with one dimension removed (reductions, broadcasts)";
  let description = [{
    The layout of the tile a reduction along `dim` of a tile in `parent`
    produces without `keepdims`: the parent's dimension `dim` is removed,
    and element `e` is held by every thread that holds some element of the
    parent whose other coordinates are `e` (replicated over the lanes and
    warps of `dim`). The parent is any distributed layout: `#mma`,
    `#blocked`, or another `#slice` (reducing twice).

    Relation to `keepdims`: a reduction with `keepdims` keeps the parent
    layout itself on a tile with size 1 at `dim` (every layout is defined
    on size-1 dimensions: their lanes and warps replicate), so a broadcast
    back is a register copy. That tile and the `#slice` tile have the same
    registers in every thread: adding or removing the unit dimension
    (`tile.reshape` [M, 1] <-> [M]) is free, and a bias of shape [N] becomes
    the [1, N] row of a parent by such a reshape.

    A tile of the parent's rank with size 1 at `dim` is also accepted in
    this layout (the same registers as the parent on that shape).

    ```mlir
    #blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
    tensor<64xf32, #tilegpu.slice<dim = 1, parent = #blocked>>      // row sums
    tensor<128xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SharedLayoutAttr : TileGPU_Attr<"SharedLayout", "shared",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "a swizzled or padded shared-memory tile";
  let description = [{
    `order` lists the dimensions of a 2-d tile from fastest to slowest
    varying in memory. Rows (along the slow dimension) are stored one after
    another, each followed by `pad` unused elements; inside a row, 16-byte
    vectors of `vec` elements are permuted by an XOR swizzle: vector `c` of
    row `r` is stored at position `c ^ ((r / perPhase) % maxPhase)`.

    Two instances matter. Swizzled (`maxPhase = 8`, `pad = 0`): with
    128-byte rows this is the pattern Hopper's TMA and wgmma descriptors
    call 128B swizzle. Padded (`maxPhase = 1`, `pad = vec`): a 16-byte gap
    per row spreads the 8 rows an `ldmatrix` reads over distinct banks, and
    every access is a per-thread base plus a compile-time offset, which
    keeps the address registers of an mma.sync loop few.

    `chunk` (elements, 0 = whole rows) cuts the contiguous dimension into
    pieces stored one after another, each a full `[outer, chunk]` tile:
    element `(row, col)` of a tile with `outer` rows lives in piece
    `col / chunk`, row `row`, column `col % chunk`, and the swizzle applies
    inside the piece. With 128-byte pieces (`chunk = 64` for 16-bit types),
    `maxPhase = 8` and the tile 1024-byte aligned, every 8-row group of a
    piece is one 128B-swizzle atom: the canonical layout that Hopper's
    wgmma descriptors read, K-major or MN-major, for any tile width.

    ```mlir
    #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
    #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
    #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
    ```

    It is the layout of `!tilegpu.smem` buffers only: as the encoding of a
    tensor (a tile in registers) it is refused by the verifier, since no
    pass lowers a register tile laid out in shared memory.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$order, "unsigned":$vec,
                        "unsigned":$perPhase, "unsigned":$maxPhase,
                        DefaultValuedParameter<"unsigned", "0">:$pad,
                        DefaultValuedParameter<"unsigned", "0">:$chunk);
  // `pad` and `chunk` are optional and printed only when nonzero.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
