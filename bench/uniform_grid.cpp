#include "bench/uniform_grid.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace quadpool::bench {

namespace {
// The cell is widened by this fraction so that rounding in the cell arithmetic can never put two
// overlapping boxes of the largest size two cells apart. It costs nothing measurable.
constexpr float kCellMargin = 1e-4f;
}  // namespace

UniformGrid::UniformGrid(const spatial::Aabb& world, float cell) : world_(world) {
  if (!(cell > 0.0f) || !(world.max_x > world.min_x) || !(world.max_y > world.min_y)) {
    throw std::invalid_argument("UniformGrid: the cell must be > 0 and the world non-empty");
  }
  inverse_cell_ = 1.0f / (cell * (1.0f + kCellMargin));
  columns_ = static_cast<std::uint32_t>(std::ceil((world.max_x - world.min_x) * inverse_cell_));
  rows_ = static_cast<std::uint32_t>(std::ceil((world.max_y - world.min_y) * inverse_cell_));
  columns_ = std::max(columns_, 1u);
  rows_ = std::max(rows_, 1u);
  cell_start_.assign(static_cast<std::size_t>(columns_) * rows_ + 1, 0);
}

void UniformGrid::rebuild(std::span<const spatial::Aabb> boxes) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  cell_of_box_.resize(count);
  for (auto* field : {&min_x_, &min_y_, &max_x_, &max_y_}) field->resize(count);
  id_.resize(count);
  std::fill(cell_start_.begin(), cell_start_.end(), 0u);

  // Count: cell_start_[c + 1] is the number of boxes in cell c.
  const float max_column = static_cast<float>(columns_ - 1);
  const float max_row = static_cast<float>(rows_ - 1);
  for (std::uint32_t i = 0; i < count; ++i) {
    const spatial::Aabb& b = boxes[i];
    const float x =
        std::clamp((0.5f * (b.min_x + b.max_x) - world_.min_x) * inverse_cell_, 0.0f, max_column);
    const float y =
        std::clamp((0.5f * (b.min_y + b.max_y) - world_.min_y) * inverse_cell_, 0.0f, max_row);
    const std::uint32_t cell =
        static_cast<std::uint32_t>(y) * columns_ + static_cast<std::uint32_t>(x);
    cell_of_box_[i] = cell;
    ++cell_start_[cell + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  // Scatter using cell_start_ as the write cursor of each cell, which leaves cell_start_[c] at
  // the end of cell c (the start of c + 1) when the loop is done; the shift below restores it.
  // Boxes keep their id order within a cell (the sort is stable).
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t slot = cell_start_[cell_of_box_[i]]++;
    const spatial::Aabb& b = boxes[i];
    min_x_[slot] = b.min_x;
    min_y_[slot] = b.min_y;
    max_x_[slot] = b.max_x;
    max_y_[slot] = b.max_y;
    id_[slot] = i;
  }
  for (std::size_t c = cell_start_.size() - 1; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
  cell_start_[0] = 0;
}

}  // namespace quadpool::bench
