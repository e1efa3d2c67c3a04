// Tests of game/play/replay.*: a recorded bot game replays to the same state hash (on the other
// allocator too), the file round-trips exactly, and every kind of bad file (missing, a folder,
// a FIFO, a pipe, a device, over the size cap, empty, truncated at every length, junk, foreign,
// another version, flipped bytes, values out of range, sprites that cover far more than the
// world) is refused with a message naming the file and the problem, never a crash or a wait.
#include "game/play/replay.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "game/play/bot_pilot.hpp"
#include "game/play/play_world.hpp"
#include "game/sim/simulation.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/forked_child.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using memory::AllocatorKind;

Replay record_bot_game(std::size_t sprites, std::uint64_t seed, int ticks) {
  PlayConfig config = test::play_config(sprites, seed);
  config.field.scene.kind = scene::SceneKind::Mixed;
  config.field.tree_leaf_capacity = 32;
  config.lives = 4;
  PlayWorld world(config);
  BotPilot bot(seed);
  Replay replay;
  replay.start = replay_start_of(config);
  for (int t = 0; t < ticks; ++t) {
    const InputCommand command = bot.decide(world);
    replay.commands.push_back(command);
    world.step(command);
  }
  replay.final_hash = world.state_hash();
  return replay;
}

std::uint64_t play_back(const Replay& replay, AllocatorKind kind) {
  PlayConfig config = play_config_of(replay.start);
  config.field.allocator = kind;
  PlayWorld world(config);
  for (const InputCommand& command : replay.commands) world.step(command);
  return world.state_hash();
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / name).string();
}

std::string message_of(std::span<const std::byte> bytes) {
  try {
    decode_replay(bytes, "game.qpr");
  } catch (const ReplayError& e) {
    return e.what();
  }
  return "";
}

TEST(Replay, ARecordedBotGameReplaysFromItsFileToTheSameHashOnEitherAllocator) {
  const Replay recorded = record_bot_game(1000, 11, 500);
  const std::string path = temp_path("bot.qpr");
  write_replay(path, recorded);
  const Replay loaded = read_replay(path);
  EXPECT_EQ(loaded.start, recorded.start);
  EXPECT_EQ(loaded.commands, recorded.commands);
  EXPECT_EQ(loaded.final_hash, recorded.final_hash);
  EXPECT_EQ(play_back(loaded, AllocatorKind::Pool), recorded.final_hash);
  EXPECT_EQ(play_back(loaded, AllocatorKind::NewDelete), recorded.final_hash);
  // The commands matter: dropping the fire button changes the game.
  Replay changed = loaded;
  for (InputCommand& command : changed.commands) command.buttons &= ~InputCommand::kFire;
  EXPECT_NE(play_back(changed, AllocatorKind::Pool), recorded.final_hash);
  std::filesystem::remove(path);
}

TEST(Replay, EncodingRoundTripsEveryFieldAndCommand) {
  Replay replay;
  replay.start = ReplayStart{.seed = 0xfedcba9876543210ull, .sprites = 12345,
                             .scene = scene::SceneKind::Streams, .storm = true, .lives = 9,
                             .tree_max_depth = 16, .tree_leaf_capacity = 1, .min_radius = 0.5f,
                             .max_radius = 7.25f, .speed = 0.0f};
  Random rng(3);
  for (int i = 0; i < 1000; ++i) {
    InputCommand c;
    c.steer = static_cast<std::int8_t>(rng.between(-1, 1));
    c.buttons = static_cast<std::uint8_t>(rng.below(8));
    c.aim.x = static_cast<std::int16_t>(rng.between(-32767, 32767));
    c.aim.y = static_cast<std::int16_t>(rng.between(-32767, 32767));
    replay.commands.push_back(c);
  }
  replay.final_hash = 42;
  const std::vector<std::byte> bytes = encode_replay(replay);
  EXPECT_EQ(bytes.size(), 64u + 6u * 1000u + 16u);
  const Replay back = decode_replay(bytes, "x");
  EXPECT_EQ(back.start, replay.start);
  EXPECT_EQ(back.commands, replay.commands);
  EXPECT_EQ(back.final_hash, 42u);
}

TEST(Replay, AMissingFileIsRefusedWithItsName) {
  try {
    read_replay(temp_path("no-such-replay.qpr"));
    FAIL() << "a missing file was read";
  } catch (const ReplayError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-replay.qpr: cannot open"), std::string::npos)
        << e.what();
  }
}

std::string read_message_of(const std::string& path) {
  try {
    read_replay(path);
  } catch (const ReplayError& e) {
    return e.what();
  }
  return "";
}

