// Cross-entropy over a large vocabulary, forward and the logits' gradient in
// one kernel. For row t of Logits [T, V] with target y = Targets[t]:
//   lse[t]  = log sum_j exp(x[t, j])
//   loss[t] = lse[t] - x[t, y]                     (0 where y is ignored)
//   dlogits[t, j] = (exp(x[t, j] - lse[t]) - [j == y]) * dloss[t]
//                                                  (0 where y is ignored)
// which is PyTorch's F.cross_entropy(x, y, reduction='none',
// ignore_index=...) and its backward for a per-row upstream gradient dloss
// (for reduction='mean' pass dloss = 1 / (number of rows not ignored)).
// The math runs in f32 whatever the storage type; Loss and Lse are f32.
//
// One pass over the logits (the forward): a loop over column blocks of
// BLOCK_N keeps a running max m and a running sum l = sum 2^((x - m) log2 e)
// (l rescaled by 2^((m_old - m_new) log2 e) when the max grows), so that
// lse = m + log(l) after one read of the row. The target logit is gathered
// (one element per row, tile.gather at [row, y]), not found by comparing
// all V columns. With GRAD, a second loop in the same kernel re-reads the
// row once the lse is known and writes the gradient; it walks the column
// blocks in reverse, so that it starts with the blocks the first loop read
// last, the ones most likely still in L2. The gradient needs the lse of the
// whole row before its first element can be written, so a kernel that
// writes it reads the row twice; the one-hot term is a compare of each
// column index with y in that second loop (free next to the exp2).
//
// Ignored rows (y == IgnoreIndex) and targets outside [0, V) (which torch
// refuses with a device assert) give loss 0 and gradient 0; their lse is
// still the row's. A row with every logit -inf has lse -inf and gradient
// 0; its loss is 0 when ignored and NaN otherwise (-inf - -inf, as torch's).
// No NaN comes from padding (columns past V read -inf and add 2^-inf = 0 to
// the sum; rows past T are never stored).
//
// In place (IN_PLACE, with GRAD): the gradient overwrites the logits, as
// Liger-Kernel and Unsloth do to save the [T, V] gradient's memory (the
// logits are not needed after the backward); DLogits is then not touched.
// It is safe within one kernel: a row belongs to one block, and each
// column block of it is read (second loop) before the same threads write
// it; the loads the compiler issues early are of blocks not yet written.
// The forward results (Loss, Lse) come from the first loop, before any
// write. (A separate DLogits view that aliases Logits is refused by the
// launcher, which does not let a written view share memory with another.)
//
// Bytes moved, E = element size: forward only (GRAD = false) T V E read;
// with GRAD T V E read twice and T V E written, of which the second read
// hits L2 when the row blocks read last are still there (a row is
// V E = 64 KB at V = 32k fp16, 512 KB at 256k bf16; the blocks in flight
// on an H200's 132 SMs times the row length must stay under the 50 MB L2).
// bench/check_xent.py counts 2 T V E (one read, one write: the minimum any
// kernel that writes the gradient can move) against the copy bandwidth.
//
// Parameters (tile.params, bound by tile-specialize):
//   ROWS        rows per block (1 for large V: the row is the unit of work)
//   BLOCK_N     columns per loop step (4096-8192 with 8 warps for large V)
//   GRAD        also write the gradient (DLogits, or Logits with IN_PLACE)
//   IN_PLACE    the gradient overwrites Logits
//   DTYPE       element type of Logits and DLogits (f16, bf16, f32)
//   TGT_DTYPE   element type of Targets (i32 or i64)
//
// Arguments: Logits [T, V], Targets [T], DLoss [T] f32 (read only with
// GRAD), Loss [T] f32, Lse [T] f32, DLogits [T, V] (written only with GRAD
// and not IN_PLACE), IgnoreIndex (i32 scalar, e.g. -100).

