#pragma once
// A uniform grid rebuilt every frame: the strongest simple grid we know how to write, so that the
// QuadTree's benchmark against it is an honest one. Bench-only code, written to be fast rather
// than general:
// - the build is a counting sort of the boxes into cells by their centre (clamped into the
//   world): count per cell, prefix sums, scatter. The sorted boxes are kept as separate
//   contiguous arrays (min x, min y, max x, max y, id) in cell order, row by row, so every cell's
//   boxes are one run and a row's cells are one run after another;
// - precondition: no box is wider or taller than one cell (cell = 2 x the largest radius), so
//   overlapping boxes have centres at most one cell apart in x and in y;
// - the pair search looks from each cell at its own boxes and its forward half-shell (east;
//   south-west, south, south-east). Because of the row-major order, that is two contiguous runs
//   per box: the rest of its own cell followed by the cell east of it, and the three cells of the
//   row below as one run. The inner loop reads the five arrays sequentially with no per-box
//   indirection, and each pair of cells is visited once.
// A frame allocates nothing once the arrays have grown.

#include <cstdint>
#include <span>
#include <vector>

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
  // Box i against the sorted boxes [begin, end).
  template <class F>
  void box_against_run(std::uint32_t i, std::uint32_t begin, std::uint32_t end, F& f) const;

  spatial::Aabb world_;
  float inverse_cell_;
  std::uint32_t columns_, rows_;
  std::vector<std::uint32_t> cell_start_;  // cells + 1 entries: the run of each cell
  std::vector<std::uint32_t> cell_of_box_;
  std::vector<float> min_x_, min_y_, max_x_, max_y_;  // the sorted boxes, one array per field
  std::vector<std::uint32_t> id_;
};

template <class F>
void UniformGrid::box_against_run(std::uint32_t i, std::uint32_t begin, std::uint32_t end,
                                  F& f) const {
  const float min_x = min_x_[i], min_y = min_y_[i], max_x = max_x_[i], max_y = max_y_[i];
  const float* const other_min_x = min_x_.data();
  const float* const other_min_y = min_y_.data();
  const float* const other_max_x = max_x_.data();
  const float* const other_max_y = max_y_.data();
  for (std::uint32_t j = begin; j < end; ++j) {
    // `&`, not `&&`, as in spatial::overlaps: one predictable branch instead of four coin tosses.
    if ((min_x <= other_max_x[j]) & (other_min_x[j] <= max_x) & (min_y <= other_max_y[j]) &
        (other_min_y[j] <= max_y)) {
      const std::uint32_t a = id_[i], b = id_[j];
      if (a < b) {
        f(a, b);
      } else {
        f(b, a);
      }
    }
  }
}

template <class F>
void UniformGrid::for_each_pair(F&& f) const {
  for (std::uint32_t row = 0; row < rows_; ++row) {
    const std::uint32_t row_start = row * columns_;
    const bool has_row_below = row + 1 < rows_;
    for (std::uint32_t column = 0; column < columns_; ++column) {
      const std::uint32_t cell = row_start + column;
      const std::uint32_t begin = cell_start_[cell], end = cell_start_[cell + 1];
      if (begin == end) continue;
      // This cell after box i, then the cell east of it: one run.
      const std::uint32_t east_end = cell_start_[column + 1 < columns_ ? cell + 2 : cell + 1];
      // South-west, south and south-east: one run of the row below.
      std::uint32_t below_begin = 0, below_end = 0;
      if (has_row_below) {
        const std::uint32_t below = cell + columns_;
        below_begin = cell_start_[column > 0 ? below - 1 : below];
        below_end = cell_start_[column + 1 < columns_ ? below + 2 : below + 1];
      }
      for (std::uint32_t i = begin; i < end; ++i) {
        box_against_run(i, i + 1, east_end, f);
        box_against_run(i, below_begin, below_end, f);
      }
    }
  }
}

}  // namespace quadpool::bench
