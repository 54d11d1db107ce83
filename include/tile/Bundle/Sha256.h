//===- Sha256.h - SHA-256 of bundle files -----------------------*- C++ -*-===//
//
// FIPS 180-4 SHA-256, for the digests of a bundle's companion files (the
// manifest's `files`, docs/bundle.md). Plain C++17: the runner builds
// without LLVM on the GPU machine.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_SHA256_H
#define TILE_BUNDLE_SHA256_H

#include <string>

namespace tilebundle {

/// The SHA-256 of `bytes` as 64 lowercase hexadecimal digits.
std::string sha256Hex(const std::string &bytes);

} // namespace tilebundle

#endif // TILE_BUNDLE_SHA256_H