func.func @cross_entropy(
    %Logits: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Logits"},
    %Targets: !tile.view<?x!tile.dtype<"TGT_DTYPE">> {tile.name = "Targets"},
    %DLoss: !tile.view<?xf32> {tile.name = "DLoss"},
    %Loss: !tile.view<?xf32> {tile.name = "Loss"},
    %Lse: !tile.view<?xf32> {tile.name = "Lse"},
    %DLogits: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DLogits"},
    %ignore_index: i32 {tile.name = "IgnoreIndex"})
    attributes {
      tile.kernel = {num_warps = 8 : i32, grid = ["cdiv(Logits.0, ROWS)", "1", "1"],
                     requires = ["Logits.1 >= 1",
                                 "Targets.0 == Logits.0",
                                 "Loss.0 == Logits.0 && Lse.0 == Logits.0",
                                 "!GRAD || DLoss.0 == Logits.0",
                                 "!GRAD || IN_PLACE || (DLogits.0 == Logits.0 && DLogits.1 == Logits.1)"]},
      tile.params = {ROWS = 1 : i32, BLOCK_N = 4096 : i32, GRAD = true,
                     IN_PLACE = false, DTYPE = f16, TGT_DTYPE = i64}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %ln2 = arith.constant 0.69314718055994530942 : f32
  %block_n = tile.param "BLOCK_N" : i32
  %rows = tile.param "ROWS" : i32
  %grad = tile.param "GRAD" : i1
  %in_place = tile.param "IN_PLACE" : i1
  %row_block = tile.block_id x
  %v = tile.dim %Logits[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %num_blocks = arith.ceildivsi %v, %block_n : i32

  // Per-row constants, [ROWS, 1].
  %ninf_r = tile.full -inf shape [ROWS, 1] : tensor<?x1xf32>
  %zero_r = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %log2e_r = tile.splat %log2e shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %ln2_r = tile.splat %ln2 shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %log2e_t = tile.splat %log2e shape [ROWS, BLOCK_N] : f32 -> tensor<?x?xf32>

  // The targets, as i64 whatever their storage type; a row counts when its
  // target is not IgnoreIndex and lies in [0, V).
  %y_raw = tile.load %Targets[%row_block] shape [ROWS]
      : !tile.view<?x!tile.dtype<"TGT_DTYPE">> -> tensor<?x!tile.dtype<"TGT_DTYPE">>
  %y_1d = tile.astype %y_raw : tensor<?x!tile.dtype<"TGT_DTYPE">> -> tensor<?xi64>
  %y = tile.reshape %y_1d shape [ROWS, 1] : tensor<?xi64> -> tensor<?x1xi64>
  %ignore64 = arith.extsi %ignore_index : i32 to i64
  %ignore_r = tile.splat %ignore64 shape [ROWS, 1] : i64 -> tensor<?x1xi64>
  %v64 = arith.extsi %v : i32 to i64
  %v_r = tile.splat %v64 shape [ROWS, 1] : i64 -> tensor<?x1xi64>
  %zero64_r = tile.full 0 shape [ROWS, 1] : tensor<?x1xi64>
  %not_ignored = arith.cmpi ne, %y, %ignore_r : tensor<?x1xi64>
  %nonneg = arith.cmpi sge, %y, %zero64_r : tensor<?x1xi64>
  %below_v = arith.cmpi slt, %y, %v_r : tensor<?x1xi64>
  %in_range = arith.andi %nonneg, %below_v : tensor<?x1xi1>
  %counts = arith.andi %not_ignored, %in_range : tensor<?x1xi1>

  // The target logit: one gathered element per row (rows past T and
  // targets that do not count read 0 and are not used).
  %row0 = arith.muli %row_block, %rows : i32
  %row0_r = tile.splat %row0 shape [ROWS, 1] : i32 -> tensor<?x1xi32>
  %riota = tile.iota shape [ROWS, 1] dim 0 : tensor<?x1xi32>
  %row_ids = arith.addi %riota, %row0_r : tensor<?x1xi32>
  %row_ids64 = arith.extsi %row_ids : tensor<?x1xi32> to tensor<?x1xi64>
  %x_y_lp = tile.gather %Logits[%row_ids64, %y] mask %counts : tensor<?x1xi1>
      : !tile.view<?x?x!tile.dtype<"DTYPE">>, tensor<?x1xi64>, tensor<?x1xi64>
      -> tensor<?x1x!tile.dtype<"DTYPE">>
  %x_y = tile.astype %x_y_lp : tensor<?x1x!tile.dtype<"DTYPE">> -> tensor<?x1xf32>

  // Pass 1: running max m and running sum l = sum 2^((x - m) log2 e).
  %m, %l = scf.for %j = %c0 to %num_blocks step %c1
      iter_args(%m_i = %ninf_r, %l_i = %zero_r)
      -> (tensor<?x1xf32>, tensor<?x1xf32>) : i32 {
    %x_lp = tile.load %Logits[%row_block, %j] shape [ROWS, BLOCK_N] latency 2
        padding neg_inf
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %x_max = tile.reduce %x max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %m_new = arith.maximumf %m_i, %x_max : tensor<?x1xf32>
    // While a row has seen only -inf, shift by 0 instead of -inf.
    %empty = arith.cmpf oeq, %m_new, %ninf_r : tensor<?x1xf32>
    %m_sub = tile.select %empty, %zero_r, %m_new : tensor<?x1xi1>, tensor<?x1xf32>
    %m_sub_b = tile.broadcast %m_sub shape [ROWS, BLOCK_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %shifted = arith.subf %x, %m_sub_b : tensor<?x?xf32>
    %t = arith.mulf %shifted, %log2e_t : tensor<?x?xf32>
    %p = tile.exp2 %t : tensor<?x?xf32>
    %p_sum = tile.reduce %p sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %dm = arith.subf %m_i, %m_sub : tensor<?x1xf32>
    %dm2 = arith.mulf %dm, %log2e_r : tensor<?x1xf32>
    %alpha = tile.exp2 %dm2 : tensor<?x1xf32>
    %l_old = arith.mulf %l_i, %alpha : tensor<?x1xf32>
    %l_new = arith.addf %l_old, %p_sum : tensor<?x1xf32>
    scf.yield %m_new, %l_new : tensor<?x1xf32>, tensor<?x1xf32>
  }

  // lse = m + log2(l) ln 2 (-inf for a row of -inf: l = 0, m = -inf).
  %log2_l = math.log2 %l : tensor<?x1xf32>
  %log_l = arith.mulf %log2_l, %ln2_r : tensor<?x1xf32>
  %lse = arith.addf %m, %log_l : tensor<?x1xf32>
  %loss_all = arith.subf %lse, %x_y : tensor<?x1xf32>
  %loss = tile.select %counts, %loss_all, %zero_r : tensor<?x1xi1>, tensor<?x1xf32>
  %loss_1d = tile.reshape %loss shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
  %lse_1d = tile.reshape %lse shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
  tile.store %loss_1d, %Loss[%row_block] : tensor<?xf32>, !tile.view<?xf32>
  tile.store %lse_1d, %Lse[%row_block] : tensor<?xf32>, !tile.view<?xf32>

  scf.if %grad {
    // Pass 2: dlogits = (2^(x log2 e - lse log2 e) - [j == y]) * dloss, with
    // dloss = 0 for rows that do not count (and for rows of -inf, whose
    // shift would be NaN: their lse2 is replaced by 0 and dloss by 0).
    %dl_1d = tile.load %DLoss[%row_block] shape [ROWS] : !tile.view<?xf32> -> tensor<?xf32>
    %dl = tile.reshape %dl_1d shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
    %finite = arith.cmpf one, %lse, %ninf_r : tensor<?x1xf32>
    %live = arith.andi %counts, %finite : tensor<?x1xi1>
    %dl_live = tile.select %live, %dl, %zero_r : tensor<?x1xi1>, tensor<?x1xf32>
    %lse2_all = arith.mulf %lse, %log2e_r : tensor<?x1xf32>
    %lse2 = tile.select %finite, %lse2_all, %zero_r : tensor<?x1xi1>, tensor<?x1xf32>
    %lse2_b = tile.broadcast %lse2 shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    %dl_b = tile.broadcast %dl_live shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    // The target column as i32 (exact: it counts only inside [0, V)); -1
    // where the row does not count, which no column equals.
    %y32_all = arith.trunci %y : tensor<?x1xi64> to tensor<?x1xi32>
    %minus1_r = tile.full -1 shape [ROWS, 1] : tensor<?x1xi32>
    %y32 = tile.select %counts, %y32_all, %minus1_r : tensor<?x1xi1>, tensor<?x1xi32>
    %y32_b = tile.broadcast %y32 shape [ROWS, BLOCK_N] : tensor<?x1xi32> -> tensor<?x?xi32>
    %ciota = tile.iota shape [ROWS, BLOCK_N] dim 1 : tensor<?x?xi32>
    %one_t = tile.full 1.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %zero_t = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %last = arith.subi %num_blocks, %c1 : i32
    scf.for %i = %c0 to %num_blocks step %c1 : i32 {
      // Reverse order: the blocks pass 1 read last come first.
      %j = arith.subi %last, %i : i32
      %x_lp = tile.load %Logits[%row_block, %j] shape [ROWS, BLOCK_N] latency 2
          padding neg_inf
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %x2 = arith.mulf %x, %log2e_t : tensor<?x?xf32>
      %t = arith.subf %x2, %lse2_b : tensor<?x?xf32>
      %p = tile.exp2 %t : tensor<?x?xf32>
      %col0 = arith.muli %j, %block_n : i32
      %col0_t = tile.splat %col0 shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
      %cols = arith.addi %ciota, %col0_t : tensor<?x?xi32>
      %is_y = arith.cmpi eq, %cols, %y32_b : tensor<?x?xi32>
      %onehot = tile.select %is_y, %one_t, %zero_t : tensor<?x?xi1>, tensor<?x?xf32>
      %diff = arith.subf %p, %onehot : tensor<?x?xf32>
      %g = arith.mulf %diff, %dl_b : tensor<?x?xf32>
      %g_lp = tile.astype %g : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
      scf.if %in_place {
        tile.store %g_lp, %Logits[%row_block, %j]
            : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
      } else {
        tile.store %g_lp, %DLogits[%row_block, %j]
            : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
      }
    }
  }
  return
}
