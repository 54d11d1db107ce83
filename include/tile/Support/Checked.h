//===- Checked.h - checked parsing, size arithmetic and file reads -*- C++ -*-//
//
// The one place where every tool turns user text into numbers and reads
// input files. Plain C++17 with no LLVM dependency, so that the GPU-side
// runner (built without LLVM) and the MLIR tools share it:
//  - integers are parsed whole (no trailing text), in decimal, and checked
//    against a range before they are narrowed, so 4294967296 never becomes
//    0 and 99999999999999999999 is an error, not an exception;
//  - floating-point values are parsed whole and must be finite unless the
//    caller allows otherwise;
//  - sizes are multiplied and added with overflow detection;
//  - files are read only when they are regular files no larger than a
//    limit (a link to /dev/zero is refused, not read forever), standard
//    input only up to that limit;
//  - memory estimates are compared with what the process can hold (the
//    machine's physical memory, or the ulimit where lower).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_CHECKED_H
#define TILE_SUPPORT_CHECKED_H

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tile {
namespace checked {

/// Parses all of `text` as a decimal integer in [min, max]. On failure
/// returns nullopt and, when `error` is given, says why in a phrase that
/// names the accepted range ("expected an integer in [1, 32], got '0'").
inline std::optional<int64_t> parseInt(std::string_view text,
                                       int64_t min = INT64_MIN,
                                       int64_t max = INT64_MAX,
                                       std::string *error = nullptr) {
  auto fail = [&](const std::string &why) -> std::optional<int64_t> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  auto range = [&] {
    return "an integer in [" + std::to_string(min) + ", " +
           std::to_string(max) + "]";
  };
  std::string quoted = "'" + std::string(text) + "'";
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-'))
    negative = text[i++] == '-';
  if (i == text.size())
    return fail("expected " + range() + ", got " + quoted);
  // Accumulate as a negative number: INT64_MIN has no positive twin.
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c < '0' || c > '9')
      return fail("expected " + range() + ", got " + quoted);
    int digit = c - '0';
    if (value < (INT64_MIN + digit) / 10)
      return fail(quoted + " is out of range (expected " + range() + ")");
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == INT64_MIN)
      return fail(quoted + " is out of range (expected " + range() + ")");
    value = -value;
  }
  if (value < min || value > max)
    return fail(quoted + " is out of range (expected " + range() + ")");
  return value;
}

/// Parses all of `text` as a floating-point number. Rejects NaN and
/// infinities unless `allowNonFinite`.
inline std::optional<double> parseDouble(std::string_view text,
                                         bool allowNonFinite = false,
                                         std::string *error = nullptr) {
  std::string s(text);
  auto fail = [&](const std::string &why) -> std::optional<double> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])))
    return fail("expected a number, got '" + s + "'");
  // Decimal only, as integers are: strtod would also take hex ("0x10"),
  // "infinity" and "nan(...)". Non-finite values are spelled inf, nan.
  std::string_view body(s);
  if (!body.empty() && (body[0] == '+' || body[0] == '-'))
    body.remove_prefix(1);
  bool keyword = body == "inf" || body == "nan";
  if (!keyword)
    for (char c : body)
      if (!(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E' &&
          c != '+' && c != '-')
        return fail("expected a number, got '" + s + "'");
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    return fail("expected a number, got '" + s + "'");
  if (!allowNonFinite && !std::isfinite(value))
    return fail("expected a finite number, got '" + s + "'");
  return value;
}

/// a * b and a + b for non-negative sizes; nullopt on overflow.
inline std::optional<int64_t> mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}
inline std::optional<int64_t> add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// The product of `sizes` (an element count), or nullopt when it overflows
/// int64 or a size is negative.
template <typename Range>
inline std::optional<int64_t> product(const Range &sizes) {
  int64_t n = 1;
  for (auto s : sizes) {
    if (static_cast<int64_t>(s) < 0)
      return std::nullopt;
    std::optional<int64_t> next = mul(n, static_cast<int64_t>(s));
    if (!next)
      return std::nullopt;
    n = *next;
  }
  return n;
}

/// Largest input file any tool reads (kernels, manifests, PTX, .npy).
constexpr int64_t kMaxInputFileBytes = int64_t(4) << 30;

