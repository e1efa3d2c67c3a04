// The atomic file writer: the target (a link resolved), the temporary file's name, the write
// and its checks, the early check.
#include "game/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "game/util/shown_value.hpp"

namespace quadpool::game::util {

namespace {

// Where the bytes go and through which temporary file.
struct Plan {
  std::filesystem::path target;     // `path`, or the file a link at `path` points to
  std::filesystem::path temporary;  // in the target's folder
  std::string error;                // non-empty: no plan
};

// Distinct names within one process; the process id keeps processes apart, and O_EXCL catches
// a leftover of a process that had the same id.
std::atomic<unsigned> next_temporary{0};

// ".NAME.PID-N.tmp" beside the target, hidden from a plain `ls`. NAME is cut so that the
// whole name fits the folder's limit: a long target name that fits must still be writable.
std::filesystem::path temporary_beside(const std::filesystem::path& target, long name_max) {
  const std::string suffix =
      fmt::format(".{}-{}.tmp", static_cast<long>(::getpid()), next_temporary.fetch_add(1));
  const std::string name = target.filename().string();
  const std::size_t used = 1 + suffix.size();
  const std::size_t room =
      static_cast<std::size_t>(name_max) > used ? static_cast<std::size_t>(name_max) - used : 0;
  return target.parent_path() / fmt::format(".{}{}", name.substr(0, room), suffix);
}

Plan plan_for(const std::string& path) {
  Plan plan;
  std::error_code error;
  plan.target = path;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, error))) {
    plan.target = std::filesystem::canonical(path, error);
    if (error) {
      std::error_code ignored;
      plan.error = fmt::format("it is a symbolic link to '{}', which does not exist",
                               std::filesystem::read_symlink(path, ignored).string());
      return plan;
    }
  }
  if (plan.target.filename().empty()) {
    plan.error = "it names a folder, not a file";
    return plan;
  }
  std::filesystem::path folder = plan.target.parent_path();
  if (folder.empty()) folder = ".";
  plan.target = folder / plan.target.filename();
  errno = 0;
  long name_max = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  if (name_max < 0 && errno != 0) {
    plan.error = fmt::format("cannot use its folder: {}", system_words(errno));
    return plan;
  }
  if (name_max < 0 || name_max > 4096) name_max = 255;  // no limit reported: the usual one
  const std::size_t length = plan.target.filename().string().size();
  if (length > static_cast<std::size_t>(name_max)) {
    plan.error = fmt::format("the file name is {} bytes long; the folder allows at most {}", length,
                             name_max);
    return plan;
  }
  plan.temporary = temporary_beside(plan.target, name_max);
  return plan;
}

// Creates the plan's temporary file (never an existing one); -1 with `error` set on failure.
int create_temporary(const Plan& plan, std::string& error) {
  const int fd = ::open(plan.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = fmt::format("cannot create a file in its folder: {}", system_words(errno));
  }
  return fd;
}

// Writes all of `bytes` (write(2) may take fewer at a time), then flushes them to the disk.
std::string write_and_sync(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    // 0 bytes for a non-empty write: no room, and no errno to say so.
    if (written <= 0)
      return fmt::format("write failed: {}", system_words(written < 0 ? errno : ENOSPC));
    bytes = bytes.subspan(static_cast<std::size_t>(written));
  }
  if (::fsync(fd) != 0) return fmt::format("flushing to the disk failed: {}", system_words(errno));
  return {};
}

// The rename is on the disk once the folder is: best effort, since some file systems cannot
// sync a folder, and the new contents are already in place by now.
void sync_folder(const std::filesystem::path& file) {
  std::filesystem::path folder = file.parent_path();
  if (folder.empty()) folder = ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

}  // namespace

std::string write_file_atomically(const std::string& path, std::span<const std::byte> bytes) {
  const Plan plan = plan_for(path);
  if (!plan.error.empty()) return plan.error;
  std::string error;
  const int fd = create_temporary(plan, error);
  if (fd < 0) return error;
  // A replaced file keeps its permissions (a new one gets the umask's, as with fopen).
  struct stat old_file {};
  if (::stat(plan.target.c_str(), &old_file) == 0 && S_ISREG(old_file.st_mode)) {
    (void)::fchmod(fd, old_file.st_mode & 07777);
  }
  error = write_and_sync(fd, bytes);
  // close(2) can report a failed write-back (NFS, quotas) that the writes did not.
  if (::close(fd) != 0 && error.empty()) {
    error = fmt::format("closing the file failed: {}", system_words(errno));
  }
  if (error.empty() && ::rename(plan.temporary.c_str(), plan.target.c_str()) != 0) {
    error = fmt::format("cannot rename the finished file over it: {}", system_words(errno));
  }
  if (!error.empty()) {
    (void)::unlink(plan.temporary.c_str());
    return error;
  }
  sync_folder(plan.target);
  return {};
}

std::string check_file_can_be_written(const std::string& path) {
  const Plan plan = plan_for(path);
  if (!plan.error.empty()) return plan.error;
  std::string error;
  const int fd = create_temporary(plan, error);
  if (fd < 0) return error;
  (void)::close(fd);
  if (::unlink(plan.temporary.c_str()) != 0) {
    return fmt::format("cannot remove a test file from its folder: {}", system_words(errno));
  }
  return {};
}

}  // namespace quadpool::game::util
