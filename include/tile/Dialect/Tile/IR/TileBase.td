//===- TileBase.td - tile dialect definition ---------------*- tablegen -*-===//
//
// The `tile` dialect: kernels written on whole tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEBASE_TD
#define TILE_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile-level GPU kernels: loads, tensor-core mma, softmax pieces";
  let description = [{
    The `tile` dialect describes a GPU kernel as the work of one block on
    whole tiles. Tile values are builtin ranked tensors (`tensor<64x64xf32>`),
    so elementwise arithmetic reuses `arith` and `math` on tensors, and later
    layouts ride in the tensor encoding. The dialect adds what those dialects
    lack: program ids, tile construction (`iota`, `full`, `splat`), memory
    (`!tile.view`, `load`, `store`), `mma`, `exp2` and `div` with fast-math
    controls, reductions and shape manipulation.

    A kernel is a `func.func` carrying the `tile.kernel` attribute (launch
    hints) and usually `tile.params` (compile-time parameters with default
    values). Shapes may name parameters (`shape [TILE_M, HEAD_DIM]`) or
    compute with them (`shape [R * G, TILE_N / 2]`: `+ - * /`, `cdiv`,
    `min`, `max`, as the launch expressions write them) and an
    element type may be the parameter `!tile.dtype<"DTYPE">`; the
    `tile-specialize` pass binds them, so one source yields every variant.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the launch-hint dictionary on a kernel `func.func`.
    static constexpr llvm::StringLiteral getKernelAttrName() { return "tile.kernel"; }
    /// Name of the compile-time parameter dictionary on a kernel.
    static constexpr llvm::StringLiteral getParamsAttrName() { return "tile.params"; }
    /// Name of the argument attribute that gives a kernel argument its name.
    static constexpr llvm::StringLiteral getArgNameAttrName() { return "tile.name"; }
    /// Name of the unit attribute tile-split-loop puts on the loops that keep
    /// the condition it split on, so that it does not split them again.
    static constexpr llvm::StringLiteral getSplitRemainderAttrName() {
      return "tile.split_remainder";
    }
    /// Name of the unit attribute tile-specialize puts on a kernel whose
    /// parameters it bound: binding them again would change `tile.params`
    /// but not the body already specialized, so it is an error.
    static constexpr llvm::StringLiteral getSpecializedAttrName() {
      return "tile.specialized";
    }
  }];
}

// Tile ops compute inside a kernel: at module level they verified and were
// then silently dropped by the lowering (KernelChecks.h).
def Tile_InsideFunction : NativeOpTrait<"InsideFunction"> {
  let cppNamespace = "::mlir::tile";
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Tile_InsideFunction])>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_GridDimX : I32EnumAttrCase<"x", 0>;
def Tile_GridDimY : I32EnumAttrCase<"y", 1>;
def Tile_GridDimZ : I32EnumAttrCase<"z", 2>;
def Tile_GridDim : I32EnumAttr<"GridDim", "grid dimension",
    [Tile_GridDimX, Tile_GridDimY, Tile_GridDimZ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_GridDimAttr : EnumAttr<Tile_Dialect, Tile_GridDim, "grid_dim">;

def Tile_RoundingNearestEven : I32EnumAttrCase<"nearest_even", 0>;
def Tile_RoundingApprox : I32EnumAttrCase<"approx", 1>;
def Tile_RoundingFull : I32EnumAttrCase<"full", 2>;
def Tile_Rounding : I32EnumAttr<"Rounding", "division rounding mode",
    [Tile_RoundingNearestEven, Tile_RoundingApprox, Tile_RoundingFull]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_RoundingAttr : EnumAttr<Tile_Dialect, Tile_Rounding, "rounding">;

def Tile_ReduceMax : I32EnumAttrCase<"max", 0>;
def Tile_ReduceSum : I32EnumAttrCase<"sum", 1>;
def Tile_ReduceMin : I32EnumAttrCase<"min", 2>;
def Tile_ReduceArgMax : I32EnumAttrCase<"argmax", 3>;
def Tile_ReduceArgMin : I32EnumAttrCase<"argmin", 4>;
def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "reduction",
    [Tile_ReduceMax, Tile_ReduceSum, Tile_ReduceMin, Tile_ReduceArgMax,
     Tile_ReduceArgMin]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;

def Tile_PadZero : I32EnumAttrCase<"zero", 0>;
def Tile_PadNegInf : I32EnumAttrCase<"neg_inf", 1>;
def Tile_PadPosInf : I32EnumAttrCase<"pos_inf", 2>;
def Tile_PadNaN : I32EnumAttrCase<"nan", 3>;
def Tile_Padding : I32EnumAttr<"Padding", "value read for out-of-bounds elements",
    [Tile_PadZero, Tile_PadNegInf, Tile_PadPosInf, Tile_PadNaN]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_PaddingAttr : EnumAttr<Tile_Dialect, Tile_Padding, "padding">;

def Tile_AtomicAdd : I32EnumAttrCase<"add", 0>;
def Tile_AtomicMax : I32EnumAttrCase<"max", 1>;
def Tile_AtomicMin : I32EnumAttrCase<"min", 2>;
def Tile_AtomicXchg : I32EnumAttrCase<"xchg", 3>;
def Tile_AtomicCas : I32EnumAttrCase<"cas", 4>;
def Tile_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write",
    [Tile_AtomicAdd, Tile_AtomicMax, Tile_AtomicMin, Tile_AtomicXchg,
     Tile_AtomicCas]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_AtomicKindAttr : EnumAttr<Tile_Dialect, Tile_AtomicKind, "atomic_kind">;

def Tile_OrderRelaxed : I32EnumAttrCase<"relaxed", 0>;
def Tile_OrderAcquire : I32EnumAttrCase<"acquire", 1>;
def Tile_OrderRelease : I32EnumAttrCase<"release", 2>;
def Tile_OrderAcqRel : I32EnumAttrCase<"acq_rel", 3>;
def Tile_MemoryOrder : I32EnumAttr<"MemoryOrder", "memory order of an atomic",
    [Tile_OrderRelaxed, Tile_OrderAcquire, Tile_OrderRelease,
     Tile_OrderAcqRel]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemoryOrderAttr : EnumAttr<Tile_Dialect, Tile_MemoryOrder, "memory_order">;

#endif // TILE_DIALECT_TILE_IR_TILEBASE_TD
