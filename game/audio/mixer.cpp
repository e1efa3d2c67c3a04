#include "game/audio/mixer.hpp"

#include <algorithm>
#include <cmath>

namespace quadpool::game::audio {

Mixer::Mixer(int sample_rate)
    : sample_rate_(sample_rate),
      release_(1.0f / (0.1f * static_cast<float>(std::max(sample_rate, 1)))) {
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
  gain_ = 1.0f;
}

void Mixer::mix(std::span<std::int16_t> out) noexcept {
  // The voices are summed in 32 bits (16 voices of at most 32768 cannot overflow it) and the sum
  // is limited once: a gain that meets the ceiling at once (no sample ever passes it) and grows
  // back slowly (no pumping at the pitch of the sounds).
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
      const float level = std::abs(static_cast<float>(sum[i]));
      if (level * gain_ > static_cast<float>(kCeiling))
        gain_ = static_cast<float>(kCeiling) / level;
      const float limited = std::clamp(static_cast<float>(sum[i]) * gain_,
                                       -static_cast<float>(kCeiling), static_cast<float>(kCeiling));
      out[i] = static_cast<std::int16_t>(std::lround(limited));
      gain_ = std::min(1.0f, gain_ + (1.0f - gain_) * release_);
    }
    out = out.subspan(sum.size());
  }
}

std::size_t Mixer::playing() const noexcept {
  return static_cast<std::size_t>(std::count_if(
      voices_.begin(), voices_.end(), [](const Voice& voice) { return !voice.samples.empty(); }));
}

}  // namespace quadpool::game::audio
