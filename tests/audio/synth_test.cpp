// The sound effects (game/audio/synth.hpp) and their mixer (game/audio/mixer.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "game/audio/mixer.hpp"
#include "game/audio/synth.hpp"

namespace quadpool::game::audio {
namespace {

constexpr int kRate = 48000;
constexpr std::int16_t kLow = -32768;
constexpr std::int16_t kHigh = 32767;

int peak_of(const std::vector<std::int16_t>& samples) {
  int peak = 0;
  for (const std::int16_t s : samples) peak = std::max(peak, std::abs(int{s}));
  return peak;
}

// Sign changes per sample: about 2 f / rate for a tone of f Hz, high for noise.
double zero_crossing_rate(const std::vector<std::int16_t>& samples) {
  std::size_t crossings = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if ((samples[i - 1] < 0) != (samples[i] < 0)) ++crossings;
  }
  return static_cast<double>(crossings) / static_cast<double>(samples.size());
}

// The sum of `effects` started together at kRate, clamped once per sample: what the mixer
// must produce.
std::vector<std::int16_t> clamped_sum(const std::vector<SoundEffect>& effects, std::size_t count) {
  std::vector<std::int32_t> sum(count, 0);
  for (const SoundEffect effect : effects) {
    const std::vector<std::int16_t> samples = synthesize(effect, kRate);
    for (std::size_t i = 0; i < std::min(count, samples.size()); ++i) sum[i] += samples[i];
  }
  std::vector<std::int16_t> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = static_cast<std::int16_t>(std::clamp<std::int32_t>(sum[i], kLow, kHigh));
  }
  return out;
}

// FNV-1a over the samples' bits.
std::uint64_t fingerprint(const std::vector<std::int16_t>& samples) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const std::int16_t s : samples) {
    hash = (hash ^ static_cast<std::uint16_t>(s)) * 0x100000001b3ull;
  }
  return hash;
}

TEST(SoundEffect, EachHasItsName) {
  EXPECT_STREQ(sound_effect_name(SoundEffect::Shot), "shot");
  EXPECT_STREQ(sound_effect_name(SoundEffect::Hit), "hit");
  EXPECT_STREQ(sound_effect_name(SoundEffect::Explosion), "explosion");
  EXPECT_STREQ(sound_effect_name(SoundEffect::LifeLost), "life_lost");
  EXPECT_STREQ(sound_effect_name(static_cast<SoundEffect>(kSoundEffects)), "unknown");
}

class EverySoundEffect : public testing::TestWithParam<SoundEffect> {};

TEST_P(EverySoundEffect, LastsBetween50MsAndTheLongestAtEveryRate) {
  for (const int rate : {kMinSampleRate, 22050, 44100, kRate, 96000, kMaxSampleRate}) {
    const std::size_t length = synthesize(GetParam(), rate).size();
    EXPECT_GE(length, static_cast<std::size_t>(0.05 * rate)) << rate << " Hz";
    EXPECT_LE(length, static_cast<std::size_t>(kLongestEffectSeconds * rate)) << rate << " Hz";
  }
}

TEST_P(EverySoundEffect, PeaksBetweenAQuarterAndSixtyPercentOfFullScale) {
  for (const int rate : {kMinSampleRate, 44100, kRate}) {
    const int peak = peak_of(synthesize(GetParam(), rate));
    EXPECT_GE(peak, kHigh / 4) << rate << " Hz";
    EXPECT_LE(peak, static_cast<int>(0.6 * kHigh) + 1) << rate << " Hz";
  }
}

// The fade: no sample in the first 2 ms or the last 10 ms exceeds the straight line from 0 to
// the 60% ceiling, and the first and last samples are 0, so starting or ending one never clicks.
TEST_P(EverySoundEffect, FadesInFromZeroAndOutToZero) {
  const std::vector<std::int16_t> samples = synthesize(GetParam(), kRate);
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples.front(), 0);
  EXPECT_EQ(samples.back(), 0);
  const double ceiling = 0.6 * kHigh;
  const std::size_t attack = kRate * 2 / 1000;
  const std::size_t release = kRate * 10 / 1000;
  for (std::size_t i = 0; i < attack; ++i) {
    EXPECT_LE(std::abs(int{samples[i]}), ceiling * static_cast<double>(i) / attack + 1) << i;
  }
  for (std::size_t k = 0; k < release; ++k) {
    const std::size_t i = samples.size() - 1 - k;
    EXPECT_LE(std::abs(int{samples[i]}), ceiling * static_cast<double>(k) / release + 1) << i;
  }
}

