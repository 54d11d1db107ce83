// Y[i, j] = mean(X[i, P j], ..., X[i, P j + P - 1]): the average of each run
// of P adjacent columns of a row-major [M, P N] matrix (1-D average pooling,
// window and stride P), f32 math whatever the storage type. Each block
// computes one [ROWS, BLOCK_N] tile of Y from the [ROWS, BLOCK_N * P] tile
// of X under it: the shapes are expressions of the parameters, and the
// types are spelled once, as aliases.
//
// Bytes moved (E = element size): (P + 1) M N E (read X, write Y).
//
// Parameters: ROWS, BLOCK_N (the tile of Y), P (the window), DTYPE (f16,
// bf16, f32). Arguments: X [M, N * P] read, Y [M, N] written. Grid
// [cdiv(M, ROWS), cdiv(N, BLOCK_N)].
!view = !tile.view<?x?x!tile.dtype<"DTYPE">>
!tile_lp = tensor<?x?x!tile.dtype<"DTYPE">>
!tile_f32 = tensor<?x?xf32>

func.func @pool_mean(%X: !view {tile.name = "X"}, %Y: !view {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Y.0, ROWS)", "cdiv(Y.1, BLOCK_N)", "1"],
                     requires = ["Y.0 == X.0", "X.1 == Y.1 * P"]},
      tile.params = {ROWS = 16 : i32, BLOCK_N = 64 : i32, P = 2 : i32,
                     DTYPE = f16}} {
  %i = tile.block_id x
  %j = tile.block_id y
  // Rows and columns past the edges load as 0 and are not stored.
  %x_lp = tile.load %X[%i, %j] shape [ROWS, BLOCK_N * P] : !view -> !tile_lp
  %x = tile.astype %x_lp : !tile_lp -> !tile_f32
  // Each run of P columns becomes the last dimension, summed away.
  %runs = tile.reshape %x shape [ROWS, BLOCK_N, P]
      : !tile_f32 -> tensor<?x?x?xf32>
  %sum = tile.reduce %runs sum axis 2 : tensor<?x?x?xf32> -> !tile_f32
  %p = tile.param "P" : i32
  %p_f32 = arith.sitofp %p : i32 to f32
  %p_t = tile.splat %p_f32 shape [ROWS, BLOCK_N] : f32 -> !tile_f32
  %mean = tile.div %sum, %p_t : !tile_f32
  %y_lp = tile.astype %mean : !tile_f32 -> !tile_lp
  tile.store %y_lp, %Y[%i, %j] : !tile_lp, !view
  return
}
