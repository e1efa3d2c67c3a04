#pragma once
/// The game's sound effects on SDL's own audio: the default output device, a callback that runs
/// an audio::Mixer, the effects synthesised once at the device's rate (game/audio/synth.hpp).
/// No audio device, or any failure on the way, means silence and one info line in the log:
/// never an error, never an exception out of play().

#include <cstdint>
#include <optional>
#include <string>

#include "game/audio/mixer.hpp"
#include "game/audio/synth.hpp"

namespace quadpool::game::window::sdl {

class Sound {
 public:
  /// Initialises SDL's audio subsystem (SDL_InitSubSystem: it may run before or after
  /// SDL_Init, and SDL counts the two), opens the default output device for 16-bit mono at
  /// 48000 Hz or the rate the device prefers, synthesises every effect at that rate and starts
  /// the device. SDL_AUDIODRIVER picks the driver as usual ("dummy" plays into nothing). A
  /// driver that lists no output device is not asked to open one (ALSA without a sound card
  /// would print its own errors on stderr). The synthesis takes about 10 ms at 48 kHz (Release).
  Sound();
  /// Closes the device (its callback has returned when this does) and quits the subsystem.
  /// Best destroyed before the window's SDL_Quit; after it, it does no harm (SDL_Quit has
  /// closed the device already).
  ~Sound();
  Sound(const Sound&) = delete;
  Sound& operator=(const Sound&) = delete;

  /// Starts `effect` on the mixer (a 17th effect at once replaces the oldest); nothing is heard
  /// when muted or without a device. Holds the device's lock for a few stores; never allocates.
  void play(audio::SoundEffect effect) noexcept;
  /// Muting also cuts the effects playing now.
  void set_muted(bool muted) noexcept;
  bool muted() const noexcept { return muted_; }
  /// Whether an output device is open (false: the game is silent).
  bool has_device() const noexcept { return device_ != 0; }
  /// play() calls made while not muted, whether a device plays them or not, so a summary reads
  /// the same on a machine without audio.
  std::uint64_t played() const noexcept { return played_; }

 private:
  /// Logs why the game is silent and releases what was opened.
  void give_up(const std::string& why);

  std::uint32_t device_ = 0;  // SDL_AudioDeviceID; 0: none
  bool subsystem_ = false;    // SDL_InitSubSystem(SDL_INIT_AUDIO) succeeded
  bool muted_ = false;
  std::uint64_t played_ = 0;
  std::optional<audio::Mixer> mixer_;  // built at the device's rate, before it starts
};

}  // namespace quadpool::game::window::sdl
