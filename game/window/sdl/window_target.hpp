#pragma once
/// The window the App draws into: its renderer, the layout of the panel beside the world (and
/// what the summary reports of it), each frame's clear and clip, the screenshots read back from
/// the back buffer, and the present.

#include <chrono>
#include <cstdint>
#include <string>

#include "game/window/layout.hpp"

struct SDL_Window;
struct SDL_Renderer;

namespace quadpool::game::window::sdl {

class WindowTarget {
 public:
  /// The window and renderer stay the caller's (run_window's).
  WindowTarget(SDL_Window* window, SDL_Renderer* renderer);

  SDL_Window* window() const noexcept { return window_; }
  SDL_Renderer* renderer() const noexcept { return renderer_; }
  /// SDL's name for the renderer ("" when SDL gives none).
  const std::string& renderer_name() const noexcept { return renderer_name_; }

  /// A new window size or the panel shown or hidden (`show_ui`): a new layout. True when it
  /// changed, and the caller fits the camera to the world's new area (counted in refits()).
  bool relayout(bool show_ui);
  const window::Layout& layout() const noexcept { return layout_; }
  /// Camera fits after a resize or the panel toggling.
  std::uint64_t refits() const noexcept { return refits_; }
  /// Counts a frame whose drawn panel (read back from ImGui) shared pixels with the world.
  void watch_panel(const window::ScreenRect& drawn_panel);
  std::uint64_t frames_overlapping() const noexcept { return frames_overlapping_; }

  /// Clears the back buffer and clips drawing to the world's rectangle: zoomed in, the world
  /// must not spill under the panel.
  void begin_world();
  /// Lifts the clip, for the panel.
  void end_world();

  /// F12: saves the back buffer as quadpool-FRAME.png in the working directory; a failure is
  /// only logged.
  void save_f12(std::uint64_t frame);
  /// The last file F12 saved; empty: none.
  const std::string& last_f12() const noexcept { return last_f12_; }
  /// --screenshot: saves the back buffer to `path`. False (said on stderr) when it cannot.
  bool save(const std::string& path);
  /// Shows the back buffer; screenshots must be saved before.
  void present();
  /// --vsync on: waits until one refresh of the window's display (60 Hz when SDL does not know)
  /// has passed since `frame_start`. Where the renderer's vsync paces the present this waits
  /// for nothing; where it does not (SDL's software renderer), the frame rate stays at the
  /// display's instead of burning a core.
  void wait_for_refresh(std::chrono::steady_clock::time_point frame_start) const;

 private:
  SDL_Window* window_;
  SDL_Renderer* renderer_;
  std::string renderer_name_;
  std::string last_f12_;
  window::Layout layout_{};
  std::uint64_t refits_ = 0;
  std::uint64_t frames_overlapping_ = 0;
};

}  // namespace quadpool::game::window::sdl
