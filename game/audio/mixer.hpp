#pragma once
/// The audio callback's whole job: up to kVoices sound effects playing at once, summed and passed
/// through a limiter into the device's buffer, so that the busiest moment of a storm never clips.
/// Display-free: game/window/sdl/sound.hpp feeds it to SDL.
///
///   voices_[0]  Explosion  position 1200 / 33600   started #7
///   voices_[1]  Shot       position  300 /  5760   started #9
///   voices_[2]  (free)
///   ...
///   mix(out): out[i] = (sum of each playing voice's next sample) x gain, where the gain drops at
///             once to keep |out[i]| <= kCeiling and grows back to 1 over about 100 ms
///
/// Not thread-safe: the caller serialises start() against mix() (Sound holds SDL's audio
/// device lock around start(); SDL calls mix() from its audio thread).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "game/audio/synth.hpp"

namespace quadpool::game::audio {

class Mixer {
 public:
  /// How many effects play at once; a 17th steals the voice that started first.
  static constexpr std::size_t kVoices = 16;
  /// The loudest sample mix() writes: 1 dB below full scale.
  static constexpr std::int32_t kCeiling = 29204;

  /// Synthesises every effect at `sample_rate` Hz (the rate the device plays at). A rate
  /// outside [kMinSampleRate, kMaxSampleRate] gives a mixer whose effects are empty: silent.
  explicit Mixer(int sample_rate);

  /// Starts `effect` from its first sample on a free voice, or, when all kVoices play, on the
  /// voice that started longest ago. O(kVoices); never allocates.
  void start(SoundEffect effect) noexcept;

  /// Stops every voice at once (a mute). O(kVoices); never allocates.
  void stop_all() noexcept;

  /// Writes the next out.size() samples of the sum of the playing voices over `out` (it is not
  /// added to), limited to +-kCeiling: where the sum would pass it the gain drops at once to meet
  /// it, then grows back to 1 over about 100 ms, so loud moments are turned down, never clipped.
  /// A sum that stays under the ceiling passes unchanged; zeros when nothing plays.
  /// A voice that reaches its end frees itself. O(out.size() x playing voices); never allocates.
  void mix(std::span<std::int16_t> out) noexcept;

  /// Voices playing now.
  std::size_t playing() const noexcept;
  int sample_rate() const noexcept { return sample_rate_; }
  /// The samples start(effect) plays.
  std::span<const std::int16_t> samples(SoundEffect effect) const noexcept;

 private:
  struct Voice {
    std::span<const std::int16_t> samples;  // empty: free
    std::size_t position = 0;
    std::uint64_t started = 0;  // start() serial: the smallest is the oldest
  };

  int sample_rate_;
  std::array<std::vector<std::int16_t>, kSoundEffects> effects_;
  std::array<Voice, kVoices> voices_{};
  std::uint64_t starts_ = 0;
  std::array<std::int32_t, 256> sum_{};  // mix()'s unlimited sums, one block at a time
  float gain_ = 1.0f;                    // the limiter's gain now, in (0, 1]
  float release_;                        // its growth back toward 1 per sample
};

}  // namespace quadpool::game::audio
