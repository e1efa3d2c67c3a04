// QuadTree's item order: the rebuild's sort of the items by cell (a counting sort, or a repair
// of last frame's order when few items changed cell), the order kept for the next frame, and
// the renumbering for a caller that keeps its objects in that order. The rest of the class is
// in quad_tree.cpp.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/assert.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/detail/cell_codes.hpp"
#include "engine/spatial/detail/wide_kernels.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

// Returns the number of items: the boxes without the rejected ones (NaN, or min > max).
std::uint32_t QuadTree::sort_items_by_cell(std::span<const Aabb> boxes, const TaskSystem& tasks) {
  const auto count = static_cast<std::uint32_t>(boxes.size());

  // resize() within the capacity of an earlier frame allocates nothing.
  item_ids_.resize(count);
  box_cells_.resize(count);
  slot_cells_.resize(count);
  scratch_ids_.resize(count);
  staged_cells_.resize(count);
  staged_boxes_.resize(count);
  columns_.resize(count);

  // Sorted by the cell at `sort_depth_`, the depth where a uniform scene's cells hold about
  // leaf_capacity items: above it every node's quadrants are then contiguous. The few runs still
  // over capacity below it are split by build(), a 4-way partition each.
  const auto capacity = static_cast<std::uint32_t>(config_.leaf_capacity);
  int depth = 0;
  for (std::uint64_t per_cell = count;
       per_cell > capacity && depth < config_.max_depth && depth < kMaxSortDepth; per_cell /= 4) {
    ++depth;
  }
  const bool same_shape = depth == sort_depth_ && order_keys_.size() == count;
  sort_depth_ = depth;
  const int shift = 2 * (config_.max_depth - depth);
  rejected_ids_.clear();
  cell_codes_of(boxes, cell_grid(), tasks);

  // Last frame's order is a valid start only for as many boxes as last frame and no rejection;
  // it is dropped first so that a throw or a rejection in this frame cannot leave a stale one.
  const bool hint = order_is_hint_ && same_shape && rejected_ids_.empty();
  order_is_hint_ = false;
  if (hint && repair_last_order(boxes, shift, tasks)) {
    order_is_hint_ = true;
    return count;
  }
  const std::uint32_t items = counting_sort(boxes, shift);
  if (rejected_ids_.empty()) {
    remember_order(shift);
    order_is_hint_ = true;
  }
  return items;
}

detail::CellGrid QuadTree::cell_grid() const noexcept {
  const Aabb& world = config_.bounds;
  const std::uint32_t cells = 1u << config_.max_depth;
  return {world, static_cast<float>(cells) / (world.max_x - world.min_x),
          static_cast<float>(cells) / (world.max_y - world.min_y), cells};
}

// Every box's cell code into box_cells_, the rejected boxes' ids into rejected_ids_. With
// workers, ranges of boxes at once; a rejected box (NaN or min > max, never in a game) sends
// the whole back to one thread, which lists the rejections in id order.
void QuadTree::cell_codes_of(std::span<const Aabb> boxes, const detail::CellGrid& grid,
                             const TaskSystem& tasks) {
  const auto codes_of = [&grid](std::span<const Aabb> part, std::uint32_t* codes,
                                std::vector<std::uint32_t>& rejected) {
    const std::uint32_t wide_done =
        detail::wide_kernels_enabled() ? detail::cell_codes_wide(part, grid, codes, rejected) : 0;
    detail::cell_codes(part, grid, codes, rejected, wide_done);
  };
  const auto count = static_cast<std::uint32_t>(boxes.size());
  if (tasks.enqueue == nullptr || tasks.worker_count <= 1 || count < 2 * kItemsPerTask) {
    codes_of(boxes, box_cells_.data(), rejected_ids_);
    return;
  }
  if (worker_rejected_.size() < tasks.worker_count) worker_rejected_.resize(tasks.worker_count);
  std::atomic<bool> any_rejected{false};
  parallel_for(tasks, count, kItemsPerTask,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
                 std::vector<std::uint32_t>& rejected = worker_rejected_[worker];
                 rejected.clear();
                 codes_of(boxes.subspan(begin, end - begin), box_cells_.data() + begin, rejected);
                 if (!rejected.empty()) any_rejected.store(true, std::memory_order_relaxed);
               });
  if (any_rejected.load(std::memory_order_relaxed))
    codes_of(boxes, box_cells_.data(), rejected_ids_);
}

