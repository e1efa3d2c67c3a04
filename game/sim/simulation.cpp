#include "game/sim/simulation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>

#include "engine/core/assert.hpp"
#include "engine/core/portable_math.hpp"
#include "engine/core/task_system.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/parallel_pairs.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::sim {

namespace {

using Clock = std::chrono::steady_clock;

// Sprites per task in the per-sprite phases: big enough that a task's overhead is noise.
constexpr std::uint32_t kSpritesPerTask = 16384;

// How many pairs ahead resolve_run() prefetches the sprites: at a million sprites, resolve took
// 1.40 ms at 8, 1.25 at 16 and 1.18 at 32 on two threads (1.48 without).
constexpr std::size_t kResolvePrefetch = 32;

double ms_between(Clock::time_point from, Clock::time_point to) noexcept {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// Separates two overlapping circles and, when they approach, exchanges momentum along the
// contact normal as a perfectly elastic collision. Mass is proportional to area (radius^2).
// Returns false (and changes nothing) when the circles do not really overlap: the broad phase
// reports box overlaps, and touching circles are not a contact.
bool resolve_contact(scene::Sprite& a, scene::Sprite& b) noexcept {
  if (!circles_overlap(a.x, a.y, a.radius, b.x, b.y, b.radius)) return false;
  const float dx = b.x - a.x;
  const float dy = b.y - a.y;
  const float reach = a.radius + b.radius;
  const float distance_sq = dx * dx + dy * dy;

  const float distance = std::sqrt(distance_sq);
  // Concentric circles have no normal; any fixed one keeps the result deterministic.
  const float nx = distance > 0.0f ? dx / distance : 1.0f;
  const float ny = distance > 0.0f ? dy / distance : 0.0f;
  const float inv_mass_a = 1.0f / (a.radius * a.radius);
  const float inv_mass_b = 1.0f / (b.radius * b.radius);
  const float inv_mass_sum = inv_mass_a + inv_mass_b;

  const float approach = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny;
  if (approach < 0.0f) {
    // The impulse of an elastic collision: the normal relative velocity is reversed.
    const float impulse = -2.0f * approach / inv_mass_sum;
    a.vx -= impulse * inv_mass_a * nx;
    a.vy -= impulse * inv_mass_a * ny;
    b.vx += impulse * inv_mass_b * nx;
    b.vy += impulse * inv_mass_b * ny;
  }

  // Positional correction: push the circles apart by the whole penetration, the lighter one
  // further, so that they do not sink into each other over the next ticks. It changes no
  // velocity, so it cannot add kinetic energy.
  const float push = (reach - distance) / inv_mass_sum;
  a.x -= push * inv_mass_a * nx;
  a.y -= push * inv_mass_a * ny;
  b.x += push * inv_mass_b * nx;
  b.y += push * inv_mass_b * ny;
  return true;
}

}  // namespace

Simulation::Simulation(const SimulationConfig& config)
    : config_(config),
      side_(scene::world_side(config.scene.sprites)),
      // A stream of its own, so that spawning never replays the initial placement's numbers.
      rng_(config.scene.seed ^ 0x5be0cd19137e2179ull),
      next_allocator_(config.allocator) {
  if (config.scene.sprites == 0) {
    throw std::invalid_argument(
        "SimulationConfig: scene.sprites must be at least 1 (the world's side grows with it)");
  }
  if (config.scene.sprites > kMaxSprites) {
    throw std::invalid_argument("SimulationConfig: scene.sprites must be at most " +
                                std::to_string(kMaxSprites));
  }
  tree_ = std::make_unique<spatial::QuadTree>(
      spatial::QuadTreeConfig{.bounds = {0.0f, 0.0f, side_, side_},
                              .max_depth = config.tree_max_depth,
                              .leaf_capacity = config.tree_leaf_capacity},
      config.allocator);
  {
    const std::vector<scene::Sprite> spawned = scene::spawn_sprites(config.scene);
    sprites_.assign(spawned.begin(), spawned.end());
  }
  ids_.resize(sprites_.size());
  for (std::uint32_t i = 0; i < ids_.size(); ++i) ids_[i] = i;
  next_id_ = static_cast<std::uint32_t>(ids_.size());
  boxes_.reserve(sprites_.size());
  // About 1.3 overlaps per sprite at the scene's density; the first tick corrects the guess.
  pairs_.reserve(sprites_.size() * 2);
  last_.allocator = config.allocator;
  last_.pool = tree_->pool_stats();
  last_.sprites = sprites_.size();
}

Simulation::~Simulation() = default;

void Simulation::set_allocator(memory::AllocatorKind kind) noexcept {
  next_allocator_ = kind;
}

void Simulation::set_tree_limits(int max_depth, int leaf_capacity) {
  auto tree = std::make_unique<spatial::QuadTree>(
      spatial::QuadTreeConfig{
          .bounds = tree_->config().bounds, .max_depth = max_depth, .leaf_capacity = leaf_capacity},
      next_allocator_);
  tree->rebuild(boxes_);
  tree_ = std::move(tree);
  last_.pool = tree_->pool_stats();
  config_.tree_max_depth = max_depth;
  config_.tree_leaf_capacity = leaf_capacity;
}

// Resolving a contact moves sprites that later pairs read, so the pair order is part of the
// result. The pairs under each of the tree's top children touch sprites no other child's pairs
// touch: those runs go to the workers at once, and give what they would one after the other;
// the pairs between children follow on this thread. Contacts are recorded in pair order.
void Simulation::resolve_pairs() {
  // Never more contacts than pairs: each run writes its contacts from its own first pair's slot.
  // Grown to the pair buffer's capacity, so that it allocates only when that grew.
  if (contacts_.size() < pairs_.size()) contacts_.resize(pairs_.capacity());
  const std::span<const std::size_t> ends = pair_finder_.child_run_ends();
  // Run k starts where run k - 1 ends; the pairs across children start after the last run.
  const auto run_begin = [ends](std::size_t k) { return k == 0 ? std::size_t{0} : ends[k - 1]; };
  std::array<std::size_t, 4> found{};
  parallel_for(tick_tasks(), static_cast<std::uint32_t>(ends.size()), 1,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                 for (std::uint32_t k = begin; k < end; ++k) {
                   found[k] = resolve_run(run_begin(k), ends[k], run_begin(k));
                 }
               });
  std::size_t count = 0;
  for (std::size_t k = 0; k < ends.size(); ++k) {
    const auto from = contacts_.begin() + static_cast<std::ptrdiff_t>(run_begin(k));
    std::copy(from, from + static_cast<std::ptrdiff_t>(found[k]),
              contacts_.begin() + static_cast<std::ptrdiff_t>(count));
    count += found[k];
  }
  count += resolve_run(run_begin(ends.size()), pairs_.size(), count);
  contact_count_ = count;
}

