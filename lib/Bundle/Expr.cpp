//===- Expr.cpp - grid rules and launch preconditions ---------------------===//
//
// A recursive-descent parser that evaluates while it parses: chains of
// binary operators are loops, and only parentheses, calls and `!` recurse,
// which kMaxExprDepth bounds.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Expr.h"

#include "tile/Support/Checked.h"

#include <cctype>

namespace tilebundle {

bool SignatureScope::viewDim(const std::string &name, int64_t dim,
                             std::optional<int64_t> &value,
                             std::string &error) const {
  value.reset();
  auto it = viewRanks.find(name);
  if (it == viewRanks.end()) {
    bool scalar = false;
    for (const std::string &s : scalars)
      scalar |= s == name;
    error = scalar ? "'" + name + "' is a scalar argument, not a view"
                   : "no view argument named '" + name + "'";
    return false;
  }
  if (dim >= it->second) {
    error = "view '" + name + "' has rank " + std::to_string(it->second) +
            ", so no dimension " + std::to_string(dim);
    return false;
  }
  return true;
}

bool SignatureScope::param(const std::string &name,
                           std::optional<int64_t> &value,
                           std::string &error) const {
  auto it = params.find(name);
  if (it == params.end()) {
    error = viewRanks.count(name)
                ? "'" + name + "' is a view: name one of its sizes, " + name +
                      ".0 to " + name + "." +
                      std::to_string(viewRanks.at(name) - 1)
                : "no parameter named '" + name + "'";
    return false;
  }
  value = it->second;
  return true;
}

bool BindingScope::viewDim(const std::string &name, int64_t dim,
                           std::optional<int64_t> &value,
                           std::string &error) const {
  auto it = viewSizes.find(name);
  if (it == viewSizes.end()) {
    error = "no view argument named '" + name + "'";
    return false;
  }
  if (dim >= static_cast<int64_t>(it->second.size())) {
    error = "view '" + name + "' has rank " +
            std::to_string(it->second.size()) + ", so no dimension " +
            std::to_string(dim);
    return false;
  }
  value = it->second[dim];
  return true;
}

bool BindingScope::param(const std::string &name, std::optional<int64_t> &value,
                         std::string &error) const {
  auto it = params.find(name);
  if (it == params.end()) {
    error = "no parameter named '" + name + "'";
    return false;
  }
  value = it->second;
  return true;
}

std::string quoteExpr(const std::string &text, size_t max) {
  if (text.size() <= max)
    return "'" + text + "'";
  return "'" + text.substr(0, max) + "...' (" + std::to_string(text.size()) +
         " characters)";
}

namespace {

using Value = std::optional<int64_t>;

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

class Parser {
public:
  Parser(const std::string &text, const ExprScope &scope)
      : text(text), scope(scope) {}

  bool run(Value &value, std::string &error) {
    bool ok;
    if (text.size() > kMaxExprLength) {
      pos = 0;
      ok = fail("the expression is longer than " +
                std::to_string(kMaxExprLength) + " characters");
    } else {
      ok = parseOr(value, true);
      skipSpace();
      if (ok && pos != text.size())
        ok = fail("unexpected '" + text.substr(pos, 1) + "'");
    }
    error = message;
    return ok;
  }

private:
  const std::string &text;
  const ExprScope &scope;
  size_t pos = 0;
  int depth = 0;
  std::string message;

  bool fail(const std::string &why, size_t at) {
    if (message.empty())
      message = why + " at column " + std::to_string(at + 1) + " of " +
                quoteExpr(text);
    return false;
  }
  bool fail(const std::string &why) { return fail(why, pos); }

  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  /// Consumes `op` when it comes next (and is not the start of a longer
  /// operator named in `notBefore`).
  bool consume(const char *op, const char *notBefore = "") {
    skipSpace();
    size_t n = std::char_traits<char>::length(op);
    if (text.compare(pos, n, op) != 0)
      return false;
    if (pos + n < text.size() && *notBefore &&
        std::char_traits<char>::find(notBefore,
                                     std::char_traits<char>::length(notBefore),
                                     text[pos + n]))
      return false;
    pos += n;
    return true;
  }

