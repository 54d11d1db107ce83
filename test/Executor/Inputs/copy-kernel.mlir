// Copies In to Out (4 elements): the kernel of test/Tools/tile-exec.test.
func.func @copy(%In: !tile.view<?xf32> {tile.name = "In"},
                %Out: !tile.view<?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %In[%c0] shape [4] : !tile.view<?xf32> -> tensor<4xf32>
  tile.store %x, %Out[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}
