//===- Manifest.h - the bundle manifest: schema, read, write ----*- C++ -*-===//
//
// manifest.json, the contract between tile-compile and every launcher
// (docs/bundle.md, docs/bundle.schema.json). This is the one place that
// reads and writes it: every field is validated on read and before a write,
// and each error names the field ("manifest.json: abi[3].rank: expected an
// integer in [1, 8], got 99"). Grid rules and `requires` are checked against
// the ABI (names, dimensions, constant arithmetic). Plain C++17; the JSON is
// nlohmann-json, kept out of this header.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_MANIFEST_H
#define TILE_BUNDLE_MANIFEST_H

#include "tile/Bundle/DType.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilebundle {

/// The format this library reads and writes.
constexpr const char *kBundleFormat = "tile-bundle-2";

/// What a kernel does with a view (from its tile.load / tile.store ops).
enum class Access { None, Read, Write, ReadWrite };
const char *accessName(Access access);
bool parseAccess(const std::string &text, Access &access);
/// Whether the kernel writes the view (launchers poison those).
inline bool isWritten(Access a) {
  return a == Access::Write || a == Access::ReadWrite;
}

/// One entry of the manifest's `abi`: one kernel argument, which the launch
/// ABI expands into one or more kernel parameters (Abi.h).
struct AbiEntry {
  enum class Kind { View, Scalar, TensorMap };
  std::string name;
  Kind kind = Kind::Scalar;
  DType dtype = DType::F32;     ///< view, scalar
  int rank = 0;                 ///< view: 1..8
  int align = 16;               ///< view: bytes, a power of two in 1..16 (C2)
  Access access = Access::Read; ///< view
  // tensor_map (C4)
  std::string view;          ///< the view entry it describes
  std::vector<int64_t> dims; ///< view dimensions, innermost first
  std::vector<int64_t> box;  ///< box size per map dimension
  int swizzle = 0;           ///< bytes: 0, 32, 64, 128

  static AbiEntry makeView(std::string name, DType dtype, int rank, int align,
                           Access access);
  static AbiEntry makeScalar(std::string name, DType dtype);
  static AbiEntry makeTensorMap(std::string name, std::string view,
                                std::vector<int64_t> dims,
                                std::vector<int64_t> box, int swizzle);
};
const char *kindName(AbiEntry::Kind kind);

/// A compile-time parameter's value: integer, boolean or type name.
struct ParamValue {
  enum class Kind { Int, Bool, String };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  bool boolValue = false;
  std::string stringValue;
  static ParamValue ofInt(int64_t v);
  static ParamValue ofBool(bool v);
  static ParamValue ofString(std::string v);
  /// "128", "true", "f16".
  std::string str() const;
  /// The value in expressions: integers, booleans as 1/0; none for types.
  std::optional<int64_t> exprValue() const;
};

/// What ptxas -v reported when the cubin was made.
struct PtxasStats {
  int64_t registers = 0;
  int64_t spillStores = 0;
  int64_t spillLoads = 0;
  int64_t stackBytes = 0;
  std::string ptxas; ///< the ptxas that ran (informational)
  std::optional<int64_t> optLevel;
  bool spills() const { return spillStores > 0 || spillLoads > 0; }
};

/// A companion file's digest, one member of the manifest's `files`: what
/// the bundle folder held when the manifest was written.
struct FileDigest {
  std::string name;   ///< a file name in the bundle folder
  std::string sha256; ///< 64 lowercase hexadecimal digits
  int64_t bytes = 0;
};

