#include "game/play/replay.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <array>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "game/util/atomic_file.hpp"
#include "game/util/regular_file.hpp"
#include "game/util/shown_value.hpp"
#include "game/sim/simulation.hpp"
#include "common/scene/scene.hpp"

// Sections: the layout's sizes, writing bytes, reading bytes, the decoder (as the bytes arrive),
// the file.

namespace quadpool::game::play {

namespace {

// --- the layout's sizes ------------------------------------------------------------------------

constexpr std::size_t kStartBytes = 40;
constexpr std::size_t kPreambleBytes = 8 + 4 + 4;                      // magic, version, start size
constexpr std::size_t kHeadBytes = kPreambleBytes + kStartBytes + 8;  // ... and the tick count
constexpr std::size_t kCommandBytes = 6;
constexpr std::size_t kTailBytes = 8 + 8;  // final hash, checksum

constexpr std::uint64_t kFnvStart = 0xcbf29ce484222325ull;

// FNV-1a 64 of `bytes`, continued from `hash` (the hash of the bytes before them).
std::uint64_t fnv1a(std::span<const std::byte> bytes, std::uint64_t hash = kFnvStart) noexcept {
  for (const std::byte b : bytes) {
    hash ^= static_cast<std::uint64_t>(b);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// --- writing bytes -----------------------------------------------------------------------------

class ByteWriter {
 public:
  explicit ByteWriter(std::size_t size) { bytes_.reserve(size); }
  void put(std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) bytes_.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xffu));
  }
  void put_float(float value) { put(std::bit_cast<std::uint32_t>(value), 4); }
  void put_signed(std::int64_t value, int size) { put(static_cast<std::uint64_t>(value), size); }
  std::vector<std::byte>& bytes() noexcept { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// --- reading bytes -----------------------------------------------------------------------------

// Reads little-endian fields from a range whose length the caller has checked.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) noexcept : bytes_(bytes) {}
  std::uint64_t get(int size) noexcept {
    std::uint64_t value = 0;
    for (int i = 0; i < size; ++i) value |= static_cast<std::uint64_t>(bytes_[at_ + i]) << (8 * i);
    at_ += static_cast<std::size_t>(size);
    return value;
  }
  float get_float() noexcept { return std::bit_cast<float>(static_cast<std::uint32_t>(get(4))); }
  std::int32_t get_i32() noexcept { return static_cast<std::int32_t>(static_cast<std::uint32_t>(get(4))); }
  std::size_t at() const noexcept { return at_; }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

// The file's name as every message about a file quotes it: a newline or an escape sequence in
// it must not split the line or reach the terminal.
[[noreturn]] void fail(std::string_view name, const std::string& problem) {
  throw ReplayError(fmt::format("{}: {}", game::util::shown_path(name), problem));
}

void check_preamble(std::span<const std::byte> bytes, std::string_view name) {
  if (bytes.size() < kPreambleBytes) {
    fail(name, fmt::format("truncated: {} bytes, shorter than a replay's {}-byte preamble",
                           bytes.size(), kPreambleBytes));
  }
  if (std::memcmp(bytes.data(), kReplayMagic.data(), kReplayMagic.size()) != 0) {
    fail(name, "not a quadpool replay (it does not start with the magic word QPREPLAY)");
  }
  ByteReader reader(bytes.subspan(8));
  const std::uint64_t version = reader.get(4);
  if (version != kReplayVersion) {
    fail(name, fmt::format("replay format version {}; this build reads version {}", version,
                           kReplayVersion));
  }
  const std::uint64_t start_bytes = reader.get(4);
  if (start_bytes != kStartBytes) {
    fail(name, fmt::format("damaged: the start block is {} bytes; version {} has {}", start_bytes,
                           kReplayVersion, kStartBytes));
  }
}

// A figure for a message: whole from 100, else three digits; nine for a value just past
// `bound`, which three would round down onto it.
std::string shown_figure(double value, double bound) {
  if (value >= 100.0) return fmt::format("{:.0f}", value);
  const bool just_past = value > bound && value < bound * 1.01;
  return just_past ? fmt::format("{:.9g}", value) : fmt::format("{:.3g}", value);
}

// Sprites that cover much more than the world make a few bytes ask for hours of ticks or more
// memory than there is: the world's side follows the count alone, not the radii.
void check_coverage(const ReplayStart& start, std::string_view name) {
  const scene::SceneConfig scene = play_config_of(start).field.scene;
  const double covered = scene::coverage(scene);
  if (covered <= kMaxReplayCoverage) return;
  const std::string large =
      start.scene == scene::SceneKind::Mixed
          ? fmt::format(", {:g}% of the mixed scene's sprites at {:g}x the radii",
                        100.0 * scene::kMixedLargeShare, scene::kMixedLargeScale)
          : "";
  const std::string count =
      fmt::format("{} sprite{}", start.sprites, start.sprites == 1 ? "" : "s");
  fail(name, fmt::format("radii {}..{} at {} cover {} times the world's area (at most {}: count x "
                         "mean area <= {} x side^2, side {} at {}{})",
                         start.min_radius, start.max_radius, count,
                         shown_figure(covered, kMaxReplayCoverage), kMaxReplayCoverage,
                         kMaxReplayCoverage, shown_figure(scene::world_side(scene.sprites), 0.0),
                         count, large));
}

// Every field of the start block in its range; the ranges are the command line's.
ReplayStart read_start(ByteReader& reader, std::string_view name) {
  ReplayStart start;
  start.seed = reader.get(8);
  start.sprites = reader.get(8);
  const std::uint64_t scene = reader.get(1);
  const std::uint64_t storm = reader.get(1);
  const std::uint64_t lives = reader.get(1);
  const std::uint64_t reserved = reader.get(1);
  start.tree_max_depth = reader.get_i32();
  start.tree_leaf_capacity = reader.get_i32();
  start.min_radius = reader.get_float();
  start.max_radius = reader.get_float();
  start.speed = reader.get_float();
  if (start.sprites < game::sim::kMinSprites || start.sprites > game::sim::kMaxSprites) {
    fail(name, fmt::format("sprite count {} is out of range; it must be from {} to {}",
                           start.sprites, game::sim::kMinSprites, game::sim::kMaxSprites));
  }
  if (scene >= scene::kSceneKinds.size()) {
    fail(name, fmt::format("scene {} is unknown; it must be below {}", scene,
                           scene::kSceneKinds.size()));
  }
  start.scene = scene::kSceneKinds[scene];
  if (storm > 1 || reserved != 0) fail(name, "damaged: a flag byte is neither 0 nor 1");
  start.storm = storm == 1;
  if (lives < static_cast<std::uint64_t>(kMinLives) || lives > static_cast<std::uint64_t>(kMaxLives)) {
    fail(name, fmt::format("lives {} is out of range; it must be from {} to {}", lives, kMinLives,
                           kMaxLives));
  }
  start.lives = static_cast<int>(lives);
  if (start.tree_max_depth < game::sim::kMinTreeDepth ||
      start.tree_max_depth > game::sim::kMaxTreeDepth ||
      start.tree_leaf_capacity < game::sim::kMinLeafCapacity ||
      start.tree_leaf_capacity > game::sim::kMaxLeafCapacity) {
    fail(name, fmt::format("tree settings depth {} and leaf capacity {} are out of range; depth "
                           "must be from {} to {}, leaf capacity from {} to {}",
                           start.tree_max_depth, start.tree_leaf_capacity, game::sim::kMinTreeDepth,
                           game::sim::kMaxTreeDepth, game::sim::kMinLeafCapacity,
                           game::sim::kMaxLeafCapacity));
  }
  const bool radii_ok = std::isfinite(start.min_radius) && std::isfinite(start.max_radius) &&
                        start.min_radius > 0.0f && start.min_radius <= start.max_radius &&
                        start.max_radius <= 1000.0f;
  if (!radii_ok || !std::isfinite(start.speed) || start.speed < 0.0f || start.speed > 1000.0f) {
    fail(name, fmt::format("radii {}..{} or speed {} out of range (radii in (0, 1000], min <= max; "
                           "speed in [0, 1000])",
                           start.min_radius, start.max_radius, start.speed));
  }
  check_coverage(start, name);
  return start;
}

InputCommand read_command(ByteReader& reader, std::uint64_t tick, std::string_view name) {
  InputCommand command;
  const auto steer = static_cast<std::int8_t>(static_cast<std::uint8_t>(reader.get(1)));
  command.buttons = static_cast<std::uint8_t>(reader.get(1));
  command.aim.x = static_cast<std::int16_t>(static_cast<std::uint16_t>(reader.get(2)));
  command.aim.y = static_cast<std::int16_t>(static_cast<std::uint16_t>(reader.get(2)));
  if (steer < -1 || steer > 1) {
    fail(name, fmt::format("damaged: tick {} steers {}; steering is -1, 0 or 1", tick, steer));
  }
  if ((command.buttons & ~InputCommand::kAllButtons) != 0) {
    fail(name, fmt::format("damaged: tick {} presses unknown buttons (bits {:#x})", tick,
                           command.buttons & ~InputCommand::kAllButtons));
  }
  command.steer = steer;
  return command;
}

// --- the decoder (as the bytes arrive) -----------------------------------------------------------

// The bytes of a replay in order, from memory or from an open file.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Fills all of `into`; false when the bytes end first.
  virtual bool read(std::span<std::byte> into) = 0;
  /// True when no byte is left.
  virtual bool at_end() = 0;
};

class SpanSource final : public ByteSource {
 public:
  explicit SpanSource(std::span<const std::byte> bytes) noexcept : bytes_(bytes) {}
  bool read(std::span<std::byte> into) override {
    if (into.size() > bytes_.size()) return false;
    if (into.empty()) return true;  // memcpy must not see the null pointer of an empty span
    std::memcpy(into.data(), bytes_.data(), into.size());
    bytes_ = bytes_.subspan(into.size());
    return true;
  }
  bool at_end() override { return bytes_.empty(); }

