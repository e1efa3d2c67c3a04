#include "game/window/sdl/sound.hpp"

#include <SDL.h>

#include <algorithm>
#include <new>
#include <span>
#include <string>
#include <type_traits>

#include "game/util/log.hpp"

namespace quadpool::game::window::sdl {
namespace {

static_assert(std::is_same_v<SDL_AudioDeviceID, std::uint32_t>, "Sound keeps the id as uint32_t");

constexpr int kPreferredRate = 48000;
// About 11 ms at 48 kHz: short enough that a shot is heard with its flash, long enough that a
// busy frame does not starve the device.
constexpr Uint16 kBufferSamples = 512;

// SDL's audio thread: the mixer writes the whole buffer (SDL 2 does not clear it first).
void SDLCALL fill_buffer(void* userdata, Uint8* stream, int bytes) {
  auto& mixer = *static_cast<std::optional<audio::Mixer>*>(userdata);
  const std::span<std::int16_t> out(reinterpret_cast<std::int16_t*>(stream),
                                    static_cast<std::size_t>(bytes) / sizeof(std::int16_t));
  if (mixer) {
    mixer->mix(out);
  } else {
    std::fill(out.begin(), out.end(), std::int16_t{0});
  }
}

}  // namespace

Sound::Sound() {
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    give_up(std::string("SDL's audio did not start: ") + SDL_GetError());
    return;
  }
  subsystem_ = true;
  // A driver that lists no output device (ALSA on a machine without a sound card) cannot open
  // one either, and asking it to would have ALSA print its own errors on stderr. -1 means the
  // driver keeps no list: then only opening tells.
  if (SDL_GetNumAudioDevices(0) == 0) {
    give_up(std::string("SDL's ") + SDL_GetCurrentAudioDriver() +
            " audio driver finds no output device");
    return;
  }
  SDL_AudioSpec wanted{};
  wanted.freq = kPreferredRate;
  wanted.format = AUDIO_S16SYS;
  wanted.channels = 1;
  wanted.samples = kBufferSamples;
  wanted.callback = &fill_buffer;
  wanted.userdata = &mixer_;
  SDL_AudioSpec obtained{};
  // Format and channel count are SDL's to convert; the rate is the device's, and the effects
  // are synthesised at it rather than resampled.
  device_ = SDL_OpenAudioDevice(nullptr, 0, &wanted, &obtained, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE);
  if (device_ == 0) {
    give_up(std::string("no audio output device: ") + SDL_GetError());
    return;
  }
  if (obtained.freq < audio::kMinSampleRate || obtained.freq > audio::kMaxSampleRate) {
    give_up("the audio device runs at " + std::to_string(obtained.freq) + " Hz, outside " +
            std::to_string(audio::kMinSampleRate) + " to " + std::to_string(audio::kMaxSampleRate));
    return;
  }
  try {
    mixer_.emplace(obtained.freq);
  } catch (const std::bad_alloc&) {
    give_up("no memory for the sound effects");
    return;
  }
  SDL_PauseAudioDevice(device_, 0);
  util::logger().info("sound: {} Hz mono through SDL's {} audio driver", obtained.freq,
                      SDL_GetCurrentAudioDriver());
}

Sound::~Sound() {
  if (device_ != 0) SDL_CloseAudioDevice(device_);
  if (subsystem_) SDL_QuitSubSystem(SDL_INIT_AUDIO);
}

void Sound::give_up(const std::string& why) {
  util::logger().info("sound off, the game plays silent: {}", why);
  if (device_ != 0) SDL_CloseAudioDevice(device_);
  if (subsystem_) SDL_QuitSubSystem(SDL_INIT_AUDIO);
  device_ = 0;
  subsystem_ = false;
}

void Sound::play(audio::SoundEffect effect) noexcept {
  if (muted_) return;
  ++played_;
  if (device_ == 0) return;
  SDL_LockAudioDevice(device_);
  mixer_->start(effect);
  SDL_UnlockAudioDevice(device_);
}

void Sound::set_muted(bool muted) noexcept {
  muted_ = muted;
  if (!muted || device_ == 0) return;
  SDL_LockAudioDevice(device_);
  mixer_->stop_all();
  SDL_UnlockAudioDevice(device_);
}

}  // namespace quadpool::game::window::sdl
