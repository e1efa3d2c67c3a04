// The ramp's section of the lab's panel: the button and the two-series plot.
#include "game/window/sdl/ramp_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>

#include <fmt/format.h>

#include "common/scene/scene.hpp"
#include "game/sim/percentiles.hpp"
#include "game/window/ramp_experiment.hpp"
#include "game/window/sdl/panel_style.hpp"

namespace quadpool::game::window::sdl {

std::string sprites_label(std::size_t sprites) {
  if (sprites >= 1'000'000 && sprites % 1'000'000 == 0)
    return fmt::format("{}M", sprites / 1'000'000);
  if (sprites >= 1'000 && sprites % 1'000 == 0) return fmt::format("{}k", sprites / 1'000);
  return fmt::format("{}", sprites);
}

namespace {

constexpr ImU32 kPlotBackground = IM_COL32(24, 26, 34, 255);
constexpr ImU32 kGrid = IM_COL32(60, 64, 78, 255);
constexpr ImU32 kLabel = IM_COL32(200, 200, 210, 255);
constexpr ImU32 kCurrentStep = IM_COL32(255, 210, 90, 255);

std::string ms_label(double ms) {
  return ms >= 10.0  ? fmt::format("{:.0f} ms", ms)
         : ms >= 1.0 ? fmt::format("{:.1f} ms", ms)
                     : fmt::format("{:.2f} ms", ms);
}

// The plot's frame: where the steps and the values land.
struct PlotFrame {
  ImVec2 min, max;  // the plotting area, window pixels
  double log_lo = 0, log_hi = 1;

  float x(int step) const {
    return min.x + (max.x - min.x) * static_cast<float>(step) /
                       static_cast<float>(window::RampExperiment::kSteps - 1);
  }
  // Logarithmic (drawing only: nothing here feeds the simulation): at 10k the tick is a
  // hundredth of 1M's, and both would be flat on a linear axis.
  float y(double ms) const {
    const double t = (std::log(std::max(ms, 1e-6)) - log_lo) / (log_hi - log_lo);
    return max.y - (max.y - min.y) * static_cast<float>(std::clamp(t, 0.0, 1.0));
  }
};

// The range of both series, a little wider than the values so that no point sits on an edge.
PlotFrame plot_frame(std::span<const window::RampStep> steps, ImVec2 min, ImVec2 max) {
  double lo = 0, hi = 0;
  for (const window::RampStep& step : steps) {
    for (const sim::Percentiles& p : step.figures.tick_ms) {
      if (p.median <= 0) continue;
      lo = lo > 0 ? std::min(lo, p.median) : p.median;
      hi = std::max(hi, p.median);
    }
  }
  if (lo <= 0) lo = hi = 1.0;
  PlotFrame frame{min, max};
  frame.log_lo = std::log(lo) - 0.15;
  frame.log_hi = std::max(std::log(hi) + 0.15, frame.log_lo + 1.0);
  return frame;
}

void draw_series(ImDrawList* draw, const PlotFrame& frame, std::span<const window::RampStep> steps,
                 int mode, ImU32 colour, float scale) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const int step = static_cast<int>(i);
    const ImVec2 at(frame.x(step), frame.y(steps[i].figures.tick_ms[mode].median));
    if (i > 0) {
      const ImVec2 before(frame.x(step - 1), frame.y(steps[i - 1].figures.tick_ms[mode].median));
      draw->AddLine(before, at, colour, 2.0f * scale);
    }
    draw->AddCircleFilled(at, 3.0f * scale, colour);
  }
}

// Text centred on x, clamped inside [left, right].
void centred_text(ImDrawList* draw, float x, float y, float left, float right, ImU32 colour,
                  const std::string& text) {
  const float w = ImGui::CalcTextSize(text.c_str()).x;
  const float at = std::clamp(x - 0.5f * w, left, std::max(left, right - w));
  draw->AddText(ImVec2(at, y), colour, text.c_str());
}

// The plot, the ratio row and the sprite-count row, in a reserved rectangle.
void draw_plot(const window::RampExperiment& ramp, float width, float scale) {
  const float line = ImGui::GetTextLineHeight();
  const float plot_h = 72.0f * scale;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, plot_h + 2.0f * line));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 box_max(at.x + width, at.y + plot_h);
  draw->AddRectFilled(at, box_max, kPlotBackground);
  // Half a label's room at each end, so that the first and last steps' labels fit.
  const float inset = 16.0f * scale;
  const std::span<const window::RampStep> steps = ramp.results();
  const PlotFrame frame = plot_frame(steps, ImVec2(at.x + inset, at.y + 0.5f * line + 2.0f * scale),
                                     ImVec2(box_max.x - inset, box_max.y - 4.0f * scale));
  const std::array<std::size_t, window::RampExperiment::kSteps> counts =
      window::RampExperiment::steps_for(ramp.top());
  for (int step = 0; step < window::RampExperiment::kSteps; ++step) {
    const bool current = ramp.running() && step == ramp.step();
    draw->AddLine(ImVec2(frame.x(step), at.y), ImVec2(frame.x(step), box_max.y),
                  current ? kCurrentStep : kGrid, current ? 2.0f * scale : 1.0f);
    const std::size_t i = static_cast<std::size_t>(step);
    const float label_y = box_max.y + line;
    centred_text(draw, frame.x(step), label_y, at.x, box_max.x, current ? kCurrentStep : kLabel,
                 sprites_label(counts[i]));
    if (i < steps.size()) {
      const double ratio = steps[i].figures.tick_median_ratio();
      centred_text(draw, frame.x(step), box_max.y, at.x, box_max.x,
                   ratio >= 1.0 ? kPoolColour : kNewDeleteColour, fmt::format("{:.2f}x", ratio));
    }
  }
  draw_series(draw, frame, steps, 1, kNewDeleteColour, scale);
  draw_series(draw, frame, steps, 0, kPoolColour, scale);
  // The series climb from the bottom left to the top right: the axis' top and the legend go in
  // the top-left corner, its bottom in the bottom-right one.
  const float pad = 3.0f * scale;
  if (!steps.empty()) {
    draw->AddText(ImVec2(at.x + pad, at.y), kLabel, ms_label(std::exp(frame.log_hi)).c_str());
    const std::string lo = ms_label(std::exp(frame.log_lo));
    draw->AddText(ImVec2(box_max.x - pad - ImGui::CalcTextSize(lo.c_str()).x, box_max.y - line),
                  kLabel, lo.c_str());
  }
  const float pool_w = ImGui::CalcTextSize("pool ").x;
  draw->AddText(ImVec2(at.x + pad, at.y + line), kPoolColour, "pool");
  draw->AddText(ImVec2(at.x + pad + pool_w, at.y + line), kNewDeleteColour, "new/delete");
}

}  // namespace

bool draw_ramp_progress(const window::RampExperiment& ramp) {
  const bool stop = ImGui::Button("Stop (G)");
  ImGui::SameLine();
  const std::string step =
      fmt::format("step {} of {}: {} sprites{}", ramp.step() + 1, window::RampExperiment::kSteps,
                  sprites_label(ramp.step_sprites()), ramp.warming_up() ? ", warming up" : "");
  ImGui::ProgressBar(ramp.progress(), ImVec2(-1, 0), step.c_str());
  return stop;
}

void draw_ramp_result(const window::RampExperiment& ramp, float width, float scale) {
  ImGui::TextDisabled("ramp: %s, seed %" PRIu64 ", tick median%s",
                      scene::scene_name(ramp.scene().kind), ramp.scene().seed,
                      ramp.state() == window::RampExperiment::State::Stopped ? ", stopped" : "");
  draw_plot(ramp, width, scale);
}

}  // namespace quadpool::game::window::sdl
