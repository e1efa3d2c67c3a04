#include "game/audio/synth.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/portable_math.hpp"
#include "engine/core/random.hpp"

// Every effect is built in the same three steps: a wave from oscillators and noise whose pitch
// and brightness move over the effect's life, a scale of its peak to the effect's volume, then
// the fade-in and fade-out and a rounding to 16 bits. Only +, -, *, / and the project's
// portable sine are used, so the samples are the same on every build.

namespace quadpool::game::audio {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kAttackSeconds = 0.002;
constexpr double kReleaseSeconds = 0.010;
constexpr double kFullScale = 32767.0;

/// The sample count of `milliseconds` at `rate`.
std::size_t samples_for(int rate, int milliseconds) {
  return static_cast<std::size_t>(rate) * static_cast<std::size_t>(milliseconds) / 1000;
}

/// An oscillator's phase in [0, 1), advanced one sample at a time by a frequency that may move.
class Phase {
 public:
  explicit Phase(int rate) : rate_(rate) {}
  double advance(double frequency_hz) {
    phase_ += frequency_hz / rate_;
    phase_ -= std::floor(phase_);
    return phase_;
  }

 private:
  double rate_;
  double phase_ = 0.0;
};

/// A one-pole low-pass filter. Its coefficient is the bilinear estimate w / (1 + w) of
/// 1 - exp(-w), w = 2 pi fc / rate: close enough for a sound effect, and no exp().
class LowPass {
 public:
  explicit LowPass(int rate) : rate_(rate) {}
  double step(double input, double cutoff_hz) {
    const double w = 2.0 * kPi * cutoff_hz / rate_;
    state_ += w / (1.0 + w) * (input - state_);
    return state_;
  }

