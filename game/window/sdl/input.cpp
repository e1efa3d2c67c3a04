#include "game/window/sdl/input.hpp"

#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "game/util/decimal.hpp"
#include "game/window/window_options.hpp"
#include "game/util/shown_value.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window::sdl {

namespace {

// Reads the part of a script entry after "FRAME:" into `out`; false when it is none of the forms.
bool parse_script_input(const std::string& what, ScriptedKey& out) {
  out.keycode = SDL_GetKeyFromName(what.c_str());
  if (out.keycode != SDLK_UNKNOWN) return true;
  for (const auto& [prefix, kind] :
       {std::pair{std::string_view("down="), ScriptedKey::Kind::KeyDown},
        std::pair{std::string_view("up="), ScriptedKey::Kind::KeyUp}}) {
    if (what.rfind(prefix, 0) != 0) continue;
    out.kind = kind;
    out.keycode = SDL_GetKeyFromName(what.c_str() + prefix.size());
    return out.keycode != SDLK_UNKNOWN;
  }
  int used = 0;
  // `used` is read after sscanf has set it: the lambda takes it by reference.
  const auto whole = [&](int fields, int expected) {
    return fields == expected && used == static_cast<int>(what.size());
  };
  if (whole(std::sscanf(what.c_str(), "%dx%d%n", &out.width, &out.height, &used), 2)) {
    out.kind = ScriptedKey::Kind::Resize;
    return out.width >= window::kMinWindowWidth && out.height >= window::kMinWindowHeight &&
           out.width <= window::kMaxWindowWidth && out.height <= window::kMaxWindowHeight;
  }
  // Window pixels, within the largest window --window allows: a point past it is in no window,
  // and 2147483647 once became a float too large to turn back into an int (undefined
  // behaviour) when the held button was released.
  const auto on_a_window = [](int x, int y) {
    return x >= 0 && y >= 0 && x <= window::kMaxWindowWidth && y <= window::kMaxWindowHeight;
  };
  used = 0;
  if (whole(std::sscanf(what.c_str(), "query=%d/%d/%d/%d%n", &out.x0, &out.y0, &out.x1, &out.y1,
                        &used),
            4)) {
    out.kind = ScriptedKey::Kind::Query;
    return on_a_window(out.x0, out.y0) && on_a_window(out.x1, out.y1);
  }
  used = 0;
  if (whole(
          std::sscanf(what.c_str(), "ray=%d/%d/%d/%d%n", &out.x0, &out.y0, &out.x1, &out.y1, &used),
          4)) {
    out.kind = ScriptedKey::Kind::Ray;
    return on_a_window(out.x0, out.y0) && on_a_window(out.x1, out.y1);
  }
  used = 0;
  if (whole(std::sscanf(what.c_str(), "pick=%d/%d%n", &out.x0, &out.y0, &used), 2)) {
    out.kind = ScriptedKey::Kind::Pick;
    return on_a_window(out.x0, out.y0);
  }
  used = 0;
  if (whole(std::sscanf(what.c_str(), "nearest=%d/%d%n", &out.x0, &out.y0, &used), 2)) {
    out.kind = ScriptedKey::Kind::Nearest;
    return on_a_window(out.x0, out.y0);
  }
  used = 0;
  if (whole(std::sscanf(what.c_str(), "spawn=%d/%d%n", &out.x0, &out.y0, &used), 2)) {
    out.kind = ScriptedKey::Kind::Spawn;
    return on_a_window(out.x0, out.y0);
  }
  constexpr std::string_view kScene = "scene=";
  if (what.rfind(kScene, 0) == 0) {
    const std::optional<scene::SceneKind> kind =
        scene::parse_scene_kind(std::string_view(what).substr(kScene.size()));
    out.kind = ScriptedKey::Kind::Scene;
    if (kind) out.scene = *kind;
    return kind.has_value();
  }
  return false;
}

void push_mouse(Uint32 type, int x, int y, Uint32 window_id) {
  SDL_Event event{};
  event.type = type;
  if (type == SDL_MOUSEMOTION) {
    event.motion.windowID = window_id;
    event.motion.x = x;
    event.motion.y = y;
    event.motion.state = SDL_BUTTON_LMASK;
  } else {
    event.button.windowID = window_id;
    event.button.button = SDL_BUTTON_LEFT;
    event.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    event.button.clicks = 1;
    event.button.x = x;
    event.button.y = y;
  }
  SDL_PushEvent(&event);
}

// A Key is pressed and released in the same frame; a KeyDown is held until its KeyUp.
void push_key(const ScriptedKey& scripted, Uint32 window_id) {
  SDL_Event press{};
  press.type = SDL_KEYDOWN;
  press.key.state = SDL_PRESSED;
  press.key.windowID = window_id;
  press.key.keysym.sym = scripted.keycode;
  press.key.keysym.scancode = SDL_GetScancodeFromKey(press.key.keysym.sym);
  SDL_Event release = press;
  release.type = SDL_KEYUP;
  release.key.state = SDL_RELEASED;
  if (scripted.kind != ScriptedKey::Kind::KeyUp) SDL_PushEvent(&press);
  if (scripted.kind != ScriptedKey::Kind::KeyDown) SDL_PushEvent(&release);
}

}  // namespace

