// Memory that data decides, on the CPU reference executor: loads and stores
// at element offsets (`at`), scalars read from a view (tile.read) as loop
// bounds and offsets, gather and scatter by index tiles, atomics (tile and
// scalar, every kind), and the min / argmin / argmax reductions.

// Element offsets: the [2x4] tile at element (1, 3) of a [4x6] iota covers
// rows 1..2, columns 3..6; column 6 is outside and reads the padding (0).
// It is stored at element (1, 0) of a [3x5] view: its last column (4..7 of
// the view's 5) falls outside and is not written.
// RUN: tile-exec %s --kernel=at_offsets --arg='f32[4x6]=iota' \
// RUN:   --arg='f32[3x5]=fill:-1' --print=Out | FileCheck %s --check-prefix=AT
// AT:      Out[0]: -1 -1 -1 -1 -1
// AT-NEXT: Out[1]: 9 10 11 0 -1
// AT-NEXT: Out[2]: 15 16 17 0 -1
func.func @at_offsets(%In: !tile.view<?x?xf32> {tile.name = "In"},
                      %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %t = tile.load %In at [%c1, %c3] shape [2, 4] : !tile.view<?x?xf32> -> tensor<2x4xf32>
  tile.store %t, %Out at [%c1, %c0] : tensor<2x4xf32>, !tile.view<?x?xf32>
  return
}

// `at` with `order`: a transposed [3x2] tile at element (row 2, column 1) of
// the [4x6] iota: element (i, j) is In[2 + j, 1 + i].
// RUN: tile-exec %s --kernel=at_order --arg='f32[4x6]=iota' \
// RUN:   --arg='f32[3x2]=fill:-1' --print=Out | FileCheck %s --check-prefix=ATO
// ATO:      Out[0]: 13 19
// ATO-NEXT: Out[1]: 14 20
// ATO-NEXT: Out[2]: 15 21
func.func @at_order(%In: !tile.view<?x?xf32> {tile.name = "In"},
                    %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = tile.load %In at [%c1, %c2] shape [3, 2] order [1, 0]
      : !tile.view<?x?xf32> -> tensor<3x2xf32>
  tile.store %t, %Out[%c0, %c0] : tensor<3x2xf32>, !tile.view<?x?xf32>
  return
}

