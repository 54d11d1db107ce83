//===- Bundle.h - bundle folders ----------------------------------*- C++
//-*-===//
//
// A bundle is a folder: manifest.json (Manifest.h), the PTX it names, an
// optional cubin, the specialized tile IR. This reads one (bounded reads of
// regular files only), lists a folder of them, and checks the PTX against
// the manifest. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_BUNDLE_H
#define TILE_BUNDLE_BUNDLE_H

#include "tile/Bundle/Launch.h"
#include "tile/Bundle/Manifest.h"
#include "tile/Bundle/Target.h"

#include <string>
#include <vector>

namespace tilebundle {

/// The largest manifest and PTX a launcher reads.
constexpr int64_t kMaxManifestBytes = int64_t(1) << 20;
constexpr int64_t kMaxPtxBytes = int64_t(256) << 20;

struct Bundle {
  std::string dir;
  Manifest manifest;
  /// The folder's last path component, the variant's name.
  std::string name() const;
  std::string manifestPath() const;
  std::string ptxPath() const;
  /// Empty when there is no cubin.
  std::string cubinPath() const;
};

/// Reads DIR/manifest.json and checks that the PTX it names is a regular
/// file (a named cubin that is missing is dropped: the PTX runs) and that
/// every file the manifest's `files` lists has its size and SHA-256.
bool loadBundle(const std::string &dir, Bundle &bundle, std::string &error);
/// Checks the files of the manifest's `files` (size, then SHA-256); the
/// error names the file. True when the manifest lists none (older bundles).
bool verifyBundleFiles(const Bundle &bundle, std::string &error);
/// The bundle folders (holding a manifest.json) directly inside `dir`,
/// sorted by name.
bool listBundles(const std::string &dir, std::vector<std::string> &dirs,
                 std::string &error);

/// Reads the bundle's PTX and checks it against the manifest: `.target`
/// equals the manifest's, the entry is declared and its parameters match
/// `params` (the expanded abi).
bool checkBundlePtx(const Bundle &bundle, const KernelParams &params,
                    std::string &ptx, PtxInfo &info, std::string &error);

} // namespace tilebundle

#endif // TILE_BUNDLE_BUNDLE_H
