// The demo's Sound (game/window/sdl/sound.hpp) on SDL's real audio code: a device on the dummy
// driver, the mixed samples on the disk driver, silence and one log line when no driver can
// start or none lists a device, the mute, and SDL_Init/SDL_Quit around it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <SDL.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <unistd.h>

#include "game/audio/synth.hpp"
#include "game/window/sdl/sound.hpp"
#include "game/util/log.hpp"

namespace quadpool::game::window::sdl {
namespace {

using audio::SoundEffect;

std::string log_text(const std::vector<std::string>& lines) {
  std::string text = "sound's log lines:";
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

// Runs a test with SDL_AUDIODRIVER set to the given driver and the game's log lines captured;
// restores both afterwards (and drops the disk driver's settings).
class SoundOn : public testing::Test {
 protected:
  void use_driver(const char* driver) { ::setenv("SDL_AUDIODRIVER", driver, 1); }

  void SetUp() override {
    if (const char* old = std::getenv("SDL_AUDIODRIVER")) saved_driver_ = old;
    sink_ = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_);
    sink_->set_pattern("[%l] %v");
    util::logger().sinks().push_back(sink_);
  }

  void TearDown() override {
    auto& sinks = util::logger().sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    ::unsetenv("SDL_DISKAUDIOFILE");
    ::unsetenv("SDL_DISKAUDIODELAY");
    if (saved_driver_) {
      ::setenv("SDL_AUDIODRIVER", saved_driver_->c_str(), 1);
    } else {
      ::unsetenv("SDL_AUDIODRIVER");
    }
  }

  // The captured lines that mention sound.
  std::vector<std::string> sound_lines() const {
    std::vector<std::string> lines;
    std::istringstream text(log_.str());
    for (std::string line; std::getline(text, line);) {
      if (line.find("sound") != std::string::npos) lines.push_back(line);
    }
    return lines;
  }

 private:
  std::ostringstream log_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
  std::optional<std::string> saved_driver_;
};

TEST_F(SoundOn, TheDummyDriverOpensADeviceAndPlaysEveryEffect) {
  use_driver("dummy");
  Sound sound;
  EXPECT_TRUE(sound.has_device());
  EXPECT_FALSE(sound.muted());
  for (const SoundEffect effect : audio::kAllSoundEffects) sound.play(effect);
  // Let SDL's audio thread run the mixer a few times while the effects play.
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  for (int i = 0; i < 40; ++i) sound.play(SoundEffect::Shot);  // more than the mixer's voices
  EXPECT_EQ(sound.played(), audio::kSoundEffects + 40);
  const std::vector<std::string> lines = sound_lines();
  ASSERT_EQ(lines.size(), 1u) << log_text(lines);
  EXPECT_NE(lines[0].find("[info] sound: "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("dummy"), std::string::npos) << lines[0];
}

// SDL's disk driver writes what the callback mixes to a file, in the format asked for (16-bit
// mono at 48000 Hz): the explosion must be in it sample for sample.
TEST_F(SoundOn, TheCallbackWritesTheSynthesisedSamplesToTheDevice) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("quadpool_sound_test_" + std::to_string(::getpid()) + ".raw");
  use_driver("disk");
  ::setenv("SDL_DISKAUDIOFILE", file.c_str(), 1);
  ::setenv("SDL_DISKAUDIODELAY", "1", 1);  // ms per 512-sample buffer: about 10 x real time
  const std::vector<std::int16_t> explosion = audio::synthesize(SoundEffect::Explosion, 48000);
  {
    Sound sound;
    ASSERT_TRUE(sound.has_device());
    std::error_code error;
    const auto bytes_written = [&]() -> std::uintmax_t {
      const std::uintmax_t size = std::filesystem::file_size(file, error);
      return error ? 0 : size;
    };
    const std::uintmax_t before = bytes_written();
    sound.play(SoundEffect::Explosion);
    // Until the explosion, a buffer and the file's write buffer are on disk; a loaded machine
    // may take its time.
    const std::uintmax_t enough = before + (explosion.size() + 8192) * sizeof(std::int16_t);
    const auto give_up_at = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (bytes_written() < enough && std::chrono::steady_clock::now() < give_up_at) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  std::ifstream in(file, std::ios::binary);
  ASSERT_TRUE(in.good()) << "the disk driver wrote no " << file;
  std::vector<std::int16_t> written;
  for (std::int16_t sample = 0; in.read(reinterpret_cast<char*>(&sample), sizeof sample);) {
    written.push_back(sample);
  }
  in.close();
  std::filesystem::remove(file);
  ASSERT_GT(written.size(), explosion.size()) << "SDL's audio thread ran too little";
  const bool found = std::search(written.begin(), written.end(), explosion.begin(),
                                 explosion.end()) != written.end();
  EXPECT_TRUE(found) << "the explosion's samples are not in the " << written.size()
                     << " samples written";
}

// On a machine without a sound card SDL's ALSA driver lists no device; the Sound then does not
// ask it to open one, which would have ALSA print its configuration errors on stderr.
TEST_F(SoundOn, AlsaWithoutASoundCardIsSilentWithoutAlsasOwnErrors) {
  std::ifstream cards("/proc/asound/cards");
  std::string first_line;
  if (cards.good() && std::getline(cards, first_line) &&
      first_line.find("no soundcards") == std::string::npos) {
    GTEST_SKIP() << "this machine has a sound card: " << first_line;
  }
  use_driver("alsa");
  testing::internal::CaptureStderr();
  std::optional<Sound> sound;
  sound.emplace();
  const bool has_device = sound->has_device();
  sound.reset();
  const std::string errors = testing::internal::GetCapturedStderr();
  if (has_device) GTEST_SKIP() << "ALSA found an output device without a sound card";
  EXPECT_EQ(errors.find("ALSA lib"), std::string::npos) << errors;
  const std::vector<std::string> lines = sound_lines();
  ASSERT_EQ(lines.size(), 1u) << log_text(lines);
  EXPECT_NE(lines[0].find("sound off, the game plays silent: "), std::string::npos) << lines[0];
}

TEST_F(SoundOn, AMissingDriverMeansSilenceAndOneInfoLine) {
  use_driver("nonexistent_driver");
  Sound sound;
  EXPECT_FALSE(sound.has_device());
  for (const SoundEffect effect : audio::kAllSoundEffects) sound.play(effect);
  sound.set_muted(true);
  sound.play(SoundEffect::Explosion);
  sound.set_muted(false);
  // Counted as asked for, so a run's summary does not depend on the machine's audio.
  EXPECT_EQ(sound.played(), audio::kSoundEffects);
  const std::vector<std::string> lines = sound_lines();
  ASSERT_EQ(lines.size(), 1u) << log_text(lines);
  EXPECT_NE(lines[0].find("[info] sound off, the game plays silent: "), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("nonexistent_driver"), std::string::npos)
      << "the line should carry SDL's reason: " << lines[0];
}

TEST_F(SoundOn, MutedPlaysNothingAndCountsNothing) {
  use_driver("dummy");
  Sound sound;
  ASSERT_TRUE(sound.has_device());
  sound.play(SoundEffect::LifeLost);
  sound.set_muted(true);
  EXPECT_TRUE(sound.muted());
  for (const SoundEffect effect : audio::kAllSoundEffects) sound.play(effect);
  EXPECT_EQ(sound.played(), 1u);
  sound.set_muted(false);
  EXPECT_FALSE(sound.muted());
  sound.play(SoundEffect::Hit);
  EXPECT_EQ(sound.played(), 2u);
}

// The window's SDL_Init and the Sound's audio subsystem are counted apart by SDL: a Sound made
// inside an SDL_Init ... SDL_Quit, one made before SDL_Init and destroyed after SDL_Quit (its
// device already closed by SDL_Quit), and one made afterwards all work.
TEST_F(SoundOn, LivesInsideOrAcrossTheWindowsSdlInit) {
  use_driver("dummy");
  ASSERT_EQ(SDL_Init(SDL_INIT_EVENTS), 0) << SDL_GetError();
  {
    Sound inside;
    EXPECT_TRUE(inside.has_device());
    inside.play(SoundEffect::Shot);
  }
  EXPECT_NE(SDL_WasInit(SDL_INIT_EVENTS), 0u) << "the Sound quit more of SDL than its audio";
  SDL_Quit();
  {
    std::optional<Sound> across;
    across.emplace();
    EXPECT_TRUE(across->has_device());
    ASSERT_EQ(SDL_Init(SDL_INIT_EVENTS), 0) << SDL_GetError();
    across->play(SoundEffect::Hit);
    SDL_Quit();
    across->play(SoundEffect::Hit);  // SDL_Quit closed the device under it: no crash, no sound
  }
  Sound after;
  EXPECT_TRUE(after.has_device());
  after.play(SoundEffect::Explosion);
}

}  // namespace
}  // namespace quadpool::game::window::sdl
