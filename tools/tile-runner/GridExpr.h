//===- GridExpr.h - grid-rule expressions of kernel bundles -----*- C++ -*-===//
//
// Evaluates the grid expressions of a kernel (`tile.kernel` grid, bundle
// manifest `grid`): integers, + - * /, parentheses, cdiv/min/max and
// `NAME.d`, the size of dimension d of the view argument NAME.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_GRIDEXPR_H
#define TILE_RUNNER_GRIDEXPR_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tile {
namespace runner {

using ViewShapes = std::map<std::string, std::vector<int64_t>>;

/// Evaluates `expr`. Returns false and sets `error` on a syntax error, an
/// unknown view or dimension, or a division by zero.
bool evalGridExpr(const std::string &expr, const ViewShapes &views,
                  int64_t &value, std::string &error);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_GRIDEXPR_H