// The cell at the sort depth of a cell code at max_depth.
std::uint32_t QuadTree::sort_cell(std::uint32_t code, int shift) noexcept {
  // The shift is 32 for a one-bucket sort at max_depth 16: shift a 64-bit value.
  return static_cast<std::uint32_t>(std::uint64_t{code} >> shift);
}

// The (cell at the sort depth, id) key of an item: the order both sorts produce.
std::uint64_t QuadTree::order_key(std::uint32_t code, std::uint32_t id, int shift) noexcept {
  return (std::uint64_t{sort_cell(code, shift)} << 32) | id;
}

// One stable counting sort by the cell at the sort depth of the codes in box_cells_: ids in
// increasing order into each bucket, so items of one cell stay in id order. Returns the items.
std::uint32_t QuadTree::counting_sort(std::span<const Aabb> boxes, int shift) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  const auto bucket_of = [shift](std::uint32_t code) {
    return static_cast<std::uint32_t>(std::uint64_t{code} >> shift);
  };
  bucket_starts_.assign((std::size_t{1} << (2 * sort_depth_)) + 1, 0);
  std::uint32_t* starts = bucket_starts_.data();
  for (std::uint32_t i = 0; i < count; ++i) ++starts[bucket_of(box_cells_[i]) + 1];
  // A rejected box was counted in bucket 0; it is not scattered, so take it out again.
  starts[1] -= static_cast<std::uint32_t>(rejected_ids_.size());
  const std::size_t buckets = bucket_starts_.size() - 1;
  for (std::size_t c = 1; c <= buckets; ++c) starts[c] += starts[c - 1];
  // Only the ids: the build gathers the boxes into the columns, run by run (gather_run()).
  const auto scatter = [&](std::uint32_t i) {
    const std::uint32_t slot = starts[bucket_of(box_cells_[i])]++;
    item_ids_[slot] = i;
  };
  // The scatter leaves each bucket's start at the next one's: shifted back, they are the
  // starts again, for the build.
  const auto restore_starts = [&] {
    for (std::size_t c = buckets - 1; c > 0; --c) starts[c] = starts[c - 1];
    starts[0] = 0;
  };
  if (rejected_ids_.empty()) {
    for (std::uint32_t i = 0; i < count; ++i) scatter(i);
    restore_starts();
    return count;
  }
  std::size_t next_rejected = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (next_rejected < rejected_ids_.size() && rejected_ids_[next_rejected] == i) {
      ++next_rejected;
      continue;
    }
    scatter(i);
  }
  restore_starts();
  const auto items = static_cast<std::uint32_t>(count - rejected_ids_.size());
  item_ids_.resize(items);
  columns_.resize(items);  // shrinks, and pads after the last item again
  return items;
}

// Keeps this frame's sorted order, as keys, for the next frame's repair_last_order().
void QuadTree::remember_order(int shift) {
  const auto count = static_cast<std::uint32_t>(item_ids_.size());
  // The repair's scratch is sized here too, so that a frame repairing allocates nothing.
  order_keys_.resize(count);
  last_sort_cells_.resize(count);
  moved_keys_.resize(count);
  moved_from_cells_.resize(count);
  next_keys_.resize(count);
  repair_ranges_.resize((count + kItemsPerTask - 1) / kItemsPerTask);
  for (std::uint32_t s = 0; s < count; ++s) {
    const std::uint32_t id = item_ids_[s];
    order_keys_[s] = order_key(box_cells_[id], id, shift);
  }
  // No box was rejected, so every id is an item's.
  for (std::uint32_t id = 0; id < count; ++id) {
    last_sort_cells_[id] = static_cast<std::uint16_t>(sort_cell(box_cells_[id], shift));
  }
}

