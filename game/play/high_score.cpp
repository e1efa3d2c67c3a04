// The high score file: where it lives, its text, the careful read, the folders, the save.
#include "game/play/high_score.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/core/log.hpp"
#include "game/util/atomic_file.hpp"
#include "game/util/decimal.hpp"
#include "game/util/regular_file.hpp"
#include "game/util/shown_value.hpp"

namespace quadpool::game::play {

namespace {

using util::shown_path;

// An environment variable that names a folder: set, non-empty and absolute.
const char* absolute_folder_from(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && value[0] == '/' ? value : nullptr;
}

// Why neither variable gives a data folder. A relative value is named: a user who set HOME to
// one (HOME=relative quadpool) otherwise learns only that there is no folder, not why.
std::string no_data_folder_reason() {
  std::vector<std::string> clauses;
  bool relative = false;
  for (const char* variable : {"XDG_DATA_HOME", "HOME"}) {
    const char* value = std::getenv(variable);
    if (absolute_folder_from(variable) != nullptr) {
      return "none given";  // the caller chose memory only, whatever the environment says
    }
    if (value == nullptr) {
      clauses.push_back(fmt::format("{} is not set", variable));
    } else if (value[0] == '\0') {
      clauses.push_back(fmt::format("{} is empty", variable));
    } else {
      relative = true;
      clauses.push_back(
          fmt::format("{} is '{}', not an absolute path", variable, util::shown_value(value)));
    }
  }
  if (!relative) return "XDG_DATA_HOME and HOME give none";
  return fmt::format("{}, and {}", clauses[0], clauses[1]);
}

std::string oversized(std::uint64_t bytes) {
  return fmt::format("oversized: {} bytes, a high score file holds at most {}", bytes,
                     kMaxHighScoreFileBytes);
}

// Creates the missing folders above `path`, outermost first, each with mode 0700 (the XDG
// spec's choice for a data folder; folders that exist are left as they are). Something that is
// not a folder where one should be (XDG_DATA_HOME naming a file) is named as such.
std::string create_folders_for(const std::string& path) {
  std::vector<std::filesystem::path> missing;
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  struct stat status {};
  while (!folder.empty() && folder != folder.parent_path() && ::stat(folder.c_str(), &status) != 0 &&
         (errno == ENOENT || errno == ENOTDIR)) {
    missing.push_back(folder);
    folder = folder.parent_path();
  }
  if (!missing.empty() && !folder.empty() && ::stat(folder.c_str(), &status) == 0 &&
      !S_ISDIR(status.st_mode)) {
    return fmt::format("cannot create the folder {}: '{}' is {}, not a folder ({})",
                       shown_path(missing.back().string()), shown_path(folder.string()),
                       S_ISREG(status.st_mode) ? "a file" : "something else",
                       util::system_words(ENOTDIR));
  }
  for (auto outer = missing.rbegin(); outer != missing.rend(); ++outer) {
    if (::mkdir(outer->c_str(), 0700) != 0 && errno != EEXIST) {
      return fmt::format("cannot create the folder {}: {}", shown_path(outer->string()),
                         util::system_words(errno));
    }
  }
  return {};
}

// Holds an exclusive flock(2) on a folder while it lives: the saves of games that run side by
// side take turns. The folder itself is locked, not a lock file in it, so that a save leaves
// nothing but the score file behind and still works in a folder that has become read-only
// (where the write then says why it failed). A file system without flock (ENOLCK on some NFS
// set-ups) saves unlocked, as every build before this one did.
class FolderLock {
 public:
  explicit FolderLock(const std::string& file) {
    std::filesystem::path folder = std::filesystem::path(file).parent_path();
    if (folder.empty()) folder = ".";
    fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~FolderLock() {
    if (fd_ >= 0) (void)::close(fd_);  // releases the lock
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

std::string default_high_score_path() {
  if (const char* data_home = absolute_folder_from("XDG_DATA_HOME")) {
    return (std::filesystem::path(data_home) / "quadpool" / "high_score").string();
  }
  if (const char* home = absolute_folder_from("HOME")) {
    return (std::filesystem::path(home) / ".local" / "share" / "quadpool" / "high_score").string();
  }
  return {};
}

std::string high_score_file_text(std::uint64_t score) {
  return fmt::format("{} {}\n{}\n", kHighScoreMagic, kHighScoreFormatVersion, score);
}

ParsedHighScore parse_high_score(std::string_view text) {
  ParsedHighScore parsed;
  auto fail = [&parsed](std::string problem) {
    parsed.problem = std::move(problem);
    return parsed;
  };
  if (text.empty()) return fail("empty");
  const std::string_view magic = kHighScoreMagic;
  const std::size_t first_end = text.find('\n');
  const std::string_view first = text.substr(0, first_end);
  if (first.substr(0, magic.size() + 1) != fmt::format("{} ", magic)) {
    return fail(fmt::format("foreign: it does not begin with '{}'", magic));
  }
  const std::string_view version_text = first.substr(magic.size() + 1);
  const std::optional<std::uint64_t> version = util::parse_decimal(version_text);
  if (!version) {
    return fail(fmt::format("damaged: the format version '{}' is not a number",
                            util::shown_value(version_text)));
  }
  if (*version != kHighScoreFormatVersion) {
    return fail(fmt::format("foreign: format version {}, this build reads version {}", *version,
                            kHighScoreFormatVersion));
  }
  if (first_end == std::string_view::npos) return fail("damaged: truncated after the first line");
  const std::string_view rest = text.substr(first_end + 1);
  const std::size_t score_end = rest.find('\n');
  if (score_end == std::string_view::npos) {
    return fail(rest.empty() ? "damaged: the score line is missing"
                             : "damaged: the score line does not end with a newline (truncated)");
  }
  const std::string_view score_text = rest.substr(0, score_end);
  const std::optional<std::uint64_t> score = util::parse_decimal(score_text);
  if (!score) {
    return fail(fmt::format("damaged: the score '{}' is not a whole number in 0..{}",
                            util::shown_value(score_text), UINT64_MAX));
  }
  if (const std::size_t extra = rest.size() - score_end - 1; extra != 0) {
    return fail(fmt::format("damaged: {} unexpected byte(s) after the score line", extra));
  }
  parsed.score = *score;
  return parsed;
}

HighScoreFile::HighScoreFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) {
    log_message(LogLevel::Info,
                fmt::format("no data folder ({}): the high score is kept in memory only",
                            no_data_folder_reason()));
    return;
  }
  const util::RegularFileRead read = util::read_regular_file(path_, kMaxHighScoreFileBytes);
  if (read.outcome == util::RegularFileRead::Outcome::Missing) {
    log_message(LogLevel::Debug, fmt::format("no high score file at {} yet: the best score is 0",
                                             shown_path(path_)));
    return;
  }
  ParsedHighScore parsed;
  switch (read.outcome) {
    case util::RegularFileRead::Outcome::Read:
      parsed = parse_high_score(read.bytes);
      break;
    case util::RegularFileRead::Outcome::Oversized:
      parsed.problem = oversized(read.size);
      break;
    case util::RegularFileRead::Outcome::Missing:
    case util::RegularFileRead::Outcome::Unreadable:
      parsed.problem = "unreadable: " + read.problem;
      break;
  }
  load_problem_ = parsed.problem;
  if (!load_problem_.empty()) {
    log_message(LogLevel::Warning,
                fmt::format("high score file {} ignored: {}", shown_path(path_), load_problem_));
    return;
  }
  best_ = parsed.score;
}

std::uint64_t HighScoreFile::best() const noexcept {
  return best_;
}

const std::string& HighScoreFile::path() const noexcept {
  return path_;
}

const std::string& HighScoreFile::load_problem() const noexcept {
  return load_problem_;
}

std::string HighScoreFile::submit(std::uint64_t score) {
  if (score <= best_) return {};
  best_ = score;
  if (path_.empty()) return {};
  std::string error = create_folders_for(path_);
  if (error.empty()) {
    // Another game may have saved a better score since this one read the file at start-up:
    // read it again under the lock, and write only a higher score.
    const FolderLock lock(path_);
    const util::RegularFileRead now = util::read_regular_file(path_, kMaxHighScoreFileBytes);
    const bool damaged = now.outcome == util::RegularFileRead::Outcome::Oversized ||
                         (now.outcome == util::RegularFileRead::Outcome::Read &&
                          !parse_high_score(now.bytes).problem.empty());
    if (now.outcome == util::RegularFileRead::Outcome::Read && !damaged) {
      const std::uint64_t saved = parse_high_score(now.bytes).score;
      if (saved >= score) {
        best_ = saved;
        return {};
      }
    }
    // A file that cannot be read may still hold a score (a permission changed, a folder put in
    // its place): it is not ours to replace. A damaged one holds none.
    if (now.outcome == util::RegularFileRead::Outcome::Unreadable) {
      error = fmt::format("it could not be read ({}), so it is left as it is", now.problem);
    } else {
      const std::string text = high_score_file_text(score);
      error =
          util::write_file_atomically(path_, std::as_bytes(std::span(text.data(), text.size())));
    }
  }
  if (error.empty()) return {};
  std::string line = fmt::format("high score not saved: {}: {}", shown_path(path_), error);
  log_message(LogLevel::Warning, line);
  return line;
}

}  // namespace quadpool::game::play
