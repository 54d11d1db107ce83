// Two kernels in one file: tile-compile makes one bundle per kernel.
func.func @first() attributes {tile.kernel = {}} {
  return
}
func.func @second() attributes {tile.kernel = {}} {
  return
}
