// tile.mulhiu on the CPU reference executor: the upper half of the unsigned
// product, for i32 and i64 tiles (operands read as unsigned whatever their
// sign bit). The Philox generator built on it is checked against Python and
// Random123's known answers by test/Kernels/philox.test.

// i32: 0xFFFFFFFF^2 -> 0xFFFFFFFE (-2); 2 * 3 -> 0; 0x80000000 * 2 -> 1;
// 12345678 * 87654321 -> 251958; 3e9 * 3e9 (3e9 = -1294967296) -> 2095475792.
// RUN: tile-exec %s --kernel=hi32 --grid=1 --arg='i32[5]=values:-1,2,-2147483648,12345678,-1294967296' \
// RUN:   --arg='i32[5]=values:-1,3,2,87654321,-1294967296' --arg='i32[5]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=HI32
// HI32: Out: -2 0 1 251958 2095475792
func.func @hi32(%A: !tile.view<?xi32> {tile.name = "A"},
                %B: !tile.view<?xi32> {tile.name = "B"},
                %Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0] shape [8] : !tile.view<?xi32> -> tensor<8xi32>
  %b = tile.load %B[%c0] shape [8] : !tile.view<?xi32> -> tensor<8xi32>
  %h = tile.mulhiu %a, %b : tensor<8xi32>
  tile.store %h, %Out[%c0] : tensor<8xi32>, !tile.view<?xi32>
  return
}

// i64: (2^64 - 1)^2 -> 2^64 - 2 (-2); 2^62 * 8 -> 2; (2^64 - 1) (2^63 + 5)
// -> 2^63 + 4 (-9223372036854775804).
// RUN: tile-exec %s --kernel=hi64 --grid=1 --arg='i64[3]=values:-1,4611686018427387904,-1' \
// RUN:   --arg='i64[3]=values:-1,8,-9223372036854775803' --arg='i64[3]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=HI64
// HI64: Out: -2 2 -9223372036854775804
func.func @hi64(%A: !tile.view<?xi64> {tile.name = "A"},
                %B: !tile.view<?xi64> {tile.name = "B"},
                %Out: !tile.view<?xi64> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0] shape [4] : !tile.view<?xi64> -> tensor<4xi64>
  %b = tile.load %B[%c0] shape [4] : !tile.view<?xi64> -> tensor<4xi64>
  %h = tile.mulhiu %a, %b : tensor<4xi64>
  tile.store %h, %Out[%c0] : tensor<4xi64>, !tile.view<?xi64>
  return
}