// None of these is a replay, and none may hang the reader, read a pipe's bytes or claim a size.
TEST(Replay, AFolderAFifoAPipeOrADeviceIsRefusedForWhatItIs) {
  const std::filesystem::path folder = temp_path("replay-folder.qpr");
  std::filesystem::create_directories(folder);
  EXPECT_EQ(read_message_of(folder.string()), folder.string() + ": it is a folder, not a file");
  std::filesystem::remove(folder);

  const std::filesystem::path fifo = temp_path("replay-fifo.qpr");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  EXPECT_EQ(read_message_of(fifo.string()), fifo.string() + ": it is a FIFO, not a regular file");
  std::filesystem::remove(fifo);

  // `cat game.qpr | quadpool --replay /dev/stdin`: a pipe, refused like a FIFO; its bytes stay.
  const std::vector<std::byte> bytes = encode_replay(record_bot_game(300, 2, 5));
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0) << std::strerror(errno);
  ASSERT_EQ(::write(ends[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  const std::string pipe_path = "/proc/self/fd/" + std::to_string(ends[0]);
  EXPECT_EQ(read_message_of(pipe_path), pipe_path + ": it is a FIFO, not a regular file");
  std::vector<std::byte> left(bytes.size());
  EXPECT_EQ(::read(ends[0], left.data(), left.size()), static_cast<ssize_t>(left.size()));
  ::close(ends[0]);
  ::close(ends[1]);

  EXPECT_EQ(read_message_of("/dev/null"), "/dev/null: it is a character device, not a regular file");
}

TEST(Replay, AFileThatIsNotAReplayIsReadAsOneAndRefusedByItsContents) {
  // /proc's files are regular but report 0 bytes: they are read to their end, then decoded.
  EXPECT_EQ(read_message_of("/proc/self/status"),
            "/proc/self/status: not a quadpool replay (it does not start with the magic word "
            "QPREPLAY)");
}

TEST(Replay, AFileOverTheCapIsRefusedWithItsSizeBeforeItIsRead) {
  const std::string path = temp_path("replay-huge.qpr");
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary).flush();
  std::filesystem::resize_file(path, kMaxReplayBytes + 1);  // sparse: no disk is used
  EXPECT_EQ(read_message_of(path), fmt::format("{}: {} bytes is too large for a replay (at most {})",
                                               path, kMaxReplayBytes + 1, kMaxReplayBytes));
  std::filesystem::remove(path);
}

TEST(Replay, EveryTruncationIsRefusedAndSaysSo) {
  const std::vector<std::byte> bytes = encode_replay(record_bot_game(300, 2, 40));
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::string message = message_of(std::span(bytes).first(size));
    ASSERT_FALSE(message.empty()) << "a file cut to " << size << " bytes was accepted";
    ASSERT_EQ(message.rfind("game.qpr: ", 0), 0u) << message;
    if (size >= 16) {
      EXPECT_TRUE(message.find("truncated") != std::string::npos ||
                  message.find("damaged") != std::string::npos)
          << size << ": " << message;
    }
  }
  EXPECT_NE(message_of({}).find("truncated: 0 bytes"), std::string::npos);
}

TEST(Replay, JunkForeignMagicAndOtherVersionsAreNamed) {
  std::vector<std::byte> junk(500);
  Random rng(8);
  for (std::byte& b : junk) b = static_cast<std::byte>(rng.below(256));
  EXPECT_NE(message_of(junk).find("not a quadpool replay"), std::string::npos);

  std::vector<std::byte> bytes = encode_replay(record_bot_game(300, 2, 10));
  std::vector<std::byte> png = bytes;
  png[0] = std::byte{0x89};
  EXPECT_NE(message_of(png).find("not a quadpool replay"), std::string::npos);
  std::vector<std::byte> future = bytes;
  future[8] = std::byte{2};
  EXPECT_NE(message_of(future).find("format version 2; this build reads version 1"),
            std::string::npos)
      << message_of(future);
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_NE(message_of(longer).find("damaged"), std::string::npos) << message_of(longer);
}

TEST(Replay, AnyFlippedByteIsRefusedNeverACrash) {
  const std::vector<std::byte> bytes = encode_replay(record_bot_game(300, 2, 30));
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::vector<std::byte> damaged = bytes;
    damaged[i] ^= std::byte{0x20};
    EXPECT_FALSE(message_of(damaged).empty()) << "a flip at byte " << i << " was accepted";
  }
}