// tile.read: per block b, the rows Starts[b] .. Starts[b + 1] of X are
// summed (a varlen batch's cu_seqlens), one row at a time; a coordinate
// outside the view reads 0.
// RUN: tile-exec %s --kernel=varlen_sum --grid=3 --arg='i32[4]=values:0,1,4,4' \
// RUN:   --arg='f32[4x2]=iota' --arg='f32[3x2]=fill:-1' --arg='f32[1]=fill:-1' \
// RUN:   | FileCheck %s --check-prefix=READ
// READ:      Out[0]: 0 1
// READ-NEXT: Out[1]: 12 15
// READ-NEXT: Out[2]: 0 0
// READ:      Outside: 0
func.func @varlen_sum(%Starts: !tile.view<?xi32> {tile.name = "Starts"},
                      %X: !tile.view<?x?xf32> {tile.name = "X"},
                      %Out: !tile.view<?x?xf32> {tile.name = "Out"},
                      %Outside: !tile.view<?xf32> {tile.name = "Outside"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %b = tile.block_id x
  %b1 = arith.addi %b, %c1 : i32
  %start = tile.read %Starts[%b] : !tile.view<?xi32> -> i32
  %end = tile.read %Starts[%b1] : !tile.view<?xi32> -> i32
  %zero = tile.full 0.0 shape [1, 2] : tensor<1x2xf32>
  %sum = scf.for %r = %start to %end step %c1 iter_args(%acc = %zero)
      -> (tensor<1x2xf32>) : i32 {
    %row = tile.load %X at [%r, %c0] shape [1, 2] : !tile.view<?x?xf32> -> tensor<1x2xf32>
    %next = arith.addf %acc, %row : tensor<1x2xf32>
    scf.yield %next : tensor<1x2xf32>
  }
  tile.store %sum, %Out[%b, %c0] : tensor<1x2xf32>, !tile.view<?x?xf32>
  %bad = tile.read %X[%cm1, %c0] : !tile.view<?x?xf32> -> f32
  %bad_t = tile.splat %bad shape [1] : f32 -> tensor<1xf32>
  tile.store %bad_t, %Outside[%c0] : tensor<1xf32>, !tile.view<?xf32>
  return
}

// Gather: rows of a [5x3] table chosen by ids (one out of range, one
// negative, one masked off), columns by an iota. Row 1 is masked, row 2's
// id 7 and row 3's id -1 are outside: all three read the padding (-inf
// here).
// RUN: tile-exec %s --kernel=gather_rows --arg='f32[5x3]=iota' \
// RUN:   --arg='i32[4]=values:4,0,7,-1' --arg='f32[4x3]=fill:-2' \
// RUN:   --print=Out | FileCheck %s --check-prefix=GATHER
// GATHER:      Out[0]: 12 13 14
// GATHER-NEXT: Out[1]: -inf -inf -inf
// GATHER-NEXT: Out[2]: -inf -inf -inf
// GATHER-NEXT: Out[3]: -inf -inf -inf
func.func @gather_rows(%Table: !tile.view<?x?xf32> {tile.name = "Table"},
                       %Ids: !tile.view<?xi32> {tile.name = "Ids"},
                       %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %ids = tile.load %Ids[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %ids2 = tile.reshape %ids shape [4, 1] : tensor<4xi32> -> tensor<4x1xi32>
  %rows = tile.broadcast %ids2 shape [4, 3] : tensor<4x1xi32> -> tensor<4x3xi32>
  %cols = tile.iota shape [4, 3] dim 1 : tensor<4x3xi32>
  %r = tile.iota shape [4, 3] dim 0 : tensor<4x3xi32>
  %one = tile.full 1 shape [4, 3] : tensor<4x3xi32>
  %mask = arith.cmpi ne, %r, %one : tensor<4x3xi32>
  %g = tile.gather %Table[%rows, %cols] mask %mask : tensor<4x3xi1> padding neg_inf
      : !tile.view<?x?xf32>, tensor<4x3xi32>, tensor<4x3xi32> -> tensor<4x3xf32>
  tile.store %g, %Out[%c0, %c0] : tensor<4x3xf32>, !tile.view<?x?xf32>
  return
}

// Gather with i64 indices, f16 data, zero padding for an index past 2^32
// (it must not wrap into range).
// RUN: tile-exec %s --kernel=gather_i64 --arg='f16[4]=values:1.5,2.5,3.5,4.5' \
// RUN:   --arg='i64[3]=values:3,4294967296,0' --arg='f16[3]=fill:-1' \
// RUN:   --print=Out | FileCheck %s --check-prefix=G64
// G64: Out: 4.5 0 1.5
func.func @gather_i64(%X: !tile.view<?xf16> {tile.name = "X"},
                      %Idx: !tile.view<?xi64> {tile.name = "Idx"},
                      %Out: !tile.view<?xf16> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %i = tile.load %Idx[%c0] shape [3] : !tile.view<?xi64> -> tensor<3xi64>
  %g = tile.gather %X[%i] : !tile.view<?xf16>, tensor<3xi64> -> tensor<3xf16>
  tile.store %g, %Out[%c0] : tensor<3xf16>, !tile.view<?xf16>
  return
}

// Scatter: element k of Vals goes to Out[Dst[k]]; Dst 9 is outside, the
// masked element (k = 2) is not written.
// RUN: tile-exec %s --kernel=scatter --arg='f32[4]=values:10,20,30,40' \
// RUN:   --arg='i32[4]=values:3,9,0,1' --arg='f32[5]=fill:-1' \
// RUN:   --print=Out | FileCheck %s --check-prefix=SCATTER
// SCATTER: Out: -1 40 -1 10 -1
func.func @scatter(%Vals: !tile.view<?xf32> {tile.name = "Vals"},
                   %Dst: !tile.view<?xi32> {tile.name = "Dst"},
                   %Out: !tile.view<?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %v = tile.load %Vals[%c0] shape [4] : !tile.view<?xf32> -> tensor<4xf32>
  %d = tile.load %Dst[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %k = tile.iota shape [4] dim 0 : tensor<4xi32>
  %two = tile.full 2 shape [4] : tensor<4xi32>
  %keep = arith.cmpi ne, %k, %two : tensor<4xi32>
  tile.scatter %v, %Out[%d] mask %keep : tensor<4xi1>
      : tensor<4xf32>, !tile.view<?xf32>, tensor<4xi32>
  return
}

// Tile atomics: 6 blocks add their [2x2] tile into one place (split-K),
// with the old values returned; the masked-off element is left alone.
// Blocks run in order on the executor, so block 5 sees 5 earlier adds.
// RUN: tile-exec %s --kernel=atomic_add --grid=6 --arg='f32[2x2]=values:1,2,3,4' \
// RUN:   --arg='f32[2x2]=zeros' --arg='f32[2x2]=fill:-1' | FileCheck %s --check-prefix=ADD
// ADD:      Acc[0]: 6 12
// ADD-NEXT: Acc[1]: 18 0
// ADD:      Last[0]: 5 10
// ADD-NEXT: Last[1]: 15 0
func.func @atomic_add(%X: !tile.view<?x?xf32> {tile.name = "X"},
                      %Acc: !tile.view<?x?xf32> {tile.name = "Acc"},
                      %Last: !tile.view<?x?xf32> {tile.name = "Last"}) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %X[%c0, %c0] shape [2, 2] : !tile.view<?x?xf32> -> tensor<2x2xf32>
  %r = tile.iota shape [2, 2] dim 0 : tensor<2x2xi32>
  %c = tile.iota shape [2, 2] dim 1 : tensor<2x2xi32>
  %rc = arith.addi %r, %c : tensor<2x2xi32>
  %two = tile.full 2 shape [2, 2] : tensor<2x2xi32>
  %keep = arith.cmpi ne, %rc, %two : tensor<2x2xi32>
  %old = tile.atomic add %x, %Acc[%c0, %c0] mask %keep : tensor<2x2xi1>
      : tensor<2x2xf32>, !tile.view<?x?xf32> -> tensor<2x2xf32>
  tile.store %old, %Last[%c0, %c0] : tensor<2x2xf32>, !tile.view<?x?xf32>
  return
}

// max, min, xchg and cas on i32, at element offsets (`at`), from 3 blocks
// in order: block b combines b + 1 (max, min), swaps in 10 * b (xchg) and
// swaps in 7 where the element equals b (cas: only block 0's compare
// succeeds).
// RUN: tile-exec %s --kernel=atomic_kinds --grid=3 --arg='i32[4]=values:2,2,0,0' \
// RUN:   | FileCheck %s --check-prefix=KINDS
// KINDS: V: 3 1 20 7
func.func @atomic_kinds(%V: !tile.view<?xi32> {tile.name = "V"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %c7 = arith.constant 7 : i32
  %b = tile.block_id x
  %b1 = arith.addi %b, %c1 : i32
  %v = tile.splat %b1 shape [1] : i32 -> tensor<1xi32>
  tile.atomic max %v, %V at [%c0] : tensor<1xi32>, !tile.view<?xi32>
  tile.atomic min %v, %V at [%c1] : tensor<1xi32>, !tile.view<?xi32>
  %tb = arith.muli %b, %c10 : i32
  %t = tile.splat %tb shape [1] : i32 -> tensor<1xi32>
  tile.atomic xchg %t, %V at [%c2] : tensor<1xi32>, !tile.view<?xi32>
  %seven = tile.splat %c7 shape [1] : i32 -> tensor<1xi32>
  %bt = tile.splat %b shape [1] : i32 -> tensor<1xi32>
  tile.atomic cas %seven, %V at [%c3] compare %bt : tensor<1xi32>
      : tensor<1xi32>, !tile.view<?xi32>
  return
}

// Scalar atomics: a ticket taken with add (each block gets its turn
// number) and a lock taken with cas/acquire and released with
// xchg/release around a critical section.
// RUN: tile-exec %s --kernel=ticket --grid=4 --arg='i32[2]=zeros' \
// RUN:   --arg='i32[4]=fill:-1' | FileCheck %s --check-prefix=TICKET
// TICKET:      State: 4 0
// TICKET-NEXT: Turn: 0 1 2 3
func.func @ticket(%State: !tile.view<?xi32> {tile.name = "State"},
                  %Turn: !tile.view<?xi32> {tile.name = "Turn"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tile.block_id x
  %taken = tile.atomic cas %c1, %State[%c1] compare %c0 : i32 sem acquire
      : i32, !tile.view<?xi32> -> i32
  %turn = tile.atomic add %c1, %State[%c0] : i32, !tile.view<?xi32> -> i32
  %t = tile.splat %turn shape [1] : i32 -> tensor<1xi32>
  tile.store %t, %Turn at [%b] : tensor<1xi32>, !tile.view<?xi32>
  %was = tile.atomic xchg %c0, %State[%c1] sem release : i32, !tile.view<?xi32> -> i32
  return
}

// f16 and bf16 adds round in their own type; f32 max/min ignore NaN
// (maxNum, as the GPU's).
// RUN: tile-exec %s --kernel=atomic_types --grid=2 \
// RUN:   --arg='f16[2]=values:2048,1' --arg='bf16[1]=values:1' \
// RUN:   --arg='f32[2]=values:nan,5' | FileCheck %s --check-prefix=TYPES
// TYPES:      H: 2048 3
// TYPES-NEXT: B: 3
// TYPES-NEXT: F: 5 4
func.func @atomic_types(%H: !tile.view<?xf16> {tile.name = "H"},
                        %B: !tile.view<?xbf16> {tile.name = "B"},
                        %F: !tile.view<?xf32> {tile.name = "F"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f16
  %oneb = arith.constant 1.0 : bf16
  %five = arith.constant 5.0 : f32
  %four = arith.constant 4.0 : f32
  tile.atomic add %one, %H[%c0] : f16, !tile.view<?xf16>
  tile.atomic add %one, %H[%c1] : f16, !tile.view<?xf16>
  tile.atomic add %oneb, %B[%c0] : bf16, !tile.view<?xbf16>
  tile.atomic max %five, %F[%c0] : f32, !tile.view<?xf32>
  tile.atomic min %four, %F[%c1] : f32, !tile.view<?xf32>
  return
}

// Reductions: min, argmin, argmax along either axis, ties to the lowest
// index, NaN wins (its first index), as torch. Idx row 2 holds the first
// three of the four column argmins (the fourth is outside the view).
// RUN: tile-exec %s --kernel=arg_reduce --arg='f32[3x4]=values:1,5,5,0,-2,7,-2,7,3,nan,9,nan' \
// RUN:   --arg='i32[3x3]=fill:-1' --arg='f32[2x4]=fill:-1' | FileCheck %s --check-prefix=ARG
// ARG:      Idx[0]: 1 1 1
// ARG-NEXT: Idx[1]: 3 0 1
// ARG-NEXT: Idx[2]: 1 2 1
// ARG:      Vals[0]: 0 -2 nan -1
// ARG-NEXT: Vals[1]: -2 nan -2 nan
func.func @arg_reduce(%X: !tile.view<?x?xf32> {tile.name = "X"},
                      %Idx: !tile.view<?x?xi32> {tile.name = "Idx"},
                      %Vals: !tile.view<?x?xf32> {tile.name = "Vals"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %x = tile.load %X[%c0, %c0] shape [3, 4] : !tile.view<?x?xf32> -> tensor<3x4xf32>
  %amax = tile.reduce %x argmax axis 1 : tensor<3x4xf32> -> tensor<3xi32>
  %amin = tile.reduce %x argmin axis 1 : tensor<3x4xf32> -> tensor<3xi32>
  %amin0 = tile.reduce %x argmin axis 0 keepdims : tensor<3x4xf32> -> tensor<1x4xi32>
  %amax2 = tile.reshape %amax shape [1, 3] : tensor<3xi32> -> tensor<1x3xi32>
  %amin2 = tile.reshape %amin shape [1, 3] : tensor<3xi32> -> tensor<1x3xi32>
  tile.store %amax2, %Idx[%c0, %c0] : tensor<1x3xi32>, !tile.view<?x?xi32>
  tile.store %amin2, %Idx[%c1, %c0] : tensor<1x3xi32>, !tile.view<?x?xi32>
  tile.store %amin0, %Idx at [%c2, %c0] : tensor<1x4xi32>, !tile.view<?x?xi32>
  %m = tile.reduce %x min axis 1 : tensor<3x4xf32> -> tensor<3xf32>
  %m2 = tile.reshape %m shape [1, 3] : tensor<3xf32> -> tensor<1x3xf32>
  tile.store %m2, %Vals[%c0, %c0] : tensor<1x3xf32>, !tile.view<?x?xf32>
  %mc = tile.reduce %x min axis 0 keepdims : tensor<3x4xf32> -> tensor<1x4xf32>
  tile.store %mc, %Vals[%c1, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  return
}

// Integer min and argmax; an i8 argmin.
// RUN: tile-exec %s --kernel=int_reduce --arg='i32[4]=values:4,-9,4,2' \
// RUN:   --arg='i8[4]=values:3,-1,-1,7' --arg='i32[3]=fill:-1' | FileCheck %s --check-prefix=INT
// INT: Out: -9 0 1
func.func @int_reduce(%X: !tile.view<?xi32> {tile.name = "X"},
                      %Y: !tile.view<?xi8> {tile.name = "Y"},
                      %Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %X[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %y = tile.load %Y[%c0] shape [4] : !tile.view<?xi8> -> tensor<4xi8>
  %m = tile.reduce %x min axis 0 keepdims : tensor<4xi32> -> tensor<1xi32>
  %a = tile.reduce %x argmax axis 0 keepdims : tensor<4xi32> -> tensor<1xi32>
  %b = tile.reduce %y argmin axis 0 keepdims : tensor<4xi8> -> tensor<1xi32>
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  tile.store %m, %Out at [%c0] : tensor<1xi32>, !tile.view<?xi32>
  tile.store %a, %Out at [%c1] : tensor<1xi32>, !tile.view<?xi32>
  tile.store %b, %Out at [%c2] : tensor<1xi32>, !tile.view<?xi32>
  return
}
