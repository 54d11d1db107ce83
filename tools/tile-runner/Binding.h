//===- Binding.h - the arguments of a run, bound by name --------*- C++ -*-===//
//
// What a run binds to each argument of the kernel's ABI: for a view, its
// dtype and shape and where its data comes from (seeded random, a .npy file,
// zeros; outputs are poisoned before the launch), for a scalar its value.
// A problem (Problem.h) derives default bindings from a few sizes; the
// command line overrides them by name (--arg):
//   --arg X=f16[4096,1024]   a view: dtype and shape, random seeded input
//   --arg X=@x.npy           a view read from a .npy file (shape from it)
//   --arg eps=1e-5           a scalar
// and `--save Y=y.npy` writes a view after the run. Also the memory a run
// needs, estimated before anything is allocated. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_BINDING_H
#define TILE_RUNNER_BINDING_H

#include "Tensor.h"

#include "tile/Bundle/Launch.h"
#include "tile/Bundle/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace tile {
namespace runner {

using tilebundle::Access;
using tilebundle::LaunchBinding;
using tilebundle::Manifest;
using tilebundle::ScalarBinding;

/// One view argument of a run.
struct TensorArg {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  Access access = Access::Read; ///< from the ABI
  enum class Init { Random, File, Zeros } init = Init::Random;
  std::string file;  ///< Init::File
  double stddev = 1; ///< Init::Random
  int stream = 0;    ///< Init::Random: the generator stream (ABI index)
  int64_t elements() const;
  int64_t bytes() const;
  /// Written by the kernel and not read: poisoned before a launch.
  bool poisoned() const { return access == Access::Write; }
  bool written() const { return tilebundle::isWritten(access); }
  /// "f16[4096, 1024]"
  std::string str() const;
};

/// All arguments of a run, views in ABI order.
struct RunSpec {
  std::vector<TensorArg> tensors;
  std::map<std::string, ScalarBinding> scalars;
  uint64_t seed = 1;
  TensorArg *find(const std::string &name);
  const TensorArg *find(const std::string &name) const;
  /// Bytes of all views.
  int64_t tensorBytes() const;
  /// The binding the launch ABI takes; `addresses` by name (0 when absent).
  LaunchBinding
  launchBinding(const std::map<std::string, uint64_t> &addresses = {}) const;
  /// "A=f16[1000, 65] B=f16[65, 77] C=f32[1000, 77] scale=1"
  std::string summary() const;
};

/// One --arg.
struct ArgOverride {
  std::string name;
  enum class Kind { Shape, File, Scalar } kind = Kind::Shape;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::string file;
  std::string value; ///< Kind::Scalar, as written
};
/// Parses NAME=DTYPE[D0,D1,...], NAME=@FILE or NAME=NUMBER.
bool parseArgOverride(const std::string &text, ArgOverride &arg,
                      std::string &error);

/// Makes the spec's entries for every ABI argument a problem did not bind
/// (shapes unknown yet), then applies the overrides: each must name an
/// argument of the ABI of the right kind. A file's shape is read from its
/// header now (the data when the run makes its inputs). Then every view has
/// a shape and every scalar a value, or the error names the first one that
/// has none.
bool applyOverrides(const Manifest &manifest,
                    const std::vector<ArgOverride> &overrides, RunSpec &spec,
                    std::string &error);

/// The host tensor of an input: random, zeros or read from its file
/// (converted to the dtype). Outputs: poisoned.
bool makeHostTensor(const TensorArg &arg, uint64_t seed, HostTensor &tensor,
                    std::string &error);

/// --save NAME=FILE.
struct SaveRequest {
  std::string name;
  std::string file;
};
bool parseSaveRequest(const std::string &text, SaveRequest &save,
                      std::string &error);

/// The memory a run needs and whether `available` bytes hold it; the error
/// says how much and names the limit (`what`: "device memory (... free)").
bool checkMemory(int64_t needBytes, int64_t available, const std::string &what,
                 std::string &error);

/// Bytes of physical memory the host can give a run (MemAvailable of
/// /proc/meminfo, else the total); 0 when unknown.
int64_t hostAvailableMemory();

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_BINDING_H
