//===- Binding.cpp - the arguments of a run, bound by name ----------------===//

#include "Binding.h"

#include "tile/Bundle/Npy.h"
#include "tile/Support/Checked.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace tile {
namespace runner {

using tilebundle::AbiEntry;

int64_t TensorArg::elements() const {
  return checked::product(shape).value_or(-1);
}

int64_t TensorArg::bytes() const {
  std::optional<int64_t> n = checked::product(shape);
  std::optional<int64_t> b = n ? checked::mul(*n, dtypeBytes(dtype)) : n;
  return b.value_or(-1);
}

std::string TensorArg::str() const {
  std::string s = std::string(dtypeName(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

TensorArg *RunSpec::find(const std::string &name) {
  for (TensorArg &t : tensors)
    if (t.name == name)
      return &t;
  return nullptr;
}

const TensorArg *RunSpec::find(const std::string &name) const {
  return const_cast<RunSpec *>(this)->find(name);
}

int64_t RunSpec::tensorBytes() const {
  int64_t total = 0;
  for (const TensorArg &t : tensors) {
    std::optional<int64_t> sum = checked::add(total, t.bytes());
    if (t.bytes() < 0 || !sum)
      return INT64_MAX;
    total = *sum;
  }
  return total;
}

LaunchBinding
RunSpec::launchBinding(const std::map<std::string, uint64_t> &addresses) const {
  LaunchBinding b;
  for (const TensorArg &t : tensors) {
    tilebundle::ViewBinding v;
    auto it = addresses.find(t.name);
    v.address = it == addresses.end() ? 0 : it->second;
    v.dtype = t.dtype;
    v.sizes = t.shape;
    v.strides = tilebundle::rowMajorStrides(t.shape);
    b.views[t.name] = v;
  }
  b.scalars = scalars;
  return b;
}

std::string RunSpec::summary() const {
  std::string s;
  for (const TensorArg &t : tensors)
    s += (s.empty() ? "" : " ") + t.name + "=" + t.str();
  for (const auto &sc : scalars) {
    std::ostringstream v;
    if (sc.second.isInteger)
      v << sc.second.integer;
    else
      v << sc.second.real;
    s += (s.empty() ? "" : " ") + sc.first + "=" + v.str();
  }
  return s;
}

bool parseArgOverride(const std::string &text, ArgOverride &arg,
                      std::string &error) {
  arg = ArgOverride();
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    error = "--arg takes NAME=DTYPE[D0,D1,...], NAME=@FILE.npy or "
            "NAME=NUMBER, got '" +
            text + "'";
    return false;
  }
  arg.name = text.substr(0, eq);
  std::string value = text.substr(eq + 1);
  if (value[0] == '@') {
    arg.kind = ArgOverride::Kind::File;
    arg.file = value.substr(1);
    if (arg.file.empty()) {
      error = "--arg " + arg.name + "=@: no file name";
      return false;
    }
    return true;
  }
  size_t open = value.find('[');
  if (open == std::string::npos) {
    arg.kind = ArgOverride::Kind::Scalar;
    arg.value = value;
    return true;
  }
  arg.kind = ArgOverride::Kind::Shape;
  if (!parseDType(value.substr(0, open), arg.dtype)) {
    error = "--arg " + text + ": unknown dtype '" + value.substr(0, open) +
            "' (f16, bf16, f32, i32)";
    return false;
  }
  if (value.back() != ']') {
    error = "--arg " + text + ": expected a shape in brackets, DTYPE[D0,D1]";
    return false;
  }
  std::string dims = value.substr(open + 1, value.size() - open - 2);
  std::istringstream in(dims);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::string why;
    std::optional<int64_t> n = checked::parseInt(item, 0, INT32_MAX, &why);
    if (!n) {
      error = "--arg " + text + ": size " + why;
      return false;
    }
    arg.shape.push_back(*n);
  }
  if (arg.shape.empty() || arg.shape.size() > 8) {
    error = "--arg " + text + ": a shape has 1 to 8 sizes";
    return false;
  }
  return true;
}

bool applyOverrides(const Manifest &m, const std::vector<ArgOverride> &args,
                    RunSpec &spec, std::string &error) {
  // Entries for the views a problem did not bind, in ABI order.
  std::vector<TensorArg> ordered;
  int stream = 0;
  for (const AbiEntry &e : m.abi) {
    if (e.kind != AbiEntry::Kind::View)
      continue;
    TensorArg t;
    if (const TensorArg *bound = spec.find(e.name))
      t = *bound;
    t.name = e.name;
    t.access = e.access;
    if (t.shape.empty())
      t.dtype = e.dtype;
    t.stream = stream++;
    ordered.push_back(t);
  }
  spec.tensors = ordered;

  std::map<std::string, int> seen;
  for (const ArgOverride &a : args) {
    if (seen[a.name]++) {
      error = "--arg " + a.name + " is given twice";
      return false;
    }
    const AbiEntry *e = m.abiEntry(a.name);
    if (!e || e->kind == AbiEntry::Kind::TensorMap) {
      std::string names;
      for (const AbiEntry &x : m.abi)
        if (x.kind != AbiEntry::Kind::TensorMap)
          names += (names.empty() ? "" : ", ") + x.name;
      error = "--arg " + a.name + ": kernel " + m.kernel +
              " has no argument of that name (it has " + names + ")";
      return false;
    }
    if (e->kind == AbiEntry::Kind::Scalar) {
      if (a.kind != ArgOverride::Kind::Scalar) {
        error = "--arg " + a.name + ": a scalar (" + dtypeName(e->dtype) +
                ") takes a number";
        return false;
      }
      std::string why;
      if (e->dtype == DType::I32) {
        std::optional<int64_t> v =
            checked::parseInt(a.value, INT32_MIN, INT32_MAX, &why);
        if (!v) {
          error = "--arg " + a.name + " (i32): " + why;
          return false;
        }
        spec.scalars[a.name] = ScalarBinding::ofInt(*v);
      } else {
        std::optional<double> v = checked::parseDouble(a.value, false, &why);
        if (!v) {
          error = "--arg " + a.name + " (f32): " + why;
          return false;
        }
        spec.scalars[a.name] = ScalarBinding::ofReal(*v);
      }
      continue;
    }
    TensorArg *t = spec.find(a.name);
    if (a.kind == ArgOverride::Kind::Scalar) {
      error = "--arg " + a.name + ": a view takes DTYPE[SHAPE] or @FILE.npy";
      return false;
    }
    if (a.kind == ArgOverride::Kind::Shape) {
      if (a.dtype != e->dtype) {
        error = "--arg " + a.name + ": the kernel takes " +
                dtypeName(e->dtype) + ", not " + dtypeName(a.dtype);
        return false;
      }
      t->shape = a.shape;
      t->init = TensorArg::Init::Random;
    } else {
      if (t->written() && t->access == Access::Write) {
        error = "--arg " + a.name + "=@" + a.file +
                ": the kernel only writes " + a.name +
                " (give it a shape, or compare with --ref)";
        return false;
      }
      tilebundle::NpyArray array;
      if (!tilebundle::readNpy(a.file, array, error))
        return false;
      t->shape = array.shape;
      t->init = TensorArg::Init::File;
      t->file = a.file;
    }
    if (static_cast<int>(t->shape.size()) != e->rank) {
      error = "--arg " + a.name + ": the kernel takes rank " +
              std::to_string(e->rank) + ", got shape " + t->str();
      return false;
    }
  }
  for (const TensorArg &t : spec.tensors)
    if (t.shape.empty()) {
      error = "view argument '" + t.name + "' of kernel " + m.kernel +
              " has no shape: give --arg " + t.name + "=" + dtypeName(t.dtype) +
              "[...] or --arg " + t.name +
              "=@FILE.npy, or a --problem that binds it";
      return false;
    }
  for (const AbiEntry &e : m.abi)
    if (e.kind == AbiEntry::Kind::Scalar && !spec.scalars.count(e.name)) {
      error = "scalar argument '" + e.name + "' of kernel " + m.kernel +
              " has no value: give --arg " + e.name + "=NUMBER";
      return false;
    }
  for (const TensorArg &t : spec.tensors)
    if (t.bytes() < 0) {
      error =
          "view argument '" + t.name + "' " + t.str() + ": its size overflows";
      return false;
    }
  return true;
}

bool makeHostTensor(const TensorArg &arg, uint64_t seed, HostTensor &tensor,
                    std::string &error) {
  if (arg.poisoned()) {
    tensor = HostTensor::poisoned(arg.shape, arg.dtype);
    return true;
  }
  switch (arg.init) {
  case TensorArg::Init::Random:
    tensor =
        HostTensor::random(arg.shape, arg.dtype, seed, arg.stream, arg.stddev);
    return true;
  case TensorArg::Init::Zeros:
    tensor = HostTensor::zeros(arg.shape, arg.dtype);
    return true;
  case TensorArg::Init::File: {
    tilebundle::NpyArray array;
    std::vector<char> data;
    if (!tilebundle::readNpy(arg.file, array, error) ||
        !tilebundle::convertNpy(array, arg.dtype, data, arg.file, error))
      return false;
    tensor.shape = array.shape;
    tensor.dtype = arg.dtype;
    tensor.bytes = std::move(data);
    return true;
  }
  }
  return false;
}

bool parseSaveRequest(const std::string &text, SaveRequest &save,
                      std::string &error) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    error = "--save takes NAME=FILE.npy, got '" + text + "'";
    return false;
  }
  save.name = text.substr(0, eq);
  save.file = text.substr(eq + 1);
  return true;
}

static std::string gib(int64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2f GiB", bytes / 1073741824.0);
  return buffer;
}

bool checkMemory(int64_t need, int64_t available, const std::string &what,
                 std::string &error) {
  if (available <= 0 || need <= available)
    return true;
  error = "the run needs " + gib(need) + " (" + std::to_string(need) +
          " bytes), more than the " + gib(available) + " of " + what;
  return false;
}

int64_t hostAvailableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  int64_t value = 0, total = 0, available = 0;
  while (in >> key >> value >> unit) {
    if (key == "MemTotal:")
      total = value * 1024;
    else if (key == "MemAvailable:")
      available = value * 1024;
  }
  int64_t result = available ? available : total;
  // A cap for tests and shared machines.
  if (const char *cap = std::getenv("TILE_RUNNER_HOST_MEMORY"))
    if (std::optional<int64_t> v = checked::parseInt(cap, 0, INT64_MAX))
      result = result ? std::min(result, *v) : *v;
  return result;
}

} // namespace runner
} // namespace tile