TEST_P(EverySoundEffect, GivesTheSameSamplesEveryTime) {
  EXPECT_EQ(synthesize(GetParam(), kRate), synthesize(GetParam(), kRate));
  EXPECT_EQ(synthesize(GetParam(), 22050), synthesize(GetParam(), 22050));
}

TEST_P(EverySoundEffect, IsEmptyAtAnUnsupportedRate) {
  EXPECT_TRUE(synthesize(GetParam(), kMinSampleRate - 1).empty());
  EXPECT_TRUE(synthesize(GetParam(), kMaxSampleRate + 1).empty());
  EXPECT_TRUE(synthesize(GetParam(), 0).empty());
  EXPECT_TRUE(synthesize(GetParam(), -48000).empty());
}

INSTANTIATE_TEST_SUITE_P(Effects, EverySoundEffect, testing::ValuesIn(kAllSoundEffects),
                         [](const testing::TestParamInfo<SoundEffect>& info) {
                           return std::string(sound_effect_name(info.param));
                         });

// The samples are a property of the effect and the rate alone, on every compiler and flag set
// (only +, -, *, / and the portable sine, no contraction): pinned here, checked by the GCC and
// clang builds alike.
TEST(SoundEffect, SamplesArePinnedAcrossBuilds) {
  EXPECT_EQ(fingerprint(synthesize(SoundEffect::Shot, kRate)), 0xc23a42a304d30e98ull);
  EXPECT_EQ(fingerprint(synthesize(SoundEffect::Hit, kRate)), 0xe4535421fa6700a2ull);
  EXPECT_EQ(fingerprint(synthesize(SoundEffect::Explosion, kRate)), 0xaedbb2da4a72d673ull);
  EXPECT_EQ(fingerprint(synthesize(SoundEffect::LifeLost, kRate)), 0x1c468f025494b9beull);
}

TEST(SoundEffect, TheExplosionIsNoisierThanTheShot) {
  const double explosion = zero_crossing_rate(synthesize(SoundEffect::Explosion, kRate));
  const double shot = zero_crossing_rate(synthesize(SoundEffect::Shot, kRate));
  EXPECT_GT(explosion, 2.0 * shot) << "explosion " << explosion << ", shot " << shot;
}

TEST(Mixer, IsSilentWhenNothingPlays) {
  Mixer mixer(kRate);
  std::vector<std::int16_t> out(1000, 1234);
  mixer.mix(out);
  EXPECT_EQ(out, std::vector<std::int16_t>(1000, 0));
  EXPECT_EQ(mixer.playing(), 0u);
}

TEST(Mixer, PlaysOneEffectExactlyAcrossBuffersOfAnySizeThenFreesTheVoice) {
  Mixer mixer(kRate);
  const std::vector<std::int16_t> expected = synthesize(SoundEffect::Explosion, kRate);
  mixer.start(SoundEffect::Explosion);
  EXPECT_EQ(mixer.playing(), 1u);
  std::vector<std::int16_t> played;
  // Buffer sizes around and across the mixer's 256-sample block, and past the effect's end.
  for (const std::size_t size : {1u, 255u, 256u, 257u, 1000u, 4096u}) {
    std::vector<std::int16_t> out(size);
    while (played.size() < expected.size() + 2000) {
      mixer.mix(out);
      played.insert(played.end(), out.begin(), out.end());
      if (played.size() > 3 * size) break;
    }
  }
  while (played.size() < expected.size() + 2000) {
    std::vector<std::int16_t> out(777);
    mixer.mix(out);
    played.insert(played.end(), out.begin(), out.end());
  }
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), played.begin()));
  EXPECT_TRUE(std::all_of(played.begin() + static_cast<std::ptrdiff_t>(expected.size()),
                          played.end(), [](std::int16_t s) { return s == 0; }));
  EXPECT_EQ(mixer.playing(), 0u);
}

// Four explosions and two shots at once sum far past full scale: the limiter turns the mix down
// to its ceiling instead of clipping it, and never flips a sample's sign (no wrap).
TEST(Mixer, TheLimiterTurnsTheLoudestMixDownToItsCeilingWithoutClipping) {
  const std::vector<SoundEffect> effects = {SoundEffect::Explosion, SoundEffect::Explosion,
                                            SoundEffect::Explosion, SoundEffect::Explosion,
                                            SoundEffect::Shot,      SoundEffect::Shot};
  Mixer mixer(kRate);
  for (const SoundEffect effect : effects) mixer.start(effect);
  std::vector<std::int16_t> out(kRate);
  mixer.mix(out);
  const std::vector<std::int16_t> clamped = clamped_sum(effects, out.size());
  ASSERT_GT(std::count(clamped.begin(), clamped.end(), kHigh), 0)
      << "the test's sounds never reach full scale: it proves nothing";
  int peak = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    peak = std::max(peak, std::abs(static_cast<int>(out[i])));
    if (std::abs(static_cast<int>(clamped[i])) > 1000) {
      EXPECT_EQ(out[i] > 0, clamped[i] > 0) << "sample " << i << " changed sign";
    }
  }
  EXPECT_LE(peak, Mixer::kCeiling);
  EXPECT_GE(peak, Mixer::kCeiling * 9 / 10) << "turned down far more than the ceiling needs";
}

