// entity_churn: SlotPool<T> against the containers a game keeps its entities in, on the frame
// loop of plf::colony's published "general use" benchmark: every frame, iterate and update every
// entity, then destroy a share of them (the churn) and create as many. A 48-byte entity; 10k and
// 100k live; 1 %, 10 % and 50 % churn per frame. Also: iteration alone, and get(handle) in a
// random order against a vector<T*> indexed in the same order.
//
//   cmake --preset bench && cmake --build --preset bench --target entity_churn entity_churn_o2
//   scripts/entity_churn.sh   (both binaries, 5 alternating rounds each, medians, the table)
//
// Which entities die is seeded and fixed before timing: per frame, `churn` distinct positions
// among the live ones. A peer that keeps references (SlotPool's handles, colony's iterators,
// kept from insertion as plf's referencing benchmark keeps them) destroys the entities those
// references name and stores the new entities' references in the same places; a peer whose
// entities are a dense vector destroys at the same positions of the vector (swap-remove), the
// way such a store is used. Every peer reserves what it can before timing; 16 untimed frames
// bring each to its steady state first (holes filled, free lists scattered).
//
// Sections: the entity and the schedule; the peers; the benchmarks.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include <boost/pool/object_pool.hpp>

#if QUADPOOL_HAVE_PLF_COLONY
#include <plf_colony.h>
#endif

#include "bench/bench_guard.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/handle.hpp"
#include "engine/memory/object_pool.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "engine/memory/slot_pool.hpp"

namespace quadpool::bench {
namespace {

// --- the entity and the schedule ---------------------------------------------------------------

/// 48 bytes, trivially destructible like plf's small_struct: position, velocity, id, age.
struct Entity {
  /// The entity of id `id_`, placed by it. Every peer builds it in its own memory from the id
  /// (emplace, create(args), new), as new/delete does, never by copying a temporary.
  explicit Entity(std::uint64_t id_) noexcept
      : x(static_cast<double>(id_ % 1000)),
        y(static_cast<double>(id_ % 777)),
        vx(0.5),
        vy(-0.25),
        id(id_),
        age(0) {}
  void update() noexcept {
    x += vx;
    y += vy;
    ++age;
  }
  double x, y, vx, vy;
  std::uint64_t id, age;
};
static_assert(sizeof(Entity) == 48);

constexpr std::size_t kFrames = 16;  // the schedule repeats after this many frames

/// Per frame, `churn` distinct positions in [0, live): the entities that die. Seeded.
struct Schedule {
  Schedule(std::size_t live_count, std::size_t churn_percent)
      : live(live_count), churn(live_count * churn_percent / 100) {
    Random rng(0xC010'0000 + live + churn_percent);
    std::vector<std::uint32_t> order(live);
    std::iota(order.begin(), order.end(), 0u);
    victims.reserve(kFrames * churn);
    for (std::size_t f = 0; f < kFrames; ++f) {
      for (std::size_t j = 0; j < churn; ++j) {  // a partial Fisher-Yates shuffle
        std::swap(order[j], order[j + rng.below(live - j)]);
        victims.push_back(order[j]);
      }
    }
  }
  const std::uint32_t* frame(std::size_t f) const { return victims.data() + (f % kFrames) * churn; }
  std::size_t live, churn;
  std::vector<std::uint32_t> victims;
};

// --- the peers ---------------------------------------------------------------------------------
// Each: populate(n), iterate() (update every entity), churn(victims, k) (destroy k, create k).

/// quadpool::memory::SlotPool<Entity>: handles kept by the game, destroyed by handle.
class SlotPoolPeer {
 public:
  void populate(std::size_t n) {
    pool_.reserve(n);
    refs_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) refs_.push_back(pool_.create(next_id_++));
  }
  void iterate() {
    pool_.for_each([](Entity& e) { e.update(); });
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) pool_.destroy(refs_[victims[j]]);
    for (std::size_t j = 0; j < k; ++j) refs_[victims[j]] = pool_.create(next_id_++);
  }
  memory::SlotPool<Entity>& pool() { return pool_; }
  const std::vector<memory::Handle<Entity>>& refs() const { return refs_; }

