//===- BundleTest.cpp - bundle folders ------------------------------------===//

#include "tile/Bundle/Bundle.h"
#include "tile/Bundle/Sha256.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace tilebundle;
namespace fs = std::filesystem;

namespace {

/// A fresh, empty folder under the system's temporary folder.
fs::path freshDir(const std::string &name) {
  fs::path dir =
      fs::temp_directory_path() /
      ("tile-bundle-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Bundle, LoadErrors) {
  fs::path dir = freshDir("load");
  Bundle bundle;
  std::string error;
  EXPECT_FALSE(loadBundle((dir / "absent").string(), bundle, error));
  EXPECT_EQ(error,
            "bundle '" + (dir / "absent").string() + "' is not a folder");
  EXPECT_FALSE(loadBundle(dir.string(), bundle, error));
  EXPECT_EQ(error, "bundle '" + dir.string() + "' has no manifest.json");
  fs::remove_all(dir);
}

TEST(Bundle, ListErrors) {
  fs::path dir = freshDir("list");
  std::vector<std::string> dirs;
  std::string error;
  EXPECT_FALSE(listBundles((dir / "absent").string(), dirs, error));
  EXPECT_EQ(error, "'" + (dir / "absent").string() + "' is not a folder");
  // A folder whose subfolders hold no manifest.json.
  fs::create_directories(dir / "empty");
  EXPECT_FALSE(listBundles(dir.string(), dirs, error));
  EXPECT_EQ(error, "'" + dir.string() +
                       "' holds no bundle folders (none has a manifest.json)");
  fs::create_directories(dir / "b");
  std::ofstream(dir / "b" / "manifest.json") << "{}";
  ASSERT_TRUE(listBundles(dir.string(), dirs, error)) << error;
  EXPECT_EQ(dirs, std::vector<std::string>{(dir / "b").string()});
  fs::remove_all(dir);
}

TEST(Bundle, Sha256) {
  // FIPS 180-4 examples, and lengths around the padding's block boundary.
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb924"
                           "27ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223"
                              "b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(sha256Hex(std::string(55, 'x')).size(), 64u);
  EXPECT_NE(sha256Hex(std::string(55, 'x')), sha256Hex(std::string(56, 'x')));
}

TEST(Bundle, VerifyFiles) {
  fs::path dir = freshDir("files");
  std::ofstream(dir / "kernel.ptx") << "ptx";
  Bundle bundle;
  bundle.dir = dir.string();
  std::string error;
  EXPECT_TRUE(verifyBundleFiles(bundle, error)) << error;
  bundle.manifest.files = {{"kernel.ptx", sha256Hex("ptx"), 3}};
  EXPECT_TRUE(verifyBundleFiles(bundle, error)) << error;
  bundle.manifest.files = {{"kernel.ptx", sha256Hex("ptx"), 4}};
  EXPECT_FALSE(verifyBundleFiles(bundle, error));
  EXPECT_EQ(error, (dir / "kernel.ptx").string() +
                       ": 3 bytes, but the manifest's files says 4 (the file "
                       "is not the one the bundle was written with)");
  bundle.manifest.files = {{"kernel.ptx", sha256Hex("PTX"), 3}};
  EXPECT_FALSE(verifyBundleFiles(bundle, error));
  EXPECT_EQ(error, (dir / "kernel.ptx").string() + ": sha256 " +
                       sha256Hex("ptx") + " differs from the manifest's " +
                       sha256Hex("PTX") +
                       " (the file is not the one the bundle was written "
                       "with)");
  fs::remove_all(dir);
}

TEST(Bundle, LoadLinkLoop) {
  fs::path dir = freshDir("loop");
  fs::create_symlink("loop", dir / "loop");
  Bundle bundle;
  std::string error;
  EXPECT_FALSE(loadBundle((dir / "loop").string(), bundle, error));
  EXPECT_EQ(error, "bundle '" + (dir / "loop").string() +
                       "' is not a folder (Too many levels of symbolic "
                       "links)");
  fs::remove_all(dir);
}

} // namespace