  bool enter() {
    if (++depth > kMaxExprDepth)
      return fail("nesting deeper than " + std::to_string(kMaxExprDepth));
    return true;
  }

  /// Applies a checked binary operator; `at` locates errors.
  bool apply(char op, Value lhs, Value rhs, Value &out, bool live, size_t at) {
    out.reset();
    if ((op == '/' || op == '%' || op == 'c') && rhs && *rhs == 0)
      return !live || fail(op == 'c' ? "cdiv by zero" : "division by zero", at);
    if (!lhs || !rhs)
      return true;
    int64_t a = *lhs, b = *rhs;
    std::optional<int64_t> r;
    switch (op) {
    case '+':
      r = tile::checked::add(a, b);
      break;
    case '-':
      if (int64_t d; !__builtin_sub_overflow(a, b, &d))
        r = d;
      break;
    case '*':
      r = tile::checked::mul(a, b);
      break;
    case '/':
    case '%':
    case 'c':
      if (a == INT64_MIN && b == -1)
        break;
      if (op == '/') {
        r = a / b;
      } else if (op == '%') {
        r = a % b;
      } else {
        int64_t q = a / b;
        if (a % b != 0 && ((a > 0) == (b > 0)))
          ++q;
        r = q;
      }
      break;
    case 'm':
      r = a < b ? a : b;
      break;
    case 'M':
      r = a > b ? a : b;
      break;
    case '<':
      r = a < b;
      break;
    case 'l':
      r = a <= b;
      break;
    case '>':
      r = a > b;
      break;
    case 'g':
      r = a >= b;
      break;
    case '=':
      r = a == b;
      break;
    case '!':
      r = a != b;
      break;
    }
    if (!r)
      return !live ||
             fail("the arithmetic overflows int64 (" + std::to_string(a) +
                      " and " + std::to_string(b) + ")",
                  at);
    out = r;
    return true;
  }

