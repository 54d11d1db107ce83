//===- Launch.cpp - the launch ABI and launch plans -----------------------===//

#include "tile/Bundle/Launch.h"

#include "tile/Bundle/Target.h"
#include "tile/Support/Checked.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace tilebundle {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  return strides;
}

std::vector<uint64_t> tensorMapByteStrides(const AbiEntry &map,
                                           const ViewBinding &view) {
  uint64_t elementBytes = static_cast<uint64_t>(dtypeBytes(view.dtype));
  std::vector<uint64_t> strides;
  // The bytes spanned by the map dimensions inside the current one.
  uint64_t span = static_cast<uint64_t>(view.sizes[map.dims[0]]) * elementBytes;
  for (size_t i = 1; i < map.dims.size(); ++i) {
    int64_t d = map.dims[i];
    uint64_t stride =
        view.sizes[d] == 1
            ? (span + 15) / 16 * 16
            : static_cast<uint64_t>(view.strides[d]) * elementBytes;
    strides.push_back(stride);
    span = stride * static_cast<uint64_t>(view.sizes[d]);
  }
  return strides;
}

ScalarBinding ScalarBinding::ofInt(int64_t v) {
  ScalarBinding s;
  s.isInteger = true;
  s.integer = v;
  s.real = static_cast<double>(v);
  return s;
}

ScalarBinding ScalarBinding::ofReal(double v) {
  ScalarBinding s;
  s.real = v;
  return s;
}

static std::string hex(uint64_t v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "0x%llx",
                static_cast<unsigned long long>(v));
  return buffer;
}

bool checkView(const AbiEntry &e, const ViewBinding &v, std::string &error) {
  std::string arg = "argument '" + e.name + "'";
  if (v.dtype != e.dtype) {
    error = arg + " is " + dtypeName(v.dtype) + ", but the kernel takes " +
            dtypeName(e.dtype);
    return false;
  }
  if (static_cast<int>(v.sizes.size()) != e.rank ||
      v.strides.size() != v.sizes.size()) {
    error = arg + " has rank " + std::to_string(v.sizes.size()) +
            ", but the kernel takes rank " + std::to_string(e.rank);
    return false;
  }
  for (int d = 0; d < e.rank; ++d) {
    if (v.sizes[d] < 0 || v.sizes[d] > INT32_MAX) {
      error = arg + ": dimension " + std::to_string(d) + " has size " +
              std::to_string(v.sizes[d]) + ", outside the ABI's int32 sizes";
      return false;
    }
    if (v.strides[d] < 0) {
      error = arg + ": stride " + std::to_string(d) + " is negative";
      return false;
    }
  }
  int64_t bytes = dtypeBytes(e.dtype);
  if (v.address % e.align != 0) {
    error = arg + ": base address " + hex(v.address) +
            " is not a multiple of the bundle's align " +
            std::to_string(e.align) + " bytes";
    return false;
  }
  if (v.strides[e.rank - 1] != 1 && v.sizes[e.rank - 1] != 1) {
    error = arg + ": the innermost stride is " +
            std::to_string(v.strides[e.rank - 1]) +
            "; the kernel needs contiguous rows (stride 1)";
    return false;
  }
  for (int d = 0; d + 1 < e.rank; ++d) {
    if (v.sizes[d] == 1)
      continue;
    std::optional<int64_t> strideBytes =
        tile::checked::mul(v.strides[d], bytes);
    if (!strideBytes || *strideBytes % e.align != 0) {
      error = arg + ": stride " + std::to_string(d) + " is " +
              std::to_string(v.strides[d]) + " elements = " +
              (strideBytes ? std::to_string(*strideBytes) : "too many") +
              " bytes, not a multiple of the bundle's align " +
              std::to_string(e.align) +
              " (a variant compiled with a smaller view-align runs it)";
      return false;
    }
  }
  return true;
}

size_t KernelParams::packedBytes() const {
  size_t offset = 0;
  for (const KernelParam &p : params) {
    offset = (offset + p.align - 1) / p.align * p.align;
    offset += p.size;
  }
  return offset;
}

void **KernelParams::pointers() {
  ptrs.clear();
  for (KernelParam &p : params)
    ptrs.push_back(p.bytes);
  return ptrs.data();
}