bool QuadTree::renumber_in_item_order() noexcept {
  if (!rejected_ids_.empty()) return false;
  const auto count = static_cast<std::uint32_t>(item_ids_.size());
  for (std::uint32_t s = 0; s < count; ++s) item_ids_[s] = s;
  // The kept order's keys are the items' keys in slot order too: their ids become the slots,
  // which leaves them sorted (a cell's items were in id order, and now are in slot order).
  if (order_is_hint_) {
    for (std::uint32_t s = 0; s < count; ++s) {
      order_keys_[s] = (order_keys_[s] & ~std::uint64_t{0xffffffffu}) | s;
      last_sort_cells_[s] = static_cast<std::uint16_t>(order_keys_[s] >> 32);
    }
  }
  return true;
}

namespace {

// Items that repair_last_order() compares as a block, in a loop the compiler vectorizes.
constexpr std::uint32_t kCellBlock = 16;

// True when an item of the block [codes, codes + kCellBlock) has a cell at the sort depth
// ((code >> shift) & mask: sort_cell() in 32 bits) other than last_cells says.
bool any_cell_changed(const std::uint32_t* codes, const std::uint16_t* last_cells, int shift,
                      std::uint32_t mask) noexcept {
  std::uint32_t changed = 0;
  for (std::uint32_t k = 0; k < kCellBlock; ++k) {
    changed |= ((codes[k] >> shift) & mask) ^ last_cells[k];
  }
  return changed != 0;
}

}  // namespace

// Step 1 of repair_last_order(), in id order: the items whose cell at the sort depth is not
// last frame's (whose key changed). Their new keys go to the front of moved_keys_, in id order,
// with the cells they had in moved_from_cells_; last_sort_cells_ takes this frame's cells for the
// next frame. Returns how many moved.
std::uint32_t QuadTree::find_moved_items(std::uint32_t count, int shift, const TaskSystem& tasks) {
  const std::uint32_t ranges = (count + kItemsPerTask - 1) / kItemsPerTask;
  std::uint64_t* moved = moved_keys_.data();
  std::uint32_t* moved_from = moved_from_cells_.data();
  std::uint16_t* last_cells = last_sort_cells_.data();
  RepairRange* range = repair_ranges_.data();
  const std::uint32_t* codes = box_cells_.data();
  // sort_cell() in 32 bits, for the blocks' vectorized compare: a shift of 32 leaves no cell bit.
  const int block_shift = shift < 32 ? shift : 0;
  const std::uint32_t block_mask = shift < 32 ? ~std::uint32_t{0} : 0;
  // Each range of ids puts its moved items in its own part of moved[].
  parallel_for(tasks, ranges, 1,
               [&](std::uint32_t first_range, std::uint32_t end_range, std::uint32_t) {
                 for (std::uint32_t r = first_range; r < end_range; ++r) {
                   const std::uint32_t begin = r * kItemsPerTask;
                   const std::uint32_t end = std::min(count, begin + kItemsPerTask);
                   std::uint32_t to_moved = begin;
                   const auto look_at = [&](std::uint32_t id) {
                     const std::uint32_t cell = sort_cell(codes[id], shift);
                     if (cell != last_cells[id]) {
                       moved_from[to_moved] = last_cells[id];
                       moved[to_moved++] = (std::uint64_t{cell} << 32) | id;
                       last_cells[id] = static_cast<std::uint16_t>(cell);
                     }
                   };
                   // Few items change cell in a frame: a block of them is first compared as a
                   // whole, in a loop the compiler vectorizes, and looked at one by one only
                   // when one of them did (item by item, the loop cost about 9 instructions
                   // an item, nearly all of them for items that had not moved).
                   std::uint32_t id = begin;
                   for (; end - id >= kCellBlock; id += kCellBlock) {
                     if (!any_cell_changed(codes + id, last_cells + id, block_shift, block_mask)) {
                       continue;
                     }
                     for (std::uint32_t k = 0; k < kCellBlock; ++k) look_at(id + k);
                   }
                   for (; id < end; ++id) look_at(id);
                   range[r].moved = to_moved - begin;
                 }
               });
  // The moved keys together at the front of moved[] (the ranges are few).
  std::uint32_t moved_count = 0;
  for (std::uint32_t r = 0; r < ranges; ++r) {
    const std::uint32_t begin = r * kItemsPerTask;
    if (moved_count != begin) {
      std::copy(moved + begin, moved + begin + range[r].moved, moved + moved_count);
      std::copy(moved_from + begin, moved_from + begin + range[r].moved, moved_from + moved_count);
    }
    moved_count += range[r].moved;
  }
  return moved_count;
}