std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error) {
  std::vector<ScriptedKey> keys;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    start = end + 1;
    // An empty entry asks for nothing, wherever it is: "1:B," and "1:B,,2:C" alike.
    if (entry.empty()) continue;
    const std::size_t colon = entry.find(':');
    const std::optional<std::uint64_t> frame =
        colon == std::string::npos ? std::nullopt
                                   : util::parse_decimal(std::string_view(entry).substr(0, colon));
    ScriptedKey key{frame.value_or(0), SDLK_UNKNOWN};
    if (!frame || !parse_script_input(entry.substr(colon + 1), key)) {
      error = fmt::format(
          "QUADPOOL_DEMO_KEYS: '{}' is not FRAME:KEY (a frame number from 0 to {}, then an SDL "
          "key name such as A, Space or ., down=KEY, up=KEY, a window size WxH from {}x{} to "
          "{}x{} (as --window), query=X0/Y0/X1/Y1, ray=X0/Y0/X1/Y1, pick=X/Y, nearest=X/Y, "
          "spawn=X/Y (window pixels, X up to {} "
          "and Y up to {}) or "
          "scene=uniform|clustered|mixed|streams)",
          util::shown_value(entry), std::numeric_limits<std::uint64_t>::max(),
          window::kMinWindowWidth, window::kMinWindowHeight, window::kMaxWindowWidth,
          window::kMaxWindowHeight, window::kMaxWindowWidth, window::kMaxWindowHeight);
      return {};
    }
    keys.push_back(key);
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const ScriptedKey& a, const ScriptedKey& b) { return a.frame < b.frame; });
  return keys;
}

