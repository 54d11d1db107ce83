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

bool mlir::tile::checkSourceNesting(const llvm::MemoryBuffer &buffer,
                                    std::string &error) {
  llvm::StringRef text = buffer.getBuffer();
  int depth = 0;
  size_t line = 1, lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"':
      // A string literal: to its closing quote, over escapes; MLIR strings
      // do not span lines.
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < e && text[i] == '\n')
        --i;
      break;
    case '/':
      if (next == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '<':
    case '(':
    case '[':
    case '{':
      if (c == '<' && next == '=')
        break;
      if (++depth > kMaxSourceNesting) {
        error = buffer.getBufferIdentifier().str() + ":" +
                std::to_string(line) + ":" + std::to_string(i - lineStart + 1) +
                ": error: nesting deeper than " +
                std::to_string(kMaxSourceNesting);
        return false;
      }
      break;
    case '>':
      if (next == '=' || (i > 0 && text[i - 1] == '-'))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return true;
}
