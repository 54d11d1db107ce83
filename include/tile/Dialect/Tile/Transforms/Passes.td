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
    - substitutes parameter names in the kernel's grid rule;
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

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
