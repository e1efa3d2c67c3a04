#pragma once
/// Files written whole or not at all: the one writer for every file the program writes
/// (screenshots today; replays and high scores can use it too). Needs no display library.
///
/// A reader of `path` sees the old file or the new one, never a part of the new one: the bytes
/// go to a temporary file in the same folder, which is flushed to the disk (fsync) and closed,
/// each step checked, and only then renamed over `path`. A full disk, a file-size limit, a
/// folder that vanished: the temporary file is removed and `path` keeps its old contents.
///
///   folder/.shot.png.4242-9f3c...e1.tmp   written, fsync'ed, closed   -- any failure: removed
///          |  rename(2), atomic within one file system
///          v
///   folder/shot.png               old contents until this moment, new ones after
///
/// The temporary file's name holds the process id and 64 random bits, so no other write (a
/// process of the same id in another run, as in a container) can hold it. One that a killed
/// write left behind is removed by the next write in that folder once it is a minute old.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace quadpool::game::util {

/// Whether a write may replace a file that is already at its path.
enum class Existing {
  Replace,  ///< the file is replaced (rename(2))
  Keep,     ///< the file is kept and the write fails with kFileExists (renameat2 NOREPLACE)
};

/// What write_file_atomically(..., Existing::Keep) returns when a file is already there.
inline constexpr std::string_view kFileExists = "a file of that name exists";

/// Replaces the contents of `path` with `bytes` atomically, as drawn above (with
/// Existing::Keep, writes a new file only, never over an existing one). When `path` is a
/// symbolic link, the file it points to is replaced and the link kept; a link that points to
/// nothing is refused. A file that is replaced keeps its permission bits; a new file gets the
/// umask's. Returns an empty string on success, or the reason it failed (the step and the
/// system's words for the error), in which case `path` is as it was and no temporary file is
/// left. Does not refuse a read-only `path` whose folder can be written: that is the caller's
/// policy.
[[nodiscard]] std::string write_file_atomically(const std::string& path,
                                                std::span<const std::byte> bytes,
                                                Existing existing = Existing::Replace);

/// Checks now that write_file_atomically(path, ...) can create its file later, so that a bad
/// path fails before any work is done: it creates and removes the very temporary file the
/// write would create, checks that the name fits the folder's limit (NAME_MAX), and that an
/// existing file may be replaced by this user (the sticky-bit rule: in a folder such as /tmp,
/// only the file's owner, the folder's owner or root may rename over it). Returns
/// an empty string, or the reason. (A disk that fills up in between is still caught by the
/// write.)
[[nodiscard]] std::string check_file_can_be_written(const std::string& path);

}  // namespace quadpool::game::util
