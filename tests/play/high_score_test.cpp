// Tests of game/high_score.*: where the file lives (XDG_DATA_HOME, HOME, neither), the text and
// its strict reading, a missing file (0, no warning), every kind of bad file (0 and exactly one
// warning), and the save: nothing written for a lower score, a higher one read back, and a
// failed save (file-size limit, full disk, read-only folder) that keeps the old file and says
// why. CI runs as root, where permissions stop nothing: the root-proof failures come from a
// forked child (RLIMIT_FSIZE, a full or read-only tmpfs in a private mount namespace) and from
// paths no one can use (a folder, a FIFO, a regular file where a folder should be).
#include "game/play/high_score.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/log.hpp"
#include "tests/helpers/forked_child.hpp"
#include "tests/helpers/scratch_folder.hpp"

namespace quadpool::game {
namespace {

namespace fs = std::filesystem;

std::vector<std::pair<LogLevel, std::string>>& logged() {
  static std::vector<std::pair<LogLevel, std::string>> lines;
  return lines;
}

void record(LogLevel level, std::string_view message) {
  logged().emplace_back(level, message);
}

std::vector<std::string> logged_at(LogLevel level) {
  std::vector<std::string> lines;
  for (const auto& [at, line] : logged()) {
    if (at == level) lines.push_back(line);
  }
  return lines;
}

void write_file(const fs::path& file, std::string_view bytes) {
  std::ofstream(file, std::ios::binary) << bytes;
}

// A scratch folder, the log captured, and XDG_DATA_HOME and HOME put back after the test.
class HighScore : public ::testing::Test {
 protected:
  void SetUp() override {
    logged().clear();
    previous_handler_ = set_log_handler(&record);
    for (const char* name : {"XDG_DATA_HOME", "HOME"}) {
      const char* value = std::getenv(name);
      saved_.emplace_back(name,
                          value != nullptr ? std::optional<std::string>(value) : std::nullopt);
    }
  }
  void TearDown() override {
    set_log_handler(previous_handler_);
    for (const auto& [name, value] : saved_) set_environment(name.c_str(), value);
  }
  static void set_environment(const char* name, const std::optional<std::string>& value) {
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }

  test::ScratchFolder scratch_{"high_score_test"};
  const fs::path dir_ = scratch_.path();
  const fs::path file_ = dir_ / "high_score";

