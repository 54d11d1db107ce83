//===- Passes.h - conversion of tile kernels to NVVM ------------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_PASSES_H
#define TILE_CONVERSION_TILETONVVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tile {

#define GEN_PASS_DECL
#include "tile/Conversion/TileToNVVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/TileToNVVM/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVVM_PASSES_H
