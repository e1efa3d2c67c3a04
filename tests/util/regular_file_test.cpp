// Tests of game/regular_file.*: a regular file is read whole up to its cap and refused one byte
// past it; a file that reports no size (/proc) is read to its end, and refused when its end is
// past the cap; a missing path, a folder, a FIFO (without waiting for a writer), a pipe named
// by /proc/self/fd (what /dev/stdin is under `cat f |`), a socket, a device and a file where a
// folder should be are each named for what they are, before any byte is read.
#include "game/util/regular_file.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/helpers/scratch_folder.hpp"

namespace quadpool::game {
namespace {

namespace fs = std::filesystem;

using Outcome = util::RegularFileRead::Outcome;

class RegularFile : public ::testing::Test {
 protected:
  test::ScratchFolder scratch_{"regular_file_test"};
  const fs::path dir_ = scratch_.path();

  fs::path write(const std::string& name, const std::string& bytes) const {
    const fs::path file = dir_ / name;
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }
};

void expect_unreadable(const fs::path& path, const std::string& problem) {
  const util::RegularFileRead read = util::read_regular_file(path.string(), 1024);
  EXPECT_EQ(read.outcome, Outcome::Unreadable) << path;
  EXPECT_EQ(read.problem, problem) << path;
  EXPECT_TRUE(read.bytes.empty()) << path;
}

TEST_F(RegularFile, AFileUpToItsCapIsReadWholeAndOneBytePastItIsOversized) {
  const std::string text(100, 'x');
  const util::RegularFileRead exactly = util::read_regular_file(write("100", text).string(), 100);
  EXPECT_EQ(exactly.outcome, Outcome::Read);
  EXPECT_EQ(exactly.bytes, text);
  EXPECT_EQ(exactly.problem, "");

  const util::RegularFileRead over =
      util::read_regular_file(write("101", text + "y").string(), 100);
  EXPECT_EQ(over.outcome, Outcome::Oversized);
  EXPECT_EQ(over.size, 101u);
  EXPECT_TRUE(over.bytes.empty());

  const util::RegularFileRead empty = util::read_regular_file(write("empty", "").string(), 100);
  EXPECT_EQ(empty.outcome, Outcome::Read);
  EXPECT_EQ(empty.bytes, "");
}

TEST_F(RegularFile, AFileThatReportsNoSizeIsReadToItsEndUnderTheCap) {
  // /proc's files are regular and report 0 bytes: the size comes from reading them.
  struct stat status {};
  ASSERT_EQ(::stat("/proc/self/status", &status), 0) << std::strerror(errno);
  ASSERT_EQ(status.st_size, 0);
  const util::RegularFileRead whole = util::read_regular_file("/proc/self/status", 1 << 20);
  EXPECT_EQ(whole.outcome, Outcome::Read) << whole.problem;
  EXPECT_EQ(whole.bytes.rfind("Name:", 0), 0u) << whole.bytes.substr(0, 40);

  const util::RegularFileRead capped = util::read_regular_file("/proc/self/status", 16);
  EXPECT_EQ(capped.outcome, Outcome::Oversized);
  EXPECT_EQ(capped.size, 17u) << "the read stops one byte past the cap";
  EXPECT_TRUE(capped.bytes.empty());
}

TEST_F(RegularFile, AMissingPathIsMissingAndAFileAboveItIsUnreadable) {
  const util::RegularFileRead missing = util::read_regular_file((dir_ / "none").string(), 100);
  EXPECT_EQ(missing.outcome, Outcome::Missing);
  EXPECT_EQ(missing.problem, std::string("cannot open it: ") + std::strerror(ENOENT));
  write("plain", "a file where a folder should be");
  expect_unreadable(dir_ / "plain" / "inside", std::string("cannot open it: ") + std::strerror(ENOTDIR));
}

TEST_F(RegularFile, EveryOtherKindOfFileIsNamedAndNothingWaits) {
  expect_unreadable(dir_, "it is a folder, not a file");

  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  expect_unreadable(fifo, "it is a FIFO, not a regular file");  // returns: no writer awaited

  // `cat game.qpr | quadpool --replay /dev/stdin`: the path names a pipe.
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0) << std::strerror(errno);
  ASSERT_EQ(::write(ends[1], "QPREPLAY", 8), 8);
  expect_unreadable("/proc/self/fd/" + std::to_string(ends[0]), "it is a FIFO, not a regular file");
  char left[8];
  EXPECT_EQ(::read(ends[0], left, sizeof left), 8) << "the pipe's bytes were taken";
  ::close(ends[0]);
  ::close(ends[1]);

  const fs::path socket_path = dir_ / "socket";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0) << std::strerror(errno);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0)
      << std::strerror(errno);
  // Opening a socket fails (ENXIO); the type is still what the user is told.
  expect_unreadable(socket_path, "it is a socket, not a regular file");
  ::close(listener);

  expect_unreadable("/dev/null", "it is a character device, not a regular file");
}

}  // namespace
}  // namespace quadpool::game
