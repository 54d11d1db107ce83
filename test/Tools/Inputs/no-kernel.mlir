// A file without a kernel: no func.func carries 'tile.kernel'.
func.func @helper(%x: i32) -> i32 {
  return %x : i32
}
