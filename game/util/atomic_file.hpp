#pragma once
/// Files written whole or not at all: the one writer for every file the program writes
/// (screenshots today; replays and high scores can use it too). Needs no display library.
///
/// A reader of `path` sees the old file or the new one, never a part of the new one: the bytes
/// go to a temporary file in the same folder, which is flushed to the disk (fsync) and closed,
/// each step checked, and only then renamed over `path`. A full disk, a file-size limit, a
/// folder that vanished: the temporary file is removed and `path` keeps its old contents.
///
///   folder/.shot.png.4242-0.tmp   written, fsync'ed, closed   -- any failure: removed
///          |  rename(2), atomic within one file system
///          v
///   folder/shot.png               old contents until this moment, new ones after

#include <cstddef>
#include <span>
#include <string>

namespace quadpool::game::util {

/// Replaces the contents of `path` with `bytes` atomically, as drawn above. When `path` is a
/// symbolic link, the file it points to is replaced and the link kept; a link that points to
/// nothing is refused. A file that is replaced keeps its permission bits; a new file gets the
/// umask's. Returns an empty string on success, or the reason it failed (the step and the
/// system's words for the error), in which case `path` is as it was and no temporary file is
/// left. Does not refuse a read-only `path` whose folder can be written: that is the caller's
/// policy.
[[nodiscard]] std::string write_file_atomically(const std::string& path,
                                                std::span<const std::byte> bytes);

/// Checks now that write_file_atomically(path, ...) can create its file later, so that a bad
/// path fails before any work is done: it creates and removes the very temporary file the
/// write would create, and checks that the name fits the folder's limit (NAME_MAX). Returns
/// an empty string, or the reason. (A disk that fills up in between is still caught by the
/// write.)
[[nodiscard]] std::string check_file_can_be_written(const std::string& path);

}  // namespace quadpool::game::util