// Sorts this frame's items by starting from last frame's order (order_keys_) instead of from
// scratch. Slow sprites rarely change cell, so the items whose key is unchanged are still in
// order; the few that moved are sorted on their own and merged back in: O(n + m log m) for m
// moved items, and the same (cell, id) order as the counting sort to the last item. Returns
// false, for the counting sort to take over, when more than an eighth of the items moved.
// Only the merge's gather of the boxes reads by id in last frame's order, which misses the
// cache when the ids say nothing of position; every other pass reads in id or slot order.
bool QuadTree::repair_last_order(std::span<const Aabb> boxes, int shift, const TaskSystem& tasks) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  const std::uint32_t ranges = (count + kItemsPerTask - 1) / kItemsPerTask;
  const std::uint64_t* keys = order_keys_.data();
  std::uint64_t* moved = moved_keys_.data();
  RepairRange* range = repair_ranges_.data();
  // 1: the items whose key changed.
  const std::uint32_t moved_count = find_moved_items(count, shift, tasks);
  if (moved_count > count / 8) return false;
  mark_moved_keys(moved_count, tasks);
  move_bucket_starts(moved_count);
  std::sort(moved, moved + moved_count);

  // 2: each range's share of the sorted moved keys: from the first one not below its first kept
  // key up to where the next range's share starts. A range that keeps no key takes none, and
  // the first range that keeps any also takes the moved keys below its first.
  std::uint32_t next_from = moved_count;
  for (std::uint32_t r = ranges; r-- > 0;) {
    if (range[r].kept > 0) {
      const std::uint64_t* first_kept = keys + r * kItemsPerTask;
      while (*first_kept == kMovedKey) ++first_kept;
      next_from = static_cast<std::uint32_t>(
          std::lower_bound(moved, moved + moved_count, *first_kept) - moved);
    }
    range[r].moved_from = next_from;
  }
  for (std::uint32_t r = 0; r < ranges; ++r) {
    range[r].moved_from = 0;
    if (range[r].kept > 0) break;
  }
  // 3: the two merged, and the items gathered in the new order.
  merge_repaired_order(moved_count, tasks);
  order_keys_.swap(next_keys_);
  return true;
}

// Where the moved key `key` (this frame's) sat in last frame's keys: in the run of its old
// cell `cell`, by its old key, which is in the run, so the last key not above it is it.
// Halving without a branch, since where the key lies in its cell cannot be predicted.
std::uint32_t QuadTree::old_place(const std::uint64_t* keys, const std::uint32_t* starts,
                                  std::uint32_t cell, std::uint64_t key) noexcept {
  const std::uint64_t old_key = (std::uint64_t{cell} << 32) | static_cast<std::uint32_t>(key);
  std::uint32_t place = starts[cell];
  for (std::uint32_t size = starts[cell + 1] - place; size > 1;) {
    const std::uint32_t half = size / 2;
    place = keys[place + half] <= old_key ? place + half : place;
    size -= half;
  }
  QUADPOOL_ASSERT(place < starts[cell + 1] && keys[place] == old_key,
                  "QuadTree::mark_moved_keys: a moved item is not in last frame's order");
  return place;
}

// Step 2 of the repair: each moved key's place in last frame's order, found by its old key in
// its old cell's run (bucket_starts_ are still last frame's), marked kMovedKey; and each
// range's kept keys, and those of the ranges before it. All the places are found before any is
// marked, since a mark breaks the run's order for the searches. O(m log(cell's items)).
void QuadTree::mark_moved_keys(std::uint32_t moved_count, const TaskSystem& tasks) {
  const auto count = static_cast<std::uint32_t>(order_keys_.size());
  const std::uint32_t ranges = (count + kItemsPerTask - 1) / kItemsPerTask;
  std::uint64_t* keys = order_keys_.data();
  const std::uint32_t* starts = bucket_starts_.data();
  std::uint32_t* places = scratch_ids_.data();
  RepairRange* range = repair_ranges_.data();
  // The searches only read, so they share the workers; each is a chain of dependent misses,
  // and at 1M sprites tens of thousands of keys move a tick.
  parallel_for(tasks, moved_count, kMovedKeysPerTask,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                 for (std::uint32_t k = begin; k < end; ++k) {
                   places[k] = old_place(keys, starts, moved_from_cells_[k], moved_keys_[k]);
                 }
               });
  for (std::uint32_t r = 0; r < ranges; ++r) {
    range[r].kept = std::min(count - r * kItemsPerTask, kItemsPerTask);
  }
  for (std::uint32_t k = 0; k < moved_count; ++k) {
    keys[places[k]] = kMovedKey;
    --range[places[k] / kItemsPerTask].kept;
  }
  std::uint32_t kept_count = 0;
  for (std::uint32_t r = 0; r < ranges; ++r) {
    range[r].kept_before = kept_count;
    kept_count += range[r].kept;
  }
}

