// A spin lock between blocks: each block takes Lock with a compare-and-swap
// (acquire), reads Count with a plain load, writes Count + 1 with a plain
// store and releases the lock with an exchange (release). Count ends at the
// number of blocks and Seen[b] (what block b read) is a permutation of
// 0 .. blocks - 1 only if the lock excludes and orders: no atomic add does
// the counting.
func.func @locked_counter(%Lock: !tile.view<?xi32> {tile.name = "Lock"},
                          %Count: !tile.view<?xi32> {tile.name = "Count"},
                          %Seen: !tile.view<?xi32> {tile.name = "Seen"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["Seen.0", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tile.block_id x
  scf.while : () -> () {
    %was = tile.atomic cas %c1, %Lock[%c0] compare %c0 : i32 sem acquire
        : i32, !tile.view<?xi32> -> i32
    %busy = arith.cmpi ne, %was, %c0 : i32
    scf.condition(%busy)
  } do {
    scf.yield
  }
  %n = tile.read %Count[%c0] : !tile.view<?xi32> -> i32
  %n1 = arith.addi %n, %c1 : i32
  %t = tile.splat %n1 shape [1] : i32 -> tensor<1xi32>
  tile.store %t, %Count at [%c0] : tensor<1xi32>, !tile.view<?xi32>
  %s = tile.splat %n shape [1] : i32 -> tensor<1xi32>
  tile.store %s, %Seen at [%b] : tensor<1xi32>, !tile.view<?xi32>
  tile.atomic xchg %c0, %Lock[%c0] sem release : i32, !tile.view<?xi32>
  return
}
