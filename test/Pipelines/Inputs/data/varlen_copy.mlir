// A varlen batch: block b copies the rows Starts[b] .. Starts[b + 1] of the
// packed X into its own slab Out[b], shifted right by one column, ROWS rows
// at a time at element offsets (`at`: offsets known to be multiples of
// nothing; the tile's rows past the sequence's end land in the slab's
// padding rows, never in another block's slab), and takes a ticket:
// Tickets[b] is the number of blocks that took one before it (a scalar
// atomic add on Count, which starts at 0).
func.func @varlen_copy(%Starts: !tile.view<?xi32> {tile.name = "Starts"},
                       %X: !tile.view<?x?xf16> {tile.name = "X"},
                       %Out: !tile.view<?x?x?xf16> {tile.name = "Out"},
                       %Count: !tile.view<?xi32> {tile.name = "Count"},
                       %Tickets: !tile.view<?xi32> {tile.name = "Tickets"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["Starts.0 - 1", "1", "1"]},
                tile.params = {ROWS = 8 : i32, BLOCK_N = 64 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tile.block_id x
  %b1 = arith.addi %b, %c1 : i32
  %start = tile.read %Starts[%b] : !tile.view<?xi32> -> i32
  %end = tile.read %Starts[%b1] : !tile.view<?xi32> -> i32
  %len = arith.subi %end, %start : i32
  %rows = tile.param "ROWS" : i32
  scf.for %i = %c0 to %len step %rows : i32 {
    %r = arith.addi %start, %i : i32
    %x = tile.load %X at [%r, %c0] shape [ROWS, BLOCK_N]
        : !tile.view<?x?xf16> -> tensor<?x?xf16>
    %x3 = tile.reshape %x shape [1, ROWS, BLOCK_N] : tensor<?x?xf16> -> tensor<1x?x?xf16>
    tile.store %x3, %Out at [%b, %i, %c1] : tensor<1x?x?xf16>, !tile.view<?x?x?xf16>
  }
  %ticket = tile.atomic add %c1, %Count[%c0] : i32, !tile.view<?xi32> -> i32
  %t = tile.splat %ticket shape [1] : i32 -> tensor<1xi32>
  tile.store %t, %Tickets at [%b] : tensor<1xi32>, !tile.view<?xi32>
  return
}
