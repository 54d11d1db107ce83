//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Format: "\x93NUMPY", major, minor, header length (2 bytes in 1.0, 4 in
// 2.0/3.0, little-endian), then a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces to a multiple of 64 bytes and ending in '\n', then the data.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Npy.h"

#include "tile/Support/Checked.h"
#include "tile/Support/Float16.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

namespace tilebundle {

int NpyArray::elementBytes() const {
  if (descr.size() != 3)
    return 0;
  return descr[2] - '0';
}

int64_t NpyArray::numElements() const {
  return tile::checked::product(shape).value_or(-1);
}

double NpyArray::get(int64_t i) const {
  const char *p = data.data() + i * elementBytes();
  if (descr == "<f2") {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return tilefloat::halfToFloat(b);
  }
  if (descr == "<u2") {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return b;
  }
  if (descr == "<f4") {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (descr == "<f8") {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  if (descr == "<i4") {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, p, 8);
  return static_cast<double>(v);
}

namespace {

/// The value of `key` in the header dict, as its literal text.
bool findKey(const std::string &header, const std::string &key,
             std::string &value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at);
  if (at == std::string::npos)
    return false;
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  if (at >= header.size())
    return false;
  size_t end;
  if (header[at] == '(') {
    end = header.find(')', at);
    if (end == std::string::npos)
      return false;
    ++end;
  } else if (header[at] == '\'') {
    end = header.find('\'', at + 1);
    if (end == std::string::npos)
      return false;
    ++end;
  } else {
    end = header.find_first_of(",}", at);
    if (end == std::string::npos)
      return false;
  }
  value = header.substr(at, end - at);
  return true;
}

} // namespace

bool parseNpy(const std::string &bytes, const std::string &where,
              NpyArray &array, std::string &error) {
  array = NpyArray();
  auto fail = [&](const std::string &why) {
    error = where + ": " + why;
    return false;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return fail("not an .npy file (no \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLength, start;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(bytes[8]) |
                   static_cast<unsigned char>(bytes[9]) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength =
          headerLength << 8 | static_cast<unsigned char>(bytes[8 + i]);
    start = 12;
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  if (headerLength > bytes.size() - start || headerLength > (1u << 20))
    return fail("truncated header");
  std::string header = bytes.substr(start, headerLength);
  // The header is a Python literal: readers that evaluate it recursively
  // (numpy's ast.literal_eval) overflow on deep nesting, and a dict of three
  // keys and a tuple has no use for it.
  int depth = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    char c = header[i];
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxNpyHeaderDepth)
        return fail("header: nested deeper than " +
                    std::to_string(kMaxNpyHeaderDepth) + " levels at byte " +
                    std::to_string(start + i));
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  std::string descr, fortran, shape;
  if (!findKey(header, "descr", descr) ||
      !findKey(header, "fortran_order", fortran) ||
      !findKey(header, "shape", shape))
    return fail("the header lacks descr, fortran_order or shape");
  if (descr.size() >= 2)
    descr = descr.substr(1, descr.size() - 2);
  if (descr == "|u1" || descr == "<u1")
    descr = "<u1"; // refused below with the list
  if (descr != "<f2" && descr != "<f4" && descr != "<f8" && descr != "<i4" &&
      descr != "<i8" && descr != "<u2")
    return fail("unsupported dtype '" + descr +
                "' (expected little-endian <f2, <f4, <f8, <i4, <i8 or <u2)");
  if (fortran != "False")
    return fail("Fortran-order arrays are not supported (save a C-order "
                "copy: numpy.ascontiguousarray)");
  array.descr = descr;
  // "(2, 3)", "(5,)", "()"; `'shape': ,` threw std::out_of_range.
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    return fail("shape: expected a tuple such as (2, 3), got '" + shape + "'");
  std::string inner = shape.substr(1, shape.size() - 2);
  size_t pos = 0;
  while (pos < inner.size()) {
    size_t comma = inner.find(',', pos);
    std::string item = inner.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t a = item.find_first_not_of(' '), b = item.find_last_not_of(' ');
    if (a != std::string::npos) {
      std::string why;
      std::optional<int64_t> n = tile::checked::parseInt(
          item.substr(a, b - a + 1), 0, INT64_MAX, &why);
      if (!n)
        return fail("shape: " + why);
      array.shape.push_back(*n);
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  if (array.shape.size() > 8)
    return fail("more than 8 dimensions");
  std::optional<int64_t> count = tile::checked::product(array.shape);
  std::optional<int64_t> dataBytes =
      count ? tile::checked::mul(*count, array.elementBytes()) : std::nullopt;
  if (!dataBytes)
    return fail("the shape's size overflows");
  size_t dataStart = start + headerLength;
  if (static_cast<uint64_t>(*dataBytes) != bytes.size() - dataStart)
    return fail("the header says " + std::to_string(*dataBytes) +
                " bytes of data, the file has " +
                std::to_string(bytes.size() - dataStart));
  array.data = bytes.substr(dataStart);
  return true;
}

bool readNpy(const std::string &path, NpyArray &array, std::string &error) {
  std::string bytes;
  if (!tile::checked::readFile(path, bytes, error))
    return false;
  return parseNpy(bytes, path, array, error);
}

bool convertNpy(const NpyArray &a, DType dtype, std::vector<char> &out,
                const std::string &where, std::string &error) {
  int64_t n = a.numElements();
  out.assign(static_cast<size_t>(n) * dtypeBytes(dtype), 0);
  if (a.descr == "<u2") {
    if (dtype != DType::BF16) {
      error = where +
              ": <u2 data is read only as bf16 bit patterns, but the "
              "argument is " +
              std::string(dtypeName(dtype));
      return false;
    }
    std::memcpy(out.data(), a.data.data(), a.data.size());
    return true;
  }
  bool intSource = a.descr == "<i4" || a.descr == "<i8";
  for (int64_t i = 0; i < n; ++i) {
    double v;
    if (a.descr == "<i8") {
      int64_t x;
      std::memcpy(&x, a.data.data() + i * 8, 8);
      if (dtype == DType::I32 && (x < INT32_MIN || x > INT32_MAX)) {
        error = where + ": element " + std::to_string(i) + " = " +
                std::to_string(x) + " does not fit i32";
        return false;
      }
      v = static_cast<double>(x);
    } else {
      v = a.get(i);
    }
    if (dtype == DType::I32 && !intSource &&
        (v != std::floor(v) || !(v >= INT32_MIN && v <= INT32_MAX))) {
      error = where + ": element " + std::to_string(i) + " = " +
              std::to_string(v) + " is not an i32";
      return false;
    }
    storeElement(out.data(), dtype, i, v);
  }
  return true;
}

static std::string npyHeader(const std::string &descr,
                             const std::vector<int64_t> &shape) {
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, "
                     "'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    dict += std::to_string(shape[i]) + (shape.size() == 1 ? "," : "") +
            (i + 1 < shape.size() ? ", " : "");
  dict += "), }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

std::string encodeNpy(DType dtype, const std::vector<int64_t> &shape,
                      const void *data) {
  int64_t n = tile::checked::product(shape).value_or(0);
  switch (dtype) {
  case DType::F16:
    return npyHeader("<f2", shape) +
           std::string(static_cast<const char *>(data), n * 2);
  case DType::F32:
    return npyHeader("<f4", shape) +
           std::string(static_cast<const char *>(data), n * 4);
  case DType::I32:
    return npyHeader("<i4", shape) +
           std::string(static_cast<const char *>(data), n * 4);
  case DType::BF16:
  case DType::F8E4M3FN: // numpy has no fp8: exact as f32
  case DType::F8E5M2: {
    std::string out = npyHeader("<f4", shape);
    std::string body(static_cast<size_t>(n) * 4, '\0');
    for (int64_t i = 0; i < n; ++i) {
      float f = static_cast<float>(loadElement(data, dtype, i));
      std::memcpy(&body[i * 4], &f, 4);
    }
    return out + body;
  }
  }
  return std::string();
}

std::string encodeNpyF64(const std::vector<int64_t> &shape,
                         const double *data) {
  int64_t n = tile::checked::product(shape).value_or(0);
  return npyHeader("<f8", shape) +
         std::string(reinterpret_cast<const char *>(data), n * 8);
}

bool writeFileBytes(const std::string &path, const std::string &bytes,
                    std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  // The data reach the file at a large write or at the flush: a full disk
  // fails at either.
  errno = 0;
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  out.close();
  if (out.fail()) {
    error = "cannot write '" + path + "'" +
            (errno ? std::string(": ") + std::strerror(errno) : std::string());
    return false;
  }
  return true;
}

} // namespace tilebundle
