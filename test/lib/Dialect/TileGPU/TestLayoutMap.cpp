//===- TestLayoutMap.cpp - print the index maps of tilegpu layouts --------===//
//
// -test-tilegpu-layout-map: for every argument of every func.func whose type
// is a 1-d or 2-d tile with a register layout (#tilegpu.mma, #tilegpu.blocked,
// #tilegpu.slice) or a
// shared buffer (#tilegpu.shared), prints the layout's index map as a table
// that lit tests compare with tables computed by hand from the PTX ISA:
//
//   register layouts (getRegisterLayout): one line per tile row, one cell
//   per element listing every `warp.lane.register` that holds it
//   (replicated elements have several, joined by `/`);
//   shared layouts (getSharedOffset): one line per tile row, the element
//   offset of each element from the tile's base.
//
// It also fails with an error when a thread's register lies outside the
// tile, when no thread holds an element, or when two elements of a shared
// tile share an offset: things a correct map never does.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// `((id / div) % mod) * mul` of one thread term.
int64_t evalTerm(const ThreadTerm &term, unsigned lane, unsigned warp) {
  unsigned id = term.isWarp ? warp : lane;
  return static_cast<int64_t>((id / term.div) % term.mod) * term.mul;
}

LogicalResult printRegisterMap(raw_ostream &os, RankedTensorType type,
                               function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<RegisterLayout> layout =
      getRegisterLayout(type.getEncoding(), type.getShape(), emitError);
  if (failed(layout))
    return failure();
  // A 1-d tile prints as one row.
  if (type.getRank() != 1 && type.getRank() != 2)
    return emitError() << "prints 1-d and 2-d tiles only";
  bool oneD = type.getRank() == 1;
  SmallVector<int64_t> shape(type.getShape());
  if (oneD)
    shape.insert(shape.begin(), 1);
  os << "registers " << layout->getNumRegs() << ", warps " << layout->numWarps
     << ", lane bits 0x"
     << llvm::utohexstr(layout->usedLaneBits, /*LowerCase=*/true)
     << ", warp bits 0x"
     << llvm::utohexstr(layout->usedWarpBits, /*LowerCase=*/true) << "\n";

  // owners[i][j]: every warp.lane.register holding element (i, j), in
  // (warp, lane, register) order.
  SmallVector<SmallVector<SmallVector<std::string>>> owners(
      shape[0], SmallVector<SmallVector<std::string>>(shape[1]));
  for (unsigned warp = 0; warp < layout->numWarps; ++warp) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (int64_t reg = 0; reg < layout->getNumRegs(); ++reg) {
        SmallVector<int64_t, 2> coord(layout->regCoords[reg]);
        for (auto [d, terms] : llvm::enumerate(layout->threadTerms))
          for (const ThreadTerm &term : terms)
            coord[d] += evalTerm(term, lane, warp);
        if (oneD)
          coord.insert(coord.begin(), 0);
        if (coord[0] < 0 || coord[0] >= shape[0] || coord[1] < 0 ||
            coord[1] >= shape[1])
          return emitError() << "warp " << warp << " lane " << lane
                             << " register " << reg << " holds (" << coord[0]
                             << ", " << coord[1] << "), outside the tile";
        owners[coord[0]][coord[1]].push_back(
            llvm::formatv("{0}.{1}.{2}", warp, lane, reg));
      }
    }
  }
  for (int64_t i = 0; i < shape[0]; ++i) {
    os << "  row " << i << ":";
    for (int64_t j = 0; j < shape[1]; ++j) {
      if (owners[i][j].empty())
        return emitError() << "no thread holds element (" << i << ", " << j
                           << ")";
      os << " " << llvm::join(owners[i][j], "/");
    }
    os << "\n";
  }
  return success();
}

LogicalResult printSharedMap(raw_ostream &os, SharedBufferType type,
                             function_ref<InFlightDiagnostic()> emitError) {
  auto layout = cast<SharedLayoutAttr>(type.getLayout());
  ArrayRef<int64_t> shape = type.getTileShape();
  int64_t elementBits = type.getElementType().getIntOrFloatBitWidth();
  int64_t span = type.getTileBytes() * 8 / elementBits;
  os << "elements " << shape[0] * shape[1] << ", span " << span << "\n";
  llvm::DenseSet<int64_t> seen;
  for (int64_t i = 0; i < shape[0]; ++i) {
    os << "  row " << i << ":";
    for (int64_t j = 0; j < shape[1]; ++j) {
      int64_t offset = getSharedOffset(layout, shape, i, j);
      if (offset < 0 || offset >= span || !seen.insert(offset).second)
        return emitError() << "element (" << i << ", " << j << ") at offset "
                           << offset
                           << " is outside the tile or shares its offset";
      os << " " << offset;
    }
    os << "\n";
  }
  return success();
}

struct TestTileGPULayoutMapPass
    : public PassWrapper<TestTileGPULayoutMapPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTileGPULayoutMapPass)

  StringRef getArgument() const final { return "test-tilegpu-layout-map"; }
  StringRef getDescription() const final {
    return "Print the index maps of the tilegpu layouts of function "
           "arguments (test only)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TileGPUDialect>();
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        Location loc = func.getArgument(i).getLoc();
        auto emitError = [&] { return mlir::emitError(loc); };
        os << "@" << func.getName() << " arg" << i << ": " << type << "\n";
        LogicalResult result = success();
        if (auto tensor = dyn_cast<RankedTensorType>(type))
          result = printRegisterMap(os, tensor, emitError);
        else if (auto buffer = dyn_cast<SharedBufferType>(type))
          result = printSharedMap(os, buffer, emitError);
        if (failed(result))
          return signalPassFailure();
      }
    }
  }
};

} // namespace

namespace mlir {
namespace tile {
namespace test {
void registerTestTileGPULayoutMapPass() {
  PassRegistration<TestTileGPULayoutMapPass>();
}
} // namespace test
} // namespace tile
} // namespace mlir
