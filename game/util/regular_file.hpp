#pragma once
/// The one careful read of a whole file that a user names or that the program keeps (the high
/// score, a replay): a regular file of at most a given size, read whole, or the reason it is
/// not. Opening never blocks (a FIFO waits for no writer) and never takes a terminal; a folder,
/// a FIFO, a socket or a device is refused before a byte is read, and so is a file over the cap,
/// before anything is allocated for it. Needs no display library.

#include <cstdint>
#include <string>

namespace quadpool::game::util {

/// What read_regular_file() found at a path.
struct RegularFileRead {
  enum class Outcome {
    Read,        ///< `bytes` holds the whole file
    Missing,     ///< nothing at the path (ENOENT)
    Unreadable,  ///< not a regular file, no permission, a parent that is not a folder, ...
    Oversized,   ///< larger than the cap
  };
  Outcome outcome = Outcome::Read;
  std::string bytes;
  /// Oversized: the size seen, more than the cap (the file may have grown while it was read).
  std::uint64_t size = 0;
  /// Missing or Unreadable: the reason as a phrase about the file, for example "it is a folder,
  /// not a file", "it is a FIFO, not a regular file" or "cannot open it: Permission denied".
  /// Empty when Read or Oversized (the caller says what its cap is for).
  std::string problem;
};

/// A regular file opened by open_regular_file(), for a caller that reads it in parts (a replay,
/// decoded as it is read). Owns the descriptor: closed on destruction.
class OpenedRegularFile {
 public:
  OpenedRegularFile() = default;
  ~OpenedRegularFile();
  OpenedRegularFile(OpenedRegularFile&& other) noexcept;
  OpenedRegularFile& operator=(OpenedRegularFile&&) = delete;
  OpenedRegularFile(const OpenedRegularFile&) = delete;
  OpenedRegularFile& operator=(const OpenedRegularFile&) = delete;

  /// Read: the file is open (fd() valid) and `size` is what fstat reported, at most the cap.
  /// Otherwise fd() is -1 and `outcome`, `size` and `problem` say why, as in RegularFileRead.
  RegularFileRead::Outcome outcome = RegularFileRead::Outcome::Read;
  std::uint64_t size = 0;
  std::string problem;
  int fd() const noexcept { return fd_; }

 private:
  friend OpenedRegularFile open_regular_file(const std::string& path, std::uint64_t max_bytes);
  int fd_ = -1;
};

/// Opens `path` as read_regular_file() does (never blocking, never taking a terminal) and checks
/// on the open file that it is a regular file of at most `max_bytes` bytes, reading nothing.
/// A file that reports size 0 (those in /proc) may hold more: read it to its end.
OpenedRegularFile open_regular_file(const std::string& path, std::uint64_t max_bytes);

/// Reads all of the regular file at `path` if it holds at most `max_bytes` bytes. Opens with
/// O_NONBLOCK | O_NOCTTY | O_CLOEXEC, checks the type and the size with fstat on the open file,
/// then reads until the end, so a file whose reported size is 0 (those in /proc) is read whole
/// and one that grows past the cap while it is read is Oversized. Allocates the size the file
/// reports plus one byte (more only for a file that grows, or reports no size), never more than
/// `max_bytes + 1`. Never throws for anything the file is or holds (std::bad_alloc only when
/// the memory for a file within the cap is missing).
RegularFileRead read_regular_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace quadpool::game::util
