//===- TestRegisterMove.cpp - simulate layout conversions on the host -----===//
//
// -test-tilegpu-register-move: for every func.func with two tile arguments
// (source and destination types; a `test.permutation` array makes it a
// tile.permute), prints the RegisterMove that the conversion, reshape or
// permute lowering would emit and runs it on the host for every thread of
// the block: each thread writes its source elements (their destination
// row-major index) at the scratch offsets the lowering uses, and reads its
// destination elements back. Errors name the thread and register when a
// read gets the wrong element, two elements share an offset, an offset
// leaves the scratch area, a vector access is not contiguous and aligned,
// or the per-thread base plus immediate form (splitsByThread) computes
// another offset than the full index; for a warp-local move, when a warp
// reads or writes a scratch element another warp touches.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

int64_t evalTerm(const ThreadTerm &term, unsigned lane, unsigned warp) {
  unsigned id = term.isWarp ? warp : lane;
  return static_cast<int64_t>((id / term.div) % term.mod) * term.mul;
}

/// The index (sum of coordinate * stride) of register `reg` of a thread,
/// and of its thread part alone.
std::pair<int64_t, int64_t> indexOf(const RegisterLayout &layout,
                                    ArrayRef<int64_t> strides, int64_t reg,
                                    unsigned lane, unsigned warp) {
  int64_t thread = 0, full = 0;
  for (auto [d, terms] : llvm::enumerate(layout.threadTerms)) {
    int64_t t = 0;
    for (const ThreadTerm &term : terms)
      t += evalTerm(term, lane, warp);
    thread += t * strides[d];
    full += (t + layout.regCoords[reg][d]) * strides[d];
  }
  return {full, thread};
}

LogicalResult simulate(raw_ostream &os, const RegisterMove &move,
                       function_ref<InFlightDiagnostic()> emitError) {
  static constexpr const char *kKinds[] = {"none", "permutation", "shared"};
  os << "move " << kKinds[move.kind];
  if (move.kind == RegisterMove::Shared)
    os << ", rows of " << move.rowSize << " + pad " << move.pad << ", write "
       << move.writeVec << ", read " << move.readVec << ", " << move.bytes
       << " bytes" << (move.warpLocal ? ", warp-local" : "");
  os << "\n";
  unsigned warps = move.src.numWarps;
  LinearMap from = getStridedLinearMap(move.src, move.srcStrides);
  LinearMap to = getStridedLinearMap(move.dst, move.dstStrides);
  int64_t threads = 0;
  for (unsigned warp = 0; warp < warps; ++warp) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane, ++threads) {
      auto where = [&](StringRef side, int64_t reg) {
        return emitError() << "warp " << warp << " lane " << lane << " " << side
                           << " register " << reg << ": ";
      };
      if (move.kind != RegisterMove::Shared) {
        for (int64_t r = 0; r < move.dst.getNumRegs(); ++r) {
          int64_t source =
              move.kind == RegisterMove::None ? r : move.shuffle[r];
          if (indexOf(move.dst, move.dstStrides, r, lane, warp).first !=
              indexOf(move.src, move.srcStrides, source, lane, warp).first)
            return where("destination", r) << "holds another element";
        }
        continue;
      }
    }
  }
  if (move.kind != RegisterMove::Shared) {
    os << "verified " << threads << " threads\n";
    return success();
  }
  // Every thread writes, then every thread reads (the barrier between).
  int64_t slots = move.bytes / move.elementBytes;
  SmallVector<int64_t> memory(slots, -1);
  SmallVector<int> warpOf(slots, -1); // the warp that wrote each slot
  auto access = [&](const RegisterLayout &layout, ArrayRef<int64_t> strides,
                    const LinearMap &map, unsigned vec, bool write,
                    StringRef side) -> LogicalResult {
    bool split = move.splitsByThread(map);
    for (unsigned warp = 0; warp < warps; ++warp)
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        for (int64_t r = 0; r < layout.getNumRegs(); ++r) {
          auto [index, thread] = indexOf(layout, strides, r, lane, warp);
          int64_t offset = move.offset(index);
          auto fail = [&]() {
            return emitError() << "warp " << warp << " lane " << lane << " "
                               << side << " register " << r << " (index "
                               << index << ", offset " << offset << "): ";
          };
          if (split && offset != move.offset(thread) + move.offset(map.regs[r]))
            return fail() << "the base + immediate form gives another offset";
          if (offset < 0 || offset >= slots)
            return fail() << "outside the " << move.bytes
                          << " bytes of scratch";
          if (r % vec == 0
                  ? offset % vec != 0
                  : offset !=
                        move.offset(
                            indexOf(layout, strides, r - 1, lane, warp).first) +
                            1)
            return fail() << "breaks a " << vec << "-element vector";
          if (write) {
            if (memory[offset] != -1 && memory[offset] != index)
              return fail() << "overwrites element " << memory[offset];
            if (move.warpLocal && warpOf[offset] != -1 &&
                warpOf[offset] != static_cast<int>(warp))
              return fail() << "writes where warp " << warpOf[offset]
                            << " writes in a warp-local move";
            memory[offset] = index;
            warpOf[offset] = static_cast<int>(warp);
          } else if (memory[offset] != index) {
            return fail() << "reads element " << memory[offset];
          } else if (move.warpLocal &&
                     warpOf[offset] != static_cast<int>(warp)) {
            return fail() << "reads what warp " << warpOf[offset]
                          << " wrote in a warp-local move";
          }
        }
    return success();
  };
  if (failed(access(move.src, move.srcStrides, from, move.writeVec, true,
                    "source")) ||
      failed(access(move.dst, move.dstStrides, to, move.readVec, false,
                    "destination")))
    return failure();
  os << "verified " << threads << " threads\n";
  return success();
}

struct TestTileGPURegisterMovePass
    : public PassWrapper<TestTileGPURegisterMovePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTileGPURegisterMovePass)

  StringRef getArgument() const final { return "test-tilegpu-register-move"; }
  StringRef getDescription() const final {
    return "Simulate the register moves of layout conversions on the host "
           "(test only)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TileGPUDialect>();
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      auto emitError = [&] { return func.emitError(); };
      if (func.getNumArguments() != 2) {
        emitError() << "expects two tile arguments: source and destination";
        return signalPassFailure();
      }
      auto src = dyn_cast<RankedTensorType>(func.getArgumentTypes()[0]);
      auto dst = dyn_cast<RankedTensorType>(func.getArgumentTypes()[1]);
      SmallVector<int64_t> perm;
      if (auto attr =
              func->getAttrOfType<DenseI64ArrayAttr>("test.permutation"))
        perm.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
      os << "@" << func.getName() << ": ";
      FailureOr<RegisterMove> move = failure();
      if (src && dst)
        move = getRegisterMove(src, dst, perm);
      if (failed(move)) {
        emitError() << "no register move between these tile types";
        return signalPassFailure();
      }
      if (failed(simulate(os, *move, emitError)))
        return signalPassFailure();
    }
  }
};

} // namespace

namespace mlir {
namespace tile {
namespace test {
void registerTestTileGPURegisterMovePass() {
  PassRegistration<TestTileGPURegisterMovePass>();
}
} // namespace test
} // namespace tile
} // namespace mlir
