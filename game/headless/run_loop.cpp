#include "game/headless/run_loop.hpp"

#include <fmt/format.h>

namespace quadpool::game::headless {

std::optional<memory::AllocatorKind> AllocatorAlternation::before_tick(std::uint64_t t) noexcept {
  if (every_ == 0 || t == 0 || t % every_ != 0) return std::nullopt;
  kind_ = kind_ == memory::AllocatorKind::Pool ? memory::AllocatorKind::NewDelete
                                               : memory::AllocatorKind::Pool;
  return kind_;
}

ProgressLine::ProgressLine(std::FILE* out, std::uint64_t ticks) noexcept
    : out_(out), ticks_(ticks), last_(Clock::now()) {}

void ProgressLine::after_tick(std::uint64_t t, double tick_ms) {
  if (out_ == nullptr) return;
  const Clock::time_point now = Clock::now();
  if (now - last_ < std::chrono::seconds(1)) return;
  last_ = now;
  fmt::print(out_, "quadpool: tick {}/{} ({:.0f}%), last tick {:.3f} ms\n", t + 1, ticks_,
             100.0 * static_cast<double>(t + 1) / static_cast<double>(ticks_), tick_ms);
  std::fflush(out_);
}

std::optional<std::string> verify_tick(spatial::PairChecker& checker, std::uint64_t tick,
                                       std::span<const spatial::Aabb> boxes,
                                       std::span<const spatial::Pair> pairs) {
  const auto mismatch = checker.check(boxes, pairs);
  if (!mismatch) return std::nullopt;
  return fmt::format("quadpool: --verify failed at tick {}: {}", tick,
                     spatial::describe(*mismatch, boxes));
}

void report_field(HeadlessReport& report, const sim::Simulation& sim,
                  const sim::TickRecorder& recorder) {
  const sim::TickStats& last = sim.last_tick();
  report.state_hash = sim.state_hash();
  report.pairs_last_tick = last.pairs_tested;
  report.contacts_total = sim.contacts_total();
  report.pool = last.pool;
  report.tree = last.tree;
  report.tree_config = sim.tree().config();
  report.kinetic_energy_last = sim::kinetic_energy(sim.sprites());
  report.pool_ticks = recorder.summary(memory::AllocatorKind::Pool);
  report.new_delete_ticks = recorder.summary(memory::AllocatorKind::NewDelete);
  report.tick_ms = recorder.tick_ms();
  report.phase_ms = recorder.phase_medians();
  report.heap_allocs_per_tick = recorder.warm_heap_allocations();
}

}  // namespace quadpool::game::headless
