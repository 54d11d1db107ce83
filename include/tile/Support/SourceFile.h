//===- SourceFile.h - bounded reads of IR sources for the MLIR tools -*- C++
//-*-//
//
// The MLIR tools (tile-opt, tile-compile, tile-exec) read their IR through
// checked::readFile instead of MLIR's own file opening, which reads devices
// and pipes without bound: a kernel that is a link to /dev/zero is refused
// with a message, not read forever.
//
// Declared in mlir::tile rather than including Support/Checked.h: its
// namespace ::tile makes `tile::` ambiguous in files that use namespace
// mlir (mlir::tile), which most of the compiler does.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_SOURCEFILE_H
#define TILE_SUPPORT_SOURCEFILE_H

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace mlir {
namespace tile {

/// The contents of `path` ("-": standard input) as a buffer named `path`
/// ("<stdin>"), so that diagnostics point into it; null, with the reason in
/// `error` ("cannot read 'k.mlir': not a regular file"), when it is not a
/// regular file or a pipe, is missing, or is larger than
/// checked::kMaxSourceFileBytes.
std::unique_ptr<llvm::MemoryBuffer> readSourceFile(const std::string &path,
                                                   std::string &error);

/// The deepest nesting of brackets an IR source may have.
constexpr int kMaxSourceNesting = 512;

/// Scans `buffer` before it is parsed: MLIR's parser recurses once per
/// level of `<`, `(`, `[` and `{`, and an attribute nested 10^4 deep (a
/// 20 kB file) overflows the stack. Brackets in string literals and `//`
/// comments do not count, nor the `>` of `->`. False, with
/// "k.mlir:1:513: error: nesting deeper than 512" in `error`, where the
/// nesting passes kMaxSourceNesting.
bool checkSourceNesting(const llvm::MemoryBuffer &buffer, std::string &error);

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_SOURCEFILE_H