 private:
  LogHandler previous_handler_ = nullptr;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(HighScore, TheDefaultPathFollowsXdgDataHomeWhenAbsoluteElseHomeElseNone) {
  struct Case {
    std::optional<std::string> xdg_data_home, home;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"/data/me", "/home/me", "/data/me/quadpool/high_score"},
      {"/data/me/", "/home/me", "/data/me/quadpool/high_score"},
      {"relative/data", "/home/me", "/home/me/.local/share/quadpool/high_score"},
      {"", "/home/me", "/home/me/.local/share/quadpool/high_score"},
      {std::nullopt, "/home/me", "/home/me/.local/share/quadpool/high_score"},
      {"/data/me", std::nullopt, "/data/me/quadpool/high_score"},
      {std::nullopt, std::nullopt, ""},
      {"", "", ""},
      {"relative/data", "relative/home", ""},
  };
  for (const Case& c : cases) {
    set_environment("XDG_DATA_HOME", c.xdg_data_home);
    set_environment("HOME", c.home);
    SCOPED_TRACE("XDG_DATA_HOME=" + c.xdg_data_home.value_or("(unset)") +
                 " HOME=" + c.home.value_or("(unset)"));
    EXPECT_EQ(play::default_high_score_path(), c.expected);
  }
}

// The same one info line as for no HOME at all, naming a relative value: HOME=relative once
// kept the score in memory with a line that blamed neither variable's value.
TEST_F(HighScore, WithoutADataFolderOneInfoLineSaysWhichVariableIsRelative) {
  struct Case {
    std::optional<std::string> xdg_data_home, home;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {std::nullopt, std::nullopt, "XDG_DATA_HOME and HOME give none"},
      {"", "", "XDG_DATA_HOME and HOME give none"},
      {std::nullopt, "relative/home",
       "XDG_DATA_HOME is not set, and HOME is 'relative/home', not an absolute path"},
      {"", "relative", "XDG_DATA_HOME is empty, and HOME is 'relative', not an absolute path"},
      {"relative/data", std::nullopt,
       "XDG_DATA_HOME is 'relative/data', not an absolute path, and HOME is not set"},
      {"data", "home\n",
       "XDG_DATA_HOME is 'data', not an absolute path, and HOME is 'home\\n', not an absolute "
       "path"},
  };
  for (const Case& c : cases) {
    set_environment("XDG_DATA_HOME", c.xdg_data_home);
    set_environment("HOME", c.home);
    SCOPED_TRACE("XDG_DATA_HOME=" + c.xdg_data_home.value_or("(unset)") +
                 " HOME=" + c.home.value_or("(unset)"));
    logged().clear();
    play::HighScoreFile high_score(play::default_high_score_path());
    EXPECT_EQ(high_score.path(), "");
    EXPECT_EQ(logged_at(LogLevel::Info),
              std::vector<std::string>{"no data folder (" + c.reason +
                                       "): the high score is kept in memory only"});
    EXPECT_EQ(logged().size(), 1u) << "more than the one line";
    EXPECT_EQ(high_score.submit(7), "");
    EXPECT_EQ(high_score.best(), 7u);
  }
  // A caller that passes no path while HOME gives a folder chose memory only.
  set_environment("XDG_DATA_HOME", std::nullopt);
  set_environment("HOME", "/home/me");
  logged().clear();
  const play::HighScoreFile chosen("");
  EXPECT_EQ(logged_at(LogLevel::Info),
            std::vector<std::string>{
                "no data folder (none given): the high score is kept in memory only"});
}

TEST_F(HighScore, TheTextRoundTripsEveryScoreAndEveryProperPrefixIsRefused) {
  const unsigned seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  std::mt19937_64 random(seed);
  std::vector<std::uint64_t> scores = {0, 1, 9, 10, UINT64_MAX - 1, UINT64_MAX};
  for (int i = 0; i < 200; ++i) scores.push_back(random() >> (random() % 64));
  for (const std::uint64_t score : scores) {
    const std::string text = play::high_score_file_text(score);
    ASSERT_LE(text.size(), 43u);
    const play::ParsedHighScore parsed = play::parse_high_score(text);
    ASSERT_EQ(parsed.problem, "") << text;
    ASSERT_EQ(parsed.score, score);
    for (std::size_t length = 0; length < text.size(); ++length) {
      ASSERT_NE(play::parse_high_score(text.substr(0, length)).problem, "") << "prefix " << length;
    }
  }
  EXPECT_EQ(play::high_score_file_text(12345), "quadpool high score 1\n12345\n");
}

TEST_F(HighScore, AMissingFileIsAFirstGameWithoutAWarning) {
  const play::HighScoreFile high_score(file_.string());
  EXPECT_EQ(high_score.best(), 0u);
  EXPECT_EQ(high_score.load_problem(), "");
  EXPECT_EQ(high_score.path(), file_.string());
  EXPECT_TRUE(logged_at(LogLevel::Warning).empty());
  ASSERT_EQ(logged_at(LogLevel::Debug).size(), 1u);
  EXPECT_NE(logged_at(LogLevel::Debug)[0].find(file_.string()), std::string::npos);
  EXPECT_TRUE(test::names_in(dir_).empty()) << "reading created a file";
}

TEST_F(HighScore, AGoodFileIsReadWithoutAWarning) {
  write_file(file_, "quadpool high score 1\n0042\n");
  const play::HighScoreFile high_score(file_.string());
  EXPECT_EQ(high_score.best(), 42u);
  EXPECT_EQ(high_score.load_problem(), "");
  EXPECT_TRUE(logged_at(LogLevel::Warning).empty());
}

// Loads `file_` and checks the outcome of a file that must be ignored: 0, the problem starting
// with `problem`, exactly one warning naming the file and the problem, a regular file left as
// it was (only a regular one is read back: opening a FIFO here would wait for a writer).
void expect_ignored(const fs::path& file, const std::string& problem) {
  std::error_code ignored;
  const bool regular = fs::is_regular_file(file, ignored);
  const std::string before = regular ? test::contents(file) : "";
  logged().clear();
  const play::HighScoreFile high_score(file.string());
  EXPECT_EQ(high_score.best(), 0u);
  EXPECT_EQ(high_score.load_problem().rfind(problem, 0), 0u)
      << "'" << high_score.load_problem() << "' does not start with '" << problem << "'";
  const std::vector<std::string> warnings = logged_at(LogLevel::Warning);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(logged().size(), 1u) << "more than the one line";
  EXPECT_EQ(warnings[0],
            "high score file " + file.string() + " ignored: " + high_score.load_problem());
  if (regular) {
    EXPECT_EQ(test::contents(file), before) << "loading changed the file";
  }
}

TEST_F(HighScore, EveryKindOfDamagedFileIsIgnoredWithExactlyOneWarning) {
  const std::string head = "quadpool high score 1\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"junk\n", "foreign: it does not begin with 'quadpool high score'"},
      {"\x89PNG\r\n\x1a\n", "foreign"},
      {"quadpool high score\n5\n", "foreign"},
      {"quadpool high score 2\n5\n", "foreign: format version 2, this build reads version 1"},
      {"quadpool high score one\n5\n", "damaged: the format version 'one' is not a number"},
      {"quadpool high score 1\r\n5\r\n", "damaged: the format version '1\\r' is not a number"},
      {"quadpool high score 1", "damaged: truncated after the first line"},
      {head, "damaged: the score line is missing"},
      {head + "5", "damaged: the score line does not end with a newline (truncated)"},
      {head + "-5\n", "damaged: the score '-5' is not a whole number in 0..18446744073709551615"},
      {head + "18446744073709551616\n", "damaged: the score '18446744073709551616' is not"},
      {head + "99999999999999999999999\n", "damaged: the score"},
      {head + "+5\n", "damaged: the score '+5'"},
      {head + " 5\n", "damaged: the score ' 5'"},
      {head + "5 \n", "damaged: the score '5 '"},
      {head + "0x10\n", "damaged: the score '0x10'"},
      {head + "1e3\n", "damaged: the score '1e3'"},
      {head + "\n", "damaged: the score '' is not"},
      {head + std::string("5\0", 2) + "\n", "damaged: the score '5\\x00'"},
      {head + "5\n6\n", "damaged: 2 unexpected byte(s) after the score line"},
      {head + "5\n\n", "damaged: 1 unexpected byte(s) after the score line"},
      {std::string(play::kMaxHighScoreFileBytes + 1, '7'),
       "oversized: 257 bytes, a high score file holds at most 256"},
      {head + std::string(1 << 20, '9') + "\n", "oversized: 1048599 bytes"},
  };
  for (const auto& [bytes, problem] : cases) {
    SCOPED_TRACE("file of " + std::to_string(bytes.size()) + " bytes, expecting " + problem);
    write_file(file_, bytes);
    expect_ignored(file_, problem);
  }
}

TEST_F(HighScore, AFolderAFifoOrAFileAboveItIsIgnoredWithOneWarningAndNothingBlocks) {
  fs::create_directory(file_);
  expect_ignored(file_, "unreadable: it is a folder, not a file");
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  expect_ignored(fifo, "unreadable: it is a FIFO, not a regular file");  // returns: O_NONBLOCK
  expect_ignored("/dev/null", "unreadable: it is a character device, not a regular file");
  write_file(dir_ / "plain", "a file where a folder should be");
  expect_ignored(dir_ / "plain" / "high_score",
                 std::string("unreadable: cannot open it: ") + std::strerror(ENOTDIR));
}

TEST_F(HighScore, AFileThatCouldNotBeReadIsNeverWrittenOver) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  play::HighScoreFile high_score(fifo.string());
  logged().clear();
  const std::string said = high_score.submit(10);
  EXPECT_EQ(said.rfind("high score not saved: " + fifo.string() + ": it could not be read", 0), 0u)
      << said;
  EXPECT_EQ(logged_at(LogLevel::Warning), std::vector<std::string>{said});
  EXPECT_EQ(high_score.best(), 10u);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the unreadable file was replaced";
}

