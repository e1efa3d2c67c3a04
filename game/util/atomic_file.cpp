// The atomic file writer: the target (a link resolved), the temporary file's name, the write
// and its checks, the early check.
#include "game/util/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "game/util/shown_value.hpp"

namespace quadpool::game::util {

namespace {

// Where the bytes go and through which temporary file.
struct Plan {
  std::filesystem::path target;     // `path`, or the file a link at `path` points to
  std::filesystem::path temporary;  // in the target's folder
  long name_max = 255;              // the folder's longest name
  std::string error;                // non-empty: no plan
};

// A name no other write can have chosen: the process id and 64 random bits. The process id alone
// (with a counter) was not enough: in a container the game gets the same id every run, and the
// temporary file a killed write left behind then blocked every later save of that file.
std::string random_suffix() {
  std::uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
    // No entropy yet (early boot): the clock and a counter still differ between tries.
    static std::atomic<std::uint64_t> counter{0};
    bits = static_cast<std::uint64_t>(
               std::chrono::steady_clock::now().time_since_epoch().count()) *
               0x9E3779B97F4A7C15ull +
           counter.fetch_add(1);
  }
  return fmt::format(".{}-{:016x}.tmp", static_cast<long>(::getpid()), bits);
}

// ".NAME.PID-RANDOM.tmp" beside the target, hidden from a plain `ls`. NAME is cut so that the
// whole name fits the folder's limit: a long target name that fits must still be writable.
std::filesystem::path temporary_beside(const std::filesystem::path& target, long name_max) {
  const std::string suffix = random_suffix();
  const std::string name = target.filename().string();
  const std::size_t used = 1 + suffix.size();
  const std::size_t room =
      static_cast<std::size_t>(name_max) > used ? static_cast<std::size_t>(name_max) - used : 0;
  return target.parent_path() / fmt::format(".{}{}", name.substr(0, room), suffix);
}

// True for a name of the writer's own pattern, ".NAME.DIGITS-HEX.tmp" (the counter of older
// builds, "-N", is hexadecimal too): only such files are ever removed as stale.
bool is_temporary_name(std::string_view name) {
  constexpr std::string_view kEnd = ".tmp";
  if (name.size() < 1 + kEnd.size() || name.front() != '.' || !name.ends_with(kEnd)) return false;
  const std::string_view inner = name.substr(1, name.size() - 1 - kEnd.size());
  const std::size_t dot = inner.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  const std::string_view tag = inner.substr(dot + 1);
  const std::size_t dash = tag.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == tag.size()) return false;
  const auto all_of = [](std::string_view text, std::string_view allowed) {
    return text.find_first_not_of(allowed) == std::string_view::npos;
  };
  return all_of(tag.substr(0, dash), "0123456789") &&
         all_of(tag.substr(dash + 1), "0123456789abcdef");
}

// A write that was killed (SIGKILL, a power cut) leaves its temporary file behind; the next
// write in the folder removes those of the writer's pattern not written to for over a minute.
// (A write in progress touches its file with every write(2); best effort: a file that cannot be
// removed stays.)
void remove_stale_temporaries(const std::filesystem::path& folder) {
  constexpr std::time_t kStaleSeconds = 60;
  DIR* listing = ::opendir(folder.c_str());
  if (listing == nullptr) return;
  const std::time_t now = std::time(nullptr);
  while (const dirent* entry = ::readdir(listing)) {
    if (!is_temporary_name(entry->d_name)) continue;
    struct stat status {};
    if (::fstatat(::dirfd(listing), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(status.st_mode) && status.st_mtime + kStaleSeconds < now) {
      (void)::unlinkat(::dirfd(listing), entry->d_name, 0);
    }
  }
  (void)::closedir(listing);
}

std::filesystem::path folder_of(const std::filesystem::path& file) {
  std::filesystem::path folder = file.parent_path();
  return folder.empty() ? "." : folder;
}

// The sticky-bit rule (unlink(2), rename(2)): in a folder with the sticky bit (/tmp), only the
// file's owner, the folder's owner or root may replace a file. Writing into the file is not
// enough to finish: the rename would fail after all the work. Empty when it may be replaced.
std::string sticky_refusal(const std::filesystem::path& target) {
  struct stat file {};
  struct stat folder {};
  if (::stat(target.c_str(), &file) != 0 || ::stat(folder_of(target).c_str(), &folder) != 0) {
    return {};
  }
  const uid_t user = ::geteuid();
  if ((folder.st_mode & S_ISVTX) == 0 || user == 0 || user == file.st_uid ||
      user == folder.st_uid) {
    return {};
  }
  return "it belongs to another user in a sticky folder, where only its owner may replace it";
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
  const std::filesystem::path folder = folder_of(plan.target);
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
  plan.name_max = name_max;
  return plan;
}

// Creates the plan's temporary file (never an existing one: a name taken, against 2^-64 odds, is
// drawn again); -1 with `error` set on failure.
int create_temporary(Plan& plan, std::string& error) {
  int fd = -1;
  for (int attempt = 0; attempt < 4; ++attempt) {
    fd = ::open(plan.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) break;
    plan.temporary = temporary_beside(plan.target, plan.name_max);
  }
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
  const int fd = ::open(folder_of(file).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

// Puts the finished temporary file in place: over the target, or only where nothing is.
int put_in_place(const Plan& plan, Existing existing) {
  if (existing == Existing::Replace) return ::rename(plan.temporary.c_str(), plan.target.c_str());
  if (::renameat2(AT_FDCWD, plan.temporary.c_str(), AT_FDCWD, plan.target.c_str(),
                  RENAME_NOREPLACE) == 0) {
    return 0;
  }
  if (errno != EINVAL && errno != ENOSYS) return -1;
  // A file system without RENAME_NOREPLACE: link(2) refuses an existing name as well.
  if (::link(plan.temporary.c_str(), plan.target.c_str()) != 0) return -1;
  (void)::unlink(plan.temporary.c_str());
  return 0;
}

}  // namespace

std::string write_file_atomically(const std::string& path, std::span<const std::byte> bytes,
                                  Existing existing) {
  Plan plan = plan_for(path);
  if (!plan.error.empty()) return plan.error;
  remove_stale_temporaries(folder_of(plan.target));
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
  if (error.empty() && put_in_place(plan, existing) != 0) {
    error = existing == Existing::Keep && errno == EEXIST
                ? std::string(kFileExists)
                : fmt::format("cannot rename the finished file over it: {}", system_words(errno));
  }
  if (!error.empty()) {
    (void)::unlink(plan.temporary.c_str());
    return error;
  }
  sync_folder(plan.target);
  return {};
}

std::string check_file_can_be_written(const std::string& path) {
  Plan plan = plan_for(path);
  if (!plan.error.empty()) return plan.error;
  if (std::string refusal = sticky_refusal(plan.target); !refusal.empty()) return refusal;
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
