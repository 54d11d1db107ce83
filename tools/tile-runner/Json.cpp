//===- Json.cpp - a small JSON reader and writer --------------------------===//

#include "Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tile {
namespace runner {

const Json *Json::find(const std::string &key) const {
  for (const Member &member : fields)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

Json &Json::set(const std::string &key, Json value) {
  if (kind != Kind::Object) {
    *this = object();
  }
  for (Member &member : fields) {
    if (member.first == key) {
      member.second = std::move(value);
      return member.second;
    }
  }
  fields.emplace_back(key, std::move(value));
  return fields.back().second;
}

Json &Json::push(Json value) {
  if (kind != Kind::Array)
    *this = array();
  items.push_back(std::move(value));
  return items.back();
}

bool Json::operator==(const Json &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Null:
    return true;
  case Kind::Bool:
    return boolValue == other.boolValue;
  case Kind::Number:
    if (isInt && other.isInt)
      return intValue == other.intValue;
    return numberValue == other.numberValue;
  case Kind::String:
    return stringValue == other.stringValue;
  case Kind::Array:
    return items == other.items;
  case Kind::Object:
    return fields == other.fields;
  }
  return false;
}

std::string jsonQuote(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
  return out;
}

/// The shortest "%.Ng" spelling that reads back as the same double.
static std::string formatDouble(double value) {
  if (!std::isfinite(value))
    return "null";
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  std::string text = buffer;
  // "1e+20" and "3" are valid JSON numbers; keep a marker that this was a
  // double so that it reads back as one.
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

void Json::dumpTo(std::string &out, int indent, int depth) const {
  auto newline = [&](int level) {
    if (indent <= 0)
      return;
    out += '\n';
    out.append(static_cast<size_t>(indent * level), ' ');
  };
  switch (kind) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += boolValue ? "true" : "false";
    return;
  case Kind::Number:
    out += isInt ? std::to_string(intValue) : formatDouble(numberValue);
    return;
  case Kind::String:
    out += jsonQuote(stringValue);
    return;
  case Kind::Array:
    if (items.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i)
        out += indent > 0 ? "," : ", ";
      newline(depth + 1);
      items[i].dumpTo(out, indent, depth + 1);
    }
    newline(depth);
    out += ']';
    return;
  case Kind::Object:
    if (fields.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i)
        out += indent > 0 ? "," : ", ";
      newline(depth + 1);
      out += jsonQuote(fields[i].first);
      out += ": ";
      fields[i].second.dumpTo(out, indent, depth + 1);
    }
    newline(depth);
    out += '}';
    return;
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dumpTo(out, indent, 0);
  return out;
}

/// Recursive-descent JSON parser (RFC 8259), with line/column errors.
class JsonParser {
public:
  explicit JsonParser(const std::string &text) : text(text) {}

  bool parseDocument(Json &result, std::string &error) {
    bool ok = parseValue(result, 0);
    if (ok) {
      skipSpace();
      if (pos != text.size())
        ok = fail("unexpected text after the JSON value");
    }
    if (!ok)
      error = message;
    return ok;
  }

private:
  static constexpr int maxDepth = 256;
  const std::string &text;
  size_t pos = 0;
  std::string message;

  bool fail(const std::string &what) {
    if (!message.empty())
      return false;
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    message = "line " + std::to_string(line) + ", column " +
              std::to_string(column) + ": " + what;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    pos += n;
    return true;
  }

  bool parseValue(Json &result, int depth) {
    if (depth > maxDepth)
      return fail("nesting deeper than " + std::to_string(maxDepth));
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of input, expected a value");
    char c = text[pos];
    if (c == '{')
      return parseObject(result, depth);
    if (c == '[')
      return parseArray(result, depth);
    if (c == '"') {
      result = Json(std::string());
      return parseString(result.stringValue);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(result);
    if (literal("true")) {
      result = Json(true);
      return true;
    }
    if (literal("false")) {
      result = Json(false);
      return true;
    }
    if (literal("null")) {
      result = Json();
      return true;
    }
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parseObject(Json &result, int depth) {
    result = Json::object();
    ++pos; // '{'
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a member name in double quotes");
      std::string key;
      if (!parseString(key))
        return false;
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after member name");
      ++pos;
      Json value;
      if (!parseValue(value, depth + 1))
        return false;
      if (result.find(key))
        return fail("duplicate member '" + key + "'");
      result.fields.emplace_back(std::move(key), std::move(value));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object");
    }
  }

  bool parseArray(Json &result, int depth) {
    result = Json::array();
    ++pos; // '['
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      Json value;
      if (!parseValue(value, depth + 1))
        return false;
      result.items.push_back(std::move(value));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array");
    }
  }

  bool parseHex4(unsigned &value) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        value |= static_cast<unsigned>(c - 'A' + 10);
      else
        return fail("bad hex digit in \\u escape");
    }
    return true;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(text[pos]);
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos;
        continue;
      }
      ++pos;
      if (pos >= text.size())
        return fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp = 0;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned low = 0;
          if (!literal("\\u") || !parseHex4(low) || low < 0xDC00 ||
              low > 0xDFFF)
            return fail("unpaired UTF-16 surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  bool parseNumber(Json &result) {
    size_t start = pos;
    bool integral = true;
    if (text[pos] == '-')
      ++pos;
    auto digits = [&]() {
      size_t first = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos - first;
    };
    size_t intStart = pos;
    size_t intDigits = digits();
    if (intDigits == 0)
      return fail("expected digits in number");
    if (intDigits > 1 && text[intStart] == '0')
      return fail("leading zero in number");
    if (pos < text.size() && text[pos] == '.') {
      integral = false;
      ++pos;
      if (digits() == 0)
        return fail("expected digits after '.'");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      integral = false;
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (digits() == 0)
        return fail("expected digits in exponent");
    }
    std::string spelling = text.substr(start, pos - start);
    if (integral) {
      errno = 0;
      long long value = std::strtoll(spelling.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        result = Json(static_cast<int64_t>(value));
        return true;
      }
    }
    result = Json(std::strtod(spelling.c_str(), nullptr));
    return true;
  }
};

bool Json::parse(const std::string &text, Json &result, std::string &error) {
  return JsonParser(text).parseDocument(result, error);
}

bool readFile(const std::string &path, std::string &contents,
              std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  contents = buffer.str();
  return true;
}

bool readJsonFile(const std::string &path, Json &result, std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  std::string why;
  if (!Json::parse(text, result, why)) {
    error = path + ": " + why;
    return false;
  }
  return true;
}

} // namespace runner
} // namespace tile