void makeBindingScope(const Manifest &m, const LaunchBinding &b,
                      BindingScope &scope) {
  for (const auto &v : b.views)
    scope.viewSizes[v.first] = v.second.sizes;
  for (const auto &p : m.params)
    if (std::optional<int64_t> value = p.second.exprValue())
      scope.params[p.first] = *value;
}

bool checkRequires(const Manifest &m, const LaunchBinding &b,
                   std::string &error) {
  BindingScope scope;
  makeBindingScope(m, b, scope);
  for (const std::string &expr : m.preconditions) {
    int64_t value;
    std::string why;
    if (!evalExpr(expr, scope, value, why)) {
      error = "requires " + why;
      return false;
    }
    if (value == 0) {
      error = "the kernel requires " + quoteExpr(expr) +
              ", which does not hold for these arguments";
      return false;
    }
  }
  return true;
}

bool evalGrid(const Manifest &m, const LaunchBinding &b,
              std::array<int64_t, 3> &grid, std::string &error) {
  BindingScope scope;
  makeBindingScope(m, b, scope);
  static const char *axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    std::string why;
    if (!evalExpr(m.grid[i], scope, grid[i], why)) {
      error = std::string("grid.") + axes[i] + ": " + why;
      return false;
    }
    if (grid[i] < 1) {
      error = std::string("grid.") + axes[i] + " = " + quoteExpr(m.grid[i]) +
              " is " + std::to_string(grid[i]) +
              " for these arguments (must be at least 1)";
      return false;
    }
  }
  return true;
}

bool planLaunch(const Manifest &m, const LaunchBinding &b,
                const TensorMapEncoder *encoder, LaunchPlan &plan,
                std::string &error) {
  plan = LaunchPlan();
  for (const auto &v : b.views) {
    const AbiEntry *e = m.abiEntry(v.first);
    if (!e || e->kind != AbiEntry::Kind::View) {
      error = "'" + v.first + "' is bound as a view, but kernel " + m.kernel +
              " has no view argument of that name";
      return false;
    }
  }
  for (const auto &s : b.scalars) {
    const AbiEntry *e = m.abiEntry(s.first);
    if (!e || e->kind != AbiEntry::Kind::Scalar) {
      error = "'" + s.first + "' is bound as a scalar, but kernel " + m.kernel +
              " has no scalar argument of that name";
      return false;
    }
  }
  for (const AbiEntry &e : m.abi) {
    if (e.kind == AbiEntry::Kind::View) {
      auto it = b.views.find(e.name);
      if (it == b.views.end()) {
        error = "the kernel's view argument '" + e.name + "' is not bound";
        return false;
      }
      if (!checkView(e, it->second, error))
        return false;
    } else if (e.kind == AbiEntry::Kind::Scalar && !b.scalars.count(e.name)) {
      error = "the kernel's scalar argument '" + e.name + "' is not bound";
      return false;
    }
  }
  if (!checkRequires(m, b, error) || !evalGrid(m, b, plan.grid, error))
    return false;
  plan.block = m.block;
  plan.sharedBytes = m.sharedBytes;

  auto add = [&](const void *value, size_t size, size_t align,
                 std::string description) {
    KernelParam p;
    p.size = size;
    p.align = align;
    if (value)
      std::memcpy(p.bytes, value, size);
    p.description = std::move(description);
    plan.params.params.push_back(std::move(p));
  };
  for (const AbiEntry &e : m.abi) {
    if (e.kind == AbiEntry::Kind::View) {
      const ViewBinding &v = b.views.at(e.name);
      add(&v.address, 8, 8, e.name + ".ptr: ptr = " + hex(v.address));
      for (int d = 0; d < e.rank; ++d) {
        int32_t size = static_cast<int32_t>(v.sizes[d]);
        add(&size, 4, 4,
            e.name + ".size[" + std::to_string(d) +
                "]: i32 = " + std::to_string(size));
      }
      for (int d = 0; d < e.rank; ++d)
        add(&v.strides[d], 8, 8,
            e.name + ".stride[" + std::to_string(d) +
                "]: i64 = " + std::to_string(v.strides[d]));
    } else if (e.kind == AbiEntry::Kind::Scalar) {
      const ScalarBinding &s = b.scalars.at(e.name);
      if (e.dtype == DType::F32) {
        double d = s.isInteger ? static_cast<double>(s.integer) : s.real;
        // Finite, and not rounded to infinity: below the midpoint between
        // FLT_MAX and 2^128 (1e39 was packed as inf; issue 26).
        if (!std::isfinite(d) || std::fabs(d) >= 0x1.ffffffp+127) {
          std::ostringstream got;
          got << d;
          error = "argument '" + e.name + "' is f32, got " + got.str() +
                  ": not a finite f32";
          return false;
        }
        float f = static_cast<float>(d);
        std::ostringstream text;
        text << e.name << ": f32 = " << f;
        add(&f, 4, 4, text.str());
      } else {
        if (!s.isInteger || s.integer < INT32_MIN || s.integer > INT32_MAX) {
          std::ostringstream got;
          if (s.isInteger)
            got << s.integer;
          else
            got << s.real;
          error = "argument '" + e.name + "' is i32, got " + got.str();
          return false;
        }
        int32_t i = static_cast<int32_t>(s.integer);
        add(&i, 4, 4, e.name + ": i32 = " + std::to_string(i));
      }
    } else {
      const AbiEntry *viewEntry = m.abiEntry(e.view);
      const ViewBinding &v = b.views.at(e.view);
      unsigned char bytes[128] = {};
      std::string what = "zeros (dry run)";
      if (encoder) {
        if (!(*encoder)(e, *viewEntry, v, bytes, error)) {
          error = "tensor map '" + e.name + "': " + error;
          return false;
        }
        what = "encoded";
      }
      add(bytes, 128, 64,
          e.name + ": tensor map of " + e.view + " (128 bytes, " + what + ")");
    }
  }
  return true;
}