// Resolves pairs_[begin, end) in order; the contacts go to contacts_ from `at`. Returns how many.
std::size_t Simulation::resolve_run(std::size_t begin, std::size_t end, std::size_t at) noexcept {
  const std::size_t first = at;
  for (std::size_t i = begin; i < end; ++i) {
    // The sprites of a pair some way ahead, so that their loads have arrived when it comes up:
    // pairs between leaves reach sprites that the last few pairs did not touch.
    if (i + kResolvePrefetch < end) {
      __builtin_prefetch(&sprites_[pairs_[i + kResolvePrefetch].a], 1);
      __builtin_prefetch(&sprites_[pairs_[i + kResolvePrefetch].b], 1);
    }
    const spatial::Pair pair = pairs_[i];
    scene::Sprite& a = sprites_[pair.a];
    scene::Sprite& b = sprites_[pair.b];
    if (resolve_contact(a, b)) {
      contacts_[at++] = pair;
      // The correction may push a sprite through a wall; move_and_bounce keeps every other
      // sprite inside.
      scene::clamp_into_world(a, side_);
      scene::clamp_into_world(b, side_);
    }
  }
  return at - first;
}

const TickStats& Simulation::step() {
  const std::uint64_t heap_before = config_.heap_counter ? config_.heap_counter() : 0;
  const Clock::time_point start = Clock::now();
  // The pool changes only in a tick that builds from it, or that tears its nodes down (the first
  // new/delete tick after a pool tick). PoolAllocator::stats() counts its free list, so a run of
  // new/delete ticks keeps the stats read when the pool last changed instead of recounting.
  const bool pool_touched = next_allocator_ == memory::AllocatorKind::Pool ||
                            last_.allocator == memory::AllocatorKind::Pool;

  // The tree applies a new allocator at its next rebuild, which is this tick's.
  tree_->set_allocator(next_allocator_);

  const TaskSystem& tasks = tick_tasks();
  const auto sprite_count = static_cast<std::uint32_t>(sprites_.size());

  // 1 + 2: integrate and bounce, each sprite on its own, and the boxes the rebuild takes, from
  // each range of sprites while it is still in the cache (one pass over the sprites, not two).
  // boxes_ only reallocates when the sprite count reaches a new high.
  boxes_.resize(sprites_.size());
  parallel_for(tasks, sprite_count, kSpritesPerTask,
               [this](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                 scene::move_and_bounce(std::span(sprites_).subspan(begin, end - begin), side_);
                 for (std::uint32_t i = begin; i < end; ++i) {
                   boxes_[i] = scene::bounds_of(sprites_[i]);
                 }
               });
  const Clock::time_point integrated = Clock::now();

  // 3: rebuild the broad phase from scratch.
  tree_->rebuild(boxes_, tasks);
  if (ticks_ % kSpriteSortPeriod == 0) put_sprites_in_tree_order();
  const Clock::time_point rebuilt = Clock::now();

  // 4: the pairs, in the tree's order, which depends only on the boxes (on any workers). The
  // buffers keep headroom for the pair count's tick-to-tick wobble, so that a steady scene
  // stops allocating here after its first ticks.
  pair_finder_.collect(*tree_, tasks, pairs_);
  const Clock::time_point paired = Clock::now();

  // 5: narrow phase and response, in pair order (see resolve_pairs).
  resolve_pairs();
  const Clock::time_point resolved = Clock::now();

  last_.tick = ticks_;
  last_.allocator = next_allocator_;
  last_.sprites = sprites_.size();
  last_.pairs_tested = pairs_.size();
  last_.contacts = contact_count_;
  last_.tree = tree_->stats();
  if (pool_touched) last_.pool = tree_->pool_stats();
  const Clock::time_point end = Clock::now();
  last_.ms = PhaseTimes{.integrate = ms_between(start, integrated),
                        .rebuild = ms_between(integrated, rebuilt),
                        .pairs = ms_between(rebuilt, paired),
                        .resolve = ms_between(paired, resolved),
                        .total = ms_between(start, end)};
  if (config_.heap_counter) {
    last_.heap_allocations = config_.heap_counter() - heap_before;
  } else {
    last_.heap_allocations.reset();
  }
  ++ticks_;
  contacts_total_ += contact_count_;
  return last_;
}

