//===- Expr.cpp - grid rules and launch preconditions ---------------------===//
//
// A recursive-descent parser builds the tree (chains of binary operators
// are loops into one node; only parentheses, calls and `!` recurse, which
// kMaxExprDepth bounds); an evaluator walks it for launchers and checks.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Expr.h"

#include "tile/Support/Checked.h"
#include "tile/Support/EnumNames.h"

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

static constexpr ::tile::EnumName<ExprOp> kExprOpSpellings[] = {
    {ExprOp::Or, "||"},  {ExprOp::And, "&&"},    {ExprOp::Eq, "=="},
    {ExprOp::Ne, "!="},  {ExprOp::Lt, "<"},      {ExprOp::Le, "<="},
    {ExprOp::Gt, ">"},   {ExprOp::Ge, ">="},     {ExprOp::Add, "+"},
    {ExprOp::Sub, "-"},  {ExprOp::Mul, "*"},     {ExprOp::Div, "/"},
    {ExprOp::Rem, "%"},  {ExprOp::CDiv, "cdiv"}, {ExprOp::Min, "min"},
    {ExprOp::Max, "max"}};
static_assert(::tile::listsEnum(kExprOpSpellings, ExprOp::Max));

const char *spellExprOp(ExprOp op) {
  return ::tile::enumName(kExprOpSpellings, op);
}

std::string locateExprError(const std::string &why, size_t at,
                            const std::string &text) {
  return why + " at column " + std::to_string(at + 1) + " of " +
         quoteExpr(text);
}

namespace {

using Value = std::optional<int64_t>;
using Kind = ExprNode::Kind;

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// The binary levels, loosest first, with their operators (longer
/// spellings before their prefixes).
const std::vector<std::vector<ExprOp>> kLevels = {
    {ExprOp::Or},
    {ExprOp::And},
    {ExprOp::Eq, ExprOp::Ne},
    {ExprOp::Le, ExprOp::Ge, ExprOp::Lt, ExprOp::Gt},
    {ExprOp::Add, ExprOp::Sub},
    {ExprOp::Mul, ExprOp::Div, ExprOp::Rem}};

/// Recursive descent: chains of binary operators are loops into one node;
/// only parentheses, calls and `!` recurse, which kMaxExprDepth bounds.
class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  bool run(ExprNode &root, std::string &error) {
    bool ok;
    if (text.size() > kMaxExprLength) {
      pos = 0;
      ok = fail("the expression is longer than " +
                std::to_string(kMaxExprLength) + " characters");
    } else {
      ok = parseLevel(0, root);
      skipSpace();
      if (ok && pos != text.size())
        ok = fail("unexpected '" + text.substr(pos, 1) + "'");
    }
    error = message;
    return ok;
  }

private:
  const std::string &text;
  size_t pos = 0;
  int depth = 0;
  std::string message;

