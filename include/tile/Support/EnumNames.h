//===- EnumNames.h - the names of an enum's values, in one table -*- C++
//-*-===//
//
// The words an enum is written and read as (a dtype, a manifest's access or
// abi kind, a pipeline stage, a runner option) in one table per enum, so the
// name of a value and the parse of a name cannot drift apart, and one lookup
// serves every enum instead of a switch each. A table lists the enumerators
// in declaration order, which `listsEnum` checks at compile time where the
// table is defined (what -Wswitch checked of the switches). Plain C++17 with
// no LLVM dependency: the bundle library and the GPU-only runner use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_ENUMNAMES_H
#define TILE_SUPPORT_ENUMNAMES_H

#include <cstddef>
#include <optional>
#include <string_view>

namespace tile {

/// One entry of an enum's name table.
template <typename E> struct EnumName {
  E value;
  const char *name;
};

/// Whether `table` lists the enumerators 0, 1, ..., `last` in order, each
/// once: `static_assert(listsEnum(kTable, E::Last))` beside the table.
template <typename E, size_t N>
constexpr bool listsEnum(const EnumName<E> (&table)[N], E last) {
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(table[i].value) != i)
      return false;
  return N == static_cast<size_t>(last) + 1;
}

/// The name of `value` in a table that `listsEnum`; "?" for a value outside
/// the enum (a cast integer).
template <typename E, size_t N>
constexpr const char *enumName(const EnumName<E> (&table)[N], E value) {
  size_t i = static_cast<size_t>(value);
  return i < N ? table[i].name : "?";
}

/// The value `name` names in `table` (the first such entry), or nullopt.
template <typename E, size_t N>
std::optional<E> parseEnumName(const EnumName<E> (&table)[N],
                               std::string_view name) {
  for (const EnumName<E> &entry : table)
    if (name == entry.name)
      return entry.value;
  return std::nullopt;
}

} // namespace tile

#endif // TILE_SUPPORT_ENUMNAMES_H
