// A tile atomic whose old values are used, on a [4] tile with 4 warps: the
// layout replicates each element over many threads, and only the owner
// gets the old value: refused (docs/kernels.md).
func.func @replicated(%A: !tile.view<?xf32> {tile.name = "A"},
                      %B: !tile.view<?xf32> {tile.name = "B"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["1", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %one = tile.full 1.0 shape [4] : tensor<4xf32>
  %old = tile.atomic add %one, %A[%c0] : tensor<4xf32>, !tile.view<?xf32> -> tensor<4xf32>
  tile.store %old, %B[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}
