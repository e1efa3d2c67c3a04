#pragma once
/// The game's sound effects, synthesised from a few lines of arithmetic when the program starts:
/// no sound files to ship, load or get wrong. Mono 16-bit samples at whatever rate the audio
/// device runs. Display-free and SDL-free, so the headless build compiles and tests it; the
/// window plays the samples through SDL (game/window/sdl/sound.hpp) with an audio::Mixer.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quadpool::game::audio {

/// What the game makes a sound for.
enum class SoundEffect {
  Shot,       // the ship fired: a quick falling pulse chirp
  Hit,        // the ship took shield: a short low thud
  Explosion,  // a rock broke: a filtered noise burst that decays
  LifeLost,   // the ship lost a life: four descending tones
};
inline constexpr std::size_t kSoundEffects = 4;
inline constexpr std::array<SoundEffect, kSoundEffects> kAllSoundEffects = {
    SoundEffect::Shot, SoundEffect::Hit, SoundEffect::Explosion, SoundEffect::LifeLost};

/// "shot", "hit", "explosion", "life_lost"; "unknown" for a value outside the enum.
const char* sound_effect_name(SoundEffect effect) noexcept;

/// The sample rates synthesize() serves, in Hz: every rate an audio device reports in practice.
inline constexpr int kMinSampleRate = 8000;
inline constexpr int kMaxSampleRate = 192000;

/// The longest effect, in seconds (LifeLost); every effect lasts at least 50 ms.
inline constexpr double kLongestEffectSeconds = 0.8;

/// The samples of `effect` at `sample_rate` Hz, mono. Each fades in over 2 ms and out over
/// 10 ms, so it starts and ends at 0 (no click); its peak is at most 60% of full scale, so a few
/// effects at once rarely reach the mixer's saturation. The same arguments give the same samples
/// on every run (the explosion's noise comes from a fixed-seed quadpool::Random, and the arithmetic
/// uses no C library function). O(duration x rate); allocates the result.
/// A `sample_rate` outside [kMinSampleRate, kMaxSampleRate] gives an empty vector.
std::vector<std::int16_t> synthesize(SoundEffect effect, int sample_rate);

}  // namespace quadpool::game::audio
