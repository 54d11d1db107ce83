//===- Passes.td - conversion to NVVM ----------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_PASSES_TD
#define TILE_CONVERSION_TILETONVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToNVVM : Pass<"convert-tile-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower tilegpu kernels to a gpu.module of per-thread NVVM/LLVM code";
  let description = [{
    Outlines every kernel (a `func.func` with `tile.kernel` that went
    through `tilegpu-assign-layouts`) into `gpu.func ... kernel` inside
    `gpu.module @tile_kernels`, with the launch ABI of the bundle format:
    a view of rank R becomes a global pointer, R `i32` sizes and R `i64`
    strides. Then a dialect conversion maps every tile to the registers one
    thread holds (`tensor<128x64xf32, #mma>` with 4 warps becomes
    `vector<64xf32>`) and each op to per-thread code:

    - `tilegpu.mma`: `ldmatrix` (`.trans` for operands whose K dimension is
      not contiguous) and `mma.sync.m16n8k16` (f16 or bf16, f32 accumulate);
      a register A operand (attention's P) is repacked in registers;
    - `tilegpu.async_copy`: 16-byte `cp.async` with zero fill past the
      view's bounds, into swizzled shared memory; commit/wait/barrier;
    - `tile.reduce`: in-thread reduction and `shfl.sync.bfly` across the
      lanes that share a row;
    - `tile.exp2`: `ex2.approx.ftz.f32` with `flush_to_zero`, otherwise
      `ex2.approx.f32` (full range, subnormals handled);
      `tile.div`: `div.rn.f32`, `div.full.f32` or `div.approx(.ftz).f32`;
    - elementwise `arith`/`math` ops register by register, keeping their
      fast-math flags (`contract` lets the backend form FFMA);
    - `tilegpu.store`: predicated stores, pairs of 16-bit elements as one
      32-bit store, one writer per replicated element.

    The result still contains `scf`, `arith`, `vector` and `gpu` ops; the
    upstream `convert-scf-to-cf`, `convert-gpu-to-nvvm` and
    `gpu-module-to-binary` finish the job.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::vector::VectorDialect",
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"
  ];
}

def TileGridConstants : Pass<"tile-grid-constants", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the TMA tensor-map parameters of lowered kernels grid constants";
  let description = [{
    A TMA tensor map is a 128-byte `CUtensorMap` passed by value as a grid
    constant (`.param .align 64 .b8 p[128]`). `convert-tile-to-nvvm` lists
    those parameters in the `gpu.func` attribute `tilegpu.grid_constants`;
    `convert-gpu-to-nvvm` copies function attributes but not `llvm.byval`,
    and the NVVM verifier admits `nvvm.grid_constant` on `llvm.func`
    kernels only. This pass, after `convert-gpu-to-nvvm`, puts the three
    argument attributes on each listed parameter and drops the list:

    ```mlir
    llvm.func @k(%m: !llvm.ptr) attributes {nvvm.kernel,
                                           tilegpu.grid_constants = array<i64: 0>}
    // becomes
    llvm.func @k(%m: !llvm.ptr {llvm.align = 64 : i64,
                                llvm.byval = !llvm.array<128 x i8>,
                                nvvm.grid_constant}) attributes {nvvm.kernel}
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

#endif // TILE_CONVERSION_TILETONVVM_PASSES_TD
