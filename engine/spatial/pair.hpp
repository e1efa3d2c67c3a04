#pragma once
/// Pair: two box indices that a broad phase reports as overlapping, a < b. The unit that the
/// broad phases' references (brute_force.hpp, sweep_and_prune.hpp) and the pair checker
/// (pair_check.hpp) compare, and that the game's tick keeps.

#include <cstdint>

namespace quadpool::spatial {

struct Pair {
  std::uint32_t a, b;
  friend bool operator==(const Pair&, const Pair&) = default;
};

/// (a, b) lexicographic order: the order brute_force_pairs() reports in.
inline bool pair_less(const Pair& x, const Pair& y) noexcept {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

}  // namespace quadpool::spatial