// Last frame's cell starts (bucket_starts_) made this frame's: each moved key leaves the cell
// it had and joins its new one. The first moved_count of moved_keys_ and moved_from_cells_,
// still side by side. O(moved keys + cells), on one thread: both are few.
void QuadTree::move_bucket_starts(std::uint32_t moved_count) noexcept {
  std::uint32_t* starts = bucket_starts_.data();
  const std::size_t buckets = bucket_starts_.size() - 1;
  // Each cell's count in place of its start, then the moves, then the starts again.
  for (std::size_t c = 0; c < buckets; ++c) starts[c] = starts[c + 1] - starts[c];
  for (std::uint32_t k = 0; k < moved_count; ++k) {
    --starts[moved_from_cells_[k]];
    ++starts[moved_keys_[k] >> 32];
  }
  std::uint32_t sum = 0;
  for (std::size_t c = 0; c < buckets; ++c) {
    const std::uint32_t cell_count = starts[c];
    starts[c] = sum;
    sum += cell_count;
  }
}

// The repair's last step: each range's kept keys (its part of order_keys_ but the kMovedKey
// places, in order) merged with its share of the sorted moved keys (moved_keys_) into
// next_keys_, from the slot the counts before it give, and the ids with them. The boxes follow
// in the build (gather_run()), run by run.
void QuadTree::merge_repaired_order(std::uint32_t moved_count, const TaskSystem& tasks) {
  const auto count = static_cast<std::uint32_t>(order_keys_.size());
  const std::uint32_t ranges = (count + kItemsPerTask - 1) / kItemsPerTask;
  // Every array through a local pointer: the loop's stores would otherwise make the compiler
  // load the members' data pointers again for every item.
  const std::uint64_t* keys = order_keys_.data();
  const std::uint64_t* moved = moved_keys_.data();
  const RepairRange* range = repair_ranges_.data();
  std::uint64_t* next = next_keys_.data();
  std::uint32_t* ids = item_ids_.data();
  parallel_for(
      tasks, ranges, 1, [&](std::uint32_t first_range, std::uint32_t end_range, std::uint32_t) {
        for (std::uint32_t r = first_range; r < end_range; ++r) {
          std::uint32_t from_kept = r * kItemsPerTask;
          const std::uint32_t kept_end = std::min(count, from_kept + kItemsPerTask);
          std::uint32_t from_moved = range[r].moved_from;
          const std::uint32_t moved_end = r + 1 < ranges ? range[r + 1].moved_from : moved_count;
          std::uint32_t s = range[r].kept_before + from_moved;
          // The next moved key, or kMovedKey once there is none: no kept key is as large, so
          // the usual item (no moved key before it) is one compare of two registers.
          const auto moved_at = [&](std::uint32_t k) {
            return k < moved_end ? moved[k] : kMovedKey;
          };
          std::uint64_t head = moved_at(from_moved);
          for (; from_kept < kept_end; ++from_kept) {
            const std::uint64_t key = keys[from_kept];
            if (key == kMovedKey) continue;
            while (head < key) {
              next[s] = head;
              ids[s++] = static_cast<std::uint32_t>(head);
              head = moved_at(++from_moved);
            }
            next[s] = key;
            ids[s++] = static_cast<std::uint32_t>(key);
          }
          for (; head != kMovedKey; head = moved_at(++from_moved)) {
            next[s] = head;
            ids[s++] = static_cast<std::uint32_t>(head);
          }
        }
      });
}

}  // namespace quadpool::spatial
