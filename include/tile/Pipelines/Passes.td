//===- Passes.td - passes of the pipeline module -----------*- tablegen -*-===//
//
// Passes that belong to the pipelines rather than to a dialect: the marker
// that ends each stage of tile-source-to-ptx. It lives in
// lib/Pipelines/Checkpoint.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PASSES_TD
#define TILE_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCheckpoint : Pass<"tile-checkpoint", "ModuleOp"> {
  let summary = "Mark the end of a stage of tile-source-to-ptx (changes nothing)";
  let description = [{
    `tile-source-to-ptx` runs in four stages: `tile` (specialization and the
    tile-level pipeline), `tilegpu` (layouts, shared memory, software
    pipelining), `nvvm` (the gpu.module of NVVM) and `ptx` (the gpu.binary).
    Each ends with this pass, which leaves the IR as it is. It makes the
    stages visible in the printed pipeline (`--dump-pass-pipeline`,
    `tile-compile --print-pipeline`), gives `stop-after` its stopping
    points, and lets a tool look at the IR between stages with a pass
    instrumentation: `tile-compile` takes the tile IR of the bundle and the
    launch configuration from there, in one run of one pipeline.

    ```
    builtin.module(tile-specialize{...}, canonicalize, cse,
                   tile-checkpoint{stage=tile}, func.func(...),
                   tile-checkpoint{stage=tilegpu}, ...)
    ```
  }];
  let options = [
    Option<"stage", "stage", "std::string", "\"\"",
           "The stage that ends here: tile, tilegpu, nvvm or ptx">
  ];
}

#endif // TILE_PIPELINES_PASSES_TD