  bool parseOr(Value &value, bool live) {
    if (!parseAnd(value, live))
      return false;
    while (consume("||")) {
      bool decided = value && *value != 0;
      Value rhs;
      if (!parseAnd(rhs, live && !decided))
        return false;
      if (decided)
        value = 1;
      else if (value && rhs)
        value = *rhs != 0;
      else
        value = (rhs && *rhs != 0) ? Value(1) : Value();
    }
    return true;
  }
  bool parseAnd(Value &value, bool live) {
    if (!parseEq(value, live))
      return false;
    while (consume("&&")) {
      bool decided = value && *value == 0;
      Value rhs;
      if (!parseEq(rhs, live && !decided))
        return false;
      if (decided)
        value = 0;
      else if (value && rhs)
        value = *rhs != 0;
      else
        value = (rhs && *rhs == 0) ? Value(0) : Value();
    }
    return true;
  }
  bool parseEq(Value &value, bool live) {
    if (!parseRel(value, live))
      return false;
    while (true) {
      skipSpace();
      size_t at = pos;
      char op = consume("==") ? '=' : consume("!=") ? '!' : 0;
      if (!op)
        return true;
      Value rhs;
      if (!parseRel(rhs, live) || !apply(op, value, rhs, value, live, at))
        return false;
    }
  }
  bool parseRel(Value &value, bool live) {
    if (!parseAdd(value, live))
      return false;
    while (true) {
      skipSpace();
      size_t at = pos;
      char op = consume("<=")   ? 'l'
                : consume(">=") ? 'g'
                : consume("<")  ? '<'
                : consume(">")  ? '>'
                                : 0;
      if (!op)
        return true;
      Value rhs;
      if (!parseAdd(rhs, live) || !apply(op, value, rhs, value, live, at))
        return false;
    }
  }
  bool parseAdd(Value &value, bool live) {
    if (!parseMul(value, live))
      return false;
    while (true) {
      skipSpace();
      size_t at = pos;
      char op = consume("+") ? '+' : consume("-") ? '-' : 0;
      if (!op)
        return true;
      Value rhs;
      if (!parseMul(rhs, live) || !apply(op, value, rhs, value, live, at))
        return false;
    }
  }
  bool parseMul(Value &value, bool live) {
    if (!parseUnary(value, live))
      return false;
    while (true) {
      skipSpace();
      size_t at = pos;
      char op = consume("*")   ? '*'
                : consume("/") ? '/'
                : consume("%") ? '%'
                               : 0;
      if (!op)
        return true;
      Value rhs;
      if (!parseUnary(rhs, live) || !apply(op, value, rhs, value, live, at))
        return false;
    }
  }
  bool parseUnary(Value &value, bool live) {
    if (consume("!", "=")) {
      if (!enter() || !parseUnary(value, live))
        return false;
      --depth;
      if (value)
        value = *value == 0;
      return true;
    }
    return parsePrimary(value, live);
  }
  bool parsePrimary(Value &value, bool live) {
    skipSpace();
    value.reset();
    if (pos >= text.size())
      return fail(text.empty() ? "empty expression" : "unexpected end");
    if (consume("(")) {
      if (!enter() || !parseOr(value, live))
        return false;
      --depth;
      return consume(")") || fail("expected ')'");
    }
    size_t start = pos;
    if (isDigit(text[pos])) {
      while (pos < text.size() && isNameChar(text[pos]))
        ++pos;
      std::string why;
      std::optional<int64_t> v = tile::checked::parseInt(
          std::string_view(text).substr(start, pos - start), 0, INT64_MAX,
          &why);
      if (!v)
        return fail("integer " + why, start);
      value = v;
      return true;
    }
    if (!isNameStart(text[pos]))
      return fail("expected a number, a name or '('");
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    std::string name = text.substr(start, pos - start);
    if (name == "cdiv" || name == "min" || name == "max") {
      if (!consume("("))
        return fail("expected '(' after " + name);
      Value a, b;
      if (!enter() || !parseOr(a, live))
        return false;
      if (!consume(","))
        return fail(name + " takes two arguments: expected ','");
      skipSpace();
      size_t at = pos;
      if (!parseOr(b, live))
        return false;
      --depth;
      if (!consume(")"))
        return fail("expected ')' after the arguments of " + name);
      char op = name == "cdiv" ? 'c' : name == "min" ? 'm' : 'M';
      return apply(op, a, b, value, live, at);
    }
    std::string why;
    if (consume(".")) {
      skipSpace();
      size_t dimStart = pos;
      while (pos < text.size() && isNameChar(text[pos]))
        ++pos;
      if (dimStart == pos)
        return fail("expected a dimension number after '" + name + ".'");
      std::optional<int64_t> dim = tile::checked::parseInt(
          std::string_view(text).substr(dimStart, pos - dimStart), 0, 7, &why);
      if (!dim)
        return fail("dimension " + why, dimStart);
      if (!scope.viewDim(name, *dim, value, why))
        return fail(why, start);
      return true;
    }
    if (!scope.param(name, value, why))
      return fail(why, start);
    return true;
  }
};

} // namespace

bool analyzeExpr(const std::string &text, const ExprScope &scope,
                 std::optional<int64_t> &value, std::string &error) {
  return Parser(text, scope).run(value, error);
}

bool evalExpr(const std::string &text, const ExprScope &scope, int64_t &value,
              std::string &error) {
  std::optional<int64_t> v;
  if (!analyzeExpr(text, scope, v, error))
    return false;
  if (!v) {
    error = quoteExpr(text) + " depends on values that are not bound";
    return false;
  }
  value = *v;
  return true;
}

std::string substituteParams(const std::string &text,
                             const std::map<std::string, int64_t> &values) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (isDigit(c)) { // a number, or a dimension after '.': copy it whole
      while (i < text.size() && isNameChar(text[i]))
        out += text[i++];
      continue;
    }
    if (!isNameStart(c)) {
      out += c;
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isNameChar(text[i]))
      ++i;
    std::string word = text.substr(start, i - start);
    size_t next = i;
    while (next < text.size() &&
           std::isspace(static_cast<unsigned char>(text[next])))
      ++next;
    bool isView = next < text.size() && text[next] == '.';
    auto it = values.find(word);
    if (it == values.end() || isView) {
      out += word;
      continue;
    }
    out += it->second < 0
               ? "(0 - " + std::to_string(-(it->second + 1)) + " - 1)"
               : std::to_string(it->second);
  }
  return out;
}

} // namespace tilebundle