TEST(Replay, ValuesOutOfRangeAreNamedEvenWithAGoodChecksum) {
  Replay replay = record_bot_game(300, 2, 5);
  replay.start.sprites = 0;
  EXPECT_NE(message_of(encode_replay(replay)).find("sprite count 0 is out of range"),
            std::string::npos);
  replay = record_bot_game(300, 2, 5);
  replay.commands[3].steer = 5;
  EXPECT_NE(message_of(encode_replay(replay)).find("tick 3 steers 5"), std::string::npos)
      << message_of(encode_replay(replay));
  replay = record_bot_game(300, 2, 5);
  replay.start.tree_max_depth = 40;
  EXPECT_NE(message_of(encode_replay(replay)).find("tree settings"), std::string::npos);
}

// A start of `sprites` sprites of `kind` with radii lo..hi, as a file would hold it.
std::vector<std::byte> start_with_radii(std::uint64_t sprites, scene::SceneKind kind, float lo,
                                        float hi) {
  Replay replay;
  replay.start = ReplayStart{.sprites = sprites, .scene = kind, .min_radius = lo, .max_radius = hi};
  return encode_replay(replay);
}

// The world's side follows the count alone: a few bytes asked for 45 million pairs a tick
// (radius 100) or more memory than the machine had (radius 1000).
TEST(Replay, SpritesThatWouldCoverMoreThanTheWorldHoldsAreRefusedNamingTheRule) {
  EXPECT_EQ(message_of(start_with_radii(100'000, scene::SceneKind::Uniform, 100.0f, 100.0f)),
            "game.qpr: radii 100..100 at 100000 sprites cover 187 times the world's area (at "
            "most 2: count x mean area <= 2 x side^2, side 4096 at 100000 sprites)");
  EXPECT_EQ(message_of(start_with_radii(100'000, scene::SceneKind::Uniform, 1000.0f, 1000.0f)),
            "game.qpr: radii 1000..1000 at 100000 sprites cover 18725 times the world's area (at "
            "most 2: count x mean area <= 2 x side^2, side 4096 at 100000 sprites)");
  // Mixed counts its large sprites: radii that pass in the uniform scene do not pass here.
  EXPECT_EQ(message_of(start_with_radii(100'000, scene::SceneKind::Uniform, 7.4f, 7.4f)), "");
  EXPECT_EQ(message_of(start_with_radii(100'000, scene::SceneKind::Mixed, 7.4f, 7.4f)),
            "game.qpr: radii 7.4..7.4 at 100000 sprites cover 2.04 times the world's area (at "
            "most 2: count x mean area <= 2 x side^2, side 4096 at 100000 sprites, 1% of the "
            "mixed scene's sprites at 10x the radii)");
  // Just past the bound shows enough digits to be past it; one sprite is one.
  EXPECT_EQ(message_of(start_with_radii(100'000, scene::SceneKind::Streams, 10.34f, 10.34f)),
            "game.qpr: radii 10.34..10.34 at 100000 sprites cover 2.00203224 times the world's "
            "area (at most 2: count x mean area <= 2 x side^2, side 4096 at 100000 sprites)");
  EXPECT_EQ(message_of(start_with_radii(1, scene::SceneKind::Clustered, 12.0f, 12.0f)),
            "game.qpr: radii 12..12 at 1 sprite cover 2.7 times the world's area (at most 2: "
            "count x mean area <= 2 x side^2, side 13 at 1 sprite)");
}

// Every scene the program can record: SceneConfig's radii, every kind, every count it allows.
TEST(Replay, EveryStartTheGameCanRecordPassesTheCoverageBoundWithRoomToSpare) {
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    for (const std::size_t sprites :
         {game::sim::kMinSprites, std::size_t{50}, game::sim::kMaxSprites}) {
      PlayConfig config;
      config.field.scene.kind = kind;
      config.field.scene.sprites = sprites;
      Replay replay;
      replay.start = replay_start_of(config);
      EXPECT_EQ(message_of(encode_replay(replay)), "")
          << scene::scene_name(kind) << " at " << sprites << " sprites";
    }
    double most = 0.0;
    for (std::size_t sprites = game::sim::kMinSprites; sprites <= game::sim::kMaxSprites;
         ++sprites) {
      most = std::max(most, scene::coverage({.sprites = sprites, .kind = kind}));
    }
    EXPECT_LE(most, kMaxReplayCoverage / 2) << scene::scene_name(kind);
  }
}

TEST(Replay, AFailedWriteNamesThePathAndLeavesNothingBehind) {
  const Replay replay = record_bot_game(300, 2, 5);
  const std::string missing_dir = temp_path("no-such-dir/x.qpr");
  try {
    write_replay(missing_dir, replay);
    FAIL() << "wrote into a missing folder";
  } catch (const ReplayWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(missing_dir + ": cannot write"), std::string::npos)
        << e.what();
  }
  // A non-empty folder where the file should go: the rename fails, the folder and what is in
  // it stay, and the temporary file is gone.
  const std::filesystem::path folder = temp_path("in-the-way.qpr");
  std::filesystem::create_directories(folder);
  write_replay((folder / "inside.qpr").string(), replay);
  EXPECT_THROW(write_replay(folder.string(), replay), ReplayWriteError);
  EXPECT_EQ(read_replay((folder / "inside.qpr").string()).commands, replay.commands);
  for (const auto& entry : std::filesystem::directory_iterator(folder.parent_path())) {
    EXPECT_EQ(entry.path().filename().string().find("in-the-way.qpr.tmp"), std::string::npos);
  }
  std::filesystem::remove_all(folder);
}

// A file name with a newline or an escape sequence in it must not split the error line in two or
// reach the terminal: the replay's messages quote the name as the command line's do.
TEST(Replay, ReadAndWriteErrorsQuoteAFileNameWithControlCharacters) {
  const std::string odd = temp_path("two\nlines\x1b[2J.qpr");
  const std::string read_error = read_message_of(odd);
  ASSERT_FALSE(read_error.empty());
  EXPECT_EQ(read_error.find('\n'), std::string::npos) << read_error;
  EXPECT_EQ(read_error.find('\x1b'), std::string::npos) << read_error;
  EXPECT_NE(read_error.find("two\\nlines\\x1b[2J.qpr"), std::string::npos) << read_error;
  try {
    write_replay(temp_path("no-such-dir\n/x\x1b.qpr"), record_bot_game(300, 2, 5));
    FAIL() << "wrote into a missing folder";
  } catch (const ReplayWriteError& e) {
    const std::string said = e.what();
    EXPECT_EQ(said.find('\n'), std::string::npos) << said;
    EXPECT_EQ(said.find('\x1b'), std::string::npos) << said;
    EXPECT_NE(said.find("no-such-dir\\n/x\\x1b.qpr"), std::string::npos) << said;
  }
}

// The reader's peak memory, measured with an address-space limit in a forked child: the
// sanitizers reserve terabytes of shadow memory, where such a limit means nothing.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kAddressSpaceLimitWorks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kAddressSpaceLimitWorks = false;
#else
constexpr bool kAddressSpaceLimitWorks = true;
#endif
#else
constexpr bool kAddressSpaceLimitWorks = true;
#endif

// In a forked child: read_replay(path) with the address space limited to what the child uses
// now plus `room` bytes. Returns the outcome: "read N ticks", the ReplayError's message, or
// "out of memory".
std::string read_within(const std::string& path, std::uint64_t room) {
  return ::quadpool::test::in_child([&]() -> std::string {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    statm >> pages;
    const std::uint64_t used = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const rlimit limit{used + room, used + room};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) return "setrlimit failed";
    try {
      const Replay replay = read_replay(path);
      return fmt::format("read {} ticks", replay.commands.size());
    } catch (const ReplayError& e) {
      return e.what();
    } catch (const std::bad_alloc&) {
      return "out of memory";
    }
  });
}

// replay.hpp promises that a file cannot make the reader allocate more than its own size: the
// bytes read and the commands decoded from them must not be held together.
TEST(Replay, AValidReplayIsReadInLittleMoreMemoryThanItsSize) {
  if (!kAddressSpaceLimitWorks) GTEST_SKIP() << "an address-space limit means nothing here";
  Replay replay = record_bot_game(300, 2, 5);
  replay.commands.resize(4'000'000);  // 24 MB of commands, all "do nothing"
  const std::string path = temp_path("replay-large.qpr");
  write_replay(path, replay);
  const std::uint64_t size = std::filesystem::file_size(path);
  EXPECT_EQ(read_within(path, size + size / 2), "read 4000000 ticks");
  std::filesystem::remove(path);
}

// A large file that is not a replay is refused by its first bytes, before the rest is read.
TEST(Replay, ALargeFileThatIsNotAReplayIsRefusedByItsHeaderBeforeTheRestIsRead) {
  if (!kAddressSpaceLimitWorks) GTEST_SKIP() << "an address-space limit means nothing here";
  const std::string path = temp_path("replay-huge-junk.qpr");
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary) << "NOTAREPLAY, only a large file";
  std::filesystem::resize_file(path, kMaxReplayBytes);  // sparse: no disk is used
  EXPECT_EQ(read_within(path, 64u << 20),
            path + ": not a quadpool replay (it does not start with the magic word QPREPLAY)");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace quadpool::game::play
