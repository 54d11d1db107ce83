//===- SourceFile.cpp - bounded reads of IR sources -----------------------===//

#include "tile/Support/SourceFile.h"
#include "tile/Support/Checked.h"

std::unique_ptr<llvm::MemoryBuffer>
mlir::tile::readSourceFile(const std::string &path, std::string &error) {
  std::string text;
  if (!::tile::checked::readFile(path, text, error,
                                 ::tile::checked::kMaxSourceFileBytes))
    return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(text,
                                              path == "-" ? "<stdin>" : path);
}
