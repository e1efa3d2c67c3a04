// The window the App draws into: layout, clear and clip, screenshots, present.
#include "game/window/sdl/window_target.hpp"

#include <SDL.h>

#include <cstdio>

#include <fmt/format.h>

#include "game/window/sdl/textures.hpp"
#include "game/util/atomic_file.hpp"
#include "game/util/log.hpp"
#include "game/util/shown_value.hpp"

namespace quadpool::game::window::sdl {

namespace {

std::string name_of(SDL_Renderer* renderer) {
  SDL_RendererInfo info{};
  if (SDL_GetRendererInfo(renderer, &info) == 0 && info.name != nullptr) return info.name;
  return {};
}

}  // namespace

WindowTarget::WindowTarget(SDL_Window* window, SDL_Renderer* renderer)
    : window_(window), renderer_(renderer), renderer_name_(name_of(renderer)) {}

bool WindowTarget::relayout(bool show_ui) {
  int width = 0, height = 0;
  SDL_GetRendererOutputSize(renderer_, &width, &height);
  const window::Layout next = window::layout_for(width, height, show_ui);
  if (next.window.w == layout_.window.w && next.window.h == layout_.window.h &&
      next.panel.w == layout_.panel.w) {
    return false;
  }
  layout_ = next;
  ++refits_;
  return true;
}

void WindowTarget::watch_panel(const window::ScreenRect& drawn_panel) {
  if (drawn_panel.overlaps(layout_.world)) ++frames_overlapping_;
}

void WindowTarget::begin_world() {
  SDL_SetRenderDrawColor(renderer_, 18, 20, 28, 255);
  SDL_RenderClear(renderer_);
  const window::ScreenRect& area = layout_.world;
  const SDL_Rect clip{static_cast<int>(area.x), static_cast<int>(area.y), static_cast<int>(area.w),
                      static_cast<int>(area.h)};
  SDL_RenderSetClipRect(renderer_, &clip);
}

void WindowTarget::end_world() {
  SDL_RenderSetClipRect(renderer_, nullptr);
}

// An earlier session's screenshot of the same frame is never overwritten: the next free name,
// quadpool-FRAME-N.png, taken atomically (a name that appears meanwhile is skipped too).
void WindowTarget::save_f12(std::uint64_t frame) {
  constexpr int kMostNames = 10'000;
  const std::string stem = fmt::format("quadpool-{:06}", frame);
  std::string path = stem + ".png";
  std::string error = save_screenshot(renderer_, path, util::Existing::Keep);
  for (int n = 1; error == util::kFileExists && n < kMostNames; ++n) {
    path = fmt::format("{}-{}.png", stem, n);
    error = save_screenshot(renderer_, path, util::Existing::Keep);
  }
  if (error.empty()) {
    last_f12_ = path;
    util::logger().info("F12: wrote {}", path);
  } else {
    util::logger().error("F12: {}: {}", path, error);
  }
}

bool WindowTarget::save(const std::string& path) {
  const std::string error = save_screenshot(renderer_, path);
  if (!error.empty()) {
    std::fprintf(stderr, "quadpool: --screenshot %s: %s\n", util::shown_path(path).c_str(),
                 error.c_str());
    return false;
  }
  util::logger().info("wrote {}", util::shown_path(path));
  return true;
}

void WindowTarget::present() {
  SDL_RenderPresent(renderer_);
}

void WindowTarget::wait_for_refresh(std::chrono::steady_clock::time_point frame_start) const {
  SDL_DisplayMode mode{};
  const int hz = SDL_GetWindowDisplayMode(window_, &mode) == 0 && mode.refresh_rate > 0
                     ? mode.refresh_rate
                     : 60;
  const auto next = frame_start + std::chrono::microseconds(1'000'000 / hz);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      next - std::chrono::steady_clock::now());
  if (left.count() > 0) SDL_Delay(static_cast<Uint32>(left.count()));
}

}  // namespace quadpool::game::window::sdl
