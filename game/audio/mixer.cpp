#include "game/audio/mixer.hpp"

#include <algorithm>
#include <limits>

namespace quadpool::game::audio {

Mixer::Mixer(int sample_rate) : sample_rate_(sample_rate) {
  for (const SoundEffect effect : kAllSoundEffects) {
    effects_[static_cast<std::size_t>(effect)] = synthesize(effect, sample_rate);
  }
}

std::span<const std::int16_t> Mixer::samples(SoundEffect effect) const noexcept {
  const auto index = static_cast<std::size_t>(effect);
  if (index >= effects_.size()) return {};
  return effects_[index];
}

void Mixer::start(SoundEffect effect) noexcept {
  const std::span<const std::int16_t> sound = samples(effect);
  if (sound.empty()) return;
  // A free voice has started == 0 and every playing one a larger serial, so the smallest serial
  // is a free voice when there is one, else the oldest.
  Voice& voice =
      *std::min_element(voices_.begin(), voices_.end(),
                        [](const Voice& a, const Voice& b) { return a.started < b.started; });
  voice = Voice{sound, 0, ++starts_};
}

void Mixer::stop_all() noexcept {
  voices_.fill(Voice{});
}

void Mixer::mix(std::span<std::int16_t> out) noexcept {
  // The voices are summed in 32 bits (16 voices of at most 32768 cannot overflow it) and the sum
  // is clamped once: clamping after each voice would let a later voice pull a clipped sum back.
  constexpr std::int32_t kLow = std::numeric_limits<std::int16_t>::min();
  constexpr std::int32_t kHigh = std::numeric_limits<std::int16_t>::max();
  while (!out.empty()) {
    const std::span<std::int32_t> sum(sum_.data(), std::min(out.size(), sum_.size()));
    std::fill(sum.begin(), sum.end(), 0);
    for (Voice& voice : voices_) {
      if (voice.samples.empty()) continue;
      const std::size_t count = std::min(sum.size(), voice.samples.size() - voice.position);
      const std::int16_t* from = voice.samples.data() + voice.position;
      for (std::size_t i = 0; i < count; ++i) sum[i] += from[i];
      voice.position += count;
      if (voice.position == voice.samples.size()) voice = Voice{};
    }
    for (std::size_t i = 0; i < sum.size(); ++i) {
      out[i] = static_cast<std::int16_t>(std::clamp(sum[i], kLow, kHigh));
    }
    out = out.subspan(sum.size());
  }
}

std::size_t Mixer::playing() const noexcept {
  return static_cast<std::size_t>(std::count_if(
      voices_.begin(), voices_.end(), [](const Voice& voice) { return !voice.samples.empty(); }));
}

}  // namespace quadpool::game::audio