 private:
  double rate_;
  double state_ = 0.0;
};

/// The share of an effect of `count` samples still to come at sample `i`: 1 at the start,
/// falling in a straight line towards 0.
double still_to_come(std::size_t i, std::size_t count) {
  return 1.0 - static_cast<double>(i) / static_cast<double>(count);
}

/// White noise, uniform in [-1, 1).
double white(Random& noise) {
  return 2.0 * noise.unit_double() - 1.0;
}

double sine(double phase) {
  return static_cast<double>(portable_cos_sin(static_cast<float>(2.0 * kPi * phase)).sine);
}

/// A pulse of the given duty cycle without its DC offset, scaled so its high side is 1.
double pulse(double phase, double duty) {
  return (phase < duty ? 1.0 - duty : -duty) / (1.0 - duty);
}

double triangle(double phase) {
  return 4.0 * std::abs(phase - 0.5) - 1.0;
}

/// The gain of sample `i` of `count` that fades in over `attack` and out over `release` samples:
/// 0 at the first and the last sample.
double fade(std::size_t i, std::size_t count, double attack, double release) {
  const double in = std::min(1.0, static_cast<double>(i) / attack);
  const double out = std::min(1.0, static_cast<double>(count - 1 - i) / release);
  return in * out;
}

/// `count` samples, sample i being at(i, still_to_come(i, count)).
template <class SampleAt>
std::vector<double> render(std::size_t count, SampleAt at) {
  std::vector<double> wave(count);
  for (std::size_t i = 0; i < count; ++i) wave[i] = at(i, still_to_come(i, count));
  return wave;
}

/// Quick falling pulse chirp, 1400 Hz down to 350 Hz in 120 ms, softened by a low-pass.
std::vector<double> shot_wave(int rate) {
  Phase phase(rate);
  LowPass soften(rate);
  return render(samples_for(rate, 120), [&](std::size_t, double left) {
    const double hz = 350.0 + 1050.0 * left * left;
    return soften.step(pulse(phase.advance(hz), 0.3), 5000.0) * left;
  });
}

/// Short low thud: a sine falling from 150 Hz to 55 Hz in 180 ms, with a 10 ms noise knock.
std::vector<double> hit_wave(int rate) {
  const double knock_samples = static_cast<double>(samples_for(rate, 10));
  Phase phase(rate);
  LowPass knock_filter(rate);
  Random noise(0x417);
  return render(samples_for(rate, 180), [&](std::size_t i, double left) {
    const double hz = 55.0 + 95.0 * left * left;
    const double knock = std::max(0.0, 1.0 - static_cast<double>(i) / knock_samples);
    const double grit = knock_filter.step(white(noise), 1500.0);
    return sine(phase.advance(hz)) * left * left + 0.6 * knock * grit;
  });
}

/// Noise burst of 700 ms through two low-passes whose cutoff falls from 6 kHz to 250 Hz, so the
/// crack turns into a rumble as it decays.
std::vector<double> explosion_wave(int rate) {
  LowPass first(rate);
  LowPass second(rate);
  Random noise(0xB00A);
  return render(samples_for(rate, 700), [&](std::size_t, double left) {
    const double cutoff = 250.0 + 5750.0 * left * left;
    return second.step(first.step(white(noise), cutoff), cutoff) * left * left;
  });
}

/// Four descending tones (C5, A4, F4, D4), 200 ms each, each sagging a little in pitch: a soft
/// triangle with some pulse for edge, every note faded in and out so the steps do not click.
std::vector<double> life_lost_wave(int rate) {
  constexpr std::array<double, 4> kNotesHz = {523.25, 440.0, 349.23, 293.66};
  const std::size_t note_samples = samples_for(rate, 200);
  const double attack = kAttackSeconds * rate;
  const double release = 0.015 * rate;
  Phase phase(rate);
  return render(note_samples * kNotesHz.size(), [&](std::size_t i, double left) {
    const std::size_t in_note = i % note_samples;
    const double note_progress = static_cast<double>(in_note) / static_cast<double>(note_samples);
    const double p = phase.advance(kNotesHz[i / note_samples] * (1.0 - 0.06 * note_progress));
    const double tone = 0.7 * triangle(p) + 0.3 * pulse(p, 0.25);
    return tone * (0.7 + 0.3 * left) * fade(in_note, note_samples, attack, release);
  });
}

/// The effect's wave and its peak as a fraction of full scale.
struct Recipe {
  std::vector<double> wave;
  double volume = 0.0;
};

Recipe recipe_of(SoundEffect effect, int rate) {
  switch (effect) {
    case SoundEffect::Shot:
      return {shot_wave(rate), 0.30};  // the most frequent: kept quiet
    case SoundEffect::Hit:
      return {hit_wave(rate), 0.55};
    case SoundEffect::Explosion:
      return {explosion_wave(rate), 0.60};
    case SoundEffect::LifeLost:
      return {life_lost_wave(rate), 0.50};
  }
  return {};
}

/// Scales `wave`'s peak to `volume` of full scale, fades it in and out and rounds it. The fade
/// comes after the scaling, so no sample exceeds the fade's line from 0 to the volume.
std::vector<std::int16_t> finish(const std::vector<double>& wave, double volume, int rate) {
  const double attack = std::max(1.0, kAttackSeconds * rate);
  const double release = std::max(1.0, kReleaseSeconds * rate);
  double peak = 0.0;
  for (const double value : wave) peak = std::max(peak, std::abs(value));
  const double scale = peak > 0.0 ? volume * kFullScale / peak : 0.0;
  std::vector<std::int16_t> samples(wave.size());
  for (std::size_t i = 0; i < wave.size(); ++i) {
    const double gain = scale * fade(i, wave.size(), attack, release);
    samples[i] = static_cast<std::int16_t>(std::lround(wave[i] * gain));
  }
  return samples;
}

}  // namespace

const char* sound_effect_name(SoundEffect effect) noexcept {
  switch (effect) {
    case SoundEffect::Shot:
      return "shot";
    case SoundEffect::Hit:
      return "hit";
    case SoundEffect::Explosion:
      return "explosion";
    case SoundEffect::LifeLost:
      return "life_lost";
  }
  return "unknown";
}

std::vector<std::int16_t> synthesize(SoundEffect effect, int sample_rate) {
  if (sample_rate < kMinSampleRate || sample_rate > kMaxSampleRate) return {};
  const Recipe recipe = recipe_of(effect, sample_rate);
  return finish(recipe.wave, recipe.volume, sample_rate);
}

}  // namespace quadpool::game::audio