const TaskSystem& Simulation::tick_tasks() const noexcept {
  static constexpr TaskSystem kCallingThread{};
  return sprites_.size() < kMinSpritesForWorkers ? kCallingThread : config_.tasks;
}

// Puts sprites_ and ids_ in the order of the tree just built, and renumbers the tree to match:
// the pairs and the contacts that follow speak of the new indices. A gather on the workers; the
// boxes are taken again from the sprites they were taken from this tick (the same values, and
// cheaper than a third gather). The scratch keeps every capacity of the arrays it is swapped
// with, so that a warm tick allocates nothing here and add_sprite() does not either.
void Simulation::put_sprites_in_tree_order() {
  const std::span<const std::uint32_t> order = tree_->item_order();
  // A box left out (never for finite sprites) is in no order; with none left out, the tree's
  // renumbering below cannot fail.
  if (order.size() != sprites_.size()) return;
  const auto count = static_cast<std::uint32_t>(sprites_.size());
  if (sorted_sprites_.capacity() < sprites_.capacity())
    sorted_sprites_.reserve(sprites_.capacity());
  if (sorted_ids_.capacity() < ids_.capacity()) sorted_ids_.reserve(ids_.capacity());
  sorted_sprites_.resize(count);
  sorted_ids_.resize(count);
  parallel_for(tick_tasks(), count, kSpritesPerTask,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                 for (std::uint32_t s = begin; s < end; ++s) {
                   const std::uint32_t from = order[s];
                   sorted_sprites_[s] = sprites_[from];
                   sorted_ids_[s] = ids_[from];
                   boxes_[s] = scene::bounds_of(sorted_sprites_[s]);
                 }
               });
  static_cast<void>(tree_->renumber_in_item_order());
  sprites_.swap(sorted_sprites_);
  ids_.swap(sorted_ids_);
}