std::optional<scene::SceneKind> Input::inject_script(std::uint64_t frame, SDL_Window* window) {
  std::optional<scene::SceneKind> scene;
  if (script_holds_shift_) {
    SDL_SetModState(KMOD_NONE);
    script_holds_shift_ = false;
  }
  const Uint32 window_id = SDL_GetWindowID(window);
  if (script_holds_button_) {
    push_mouse(SDL_MOUSEBUTTONUP, static_cast<int>(script_holds_button_->x),
               static_cast<int>(script_holds_button_->y), window_id);
    script_holds_button_.reset();
  }
  // Scripted input enters SDL's queue like real input, and is handled like it.
  for (; next_script_key_ < script_.size() && script_[next_script_key_].frame <= frame;
       ++next_script_key_) {
    const ScriptedKey& scripted = script_[next_script_key_];
    switch (scripted.kind) {
      case ScriptedKey::Kind::Scene:
        scene = scripted.scene;
        break;
      case ScriptedKey::Kind::Resize:
        SDL_SetWindowSize(window, scripted.width, scripted.height);
        break;
      case ScriptedKey::Kind::Query:
      case ScriptedKey::Kind::Ray:
      case ScriptedKey::Kind::Pick:
      case ScriptedKey::Kind::Nearest: {
        // The query tool reads shift from SDL's modifier state when the button goes down, and
        // the entry's mode then (a pick is a click of the box mode).
        SDL_SetModState(KMOD_LSHIFT);
        script_holds_shift_ = true;
        script_query_mode_ = scripted.kind == ScriptedKey::Kind::Ray ? window::QueryMode::Ray
                             : scripted.kind == ScriptedKey::Kind::Nearest
                                 ? window::QueryMode::Nearest
                                 : window::QueryMode::Box;
        const bool drag =
            scripted.kind == ScriptedKey::Kind::Query || scripted.kind == ScriptedKey::Kind::Ray;
        push_mouse(SDL_MOUSEBUTTONDOWN, scripted.x0, scripted.y0, window_id);
        if (drag) push_mouse(SDL_MOUSEMOTION, scripted.x1, scripted.y1, window_id);
        push_mouse(SDL_MOUSEBUTTONUP, drag ? scripted.x1 : scripted.x0,
                   drag ? scripted.y1 : scripted.y0, window_id);
        break;
      }
      case ScriptedKey::Kind::Spawn:
        push_mouse(SDL_MOUSEBUTTONDOWN, scripted.x0, scripted.y0, window_id);
        script_holds_button_ =
            window::ScreenPoint{static_cast<float>(scripted.x0), static_cast<float>(scripted.y0)};
        break;
      case ScriptedKey::Kind::Key:
      case ScriptedKey::Kind::KeyDown:
      case ScriptedKey::Kind::KeyUp:
        push_key(scripted, window_id);
        break;
    }
  }
  return scene;
}

Action Input::handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard,
                     window::Camera& camera, window::Selection& selection, Mode mode) {
  switch (event.type) {
    case SDL_QUIT:
      return Action::CloseWindow;
    case SDL_KEYDOWN:
      if (ui_wants_keyboard || event.key.repeat != 0) return Action::None;
      return action_for_key(event.key.keysym.sym, (event.key.keysym.mod & KMOD_SHIFT) != 0, mode);
    case SDL_MOUSEBUTTONDOWN:
      if (ui_wants_mouse || mode == Mode::Play) break;
      mouse_ = {static_cast<float>(event.button.x), static_cast<float>(event.button.y)};
      if (event.button.button == SDL_BUTTON_RIGHT) {
        panning_ = true;
      } else if (event.button.button == SDL_BUTTON_LEFT) {
        if ((SDL_GetModState() & KMOD_SHIFT) != 0) {
          if (script_query_mode_) selection.set_mode(*script_query_mode_);
          script_query_mode_.reset();
          selection.begin_drag(camera.to_world(mouse_.x, mouse_.y));
        } else {
          spawning_ = true;
        }
      }
      break;
    case SDL_MOUSEBUTTONUP:
      if (event.button.button == SDL_BUTTON_RIGHT) panning_ = false;
      if (event.button.button == SDL_BUTTON_LEFT) {
        spawning_ = false;
        selection.end_drag(1.0f / camera.scale());
      }
      break;
    case SDL_MOUSEMOTION:
      mouse_ = {static_cast<float>(event.motion.x), static_cast<float>(event.motion.y)};
      if (mode == Mode::Play) break;
      if (panning_) {
        camera.pan(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel));
      }
      selection.drag_to(camera.to_world(mouse_.x, mouse_.y));
      break;
    case SDL_MOUSEWHEEL:
      if (!ui_wants_mouse && event.wheel.y != 0) {
        camera.zoom_at(mouse_.x, mouse_.y, std::pow(1.15f, static_cast<float>(event.wheel.y)));
      }
      break;
    default:
      break;
  }
  return Action::None;
}

}  // namespace quadpool::game::window::sdl
