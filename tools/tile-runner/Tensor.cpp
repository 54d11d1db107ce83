//===- Tensor.cpp - host tensors and seeded inputs ------------------------===//

#include "Tensor.h"

#include "tile/Support/Checked.h"

#include <cmath>
#include <cstring>

namespace tile {
namespace runner {

int64_t HostTensor::numElements() const {
  return checked::product(shape).value_or(0);
}

double HostTensor::get(int64_t i) const {
  return tilebundle::loadElement(bytes.data(), dtype, i);
}

void HostTensor::set(int64_t i, double value) {
  tilebundle::storeElement(bytes.data(), dtype, i, value);
}

bool HostTensor::isPoison(int64_t i) const {
  return tilebundle::isPoison(bytes.data(), dtype, i);
}

std::vector<int64_t> HostTensor::strides() const {
  std::vector<int64_t> result(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    result[i - 1] = result[i] * shape[i];
  return result;
}

HostTensor HostTensor::zeros(std::vector<int64_t> shape, DType dtype) {
  HostTensor t;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.bytes.assign(static_cast<size_t>(t.numElements()) * dtypeBytes(dtype), 0);
  return t;
}

HostTensor HostTensor::poisoned(std::vector<int64_t> shape, DType dtype) {
  HostTensor t = zeros(std::move(shape), dtype);
  uint32_t poison = tilebundle::poisonBits(dtype);
  int bytes = dtypeBytes(dtype);
  for (int64_t i = 0; i < t.numElements(); ++i)
    std::memcpy(t.bytes.data() + i * bytes, &poison, bytes);
  return t;
}

uint64_t streamSeed(uint64_t seed, int stream) {
  return seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(stream + 1));
}

namespace {
/// splitmix64 with Box-Muller normals (see the header).
class NormalGenerator {
public:
  explicit NormalGenerator(uint64_t seed) : state(seed) {}
  double next() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u1 = (static_cast<double>(nextBits() >> 11) + 1.0) * 0x1p-53;
    double u2 = static_cast<double>(nextBits() >> 11) * 0x1p-53;
    double r = std::sqrt(-2.0 * std::log(u1));
    double theta = 6.283185307179586476925286766559 * u2;
    spare = r * std::sin(theta);
    hasSpare = true;
    return r * std::cos(theta);
  }

private:
  uint64_t state;
  double spare = 0;
  bool hasSpare = false;
  uint64_t nextBits() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};
} // namespace

HostTensor HostTensor::random(std::vector<int64_t> shape, DType dtype,
                              uint64_t seed, int stream, double stddev) {
  HostTensor t = zeros(std::move(shape), dtype);
  NormalGenerator gen(streamSeed(seed, stream));
  int64_t n = t.numElements();
  for (int64_t i = 0; i < n; ++i)
    t.set(i, static_cast<float>(stddev * gen.next()));
  return t;
}

} // namespace runner
} // namespace tile