 private:
  memory::SlotPool<Entity> pool_{4096};
  std::vector<memory::Handle<Entity>> refs_;
  std::uint64_t next_id_ = 0;
};

#if QUADPOOL_HAVE_PLF_COLONY
/// plf::colony<Entity>, reserved, erased by the iterators insert() returned.
class ColonyPeer {
 public:
  void populate(std::size_t n) {
    colony_.reserve(n);
    refs_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) refs_.push_back(colony_.emplace(next_id_++));
  }
  void iterate() {
    for (Entity& e : colony_) e.update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) colony_.erase(refs_[victims[j]]);
    for (std::size_t j = 0; j < k; ++j) refs_[victims[j]] = colony_.emplace(next_id_++);
  }

 private:
  plf::colony<Entity> colony_;
  std::vector<plf::colony<Entity>::iterator> refs_;
  std::uint64_t next_id_ = 0;
};
#endif

/// std::vector<Entity> values, reserved, swap-remove: the iteration floor.
class VectorPeer {
 public:
  void populate(std::size_t n) {
    values_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) values_.emplace_back(next_id_++);
  }
  void iterate() {
    for (Entity& e : values_) e.update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    const std::size_t n = values_.size();
    for (std::size_t j = 0; j < k; ++j) {
      Entity& dead = values_[victims[j] % (n - j)];
      dead = values_.back();
      values_.pop_back();
    }
    for (std::size_t j = 0; j < k; ++j) values_.emplace_back(next_id_++);
  }

 private:
  std::vector<Entity> values_;
  std::uint64_t next_id_ = 0;
};

/// The store a game builds on ObjectPool without handles (the game's own store before it moved
/// to SlotPool): an ObjectPool of exactly the budget, Growth::Fixed, a dense vector<T*> with
/// swap-remove, and the live switch (a create asks the kind, a destroy asks the pool whether it
/// owns the object).
class ObjectPoolStorePeer {
 public:
  ObjectPoolStorePeer() = default;
  ObjectPoolStorePeer(const ObjectPoolStorePeer&) = delete;
  ObjectPoolStorePeer& operator=(const ObjectPoolStorePeer&) = delete;
  ~ObjectPoolStorePeer() {
    while (!live_.empty()) destroy_at(live_.size() - 1);
  }
  void populate(std::size_t n) {
    pool_ = std::make_unique<memory::ObjectPool<Entity>>(n, memory::Growth::Fixed);
    live_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) spawn();
  }
  void iterate() {
    for (Entity* e : live_) e->update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    const std::size_t n = live_.size();
    for (std::size_t j = 0; j < k; ++j) destroy_at(victims[j] % (n - j));
    for (std::size_t j = 0; j < k; ++j) spawn();
  }

 private:
  void spawn() {
    Entity* e =
        kind_ == memory::AllocatorKind::Pool ? pool_->create(next_id_) : new Entity(next_id_);
    ++next_id_;
    live_.push_back(e);
  }
  void destroy_at(std::size_t index) {
    Entity* e = live_[index];
    if (pool_->owns(e)) {
      pool_->destroy(e);
    } else {
      delete e;
    }
    live_[index] = live_.back();
    live_.pop_back();
  }
  std::unique_ptr<memory::ObjectPool<Entity>> pool_;
  std::vector<Entity*> live_;
  memory::AllocatorKind kind_ = memory::AllocatorKind::Pool;
  std::uint64_t next_id_ = 0;
};

/// new/delete per entity and a dense vector<T*> with swap-remove.
class NewDeletePeer {
 public:
  NewDeletePeer() = default;
  NewDeletePeer(const NewDeletePeer&) = delete;
  NewDeletePeer& operator=(const NewDeletePeer&) = delete;
  ~NewDeletePeer() {
    for (Entity* e : live_) delete e;
  }
  void populate(std::size_t n) {
    live_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) live_.push_back(new Entity(next_id_++));
  }
  void iterate() {
    for (Entity* e : live_) e->update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    const std::size_t n = live_.size();
    for (std::size_t j = 0; j < k; ++j) {
      Entity*& dead = live_[victims[j] % (n - j)];
      delete dead;
      dead = live_.back();
      live_.pop_back();
    }
    for (std::size_t j = 0; j < k; ++j) live_.push_back(new Entity(next_id_++));
  }

 private:
  std::vector<Entity*> live_;
  std::uint64_t next_id_ = 0;
};

