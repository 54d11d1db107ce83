//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
//
// Operations of the `tile` dialect. Tile values are builtin ranked tensors;
// a shape written `[1, TILE_M, 64]` may name compile-time parameters or
// compute with them (`[R * G, cdiv(N, 2)]`: + - * / cdiv min max), which
// appear as dynamic dimensions (`?`) until `tile-specialize` binds them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileBase.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Tile_Tensor : RankedTensorOf<[AnyType]>;
def Tile_ScalarOrIndex : AnyTypeOf<[AnySignlessInteger, Index, AnyFloat]>;

//===----------------------------------------------------------------------===//
// Compile-time parameters and program ids
//===----------------------------------------------------------------------===//

def Tile_ParamOp : Tile_Op<"param", [Pure]> {
  let summary = "the value of a compile-time parameter of the kernel";
  let description = [{
    Reads the parameter `name` declared in the enclosing kernel's
    `tile.params` dictionary. `tile-specialize` replaces it by a constant, so
    that branches on it fold away.

    ```mlir
    %causal = tile.param "CAUSAL" : i1
    %tile_m = tile.param "TILE_M" : i32
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Tile_ScalarOrIndex:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_BlockIdOp : Tile_Op<"block_id", [Pure]> {
  let summary = "the index of this block along a grid dimension";
  let description = [{
    ```mlir
    %bid_x = tile.block_id x
    ```
  }];
  let arguments = (ins Tile_GridDimAttr:$dim);
  let results = (outs I32:$result);
  let assemblyFormat = "`` $dim attr-dict";
}

def Tile_NumBlocksOp : Tile_Op<"num_blocks", [Pure]> {
  let summary = "the number of blocks along a grid dimension";
  let description = [{
    ```mlir
    %n = tile.num_blocks x
    ```
  }];
  let arguments = (ins Tile_GridDimAttr:$dim);
  let results = (outs I32:$result);
  let assemblyFormat = "`` $dim attr-dict";
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "a tile counting 0, 1, 2, ... along one dimension";
  let description = [{
    Element `(i0, ..., in)` of the result is `i_dim` (cuTile's `arange`,
    with the result already shaped for broadcasting).

    ```mlir
    %cols = tile.iota shape [1, TILE_N] dim 1 : tensor<1x?xi32>
    %rows = tile.iota shape [64, 1] dim 0 : tensor<64x1xi32>
    %grp = tile.iota shape [R * G, 1] dim 0 : tensor<?x1xi32>
    ```
  }];
  let arguments = (ins ArrayAttr:$shape, I64Attr:$dimension);
  let results = (outs RankedTensorOf<[AnySignlessInteger]>:$result);
  let assemblyFormat = [{
    `shape` custom<ShapeSpec>($shape) `dim` $dimension attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_FullOp : Tile_Op<"full", [Pure]> {
  let summary = "a tile filled with one constant";
  let description = [{
    The value is a float (`0.0`, `-inf`, `inf`, `nan`), an integer, or
    `true`/`false` for `i1` tiles.

    ```mlir
    %m = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
    %z = tile.full 0.0 shape [64, 128] : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AnyAttr:$value, ArrayAttr:$shape);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    custom<FillValue>($value) `shape` custom<ShapeSpec>($shape) attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile filled with one scalar value";
  let description = [{
    ```mlir
    %s = tile.splat %qk_scale shape [TILE_M, TILE_N] : f32 -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_ScalarOrIndex:$value, ArrayAttr:$shape);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $value `shape` custom<ShapeSpec>($shape) attr-dict `:` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_DimOp : Tile_Op<"dim", [Pure]> {
  let summary = "the run-time size of one dimension of a view";
  let description = [{
    ```mlir
    %k_seqlen = tile.dim %K[2] : !tile.view<?x?x?x?xf16>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, I64Attr:$dimension);
  let results = (outs I32:$result);
  let assemblyFormat = "$view `[` $dimension `]` attr-dict `:` type($view)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load one tile of a view";
  let description = [{
    Partitions the view (after permuting its dimensions by `order`, if given)
    into tiles of `shape` and loads the tile at the tile-space `indices`:
    result element `e` is view element `order-permuted(indices * shape + e)`.
    With `at`, the indices are element offsets instead (any element, not
    only multiples of the tile shape): element `e` is view element
    `order-permuted(indices + e)`. Elements outside the view read the
    `padding` value (default `zero`). The compiler vectorizes an access only
    as far as it can prove the offset along the contiguous dimension
    aligned (the view's `align`, offsets known to be multiples); otherwise
    the access is narrower, never wrong.

    `order` gives, for each tile dimension, the view dimension it walks; the
    cuTile post loads K transposed with `order [0, 1, 3, 2]`. `latency`
    (1-10) hints how far ahead the load may be issued; the software
    pipeliner derives its stage count from it. The clauses after `shape`
    (`order`, `latency`, `padding`) are optional and come in any order.

    ```mlir
    %q = tile.load %Q[%b, %h, %bx, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        : !tile.view<?x?x?x?xf16> -> tensor<1x1x?x?xf16>
    %k = tile.load %K[%b, %kvh, %c0, %j] shape [1, 1, HEAD_DIM, TILE_N]
        order [0, 1, 3, 2] latency 2
        : !tile.view<?x?x?x?xf16> -> tensor<1x1x?x?xf16>
    // Rows 4 * kvh .. 4 * kvh + 15 of head b (element offsets).
    %g = tile.load %Q at [%b, %row, %c0] shape [1, 16, 128]
        : !tile.view<?x?x?xf16> -> tensor<1x16x128xf16>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<I32>:$indices,
                   ArrayAttr:$shape,
                   OptionalAttr<DenseI64ArrayAttr>:$order,
                   OptionalAttr<I32Attr>:$latency,
                   DefaultValuedAttr<Tile_PaddingAttr, "::mlir::tile::Padding::zero">:$padding,
                   UnitAttr:$element_offsets);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $view (`at` ` ` $element_offsets^)? `[` $indices `]` `shape` custom<ShapeSpec>($shape) ``
    custom<LoadClauses>($order, $latency, $padding)
    attr-dict `:` type($view) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store one tile into a view";
  let description = [{
    Writes `value` to the tile at tile-space `indices` of the view (tiles of
    the value's shape), or with `at` at element offsets `indices`. Elements
    outside the view are not written.

    ```mlir
    tile.store %o, %Out[%b, %h, %bx, %c0]
        : tensor<1x1x64x128xf16>, !tile.view<?x?x?x?xf16>
    tile.store %row, %Y at [%r, %c0] : tensor<1x128xf32>, !tile.view<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$value, Tile_ViewType:$view,
                   Variadic<I32>:$indices, UnitAttr:$element_offsets);
  let assemblyFormat = [{
    $value `,` $view (`at` ` ` $element_offsets^)? `[` $indices `]` attr-dict
    `:` type($value) `,` type($view)
  }];
  let hasVerifier = 1;
}


def Tile_ReadOp : Tile_Op<"read", [MemoryEffects<[MemRead]>]> {
  let summary = "read one element of a view as a scalar";
  let description = [{
    Reads the element at element coordinates `indices`, as a scalar usable
    as a loop bound, an offset or a branch condition (`cu_seqlens`, a page
    table entry, an expert's offset). A coordinate outside the view reads 0
    (never memory outside the view).

    ```mlir
    %start = tile.read %CuSeqlens[%b] : !tile.view<?xi32> -> i32
    %page = tile.read %BlockTable[%b, %p] : !tile.view<?x?xi32> -> i32
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<I32>:$indices);
  let results = (outs Tile_ScalarOrIndex:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` attr-dict `:` type($view) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>]> {
  let summary = "load the view elements that index tiles select";
  let description = [{
    One integer tile (i32 or i64) per view dimension, all of the result's
    shape: result element `e` is view element `(indices[0][e], ...,
    indices[r-1][e])`. An element whose coordinates fall outside the view,
    or whose `mask` is false, reads the `padding` value (default `zero`):
    an out-of-range index is masked, never undefined. Index tiles that
    repeat along a dimension (a broadcast) cost nothing extra. The optional
    `mask` and `padding` clauses come in any order.

    ```mlir
    // Rows of an embedding table chosen by token ids.
    %ids_b = tile.broadcast %ids shape [64, 128]
        : tensor<64x1xi32> -> tensor<64x128xi32>
    %cols = tile.iota shape [64, 128] dim 1 : tensor<64x128xi32>
    %emb = tile.gather %Table[%ids_b, %cols]
        : !tile.view<?x?xf16>, tensor<64x128xi32>, tensor<64x128xi32>
        -> tensor<64x128xf16>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Tile_Tensor>:$indices,
                   Optional<Tile_Tensor>:$mask,
                   DefaultValuedAttr<Tile_PaddingAttr, "::mlir::tile::Padding::zero">:$padding);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` `` custom<GatherClauses>($mask, type($mask), $padding)
    attr-dict
    `:` type($view) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [AttrSizedOperandSegments,
    MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile's elements where index tiles say";
  let description = [{
    The store matching `tile.gather`: element `e` of `value` goes to view
    element `(indices[0][e], ...)`. Elements outside the view, or whose
    `mask` is false, are not written. When two elements go to one place,
    which one lands is unspecified (use `tile.atomic` to combine them).

    ```mlir
    tile.scatter %rows, %Out[%dst_rows, %cols] mask %ok : tensor<64x128xi1>
        : tensor<64x128xf16>, !tile.view<?x?xf16>, tensor<64x128xi32>,
          tensor<64x128xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$value, Tile_ViewType:$view,
                   Variadic<Tile_Tensor>:$indices,
                   Optional<Tile_Tensor>:$mask);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` (`mask` $mask^ `:` type($mask))? attr-dict
    `:` type($value) `,` type($view) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicOp : Tile_Op<"atomic", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic read-modify-write of view elements";
  let description = [{
    For every element of `value` (a tile, or a scalar), atomically combines
    it with the view element it addresses and, when the op has a result,
    returns the old values. Addressing is that of `tile.store`: the tile at
    tile-space `indices`, or with `at` at element offsets; a scalar value
    addresses the element at `indices`. Elements outside the view or whose
    `mask` is false are left alone (their result is 0).

    Kinds: `add` (f32, i32, i64, f16, bf16), `max` and `min` (signed i32
    and i64; f32 as maxNum/minNum, a NaN on one side yields the other, as
    the GPU's), `xchg` (i32, i64, f32), and `cas` (compare-and-swap, i32 or
    i64: the element becomes `value` where it equals `compare`). `sem`
    gives the memory order, `relaxed` (default), `acquire`, `release` or
    `acq_rel`, at GPU scope: enough for a spin lock taken with `cas` and
    `acquire` and released with `xchg` and `release`. A scalar atomic runs
    once per block (one thread, the result given to all). The optional
    `compare`, `mask` and `sem` clauses come in any order.

    Elements of one tile are combined in an unspecified order (the CPU
    executor runs blocks one after another, in order, so that its results
    are deterministic).

    ```mlir
    tile.atomic add %dq, %DQ[%b, %h, %i, %c0]
        : tensor<1x1x64x128xf32>, !tile.view<?x?x?x?xf32>
    %old = tile.atomic cas %one, %Lock[%g] compare %zero : i32 sem acquire
        : i32, !tile.view<?xi32> -> i32
    ```
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, AnyType:$value,
                   Tile_ViewType:$view, Variadic<I32>:$indices,
                   Optional<AnyType>:$compare, Optional<Tile_Tensor>:$mask,
                   DefaultValuedAttr<Tile_MemoryOrderAttr, "::mlir::tile::MemoryOrder::relaxed">:$sem,
                   UnitAttr:$element_offsets);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = [{
    $kind $value `,` $view (`at` ` ` $element_offsets^)? `[` $indices `]`
    `` custom<AtomicClauses>($compare, type($compare), $mask, type($mask), $sem)
    attr-dict `:` type($value) `,` type($view)
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate on tensor cores: a x b + acc";
  let description = [{
    `a` is `M x K`, `b` is `K x N`, both f16, bf16 or fp8 (`f8E4M3FN`,
    `f8E5M2`; the same type); `acc` and the result are `M x N` f32. fp8
    runs on Hopper's wgmma only (sm_90a), with both operands K-major in
    memory (`a` row-major, `b` loaded from an `N x K` view with
    `order [1, 0]`).

    ```mlir
    %s = tile.mma %q, %kt, %zero
        : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$acc);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Tile_Exp2Op : Tile_Op<"exp2", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise 2^x";
  let description = [{
    Precise by default. With `flush_to_zero`, subnormal inputs and results
    become zero, which lets the GPU use `ex2.approx.ftz.f32` (the cuTile
    post's fast-math "rescue").

    ```mlir
    %p = tile.exp2 %x flush_to_zero : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$x, UnitAttr:$flush_to_zero);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$x (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def Tile_MulHiUOp : Tile_Op<"mulhiu", [Pure, Elementwise,
                                         SameOperandsAndResultType]> {
  let summary = "elementwise high half of an unsigned integer product";
  let description = [{
    The upper W bits of the 2W-bit product of two W-bit integers read as
    unsigned (CUDA's `__umulhi`, PTX `mul.hi.u32`/`mul.hi.u64`); with
    `arith.muli` (the lower half) it gives the full product. Counter-based
    random number generators (Philox) are made of it and `arith.xori`.
    i32 and i64 tiles.

    ```mlir
    %hi = tile.mulhiu %a, %b : tensor<128xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_DivOp : Tile_Op<"div", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise floating-point division with a rounding mode";
  let description = [{
    `rounding` is `nearest_even` (IEEE, the default), `full` (full-range
    approximation, 2 ulp) or `approx` (fast reciprocal-based approximation);
    `flush_to_zero` flushes subnormals.

    ```mlir
    %o = tile.div %acc, %l rounding approx flush_to_zero : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs,
                   DefaultValuedAttr<Tile_RoundingAttr, "::mlir::tile::Rounding::nearest_even">:$rounding,
                   UnitAttr:$flush_to_zero);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`rounding` `` $rounding^)? (`flush_to_zero` $flush_to_zero^)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one axis (max, min, sum, argmax, argmin)";
  let description = [{
    With `keepdims` the reduced axis stays with size 1. `max` and `min`
    propagate NaN (as `arith.maximumf`). `argmax` and `argmin` give the i32
    index along the axis of the largest (smallest) element, the lowest index
    among ties, and the index of the first NaN if there is one (as torch).

    ```mlir
    %row_max = tile.reduce %s max axis 1 keepdims
        : tensor<64x64xf32> -> tensor<64x1xf32>
    %best = tile.reduce %logits argmax axis 1
        : tensor<16x1024xf32> -> tensor<16xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$source, Tile_ReduceKindAttr:$kind,
                   I64Attr:$axis, UnitAttr:$keepdims);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $source `` $kind `axis` $axis (`keepdims` $keepdims^)? attr-dict
    `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeat size-1 dimensions of a tile";
  let description = [{
    Same rank; every source dimension is 1 or equal to the result's.

    ```mlir
    %b = tile.broadcast %m shape [64, 128] : tensor<64x1xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$source, ArrayAttr:$shape);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $source `shape` custom<ShapeSpec>($shape) attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "reinterpret a tile with another shape of as many elements";
  let description = [{
    Row-major element order is kept.

    ```mlir
    %q2 = tile.reshape %q shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$source, ArrayAttr:$shape);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $source `shape` custom<ShapeSpec>($shape) attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure]> {
  let summary = "permute (transpose) the dimensions of a tile";
  let description = [{
    Result dimension `i` is source dimension `permutation[i]`.

    ```mlir
    %t = tile.permute %k [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$source, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_SelectOp : Tile_Op<"select", [Pure,
    AllTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "elementwise choice (where): cond ? a : b";
  let description = [{
    ```mlir
    %bias = tile.select %mask, %zero, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$condition, Tile_Tensor:$true_value,
                   Tile_Tensor:$false_value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` type($condition) `,` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_AsTypeOp : Tile_Op<"astype", [Pure]> {
  let summary = "convert the element type of a tile";
  let description = [{
    Float to float rounds to nearest even; float to integer truncates toward
    zero; integer to float rounds to nearest even; integers extend or
    truncate as signed values.

    ```mlir
    %p16 = tile.astype %p : tensor<64x64xf32> -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$source);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
