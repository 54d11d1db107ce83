// Y = X^T by tiles: a permute between a coalesced load and a coalesced
// store, so one layout conversion (through shared memory) is needed.
func.func @transpose(%X: !tile.view<?x?xf16> {tile.name = "X"},
                     %Y: !tile.view<?x?xf16> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, BLOCK)", "cdiv(X.1, BLOCK)", "1"]},
                tile.params = {BLOCK = 64 : i32}} {
  %bx = tile.block_id x
  %by = tile.block_id y
  %x = tile.load %X[%bx, %by] shape [BLOCK, BLOCK]
      : !tile.view<?x?xf16> -> tensor<?x?xf16>
  %t = tile.permute %x [1, 0] : tensor<?x?xf16> -> tensor<?x?xf16>
  tile.store %t, %Y[%by, %bx] : tensor<?x?xf16>, !tile.view<?x?xf16>
  return
}
