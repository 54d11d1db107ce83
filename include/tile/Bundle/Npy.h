//===- Npy.h - NumPy .npy files -----------------------------------*- C++
//-*-===//
//
// Reads and writes version 1.0-3.0 .npy files of little-endian numbers
// (<f2, <f4, <f8, <i4, <i8, <u2), C order, the way numpy.save writes them:
// tile-runner takes inputs and writes outputs and references in it, and
// tile-exec too. Sizes are checked (no overflow, data length equal to the
// header's shape), and files are read bounded (Checked.h).
//
// bf16 has no numpy dtype: bf16 arrays are written as <f4 (every bf16 value
// is exactly a float) and read from <f4 (rounded) or <u2 (the bit patterns).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_NPY_H
#define TILE_BUNDLE_NPY_H

#include "tile/Bundle/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilebundle {

/// The deepest nesting of brackets an .npy header may have.
constexpr int kMaxNpyHeaderDepth = 64;

struct NpyArray {
  std::string descr; ///< "<f2", "<f4", "<f8", "<i4", "<i8", "<u2"
  std::vector<int64_t> shape;
  std::string data; ///< the raw elements, C order
  int64_t numElements() const;
  int elementBytes() const;
  /// Element `i` as a double.
  double get(int64_t i) const;
};

/// Parses the bytes of an .npy file; `where` prefixes errors.
bool parseNpy(const std::string &bytes, const std::string &where,
              NpyArray &array, std::string &error);
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// Converts `array` to `dtype` elements in `out` (dtypeBytes each): floats
/// rounded to nearest even; integers exact (an i32 target refuses values
/// that are not integers in range); <u2 only into bf16 (bit patterns).
bool convertNpy(const NpyArray &array, DType dtype, std::vector<char> &out,
                const std::string &where, std::string &error);

/// Serializes `count` elements of `dtype` (bf16 as <f4) with `shape`.
std::string encodeNpy(DType dtype, const std::vector<int64_t> &shape,
                      const void *data);
/// Serializes float64 values (references).
std::string encodeNpyF64(const std::vector<int64_t> &shape, const double *data);
/// Writes `bytes` to `path`; false with a message naming the file.
bool writeFileBytes(const std::string &path, const std::string &bytes,
                    std::string &error);

} // namespace tilebundle

#endif // TILE_BUNDLE_NPY_H
