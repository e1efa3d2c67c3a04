// Tests of game/atomic_file.*: the bytes arrive whole, a failed write (a file-size limit, a
// full disk) keeps the old file and leaves nothing behind, and the early check refuses what the
// write would fail on. The tests run as root in CI, where a read-only folder stops nothing: the
// failures come from RLIMIT_FSIZE (with SIGXFSZ ignored, so that write(2) returns EFBIG) and
// from a 64 KiB tmpfs mounted in a private mount namespace, each in a forked child.
#include "game/util/atomic_file.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/helpers/forked_child.hpp"
#include "tests/helpers/scratch_folder.hpp"

namespace quadpool::game {
namespace {

namespace fs = std::filesystem;

using test::contents;
using test::in_child;
using test::names_in;

class AtomicFile : public ::testing::Test {
 protected:
  test::ScratchFolder scratch_{"atomic_file_test"};
  const fs::path dir_ = scratch_.path();
};

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

TEST_F(AtomicFile, WritesTheBytesAndLeavesNoTemporaryFile) {
  const fs::path file = dir_ / "new.bin";
  ASSERT_EQ(util::write_file_atomically(file.string(), bytes_of("hello")), "");
  EXPECT_EQ(contents(file), "hello");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"new.bin"});
  ASSERT_EQ(util::write_file_atomically(file.string(), {}), "") << "an empty file is a file too";
  EXPECT_EQ(fs::file_size(file), 0u);
}

TEST_F(AtomicFile, ReplacesAnOldFileAndKeepsItsPermissions) {
  const fs::path file = dir_ / "old.png";
  std::ofstream(file) << "old contents";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  ASSERT_EQ(util::write_file_atomically(file.string(), bytes_of("new")), "");
  EXPECT_EQ(contents(file), "new");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(names_in(dir_).size(), 1u);
}

TEST_F(AtomicFile, ReplacesTheFileALinkPointsToAndKeepsTheLink) {
  fs::create_directories(dir_ / "real");
  std::ofstream(dir_ / "real" / "shot.png") << "old";
  fs::create_symlink(dir_ / "real" / "shot.png", dir_ / "link.png");
  ASSERT_EQ(util::write_file_atomically((dir_ / "link.png").string(), bytes_of("new")), "");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "link.png")));
  EXPECT_EQ(contents(dir_ / "real" / "shot.png"), "new");
  EXPECT_EQ(names_in(dir_ / "real"), std::vector<std::string>{"shot.png"});
}

TEST_F(AtomicFile, ALinkToNothingIsRefusedAndNothingIsCreated) {
  const fs::path link = dir_ / "dangling.png";
  fs::create_symlink(dir_ / "no-such-folder" / "x.png", link);
  const std::string checked = util::check_file_can_be_written(link.string());
  const std::string written = util::write_file_atomically(link.string(), bytes_of("x"));
  EXPECT_NE(checked.find("symbolic link"), std::string::npos) << checked;
  EXPECT_NE(written.find("symbolic link"), std::string::npos) << written;
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"dangling.png"});
}

TEST_F(AtomicFile, TheCheckCreatesAndRemovesItsFileAndRefusesWhatCannotBeWritten) {
  EXPECT_EQ(util::check_file_can_be_written((dir_ / "fine.png").string()), "");
  EXPECT_TRUE(names_in(dir_).empty()) << "the check left a file behind";
  for (const std::string& path :
       std::vector<std::string>{"/proc/quadpool-x.png", "/sys/quadpool-x.png",
                                (dir_ / "no-such-folder" / "x.png").string()}) {
    EXPECT_NE(util::check_file_can_be_written(path), "") << path;
    EXPECT_NE(util::write_file_atomically(path, bytes_of("x")), "") << path;
  }
  EXPECT_FALSE(fs::exists("/proc/quadpool-x.png"));
}

TEST_F(AtomicFile, ANameLongerThanTheFolderAllowsIsRefusedAndOneThatFitsIsWritten) {
  const std::string too_long = (dir_ / (std::string(296, 'n') + ".png")).string();
  const std::string error = util::check_file_can_be_written(too_long);
  EXPECT_NE(error.find("300 bytes long"), std::string::npos) << error;
  EXPECT_NE(util::write_file_atomically(too_long, bytes_of("x")), "");
  // 255 bytes fit the folder, though the temporary file's name then must be cut to fit.
  const std::string longest = (dir_ / (std::string(251, 'n') + ".png")).string();
  EXPECT_EQ(util::check_file_can_be_written(longest), "");
  ASSERT_EQ(util::write_file_atomically(longest, bytes_of("fits")), "");
  EXPECT_EQ(contents(longest), "fits");
  EXPECT_EQ(names_in(dir_).size(), 1u);
}