/// boost::object_pool<Entity> (construct/destroy, as its documentation uses it; destroy keeps
/// the free list ordered, O(free blocks)) and a dense vector<T*> with swap-remove.
class BoostObjectPoolPeer {
 public:
  void populate(std::size_t n) {
    pool_ = std::make_unique<boost::object_pool<Entity>>(n);
    live_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) live_.push_back(pool_->construct(next_id_++));
  }
  void iterate() {
    for (Entity* e : live_) e->update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    const std::size_t n = live_.size();
    for (std::size_t j = 0; j < k; ++j) {
      Entity*& dead = live_[victims[j] % (n - j)];
      pool_->destroy(dead);
      dead = live_.back();
      live_.pop_back();
    }
    for (std::size_t j = 0; j < k; ++j) live_.push_back(pool_->construct(next_id_++));
  }

 private:
  std::unique_ptr<boost::object_pool<Entity>> pool_;
  std::vector<Entity*> live_;
  std::uint64_t next_id_ = 0;
};

/// The other design SlotPool was measured against: generational handles over ObjectPoolStore.
/// An ObjectPool, a dense vector<T*> iterated in order, and a sparse table of {generation,
/// dense position} per handle index; a destroy swap-removes in the dense vector and fixes the
/// moved entity's table entry. Iteration is a pointer walk; get() is three dependent loads.
class DenseHandlesPeer {
 public:
  DenseHandlesPeer() = default;
  DenseHandlesPeer(const DenseHandlesPeer&) = delete;
  DenseHandlesPeer& operator=(const DenseHandlesPeer&) = delete;
  ~DenseHandlesPeer() {
    for (Entity* e : dense_) pool_->destroy(e);
  }
  void populate(std::size_t n) {
    pool_ = std::make_unique<memory::ObjectPool<Entity>>(n, memory::Growth::Fixed);
    dense_.reserve(n);
    dense_index_.reserve(n);
    sparse_.reserve(n);
    free_.reserve(n);
    refs_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) refs_.push_back(create());
  }
  void iterate() {
    for (Entity* e : dense_) e->update();
  }
  void churn(const std::uint32_t* victims, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) destroy(refs_[victims[j]]);
    for (std::size_t j = 0; j < k; ++j) refs_[victims[j]] = create();
  }

 private:
  struct Sparse {
    std::uint32_t generation, dense;
  };
  memory::Handle<Entity> create() {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<std::uint32_t>(sparse_.size());
      sparse_.push_back({0, 0});
    }
    Sparse& s = sparse_[index];
    s.generation += 1;  // odd: live
    s.dense = static_cast<std::uint32_t>(dense_.size());
    dense_.push_back(pool_->create(next_id_++));
    dense_index_.push_back(index);
    return {index, s.generation};
  }
  bool destroy(memory::Handle<Entity> h) {
    Sparse& s = sparse_[h.index()];
    if (s.generation != h.generation()) return false;
    pool_->destroy(dense_[s.dense]);
    const std::uint32_t moved = dense_index_.back();
    dense_[s.dense] = dense_.back();
    dense_index_[s.dense] = moved;
    sparse_[moved].dense = s.dense;
    dense_.pop_back();
    dense_index_.pop_back();
    s.generation += 1;
    free_.push_back(h.index());
    return true;
  }
  std::unique_ptr<memory::ObjectPool<Entity>> pool_;
  std::vector<Entity*> dense_;
  std::vector<std::uint32_t> dense_index_;  // the handle index of each dense entry
  std::vector<Sparse> sparse_;
  std::vector<std::uint32_t> free_;
  std::vector<memory::Handle<Entity>> refs_;
  std::uint64_t next_id_ = 0;
};

// --- the benchmarks ----------------------------------------------------------------------------

template <class Peer>
void warm_up(Peer& peer, const Schedule& schedule) {
  for (std::size_t f = 0; f < kFrames; ++f) {
    peer.iterate();
    peer.churn(schedule.frame(f), schedule.churn);
  }
}

