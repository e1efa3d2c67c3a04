#pragma once
/// The game's deterministic collision simulation: slow-moving circular sprites in a square
/// world, a quad-tree rebuilt from scratch every tick as the broad phase, and elastic circle
/// contacts as the narrow phase. The demo draws it, the headless runner times it, and the tick
/// tests check it. See game/README.md for the tick's phases and docs/simulation.md for the
/// determinism rules.
///
/// One tick at a fixed dt of one time unit (velocities are world units per tick):
///   1. integrate and 2. bounce off the walls (move_and_bounce from common/scene/scene.hpp), and
///      take every sprite's bounds in the same pass
///   3. rebuild the QuadTree from those bounds
///   4. enumerate the overlapping pairs into a reused buffer, in the tree's order
///   5. resolve each true circle contact, in that order (elastic impulse plus positional
///      correction), then clamp every sprite back inside the world
///
/// Memory order: every kSpriteSortPeriod ticks (tick 0 included), right after the rebuild, the
/// sprites are put in the tree's order (close in the world, close in memory), so that the
/// phases that follow, and the next ticks' rebuilds, read them nearly front to back. Each sprite
/// keeps an id for life (ids()); its index changes at those ticks and when sprites are removed.
///
/// Determinism: the same config gives bit-identical sprites after every tick, whichever
/// allocator the tree uses and however often it is switched. The tree's pair order depends on
/// the boxes only (never on node addresses), and all randomness comes from quadpool::Random.
///
/// Heap allocations: game_sim never references the counting operator new, so linking it does
/// not replace operator new behind anyone's back. Pass `&quadpool::heap_allocations` in
/// SimulationConfig::heap_counter (and link quadpool::heap_hook into the executable) to have
/// each tick's allocations counted.
///
/// Threads: a Simulation belongs to one thread, which calls step(); the tick runs its parallel
/// phases on SimulationConfig::tasks and returns when they are done; below kMinSpritesForWorkers
/// sprites it runs them on the calling thread, where a second core costs more than it gives.
/// Each parallel phase writes results to slots fixed by sprite or piece index, and the contacts
/// are resolved in the pair order on the calling thread, so the state does not depend on the
/// workers.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.hpp"
#include "engine/core/task_system.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/huge_page_allocator.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/parallel_pairs.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::sim {

/// Ticks after a start or reset in which heap allocations are expected: the first ticks grow the
/// buffers and the pool. The runner's heap_allocs_per_tick and the demo's check skip them.
inline constexpr std::uint64_t kHeapWarmupTicks = 10;

/// The sprites are put in the tree's order at every tick whose number is a multiple of this,
/// in every build, mode, allocator and thread count: part of the simulation's definition.
inline constexpr std::uint64_t kSpriteSortPeriod = 4;

/// The fewest and the most sprites a Simulation holds (sprite indices are 32-bit in the broad
/// phase; the cap keeps memory around 100 MB). The command line and the demo's slider use the
/// same range.
inline constexpr std::size_t kMinSprites = 1;
inline constexpr std::size_t kMaxSprites = 1'000'000;

/// Returns a monotonically increasing count of heap allocations, e.g. quadpool::heap_allocations.
using HeapCounter = std::uint64_t (*)() noexcept;

/// The tree settings' ranges: QuadTreeConfig's own for the depth; the leaf capacity has no upper
/// bound there, and the demo's slider stops at kMaxLeafCapacity.
inline constexpr int kMinTreeDepth = 1, kMaxTreeDepth = 16;
inline constexpr int kMinLeafCapacity = 1, kMaxLeafCapacity = 128;

/// Below this many sprites the tick runs on the calling thread, whatever the workers. A small
/// scene's arrays sit in one core's cache; with a second core taking part of the pairs and the
/// resolve, the next rebuild rewrites cache lines that the other core has just read, and each
/// such line first has to be taken back from it. Measured, alternating runs of 1,000 ticks on
/// two threads against one: 0.24 against 0.19 ms at 10k sprites, 0.56 against 0.52 at 20k (the
/// rebuild twice as long on two threads, the pairs 30 % shorter), 0.77 against 0.85 at 40k.
inline constexpr std::size_t kMinSpritesForWorkers = 32768;

