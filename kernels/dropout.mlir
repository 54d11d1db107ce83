// Dropout with counter-based random numbers (Philox4x32-10, Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11; the generator of
// curand, PyTorch and Triton's tl.rand):
//   Y[r, c] = keep(r, c) ? X[r, c] * (1 / (1 - P)) : 0
// with keep(r, c) = u(r, c) < 1 - P, u a uniform number in [0, 1) drawn from
// (Seed, SeedHi, Offset, r, c) alone. Nothing but the seed and the offset is
// kept between the forward and the backward: the backward is this same
// kernel run on dY with the same Seed, SeedHi and Offset (dX = keep * dY /
// (1 - P)), which regenerates the mask bit for bit. No mask is stored (the
// bundle ABI carries no i8 or i1 views; a stored mask would also cost a
// byte an element of traffic each way).
//
// The random stream (fixed by this file, independent of ROWS and of the
// launch): one Philox4x32-10 call per row r and column group g gives four
// 32-bit words, for the four columns
//   c = 512 * (g / 128) + 128 * k + g % 128,   k = 0, 1, 2, 3
// (four 128-column quarters of each 512-column chunk: one call feeds four
// elements, which keeps the 10 rounds' integer work a quarter of the
// one-call-an-element form, below the memory time). Its counter is
// (g, r, Offset, 0) and its key (Seed, SeedHi); word k, w, becomes
// u = (w >> 8) * 2^-24, exact in f32. Distinct offsets give disjoint
// streams whatever the shapes. test/Kernels/dropout.test holds a Python
// Philox written from the paper that reproduces the executor's masks bit
// for bit.
//
// A Philox round on the counter (c0, c1, c2, c3) with key (k0, k1):
//   (hi0, lo0) = M0 * c0, (hi1, lo1) = M1 * c2   (64-bit products)
//   c = (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)
// with M0 = 0xD2511F53, M1 = 0xCD9E8D57; the key grows by the Weyl
// constants (0x9E3779B9, 0xBB67AE85) between rounds. The high halves are
// tile.mulhiu (mul.hi.u32 on the GPU), the low ones arith.muli.
//
// Parameters: ROWS (rows per block), DTYPE (f16, bf16, f32).
// Arguments: X [M, N], Y [M, N], P (f32 drop probability in [0, 1]),
// Seed, SeedHi, Offset (i32). Grid: [cdiv(M, ROWS), cdiv(N, 512)]: a block
// does ROWS x 512 elements.

