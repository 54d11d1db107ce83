//===- TestPasses.cpp - registration of the test-only passes --------------===//
//
// tile-opt registers the passes of test/lib through registerTestPasses(),
// as mlir-opt does with upstream's test passes.
//
//===----------------------------------------------------------------------===//

namespace mlir {
namespace tile {
namespace test {

void registerTestTileGPULayoutMapPass();
void registerTestTileGPURegisterMovePass();

void registerTestPasses() {
  registerTestTileGPULayoutMapPass();
  registerTestTileGPURegisterMovePass();
}

} // namespace test
} // namespace tile
} // namespace mlir
