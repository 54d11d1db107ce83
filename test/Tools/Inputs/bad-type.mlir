// An input with an error on line 3: diagnostics name the file and the line.
func.func @f() {
  %0 = arith.constant 1 : i99999999
}
