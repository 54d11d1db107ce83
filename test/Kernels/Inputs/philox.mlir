// Philox4x32-10 alone, on counters and a key given as data: the test of
// tile.mulhiu, arith.muli and arith.xori on i32 tiles against the Python
// generator and Random123's known answers (check_xent_kernels.py philox).
// The rounds are those of kernels/dropout.mlir. Grid [cdiv(N, 128)].
func.func @philox(
    %C0: !tile.view<?xi32> {tile.name = "C0"}, %C1: !tile.view<?xi32> {tile.name = "C1"},
    %C2: !tile.view<?xi32> {tile.name = "C2"}, %C3: !tile.view<?xi32> {tile.name = "C3"},
    %R0: !tile.view<?xi32> {tile.name = "R0"}, %R1: !tile.view<?xi32> {tile.name = "R1"},
    %R2: !tile.view<?xi32> {tile.name = "R2"}, %R3: !tile.view<?xi32> {tile.name = "R3"},
    %key0: i32 {tile.name = "K0"}, %key1: i32 {tile.name = "K1"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["cdiv(C0.0, 128)", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %bx = tile.block_id x
  %a0 = tile.load %C0[%bx] shape [128] : !tile.view<?xi32> -> tensor<128xi32>
  %b0 = tile.load %C1[%bx] shape [128] : !tile.view<?xi32> -> tensor<128xi32>
  %c0t = tile.load %C2[%bx] shape [128] : !tile.view<?xi32> -> tensor<128xi32>
  %d0 = tile.load %C3[%bx] shape [128] : !tile.view<?xi32> -> tensor<128xi32>
  %m0 = tile.full -766435501 shape [128] : tensor<128xi32>  // 0xD2511F53
  %m1 = tile.full -845247145 shape [128] : tensor<128xi32>  // 0xCD9E8D57
  %w0 = arith.constant -1640531527 : i32  // 0x9E3779B9
  %w1 = arith.constant -1150833019 : i32  // 0xBB67AE85
  %w:6 = scf.for %round = %c0 to %c10 step %c1
      iter_args(%a = %a0, %b = %b0, %c = %c0t, %d = %d0, %k0 = %key0, %k1 = %key1)
      -> (tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, i32, i32)
      : i32 {
    %hi0 = tile.mulhiu %m0, %a : tensor<128xi32>
    %lo0 = arith.muli %m0, %a : tensor<128xi32>
    %hi1 = tile.mulhiu %m1, %c : tensor<128xi32>
    %lo1 = arith.muli %m1, %c : tensor<128xi32>
    %k0_t = tile.splat %k0 shape [128] : i32 -> tensor<128xi32>
    %k1_t = tile.splat %k1 shape [128] : i32 -> tensor<128xi32>
    %x0 = arith.xori %hi1, %b : tensor<128xi32>
    %n0 = arith.xori %x0, %k0_t : tensor<128xi32>
    %x2 = arith.xori %hi0, %d : tensor<128xi32>
    %n2 = arith.xori %x2, %k1_t : tensor<128xi32>
    %k0n = arith.addi %k0, %w0 : i32
    %k1n = arith.addi %k1, %w1 : i32
    scf.yield %n0, %lo1, %n2, %lo0, %k0n, %k1n
        : tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, i32, i32
  }
  tile.store %w#0, %R0[%bx] : tensor<128xi32>, !tile.view<?xi32>
  tile.store %w#1, %R1[%bx] : tensor<128xi32>, !tile.view<?xi32>
  tile.store %w#2, %R2[%bx] : tensor<128xi32>, !tile.view<?xi32>
  tile.store %w#3, %R3[%bx] : tensor<128xi32>, !tile.view<?xi32>
  return
}
