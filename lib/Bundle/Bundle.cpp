//===- Bundle.cpp - bundle folders ----------------------------------------===//

#include "tile/Bundle/Bundle.h"

#include "tile/Bundle/Sha256.h"
#include "tile/Support/Checked.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace tilebundle {

std::string Bundle::name() const {
  fs::path path(dir);
  std::string leaf = path.filename().string();
  if (leaf.empty() || leaf == ".")
    leaf = path.parent_path().filename().string();
  return leaf.empty() ? dir : leaf;
}

std::string Bundle::manifestPath() const {
  return (fs::path(dir) / "manifest.json").string();
}

std::string Bundle::ptxPath() const {
  return (fs::path(dir) / manifest.ptx).string();
}

std::string Bundle::cubinPath() const {
  return manifest.cubin.empty() ? std::string()
                                : (fs::path(dir) / manifest.cubin).string();
}

bool verifyBundleFiles(const Bundle &bundle, std::string &error) {
  for (const FileDigest &f : bundle.manifest.files) {
    std::string path = (fs::path(bundle.dir) / f.name).string();
    std::string bytes, why;
    if (!tile::checked::readFile(path, bytes, why, kMaxPtxBytes)) {
      error = bundle.manifestPath() + ": files: " + why;
      return false;
    }
    if (static_cast<int64_t>(bytes.size()) != f.bytes) {
      error = path + ": " + std::to_string(bytes.size()) +
              " bytes, but the manifest's files says " +
              std::to_string(f.bytes) +
              " (the file is not the one the bundle was written with)";
      return false;
    }
    std::string digest = sha256Hex(bytes);
    if (digest != f.sha256) {
      error = path + ": sha256 " + digest + " differs from the manifest's " +
              f.sha256 + " (the file is not the one the bundle was written " +
              "with)";
      return false;
    }
  }
  return true;
}

bool loadBundle(const std::string &dir, Bundle &bundle, std::string &error) {
  bundle = Bundle();
  bundle.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "bundle '" + dir + "' is not a folder" +
            (ec && ec != std::errc::no_such_file_or_directory
                 ? " (" + ec.message() + ")"
                 : std::string());
    return false;
  }
  std::string path = bundle.manifestPath();
  if (!fs::exists(path, ec)) {
    error = "bundle '" + dir + "' has no manifest.json" +
            (ec ? " (" + ec.message() + ")" : std::string());
    return false;
  }
  std::string text;
  if (!tile::checked::readFile(path, text, error, kMaxManifestBytes) ||
      !parseManifest(text, path, bundle.manifest, error))
    return false;
  if (!fs::is_regular_file(bundle.ptxPath(), ec)) {
    error =
        path + ": ptx: \"" + bundle.manifest.ptx + "\" is " +
        (fs::exists(bundle.ptxPath(), ec) ? "not a regular file" : "missing") +
        " in the bundle folder";
    return false;
  }
  // Before anything is loaded: the companion files are those the manifest
  // was written with (a recompile that failed half-way mixes two builds).
  if (!verifyBundleFiles(bundle, error))
    return false;
  if (!bundle.manifest.cubin.empty() &&
      !fs::is_regular_file(bundle.cubinPath(), ec))
    bundle.manifest.cubin.clear();
  return true;
}

bool listBundles(const std::string &dir, std::vector<std::string> &dirs,
                 std::string &error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "'" + dir + "' is not a folder";
    return false;
  }
  dirs.clear();
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory(ec) &&
        fs::exists(entry.path() / "manifest.json", ec))
      dirs.push_back(entry.path().string());
  if (ec) {
    error = "cannot list '" + dir + "': " + ec.message();
    return false;
  }
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty()) {
    error = "'" + dir + "' holds no bundle folders (none has a manifest.json)";
    return false;
  }
  return true;
}

bool checkBundlePtx(const Bundle &bundle, const KernelParams &params,
                    std::string &ptx, PtxInfo &info, std::string &error) {
  if (!tile::checked::readFile(bundle.ptxPath(), ptx, error, kMaxPtxBytes))
    return false;
  std::string why;
  if (!scanPtx(ptx, info, why) ||
      !checkPtxParams(info, bundle.manifest.entry, params, why)) {
    error = bundle.ptxPath() + ": " + why;
    return false;
  }
  if (info.target != bundle.manifest.target) {
    error = bundle.ptxPath() + ": the PTX says .target " + info.target +
            " but the manifest says target " + bundle.manifest.target;
    return false;
  }
  // The dtypes, alignments and accesses the parameter sizes cannot tell.
  if (!checkPtxAbi(ptx, bundle.manifest.entry, bundle.manifest.abi,
                   !bundle.manifest.files.empty(), why)) {
    error = bundle.ptxPath() + ": " + why;
    return false;
  }
  return true;
}

} // namespace tilebundle