// The counter `name`: nanoseconds per item, `items` of them in every iteration (Google
// Benchmark's inverted rate).
void count_ns_per(benchmark::State& state, const char* name, std::size_t items) {
  state.counters[name] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(items),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// One iteration is one frame: update every entity, destroy `churn`, create as many.
template <class Peer>
void frame_loop(benchmark::State& state) {
  const Schedule schedule(static_cast<std::size_t>(state.range(0)),
                          static_cast<std::size_t>(state.range(1)));
  Peer peer;
  peer.populate(schedule.live);
  warm_up(peer, schedule);
  std::size_t frame = 0;
  for (auto _ : state) {
    peer.iterate();
    peer.churn(schedule.frame(frame++), schedule.churn);
    benchmark::ClobberMemory();
  }
  count_ns_per(state, "ns_per_entity", schedule.live);
}

/// Iteration alone, in the steady state after frames at 10 % churn.
template <class Peer>
void iterate_only(benchmark::State& state) {
  const Schedule schedule(static_cast<std::size_t>(state.range(0)), 10);
  Peer peer;
  peer.populate(schedule.live);
  warm_up(peer, schedule);
  for (auto _ : state) {
    peer.iterate();
    benchmark::ClobberMemory();
  }
  count_ns_per(state, "ns_per_entity", schedule.live);
}

/// get(handle) for every live entity in a seeded random order (after frames at 10 % churn), or
/// (kPointers) the same entities through a vector<T*> indexed in the same order.
/// Both read the same field of the same objects (the pointers are get()'s results) and neither
/// tests for null (a caller that knows the handle is live), so the difference is the handle
/// check alone.
template <bool kPointers>
void random_get(benchmark::State& state) {
  const Schedule schedule(static_cast<std::size_t>(state.range(0)), 10);
  SlotPoolPeer peer;
  peer.populate(schedule.live);
  warm_up(peer, schedule);
  const auto& refs = peer.refs();
  std::vector<Entity*> pointers;
  for (auto h : refs) pointers.push_back(peer.pool().get(h));
  std::vector<std::uint32_t> order(refs.size());
  std::iota(order.begin(), order.end(), 0u);
  Random rng(99);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  for (auto _ : state) {
    double sum = 0;
    if constexpr (kPointers) {
      for (std::uint32_t i : order) sum += pointers[i]->x;
    } else {
      for (std::uint32_t i : order) sum += peer.pool().get(refs[i])->x;
    }
    benchmark::DoNotOptimize(sum);
  }
  count_ns_per(state, "ns_per_get", order.size());
}

void frame_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"live", "churn"})->Unit(benchmark::kMicrosecond);
  for (std::int64_t live : {10'000, 100'000}) {
    for (std::int64_t churn : {1, 10, 50}) b->Args({live, churn});
  }
}
// boost::object_pool's ordered destroy walks its free list: at 100k live and 10 % churn a frame
// takes about a second, at 50 % minutes. 10k and 100k at 1 % show the shape.
void boost_frame_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"live", "churn"})->Unit(benchmark::kMicrosecond);
  for (std::int64_t churn : {1, 10, 50}) b->Args({10'000, churn});
  b->Args({100'000, 1});
}
void live_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"live"})->Unit(benchmark::kMicrosecond)->Arg(10'000)->Arg(100'000);
}

BENCHMARK(frame_loop<SlotPoolPeer>)->Name("Frame/SlotPool")->Apply(frame_args);
#if QUADPOOL_HAVE_PLF_COLONY
BENCHMARK(frame_loop<ColonyPeer>)->Name("Frame/PlfColony")->Apply(frame_args);
#endif
BENCHMARK(frame_loop<VectorPeer>)->Name("Frame/VectorValues")->Apply(frame_args);
BENCHMARK(frame_loop<ObjectPoolStorePeer>)->Name("Frame/ObjectPoolStore")->Apply(frame_args);
BENCHMARK(frame_loop<NewDeletePeer>)->Name("Frame/NewDelete")->Apply(frame_args);
BENCHMARK(frame_loop<DenseHandlesPeer>)->Name("Frame/DenseHandles")->Apply(frame_args);
BENCHMARK(frame_loop<BoostObjectPoolPeer>)->Name("Frame/BoostObjectPool")->Apply(boost_frame_args);

BENCHMARK(iterate_only<SlotPoolPeer>)->Name("Iterate/SlotPool")->Apply(live_args);
#if QUADPOOL_HAVE_PLF_COLONY
BENCHMARK(iterate_only<ColonyPeer>)->Name("Iterate/PlfColony")->Apply(live_args);
#endif
BENCHMARK(iterate_only<VectorPeer>)->Name("Iterate/VectorValues")->Apply(live_args);
BENCHMARK(iterate_only<ObjectPoolStorePeer>)->Name("Iterate/ObjectPoolStore")->Apply(live_args);
BENCHMARK(iterate_only<DenseHandlesPeer>)->Name("Iterate/DenseHandles")->Apply(live_args);

BENCHMARK(random_get<false>)->Name("Get/SlotPoolHandle")->Apply(live_args);
BENCHMARK(random_get<true>)->Name("Get/PointerVector")->Apply(live_args);

}  // namespace
}  // namespace quadpool::bench

QUADPOOL_BENCHMARK_MAIN();
