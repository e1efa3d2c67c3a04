#include "game/window/summary.hpp"

#include <algorithm>
#include <string>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/sim/report_json.hpp"
#include "game/sim/simulation.hpp"
#include "game/util/json_writer.hpp"
#include "game/window/allocator_legs.hpp"
#include "game/window/ramp_experiment.hpp"

namespace quadpool::game::window {

namespace {

void write_mode(util::JsonWriter& json, const char* key, const ModeSummary& m) {
  json.begin(key);
  json.integer("frames", m.frames);
  sim::write_percentiles(json, "frame_ms", m.frame_ms);
  sim::write_percentiles(json, "tick_ms", m.tick_ms);
  json.integer("warm_ticks", m.warm_ticks);
  json.integer("warm_ticks_with_heap_allocations", m.warm_ticks_with_heap_allocations);
  json.integer("max_warm_tick_heap_allocations", m.max_warm_tick_heap_allocations);
  json.end();
}

void write_pool_and_tree(util::JsonWriter& json, const sim::Simulation& sim) {
  sim::write_pool_stats(json, sim.tree().pool_stats());
  sim::write_tree_stats(json, sim.tree().config(), sim.last_tick().tree);
}

void write_stream(util::JsonWriter& json, const VertexStreamStats& stream) {
  json.begin("vertex_stream");
  json.integer("capacity_bytes", stream.capacity_bytes);
  json.integer("frame_bytes", stream.frame_bytes);
  json.integer("stale_bytes", stream.stale_bytes);
  json.integer("batches", stream.batches);
  json.integer("grows", stream.grows);
  json.number("fragmentation", stream.fragmentation());
  json.end();
}

void write_rect(util::JsonWriter& json, const char* key, const ScreenRect& r) {
  json.begin(key);
  json.real("x", r.x);
  json.real("y", r.y);
  json.real("w", r.w);
  json.real("h", r.h);
  json.end();
}

void write_layout(util::JsonWriter& json, const SummaryInputs& in) {
  json.begin("layout");
  write_rect(json, "panel", in.layout.panel);
  write_rect(json, "world", in.layout.world);
  json.real("ui_scale", in.layout.ui_scale);
  json.integer("refits", in.layout_refits);
  json.integer("frames_overlapping", in.layout_frames_overlapping);
  write_rect(json, "world_drawn", in.world_drawn);
  json.end();
}

// "panel": whether its content ever went past its edges (cut off on the right, or below the
// bottom where only a scrollbar shows it), its sprite slider, and the last notice shown.
void write_panel(util::JsonWriter& json, const SummaryInputs& in) {
  json.begin("panel");
  json.real("overflow_x", in.panel_fit.overflow_x);
  json.real("overflow_y", in.panel_fit.overflow_y);
  json.integer("sprites_slider", static_cast<std::uint64_t>(std::max(in.sprites_slider, 0)));
  json.string_or_null("notice", in.notice);
  json.end();
}

// One allocator's side of alternating legs (an A/B run's, a ramp step's).
void write_ab_mode(util::JsonWriter& json, const char* key, const LegFigures& result, int mode) {
  json.begin(key);
  json.begin("tick_ms");
  json.number("median", result.tick_ms[mode].median);
  json.number("p99", result.tick_ms[mode].p99);
  json.end();
  json.begin("frame_ms");
  json.number("median", result.frame_ms[mode].median);
  json.number("p99", result.frame_ms[mode].p99);
  json.end();
  if (result.heap_allocations_per_tick[mode]) {
    json.number("heap_allocations_per_tick", *result.heap_allocations_per_tick[mode]);
  } else {
    json.null("heap_allocations_per_tick");
  }
  json.end();
}

// "ab": {"state": "none" | "running" | "cancelled" | "done", and with "done" the result}.
void write_ab(util::JsonWriter& json, const AbExperiment& ab) {
  json.begin("ab");
  const std::optional<AbResult>& result = ab.result();
  json.string("state", ab.running()     ? "running"
                       : ab.cancelled() ? "cancelled"
                       : result         ? "done"
                                        : "none");
  if (result && !ab.running()) {
    json.string("scene", scene::scene_name(result->scene));
    json.integer("sprites", result->sprites);
    sim::write_seed(json, "seed", result->seed);
    json.begin("tree");
    json.integer("max_depth", static_cast<std::uint64_t>(result->tree_max_depth));
    json.integer("leaf_capacity", static_cast<std::uint64_t>(result->tree_leaf_capacity));
    json.end();
    json.integer("legs", AbExperiment::kLegs);
    json.integer("leg_frames", AbExperiment::kLegFrames);
    json.begin("settings");
    json.real("speed", 1.0);
    json.boolean("draw_tree", result->settings.draw_tree);
    json.boolean("highlight_contacts", result->settings.highlight_contacts);
    json.boolean("panel_shown", result->settings.show_ui);
    json.end();
    write_ab_mode(json, "pool", *result, 0);
    write_ab_mode(json, "new_delete", *result, 1);
    json.number("tick_median_ratio", result->tick_median_ratio());  // new-delete / pool
  }
  json.end();
}

// "ramp": {"state": "none" | "running" | "stopped" | "done", what it ran on, and "steps": one
// object per step measured, in order, each with its sprites and the A/B result's "pool",
// "new_delete" and "tick_median_ratio"}. A stopped ramp keeps the steps it finished.
void write_ramp(util::JsonWriter& json, const RampExperiment& ramp) {
  json.begin("ramp");
  json.string("state", ramp_state_name(ramp.state()));
  if (ramp.state() != RampExperiment::State::None) {
    json.string("scene", scene::scene_name(ramp.scene().kind));
    sim::write_seed(json, "seed", ramp.scene().seed);
    json.integer("top", ramp.top());
    json.integer("legs", RampExperiment::kLegs);
    json.integer("leg_frames", RampExperiment::kLegFrames);
    json.integer("warmup_frames", RampExperiment::kWarmupFrames);
    json.begin_array("steps");
    for (const RampStep& step : ramp.results()) {
      json.begin();
      json.integer("sprites", step.sprites);
      write_ab_mode(json, "pool", step.figures, 0);
      write_ab_mode(json, "new_delete", step.figures, 1);
      json.number("tick_median_ratio", step.figures.tick_median_ratio());  // new-delete / pool
      json.end();
    }
    json.end_array();
  }
  json.end();
}

// "query_mode": the query tool's mode; "query": the last query's numbers, "picked": the
// picked sprite and its leaf (or null).
void write_query(util::JsonWriter& json, const Selection& selection) {
  json.string("query_mode", query_mode_name(selection.mode()));
  if (const std::optional<QueryStats>& q = selection.stats()) {
    json.begin("query");
    json.string("mode", query_mode_name(q->mode));
    json.integer("hits", q->hits);
    json.integer("brute_hits", q->brute_hits);
    json.boolean("agree", q->agree);
    json.number("tree_us", q->tree_us);
    json.number("brute_us", q->brute_us);
    if (q->mode == QueryMode::Ray && q->hits > 0) {
      json.real("ray_t", q->ray_t);
    } else {
      json.null("ray_t");
    }
    json.end();
  } else {
    json.null("query");
  }
  if (selection.pick().picked_id() && selection.pick().leaf()) {
    json.begin("picked");
    json.integer("sprite", *selection.pick().picked_id());
    const spatial::Aabb& leaf = *selection.pick().leaf();
    json.begin("leaf");
    json.real("min_x", leaf.min_x);
    json.real("min_y", leaf.min_y);
    json.real("max_x", leaf.max_x);
    json.real("max_y", leaf.max_y);
    json.end();
    json.end();
  } else {
    json.null("picked");
  }
}

// In play, the game's object (as the headless JSON writes it) and what only the window has:
// who flew, the high score, the sound; in the lab both are null.
void write_play(util::JsonWriter& json, const SummaryInputs& in) {
  json.string("mode", in.mode);
  if (in.game == nullptr || in.play == nullptr) {
    json.null("game");
    json.null("play");
    return;
  }
  play::write_game_json(json, *in.game);
  json.begin("play");
  json.string("pilot", in.play->pilot);
  json.string("state_hash", sim::format_hash(in.play->state_hash));
  json.integer("high_score", in.play->high_score);
  json.string_or_null("notice", in.play->notice);
  json.boolean("sound_device", in.play->sound_device);
  json.boolean("muted", in.play->muted);
  json.integer("sounds_played", in.play->sounds_played);
  json.end();
}

}  // namespace

std::string summary_json(const SummaryInputs& in) {
  const sim::Percentiles frame = in.stats.frame_ms();
  const sim::PhaseTimes phases = in.stats.phase_medians();
  util::JsonWriter json;
  json.begin();
  json.integer("frames", in.stats.frames());
  json.string("scene", scene::scene_name(in.sim.config().scene.kind));
  json.integer("sprites", in.sim.sprites().size());
  json.integer("ticks_since_reset", in.sim.ticks());  // a new scene starts again from 0
  // The shown world's hash, as the headless runner prints it: a --frames run of the lab and
  // a headless run of as many ticks end on the same state.
  json.string("state_hash", sim::format_hash(in.sim.state_hash()));
  sim::write_seed(json, "seed", in.seed);
  json.string("renderer", in.renderer);
  json.integer("window_width", static_cast<std::uint64_t>(in.layout.window.w));
  json.integer("window_height", static_cast<std::uint64_t>(in.layout.window.h));
  write_layout(json, in);
  write_panel(json, in);
  json.boolean("vsync", in.vsync);
  json.boolean("draw_tree", in.draw_tree);
  json.integer("ticks", in.game_ticks);
  json.number("seconds", in.game_seconds);
  if (in.game_seconds > 0) {
    json.number("ticks_per_second", static_cast<double>(in.game_ticks) / in.game_seconds);
  } else {
    json.null("ticks_per_second");
  }
  json.integer("threads", in.sim.config().tasks.worker_count);
  json.boolean("heap_counter", in.heap_counter);
  json.integer("allocator_switches", in.allocator_switches);
  json.number("fps_median", frame.median > 0 ? 1000.0 / frame.median : 0.0);
  json.number("cpu_ms_per_frame", in.cpu_ms_per_frame);
  sim::write_percentiles(json, "frame_ms", frame);
  json.begin("phase_ms");  // medians
  json.number("integrate", phases.integrate);
  json.number("rebuild", phases.rebuild);
  json.number("pairs", phases.pairs);
  json.number("resolve", phases.resolve);
  json.number("render", in.stats.render_median());
  json.end();
  json.begin("modes");
  write_mode(json, "pool", in.stats.summary(memory::AllocatorKind::Pool));
  write_mode(json, "new_delete", in.stats.summary(memory::AllocatorKind::NewDelete));
  json.end();
  write_pool_and_tree(json, in.sim);
  write_stream(json, in.stream);
  json.integer("draw_calls", in.draw_calls);
  json.boolean("density_map", in.density_map);
  json.integer("sprites_in_view", in.sprites_in_view);
  json.integer("sprites_one_by_one", in.sprites_one_by_one);
  write_ab(json, in.ab);
  write_ramp(json, in.ramp);
  write_query(json, in.selection);
  json.string_or_null("screenshot", in.screenshot != nullptr ? *in.screenshot : std::string());
  json.string_or_null("f12_screenshot", in.f12_screenshot);
  write_play(json, in);
  json.end();
  return json.text();
}

}  // namespace quadpool::game::window