 private:
  std::span<const std::byte> bytes_;
};

class FileSource final : public ByteSource {
 public:
  FileSource(int fd, std::string_view name) noexcept : fd_(fd), name_(name) {}
  bool read(std::span<std::byte> into) override {
    while (!into.empty()) {
      const ssize_t n = ::read(fd_, into.data(), into.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(name_, "read failed: " + game::util::system_words(errno));
      if (n == 0) return false;
      into = into.subspan(static_cast<std::size_t>(n));
    }
    return true;
  }
  bool at_end() override {
    std::byte extra{};
    return !read(std::span(&extra, 1));
  }

 private:
  int fd_;
  std::string_view name_;
};

// Decodes a replay of `size` bytes from `source`, checking the magic word and the header before
// anything else is read, and decoding the commands as they arrive: nothing is held but the
// commands (6 bytes in the file, 6 in memory) and one chunk, so a file never costs more memory
// than its own size. The checks and their order are those of a whole-file decode: the preamble,
// the sizes, the start, the checksum, then the commands (a damaged file is "damaged: the
// checksum", whatever its bytes decode to).
Replay decode_from(ByteSource& source, std::uint64_t size, std::string_view name) {
  std::array<std::byte, kHeadBytes> head{};
  const std::size_t preamble = static_cast<std::size_t>(std::min<std::uint64_t>(size, kPreambleBytes));
  if (!source.read(std::span(head).first(preamble))) fail(name, "truncated: it changed while read");
  check_preamble(std::span<const std::byte>(head).first(preamble), name);
  if (size < kHeadBytes + kTailBytes) {
    fail(name, fmt::format("truncated: {} bytes, shorter than an empty replay's {}", size,
                           kHeadBytes + kTailBytes));
  }
  if (!source.read(std::span(head).subspan(kPreambleBytes))) {
    fail(name, "truncated: it changed while read");
  }
  ByteReader reader(head);
  reader.get(static_cast<int>(kPreambleBytes / 2));  // already checked: skip in two steps,
  reader.get(static_cast<int>(kPreambleBytes / 2));  // as get() reads at most 8 bytes
  Replay replay;
  replay.start = read_start(reader, name);
  const std::uint64_t ticks = reader.get(8);
  // Divide, never multiply: a junk count must not overflow into a plausible size.
  const std::uint64_t room = (size - kHeadBytes - kTailBytes) / kCommandBytes;
  if (ticks > room) {
    fail(name, fmt::format("truncated: it says {} ticks but holds {} bytes, room for {}", ticks,
                           size, room));
  }
  const std::uint64_t expected = kHeadBytes + ticks * kCommandBytes + kTailBytes;
  if (size != expected) {
    fail(name, fmt::format("damaged: {} bytes longer than its {} ticks need", size - expected,
                           ticks));
  }
  std::uint64_t hash = fnv1a(head);
  replay.commands.reserve(static_cast<std::size_t>(ticks));
  // A bad command is reported only once the checksum has matched, as a whole-file decode does.
  std::optional<ReplayError> bad_command;
  constexpr std::size_t kChunkCommands = 8192;
  std::vector<std::byte> chunk(std::min<std::uint64_t>(ticks, kChunkCommands) * kCommandBytes);
  for (std::uint64_t done = 0; done < ticks;) {
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(ticks - done, kChunkCommands));
    const std::span<std::byte> part = std::span(chunk).first(count * kCommandBytes);
    if (!source.read(part)) fail(name, "truncated: it changed while read");
    hash = fnv1a(part, hash);
    ByteReader commands(part);
    for (std::size_t i = 0; i < count && !bad_command; ++i) {
      try {
        replay.commands.push_back(read_command(commands, done + i, name));
      } catch (const ReplayError& e) {
        bad_command = e;
      }
    }
    done += count;
  }
  std::array<std::byte, kTailBytes> tail_bytes{};
  if (!source.read(tail_bytes)) fail(name, "truncated: it changed while read");
  if (!source.at_end()) fail(name, "damaged: it grew while read");
  ByteReader tail(tail_bytes);
  replay.final_hash = tail.get(8);
  hash = fnv1a(std::span(tail_bytes).first(8), hash);
  if (tail.get(8) != hash) fail(name, "damaged: the checksum does not match the contents");
  if (bad_command) throw *bad_command;
  return replay;
}

// --- the file ----------------------------------------------------------------------------------

// Every file the program writes goes through the one atomic writer: a failed write leaves the
// old replay as it was.
void write_atomically(const std::string& path, std::span<const std::byte> bytes) {
  const std::string problem = game::util::write_file_atomically(path, bytes);
  if (!problem.empty()) throw ReplayWriteError(
        fmt::format("{}: cannot write ({})", game::util::shown_path(path), problem));
}

}  // namespace

ReplayStart replay_start_of(const PlayConfig& config) noexcept {
  const scene::SceneConfig& scene = config.field.scene;
  return ReplayStart{.seed = scene.seed,
                     .sprites = scene.sprites,
                     .scene = scene.kind,
                     .storm = config.storm,
                     .lives = config.lives,
                     .tree_max_depth = config.field.tree_max_depth,
                     .tree_leaf_capacity = config.field.tree_leaf_capacity,
                     .min_radius = scene.min_radius,
                     .max_radius = scene.max_radius,
                     .speed = scene.speed};
}

PlayConfig play_config_of(const ReplayStart& start) noexcept {
  PlayConfig config;
  scene::SceneConfig& scene = config.field.scene;
  scene.seed = start.seed;
  scene.sprites = static_cast<std::size_t>(start.sprites);
  scene.kind = start.scene;
  scene.min_radius = start.min_radius;
  scene.max_radius = start.max_radius;
  scene.speed = start.speed;
  config.field.tree_max_depth = start.tree_max_depth;
  config.field.tree_leaf_capacity = start.tree_leaf_capacity;
  config.storm = start.storm;
  config.lives = start.lives;
  return config;
}

std::vector<std::byte> encode_replay(const Replay& replay) {
  ByteWriter out(kHeadBytes + replay.commands.size() * kCommandBytes + kTailBytes);
  for (const char c : kReplayMagic) out.put(static_cast<unsigned char>(c), 1);
  out.put(kReplayVersion, 4);
  out.put(kStartBytes, 4);
  const ReplayStart& start = replay.start;
  out.put(start.seed, 8);
  out.put(start.sprites, 8);
  out.put(static_cast<std::uint64_t>(start.scene), 1);
  out.put(start.storm ? 1 : 0, 1);
  out.put(static_cast<std::uint64_t>(start.lives), 1);
  out.put(0, 1);
  out.put_signed(start.tree_max_depth, 4);
  out.put_signed(start.tree_leaf_capacity, 4);
  out.put_float(start.min_radius);
  out.put_float(start.max_radius);
  out.put_float(start.speed);
  out.put(replay.commands.size(), 8);
  for (const InputCommand& command : replay.commands) {
    out.put_signed(command.steer, 1);
    out.put(command.buttons, 1);
    out.put_signed(command.aim.x, 2);
    out.put_signed(command.aim.y, 2);
  }
  out.put(replay.final_hash, 8);
  out.put(fnv1a(out.bytes()), 8);
  return std::move(out.bytes());
}

Replay decode_replay(std::span<const std::byte> bytes, std::string_view name) {
  SpanSource source(bytes);
  return decode_from(source, bytes.size(), name);
}

Replay read_replay(const std::string& path) {
  // The one careful opening the high score's read uses too: a folder, a FIFO (it never waits
  // for a writer), a socket or a device is named for what it is, and a file over the cap is
  // refused by its size before a byte is read.
  const game::util::OpenedRegularFile file = game::util::open_regular_file(path, kMaxReplayBytes);
  switch (file.outcome) {
    case game::util::RegularFileRead::Outcome::Read:
      break;
    case game::util::RegularFileRead::Outcome::Oversized:
      fail(path, fmt::format("{} bytes is too large for a replay (at most {})", file.size,
                             kMaxReplayBytes));
    case game::util::RegularFileRead::Outcome::Missing:
    case game::util::RegularFileRead::Outcome::Unreadable:
      fail(path, file.problem);
  }
  if (file.size == 0) {
    // A file that reports no size (those in /proc) is read whole under the cap, then decoded.
    const game::util::RegularFileRead read = game::util::read_regular_file(path, kMaxReplayBytes);
    if (read.outcome != game::util::RegularFileRead::Outcome::Read) {
      fail(path, read.outcome == game::util::RegularFileRead::Outcome::Oversized
                     ? fmt::format("too large for a replay (at most {} bytes)", kMaxReplayBytes)
                     : read.problem);
    }
    return decode_replay(std::as_bytes(std::span(read.bytes.data(), read.bytes.size())), path);
  }
  FileSource source(file.fd(), path);
  return decode_from(source, file.size, path);
}

void write_replay(const std::string& path, const Replay& replay) {
  write_atomically(path, encode_replay(replay));
}

}  // namespace quadpool::game::play
