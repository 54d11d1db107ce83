// One kernel per scalar argument type tile-exec parses, and one with a
// float and an integer view (the input of tile-exec-arguments.test).
func.func @views(%X: !tile.view<?xf32> {tile.name = "X"},
                 %I: !tile.view<?xi8> {tile.name = "I"}) {
  return
}
func.func @all(%a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: index,
               %g: f16, %h: bf16, %k: f32) {
  return
}
func.func @i1(%x: i1) { return }
func.func @i8(%x: i8) { return }
func.func @i16(%x: i16) { return }
func.func @i32(%x: i32) { return }
func.func @i64(%x: i64) { return }
func.func @index(%x: index) { return }
func.func @f16(%x: f16) { return }
func.func @bf16(%x: bf16) { return }
func.func @f32(%x: f32) { return }