TEST_F(HighScore, AFileWithoutReadPermissionIsIgnoredWithOneWarning) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file; the folder and FIFO cases cover it";
  write_file(file_, "quadpool high score 1\n7\n");
  fs::permissions(file_, fs::perms::none);
  expect_ignored(file_, std::string("unreadable: cannot open it: ") + std::strerror(EACCES));
  EXPECT_NE(play::HighScoreFile(file_.string()).submit(8), "");
  fs::permissions(file_, fs::perms::owner_read);
  EXPECT_EQ(test::contents(file_), "quadpool high score 1\n7\n") << "a score was written over";
}

TEST_F(HighScore, AScoreThatDoesNotBeatTheBestWritesNothing) {
  play::HighScoreFile fresh(file_.string());
  EXPECT_EQ(fresh.submit(0), "");
  EXPECT_TRUE(test::names_in(dir_).empty()) << "a score of 0 wrote a file";

  write_file(file_, "quadpool high score 1\n100\n");
  fs::last_write_time(file_, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const auto written_at = fs::last_write_time(file_);
  play::HighScoreFile high_score(file_.string());
  EXPECT_EQ(high_score.submit(99), "");
  EXPECT_EQ(high_score.submit(100), "");
  EXPECT_EQ(high_score.best(), 100u);
  EXPECT_EQ(test::contents(file_), "quadpool high score 1\n100\n");
  EXPECT_EQ(fs::last_write_time(file_), written_at) << "the file was written again";
  EXPECT_EQ(test::names_in(dir_), std::vector<std::string>{"high_score"});
}

TEST_F(HighScore, AHigherScoreIsSavedInNewFoldersAndReadBackByTheNextGame) {
  const fs::path file = dir_ / "data" / "quadpool" / "high_score";
  play::HighScoreFile high_score(file.string());
  EXPECT_EQ(high_score.submit(41), "");
  EXPECT_EQ(high_score.submit(UINT64_MAX), "");
  EXPECT_EQ(high_score.best(), UINT64_MAX);
  EXPECT_EQ(test::contents(file), "quadpool high score 1\n18446744073709551615\n");
  EXPECT_EQ(test::names_in(file.parent_path()), std::vector<std::string>{"high_score"});
  for (const fs::path& folder : {dir_ / "data", dir_ / "data" / "quadpool"}) {
    struct stat status {};
    ASSERT_EQ(::stat(folder.c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 0777, 0700u) << folder << ": the XDG spec's mode";
  }
  EXPECT_TRUE(logged_at(LogLevel::Warning).empty());
  const play::HighScoreFile next_game(file.string());
  EXPECT_EQ(next_game.best(), UINT64_MAX);
  EXPECT_EQ(next_game.load_problem(), "");
}

TEST_F(HighScore, ADamagedFileIsReplacedByTheFirstSave) {
  write_file(file_, "quadpool high score 1\n-3\n");
  play::HighScoreFile high_score(file_.string());
  ASSERT_EQ(high_score.best(), 0u);
  EXPECT_EQ(high_score.submit(1), "");
  EXPECT_EQ(play::HighScoreFile(file_.string()).best(), 1u);
}

TEST_F(HighScore, WithoutAPathTheScoreIsKeptInMemory) {
  play::HighScoreFile high_score("");
  EXPECT_EQ(high_score.submit(5), "");
  EXPECT_EQ(high_score.best(), 5u);
  EXPECT_TRUE(logged_at(LogLevel::Warning).empty());
  EXPECT_EQ(logged_at(LogLevel::Info).size(), 1u) << "the one line that says so";
}

TEST_F(HighScore, ASaveWhoseFolderCannotBeMadeSaysWhyOnceAndKeepsTheScore) {
  write_file(dir_ / "plain", "a file where a folder should be");
  const fs::path file = dir_ / "plain" / "quadpool" / "high_score";
  play::HighScoreFile high_score(file.string());
  logged().clear();
  const std::string said = high_score.submit(10);
  EXPECT_EQ(said.rfind("high score not saved: " + file.string() + ": ", 0), 0u) << said;
  EXPECT_NE(said.find(std::strerror(ENOTDIR)), std::string::npos) << said;
  EXPECT_EQ(logged_at(LogLevel::Warning), std::vector<std::string>{said});
  EXPECT_EQ(high_score.best(), 10u);
  EXPECT_EQ(test::contents(dir_ / "plain"), "a file where a folder should be");
}

TEST_F(HighScore, ASaveToAReadOnlyFolderKeepsTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere; the read-only tmpfs test covers it";
  write_file(file_, "quadpool high score 1\n100\n");
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  play::HighScoreFile high_score(file_.string());
  const std::string said = high_score.submit(200);
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_EQ(said, "high score not saved: " + file_.string() +
                      ": cannot create a file in its folder: " + std::strerror(EACCES));
  EXPECT_EQ(test::contents(file_), "quadpool high score 1\n100\n");
  EXPECT_EQ(test::names_in(dir_), std::vector<std::string>{"high_score"});
}

// In a forked child: the old file (score 100) is in place, `prepare` breaks the disk, then a
// game scores 200. Returns what submit said, then "|best=<best>|<old file's contents>|<names>",
// or "skip: ..." when `prepare` cannot run here.
std::string submit_in_child(const fs::path& dir, const std::function<std::string()>& prepare) {
  return test::in_child([&]() -> std::string {
    const fs::path file = dir / "high_score";
    if (play::HighScoreFile(file.string()).submit(100) != "")
      return "the old file could not be written";
    if (std::string problem = prepare(); !problem.empty()) return problem;
    play::HighScoreFile high_score(file.string());
    const std::string said = high_score.submit(200);
    std::string names;
    for (const std::string& name : test::names_in(dir)) names += name + " ";
    return said + "|best=" + std::to_string(high_score.best()) + "|" + test::contents(file) + "|" +
           names;
  });
}

std::string expected_failure(const fs::path& dir, const std::string& reason) {
  return "high score not saved: " + (dir / "high_score").string() + ": " + reason +
         "|best=200|quadpool high score 1\n100\n|high_score ";
}

TEST_F(HighScore, ASaveOverTheFileSizeLimitKeepsTheOldFileAndSaysWhy) {
  const std::string result = submit_in_child(dir_, [] {
    std::signal(SIGXFSZ, SIG_IGN);  // write(2) then fails with EFBIG instead of killing
    const rlimit limit{8, 8};
    return ::setrlimit(RLIMIT_FSIZE, &limit) == 0 ? "" : "setrlimit failed";
  });
  EXPECT_EQ(result, expected_failure(dir_, std::string("write failed: ") + std::strerror(EFBIG)));
}

TEST_F(HighScore, ASaveToAFullDiskKeepsTheOldFileAndSaysWhy) {
  const std::string result = test::in_child([&]() -> std::string {
    if (std::string skip = test::mount_private_tmpfs(dir_, "16k"); !skip.empty()) return skip;
    return submit_in_child(dir_, [&]() -> std::string {
      // More than the tmpfs holds: the stream fails once it is full.
      std::ofstream filler(dir_ / "filler", std::ios::binary);
      const std::string page(4096, 'f');
      int pages = 0;
      while (pages++ < 64 && filler.write(page.data(), page.size()) && filler.flush()) {
      }
      return filler ? "the tmpfs did not fill up" : "";
    });
  });
  if (result.rfind("skip: ", 0) == 0) GTEST_SKIP() << result;
  EXPECT_EQ(result, "high score not saved: " + file_.string() +
                        ": write failed: " + std::strerror(ENOSPC) +
                        "|best=200|quadpool high score 1\n100\n|filler high_score ");
}

TEST_F(HighScore, ASaveToAReadOnlyFileSystemKeepsTheOldFileAndSaysWhyEvenForRoot) {
  const std::string result = test::in_child([&]() -> std::string {
    if (std::string skip = test::mount_private_tmpfs(dir_, "64k"); !skip.empty()) return skip;
    return submit_in_child(dir_, [&] { return test::remount_read_only(dir_); });
  });
  if (result.rfind("skip: ", 0) == 0) GTEST_SKIP() << result;
  EXPECT_EQ(result, expected_failure(dir_, std::string("cannot create a file in its folder: ") +
                                               std::strerror(EROFS)));
}

// Games that overlap each read the file at start-up; the one that finishes last must not write
// its lower score over a better one saved meanwhile. Each game here is a process of its own,
// all reading the empty file first; the best finishes first and the lower ones after it, in
// turn, each a few milliseconds after the one before (so that without the merge the last,
// lowest score would be the one left), and some finish at the same moment.
TEST_F(HighScore, OverlappingGamesKeepTheBestScoreWhicheverFinishesLast) {
  constexpr int kGames = 12;
  std::vector<pid_t> games;
  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  for (int game = 0; game < kGames; ++game) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0) << std::strerror(errno);
    if (pid == 0) {
      play::HighScoreFile high_score(file_.string());  // every game starts from the empty file
      char byte = 'r';
      (void)!::write(ready[1], &byte, 1);
      (void)!::read(go[0], &byte, 1);  // all start their end together
      ::usleep(static_cast<useconds_t>(5000 * (game / 2)));  // the best first, two at a time
      const std::string said = high_score.submit(static_cast<std::uint64_t>(1000 - game));
      ::_exit(said.empty() ? 0 : 1);
    }
    games.push_back(pid);
  }
  char byte = 0;
  for (int game = 0; game < kGames; ++game) ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  const std::string all(kGames, 'g');
  ASSERT_EQ(::write(go[1], all.data(), all.size()), static_cast<ssize_t>(all.size()));
  for (const pid_t pid : games) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a save failed";
  }
  for (const int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
  EXPECT_EQ(test::contents(file_), "quadpool high score 1\n1000\n");
  EXPECT_EQ(play::HighScoreFile(file_.string()).best(), 1000u);
}

