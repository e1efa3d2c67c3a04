#pragma once
/// PairChecker: compares a broad phase's pairs against an independent reference, the sweep and
/// prune of sweep_and_prune.hpp (exact; about O(n + candidates) per call once its order is
/// warm), and names the first wrong pair. The game's --verify and the tick tests use it; the
/// spatial tests check the reference against brute_force.hpp.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/sweep_and_prune.hpp"

namespace quadpool::spatial {

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
std::string describe(const PairMismatch& mismatch, std::span<const Aabb> boxes);

/// Compares broad-phase pairs against the reference. Keeps its buffers, and the reference's
/// order along x, between calls: checking the same boxes tick after tick is cheapest.
class PairChecker {
 public:
  /// Every pair (a, b), a < b, of overlapping boxes (closed intervals), sorted by (a, b).
  std::span<const Pair> reference_pairs(std::span<const Aabb> boxes);

  /// Empty when `reported` holds exactly the overlapping pairs of `boxes`, each once with a < b
  /// (in any order); otherwise the first problem, in (a, b) order.
  std::optional<PairMismatch> check(std::span<const Aabb> boxes,
                                    std::span<const Pair> reported);

 private:
  SweepAndPrune sweep_;
  std::vector<Pair> reference_;
  std::vector<Pair> sorted_;
};

}  // namespace quadpool::spatial