std::size_t Simulation::add_sprite(const scene::Sprite& sprite) {
  QUADPOOL_ASSERT(std::isfinite(sprite.radius) && sprite.radius > 0.0f,
                  "Simulation::add_sprite: the radius must be finite and > 0");
  QUADPOOL_ASSERT(std::isfinite(sprite.x) && std::isfinite(sprite.y) && std::isfinite(sprite.vx) &&
                      std::isfinite(sprite.vy),
                  "Simulation::add_sprite: position and velocity must be finite");
  QUADPOOL_ASSERT(sprites_.size() < kMaxSprites, "Simulation::add_sprite: too many sprites");
  scene::Sprite added = sprite;
  added.kind = static_cast<std::uint8_t>(added.kind % scene::kSpriteKinds);
  scene::clamp_into_world(added, side_);
  sprites_.push_back(added);
  ids_.push_back(next_id_++);
  return sprites_.size() - 1;
}

std::size_t Simulation::spawn_at(float x, float y, std::size_t count, float spread) {
  QUADPOOL_ASSERT(std::isfinite(x) && std::isfinite(y),
                  "Simulation::spawn_at: the position must be finite");
  QUADPOOL_ASSERT(std::isfinite(spread) && spread >= 0.0f,
                  "Simulation::spawn_at: spread must be finite and >= 0");
  // With asserts compiled out, a NaN from a UI must still not reach the tree.
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(spread) || spread < 0.0f) return 0;
  const std::size_t room = kMaxSprites - sprites_.size();
  if (count > room) count = room;
  const scene::SceneConfig& scene = config_.scene;
  for (std::size_t i = 0; i < count; ++i) {
    scene::Sprite s{};
    s.radius = rng_.uniform(scene.min_radius, scene.max_radius);
    // sqrt makes the spawn uniform over the disc rather than bunched at its centre.
    const float distance = spread * std::sqrt(rng_.unit_float());
    const CosSin where = portable_cos_sin(rng_.uniform(0.0f, 2.0f * std::numbers::pi_v<float>));
    s.x = x + distance * where.cosine;
    s.y = y + distance * where.sine;
    const CosSin heading = portable_cos_sin(rng_.uniform(0.0f, 2.0f * std::numbers::pi_v<float>));
    s.vx = scene.speed * heading.cosine;
    s.vy = scene.speed * heading.sine;
    s.kind = static_cast<std::uint8_t>(rng_.below(scene::kSpriteKinds));
    scene::clamp_into_world(s, side_);
    sprites_.push_back(s);
    ids_.push_back(next_id_++);
  }
  return count;
}