struct Manifest {
  std::string format = kBundleFormat;
  std::string kernel;            ///< kernel name in the source
  std::string entry;             ///< .entry in the PTX
  std::string ptx;               ///< file name in the bundle folder
  std::string cubin;             ///< optional file name
  std::string target;            ///< sm_XY[a|f]
  std::string compiler;          ///< informational
  std::string source;            ///< informational (the cpu backend runs it)
  std::string pipeline;          ///< informational
  std::optional<int64_t> stages; ///< informational
  std::string sync;              ///< informational: barrier, mbarrier, auto
  std::string warpSpecialize;    ///< informational: off, on, auto
  std::string pingPong;          ///< informational: off, on, auto
  std::string tma;               ///< informational: off, on, auto
  std::string pinWaits;          ///< informational: true, false
  std::optional<int64_t> mmaVersion; ///< informational
  std::string sharedLayout;          ///< informational
  int64_t numWarps = 0;
  std::array<int64_t, 3> block = {0, 0, 0};
  int64_t occupancy = 0;   ///< blocks per SM the kernel was built for, 0: none
  int64_t sharedBytes = 0; ///< dynamic shared memory per block
  std::array<std::string, 3> grid;
  /// `requires`: launch preconditions (C3).
  std::vector<std::string> preconditions;
  std::vector<std::pair<std::string, ParamValue>> params;
  std::vector<AbiEntry> abi;
  std::optional<PtxasStats> ptxas;
  /// `files`: digests of the companion files (optional, empty when absent).
  std::vector<FileDigest> files;

  const FileDigest *file(const std::string &name) const;
  const ParamValue *param(const std::string &name) const;
  bool paramInt(const std::string &name, int64_t &value) const;
  bool paramBool(const std::string &name, bool &value) const;
  bool paramString(const std::string &name, std::string &value) const;
  const AbiEntry *abiEntry(const std::string &name) const;
  /// "TILE_M=128 TILE_N=64 ..." in manifest order.
  std::string paramsSummary() const;
};

/// The deepest nesting of arrays and objects a manifest may have.
constexpr int kMaxJsonDepth = 64;
/// Scans JSON text before it is parsed (recursive JSON code overflows the
/// stack on a file nested tens of thousands of levels deep) and refuses
/// nesting deeper than `maxDepth`: "line 1, column 65: nested deeper than
/// 64 levels".
bool checkJsonDepth(const std::string &text, int maxDepth, std::string &error);

/// Parses and validates manifest text. `where` prefixes errors (the file).
bool parseManifest(const std::string &text, const std::string &where,
                   Manifest &manifest, std::string &error);
/// Validates `manifest` (everything parseManifest checks).
bool validateManifest(const Manifest &manifest, const std::string &where,
                      std::string &error);
/// Validates and serializes: one top-level field per line, one abi entry per
/// line. Fails (with the field) on an invalid manifest.
bool writeManifest(const Manifest &manifest, std::string &text,
                   std::string &error);
/// One abi entry as manifest.json writes it: a one-line JSON object with its
/// fields in a fixed order (so that two entries are the same exactly when
/// their texts are).
std::string abiEntryJson(const AbiEntry &entry);
/// Parses a JSON array of abi entries (as the manifest's `abi`), each
/// validated as parseManifest does; `where` prefixes errors.
bool parseAbiJson(const std::string &text, const std::string &where,
                  std::vector<AbiEntry> &abi, std::string &error);

/// The PTX's record of its ABI. tile-compile writes the line
///   // tile-abi ENTRY [{"name":"X","kind":"view",...}, ...]
/// at the top of kernel.ptx: the abi the PTX was compiled for. The PTX
/// parameter sizes cannot tell a view of f16 from one of f32 (both are a
/// pointer), and the `files` digests cover the PTX, not the manifest: this
/// line lets a launcher refuse a manifest whose abi was edited (a dtype, an
/// alignment, an access) or that belongs to another kernel's PTX.
std::string ptxAbiLine(const std::string &entry,
                       const std::vector<AbiEntry> &abi);
/// Checks the PTX's tile-abi line of `entry` against `abi`: refused when
/// they differ, when the line does not read, or (`required`: a manifest
/// with `files`, written by a tile-compile that writes the line) when it is
/// missing. The error names the first differing entry.
bool checkPtxAbi(const std::string &ptx, const std::string &entry,
                 const std::vector<AbiEntry> &abi, bool required,
                 std::string &error);

/// The top-level fields of the schema, in the order they are written (used
/// by the test that docs/bundle.schema.json lists the same).
const std::vector<std::string> &manifestFields();

} // namespace tilebundle

#endif // TILE_BUNDLE_MANIFEST_H
