//===- Json.h - a small JSON reader and writer for tile-runner --*- C++ -*-===//
//
// The GPU-only build of tile-runner has no LLVM (so no llvm::json): this is
// the runner's own JSON, enough for bundle manifests, the autotune cache and
// `--json` reports. Objects keep their insertion order, so what the runner
// writes reads in the order it was built. Numbers keep whether they were
// written as integers, so int64 values survive a round trip exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_JSON_H
#define TILE_RUNNER_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tile {
namespace runner {

class Json {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, Json>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool value) : kind(Kind::Bool), boolValue(value) {}
  Json(int value) : Json(static_cast<int64_t>(value)) {}
  Json(int64_t value)
      : kind(Kind::Number), isInt(true), intValue(value),
        numberValue(static_cast<double>(value)) {}
  Json(unsigned value) : Json(static_cast<int64_t>(value)) {}
  Json(uint64_t value) : Json(static_cast<int64_t>(value)) {}
  Json(double value) : kind(Kind::Number), numberValue(value) {}
  Json(const char *value) : kind(Kind::String), stringValue(value) {}
  Json(std::string value) : kind(Kind::String), stringValue(std::move(value)) {}

  static Json array() {
    Json j;
    j.kind = Kind::Array;
    return j;
  }
  static Json object() {
    Json j;
    j.kind = Kind::Object;
    return j;
  }

  Kind getKind() const { return kind; }
  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  /// A number written without fraction or exponent, within int64.
  bool isInteger() const { return kind == Kind::Number && isInt; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  bool asBool() const { return boolValue; }
  double asDouble() const { return numberValue; }
  int64_t asInt() const {
    return isInt ? intValue : static_cast<int64_t>(numberValue);
  }
  const std::string &asString() const { return stringValue; }

  /// Array elements (empty unless an array).
  const std::vector<Json> &elements() const { return items; }
  /// Object members in insertion order (empty unless an object).
  const std::vector<Member> &members() const { return fields; }
  size_t size() const { return isArray() ? items.size() : fields.size(); }
  const Json &operator[](size_t index) const { return items[index]; }

  /// The member named `key`, or null when absent (or not an object).
  const Json *find(const std::string &key) const;
  /// Sets (replaces or appends) member `key`; makes this an object.
  Json &set(const std::string &key, Json value);
  /// Appends to an array; makes this an array.
  Json &push(Json value);

  /// Serializes; `indent` > 0 pretty-prints with that many spaces per level.
  /// NaN and infinities, which JSON cannot spell, are written as null.
  std::string dump(int indent = 0) const;

  /// Parses `text`. On failure returns false and sets `error` to
  /// "line L, column C: what".
  static bool parse(const std::string &text, Json &result, std::string &error);

  bool operator==(const Json &other) const;
  bool operator!=(const Json &other) const { return !(*this == other); }

private:
  Kind kind = Kind::Null;
  bool boolValue = false;
  bool isInt = false;
  int64_t intValue = 0;
  double numberValue = 0;
  std::string stringValue;
  std::vector<Json> items;
  std::vector<Member> fields;

  void dumpTo(std::string &out, int indent, int depth) const;
  friend class JsonParser;
};

/// Escapes `text` as a JSON string literal, quotes included.
std::string jsonQuote(const std::string &text);

/// Reads a whole file; returns false and sets `error` when it cannot.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);
/// Reads and parses a JSON file; errors name the file.
bool readJsonFile(const std::string &path, Json &result, std::string &error);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_JSON_H
