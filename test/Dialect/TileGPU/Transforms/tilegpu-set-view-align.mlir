// tilegpu-set-view-align: tile.align = view-align on the view arguments of
// kernels that have none; explicit ones and non-kernels stay.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-view-align | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-opt %s -split-input-file -tilegpu-set-view-align=view-align=4 | FileCheck %s --check-prefix=FOUR
// RUN: not tile-opt %s -split-input-file -tilegpu-set-view-align=view-align=3 2>&1 | FileCheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @kernel
// DEFAULT-SAME: (%{{.*}}: !tile.view<?x?xf16> {tile.align = 16 : i64}, %{{.*}}: !tile.view<?xf32> {tile.align = 2 : i64}, %{{.*}}: f32)
// FOUR-LABEL: func.func @kernel
// FOUR-SAME: (%{{.*}}: !tile.view<?x?xf16> {tile.align = 4 : i64}, %{{.*}}: !tile.view<?xf32> {tile.align = 2 : i64}, %{{.*}}: f32)
// BAD: error: view-align must be a power of two from 1 to 16 (bytes), got 3
func.func @kernel(%A: !tile.view<?x?xf16>, %B: !tile.view<?xf32> {tile.align = 2 : i64}, %s: f32)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  return
}

// DEFAULT-LABEL: func.func @negative_not_a_kernel
// DEFAULT-SAME: (%{{.*}}: !tile.view<?x?xf16>)
func.func @negative_not_a_kernel(%A: !tile.view<?x?xf16>) {
  return
}
