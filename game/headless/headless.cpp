// The headless runner. Sections: the field run (run_ticks), the
// two output formats (format_json with the blocks of report_json.hpp, format_summary),
// run_headless.
#include "game/headless/headless.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/util/json_writer.hpp"
#include "game/headless/play_run.hpp"
#include "game/sim/report_json.hpp"
#include "game/headless/run_loop.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/worker_pool.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::headless {

namespace {

using Clock = std::chrono::steady_clock;

// The report's per-allocator figures, each with its name in the JSON and the summary.
std::array<std::pair<const char*, const sim::AllocatorSummary*>, 2> by_allocator(
    const HeadlessReport& r) noexcept {
  return {std::pair{"pool", &r.pool_ticks}, std::pair{"new-delete", &r.new_delete_ticks}};
}

}  // namespace

HeadlessOutcome run_ticks(const HeadlessOptions& options, sim::HeapCounter heap_counter,
                          std::FILE* progress) {
  WorkerPool workers(options.game.threads);
  sim::SimulationConfig config = options.game.config.field;
  config.heap_counter = heap_counter;
  config.tasks = workers.task_system();
  sim::Simulation sim(config);

  HeadlessReport report;
  report.options = options;
  report.kinetic_energy_first = sim::kinetic_energy(sim.sprites());
  sim::TickRecorder recorder;
  recorder.reserve(options.ticks);
  sim::HeapWarmup warmup;

  const Clock::time_point start = Clock::now();
  auto failure = run_tick_loop(
      options, options.ticks, sim, recorder, progress,
      [&](memory::AllocatorKind kind) { sim.set_allocator(kind); },
      [&] {
        const bool warm = warmup.next_tick(sim);
        return sim::TickSample::of(sim.step(), warm);
      });
  if (failure) return HeadlessOutcome{std::nullopt, std::move(*failure), 1};
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report_field(report, sim, recorder);
  return HeadlessOutcome{report, {}, 0};
}

std::string format_json(const HeadlessReport& r) {
  const sim::SimulationConfig& field = r.options.game.config.field;
  util::JsonWriter json;
  json.begin();
  json.integer("sprites", field.scene.sprites);
  json.integer("ticks", r.options.ticks);
  sim::write_seed(json, "seed", field.scene.seed);
  json.string("scene", scene::scene_name(field.scene.kind));
  json.string("allocator", memory::allocator_name(field.allocator));
  json.integer("threads", r.options.game.threads);
  json.integer("switch_allocator_every", r.options.switch_allocator_every);
  json.boolean("verified", r.options.verify);
  json.string("state_hash", sim::format_hash(r.state_hash));
  json.integer("pairs_last_tick", r.pairs_last_tick);
  json.integer("contacts_total", r.contacts_total);
  sim::write_percentiles(json, "tick_ms", r.tick_ms);
  json.begin("phase_ms");
  json.number("integrate", r.phase_ms.integrate);
  json.number("rebuild", r.phase_ms.rebuild);
  json.number("pairs", r.phase_ms.pairs);
  json.number("resolve", r.phase_ms.resolve);
  json.end();
  json.begin("tick_ms_by_allocator");
  for (const auto& [name, times] : by_allocator(r)) {
    json.begin(name);
    json.integer("ticks", times->samples);
    sim::write_percentile_fields(json, times->tick_ms);
    json.end();
  }
  json.end();
  if (r.heap_allocs_per_tick) {
    json.begin("heap_allocs_per_tick");
    json.real("median", r.heap_allocs_per_tick->median);
    json.integer("max", static_cast<std::uint64_t>(r.heap_allocs_per_tick->max));
    json.end();
  } else {
    json.null("heap_allocs_per_tick");
  }
  json.begin("heap_allocs_per_tick_by_allocator");
  for (const auto& [name, times] : by_allocator(r)) {
    if (times->warm_heap_allocations_mean) {
      json.begin(name);
      json.number("mean", *times->warm_heap_allocations_mean);
      json.integer("max", times->max_warm_heap_allocations);
      json.end();
    } else {
      json.null(name);
    }
  }
  json.end();
  sim::write_pool_stats(json, r.pool);
  sim::write_tree_stats(json, r.tree_config, r.tree);
  json.begin("kinetic_energy");
  json.number("first", r.kinetic_energy_first);
  json.number("last", r.kinetic_energy_last);
  json.end();
  if (r.game) play::write_game_json(json, *r.game);
  json.number("seconds", r.seconds);
  json.end();
  return json.text();
}