KernelParams abiParams(const Manifest &m) {
  KernelParams out;
  auto add = [&](size_t size, size_t align, std::string description) {
    KernelParam p;
    p.size = size;
    p.align = align;
    p.description = std::move(description);
    out.params.push_back(std::move(p));
  };
  for (const AbiEntry &e : m.abi) {
    if (e.kind == AbiEntry::Kind::View) {
      add(8, 8, e.name + ".ptr: ptr");
      for (int d = 0; d < e.rank; ++d)
        add(4, 4, e.name + ".size[" + std::to_string(d) + "]: i32");
      for (int d = 0; d < e.rank; ++d)
        add(8, 8, e.name + ".stride[" + std::to_string(d) + "]: i64");
    } else if (e.kind == AbiEntry::Kind::Scalar) {
      add(4, 4, e.name + ": " + dtypeName(e.dtype));
    } else {
      add(128, 64, e.name + ": tensor map of " + e.view + " (128 bytes)");
    }
  }
  return out;
}

bool checkPtxParams(const PtxInfo &info, const std::string &entry,
                    const KernelParams &params, std::string &error) {
  auto it = std::find(info.entries.begin(), info.entries.end(), entry);
  if (it == info.entries.end()) {
    std::string names;
    for (const std::string &e : info.entries)
      names += (names.empty() ? "" : ", ") + e;
    error = "the PTX has no .entry named '" + entry + "' (it declares " +
            names + ")";
    return false;
  }
  const std::vector<int64_t> &sizes =
      info.paramSizes[it - info.entries.begin()];
  for (size_t i = 0; i < sizes.size() && i < params.count(); ++i) {
    if (sizes[i] >= 0 &&
        static_cast<size_t>(sizes[i]) != params.params[i].size) {
      error = "the PTX entry's parameter " + std::to_string(i) + " is " +
              std::to_string(sizes[i]) + " bytes, but the manifest abi puts " +
              params.params[i].description + " (" +
              std::to_string(params.params[i].size) + " bytes) there";
      return false;
    }
  }
  if (sizes.size() != params.count()) {
    error = "the PTX entry '" + entry + "' takes " +
            std::to_string(sizes.size()) +
            " parameters, but the manifest abi expands to " +
            std::to_string(params.count()) +
            " (a view of rank R is 1 + 2R parameters, a scalar one, a tensor "
            "map one of 128 bytes)";
    return false;
  }
  return true;
}

} // namespace tilebundle