  bool fail(const std::string &why, size_t at) {
    if (message.empty())
      message = locateExprError(why, at, text);
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

  /// A chain of level `level`'s operators (the unary level past the last).
  bool parseLevel(size_t level, ExprNode &node) {
    if (level == kLevels.size())
      return parseUnary(node);
    ExprNode first;
    if (!parseLevel(level + 1, first))
      return false;
    ExprNode chain;
    chain.kind = Kind::Chain;
    chain.at = first.at;
    chain.operands.push_back(std::move(first));
    while (true) {
      skipSpace();
      size_t at = pos;
      std::optional<ExprOp> op;
      for (ExprOp candidate : kLevels[level])
        if (consume(spellExprOp(candidate))) {
          op = candidate;
          break;
        }
      if (!op)
        break;
      ExprNode rhs;
      if (!parseLevel(level + 1, rhs))
        return false;
      chain.operands.push_back(std::move(rhs));
      chain.ops.push_back(*op);
      chain.opAt.push_back(at);
    }
    node = chain.ops.empty() ? std::move(chain.operands.front())
                             : std::move(chain);
    return true;
  }
  bool parseUnary(ExprNode &node) {
    skipSpace();
    size_t at = pos;
    if (consume("!", "=")) {
      ExprNode operand;
      if (!enter() || !parseUnary(operand))
        return false;
      --depth;
      node.kind = Kind::Not;
      node.at = at;
      node.operands.push_back(std::move(operand));
      return true;
    }
    return parsePrimary(node);
  }
  bool parsePrimary(ExprNode &node) {
    skipSpace();
    if (pos >= text.size())
      return fail(text.empty() ? "empty expression" : "unexpected end");
    if (consume("(")) {
      if (!enter() || !parseLevel(0, node))
        return false;
      --depth;
      return consume(")") || fail("expected ')'");
    }
    size_t start = pos;
    node.at = start;
    if (isDigit(text[pos])) {
      while (pos < text.size() && isNameChar(text[pos]))
        ++pos;
      std::string why;
      std::optional<int64_t> v = tile::checked::parseInt(
          std::string_view(text).substr(start, pos - start), 0, INT64_MAX,
          &why);
      if (!v)
        return fail("integer " + why, start);
      node.kind = Kind::Integer;
      node.number = *v;
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
      node.kind = Kind::Call;
      node.ops.push_back(name == "cdiv"  ? ExprOp::CDiv
                         : name == "min" ? ExprOp::Min
                                         : ExprOp::Max);
      node.operands.resize(2);
      if (!enter() || !parseLevel(0, node.operands[0]))
        return false;
      if (!consume(","))
        return fail(name + " takes two arguments: expected ','");
      skipSpace();
      node.opAt.push_back(pos);
      if (!parseLevel(0, node.operands[1]))
        return false;
      --depth;
      return consume(")") ||
             fail("expected ')' after the arguments of " + name);
    }
    node.name = name;
    if (consume(".")) {
      skipSpace();
      size_t dimStart = pos;
      while (pos < text.size() && isNameChar(text[pos]))
        ++pos;
      if (dimStart == pos)
        return fail("expected a dimension number after '" + name + ".'");
      std::string why;
      std::optional<int64_t> dim = tile::checked::parseInt(
          std::string_view(text).substr(dimStart, pos - dimStart), 0, 7, &why);
      if (!dim)
        return fail("dimension " + why, dimStart);
      node.kind = Kind::ViewDim;
      node.number = *dim;
      return true;
    }
    node.kind = Kind::Param;
    return true;
  }
};

/// Evaluates a tree; `live` is false on the side of `||` / `&&` that the
/// left side decides (its arithmetic errors are not errors).
class Evaluator {
public:
  Evaluator(const ParsedExpr &expr, const ExprScope &scope)
      : expr(expr), scope(scope) {}

  bool run(Value &value, std::string &error) {
    bool ok = eval(expr.root, value, true);
    error = message;
    return ok;
  }

private:
  const ParsedExpr &expr;
  const ExprScope &scope;
  std::string message;

  bool fail(const std::string &why, size_t at) {
    if (message.empty())
      message = locateExprError(why, at, expr.text);
    return false;
  }

