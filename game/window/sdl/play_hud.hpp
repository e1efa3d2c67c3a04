#pragma once
/// Play's heads-up display, in Dear ImGui (1.86): the score line over the world, the centred
/// GAME OVER and PAUSED screens, and the overlay panel's table of the entity pools. Reads the
/// world; decides nothing.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "engine/memory/pool_allocator.hpp"
#include "game/window/camera.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/play_world.hpp"

namespace quadpool::game::window::sdl {

/// A score pop-up where it shows on screen this frame.
struct ScreenPopup {
  window::ScreenPoint at;
  int points;
  float strength;  ///< 1 new .. 0 gone: its opacity
};

struct PlayHudView {
  const play::PlayWorld* world;  ///< status, ship (shield), tuning; never null
  std::uint64_t high_score;
  std::string notice;  ///< e.g. "high score not saved: ...", empty for none
  bool paused, muted, bot_flying, replaying;
  std::string controller_name;  ///< empty: none
  /// Once a replay has played to its end: whether it ended on the file's state hash.
  std::optional<bool> replay_matches = std::nullopt;
  /// The tag while bot_flying: which pilot flies ("bot flying", "random pilot", "idle pilot").
  std::string pilot_tag = "bot flying";
  /// The hit's red veil over the world, 0..1 (window::Shake::flash_strength()).
  float flash = 0.0f;
  /// "+100" where a threat was shot and the like, drawn over the world under every window.
  std::span<const ScreenPopup> popups = {};
};

/// The score line at the top of `world_rect` (score, high score, wave, lives as ship icons,
/// shield bar, the storm's time left, and what flies the ship), and the centred screens: GAME
/// OVER with the score and "Enter or Start: play again"; between waves the WAVE n banner (before
/// a player's first wave, the title card with the play keys instead); PAUSED with the key to
/// resume (in the upper part of the world, off the ship, which the chase camera keeps in the
/// centre). Call between ImGui::NewFrame and ImGui::Render. The windows are named kScoreWindow,
/// kGameOverWindow, kWaveWindow, kTitleWindow and kPausedWindow.
void draw_play_hud(const PlayHudView& view, const window::ScreenRect& world_rect);

/// The HIGH figure: the saved high score, or the running score above it while the player flies.
/// The bot's and a replay's scores are never saved, so they never show as the high score.
std::uint64_t shown_high_score(std::uint64_t saved, std::uint64_t score,
                               bool player_flies) noexcept;

/// The shield bar's fill, 0..1: the ship's shield over its maximum, and empty once the game is
/// over (the last hit took the last life, whatever the shield grew back to).
float shown_shield(const play::PlayWorld& world) noexcept;

inline constexpr const char* kScoreWindow = "##play score";
inline constexpr const char* kGameOverWindow = "##game over";
inline constexpr const char* kPausedWindow = "##paused";
inline constexpr const char* kReplayOverWindow = "##replay over";
inline constexpr const char* kTitleWindow = "##title card";
inline constexpr const char* kWaveWindow = "##wave banner";

/// One table for the overlay panel: per entity type and for the tree's nodes, the objects in
/// use, the capacity, the high-water mark, the chunks, and the objects created and destroyed
/// this tick; under it the heap allocations of the last tick ("n/a" when not counted).
/// Numbers over 99,999 are shortened ("131k"; the exact value shows on hover), so the table
/// fits a panel 360 px wide at scale 1 with no horizontal overflow. Call inside a window.
void draw_entity_pools(std::span<const play::EntityReport> entities,
                       const memory::PoolStats& tree_pool,
                       std::optional<std::uint64_t> heap_allocations_last_tick);

/// The heap line under the pools table: "heap allocations, last tick: N", or "... n/a (not
/// counted)" when the build has no allocation counter.
std::string heap_allocations_line(std::optional<std::uint64_t> heap_allocations_last_tick);

/// `n` in at most five characters: in full up to 99,999, then "100k" .. "9999k", "10M" ..
/// "9999M", then whole G (five characters up to 99,999G, the G count in full past it). Rounded
/// down, so a count is never shown higher than it is.
std::string short_count(std::uint64_t n);

}  // namespace quadpool::game::window::sdl
