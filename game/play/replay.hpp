#pragma once
/// The replay file: how a game started and the InputCommand of every tick, so that any build
/// plays it again to the same state hash. Read as untrusted input: every length, count and
/// value is checked before it is used, and anything wrong is a ReplayError naming the file and
/// the problem (the command line turns it into exit code 2; the name quoted as util::shown_path
/// quotes it). Nothing in a file can crash the reader or make it allocate more than the file's
/// own size: read_replay() checks the magic word and the header first, then decodes the
/// commands as it reads them (one 48 KiB chunk at a time), never holding the file's bytes and
/// the commands together.
///
/// Layout, little-endian, no padding (format version 1):
///
///   offset  size  field
///   0       8     magic "QPREPLAY"
///   8       4     format version (1)
///   12      4     bytes of the start block that follows (40 in version 1)
///   16      40    start: seed u64, sprites u64, scene u8, storm u8, lives u8, reserved u8 (0),
///                 tree max depth i32, tree leaf capacity i32, min radius f32, max radius f32,
///                 speed f32
///   56      8     ticks: the number of commands
///   64      6*n   commands: steer i8, buttons u8, aim x i16, aim y i16
///   64+6n   8     the play state hash after the last command
///   72+6n   8     FNV-1a 64 of every byte before it (a damaged file fails here)

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "game/play/input_command.hpp"
#include "game/play/play_config.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::play {

inline constexpr std::array<char, 8> kReplayMagic{'Q', 'P', 'R', 'E', 'P', 'L', 'A', 'Y'};
inline constexpr std::uint32_t kReplayVersion = 1;
/// The largest replay file read: about 178 million ticks, 34 days at 60 ticks a second.
inline constexpr std::uint64_t kMaxReplayBytes = std::uint64_t{1} << 30;

/// The most of the world a replay's sprites may cover at the start (scene::coverage(): count x
/// mean area over side^2). The game records only SceneConfig's radii; twice the most any scene
/// covers with them (see coverage()) leaves room and still refuses a file whose few bytes ask
/// for hours of ticks or more memory than the machine has (radius 100 at 100,000 sprites covers
/// 187 times the world: 45 million pairs a tick). The pairs a tick grow in proportion: equal
/// radii at coverage 2 and 1,000,000 sprites gave 4.6 million, 3 times the default Mixed
/// scene's 1.5 million.
inline constexpr double kMaxReplayCoverage = 2.0;

/// What a replay needs to start the same game: the parts of PlayConfig that decide the state.
/// (The allocator does not: every allocator plays the same game.)
struct ReplayStart {
  std::uint64_t seed = 1;
  std::uint64_t sprites = 0;
  scene::SceneKind scene = scene::SceneKind::Uniform;
  bool storm = false;
  int lives = 3;
  int tree_max_depth = 16;  // QuadTreeConfig's default
  int tree_leaf_capacity = 64;
  float min_radius = 2.0f, max_radius = 6.0f, speed = 0.5f;
  friend bool operator==(const ReplayStart&, const ReplayStart&) = default;
};

struct Replay {
  ReplayStart start;
  std::vector<InputCommand> commands;  ///< one per tick
  std::uint64_t final_hash = 0;        ///< PlayWorld::state_hash() after the last command
};

/// A replay file that cannot be used: missing, unreadable, truncated, foreign, of another
/// version, damaged or holding a value out of range (sprites that would cover more than
/// kMaxReplayCoverage of the world among them). what() names the file and the problem.
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A replay that could not be written (the old file, if any, is left as it was).
class ReplayWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The start of a game played with `config`.
ReplayStart replay_start_of(const PlayConfig& config) noexcept;
/// The PlayConfig that starts the recorded game: Pool allocator, no heap counter (set those
/// as you like; they change nothing in the state).
PlayConfig play_config_of(const ReplayStart& start) noexcept;

/// The file's bytes.
std::vector<std::byte> encode_replay(const Replay& replay);
/// Parses a replay from untrusted `bytes`; `name` (the file's path) starts every error message.
/// Throws ReplayError.
Replay decode_replay(std::span<const std::byte> bytes, std::string_view name);

/// Reads and decodes the file at `path`, which must be a regular file (a folder, a FIFO, a pipe
/// such as /dev/stdin, a socket or a device is refused, and nothing waits for a writer): opened
/// through util::open_regular_file (game/util/regular_file.hpp), as the high score's reader
/// opens, and decoded as it is read, with decode_replay()'s checks in the same order. Peak
/// memory: the commands (the file's size less 72 bytes) and one chunk. Throws ReplayError
/// (missing, not a regular file, unreadable, too large, or anything decode_replay() refuses).
Replay read_replay(const std::string& path);
/// Writes `replay` to `path` atomically: a temporary file beside it, flushed, then renamed over
/// `path`, so a reader never sees half a file. Throws ReplayWriteError naming the path and the
/// system's reason.
void write_replay(const std::string& path, const Replay& replay);

}  // namespace quadpool::game::play
