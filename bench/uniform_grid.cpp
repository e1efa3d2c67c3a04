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
  max_column_ = static_cast<float>(columns_ - 1);
  max_row_ = static_cast<float>(rows_ - 1);
  stride_ = columns_ + 2;
  cell_start_.assign(static_cast<std::size_t>(rows_ + 1) * stride_ + 1, 0);
}

void UniformGrid::rebuild(std::span<const spatial::Aabb> boxes) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  cell_of_box_.resize(count);
  cell_of_slot_.resize(count);
  for (auto* field : {&min_x_, &min_y_, &max_x_, &max_y_}) field->resize(count + kLanes - 1);
  id_.resize(count);
  std::fill(cell_start_.begin(), cell_start_.end(), 0u);

  // Count: cell_start_[c + 1] is the number of boxes in cell c.
  for (std::uint32_t i = 0; i < count; ++i) {
    const spatial::Aabb& b = boxes[i];
    const std::uint32_t cell = cell_of(b.min_x, b.min_y, b.max_x, b.max_y);
    cell_of_box_[i] = cell;
    ++cell_start_[cell + 1];
  }
  // Prefix sums: cell_start_[c] is the start of cell c's run.
  std::uint32_t start = 0;
  for (std::uint32_t& entry : cell_start_) entry = start += entry;
  // Scatter, each cell's cursor moving up from its start: it stops at the cell's end, which is
  // what for_each_pair() reads (the end of the cell before is a cell's start). A cell's boxes
  // stay in id order (the sort is stable).
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t cell = cell_of_box_[i];
    const std::uint32_t slot = cell_start_[cell]++;
    const spatial::Aabb& b = boxes[i];
    min_x_[slot] = b.min_x;
    min_y_[slot] = b.min_y;
    max_x_[slot] = b.max_x;
    max_y_[slot] = b.max_y;
    id_[slot] = i;
  }
  // The sorted boxes' cells again, for the pair search: a pass that reads the new arrays in order
  // (and vectorises) is cheaper than a sixth array that the scatter writes at random.
  for (std::uint32_t slot = 0; slot < count; ++slot) {
    cell_of_slot_[slot] = cell_of(min_x_[slot], min_y_[slot], max_x_[slot], max_y_[slot]);
  }
}

}  // namespace quadpool::bench
