// The careful read of a whole regular file: open without blocking, check the type and the size
// on the open file, then read to the end under the cap.
#include "game/util/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <utility>

#include "engine/core/assert.hpp"
#include "game/util/shown_value.hpp"

namespace quadpool::game::util {

namespace {

// What a file that is not a regular file is, in the words of someone who named it by mistake.
std::string type_problem(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a folder, not a file";
  if (S_ISFIFO(mode)) return "it is a FIFO, not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  if (S_ISCHR(mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(mode)) return "it is a block device, not a regular file";
  return "it is not a regular file";
}

// Reads to the end of the file into `read.bytes`, which starts one byte longer than the size
// fstat gave: filling that byte means the file grew (or reports no size, as /proc's files do),
// so the buffer grows, up to one byte past the cap, which tells an oversized file.
void read_to_end(int fd, std::uint64_t reported, std::uint64_t max_bytes, RegularFileRead& read) {
  constexpr std::uint64_t kSmallestGrowth = 4096;
  std::string& bytes = read.bytes;
  bytes.resize(static_cast<std::size_t>(std::min(reported, max_bytes) + 1));
  std::size_t got = 0;
  for (;;) {
    if (got == bytes.size()) {
      if (got > max_bytes) {
        read.outcome = RegularFileRead::Outcome::Oversized;
        read.size = got;
        bytes.clear();
        return;
      }
      const std::uint64_t grown = std::max<std::uint64_t>(2 * std::uint64_t{got}, kSmallestGrowth);
      bytes.resize(static_cast<std::size_t>(std::min(grown, max_bytes + 1)));
    }
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      read.outcome = RegularFileRead::Outcome::Unreadable;
      read.problem = "read failed: " + system_words(errno);
      bytes.clear();
      return;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
}

}  // namespace

OpenedRegularFile::~OpenedRegularFile() {
  if (fd_ >= 0) (void)::close(fd_);
}

OpenedRegularFile::OpenedRegularFile(OpenedRegularFile&& other) noexcept
    : outcome(other.outcome),
      size(other.size),
      problem(std::move(other.problem)),
      fd_(std::exchange(other.fd_, -1)) {}

OpenedRegularFile open_regular_file(const std::string& path, std::uint64_t max_bytes) {
  OpenedRegularFile opened;
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer. O_NOCTTY: a terminal
  // named by mistake must not become the controlling one.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int error = errno;
    opened.outcome = error == ENOENT ? RegularFileRead::Outcome::Missing
                                     : RegularFileRead::Outcome::Unreadable;
    // A socket, or a device without a driver, cannot be opened at all (ENXIO, "No such device
    // or address"): what it is tells the user more.
    struct stat status {};
    opened.problem = error == ENXIO && ::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)
                         ? type_problem(status.st_mode)
                         : "cannot open it: " + system_words(error);
    return opened;
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    opened.outcome = RegularFileRead::Outcome::Unreadable;
    opened.problem = "cannot inspect it: " + system_words(errno);
  } else if (!S_ISREG(status.st_mode)) {
    opened.outcome = RegularFileRead::Outcome::Unreadable;
    opened.problem = type_problem(status.st_mode);
  } else {
    opened.size = static_cast<std::uint64_t>(status.st_size);
    if (opened.size > max_bytes) opened.outcome = RegularFileRead::Outcome::Oversized;
  }
  if (opened.outcome == RegularFileRead::Outcome::Read) {
    opened.fd_ = fd;
  } else {
    (void)::close(fd);
  }
  return opened;
}

RegularFileRead read_regular_file(const std::string& path, std::uint64_t max_bytes) {
  QUADPOOL_ASSERT(max_bytes < SIZE_MAX, "read_regular_file: the cap must leave room for one more byte");
  RegularFileRead read;
  const OpenedRegularFile opened = open_regular_file(path, max_bytes);
  read.outcome = opened.outcome;
  read.problem = opened.problem;
  if (opened.outcome == RegularFileRead::Outcome::Oversized) read.size = opened.size;
  if (opened.fd() >= 0) read_to_end(opened.fd(), opened.size, max_bytes, read);
  return read;
}

}  // namespace quadpool::game::util
