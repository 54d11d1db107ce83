//===- Passes.td - tile-level transformations --------------*- tablegen -*-===//
//
// Target-independent passes on tile IR. Each pass lives in its own .cpp file
// in lib/Dialect/Tile/Transforms, named after the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