// A game that read a lower score at start-up and then loses to a score saved meanwhile learns
// the better score at its save, and writes nothing.
TEST_F(HighScore, ASaveBelowAScoreSavedMeanwhileWritesNothingAndLearnsIt) {
  play::HighScoreFile slow(file_.string());
  ASSERT_EQ(play::HighScoreFile(file_.string()).submit(500), "");
  EXPECT_EQ(slow.submit(300), "");
  EXPECT_EQ(test::contents(file_), "quadpool high score 1\n500\n");
  EXPECT_EQ(slow.best(), 500u);
}

// XDG_DATA_HOME (or HOME) names a file: there is no score file, so the save must not say that
// one "could not be read when the game started"; it says what is in the way.
TEST_F(HighScore, ADataFolderThatIsAFileIsNamedAtTheSaveNotCalledAnUnreadableScoreFile) {
  write_file(dir_ / "plain", "not a folder");
  set_environment("XDG_DATA_HOME", (dir_ / "plain").string());
  play::HighScoreFile high_score(play::default_high_score_path());
  const std::string said = high_score.submit(10);
  EXPECT_EQ(said.find("could not be read"), std::string::npos) << said;
  EXPECT_NE(said.find((dir_ / "plain").string() + "' is a file, not a folder"), std::string::npos)
      << said;
  EXPECT_EQ(test::contents(dir_ / "plain"), "not a folder");
}

}  // namespace
}  // namespace quadpool::game
