#include "engine/spatial/pair_check.hpp"

#include <algorithm>
#include <utility>

#include "engine/core/str_cat.hpp"

namespace quadpool::spatial {

namespace {

std::string box_text(std::span<const Aabb> boxes, std::uint32_t i) {
  if (i >= boxes.size()) return str_cat("#", i, " (out of range)");
  const Aabb& b = boxes[i];
  return str_cat("#", i, " [", b.min_x, ", ", b.max_x, "]x[", b.min_y, ", ", b.max_y, "]");
}

const char* what_is_wrong(PairMismatch::Kind kind) noexcept {
  using enum PairMismatch::Kind;
  switch (kind) {
    case Missing:
      return "missing (the boxes overlap)";
    case Spurious:
      return "reported but the boxes do not overlap";
    case Duplicate:
      return "reported more than once";
    case NotOrdered:
      return "reported with a >= b";
  }
  return "";
}

}  // namespace

std::string describe(const PairMismatch& mismatch, std::span<const Aabb> boxes) {
  const char* what = what_is_wrong(mismatch.kind);
  return str_cat("pair (", mismatch.pair.a, ", ", mismatch.pair.b, ") ", what, ": ",
                 box_text(boxes, mismatch.pair.a), " and ", box_text(boxes, mismatch.pair.b));
}

std::span<const Pair> PairChecker::reference_pairs(std::span<const Aabb> boxes) {
  sweep_.update(boxes);
  reference_.clear();
  sweep_.for_each_pair([this](std::uint32_t a, std::uint32_t b) { reference_.push_back({a, b}); });
  std::sort(reference_.begin(), reference_.end(), pair_less);
  return reference_;
}

std::optional<PairMismatch> PairChecker::check(std::span<const Aabb> boxes,
                                               std::span<const Pair> reported) {
  for (const Pair& p : reported) {
    if (p.a >= p.b) return PairMismatch{PairMismatch::Kind::NotOrdered, p};
    if (p.b >= boxes.size()) return PairMismatch{PairMismatch::Kind::Spurious, p};
  }
  sorted_.assign(reported.begin(), reported.end());
  std::sort(sorted_.begin(), sorted_.end(), pair_less);
  const auto duplicate = std::adjacent_find(sorted_.begin(), sorted_.end());
  if (duplicate != sorted_.end()) return PairMismatch{PairMismatch::Kind::Duplicate, *duplicate};

  const std::span<const Pair> expected = reference_pairs(boxes);
  // Walk both sorted lists; the first difference in (a, b) order is the one reported.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < expected.size() || j < sorted_.size()) {
    if (j == sorted_.size() || (i < expected.size() && pair_less(expected[i], sorted_[j]))) {
      return PairMismatch{PairMismatch::Kind::Missing, expected[i]};
    }
    if (i == expected.size() || pair_less(sorted_[j], expected[i])) {
      return PairMismatch{PairMismatch::Kind::Spurious, sorted_[j]};
    }
    ++i;
    ++j;
  }
  return std::nullopt;
}

}  // namespace quadpool::spatial