func.func @dropout(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
    %p: f32 {tile.name = "P"},
    %seed: i32 {tile.name = "Seed"},
    %seed_hi: i32 {tile.name = "SeedHi"},
    %offset: i32 {tile.name = "Offset"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(X.0, ROWS)", "cdiv(X.1, 512)", "1"],
                     requires = ["Y.0 == X.0 && Y.1 == X.1"]},
      tile.params = {ROWS = 16 : i32, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %c128 = arith.constant 128 : i32
  %c512 = arith.constant 512 : i32
  %one = arith.constant 1.0 : f32
  %rows = tile.param "ROWS" : i32
  %bx = tile.block_id x
  %by = tile.block_id y

  // The counter of every element of the first quarter: (g, r, Offset, 0).
  %g_iota = tile.iota shape [ROWS, 128] dim 1 : tensor<?x128xi32>
  %g0 = arith.muli %by, %c128 : i32
  %g0_t = tile.splat %g0 shape [ROWS, 128] : i32 -> tensor<?x128xi32>
  %ctr0 = arith.addi %g_iota, %g0_t : tensor<?x128xi32>
  %r_iota = tile.iota shape [ROWS, 128] dim 0 : tensor<?x128xi32>
  %r0 = arith.muli %bx, %rows : i32
  %r0_t = tile.splat %r0 shape [ROWS, 128] : i32 -> tensor<?x128xi32>
  %ctr1 = arith.addi %r_iota, %r0_t : tensor<?x128xi32>
  %ctr2 = tile.splat %offset shape [ROWS, 128] : i32 -> tensor<?x128xi32>
  %ctr3 = tile.full 0 shape [ROWS, 128] : tensor<?x128xi32>

  // Philox4x32-10: ten rounds, the key bumped after each (the bump after
  // the tenth is unused).
  %m0 = tile.full -766435501 shape [ROWS, 128] : tensor<?x128xi32>  // 0xD2511F53
  %m1 = tile.full -845247145 shape [ROWS, 128] : tensor<?x128xi32>  // 0xCD9E8D57
  %w0 = arith.constant -1640531527 : i32  // 0x9E3779B9
  %w1 = arith.constant -1150833019 : i32  // 0xBB67AE85
  %w:6 = scf.for %round = %c0 to %c10 step %c1
      iter_args(%a = %ctr0, %b = %ctr1, %c = %ctr2, %d = %ctr3,
                %k0 = %seed, %k1 = %seed_hi)
      -> (tensor<?x128xi32>, tensor<?x128xi32>, tensor<?x128xi32>,
          tensor<?x128xi32>, i32, i32) : i32 {
    %hi0 = tile.mulhiu %m0, %a : tensor<?x128xi32>
    %lo0 = arith.muli %m0, %a : tensor<?x128xi32>
    %hi1 = tile.mulhiu %m1, %c : tensor<?x128xi32>
    %lo1 = arith.muli %m1, %c : tensor<?x128xi32>
    %k0_t = tile.splat %k0 shape [ROWS, 128] : i32 -> tensor<?x128xi32>
    %k1_t = tile.splat %k1 shape [ROWS, 128] : i32 -> tensor<?x128xi32>
    %x0 = arith.xori %hi1, %b : tensor<?x128xi32>
    %n0 = arith.xori %x0, %k0_t : tensor<?x128xi32>
    %x2 = arith.xori %hi0, %d : tensor<?x128xi32>
    %n2 = arith.xori %x2, %k1_t : tensor<?x128xi32>
    %k0n = arith.addi %k0, %w0 : i32
    %k1n = arith.addi %k1, %w1 : i32
    scf.yield %n0, %lo1, %n2, %lo0, %k0n, %k1n
        : tensor<?x128xi32>, tensor<?x128xi32>, tensor<?x128xi32>,
          tensor<?x128xi32>, i32, i32
  }

  // keep iff (w >> 8) * 2^-24 < 1 - P; the kept values scale by 1 / (1 - P).
  %keep_prob = arith.subf %one, %p : f32
  %scale = arith.divf %one, %keep_prob : f32
  %keep_prob_t = tile.splat %keep_prob shape [ROWS, 128] : f32 -> tensor<?x128xf32>
  %scale_t = tile.splat %scale shape [ROWS, 128] : f32 -> tensor<?x128xf32>
  %eight = tile.full 8 shape [ROWS, 128] : tensor<?x128xi32>
  %ulp = tile.full 5.9604644775390625e-08 shape [ROWS, 128] : tensor<?x128xf32>
  %zero_t = tile.full 0.0 shape [ROWS, 128] : tensor<?x128xf32>
  %col_base = arith.muli %by, %c512 : i32

  // Quarter 0: columns 512 by + 0 .. + 127, word 0.
  %bits0 = arith.shrui %w#0, %eight : tensor<?x128xi32>
  %bits_f0 = arith.uitofp %bits0 : tensor<?x128xi32> to tensor<?x128xf32>
  %u0 = arith.mulf %bits_f0, %ulp : tensor<?x128xf32>
  %keep0 = arith.cmpf olt, %u0, %keep_prob_t : tensor<?x128xf32>
  %kcol0 = arith.constant 0 : i32
  %col0 = arith.addi %col_base, %kcol0 : i32
  %x_lp0 = tile.load %X at [%r0, %col0] shape [ROWS, 128]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x128x!tile.dtype<"DTYPE">>
  %x0 = tile.astype %x_lp0 : tensor<?x128x!tile.dtype<"DTYPE">> -> tensor<?x128xf32>
  %xs0 = arith.mulf %x0, %scale_t : tensor<?x128xf32>
  %y0 = tile.select %keep0, %xs0, %zero_t : tensor<?x128xi1>, tensor<?x128xf32>
  %y_lp0 = tile.astype %y0 : tensor<?x128xf32> -> tensor<?x128x!tile.dtype<"DTYPE">>
  tile.store %y_lp0, %Y at [%r0, %col0]
      : tensor<?x128x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>

  // Quarter 1: columns 512 by + 128 .. + 127, word 1.
  %bits1 = arith.shrui %w#1, %eight : tensor<?x128xi32>
  %bits_f1 = arith.uitofp %bits1 : tensor<?x128xi32> to tensor<?x128xf32>
  %u1 = arith.mulf %bits_f1, %ulp : tensor<?x128xf32>
  %keep1 = arith.cmpf olt, %u1, %keep_prob_t : tensor<?x128xf32>
  %kcol1 = arith.constant 128 : i32
  %col1 = arith.addi %col_base, %kcol1 : i32
  %x_lp1 = tile.load %X at [%r0, %col1] shape [ROWS, 128]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x128x!tile.dtype<"DTYPE">>
  %x1 = tile.astype %x_lp1 : tensor<?x128x!tile.dtype<"DTYPE">> -> tensor<?x128xf32>
  %xs1 = arith.mulf %x1, %scale_t : tensor<?x128xf32>
  %y1 = tile.select %keep1, %xs1, %zero_t : tensor<?x128xi1>, tensor<?x128xf32>
  %y_lp1 = tile.astype %y1 : tensor<?x128xf32> -> tensor<?x128x!tile.dtype<"DTYPE">>
  tile.store %y_lp1, %Y at [%r0, %col1]
      : tensor<?x128x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>

  // Quarter 2: columns 512 by + 256 .. + 127, word 2.
  %bits2 = arith.shrui %w#2, %eight : tensor<?x128xi32>
  %bits_f2 = arith.uitofp %bits2 : tensor<?x128xi32> to tensor<?x128xf32>
  %u2 = arith.mulf %bits_f2, %ulp : tensor<?x128xf32>
  %keep2 = arith.cmpf olt, %u2, %keep_prob_t : tensor<?x128xf32>
  %kcol2 = arith.constant 256 : i32
  %col2 = arith.addi %col_base, %kcol2 : i32
  %x_lp2 = tile.load %X at [%r0, %col2] shape [ROWS, 128]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x128x!tile.dtype<"DTYPE">>
  %x2 = tile.astype %x_lp2 : tensor<?x128x!tile.dtype<"DTYPE">> -> tensor<?x128xf32>
  %xs2 = arith.mulf %x2, %scale_t : tensor<?x128xf32>
  %y2 = tile.select %keep2, %xs2, %zero_t : tensor<?x128xi1>, tensor<?x128xf32>
  %y_lp2 = tile.astype %y2 : tensor<?x128xf32> -> tensor<?x128x!tile.dtype<"DTYPE">>
  tile.store %y_lp2, %Y at [%r0, %col2]
      : tensor<?x128x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>

  // Quarter 3: columns 512 by + 384 .. + 127, word 3.
  %bits3 = arith.shrui %w#3, %eight : tensor<?x128xi32>
  %bits_f3 = arith.uitofp %bits3 : tensor<?x128xi32> to tensor<?x128xf32>
  %u3 = arith.mulf %bits_f3, %ulp : tensor<?x128xf32>
  %keep3 = arith.cmpf olt, %u3, %keep_prob_t : tensor<?x128xf32>
  %kcol3 = arith.constant 384 : i32
  %col3 = arith.addi %col_base, %kcol3 : i32
  %x_lp3 = tile.load %X at [%r0, %col3] shape [ROWS, 128]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x128x!tile.dtype<"DTYPE">>
  %x3 = tile.astype %x_lp3 : tensor<?x128x!tile.dtype<"DTYPE">> -> tensor<?x128xf32>
  %xs3 = arith.mulf %x3, %scale_t : tensor<?x128xf32>
  %y3 = tile.select %keep3, %xs3, %zero_t : tensor<?x128xi1>, tensor<?x128xf32>
  %y_lp3 = tile.astype %y3 : tensor<?x128xf32> -> tensor<?x128x!tile.dtype<"DTYPE">>
  tile.store %y_lp3, %Y at [%r0, %col3]
      : tensor<?x128x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}
