//===- GridExpr.cpp - grid-rule expressions -------------------------------===//

#include "GridExpr.h"

#include <cctype>

namespace tile {
namespace runner {
namespace {

/// Recursive-descent parser: expr := term (('+'|'-') term)*,
/// term := factor (('*'|'/') factor)*, factor := int | NAME.d | call | (expr).
class Parser {
public:
  Parser(const std::string &text, const ViewShapes &views)
      : text(text), views(views) {}

  bool parse(int64_t &value, std::string &error) {
    bool ok = parseExpr(value);
    skipSpace();
    if (ok && pos != text.size())
      ok = fail("unexpected '" + text.substr(pos, 1) + "'");
    error = message;
    return ok;
  }

private:
  const std::string &text;
  const ViewShapes &views;
  size_t pos = 0;
  std::string message;

  bool fail(const std::string &why) {
    if (message.empty())
      message =
          why + " at column " + std::to_string(pos + 1) + " of '" + text + "'";
    return false;
  }
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool parseExpr(int64_t &value) {
    if (!parseTerm(value))
      return false;
    while (true) {
      if (consume('+')) {
        int64_t rhs;
        if (!parseTerm(rhs))
          return false;
        value += rhs;
      } else if (consume('-')) {
        int64_t rhs;
        if (!parseTerm(rhs))
          return false;
        value -= rhs;
      } else {
        return true;
      }
    }
  }
  bool parseTerm(int64_t &value) {
    if (!parseFactor(value))
      return false;
    while (true) {
      bool mul = consume('*');
      if (!mul && !consume('/'))
        return true;
      int64_t rhs;
      if (!parseFactor(rhs))
        return false;
      if (mul) {
        value *= rhs;
      } else {
        if (rhs == 0)
          return fail("division by zero");
        value /= rhs;
      }
    }
  }
  bool parseFactor(int64_t &value) {
    skipSpace();
    if (consume('('))
      return parseExpr(value) && (consume(')') || fail("expected ')'"));
    if (pos < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[pos]))) {
      value = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos])))
        value = value * 10 + (text[pos++] - '0');
      return true;
    }
    std::string name;
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '_'))
      name += text[pos++];
    if (name.empty())
      return fail("expected a number, a view dimension or a call");
    if (name == "cdiv" || name == "min" || name == "max") {
      int64_t a, b;
      if (!consume('(') || !parseExpr(a) || !consume(',') || !parseExpr(b) ||
          !consume(')'))
        return fail("expected " + name + "(a, b)");
      if (name == "cdiv") {
        if (b == 0)
          return fail("cdiv by zero");
        value = (a + b - 1) / b;
      } else {
        value = name == "min" ? (a < b ? a : b) : (a > b ? a : b);
      }
      return true;
    }
    if (!consume('.'))
      return fail("expected '.' after view name '" + name + "'");
    skipSpace();
    size_t start = pos;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (start == pos)
      return fail("expected a dimension number after '" + name + ".'");
    size_t dim = std::stoul(text.substr(start, pos - start));
    auto it = views.find(name);
    if (it == views.end())
      return fail("no view argument named '" + name + "'");
    if (dim >= it->second.size())
      return fail("view '" + name + "' has no dimension " +
                  std::to_string(dim));
    value = it->second[dim];
    return true;
  }
};

} // namespace

bool evalGridExpr(const std::string &expr, const ViewShapes &views,
                  int64_t &value, std::string &error) {
  return Parser(expr, views).parse(value, error);
}

} // namespace runner
} // namespace tile
