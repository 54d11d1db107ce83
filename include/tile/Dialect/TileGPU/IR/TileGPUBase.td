//===- TileGPUBase.td - tilegpu dialect definition ---------*- tablegen -*-===//
//
// The `tilegpu` dialect: tile IR after layout assignment. Every tile value
// carries a layout in its tensor encoding (which thread of the block holds
// which element); shared-memory buffers, asynchronous copies, waits and
// barriers are explicit ops, so that pipelining is a transformation on
// visible IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUBASE_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tile IR with thread layouts, shared memory and async copies";
  let description = [{
    The target-facing half of the tile compiler. Layout attributes
    (`#tilegpu.mma`, `#tilegpu.slice`) describe how the elements of a tile
    are distributed over the warps, lanes and registers of a block;
    `#tilegpu.shared` describes a swizzled shared-memory tile. The ops make
    the GPU memory hierarchy explicit: `alloc` and `subview` of shared
    buffers, `async_copy` (cp.async), `async_commit`, `async_wait`,
    `barrier`, and `mma` reading its operands from shared memory or
    registers. `convert-tile-to-nvvm` lowers them to NVVM.

    The layouts are parameterized by instruction shape and warp grouping so
    that Hopper's wgmma accumulators and 128-byte swizzled tiles are new
    instances of the same attributes, not a new system.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUBASE_TD
