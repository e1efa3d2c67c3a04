#pragma once
// Running part of a test in a forked child, so that it may change what a test process must not:
// its resource limits, its signal dispositions, its mounts. CI runs the tests as root, where
// permissions stop nothing; a file-size limit, a full tmpfs or a read-only mount still do.

#include <filesystem>
#include <functional>
#include <string>

namespace quadpool::test {

/// Runs `body` in a forked child and returns the text it returned (through a pipe). An empty
/// string when the child died instead of returning. The child leaves with _exit: no atexit
/// handlers, no gtest teardown.
std::string in_child(const std::function<std::string()>& body);

/// In the calling (child) process: enters a private mount namespace and mounts a tmpfs of
/// `size` (for example "64k") on `folder`, which must exist. Returns "" on success, or
/// "skip: ..." with the reason when the system does not allow it (no privileges, a container
/// without CAP_SYS_ADMIN): the caller's test then skips, saying why.
std::string mount_private_tmpfs(const std::filesystem::path& folder, const char* size);

/// In a child after mount_private_tmpfs: makes that tmpfs read-only (EROFS for everyone, root
/// included). Returns "" or the reason it failed.
std::string remount_read_only(const std::filesystem::path& folder);

}  // namespace quadpool::test
