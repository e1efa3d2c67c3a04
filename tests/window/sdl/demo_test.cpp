// Unit tests of the demo's SDL-facing pieces that need no window: the key map and the README's
// key table, and the key-script parser.
#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <SDL.h>
#include <gtest/gtest.h>

#include "game/window/sdl/input.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/window_options.hpp"

namespace quadpool::game::window::sdl {
namespace {

std::string without_backticks(std::string s) {
  std::erase(s, '`');
  return s;
}

std::string trimmed(const std::string& s) {
  const std::size_t first = s.find_first_not_of(' ');
  const std::size_t last = s.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// A row of the README's key table, with the Markdown backticks taken out.
struct ReadmeKeyRow {
  std::string modes;  // "play", "lab" or "both"
  std::string description;
};

// The rows of the "### Keys and mouse" table in the top README ("| input | mode | does |"):
// input -> its mode and description.
std::map<std::string, ReadmeKeyRow> readme_key_table() {
  std::ifstream file(QUADPOOL_SOURCE_DIR "/README.md");
  EXPECT_TRUE(file.good()) << "cannot read " << QUADPOOL_SOURCE_DIR "/README.md";
  std::map<std::string, ReadmeKeyRow> rows;
  std::string line;
  while (std::getline(file, line) && line != "### Keys and mouse") {
  }
  while (std::getline(file, line) && (line.empty() || line[0] != '|')) {
  }
  int row = 0;
  do {
    if (line.empty() || line[0] != '|') break;
    // "| input | mode | does |": cells 1 to 3; the header and the separator row are skipped.
    std::vector<std::string> cells;
    std::stringstream cells_text(line);
    for (std::string cell; std::getline(cells_text, cell, '|');) cells.push_back(trimmed(cell));
    if (row++ >= 2 && cells.size() >= 4) {
      const ReadmeKeyRow entry{cells[2], without_backticks(cells[3])};
      EXPECT_TRUE(rows.emplace(without_backticks(cells[1]), entry).second)
          << "README lists " << cells[1] << " twice";
    }
  } while (std::getline(file, line));
  return rows;
}

TEST(KeyMap, TheTopReadmesKeyTableListsEveryBindingWithTheHelpPanelsWordsAndMode) {
  std::map<std::string, ReadmeKeyRow> readme = readme_key_table();
  ASSERT_FALSE(readme.empty()) << "no '### Keys and mouse' table in README.md";
  for (const KeyBinding& binding : key_bindings()) {
    const auto it = readme.find(binding.input);
    if (it == readme.end()) {
      ADD_FAILURE() << "README.md's key table has no row for " << binding.input;
      continue;
    }
    EXPECT_EQ(it->second.description, binding.description)
        << "README.md describes " << binding.input << " differently from game/window/sdl/key_map.cpp";
    EXPECT_EQ(it->second.modes, modes_name(binding.modes))
        << "README.md gives " << binding.input << " another mode than game/window/sdl/key_map.cpp";
    readme.erase(it);
  }
  for (const auto& [input, row] : readme) {
    ADD_FAILURE() << "README.md's key table lists " << input << " (" << row.description
                  << "), which the key map does not have";
  }
}

// Both modes are in the table, and in play no key of the lab's does anything the pilot's keys
// (W A S D, the arrows, Space, Enter) would trigger: those belong to PilotInput there.
TEST(KeyMap, InPlayThePilotsKeysAreNoOtherActionsAndTheLabsMovedKeysWorkInBothModes) {
  bool play = false, lab = false;
  for (const KeyBinding& binding : key_bindings()) {
    play |= binding.modes != Modes::Lab;
    lab |= binding.modes != Modes::Play;
  }
  EXPECT_TRUE(play);
  EXPECT_TRUE(lab);
  for (const int key :
       {int{SDLK_w}, int{SDLK_a}, int{SDLK_s}, int{SDLK_d}, int{SDLK_UP}, int{SDLK_DOWN},
        int{SDLK_LEFT}, int{SDLK_RIGHT}, int{SDLK_SPACE}, int{SDLK_RETURN}}) {
    EXPECT_EQ(action_for_key(key, false, Mode::Play), Action::None) << SDL_GetKeyName(key);
  }
  for (const Mode mode : {Mode::Play, Mode::Lab}) {
    EXPECT_EQ(action_for_key(SDLK_F2, false, mode), Action::SwitchAllocator);
    EXPECT_EQ(action_for_key(SDLK_F3, false, mode), Action::TogglePause);
    EXPECT_EQ(action_for_key(SDLK_F4, false, mode), Action::Step);
    EXPECT_EQ(action_for_key(SDLK_TAB, false, mode), Action::SwitchMode);
    EXPECT_EQ(action_for_key(SDLK_m, false, mode), Action::ToggleMute);
  }
  // A lab-only key does nothing in play.
  EXPECT_EQ(action_for_key(SDLK_r, false, Mode::Lab), Action::Reset);
  EXPECT_EQ(action_for_key(SDLK_r, false, Mode::Play), Action::None);
  // The ramp grows the lab's field: G is the lab's alone, and locked while an A/B run times.
  EXPECT_EQ(action_for_key(SDLK_g, false, Mode::Lab), Action::ToggleRamp);
  EXPECT_EQ(action_for_key(SDLK_g, false, Mode::Play), Action::None);
  EXPECT_TRUE(locked_during_ab(Action::ToggleRamp));
}

TEST(KeyMap, EveryBoundKeyDispatchesItsRowsActionAndNoKeyIsBoundTwice) {
  std::set<int> seen;
  for (const KeyBinding& binding : key_bindings()) {
    for (const int key : binding.keys) {
      if (key == 0) continue;
      EXPECT_TRUE(seen.insert(key).second) << "SDL_Keycode " << key << " is bound twice";
      const Mode mode = binding.modes == Modes::Play ? Mode::Play : Mode::Lab;
      EXPECT_EQ(action_for_key(key, false, mode), binding.action) << binding.input;
      EXPECT_NE(binding.action, Action::None) << binding.input;
    }
  }
  // SDL_Keycodes of printable keys are their characters.
  EXPECT_EQ(action_for_key('=', true, Mode::Lab), Action::DoubleSprites);  // '+' as shift+'='
  EXPECT_EQ(action_for_key('=', false, Mode::Lab), Action::None);
  EXPECT_EQ(action_for_key('z', false, Mode::Lab), Action::None);
}

TEST(KeyScript, EntriesAreParsedAndSortedByFrame) {
  std::string error;
  const std::vector<ScriptedKey> keys = parse_key_script("160:A,80:Space,80:.", error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0].frame, 80u);
  EXPECT_EQ(keys[1].frame, 80u);
  EXPECT_EQ(keys[2].frame, 160u);
  EXPECT_EQ(keys[0].keycode, ' ');
  EXPECT_EQ(keys[1].keycode, '.');
  EXPECT_EQ(keys[2].keycode, 'a');
  const std::vector<ScriptedKey> mouse = parse_key_script(
      "9:1024x600,10:query=1/2/30/40,11:pick=5/6,12:spawn=7/8,13:ray=3/4/50/60,14:nearest=9/10",
      error);
  ASSERT_EQ(mouse.size(), 6u) << error;
  EXPECT_EQ(mouse[0].kind, ScriptedKey::Kind::Resize);
  EXPECT_EQ(mouse[0].width, 1024);
  EXPECT_EQ(mouse[0].height, 600);
  EXPECT_EQ(mouse[1].kind, ScriptedKey::Kind::Query);
  EXPECT_EQ(mouse[1].x1, 30);
  EXPECT_EQ(mouse[1].y1, 40);
  EXPECT_EQ(mouse[2].kind, ScriptedKey::Kind::Pick);
  EXPECT_EQ(mouse[2].x0, 5);
  EXPECT_EQ(mouse[2].y0, 6);
  EXPECT_EQ(mouse[3].kind, ScriptedKey::Kind::Spawn);
  EXPECT_EQ(mouse[3].x0, 7);
  EXPECT_EQ(mouse[3].y0, 8);
  EXPECT_EQ(mouse[4].kind, ScriptedKey::Kind::Ray);
  EXPECT_EQ((std::array{mouse[4].x0, mouse[4].y0, mouse[4].x1, mouse[4].y1}),
            (std::array{3, 4, 50, 60}));
  EXPECT_EQ(mouse[5].kind, ScriptedKey::Kind::Nearest);
  EXPECT_EQ(mouse[5].x0, 9);
  EXPECT_EQ(mouse[5].y0, 10);
}

TEST(KeyScript, MalformedEntriesAreNamedInTheError) {
  for (const char* bad :
       {"A", "80", ":A", "-1:A", "80:NoSuchKey", "8x:A", "80:A, ,90:A", "5:10x10", "5:640x400x",
        "5:640x", "5:query=1/2/3", "5:pick=1/2/3", "5:pick=a/b", "5:spawn=1", "5:ray=1/2/3",
        "5:ray=1/2/3/4/5", "5:nearest=1/2/3", "5:nearest=a/b", "5:nearest=1"}) {
    std::string error;
    EXPECT_TRUE(parse_key_script(bad, error).empty()) << bad;
    EXPECT_NE(error.find("QUADPOOL_DEMO_KEYS"), std::string::npos) << bad << ": " << error;
  }
}

// "1:B," was accepted and "1:B,,2:C" refused as "'' is not FRAME:KEY": an empty entry asks for
// nothing, wherever it stands.
TEST(KeyScript, EmptyEntriesAreSkippedWhereverTheyStand) {
  for (const char* script : {"1:B,", "1:B,,2:C", ",1:B,2:C", "1:B,,,2:C,,"}) {
    std::string error;
    const std::vector<ScriptedKey> keys = parse_key_script(script, error);
    EXPECT_TRUE(error.empty()) << script << ": " << error;
    ASSERT_FALSE(keys.empty()) << script;
    EXPECT_EQ(keys[0].frame, 1u) << script;
    EXPECT_EQ(keys[0].keycode, 'b') << script;
    EXPECT_EQ(keys.size(), std::string(script).find("2:C") == std::string::npos ? 1u : 2u)
        << script;
  }
  for (const char* nothing : {"", ",", ",,"}) {
    std::string error;
    EXPECT_TRUE(parse_key_script(nothing, error).empty()) << nothing;
    EXPECT_TRUE(error.empty()) << nothing << ": " << error;
  }
}

// The script's resize takes the sizes --window takes (it once allowed 64x64..16384x16384).
TEST(KeyScript, AResizeTakesTheSizesWindowTakes) {
  const auto size = [](int width, int height) {
    return "5:" + std::to_string(width) + "x" + std::to_string(height);
  };
  for (const std::string& good : {size(window::kMinWindowWidth, window::kMinWindowHeight),
                                  size(window::kMaxWindowWidth, window::kMaxWindowHeight)}) {
    std::string error;
    const std::vector<ScriptedKey> keys = parse_key_script(good, error);
    ASSERT_EQ(keys.size(), 1u) << good << ": " << error;
    EXPECT_EQ(keys[0].kind, ScriptedKey::Kind::Resize);
  }
  const std::string range = "from " + std::to_string(window::kMinWindowWidth) + "x" +
                            std::to_string(window::kMinWindowHeight) + " to " +
                            std::to_string(window::kMaxWindowWidth) + "x" +
                            std::to_string(window::kMaxWindowHeight) + " (as --window)";
  for (const std::string& bad : {size(window::kMinWindowWidth - 1, window::kMinWindowHeight),
                                 size(window::kMinWindowWidth, window::kMinWindowHeight - 1),
                                 size(window::kMaxWindowWidth + 1, window::kMaxWindowHeight),
                                 size(window::kMaxWindowWidth, window::kMaxWindowHeight + 1),
                                 size(64, 64), size(16384, 16384)}) {
    std::string error;
    EXPECT_TRUE(parse_key_script(bad, error).empty()) << bad;
    EXPECT_NE(error.find("'" + bad + "'"), std::string::npos) << error;
    EXPECT_NE(error.find(range), std::string::npos) << error;
  }
}

// strtoull skipped the space and wrapped " -1" to 2^64-1: a key that never fired, and exit 0.
TEST(KeyScript, AFrameIsDigitsOnlyAndFitsIn64Bits) {
  for (const char* bad :
       {" -1:A", "-1:A", " 1:A", "+1:A", "1 :A", "0x10:A", "18446744073709551616:A"}) {
    std::string error;
    EXPECT_TRUE(parse_key_script(bad, error).empty()) << bad;
    EXPECT_NE(error.find(std::string("'") + bad + "'"), std::string::npos) << error;
  }
  std::string error;
  const std::vector<ScriptedKey> keys = parse_key_script("18446744073709551615:A,007:B", error);
  ASSERT_EQ(keys.size(), 2u) << error;
  EXPECT_EQ(keys[0].frame, 7u);
  EXPECT_EQ(keys[1].frame, 18446744073709551615u);
}

// As flag errors are: control characters escaped (one line), cut after 40 bytes.
TEST(KeyScript, TheErrorQuotesTheEntryOnOneLineAndCutsItShort) {
  std::string error;
  EXPECT_TRUE(parse_key_script("1:A\n2:B", error).empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_NE(error.find("'1:A\\n2:B'"), std::string::npos) << error;
  const std::string long_entry = "1:" + std::string(100, 'k');
  EXPECT_TRUE(parse_key_script(long_entry, error).empty());
  const std::string first_40_bytes = long_entry.substr(0, 40);
  EXPECT_NE(error.find("'" + first_40_bytes + "...'"), std::string::npos) << error;
  EXPECT_EQ(error.find(long_entry.substr(0, 41)), std::string::npos) << error;
}

// Coordinates are window pixels, within the largest window --window allows: a value past it
// (2147483647 became a float too large for an int, undefined behaviour) is refused.
TEST(KeyScript, CoordinatesOutsideTheLargestWindowAreRefused) {
  for (const char* entry : {"3:spawn=2147483647/2147483647", "3:pick=1/-2147483648",
                            "3:query=0/0/100000/5", "3:spawn=-1/5", "3:ray=0/0/7681/5",
                            "3:ray=-1/0/5/5", "3:nearest=5/4321", "3:nearest=-1/5"}) {
    std::string error;
    EXPECT_TRUE(parse_key_script(entry, error).empty()) << entry;
    EXPECT_NE(error.find(std::string(entry).substr(2)), std::string::npos) << entry << ": " << error;
  }
  std::string error;
  EXPECT_EQ(parse_key_script(
                "3:spawn=0/0,4:query=7680/4320/0/0,5:ray=7680/4320/0/0,6:nearest=0/4320", error)
                .size(),
            4u)
      << error;
}

}  // namespace
}  // namespace quadpool::game::window::sdl
