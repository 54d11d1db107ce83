// Input of warp-specialize-read.mlir: the search of its kernel takes a
// ticket (an atomic, on a view the copies do not read) at each step, which
// the producer cannot run again.

func.func @rows_at_offsets(%A: !tile.view<?x?xf16> {tile.name = "A"},
                           %B: !tile.view<?x?xf16> {tile.name = "B"},
                           %C: !tile.view<?x?xf32> {tile.name = "C"},
                           %Off: !tile.view<?xi32> {tile.name = "Off"},
                           %Count: !tile.view<?xi32> {tile.name = "Count"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["4", "1", "1"],
                               hints = {sm_90 = {warp_specialize = 1 : i32, tma = 1 : i32}}}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  %bx = tile.block_id x
  %n = tile.dim %Off[0] : !tile.view<?xi32>
  // The last i with Off[i] <= 64 bx.
  %want = arith.muli %bx, %c64 : i32
  %lo, %hi = scf.while (%l = %c0, %h = %n) : (i32, i32) -> (i32, i32) {
    %span = arith.subi %h, %l : i32
    %more = arith.cmpi sgt, %span, %c1 : i32
    scf.condition(%more) %l, %h : i32, i32
  } do {
  ^bb0(%l: i32, %h: i32):
    %s = arith.addi %l, %h : i32
    %mid = arith.divsi %s, %c2 : i32
    %t = tile.atomic add %c1, %Count[%mid] : i32, !tile.view<?xi32> -> i32
    %o = arith.addi %t, %mid : i32
    %left = arith.cmpi sle, %o, %want : i32
    %l2 = arith.select %left, %mid, %l : i32
    %h2 = arith.select %left, %h, %mid : i32
    scf.yield %l2, %h2 : i32, i32
  }
  %row = tile.read %Off[%lo] : !tile.view<?xi32> -> i32
  %k_size = tile.dim %A[1] : !tile.view<?x?xf16>
  %num_k = arith.ceildivsi %k_size, %c64 : i32
  %acc0 = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %k, %c64 : i32
    %a = tile.load %A at [%row, %k0] shape [64, 64] latency 4
        : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %b = tile.load %B[%k, %c0] shape [64, 64] latency 4
        : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %next = tile.mma %a, %b, %acc_i : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %C[%bx, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
