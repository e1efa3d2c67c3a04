#pragma once
/// An independent reference for the broad phase: every overlapping pair of a set of boxes,
/// found by sorting on min_x and sweeping (exact, O(n log n + candidates)), and a checker that
/// compares a broad phase's pairs against it. The headless runner's --verify and the tick
/// tests use it.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "game/simulation.hpp"

namespace quadpool::game {

/// What is wrong with a broad phase's pairs, for the first problem found.
struct PairMismatch {
  enum class Kind {
    Missing,     // the boxes overlap but the pair was not reported
    Spurious,    // reported, but the boxes do not overlap (or an index is out of range)
    Duplicate,   // reported more than once
    NotOrdered,  // reported with a >= b
  };
  Kind kind;
  Pair pair;
};

/// "pair (3, 17) is missing: boxes [..] and [..] overlap" and so on; one line.
std::string describe(const PairMismatch& mismatch, std::span<const spatial::Aabb> boxes);

/// Compares broad-phase pairs against the reference. Keeps its buffers between calls.
class PairChecker {
 public:
  /// Every pair (a, b), a < b, of overlapping boxes (closed intervals), sorted by (a, b).
  std::span<const Pair> reference_pairs(std::span<const spatial::Aabb> boxes);

  /// Empty when `reported` holds exactly the overlapping pairs of `boxes`, each once with a < b
  /// (in any order); otherwise the first problem, in (a, b) order.
  std::optional<PairMismatch> check(std::span<const spatial::Aabb> boxes,
                                    std::span<const Pair> reported);

 private:
  std::vector<std::uint32_t> order_;
  std::vector<Pair> reference_;
  std::vector<Pair> sorted_;
};

}  // namespace quadpool::game
