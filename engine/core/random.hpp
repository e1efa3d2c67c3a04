#pragma once
/// A small seeded generator whose output is the same on every compiler and standard library.
/// std::uniform_*_distribution is not portable across standard libraries, so the engine, the
/// game, the tests and the benchmarks all draw numbers through this instead.

#include <cstdint>

namespace quadpool {

// __extension__ keeps -Wpedantic quiet about the 128-bit type GCC and clang both provide.
__extension__ using Uint128 = unsigned __int128;

/// xoshiro256** (Blackman and Vigna, public domain), seeded through SplitMix64.
class Random {
 public:
  explicit Random(std::uint64_t seed) noexcept {
    for (auto& word : state_) word = split_mix(seed);
  }

  /// 64 uniformly random bits.
  std::uint64_t next_u64() noexcept {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform in [0, bound) for bound > 0, without modulo bias (Lemire's method).
  std::uint64_t below(std::uint64_t bound) noexcept {
    // 128-bit multiply; the rejection loop runs more than once with probability < bound / 2^64.
    Uint128 m = static_cast<Uint128>(next_u64()) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<Uint128>(next_u64()) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  /// Uniform integer in [lo, hi], lo <= hi.
  std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }

  /// Uniform float in [0, 1): the top 24 bits, exact in a float.
  float unit_float() noexcept { return static_cast<float>(next_u64() >> 40) * 0x1.0p-24f; }

  /// Uniform double in [0, 1): the top 53 bits.
  double unit_double() noexcept { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  /// Uniform float in [lo, hi).
  float uniform(float lo, float hi) noexcept { return lo + (hi - lo) * unit_float(); }

  /// True with probability p.
  bool chance(double p) noexcept { return unit_double() < p; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t split_mix(std::uint64_t& x) noexcept {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4];
};

}  // namespace quadpool