// A busy second of a storm: a shot every 50 ms, an explosion every 120 ms, a hit every 300 ms,
// mixed in 10 ms buffers as the audio callback does. Not one sample reaches full scale.
TEST(Mixer, ABusySecondNeverClips) {
  Mixer mixer(kRate);
  const std::size_t buffer = kRate / 100;
  std::vector<std::int16_t> out(buffer);
  int peak = 0;
  double energy = 0;
  for (int ms = 0; ms < 1000; ms += 10) {
    if (ms % 50 == 0) mixer.start(SoundEffect::Shot);
    if (ms % 120 == 0) mixer.start(SoundEffect::Explosion);
    if (ms % 300 == 0) mixer.start(SoundEffect::Hit);
    mixer.mix(out);
    for (const std::int16_t sample : out) {
      peak = std::max(peak, std::abs(static_cast<int>(sample)));
      energy += static_cast<double>(sample) * sample;
    }
  }
  const double rms = std::sqrt(energy / kRate);
  std::printf("busy second: peak %d (%.1f dBFS), RMS %.1f dBFS\n", peak,
              20 * std::log10(peak / 32768.0), 20 * std::log10(rms / 32768.0));
  EXPECT_LE(peak, Mixer::kCeiling);
  EXPECT_LT(peak, 32767);
}

// The life-lost tones, the longest effect, start first; fifteen shots fill the other voices; a
// hit then takes the life-lost tones' voice. Once the shots and the hit are over, nothing plays:
// had a shot's voice been taken, the tones would still sound.
TEST(Mixer, AStartWithEveryVoiceBusyStealsTheOldest) {
  Mixer mixer(kRate);
  mixer.start(SoundEffect::LifeLost);
  std::vector<std::int16_t> out(100);
  mixer.mix(out);
  for (std::size_t i = 1; i < Mixer::kVoices; ++i) mixer.start(SoundEffect::Shot);
  mixer.mix(out);
  EXPECT_EQ(mixer.playing(), Mixer::kVoices);
  mixer.start(SoundEffect::Hit);
  EXPECT_EQ(mixer.playing(), Mixer::kVoices);

  const std::size_t rest =
      std::max(mixer.samples(SoundEffect::Shot).size(), mixer.samples(SoundEffect::Hit).size());
  ASSERT_LT(rest + 200, mixer.samples(SoundEffect::LifeLost).size());
  std::vector<std::int16_t> until_the_end(rest);
  mixer.mix(until_the_end);
  EXPECT_EQ(mixer.playing(), 0u);
  mixer.mix(out);
  EXPECT_EQ(out, std::vector<std::int16_t>(out.size(), 0));
}

TEST(Mixer, StopAllSilencesEveryVoiceAtOnce) {
  Mixer mixer(kRate);
  for (const SoundEffect effect : kAllSoundEffects) mixer.start(effect);
  std::vector<std::int16_t> out(100);
  mixer.mix(out);
  mixer.stop_all();
  EXPECT_EQ(mixer.playing(), 0u);
  mixer.mix(out);
  EXPECT_EQ(out, std::vector<std::int16_t>(out.size(), 0));
  mixer.start(SoundEffect::Shot);
  EXPECT_EQ(mixer.playing(), 1u);
}

TEST(Mixer, NeitherStartNorMixAllocates) {
  Mixer mixer(kRate);
  std::vector<std::int16_t> out(512);
  const std::uint64_t before = heap_allocations();
  for (int round = 0; round < 200; ++round) {
    for (const SoundEffect effect : kAllSoundEffects) mixer.start(effect);
    mixer.mix(out);
    if (round % 50 == 25) mixer.stop_all();
  }
  EXPECT_EQ(heap_allocations() - before, 0u);
  EXPECT_GT(mixer.playing(), 0u);
}

TEST(Mixer, AtAnUnsupportedRateIsSilent) {
  Mixer mixer(kMaxSampleRate + 1);
  mixer.start(SoundEffect::Explosion);
  EXPECT_EQ(mixer.playing(), 0u);
  std::vector<std::int16_t> out(300, 7);
  mixer.mix(out);
  EXPECT_EQ(out, std::vector<std::int16_t>(300, 0));
}

}  // namespace
}  // namespace quadpool::game::audio
