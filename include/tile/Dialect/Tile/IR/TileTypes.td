//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_TD
#define TILE_DIALECT_TILE_IR_TILETYPES_TD

include "tile/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_ViewType : Tile_Type<"View", "view"> {
  let summary = "a strided view of a tensor in global memory";
  let description = [{
    A kernel argument naming a tensor in global memory: a base pointer, a
    shape and strides (in elements), all known only at run time, and an
    element type. `tile.load` and `tile.store` address it in tile space.

    ```mlir
    !tile.view<?x?x?x?xf16>                  // rank 4, f16
    !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> // element type bound later
    ```

    At the launch ABI a rank-R view is `R + 1 + R` parameters: the pointer,
    R sizes (i32) and R strides (i64, in elements).
  }];
  let parameters = (ins "unsigned":$rank, "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tile_DTypeParamType : Tile_Type<"DTypeParam", "dtype"> {
  let summary = "an element type named by a compile-time parameter";
  let description = [{
    Stands for the element type bound to a `tile.params` entry of the
    enclosing kernel. `tile-specialize` replaces it everywhere by that type.

    ```mlir
    tensor<?x?x!tile.dtype<"DTYPE">>
    ```
  }];
  let parameters = (ins StringRefParameter<"parameter name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

#endif // TILE_DIALECT_TILE_IR_TILETYPES_TD
