#pragma once
// A uniform grid rebuilt every frame: the strongest simple grid we know how to write, so that the
// QuadTree's benchmark against it is an honest one. Bench-only code, written to be fast rather
// than general:
// - the build is a counting sort of the boxes into cells by their centre (clamped into the
//   world): count per cell, prefix sums, scatter, each box once, in id order. The sorted boxes are
//   kept as separate contiguous arrays (min x, min y, max x, max y, id) in cell order, row by row,
//   so every cell's boxes are one run and a row's cells are one run after another; the boxes may
//   come in any order (a library user's), the arrays are in cell order whatever it was;
// - precondition: no box is wider or taller than one cell (cell = 2 x the largest radius), so
//   overlapping boxes have centres at most one cell apart in x and in y;
// - the pair search looks from each box at its forward half-shell (the rest of its cell, the
//   cell east of it; the south-west, south and south-east cells). Because of the row-major order
//   that is two contiguous runs per box: the rest of its own cell followed by the cell east of
//   it, and the three cells of the row below as one run. The rows carry an empty guard cell at
//   each end and the grid an empty guard row at the bottom, so those runs need no edge test;
//   the search walks the sorted boxes, not the cells, so an empty cell costs nothing there;
// - a box is tested against a run four boxes at a time (SSE2), as the tree tests its boxes: most
//   runs are then one block, and the hits come as a 4-bit mask, almost always zero.
// A frame allocates nothing once the arrays have grown.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/memory/huge_page_allocator.hpp"
#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {

class UniformGrid {
 public:
  /// `cell` > 0 is the side of a cell; the grid covers `world` and clamps anything outside.
  /// Throws std::invalid_argument on a bad cell or an empty world.
  UniformGrid(const spatial::Aabb& world, float cell);

  void rebuild(std::span<const spatial::Aabb> boxes);

  /// f(a, b), a < b, once for every overlapping pair (closed boxes: touching counts).
  template <class F>
  void for_each_pair(F&& f) const;

 private:
  // The box tests run four at a time where SSE2 is there (a run is then mostly one block: one
  // predictable loop exit), else one at a time without a branch on the result.
  static constexpr std::uint32_t kLanes = 4;

  // The cell of a box's centre, clamped into the world. Column x is cell 1 + x of its row.
  std::uint32_t cell_of(float min_x, float min_y, float max_x, float max_y) const noexcept {
    const float x =
        std::clamp((0.5f * (min_x + max_x) - world_.min_x) * inverse_cell_, 0.0f, max_column_);
    const float y =
        std::clamp((0.5f * (min_y + max_y) - world_.min_y) * inverse_cell_, 0.0f, max_row_);
    return static_cast<std::uint32_t>(y) * stride_ + 1 + static_cast<std::uint32_t>(x);
  }

  // Box `i` against the sorted boxes [begin, end).
  template <class F>
  void box_against_run(std::uint32_t i, std::uint32_t begin, std::uint32_t end, F& f) const;

  spatial::Aabb world_;
  float inverse_cell_;
  std::uint32_t columns_, rows_;
  float max_column_, max_row_;  // columns_ - 1 and rows_ - 1
  std::uint32_t stride_;        // cells per row: columns_ and a guard at each end
  // Every array on huge pages where the system gives them, as the tree's: at a million boxes
  // the count and the scatter touch 40 MB at random, a TLB miss a box on 4 KiB pages.
  memory::HugePageVector<std::uint32_t>
      cell_start_;  // (rows_ + 1) * stride_ + 1 entries: the cells' runs
  memory::HugePageVector<std::uint32_t> cell_of_box_;   // by box id, during the build
  memory::HugePageVector<std::uint32_t> cell_of_slot_;  // by sorted slot: the pair search's runs
  // The sorted boxes, one array per field, and kLanes - 1 unused floats past the last, so that a
  // block of four may start at any box.
  memory::HugePageVector<float> min_x_, min_y_, max_x_, max_y_;
  memory::HugePageVector<std::uint32_t> id_;
};

template <class F>
void UniformGrid::box_against_run(std::uint32_t i, std::uint32_t begin, std::uint32_t end,
                                  F& f) const {
  const std::uint32_t id = id_[i];
  const float* const other_min_x = min_x_.data();
  const float* const other_min_y = min_y_.data();
  const float* const other_max_x = max_x_.data();
  const float* const other_max_y = max_y_.data();
  auto report = [&](std::uint32_t j) {
    const std::uint32_t other = id_[j];
    f(std::min(id, other), std::max(id, other));
  };
#if defined(__SSE2__)
  const __m128 min_x = _mm_set1_ps(min_x_[i]), min_y = _mm_set1_ps(min_y_[i]);
  const __m128 max_x = _mm_set1_ps(max_x_[i]), max_y = _mm_set1_ps(max_y_[i]);
  for (std::uint32_t j = begin; j < end; j += kLanes) {
    const __m128 hit_x = _mm_and_ps(_mm_cmple_ps(min_x, _mm_loadu_ps(other_max_x + j)),
                                    _mm_cmple_ps(_mm_loadu_ps(other_min_x + j), max_x));
    const __m128 hit_y = _mm_and_ps(_mm_cmple_ps(min_y, _mm_loadu_ps(other_max_y + j)),
                                    _mm_cmple_ps(_mm_loadu_ps(other_min_y + j), max_y));
    // The lanes past `end` are another cell's boxes or the padding: masked off.
    auto hits = static_cast<std::uint32_t>(_mm_movemask_ps(_mm_and_ps(hit_x, hit_y))) &
                ((1u << std::min(end - j, kLanes)) - 1u);
    for (; hits != 0; hits &= hits - 1)
      report(j + static_cast<std::uint32_t>(std::countr_zero(hits)));
  }
#else
  const float min_x = min_x_[i], min_y = min_y_[i], max_x = max_x_[i], max_y = max_y_[i];
  for (std::uint32_t j = begin; j < end; ++j) {
    // `&`, not `&&`, as in spatial::overlaps: one predictable branch instead of four coin tosses.
    if ((min_x <= other_max_x[j]) & (other_min_x[j] <= max_x) & (min_y <= other_max_y[j]) &
        (other_min_y[j] <= max_y)) {
      report(j);
    }
  }
#endif
}

template <class F>
void UniformGrid::for_each_pair(F&& f) const {
  const auto count = static_cast<std::uint32_t>(id_.size());
  // After the build's scatter, cell_start_[c] is the end of cell c: the start of cell c + 1.
  const std::uint32_t* const end_of = cell_start_.data();
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t cell = cell_of_slot_[i];
    // The rest of this cell, then the cell east of it (a guard at the row's end): one run.
    box_against_run(i, i + 1, end_of[cell + 1], f);
    // South-west, south and south-east: one run of the row below (guards at its ends, and a
    // guard row below the last).
    box_against_run(i, end_of[cell + stride_ - 2], end_of[cell + stride_ + 1], f);
  }
}

}  // namespace quadpool::bench