void Simulation::remove_sprite(std::size_t index) {
  QUADPOOL_ASSERT(index < sprites_.size(), "Simulation::remove_sprite: index out of range");
  if (index >= sprites_.size()) return;  // asserts compiled out: ignore rather than corrupt
  sprites_.erase(sprites_.begin() + static_cast<std::ptrdiff_t>(index));
  ids_.erase(ids_.begin() + static_cast<std::ptrdiff_t>(index));
}

std::size_t Simulation::remove_sprites_near(float x, float y, float radius) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < sprites_.size(); ++i) {
    const float dx = sprites_[i].x - x;
    const float dy = sprites_[i].y - y;
    if (dx * dx + dy * dy <= radius * radius) continue;
    sprites_[kept] = sprites_[i];
    ids_[kept] = ids_[i];
    ++kept;
  }
  const std::size_t removed = sprites_.size() - kept;
  sprites_.resize(kept);
  ids_.resize(kept);
  return removed;
}

std::size_t Simulation::remove_sprites(std::span<const std::uint32_t> sorted_indices) {
  // Checked before anything moves, so that a bad list leaves the sprites as they were.
  std::size_t count = 0;
  while (count < sorted_indices.size() && sorted_indices[count] < sprites_.size() &&
         (count == 0 || sorted_indices[count] > sorted_indices[count - 1])) {
    ++count;
  }
  QUADPOOL_ASSERT(count == sorted_indices.size(),
                  "Simulation::remove_sprites: indices must be increasing and in range");
  if (count == 0) return 0;
  std::size_t write = sorted_indices[0];  // nothing before the first removed sprite moves
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t keep_end = k + 1 < count ? sorted_indices[k + 1] : sprites_.size();
    for (std::size_t i = sorted_indices[k] + 1; i < keep_end; ++i) {
      sprites_[write] = sprites_[i];
      ids_[write] = ids_[i];
      ++write;
    }
  }
  sprites_.resize(write);
  ids_.resize(write);
  return count;
}

std::uint64_t Simulation::state_hash() const noexcept {
  return game::sim::state_hash(sprites_, ids_);
}

std::uint64_t state_hash(std::span<const scene::Sprite> sprites,
                         std::span<const std::uint32_t> ids) noexcept {
  constexpr std::uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  const auto mix = [](std::uint64_t& hash, std::uint64_t value, int bytes) {
    // Little-endian byte order by construction, whatever the host's.
    for (int i = 0; i < bytes; ++i) {
      hash ^= (value >> (8 * i)) & 0xffu;
      hash *= kPrime;
    }
  };
  QUADPOOL_ASSERT(ids.empty() || ids.size() == sprites.size(),
                  "state_hash: ids must be empty or one per sprite");
  const bool own_ids = ids.size() == sprites.size();
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < sprites.size(); ++i) {
    const scene::Sprite& s = sprites[i];
    std::uint64_t hash = kOffsetBasis;
    mix(hash, own_ids ? ids[i] : i, 4);
    for (const float f : {s.x, s.y, s.vx, s.vy}) mix(hash, std::bit_cast<std::uint32_t>(f), 4);
    // FNV-1a's last bytes barely reach its high bits: a finaliser spreads every bit over all 64
    // before the sum (splitmix64's).
    hash = (hash ^ (hash >> 30)) * 0xbf58476d1ce4e5b9ull;
    hash = (hash ^ (hash >> 27)) * 0x94d049bb133111ebull;
    sum += hash ^ (hash >> 31);
  }
  std::uint64_t hash = kOffsetBasis;
  mix(hash, sum, 8);
  mix(hash, sprites.size(), 8);
  return hash;
}

std::string format_hash(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

double kinetic_energy(std::span<const scene::Sprite> sprites) noexcept {
  double energy = 0.0;
  for (const scene::Sprite& s : sprites) {
    const double mass = static_cast<double>(s.radius) * s.radius;
    energy += 0.5 * mass * (static_cast<double>(s.vx) * s.vx + static_cast<double>(s.vy) * s.vy);
  }
  return energy;
}

}  // namespace quadpool::game::sim