std::string format_summary(const HeadlessReport& r) {
  const sim::SimulationConfig& field = r.options.game.config.field;
  std::string s =
      fmt::format("quadpool --headless{}: {} scene, {} sprites, {} ticks, seed {}, allocator {}",
                  r.game ? " (play)" : "", scene::scene_name(field.scene.kind),
                  field.scene.sprites, r.options.ticks, field.scene.seed,
                  memory::allocator_name(field.allocator));
  if (r.options.switch_allocator_every != 0) {
    s += fmt::format(", switching every {} ticks", r.options.switch_allocator_every);
  }
  s += fmt::format("\n  state hash        {}\n", sim::format_hash(r.state_hash));
  if (r.options.verify) s += "  verify            every tick's pairs match the reference\n";
  s += fmt::format("  tick (ms)         median {:.3f}  p99 {:.3f}  max {:.3f}\n", r.tick_ms.median,
                   r.tick_ms.p99, r.tick_ms.max);
  s += fmt::format(
      "  phases (median)   integrate {:.3f}  rebuild {:.3f}  pairs {:.3f}  resolve {:.3f}\n",
      r.phase_ms.integrate, r.phase_ms.rebuild, r.phase_ms.pairs, r.phase_ms.resolve);
  for (const auto& [name, times] : by_allocator(r)) {
    if (times->samples == 0 || r.options.switch_allocator_every == 0) continue;
    s += fmt::format("  {:<17} {} ticks, median {:.3f}  p99 {:.3f}\n", name, times->samples,
                     times->tick_ms.median, times->tick_ms.p99);
  }
  s += fmt::format("  pairs last tick   {}    contacts total {}\n", r.pairs_last_tick,
                   r.contacts_total);
  if (r.heap_allocs_per_tick) {
    s += fmt::format("  heap allocs/tick  median {:.0f}  max {:.0f} (after the first {} ticks)\n",
                     r.heap_allocs_per_tick->median, r.heap_allocs_per_tick->max,
                     sim::kHeapWarmupTicks);
  }
  s += fmt::format(
      "  tree              {} nodes, {} leaves, depth {} (max depth {}, leaf capacity {})\n",
      r.tree.nodes, r.tree.leaves, r.tree.max_depth_reached, r.tree_config.max_depth,
      r.tree_config.leaf_capacity);
  s += fmt::format("  node pool         capacity {}, peak {} in use, {} chunk(s)\n",
                   r.pool.capacity, r.pool.high_water, r.pool.chunks);
  s += fmt::format("  kinetic energy    {:.6g} -> {:.6g}\n", r.kinetic_energy_first,
                   r.kinetic_energy_last);
  if (r.game) s += play::format_game_summary(*r.game);
  s += fmt::format("  wall time         {:.2f} s\n", r.seconds);
  return s;
}

int run_headless(const HeadlessOptions& options, sim::HeapCounter heap_counter) {
  std::FILE* progress = options.json ? nullptr : stderr;
  const HeadlessOutcome outcome = options.play || !options.game.replay.empty()
                                      ? run_play(options, heap_counter, progress)
                                      : run_ticks(options, heap_counter, progress);
  if (outcome.report) {
    if (options.json) {
      std::printf("%s\n", format_json(*outcome.report).c_str());
    } else {
      std::fputs(format_summary(*outcome.report).c_str(), stdout);
    }
  }
  if (!outcome.failure.empty()) std::fprintf(stderr, "%s\n", outcome.failure.c_str());
  return outcome.exit_code;
}

}  // namespace quadpool::game::headless
