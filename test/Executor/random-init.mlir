// tile-exec's random initializer: random:SEED is uniform in [-1, 1) and equal
// to random:SEED:-1:1; random:SEED:LO:HI draws from [LO, HI); a bad range is
// refused.

// RUN: tile-exec %s --hex --arg='f32[64]=random:5' > %t.default
// RUN: tile-exec %s --hex --arg='f32[64]=random:5:-1:1' > %t.explicit
// RUN: cmp %t.default %t.explicit
// RUN: tile-exec %s --arg='f32[4]=random:5:10:12' | FileCheck %s --check-prefix=RANGE
// RANGE: In: {{1[01](\.[0-9]+)? 1[01](\.[0-9]+)? 1[01](\.[0-9]+)? 1[01](\.[0-9]+)?$}}
// RUN: tile-exec %s --arg='f32[4]=random:5:-1e-3:0' | FileCheck %s --check-prefix=SMALL
// SMALL: In: {{-0\.000[0-9]+ -0\.000[0-9]+ -0\.000[0-9]+ -0\.000[0-9]+$}}
// RUN: not tile-exec %s --arg='f32[4]=random:5:2:1' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-exec %s --arg='f32[4]=random:5:1' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-exec %s --arg='f32[4]=random:5:-inf:0' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: bad random initializer in '{{.*}}' (random:SEED or random:SEED:LO:HI with LO < HI)
func.func @nop(%In: !tile.view<?xf32> {tile.name = "In"}) {
  return
}
