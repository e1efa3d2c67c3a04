#pragma once
/// The player's best score, kept between games in a small text file in the user's data folder.
/// Needs no display library.
///
/// The file is two lines a person can read and edit, and nothing else:
///
///   quadpool high score 1        <- magic words and the format version
///   12345                        <- the score: digits only, 0..2^64-1
///
/// It is read as untrusted input (at most kMaxHighScoreFileBytes, every byte checked) and
/// written through write_file_atomically (game/util/atomic_file.hpp), so a reader sees the old score
/// or the new one, never half of one; the save merges under a lock, so the best score of games
/// that overlap survives. Nothing the file holds stops the game: a damaged file is
/// ignored with one warning, and a save that fails keeps the old file and says why.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace quadpool::game::play {

/// The first line of a high score file, without its newline.
inline constexpr char kHighScoreMagic[] = "quadpool high score";
/// The format version this build reads and writes.
inline constexpr int kHighScoreFormatVersion = 1;
/// The largest file read: a real one is at most 43 bytes; anything larger is not ours.
inline constexpr std::size_t kMaxHighScoreFileBytes = 256;

/// $XDG_DATA_HOME/quadpool/high_score when XDG_DATA_HOME is set, non-empty and absolute (the XDG
/// spec says a relative value is ignored), else $HOME/.local/share/quadpool/high_score when HOME
/// is set and absolute; an empty string when neither gives a folder (then the high score lives
/// in memory only).
std::string default_high_score_path();

/// The file's contents for `score`: "quadpool high score 1\n<score>\n".
std::string high_score_file_text(std::uint64_t score);

/// The score in `text`, a whole file's contents, or the one-line reason it is not a high score
/// file: "empty", "foreign: ..." (not ours, or another format version) or "damaged: ...".
struct ParsedHighScore {
  std::uint64_t score = 0;
  std::string problem;  // empty when `score` was read
};
ParsedHighScore parse_high_score(std::string_view text);

/// The best score, kept in a small text file written atomically (game/util/atomic_file.hpp).
class HighScoreFile {
 public:
  /// Reads `path` now. A missing file is a first game (0, no warning: one debug line). An
  /// empty, damaged, foreign, oversized or unreadable file (a folder, a FIFO or a device in its
  /// place, no permission, a parent that is not a folder) is ignored: best() is 0 and exactly
  /// one warning line is logged through quadpool::log_message (engine/core/log.hpp), naming the
  /// file and what is wrong. Never throws for anything the file holds; never blocks on a FIFO.
  /// An empty `path` keeps the score in memory only (see default_high_score_path()), and one
  /// info line says so and why, from the environment: "no data folder (XDG_DATA_HOME and HOME
  /// give none): ...", or, when either holds a relative path, which one and its value, e.g.
  /// "no data folder (XDG_DATA_HOME is not set, and HOME is 'relative', not an absolute
  /// path): the high score is kept in memory only".
  explicit HighScoreFile(std::string path);
  std::uint64_t best() const noexcept;
  const std::string& path() const noexcept;
  /// Why the file was ignored at load (empty when it was read, or missing). Only for the
  /// reader: the save reads the file again and decides from what it finds then.
  const std::string& load_problem() const noexcept;
  /// A finished game's score. When it beats best(): best() becomes it, and under an exclusive
  /// flock(2) on the file's folder the file is read again and written atomically only when it
  /// does not hold a score as high (then best() becomes that score and nothing is written), so
  /// games that run side by side keep the best of their scores whichever finishes last. Missing
  /// folders are created with mode 0700, as the XDG spec asks; something that is not a folder
  /// in their place is named. Returns "" when nothing needed writing or the write worked (or
  /// the path is empty); else one line for the screen, "high score not saved: <path>:
  /// <reason>", also logged as a warning: the old file is then untouched (full disk, read-only
  /// folder). best() keeps the new score, so a later higher score tries again. A damaged,
  /// empty, foreign or oversized file is replaced; one that cannot be read at the save (a
  /// permission, a folder in its place) is never written over: the save says so instead.
  std::string submit(std::uint64_t score);

 private:
  std::string path_;
  std::string load_problem_;
  std::uint64_t best_ = 0;
};

}  // namespace quadpool::game::play