struct SimulationConfig {
  scene::SceneConfig scene;  // seed, initial sprite count, radii, speed; the world side follows from it
  memory::AllocatorKind allocator = memory::AllocatorKind::Pool;  // the tree's node source at the first tick
  // The tree's settings: QuadTreeConfig's defaults, which spatial_bench measures too.
  int tree_max_depth = spatial::QuadTreeConfig{}.max_depth;          // 1..16
  int tree_leaf_capacity = spatial::QuadTreeConfig{}.leaf_capacity;  // >= 1
  HeapCounter heap_counter = nullptr;  // nullptr: TickStats::heap_allocations stays empty
  // The workers the tick's parallel phases run on (integrate, bounds, pairs); the default runs
  // everything on the calling thread. The state after every tick is the same for any workers.
  TaskSystem tasks{};
};

/// True when the circles at (ax, ay) and (bx, by) with radii ar and br overlap: centres closer
/// than the sum of the radii (touching circles are not a contact). The narrow phase's test,
/// which the tick records in Simulation::last_contacts().
inline bool circles_overlap(float ax, float ay, float ar, float bx, float by, float br) noexcept {
  const float dx = bx - ax;
  const float dy = by - ay;
  const float reach = ar + br;
  return dx * dx + dy * dy < reach * reach;
}

/// Wall-clock milliseconds spent in each phase of one tick (steady_clock).
struct PhaseTimes {
  double integrate = 0;  // move and bounce, and the bounds for the rebuild
  double rebuild = 0;    // QuadTree::rebuild, and the sprites' sort on the ticks that have one
  double pairs = 0;      // for_each_pair into the pair buffer
  double resolve = 0;    // narrow phase, contact response, clamp into the world
  double total = 0;      // the whole tick, stats included
};

/// What one tick did. Plain data, cheap to copy.
struct TickStats {
  std::uint64_t tick = 0;                         // 0 for the first tick
  memory::AllocatorKind allocator = memory::AllocatorKind::Pool;  // the allocator this tick's tree used
  std::size_t sprites = 0;
  PhaseTimes ms;
  std::size_t pairs_tested = 0;  // broad-phase pairs (overlapping boxes)
  std::size_t contacts = 0;      // pairs whose circles really overlapped and were resolved
  spatial::QuadTreeStats tree{};
  memory::PoolStats pool{};                       // the tree's node pool after the rebuild
  std::optional<std::uint64_t> heap_allocations;  // during the tick; empty without a counter
};

class Simulation {
 public:
  /// Spawns config.scene.sprites sprites with spawn_sprites(). Throws std::invalid_argument
  /// (from the tree) when the tree settings are out of range or the world is empty
  /// (config.scene.sprites == 0).
  explicit Simulation(const SimulationConfig& config);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Runs one tick and returns its stats (valid until the next step()). After warm-up, a
  /// Pool-mode tick makes no heap allocation unless the sprite or pair count reaches a new high.
  const TickStats& step();

  /// The tree's node source from the next tick on.
  void set_allocator(memory::AllocatorKind kind) noexcept;
  /// The allocator the next tick will use.
  memory::AllocatorKind allocator() const noexcept { return next_allocator_; }
  /// Replaces the tree with one of these settings (QuadTreeConfig's ranges), built at once from
  /// the last tick's boxes so that it can be drawn before the next tick; the sprites are left
  /// alone. A new tree has a new, cold node pool. Throws std::invalid_argument for a value out
  /// of range, leaving the old tree in place.
  void set_tree_limits(int max_depth, int leaf_capacity);

  // --- scene changes, between ticks (the demo's spawn tools) ----------------------------------

  /// Appends a sprite, clamped inside the world, with the next unused id; returns its index. Its
  /// radius must be > 0 and finite, its position and velocity finite, and there must be fewer than
  /// kMaxSprites sprites (asserts otherwise).
  std::size_t add_sprite(const scene::Sprite& sprite);
  /// Spawns `count` sprites around (x, y), up to `spread` away, with the scene's radii and
  /// speed, random headings and kinds drawn from the simulation's own seeded generator (so a
  /// replay that spawns the same way reproduces the same state). Returns how many were added:
  /// fewer than `count` when kMaxSprites is reached, 0 (after an assert in checked builds) when
  /// x, y or spread is not finite or spread < 0.
  std::size_t spawn_at(float x, float y, std::size_t count, float spread);
  /// Removes sprite `index` (< sprites().size()); later sprites shift down by one, so the
  /// order, and with it determinism, is preserved. An index out of range asserts (and is
  /// ignored when asserts are compiled out).
  void remove_sprite(std::size_t index);
  /// Removes every sprite whose centre lies within `radius` of (x, y); returns how many.
  std::size_t remove_sprites_near(float x, float y, float radius);
  /// Removes the sprites at `sorted_indices` (strictly increasing, each < sprites().size()) in
  /// one O(n) pass; the others keep their order, as with remove_sprite(). Returns how many were
  /// removed. Unsorted, repeated or out-of-range indices assert (and, with asserts compiled
  /// out, the offending index and those after it are ignored). No heap allocation.
  std::size_t remove_sprites(std::span<const std::uint32_t> sorted_indices);