TEST_F(AtomicFile, AWriteOverTheFileSizeLimitFailsKeepsTheOldFileAndLeavesNothingBehind) {
  const fs::path file = dir_ / "shot.png";
  const std::string old_contents(1000, 'o');
  std::ofstream(file, std::ios::binary) << old_contents;
  const std::string error = in_child([&] {
    std::signal(SIGXFSZ, SIG_IGN);  // write(2) then fails with EFBIG instead of killing
    const rlimit limit{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return std::string("setrlimit failed");
    return util::write_file_atomically(file.string(),
                                       std::vector<std::byte>(65536, std::byte{'n'}));
  });
  EXPECT_NE(error.find(std::strerror(EFBIG)), std::string::npos) << "'" << error << "'";
  EXPECT_EQ(contents(file), old_contents);
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"shot.png"});
}

// In a child with its own mount namespace: a 64 KiB tmpfs on `dir`, a 40 KiB old file, then a
// 40 KiB new one, which would fit alone but not beside the old one. Returns "ok", "skip: ..."
// or what went wrong.
std::string fill_a_small_tmpfs(const fs::path& dir) {
  if (const std::string skip = test::mount_private_tmpfs(dir, "64k"); !skip.empty()) return skip;
  const std::string file = (dir / "shot.png").string();
  const std::vector<std::byte> old_contents(40 * 1024, std::byte{'o'});
  if (const std::string e = util::write_file_atomically(file, old_contents); !e.empty()) {
    return "the old file could not be written: " + e;
  }
  const std::string error =
      util::write_file_atomically(file, std::vector<std::byte>(40 * 1024, std::byte{'n'}));
  if (error.find(std::strerror(ENOSPC)) == std::string::npos) {
    return "the write did not fail for lack of space: '" + error + "'";
  }
  if (contents(file) != std::string(40 * 1024, 'o')) return "the old file changed";
  if (names_in(dir).size() != 1) return "the temporary file was left behind";
  return "ok";
}

TEST_F(AtomicFile, AWriteToAFullDiskFailsKeepsTheOldFileAndLeavesNothingBehind) {
  const std::string result = in_child([&] { return fill_a_small_tmpfs(dir_); });
  if (result.rfind("skip: ", 0) == 0) GTEST_SKIP() << result;
  EXPECT_EQ(result, "ok");
}

// A SIGKILL during a write leaves its temporary file, and in a container the game gets the same
// process id every run: a name made of the process id and a counter was taken again, and
// O_EXCL then refused every later save of that file ("File exists").
TEST_F(AtomicFile, LeftoverTemporaryFilesOfThisProcessIdNeverBlockAWrite) {
  const fs::path file = dir_ / "game.qpr";
  for (int n = 0; n < 200; ++n) {
    std::ofstream(dir_ / (".game.qpr." + std::to_string(::getpid()) + "-" + std::to_string(n) +
                          ".tmp"))
        << "left by a killed write";
  }
  EXPECT_EQ(util::check_file_can_be_written(file.string()), "");
  ASSERT_EQ(util::write_file_atomically(file.string(), bytes_of("new")), "");
  EXPECT_EQ(contents(file), "new");
}

// The leftovers of killed writes do not pile up: the next write in the folder removes those of
// the writer's own pattern that are over a minute old, and no other file.
TEST_F(AtomicFile, TheNextWriteRemovesStaleTemporaryFilesOfItsOwnPatternOnly) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::minutes(2);
  const std::vector<std::string> stale{".shot.png.4242-0.tmp", ".high_score.17-3.tmp",
                                       ".a.b.qpr.99-0123456789abcdef.tmp"};
  const std::vector<std::string> kept{".fresh.png.4242-1.tmp", "user.tmp", ".user.tmp",
                                      "notes.4242-0.tmp", ".x.png.12a-0.tmp"};
  for (const std::vector<std::string>* names : {&stale, &kept}) {
    for (const std::string& name : *names) {
      std::ofstream(dir_ / name) << "x";
      if (name != ".fresh.png.4242-1.tmp") fs::last_write_time(dir_ / name, old);
    }
  }
  ASSERT_EQ(util::write_file_atomically((dir_ / "other.bin").string(), bytes_of("y")), "");
  std::vector<std::string> expected = kept;
  expected.push_back("other.bin");
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names_in(dir_), expected);
}

}  // namespace
}  // namespace quadpool::game
