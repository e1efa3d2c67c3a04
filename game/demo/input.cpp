#include "game/demo/input.hpp"

#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace quadpool::game::demo {

std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error) {
  std::vector<ScriptedKey> keys;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    const std::size_t colon = entry.find(':');
    char* parsed_to = nullptr;
    const unsigned long long frame =
        colon == std::string::npos ? 0 : std::strtoull(entry.c_str(), &parsed_to, 10);
    const bool frame_ok = colon != std::string::npos && colon > 0 &&
                          parsed_to == entry.c_str() + colon && entry[0] != '-';
    const std::string name = frame_ok ? entry.substr(colon + 1) : std::string();
    const SDL_Keycode key = frame_ok ? SDL_GetKeyFromName(name.c_str()) : SDLK_UNKNOWN;
    int width = 0, height = 0, used = 0;
    const bool resize = frame_ok && key == SDLK_UNKNOWN &&
                        std::sscanf(name.c_str(), "%dx%d%n", &width, &height, &used) == 2 &&
                        used == static_cast<int>(name.size()) && width >= 64 && height >= 64 &&
                        width <= 16384 && height <= 16384;
    if (!frame_ok || (key == SDLK_UNKNOWN && !resize)) {
      error = fmt::format(
          "QUADPOOL_DEMO_KEYS: '{}' is not FRAME:KEY (a frame number from 0, an "
          "SDL key name such as A, Space or ., or a window size WxH from 64x64 to 16384x16384)",
          entry);
      return {};
    }
    keys.push_back({frame, resize ? 0 : key, width, height});
    start = end + 1;
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const ScriptedKey& a, const ScriptedKey& b) { return a.frame < b.frame; });
  return keys;
}

void Input::inject_script(std::uint64_t frame, SDL_Window* window) {
  // Scripted keys enter SDL's queue like real ones, and are handled like real ones.
  while (next_script_key_ < script_.size() && script_[next_script_key_].frame <= frame) {
    const ScriptedKey& scripted = script_[next_script_key_];
    if (scripted.width > 0) {
      SDL_SetWindowSize(window, scripted.width, scripted.height);
      ++next_script_key_;
      continue;
    }
    SDL_Event press{};
    press.type = SDL_KEYDOWN;
    press.key.state = SDL_PRESSED;
    press.key.windowID = SDL_GetWindowID(window);
    press.key.keysym.sym = script_[next_script_key_].keycode;
    press.key.keysym.scancode = SDL_GetScancodeFromKey(press.key.keysym.sym);
    SDL_Event release = press;
    release.type = SDL_KEYUP;
    release.key.state = SDL_RELEASED;
    SDL_PushEvent(&press);
    SDL_PushEvent(&release);
    ++next_script_key_;
  }
}

Action Input::handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard,
                     Camera& camera, Selection& selection) {
  switch (event.type) {
    case SDL_QUIT:
      return Action::CloseWindow;
    case SDL_KEYDOWN:
      if (ui_wants_keyboard || event.key.repeat != 0) return Action::None;
      return action_for_key(event.key.keysym.sym, (event.key.keysym.mod & KMOD_SHIFT) != 0);
    case SDL_MOUSEBUTTONDOWN:
      if (ui_wants_mouse) break;
      mouse_ = {static_cast<float>(event.button.x), static_cast<float>(event.button.y)};
      if (event.button.button == SDL_BUTTON_RIGHT) {
        panning_ = true;
      } else if (event.button.button == SDL_BUTTON_LEFT) {
        if ((SDL_GetModState() & KMOD_SHIFT) != 0) {
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

}  // namespace quadpool::game::demo