/// Largest IR source (a kernel, a lit input) the MLIR tools parse: kernels
/// are tens of kilobytes; anything near this is not a kernel.
constexpr int64_t kMaxSourceFileBytes = int64_t(256) << 20;

/// Reads all of standard input into `out`, refusing more than `maxBytes`
/// and devices that never end (`< /dev/zero`; a terminal is fine).
inline bool readStdin(std::string &out, std::string &error,
                      int64_t maxBytes = kMaxInputFileBytes) {
  struct stat st;
  if (::fstat(0, &st) == 0) {
    if (S_ISCHR(st.st_mode) && !::isatty(0)) {
      error = "cannot read standard input: a device, not a file, pipe or "
              "terminal";
      return false;
    }
    if (S_ISREG(st.st_mode) && st.st_size > maxBytes) {
      error = "cannot read standard input: " + std::to_string(st.st_size) +
              " bytes is over the limit of " + std::to_string(maxBytes);
      return false;
    }
  }
  out.clear();
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(0, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error =
          std::string("cannot read standard input: ") + std::strerror(errno);
      return false;
    }
    if (n == 0)
      return true;
    if (static_cast<int64_t>(out.size()) + n > maxBytes) {
      error = "cannot read standard input: more than the limit of " +
              std::to_string(maxBytes) + " bytes";
      return false;
    }
    out.append(chunk, static_cast<size_t>(n));
  }
}

/// Reads `path` into `out` when it is a regular file of at most `maxBytes`
/// (following links: a link to a regular file is fine, one to a device is
/// not); "-" is standard input (readStdin), /dev/null the empty file. On
/// failure `error` is a sentence naming the file.
inline bool readFile(const std::string &path, std::string &out,
                     std::string &error,
                     int64_t maxBytes = kMaxInputFileBytes) {
  if (path == "-")
    return readStdin(out, error, maxBytes);
  if (path == "/dev/null") {
    out.clear();
    return true;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    error = "cannot read '" + path + "': " +
            (errno == ENOENT ? std::string("no such file")
                             : std::string(std::strerror(errno)));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "cannot read '" + path + "': a directory, not a file";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "cannot read '" + path + "': not a regular file";
    return false;
  }
  if (st.st_size > maxBytes) {
    error = "cannot read '" + path + "': " + std::to_string(st.st_size) +
            " bytes is over the limit of " + std::to_string(maxBytes);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  out.assign(static_cast<size_t>(st.st_size), '\0');
  in.read(out.data(), st.st_size);
  // A file that grew while read is cut at its size when stat ran.
  out.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) {
    error = "cannot read '" + path + "': read error";
    return false;
  }
  return true;
}

/// Bytes of physical memory of this machine, or 0 where unknown.
inline int64_t physicalMemoryBytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0;
  return mul(pages, pageSize).value_or(INT64_MAX);
}

/// The most memory this process can hold: the machine's physical memory, or
/// less where `ulimit -v` or `ulimit -d` says so. `name` says which limit
/// it is, for messages ("this machine's physical memory"); 0 where unknown.
inline int64_t memoryLimitBytes(std::string &name) {
  int64_t limit = physicalMemoryBytes();
  name = "this machine's physical memory";
  struct Rlimit {
    int resource;
    const char *name;
  };
  for (Rlimit r : {Rlimit{RLIMIT_AS, "the address-space limit (ulimit -v)"},
                   Rlimit{RLIMIT_DATA, "the data-segment limit (ulimit -d)"}}) {
    struct rlimit rl;
    if (::getrlimit(r.resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur > static_cast<rlim_t>(INT64_MAX))
      continue;
    if (limit == 0 || static_cast<int64_t>(rl.rlim_cur) < limit) {
      limit = static_cast<int64_t>(rl.rlim_cur);
      name = r.name;
    }
  }
  return limit;
}

/// `bytes` for people: "512 bytes", "3.0 KiB", "110.2 GiB".
inline std::string formatBytes(int64_t bytes) {
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f %s", value, units[unit]);
  return text;
}

} // namespace checked
} // namespace tile

#endif // TILE_SUPPORT_CHECKED_H