  // --- state -----------------------------------------------------------------------------------

  std::span<const scene::Sprite> sprites() const noexcept { return sprites_; }
  /// Each sprite's id, by index: the spawned sprites have 0..n-1, an added one the next unused
  /// id. An id stays with its sprite when indices change (the sort, a removal); never reused.
  std::span<const std::uint32_t> ids() const noexcept { return ids_; }
  float world_side() const noexcept { return side_; }
  const SimulationConfig& config() const noexcept { return config_; }
  /// Ticks run so far.
  std::uint64_t ticks() const noexcept { return ticks_; }
  /// The stats of the last tick (all zero before the first).
  const TickStats& last_tick() const noexcept { return last_; }
  /// Sum of TickStats::contacts over every tick so far.
  std::uint64_t contacts_total() const noexcept { return contacts_total_; }
  /// Hash of the current state: state_hash(sprites(), ids()).
  std::uint64_t state_hash() const noexcept;

  /// The tree as the last tick built it (for drawing: for_each_node, stats, pool_stats).
  const spatial::QuadTree& tree() const noexcept { return *tree_; }
  /// The boxes the last tick's tree was built from (index = sprite index at that tick).
  std::span<const spatial::Aabb> last_boxes() const noexcept { return boxes_; }
  /// The last tick's broad-phase pairs, in the order they were resolved.
  std::span<const spatial::Pair> last_pairs() const noexcept { return pairs_; }
  /// The last tick's contacts: the pairs whose circles overlapped and were resolved, in the
  /// order they were resolved (a subsequence of last_pairs()).
  std::span<const spatial::Pair> last_contacts() const noexcept {
    return {contacts_.data(), contact_count_};
  }

 private:
  SimulationConfig config_;
  float side_;
  Random rng_;  // only for spawn_at: ticks themselves draw no random numbers
  // The workers this tick runs on: SimulationConfig::tasks, or none for a small scene.
  const TaskSystem& tick_tasks() const noexcept;
  void put_sprites_in_tree_order();
  void resolve_pairs();
  std::size_t resolve_run(std::size_t begin, std::size_t end, std::size_t at) noexcept;

  memory::HugePageVector<scene::Sprite> sprites_;
  memory::HugePageVector<std::uint32_t> ids_;  // by index, as sprites_
  std::uint32_t next_id_ = 0;
  // put_sprites_in_tree_order()'s scratch, swapped with sprites_ and ids_.
  memory::HugePageVector<scene::Sprite> sorted_sprites_;
  memory::HugePageVector<std::uint32_t> sorted_ids_;
  memory::HugePageVector<spatial::Aabb> boxes_;  // reused every tick
  std::vector<spatial::Pair> pairs_;           // reused every tick
  // The last tick's contacts are the first contact_count_; the vector only grows, to the pair
  // buffer's capacity, so that each run of pairs can write its contacts at its own offset.
  std::vector<spatial::Pair> contacts_;
  std::size_t contact_count_ = 0;
  spatial::ParallelPairs pair_finder_;
  std::unique_ptr<spatial::QuadTree> tree_;
  memory::AllocatorKind next_allocator_;
  std::uint64_t ticks_ = 0;
  std::uint64_t contacts_total_ = 0;
  TickStats last_;
};

/// Hash of a set of sprites: each sprite's id and the bit patterns of its x, y, vx and vy go
/// through 64-bit FNV-1a, the sprites' hashes are added (mod 2^64), and the count is mixed in
/// last. The sum makes it a hash of the set, whatever order the sprites are in memory; with
/// `ids` empty, a sprite's id is its index (a plain list). Equal states hash equal on every
/// platform; -0.0 and 0.0 differ.
std::uint64_t state_hash(std::span<const scene::Sprite> sprites,
                         std::span<const std::uint32_t> ids = {}) noexcept;

/// The state hash as the runner prints it: 16 lower-case hex digits.
std::string format_hash(std::uint64_t hash);

/// Total kinetic energy, sum of 0.5 * m * |v|^2 with m = radius^2 (mass proportional to area),
/// accumulated in double.
double kinetic_energy(std::span<const scene::Sprite> sprites) noexcept;

}  // namespace quadpool::game::sim
