//===- BundleTest.cpp - bundle folders ------------------------------------===//

#include "tile/Bundle/Bundle.h"

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

} // namespace
