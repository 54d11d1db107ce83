// Verifier errors of the pipeline synchronization ops.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{an mbarrier group holds 1 to 64 barriers, got 0}}
func.func @empty_group(%b: !tilegpu.mbarrier<0>) {
  return
}

// -----

func.func @arrivals(%b: !tilegpu.mbarrier<2>) {
  // expected-error @+1 {{arrivals must be in [1, 2^20 - 1], got 0}}
  tilegpu.mbarrier_init %b arrivals 0 : !tilegpu.mbarrier<2>
  return
}

// -----

func.func @barrier_id() {
  // expected-error @+1 {{barrier id must be in [0, 15], got 16}}
  tilegpu.named_barrier 16, 256
  return
}

// -----

func.func @barrier_id_negative() {
  // expected-error @+1 {{barrier id must be in [0, 15], got -1}}
  tilegpu.named_barrier -1, 256
  return
}

// -----

func.func @barrier_threads() {
  // expected-error @+1 {{threads must be a positive multiple of 32, got 100}}
  tilegpu.named_barrier 1, 100
  return
}

// -----

func.func @barrier_threads_negative() {
  // expected-error @+1 {{threads must be a positive multiple of 32, got -32}}
  tilegpu.named_barrier 1, -32
  return
}

// -----

func.func @regs() {
  // expected-error @+1 {{register counts must be multiples of 8 in [24, 256] (setmaxnreg), got 20}}
  tilegpu.warp_specialize producer(warps = 4, regs = 20) {
    tilegpu.named_barrier 2, 128
  } consumers(warps = 8, regs = 232) {
    tilegpu.named_barrier 1, 256
  }
  return
}

// -----

func.func @warpgroups() {
  // expected-error @+1 {{each role needs whole warpgroups (a positive multiple of 4 warps), got 2}}
  tilegpu.warp_specialize producer(warps = 2, regs = 40) {
    tilegpu.named_barrier 2, 64
  } consumers(warps = 8, regs = 232) {
    tilegpu.named_barrier 1, 256
  }
  return
}

// -----

func.func @too_many_registers() {
  // expected-error @+1 {{the roles need 68608 registers; an SM has 65536}}
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.named_barrier 2, 128
  } consumers(warps = 8, regs = 248) {
    tilegpu.named_barrier 1, 256
  }
  return
}
