//===- TileGPUTypes.td - shared-memory buffers -------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD

include "tile/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def TileGPU_SharedBufferType : TypeDef<TileGPU_Dialect, "SharedBuffer"> {
  let mnemonic = "smem";
  let summary = "a tile (or a ring of tiles) in shared memory";
  let description = [{
    A 2-d tile in shared memory with a `#tilegpu.shared` layout, or, with a
    leading dimension, a ring of such tiles for a multi-stage pipeline
    (`tilegpu.subview` selects one stage).

    ```mlir
    !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>
    !tilegpu.smem<3x64x128xf16, #shared>   // three stages
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The shape of one tile (the last two dimensions).
    ArrayRef<int64_t> getTileShape() const { return getShape().take_back(2); }
    /// Number of stages: the leading dimension, or 1.
    int64_t getNumStages() const {
      return getShape().size() == 3 ? getShape()[0] : 1;
    }
    /// Bytes of one tile.
    int64_t getTileBytes() const;
  }];
}

def TileGPU_MbarrierType : TypeDef<TileGPU_Dialect, "Mbarrier"> {
  let mnemonic = "mbarrier";
  let summary = "a group of mbarriers in shared memory";
  let description = [{
    `count` 64-bit mbarrier objects, one after the other in shared memory
    (a pipeline's full or empty barriers, one per stage). Indexed by the
    `tilegpu.mbarrier_*` ops.

    ```mlir
    !tilegpu.mbarrier<2>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def TileGPU_TensorMapType : TypeDef<TileGPU_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA tensor map (CUtensorMap) passed as a kernel parameter";
  let description = [{
    A 128-byte `CUtensorMap` that the launcher builds from a view with
    `cuTensorMapEncodeTiled` and passes by value (`.param .align 64 .b8
    p[128]`, grid constant). A kernel argument of this type carries
    `tilegpu.tensor_map = {view = "K", dims = [3, 2, 1, 0], box = [64, 128,
    1, 1], swizzle = 128}`: tensor dimension i is view dimension dims[i]
    (dims[0] the contiguous one), with box size box[i]. The bundle's ABI
    lists it as a `tensor_map` entry.

    ```mlir
    !tilegpu.tensor_map
    ```
  }];
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