  /// Applies a checked binary operator; `at` locates errors.
  bool apply(ExprOp op, Value lhs, Value rhs, Value &out, bool live,
             size_t at) {
    out.reset();
    bool divides = op == ExprOp::Div || op == ExprOp::Rem || op == ExprOp::CDiv;
    if (divides && rhs && *rhs == 0)
      return !live ||
             fail(op == ExprOp::CDiv ? "cdiv by zero" : "division by zero", at);
    if (!lhs || !rhs)
      return true;
    int64_t a = *lhs, b = *rhs;
    std::optional<int64_t> r;
    switch (op) {
    case ExprOp::Add:
      r = tile::checked::add(a, b);
      break;
    case ExprOp::Sub:
      if (int64_t d; !__builtin_sub_overflow(a, b, &d))
        r = d;
      break;
    case ExprOp::Mul:
      r = tile::checked::mul(a, b);
      break;
    case ExprOp::Div:
    case ExprOp::Rem:
    case ExprOp::CDiv:
      if (a == INT64_MIN && b == -1)
        break;
      if (op == ExprOp::Div) {
        r = a / b;
      } else if (op == ExprOp::Rem) {
        r = a % b;
      } else {
        int64_t q = a / b;
        if (a % b != 0 && ((a > 0) == (b > 0)))
          ++q;
        r = q;
      }
      break;
    case ExprOp::Min:
      r = a < b ? a : b;
      break;
    case ExprOp::Max:
      r = a > b ? a : b;
      break;
    case ExprOp::Lt:
      r = a < b;
      break;
    case ExprOp::Le:
      r = a <= b;
      break;
    case ExprOp::Gt:
      r = a > b;
      break;
    case ExprOp::Ge:
      r = a >= b;
      break;
    case ExprOp::Eq:
      r = a == b;
      break;
    case ExprOp::Ne:
      r = a != b;
      break;
    case ExprOp::Or:
    case ExprOp::And:
      break; // evalChain's
    }
    if (!r)
      return !live ||
             fail("the arithmetic overflows int64 (" + std::to_string(a) +
                      " and " + std::to_string(b) + ")",
                  at);
    out = r;
    return true;
  }

  bool eval(const ExprNode &node, Value &value, bool live) {
    value.reset();
    std::string why;
    switch (node.kind) {
    case Kind::Integer:
      value = node.number;
      return true;
    case Kind::ViewDim:
      return scope.viewDim(node.name, node.number, value, why) ||
             fail(why, node.at);
    case Kind::Param:
      return scope.param(node.name, value, why) || fail(why, node.at);
    case Kind::Not:
      if (!eval(node.operands[0], value, live))
        return false;
      if (value)
        value = *value == 0;
      return true;
    case Kind::Call: {
      Value a, b;
      return eval(node.operands[0], a, live) &&
             eval(node.operands[1], b, live) &&
             apply(node.ops[0], a, b, value, live, node.opAt[0]);
    }
    case Kind::Chain:
      return evalChain(node, value, live);
    }
    return false;
  }

  bool evalChain(const ExprNode &node, Value &value, bool live) {
    if (!eval(node.operands[0], value, live))
      return false;
    for (size_t i = 0; i < node.ops.size(); ++i) {
      ExprOp op = node.ops[i];
      const ExprNode &next = node.operands[i + 1];
      Value rhs;
      if (op == ExprOp::Or || op == ExprOp::And) {
        // The left side decides when it is known true (||) or false (&&).
        bool isOr = op == ExprOp::Or;
        bool decided = value && (*value != 0) == isOr;
        if (!eval(next, rhs, live && !decided))
          return false;
        if (decided)
          value = isOr ? 1 : 0;
        else if (value && rhs)
          value = *rhs != 0;
        else
          value = (rhs && (*rhs != 0) == isOr) ? Value(isOr ? 1 : 0) : Value();
        continue;
      }
      if (!eval(next, rhs, live) ||
          !apply(op, value, rhs, value, live, node.opAt[i]))
        return false;
    }
    return true;
  }
};

} // namespace

std::optional<ParsedExpr> parseExpr(const std::string &text,
                                    std::string &error) {
  ParsedExpr expr{text, ExprNode()};
  if (!Parser(expr.text).run(expr.root, error))
    return std::nullopt;
  return expr;
}

bool evaluateExpr(const ParsedExpr &expr, const ExprScope &scope,
                  std::optional<int64_t> &value, std::string &error) {
  return Evaluator(expr, scope).run(value, error);
}

bool analyzeExpr(const std::string &text, const ExprScope &scope,
                 std::optional<int64_t> &value, std::string &error) {
  value.reset();
  std::optional<ParsedExpr> expr = parseExpr(text, error);
  return expr && evaluateExpr(*expr, scope, value, error);
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
