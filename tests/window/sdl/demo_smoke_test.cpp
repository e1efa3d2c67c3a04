// Smoke tests of the SDL2 demo through the real quadpool executable. The lab (--lab): a
// scripted run that switches the tree's allocator mid-run through SDL's event queue (the path a
// key press takes), writes a screenshot and prints its JSON summary, plus the error paths. The
// game (at the end): the bot's attract mode, a human's game through held keys (fire, hit, game
// over, restart, allocator switches), record and replay across the window and headless, A/B.
//
// By default the demo runs on SDL's dummy video driver (software rendering, no X server), which
// works under the sanitizers. With QUADPOOL_DEMO_SMOKE_DISPLAY=1 (ctest's demo_smoke_xvfb entry,
// run under xvfb-run) it opens a real X11 window instead.
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/helpers/flat_json.hpp"
#include "tests/helpers/run_quadpool.hpp"

namespace quadpool::game {
namespace {

bool on_a_display() {
  const char* flag = std::getenv("QUADPOOL_DEMO_SMOKE_DISPLAY");
  return flag != nullptr && std::string(flag) == "1";
}

// Every test starts from the same environment: the video driver chosen as above, no key script.
class DemoSmoke : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("SDL_VIDEODRIVER", on_a_display() ? "x11" : "dummy", 1);
    ::unsetenv("QUADPOOL_DEMO_KEYS");
    // A key at frame N meets the same tick on every machine: one game tick a frame, as a
    // scripted run asks, instead of 60 a second of wall time (FixedStep, tested below).
    ::setenv("QUADPOOL_FRAME_TICKS", "1", 1);
    dir_ = std::filesystem::temp_directory_path() /
           ("quadpool_demo_smoke_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    // The game keeps its high score under $XDG_DATA_HOME: the test's folder, not the user's.
    ::setenv("XDG_DATA_HOME", dir_.c_str(), 1);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    ::unsetenv("QUADPOOL_DEMO_KEYS");
    ::unsetenv("QUADPOOL_FRAME_TICKS");
    ::unsetenv("XDG_DATA_HOME");
  }
  std::filesystem::path dir_;
};

std::map<std::string, std::string> parse_summary(const test::ProcessResult& r) {
  auto json = test::FlatJson::parse(r.output);
  EXPECT_TRUE(json.has_value()) << "not one JSON object: " << r.output;
  return json.value_or(std::map<std::string, std::string>{});
}

std::uint64_t number(const std::map<std::string, std::string>& json, const std::string& key) {
  const auto it = json.find(key);
  EXPECT_NE(it, json.end()) << "missing " << key;
  return it == json.end() ? 0 : std::stoull(it->second);
}

struct Image {
  int width = 0, height = 0;
  std::size_t distinct_colours = 0;
};

Image read_image(const std::filesystem::path& path) {
  Image image;
  int channels = 0;
  std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load(path.c_str(), &image.width, &image.height, &channels, 4), &stbi_image_free);
  if (!pixels) return image;
  std::set<std::uint32_t> colours;
  const std::size_t count = static_cast<std::size_t>(image.width) * image.height;
  for (std::size_t i = 0; i < count; ++i) {
    const stbi_uc* p = pixels.get() + i * 4;
    colours.insert(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
  }
  image.distinct_colours = colours.size();
  return image;
}

TEST_F(DemoSmoke, AScriptedRunSwitchesTheAllocatorBothWaysAndPoolTicksAllocateNothing) {
  // Pool for 80 frames, new/delete for 80, then pool again: the key F2 both times, injected
  // into SDL's event queue at the start of frames 80 and 160.
  ::setenv("QUADPOOL_DEMO_KEYS", "80:F2,160:F2", 1);
  const std::filesystem::path shot = dir_ / "smoke.png";
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 3000 --frames 240 --window 640x400 --vsync off --screenshot '" +
          shot.string() + "'",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);

  EXPECT_EQ(number(json, "frames"), 240u);
  EXPECT_EQ(number(json, "allocator_switches"), 2u);
  EXPECT_EQ(json.at("heap_counter"), "true");
  // Both modes ran, about a third and two thirds of the frames (a key acts at the next tick).
  EXPECT_GE(number(json, "modes.pool.frames"), 150u);
  EXPECT_GE(number(json, "modes.new_delete.frames"), 70u);
  EXPECT_EQ(number(json, "modes.pool.frames") + number(json, "modes.new_delete.frames"), 240u);
  // Pool mode: past warm-up, not one heap allocation in any tick. new/delete: one per node.
  EXPECT_GE(number(json, "modes.pool.warm_ticks"), 100u);
  EXPECT_EQ(number(json, "modes.pool.warm_ticks_with_heap_allocations"), 0u);
  EXPECT_EQ(number(json, "modes.pool.max_warm_tick_heap_allocations"), 0u);
  EXPECT_GT(number(json, "modes.new_delete.warm_ticks_with_heap_allocations"), 0u);
  EXPECT_GE(number(json, "modes.new_delete.max_warm_tick_heap_allocations"),
            number(json, "tree.nodes") / 2);
  // The vertex stream carried the frame: several batches, and the frames in flight held back.
  EXPECT_GT(number(json, "vertex_stream.batches"), 0u);
  EXPECT_GT(number(json, "vertex_stream.stale_bytes"), 0u);
  EXPECT_EQ(json.at("screenshot"), shot.string());

  const Image image = read_image(shot);
  EXPECT_EQ(image.width, 640);
  EXPECT_EQ(image.height, 400);
  // A blank or single-colour frame has a handful of colours; sprites, rings and text give
  // hundreds.
  EXPECT_GT(image.distinct_colours, 100u);
}

double real(const std::map<std::string, std::string>& json, const std::string& key) {
  const auto it = json.find(key);
  EXPECT_NE(it, json.end()) << "missing " << key;
  return it == json.end() ? -1.0 : std::stod(it->second);
}

TEST_F(DemoSmoke, ThePanelNeverCoversTheWorldAcrossHideFitShowAndAResize) {
  // H hides the panel, F fits, H shows it again, then the window shrinks: each change of the
  // layout refits the camera, and in no frame does the panel ImGui really drew (read back from
  // ImGui) share a pixel with the world's rectangle.
  ::setenv("QUADPOOL_DEMO_KEYS", "20:H,30:F,40:H,50:1024x600", 1);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 1000 --frames 80 --window 1280x720 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(number(json, "layout.frames_overlapping"), 0u);
  EXPECT_EQ(number(json, "layout.refits"), 4u);  // start, H, H, resize
  EXPECT_EQ(number(json, "window_width"), 1024u);
  EXPECT_EQ(number(json, "window_height"), 600u);
  // The last layout: panel on the left, the world the rest of the window.
  EXPECT_GT(real(json, "layout.panel.w"), 0.0);
  EXPECT_EQ(real(json, "layout.world.x"),
            real(json, "layout.panel.x") + real(json, "layout.panel.w"));
  EXPECT_EQ(real(json, "layout.world.x") + real(json, "layout.world.w"), 1024.0);
  EXPECT_EQ(real(json, "layout.world.h"), 600.0);
}

TEST_F(DemoSmoke, AnABRunStartedByBPutsItsResultInTheSummary) {
  ::setenv("QUADPOOL_DEMO_KEYS", "1:B", 1);
  const test::ProcessResult r =
      test::run_quadpool("--lab --sprites 1000 --seed 7 --frames 620 --window 640x400 --vsync off",
                         test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  ASSERT_EQ(json.at("ab.state"), "done") << r.output;
  EXPECT_EQ(number(json, "ab.sprites"), 1000u);
  EXPECT_EQ(number(json, "ab.seed"), 7u);
  EXPECT_EQ(number(json, "ab.legs") * number(json, "ab.leg_frames"), 600u);
  for (const char* mode : {"pool", "new_delete"}) {
    const std::string m = std::string("ab.") + mode;
    EXPECT_GT(real(json, m + ".tick_ms.median"), 0.0) << mode;
    EXPECT_GE(real(json, m + ".tick_ms.p99"), real(json, m + ".tick_ms.median")) << mode;
    EXPECT_GT(real(json, m + ".frame_ms.median"), 0.0) << mode;
  }
  // The pool makes no allocation past warm-up (each leg restarts the scene, and its warm-up
  // ticks are not counted, as everywhere else), new/delete one per tree node every tick (about
  // 45 nodes for 1,000 sprites in leaves of up to 64; the count wobbles from tick to tick).
  EXPECT_EQ(real(json, "ab.pool.heap_allocations_per_tick"), 0.0);
  EXPECT_GT(real(json, "tree.nodes"), 20.0);
  EXPECT_GT(real(json, "ab.new_delete.heap_allocations_per_tick"), 0.8 * real(json, "tree.nodes"));
  EXPECT_GT(real(json, "ab.tick_median_ratio"), 0.0);
  EXPECT_EQ(json.at("ab.settings.draw_tree"), "true");
  // Four legs: pool -> new/delete -> pool -> new/delete -> back to pool.
  EXPECT_EQ(number(json, "allocator_switches"), 4u);
}

TEST_F(DemoSmoke, AbOnTheCommandLineRunsFromTheFirstFrameAndNamesTheSceneAndTheTreeSettings) {
  const test::ProcessResult r = test::run_quadpool(
      "--lab --scene mixed --ab --sprites 800 --seed 3 --frames 605 --window 640x400 "
      "--vsync off",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("scene"), "mixed");
  ASSERT_EQ(json.at("ab.state"), "done") << r.output;
  EXPECT_EQ(json.at("ab.scene"), "mixed");
  EXPECT_EQ(number(json, "ab.sprites"), 800u);
  EXPECT_EQ(number(json, "ab.tree.max_depth"), number(json, "tree.max_depth"));
  EXPECT_EQ(number(json, "ab.tree.leaf_capacity"), number(json, "tree.leaf_capacity"));
  EXPECT_GT(number(json, "ab.tree.leaf_capacity"), 0u);
  EXPECT_EQ(real(json, "ab.pool.heap_allocations_per_tick"), 0.0) << "warm-up ticks counted";
}

TEST_F(DemoSmoke, AbFromTheCommandLineReportsNoHeapAllocationPerWarmPoolTick) {
  // --ab (docs/window.md, "Flags and environment") at a size the smoke tests afford.
  const test::ProcessResult r = test::run_quadpool(
      "--lab --ab --sprites 2000 --frames 800 --window 640x400 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  ASSERT_EQ(json.at("ab.state"), "done") << r.output;
  EXPECT_EQ(real(json, "ab.pool.heap_allocations_per_tick"), 0.0);
  EXPECT_GT(real(json, "ab.new_delete.heap_allocations_per_tick"), 0.0);
  EXPECT_EQ(number(json, "modes.pool.warm_ticks_with_heap_allocations"), 0u);
}

TEST_F(DemoSmoke, TheSceneListSwitchesScenesLiveButNotDuringAnABRun) {
  ::setenv("QUADPOOL_DEMO_KEYS", "5:scene=clustered,10:scene=streams", 1);
  test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 700 --frames 20 --window 640x400 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto json = parse_summary(r);
  EXPECT_EQ(json.at("scene"), "streams");
  EXPECT_EQ(number(json, "sprites"), 700u) << "a new scene keeps the sprite count";

  ::setenv("QUADPOOL_DEMO_KEYS", "1:B,5:scene=mixed,10:Escape", 1);
  r = test::run_quadpool(
      "--lab --scene clustered --sprites 700 --frames 20 --window 640x400 --vsync off",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json = parse_summary(r);
  EXPECT_EQ(json.at("ab.state"), "cancelled");
  EXPECT_EQ(json.at("scene"), "clustered") << "the scene is locked while an A/B run measures";
}

TEST_F(DemoSmoke, DuringAnABRunTheMeasurementIsLockedAndEscCancelsItInsteadOfQuitting) {
  // B starts a run; F3, T, C, H, F2, F4 and a query during it must do nothing; Esc at 20
  // cancels the run and the demo goes on; F3 at 40 then pauses as usual.
  ::setenv("QUADPOOL_DEMO_KEYS",
           "1:B,10:F3,11:T,12:C,13:H,14:F2,15:F4,16:query=600/200/800/400,20:Escape,40:F3", 1);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 1000 --frames 60 --window 640x400 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(number(json, "frames"), 60u);  // Esc did not quit
  EXPECT_EQ(json.at("ab.state"), "cancelled");
  // Frames 0-39 ticked (neither F3 nor F4 paused the run), 40-59 paused.
  EXPECT_EQ(number(json, "modes.pool.frames") + number(json, "modes.new_delete.frames"), 40u);
  EXPECT_EQ(number(json, "modes.new_delete.frames"), 0u);  // F2 did not switch
  EXPECT_EQ(number(json, "allocator_switches"), 0u);
  EXPECT_EQ(number(json, "layout.refits"), 1u);  // H did not hide the panel
  EXPECT_EQ(json.at("query"), "null");           // nor did a shift-drag query
}

TEST_F(DemoSmoke, EscQuitsWhenNoABRunIsGoing) {
  ::setenv("QUADPOOL_DEMO_KEYS", "5:Escape", 1);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 500 --frames 100 --window 320x240 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(number(parse_summary(r), "frames"), 6u);
}

// The lab in a 320x240 window for `frames` frames with F12 pressed at frame 3, run in `dir`:
// F12 saves in the working folder.
test::ProcessResult f12_at_frame_3_in(const std::filesystem::path& dir, int frames) {
  ::setenv("QUADPOOL_DEMO_KEYS", "3:F12", 1);
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 500 --frames " + std::to_string(frames) + " --window 320x240 --vsync off",
      test::Capture::Stdout);
  std::filesystem::current_path(was);
  return r;
}

TEST_F(DemoSmoke, F12SavesAScreenshotInTheWorkingDirectoryAtAnyFrame) {
  const test::ProcessResult r = f12_at_frame_3_in(dir_, 10);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(parse_summary(r).at("f12_screenshot"), "quadpool-000003.png");
  const Image image = read_image(dir_ / "quadpool-000003.png");
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 240);
  EXPECT_GT(image.distinct_colours, 20u);
}

TEST_F(DemoSmoke, AZoomedOutCrowdIsADensityMapAndTheVertexStreamFollowsWhatIsDrawn) {
  // 300,000 sprites fitted into 1280x720 are well under 2 px across: a density map, whose
  // vertices follow the screen's area. One quad per sprite for three frames in flight would
  // take 300000 * 4 * 3 * 20 bytes = 69 MiB before rings and tree lines.
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 300000 --frames 3 --window 1280x720 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("density_map"), "true");
  EXPECT_LT(number(json, "vertex_stream.capacity_bytes"), 40u << 20);

  // 3,000 sprites are drawn as sprites.
  const test::ProcessResult small = test::run_quadpool(
      "--lab --sprites 3000 --frames 3 --window 1280x720 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(small.exit_code, 0) << small.output;
  EXPECT_EQ(parse_summary(small).at("density_map"), "false");
}

TEST_F(DemoSmoke, TheLabEndsOnTheStateTheHeadlessRunnerReachesInAsManyTicks) {
  // One tick a frame, none while paused, one per single step: frames 0-4 tick, F3 pauses at 5,
  // F4 steps at 8 and 9, F3 resumes at 12 and frames 12-29 tick. The summary must describe
  // every tick the frames ran (the last frame's included) and no other.
  ::setenv("QUADPOOL_DEMO_KEYS", "5:F3,8:F4,9:F4,12:F3", 1);
  const test::ProcessResult lab = test::run_quadpool(
      "--lab --sprites 20000 --seed 9 --frames 30 --window 640x400 --vsync off",
      test::Capture::Stdout);
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  const auto json = parse_summary(lab);
  constexpr std::uint64_t kTicks = 5 + 2 + 18;
  EXPECT_EQ(number(json, "ticks_since_reset"), kTicks);

  const test::ProcessResult headless = test::run_quadpool(
      "--headless --sprites 20000 --seed 9 --ticks " + std::to_string(kTicks) + " --json",
      test::Capture::Stdout);
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  EXPECT_EQ(json.at("state_hash"), parse_summary(headless).at("state_hash"));
}

TEST_F(DemoSmoke, AScriptedShiftDragQueriesTheTreeAndAShiftClickOnEmptySpaceClears) {
  // The world's rectangle starts at x = 390 in a 1280x720 window; the drag covers a part of it.
  ::setenv("QUADPOOL_DEMO_KEYS", "5:query=600/200/800/400", 1);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 5000 --frames 10 --window 1280x720 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_GT(number(json, "query.hits"), 50u);
  EXPECT_EQ(number(json, "query.hits"), number(json, "query.brute_hits"));
  EXPECT_GE(real(json, "query.brute_us"), 0.0);

  // A shift-click in the world's rectangle but outside the world (its margin): nothing there.
  ::setenv("QUADPOOL_DEMO_KEYS", "5:query=600/200/800/400,8:pick=395/3", 1);
  const test::ProcessResult cleared = test::run_quadpool(
      "--lab --sprites 5000 --frames 10 --window 1280x720 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(cleared.exit_code, 0) << cleared.output;
  const auto after = parse_summary(cleared);
  EXPECT_EQ(after.at("query"), "null");
  EXPECT_EQ(after.at("picked"), "null");
}

TEST_F(DemoSmoke, ScreenshotSavesTheLastFrameWhenEscEndsTheDemo) {
  ::setenv("QUADPOOL_DEMO_KEYS", "4:Escape", 1);
  const std::filesystem::path shot = dir_ / "esc.png";
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 500 --frames 100 --window 320x240 --vsync off --screenshot '" +
          shot.string() + "'",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(number(json, "frames"), 5u);
  EXPECT_EQ(json.at("screenshot"), shot.string());
  const Image image = read_image(shot);
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 240);
  EXPECT_GT(image.distinct_colours, 20u);
}

TEST_F(DemoSmoke, ABmpScreenshotIsWrittenWhenTheNameEndsInBmp) {
  const std::filesystem::path shot = dir_ / "smoke.bmp";
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 500 --frames 5 --window 320x240 --vsync off --screenshot '" + shot.string() +
          "'",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Image image = read_image(shot);
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 240);
  EXPECT_GT(image.distinct_colours, 20u);
}

// Runs the demo with the key script `keys` (none when empty) and returns its JSON summary. A
// run that fails is a test failure, and its summary is empty.
std::map<std::string, std::string> summary_of(const std::string& keys, const std::string& args) {
  if (keys.empty()) {
    ::unsetenv("QUADPOOL_DEMO_KEYS");
  } else {
    ::setenv("QUADPOOL_DEMO_KEYS", keys.c_str(), 1);
  }
  const test::ProcessResult r = test::run_quadpool(args + " --vsync off", test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.output;
  return r.exit_code == 0 ? parse_summary(r) : std::map<std::string, std::string>{};
}

// The panel's content never reaches past its edges: no line cut off on the right, nothing
// below the bottom that only a scrollbar would show. Read back from ImGui in every frame.
void expect_panel_fits(const std::map<std::string, std::string>& json, const std::string& what) {
  EXPECT_EQ(real(json, "panel.overflow_x"), 0.0) << what << ": a line is cut at the right edge";
  EXPECT_EQ(real(json, "panel.overflow_y"), 0.0) << what << ": the panel needs a scrollbar";
}

TEST_F(DemoSmoke, ThePanelCutsNothingAndNeedsNoScrollbarWithAnABResultAt720pAnd1080p) {
  // An A/B result is the panel at its tallest with the default sections open.
  for (const std::string window : {"1280x720", "1920x1080"}) {
    const auto json = summary_of("", "--lab --ab --sprites 200 --frames 603 --window " + window);
    ASSERT_EQ(json.at("ab.state"), "done") << window;
    expect_panel_fits(json, window);
  }
}

// A query's answer under an A/B result: the result folds to its ratio line while the query
// shows, so the panel still fits, in each of the query tool's modes.
TEST_F(DemoSmoke, ThePanelFitsWithAnABResultAndAQueryAnswerInEachMode) {
  for (const char* query : {"query=600/200/800/400", "ray=500/100/1100/600", "nearest=800/360"}) {
    const auto json = summary_of(std::string("605:") + query,
                                 "--lab --ab --sprites 200 --frames 610 --window 1280x720");
    ASSERT_EQ(json.at("ab.state"), "done") << query;
    ASSERT_NE(json.at("query"), "null") << query;
    expect_panel_fits(json, std::string("1280x720 with an A/B result and ") + query);
  }
}

TEST_F(DemoSmoke, ThePanelFitsWithAnABResultWhenTheTreeIsBuiltInItsSubtreePools) {
  // From 32,768 sprites the tree is built in 17 pools, one chunk or more each: the node pool's
  // strip has its 12 rows, as at a million sprites, where with an A/B result the panel once
  // needed a scrollbar (12 pixels at 1280x720) and cut its last section.
  for (const std::string window : {"1280x720", "1920x1080"}) {
    const auto json = summary_of("", "--lab --ab --sprites 33000 --frames 603 --window " + window);
    ASSERT_EQ(json.at("ab.state"), "done") << window;
    EXPECT_GE(number(json, "pool.chunks"), 12u) << window;
    expect_panel_fits(json, "33,000 sprites at " + window);
  }
}

// A summary's query: in `mode` (the tool's mode too), `hits` sprites from the tree and as many
// from the scan, the same answer.
void expect_query(const std::map<std::string, std::string>& json, const std::string& mode,
                  std::uint64_t hits, const std::string& what) {
  EXPECT_EQ(json.at("query_mode"), mode) << what;
  EXPECT_EQ(json.at("query.mode"), mode) << what;
  EXPECT_EQ(number(json, "query.hits"), hits) << what;
  EXPECT_EQ(number(json, "query.brute_hits"), hits) << what;
  EXPECT_EQ(json.at("query.agree"), "true") << what;
  EXPECT_GE(real(json, "query.brute_us"), 0.0) << what;
}

// The ray and nearest modes through the key script: each entry sets its mode on the query tool,
// the tree's answer equals the scan's, and Q cycles the mode (box, ray, nearest, box).
TEST_F(DemoSmoke, AScriptedRayAndNearestQueryTheTreeAndAgreeWithTheScan) {
  const std::string args = "--lab --sprites 5000 --frames 10 --window 1280x720";
  // A diagonal across the world's rectangle (it starts at x = 390): it meets sprites.
  const auto ray = summary_of("5:ray=450/100/1200/650", args);
  expect_query(ray, "ray", 1, "a ray across the world");
  EXPECT_GE(real(ray, "query.ray_t"), 0.0);
  EXPECT_LE(real(ray, "query.ray_t"), 1.0);
  // Along the top of the world's rectangle, outside the world (its margin): no sprite there.
  const auto missed = summary_of("5:ray=395/3/420/3", args);
  expect_query(missed, "ray", 0, "a ray outside the world");
  EXPECT_EQ(missed.at("query.ray_t"), "null");

  const auto nearest = summary_of("5:nearest=800/360", args);
  expect_query(nearest, "nearest", 8, "a nearest query");
  EXPECT_EQ(nearest.at("picked"), "null");

  // query= and pick= are the box mode's, whatever an earlier entry chose.
  const auto box = summary_of("3:nearest=800/360,5:query=600/200/800/400", args);
  EXPECT_EQ(box.at("query.mode"), "box");
  EXPECT_EQ(box.at("query.agree"), "true");
  EXPECT_GT(number(box, "query.hits"), 50u);

  EXPECT_EQ(summary_of("5:Q", args).at("query_mode"), "ray");
  const auto hint = summary_of("5:Q,6:Q", args);
  EXPECT_EQ(hint.at("query_mode"), "nearest");
  EXPECT_EQ(hint.at("query"), "null");
  expect_panel_fits(hint, "the nearest mode's hint");
  EXPECT_EQ(summary_of("5:Q,6:Q,7:Q", args).at("query_mode"), "box");
}

TEST_F(DemoSmoke, ThePanelFitsWithEachQueryModesAnswerAt720p) {
  // Each mode's answer, and a pick after a ray (its sprite and leaf instead), in the lab's
  // default sections. (Under an A/B result there is no room for the query's three lines: the
  // box query overflowed there before the ray and nearest modes came.)
  for (const std::string keys : {"5:query=600/200/800/400", "5:ray=450/100/1200/650",
                                 "5:nearest=800/360", "5:ray=450/100/1200/650,7:pick=800/360"}) {
    const auto json = summary_of(keys, "--lab --frames 10 --window 1280x720");
    EXPECT_NE(json.at("query") == "null", json.at("picked") == "null") << keys;
    expect_panel_fits(json, keys);
  }
}

// Sprites just over the map's 2 px drawn one quad each took SDL's software renderer twice the
// CPU time per frame that the map takes at 100,000 sprites in 1920x1080: under 4 px, more than
// SpriteRenderer::kMostSpritesOneByOne sprites in view are a density map too.
TEST_F(DemoSmoke, AHundredThousandSmallSpritesAreADensityMapNotAQuadEach) {
  struct Case {
    const char* args;
    bool density_map;
    std::uint64_t sprites;
  };
  // 2.07 px across and 100,000 in view: the map. 3.3 px and 40,000: a quad each, as are
  // 10,000 sprites of 4.3 px.
  for (const Case& c : {Case{"--sprites 100000 --window 1920x1080", true, 100000},
                        Case{"--sprites 40000 --window 1920x1080", false, 40000},
                        Case{"--sprites 10000 --window 1280x720", false, 10000}}) {
    const auto json = summary_of("", std::string("--lab --frames 3 ") + c.args);
    EXPECT_EQ(json.at("density_map"), c.density_map ? "true" : "false") << c.args;
    EXPECT_EQ(number(json, "sprites_in_view"), c.sprites) << c.args;
    EXPECT_EQ(number(json, "sprites_one_by_one"), c.density_map ? 0 : c.sprites) << c.args;
  }
}

// The ramp (G, or --ramp) at a top the smoke tests afford (--ramp-to 1000: 10 to 1,000 sprites):
// seven steps, each a new field, five warm-up frames, then four legs of 15 frames alternating
// pool and new/delete, 455 ticked frames in all.
constexpr int kRampFrames = 7 * (5 + 4 * 15);

TEST_F(DemoSmoke, GRampsTheLabsFieldStepByStepAndTheSummaryHasEveryStep) {
  const auto json = summary_of("1:G", "--lab --sprites 300 --seed 4 --ramp-to 1000 --frames " +
                                          std::to_string(kRampFrames + 10) + " --window 1280x720");
  ASSERT_EQ(json.at("ramp.state"), "done");
  EXPECT_EQ(number(json, "ramp.top"), 1000u);
  EXPECT_EQ(number(json, "ramp.seed"), 4u);
  EXPECT_EQ(json.at("ramp.scene"), "uniform");
  EXPECT_EQ(number(json, "ramp.legs") * number(json, "ramp.leg_frames"), 60u);
  ASSERT_EQ(number(json, "ramp.steps"), 7u);
  const std::uint64_t sprites[] = {10, 20, 50, 100, 200, 500, 1000};
  for (int i = 0; i < 7; ++i) {
    const std::string step = "ramp.steps." + std::to_string(i);
    EXPECT_EQ(number(json, step + ".sprites"), sprites[i]) << step;
    for (const char* mode : {".pool", ".new_delete"}) {
      EXPECT_GT(real(json, step + mode + ".tick_ms.median"), 0.0) << step << mode;
      EXPECT_GT(real(json, step + mode + ".frame_ms.median"), 0.0) << step << mode;
    }
    EXPECT_GT(real(json, step + ".tick_median_ratio"), 0.0) << step;
    // Measured as the A/B run measures: the pool's warm ticks allocate nothing, new/delete's
    // one block per tree node.
    EXPECT_EQ(real(json, step + ".pool.heap_allocations_per_tick"), 0.0) << step;
    EXPECT_GE(real(json, step + ".new_delete.heap_allocations_per_tick"), 1.0) << step;
  }
  // The field stays at the top, back on the pool; every step switched four times (its new
  // field on the pool, then new/delete, pool, new/delete), and the end back to the pool.
  EXPECT_EQ(number(json, "sprites"), 1000u);
  EXPECT_EQ(number(json, "allocator_switches"), 7u * 4u);
  EXPECT_EQ(json.at("mode"), "lab");
  expect_panel_fits(json, "1280x720 with the ramp's result");
}

TEST_F(DemoSmoke, RampOnTheCommandLineOpensTheLabLocksTheMeasurementAndGStopsIt) {
  // --ramp opens the lab and starts at the first frame. During it B, Tab, F2, F3 and + do
  // nothing; G at frame 150 (in the third step) stops it with two steps done and the controls
  // back as they were.
  auto json = summary_of("100:B,101:Tab,102:F2,103:F3,104:+,150:G",
                         "--ramp --ramp-to 1000 --sprites 300 --frames 170 --window 1280x720");
  ASSERT_EQ(json.at("ramp.state"), "stopped");
  EXPECT_EQ(json.at("mode"), "lab");
  EXPECT_EQ(json.at("ab.state"), "none");
  EXPECT_EQ(number(json, "ramp.steps"), 2u);
  EXPECT_EQ(number(json, "ramp.steps.1.sprites"), 20u);
  EXPECT_EQ(number(json, "sprites"), 50u) << "the third step's field stays";
  EXPECT_EQ(number(json, "modes.pool.frames") + number(json, "modes.new_delete.frames"), 170u)
      << "F3 paused during the ramp";
  expect_panel_fits(json, "1280x720 with a stopped ramp");

  // Esc stops a running ramp instead of quitting; in the game G does nothing.
  json = summary_of("30:Escape", "--ramp --ramp-to 1000 --sprites 300 --frames 60");
  EXPECT_EQ(number(json, "frames"), 60u);
  EXPECT_EQ(json.at("ramp.state"), "stopped");
  json = summary_of("2:G", "--sprites 300 --frames 10");
  EXPECT_EQ(json.at("mode"), "play");
  EXPECT_EQ(json.at("ramp.state"), "none");
}

TEST_F(DemoSmoke, ThePanelFitsAt720pWithTheRampsResultAfterAnABResult) {
  // The A/B result, then the ramp's in its place: the panel shows the last run's result.
  const auto json =
      summary_of("620:G", "--lab --ab --sprites 1000 --ramp-to 1000 --window 1280x720 --frames " +
                              std::to_string(620 + kRampFrames + 10));
  ASSERT_EQ(json.at("ab.state"), "done");
  ASSERT_EQ(json.at("ramp.state"), "done");
  expect_panel_fits(json, "1280x720 with an A/B and a ramp result");
}

// The key list (F1) opens over the world with its key column as wide as the longest key's name,
// and neither it nor the panel beside it is cut or needs a scrollbar, in either mode.
TEST_F(DemoSmoke, TheKeyListFitsBesideThePanelAt720pAnd1080pInBothModes) {
  for (const std::string window : {"1280x720", "1920x1080"}) {
    for (const char* keys : {"5:F1", "5:H,6:F1", "5:Tab,8:F1"}) {
      const auto json = summary_of(keys, "--sprites 2000 --frames 14 --window " + window);
      expect_panel_fits(json, window + " with " + keys);
    }
  }
}

TEST_F(DemoSmoke, InPlayThePanelWithItsPoolsTableAndAnABResultFitsAt720pAnd1080p) {
  // The game's panel, opened with H (the game starts with it folded): the pools table (one row
  // per entity type and the tree's) in place of the lab's pool strip, and an A/B result of the
  // bot's game.
  for (const std::string window : {"1280x720", "1920x1080"}) {
    const auto json = summary_of("1:H,2:B", "--bot --sprites 2000 --frames 606 --window " + window);
    ASSERT_EQ(json.at("layout.panel.w") != "0", true) << "H did not open the panel";
    ASSERT_EQ(json.at("ab.state"), "done") << window;
    expect_panel_fits(json, "play at " + window);
  }
}

// A key at a limit: the scene is the one the run started with (every frame ticked it, none
// restarted it) and the panel's notice says why.
void expect_unchanged_at_a_limit(const std::map<std::string, std::string>& json,
                                 std::uint64_t sprites, std::uint64_t frames, const char* why) {
  EXPECT_EQ(number(json, "sprites"), sprites);
  EXPECT_EQ(number(json, "ticks_since_reset"), frames) << "the scene restarted";
  const std::string notice = json.count("panel.notice") ? json.at("panel.notice") : "";
  EXPECT_NE(notice.find(why), std::string::npos) << notice;
}

TEST_F(DemoSmoke, AtTheCapPlusChangesNothingAndTheFullPanelFitsIn720Pixels) {
  // A million sprites: the pool's strip has its 12 rows and the tree's figures are at their
  // widest. '+' at frame 2 must neither restart the scene nor go past the cap, and says why.
  const auto json = summary_of("2:+", "--lab --sprites 1000000 --frames 5 --window 1280x720");
  expect_unchanged_at_a_limit(json, 1000000, 5, "cap of 1000000");
  expect_panel_fits(json, "1,000,000 sprites");
}

TEST_F(DemoSmoke, AtOneSpriteMinusChangesNothingAndSaysWhy) {
  const auto json = summary_of("3:-", "--lab --sprites 1 --frames 8 --window 640x400");
  expect_unchanged_at_a_limit(json, 1, 8, "minimum of 1 sprite");

  // Away from the limits, + doubles the live count and leaves no notice.
  const auto doubled = summary_of("3:+", "--lab --sprites 300 --frames 8 --window 640x400");
  EXPECT_EQ(number(doubled, "sprites"), 600u);
  EXPECT_EQ(doubled.at("panel.notice"), "null");
}

TEST_F(DemoSmoke, SpawnedSpritesShowInTheSliderAndAnABRunKeepsThem) {
  // Three frames with the left button held in the world: 8 sprites each. Then B: every leg
  // starts from these 1,024 sprites, and the scene keeps them afterwards.
  const auto json = summary_of("3:spawn=800/360,4:spawn=800/360,5:spawn=800/360,8:B",
                               "--lab --sprites 1000 --frames 615 --window 1280x720");
  EXPECT_EQ(number(json, "sprites"), 1024u);
  EXPECT_EQ(number(json, "panel.sprites_slider"), 1024u);
  ASSERT_EQ(json.at("ab.state"), "done");
  EXPECT_EQ(number(json, "ab.sprites"), 1024u);
}

TEST_F(DemoSmoke, TheDefaultWindowFitsTheDisplayAndAGivenSizeIsKept) {
  // SDL's dummy display is 1024x768; ctest's xvfb screen is 1280x800. The default window
  // (1280x800) shrinks to fit; --window is kept as asked.
  const auto json = summary_of("", "--lab --sprites 500 --frames 3");
  if (on_a_display()) {
    EXPECT_LE(number(json, "window_width"), 1280u);
    EXPECT_LE(number(json, "window_height"), 800u);
  } else {
    EXPECT_EQ(number(json, "window_width"), 1024u);
    EXPECT_EQ(number(json, "window_height"), 768u);
  }
  const auto given = summary_of("", "--lab --sprites 500 --frames 3 --window 1100x780");
  EXPECT_EQ(number(given, "window_width"), 1100u);
}

TEST_F(DemoSmoke, OnA1280x720ScreenTheDefaultWindowIs1280x720) {
  // The screen of a small laptop, on a real X server: the window must not open 1280x800 at
  // y = -40 with the panel's title off screen.
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "xvfb-run is not installed";
  }
  ::setenv("SDL_VIDEODRIVER", "x11", 1);
  const test::ProcessResult r = test::run_quadpool_on_screen(
      "1280x720", "--lab --sprites 500 --frames 3 --vsync off", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(number(json, "window_width"), 1280u);
  EXPECT_EQ(number(json, "window_height"), 720u);
  expect_panel_fits(json, "the default window on a 1280x720 screen");
}

TEST_F(DemoSmoke, TheDensityMapStaysInsideTheWorldsBorder) {
  // 100,000 sprites fitted into 1280x720: a map of 3-pixel cells on the screen's grid. The
  // cells across the world's edges are cut at them: the rows and columns just outside the
  // world, as the summary gives it, are background.
  const std::filesystem::path shot = dir_ / "density.bmp";
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 100000 --frames 3 --window 1280x720 --vsync off --screenshot '" +
          shot.string() + "'",
      test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  ASSERT_EQ(json.at("density_map"), "true");
  const int x = static_cast<int>(real(json, "layout.world_drawn.x"));
  const int y = static_cast<int>(real(json, "layout.world_drawn.y"));
  const int w = static_cast<int>(real(json, "layout.world_drawn.w"));
  const int h = static_cast<int>(real(json, "layout.world_drawn.h"));
  int width = 0, height = 0, channels = 0;
  std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load(shot.c_str(), &width, &height, &channels, 3), &stbi_image_free);
  ASSERT_TRUE(pixels) << shot;
  ASSERT_TRUE(y >= 3 && y + h + 4 <= height && x >= 3 && x + w + 4 <= width);
  const auto background = [&](int px, int py) {
    const stbi_uc* p = pixels.get() + (static_cast<std::size_t>(py) * width + px) * 3;
    return p[0] == 18 && p[1] == 20 && p[2] == 28;  // the clear colour
  };
  int spilled = 0;
  for (int d = 2; d <= 3; ++d) {  // 2 and 3 pixels outside: clear of the border's own line
    for (int px = x; px < x + w; ++px)
      spilled += !background(px, y - d) + !background(px, y + h + d);
    for (int py = y; py < y + h; ++py)
      spilled += !background(x - d, py) + !background(x + w + d, py);
  }
  EXPECT_EQ(spilled, 0) << "density cells drawn outside the world";
}

TEST_F(DemoSmoke, WithoutADisplayTheDemoSuggestsHeadlessOrXvfbAndExitsWith2) {
  // The X11 driver with no DISPLAY: what a user sees over ssh without X forwarding.
  ::setenv("SDL_VIDEODRIVER", "x11", 1);
  const char* display = std::getenv("DISPLAY");
  const std::string saved = display != nullptr ? display : "";
  ::unsetenv("DISPLAY");
  const test::ProcessResult r = test::run_quadpool("--lab --frames 5", test::Capture::Stderr);
  if (!saved.empty()) ::setenv("DISPLAY", saved.c_str(), 1);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--headless"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("xvfb-run"), std::string::npos) << r.output;
}

TEST_F(DemoSmoke, WithoutADisplayTheDemoDoesNotFallBackToAnInvisibleWindow) {
  // No driver asked for and no display: SDL 2.26 would quietly pick its offscreen driver, and
  // the demo would run forever in a window nobody sees. Without XDG_RUNTIME_DIR, as over ssh.
  ::unsetenv("SDL_VIDEODRIVER");
  std::map<std::string, std::string> saved;
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"}) {
    if (const char* value = std::getenv(name)) saved[name] = value;
    ::unsetenv(name);
  }
  const test::ProcessResult r = test::run_quadpool("--lab --frames 5", test::Capture::Stderr);
  for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no X11 or Wayland display"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("xvfb-run"), std::string::npos) << r.output;
  // SDL's own noise (its Wayland backend's complaint) does not come before the message.
  EXPECT_EQ(r.output.find("XDG_RUNTIME_DIR"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.rfind("quadpool: cannot open a window", 0), 0u) << r.output;
}

// A disk that fills up while the screenshot is written, made with a file-size limit (CI runs
// as root, so a read-only folder would stop nothing): SIGXFSZ ignored, so write(2) fails with
// EFBIG as it fails with ENOSPC on a full disk. The limit's unit is 512 or 1024 bytes (dash or
// bash); a 640x400 frame of 1,000 sprites takes far more than 8 units.
constexpr const char* kFullDisk = "trap '' XFSZ; ulimit -f 8";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t files_in(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

TEST_F(DemoSmoke, AScreenshotOnAFullDiskKeepsTheOldFileAndExitsWith1) {
  for (const char* name : {"full.png", "full.bmp"}) {
    const std::filesystem::path shot = dir_ / name;
    const std::string good(20000, 'g');  // the good screenshot of an earlier run
    std::ofstream(shot, std::ios::binary) << good;
    const test::ProcessResult r = test::run_quadpool(
        "--lab --sprites 1000 --frames 3 --window 640x400 --vsync off --screenshot '" +
            shot.string() + "'",
        test::Capture::Both, kFullDisk);
    EXPECT_EQ(r.exit_code, 1) << name << ": " << r.output;
    EXPECT_NE(r.output.find("quadpool: --screenshot " + shot.string() + ": write failed: "),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("wrote"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("\"screenshot\""), std::string::npos) << "listed: " << r.output;
    EXPECT_EQ(read_file(shot), good) << name << ": the old file changed";
    EXPECT_EQ(files_in(dir_), 1u) << name << ": a temporary file was left behind";
    std::filesystem::remove(shot);
  }
}

TEST_F(DemoSmoke, F12OnAFullDiskKeepsTheOldFileLogsTheErrorAndTheDemoGoesOn) {
  ::setenv("QUADPOOL_DEMO_KEYS", "3:F12", 1);
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  const std::string good(20000, 'g');
  std::ofstream("quadpool-000003.png", std::ios::binary) << good;
  const test::ProcessResult r =
      test::run_quadpool("--lab --sprites 1000 --frames 6 --window 640x400 --vsync off",
                         test::Capture::Both, kFullDisk);
  std::filesystem::current_path(was);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("F12: quadpool-000003.png: write failed: "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("wrote"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"f12_screenshot\": null"), std::string::npos) << r.output;
  EXPECT_EQ(read_file(dir_ / "quadpool-000003.png"), good);
  EXPECT_EQ(files_in(dir_), 1u) << "a temporary file was left behind";
}

// An X display number that nothing listens on (xvfb-run -a takes the first free one from 99).
std::string unused_display() {
  for (int n = 99; n < 999; ++n) {
    const std::string number = std::to_string(n);
    if (!std::filesystem::exists("/tmp/.X11-unix/X" + number) &&
        !std::filesystem::exists("/tmp/.X" + number + "-lock")) {
      return ":" + number;
    }
  }
  return ":999";
}

TEST_F(DemoSmoke, ADisplayThatCannotBeOpenedGivesOnlyTheDemosMessageAndExitCode2) {
  // $DISPLAY set but dead, no Wayland, no XDG_RUNTIME_DIR (as for root in CI): libwayland once
  // printed its complaint first, and under ASan a leak inside libdbus turned exit 2 into 1.
  const test::ProcessResult r = test::run_quadpool(
      "--lab --frames 5", test::Capture::Stderr,
      "unset SDL_VIDEODRIVER WAYLAND_DISPLAY WAYLAND_SOCKET XDG_RUNTIME_DIR; export DISPLAY=" +
          unused_display());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("quadpool: cannot open a window: no X11 or Wayland display", 0), 0u)
      << r.output;
  EXPECT_NE(r.output.find("xvfb-run"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("XDG_RUNTIME_DIR is invalid"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Sanitizer"), std::string::npos) << r.output;
}

TEST_F(DemoSmoke, AKeyScriptFrameWithASpaceOrASignIsRefusedOnOneQuotedLine) {
  // " -1:A" once passed: strtoull skipped the space and wrapped -1 to 2^64-1.
  for (const char* script :
       {" -1:A", "-1:A", "1:A\n2:B", "1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}) {
    ::setenv("QUADPOOL_DEMO_KEYS", script, 1);
    const test::ProcessResult r = test::run_quadpool("--lab --frames 5", test::Capture::Stderr);
    EXPECT_EQ(r.exit_code, 2) << script << ": " << r.output;
    EXPECT_EQ(r.output.rfind("quadpool: QUADPOOL_DEMO_KEYS: '", 0), 0u) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "not one line: " << r.output;
  }
}

TEST_F(DemoSmoke, AMalformedKeyScriptIsRejectedWithExitCode2) {
  ::setenv("QUADPOOL_DEMO_KEYS", "80:A,soon:B", 1);
  const test::ProcessResult r = test::run_quadpool("--lab --frames 5", test::Capture::Stderr);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("QUADPOOL_DEMO_KEYS"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("soon:B"), std::string::npos) << r.output;
}

// Runs the demo with $QUADPOOL_ASSETS set to `assets` and no display at all: what it says about
// the assets comes before any window would open.
test::ProcessResult run_with_assets(const std::filesystem::path& assets) {
  ::unsetenv("SDL_VIDEODRIVER");
  return test::run_quadpool("--lab --frames 3", test::Capture::Stderr,
                            "unset DISPLAY WAYLAND_DISPLAY; export QUADPOOL_ASSETS='" +
                                assets.string() + "'");
}

// While $QUADPOOL_ASSETS is set it is the only folder searched: a bad one once gave a line that
// listed four other places, never the variable's value, and exit 1.
TEST_F(DemoSmoke, AQuadpoolAssetsWithoutTheAtlasIsNamedAndExitsWith2BeforeAnyWindowOpens) {
  const std::string only =
      "; while it is set it is the only folder searched (unset it to search next to the "
      "executable)\n";
  const std::pair<std::filesystem::path, std::string> cases[] = {
      {dir_ / "no-such-folder", "which is not a folder"},
      {dir_, "a folder without sprites.png"},
  };
  for (const auto& [folder, what] : cases) {
    const test::ProcessResult r = run_with_assets(folder);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output, "quadpool: cannot find sprites.png: QUADPOOL_ASSETS is '" +
                            folder.string() + "', " + what + only);
  }
}

// The sprite renderer cuts its regions from a 256x128 atlas: one of another size was drawn from
// the wrong cells, with exit 0.
TEST_F(DemoSmoke, AnAtlasOfTheWrongSizeOrNoImageIsRefusedNamingTheFileAndBothSizes) {
  const std::filesystem::path atlas = dir_ / "sprites.png";
  const std::string expected =
      "the sprite atlas is 256x128 pixels (4 x 2 cells of 64, as scripts/make_assets.py makes "
      "it)\n";
  const std::vector<unsigned char> half_size(128 * 64 * 4, 255);
  ASSERT_NE(stbi_write_png(atlas.c_str(), 128, 64, 4, half_size.data(), 128 * 4), 0);
  const test::ProcessResult small = run_with_assets(dir_);
  EXPECT_EQ(small.exit_code, 2) << small.output;
  EXPECT_EQ(small.output, "quadpool: '" + atlas.string() + "' is 128x64 pixels; " + expected);

  std::ofstream(atlas, std::ios::binary | std::ios::trunc) << "not an image";
  const test::ProcessResult junk = run_with_assets(dir_);
  EXPECT_EQ(junk.exit_code, 2) << junk.output;
  EXPECT_EQ(junk.output.rfind("quadpool: cannot read '" + atlas.string() + "' as an image (", 0),
            0u)
      << junk.output;
  EXPECT_NE(junk.output.find("); " + expected), std::string::npos) << junk.output;
  EXPECT_EQ(junk.output.find('\n'), junk.output.size() - 1) << junk.output;

  // The real atlas from the same folder draws.
  std::filesystem::copy_file(QUADPOOL_SOURCE_DIR "/assets/sprites.png", atlas,
                             std::filesystem::copy_options::overwrite_existing);
  const test::ProcessResult good = test::run_quadpool(
      "--lab --sprites 100 --frames 2 --vsync off", test::Capture::Stderr,
      "export SDL_VIDEODRIVER=" + std::string(on_a_display() ? "x11" : "dummy") +
          " QUADPOOL_ASSETS='" + dir_.string() + "'");
  EXPECT_EQ(good.exit_code, 0) << good.output;
}

// SDL ignores an SDL_RENDER_DRIVER it has no renderer of and takes another without a word.
TEST_F(DemoSmoke, AnUnknownRenderDriverIsSaidOnceInTheLogAndAsANoticeAndTheDemoRunsOn) {
  const std::filesystem::path log = dir_ / "stderr.txt";
  const auto run = [&](const std::string& driver) {
    // The braces keep stderr in the file: run_command sends the group's stderr elsewhere.
    return test::run_command("{ SDL_RENDER_DRIVER=" + driver + " '" + QUADPOOL_EXE +
                                 "' --lab --sprites 100 --frames 3 --vsync off 2>'" +
                                 log.string() + "'; }",
                             test::Capture::Stdout);
  };
  const test::ProcessResult bogus = run("bogus");
  ASSERT_EQ(bogus.exit_code, 0) << read_file(log);
  const auto json = parse_summary(bogus);
  const std::string notice = json.at("panel.notice");
  EXPECT_EQ(notice.rfind("SDL_RENDER_DRIVER 'bogus' is not a renderer SDL knows (it has ", 0), 0u)
      << notice;
  EXPECT_NE(notice.find("software"), std::string::npos) << "the list lacks SDL's own: " << notice;
  EXPECT_NE(notice.find("), so SDL uses renderer " + json.at("renderer")), std::string::npos)
      << notice;
  const std::string said = read_file(log);
  EXPECT_NE(said.find("[warning] " + notice + "\n"), std::string::npos) << said;
  const std::size_t first = said.find("SDL_RENDER_DRIVER");
  EXPECT_EQ(said.find("SDL_RENDER_DRIVER", first + 1), std::string::npos) << "said twice: " << said;

  // A renderer SDL has but cannot start on its dummy video driver (no OpenGL there).
  if (!on_a_display()) {
    const test::ProcessResult opengl = run("opengl");
    ASSERT_EQ(opengl.exit_code, 0) << read_file(log);
    const auto shown = parse_summary(opengl);
    EXPECT_EQ(shown.at("panel.notice"),
              "SDL_RENDER_DRIVER 'opengl' could not start here, so SDL uses renderer " +
                  shown.at("renderer"));
  }

  // A name SDL has, in any case: nothing to say.
  const test::ProcessResult known = run("SOFTWARE");
  ASSERT_EQ(known.exit_code, 0) << read_file(log);
  EXPECT_EQ(parse_summary(known).at("panel.notice"), "null");
  EXPECT_EQ(read_file(log).find("SDL_RENDER_DRIVER"), std::string::npos) << read_file(log);
}

}  // namespace
}  // namespace quadpool::game

namespace quadpool::game {
namespace {

// --- the game ----------------------------------------------------------------------------------

// A human's game of one life through scripted keys: from frame 5 the pilot turns on the spot
// and fires, stops firing at 150 and waits for the threats, which end the game at frame 841 in
// this field; the allocator key switches to new/delete at 200 and back at 400, mid-game; after
// the game is over the keys are let go and Enter starts a second game.
constexpr const char* kHumanGameKeys =
    "5:down=D,5:down=Space,150:up=Space,200:F2,400:F2,900:up=D,910:down=Return,913:up=Return";
constexpr const char* kHumanGameArgs =
    "--sprites 1500 --seed 3 --lives 1 --window 640x400 --vsync off";

void expect_entity_counts_add_up(const std::map<std::string, std::string>& json) {
  for (const char* type : {"shots", "debris", "sparks", "explosions"}) {
    const std::string at = std::string("game.entities.") + type + ".";
    EXPECT_EQ(number(json, at + "created"),
              number(json, at + "destroyed") + number(json, at + "live"))
        << type;
  }
}

TEST_F(DemoSmoke, TheBotPlaysByItselfAndScores) {
  const std::filesystem::path shot = dir_ / "play.png";
  const test::ProcessResult r =
      test::run_quadpool("--play --bot --frames 1200 --window 640x400 --vsync off --screenshot '" +
                             shot.string() + "'",
                         test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("mode"), "play");
  EXPECT_EQ(json.at("play.pilot"), "bot");
  EXPECT_GT(number(json, "game.score"), 0u);
  EXPECT_GT(number(json, "game.kills"), 0u);
  EXPECT_GT(number(json, "game.entities.debris.created"), 0u);
  expect_entity_counts_add_up(json);
  // A warm pooled play tick allocates nothing, entities included.
  EXPECT_GE(number(json, "modes.pool.warm_ticks"), 1000u);
  EXPECT_EQ(number(json, "modes.pool.max_warm_tick_heap_allocations"), 0u);
  EXPECT_GT(number(json, "play.sounds_played"), 0u);
  const Image image = read_image(shot);
  EXPECT_EQ(image.width, 640);
  EXPECT_GT(image.distinct_colours, 20u);
}

// One tick a frame, the bot seeded as headless: the window's attract mode is the headless game,
// on any number of threads.
TEST_F(DemoSmoke, TheBotInTheWindowFliesTheHeadlessBotsGameOnAnyThreadCount) {
  const std::string game = "--bot --sprites 3000 --seed 5 --frames 500 --window 640x400";
  const auto one = summary_of("", game + " --threads 1");
  const auto two = summary_of("", game + " --threads 2");
  EXPECT_EQ(number(one, "threads"), 1u);
  EXPECT_EQ(number(two, "threads"), 2u);
  const test::ProcessResult headless = test::run_quadpool(
      "--headless --play --bot --sprites 3000 --seed 5 --ticks 500 --threads 3 --json",
      test::Capture::Stdout);
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  EXPECT_EQ(one.at("play.state_hash"), parse_summary(headless).at("state_hash"));
  EXPECT_EQ(two.at("play.state_hash"), one.at("play.state_hash"));
}

TEST_F(DemoSmoke, AHumanGameFiresHitsLosesItsLivesEndsAndRestartsAcrossAllocatorSwitches) {
  ::setenv("QUADPOOL_DEMO_KEYS", kHumanGameKeys, 1);
  const test::ProcessResult r =
      test::run_quadpool(std::string(kHumanGameArgs) + " --frames 1000", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("play.pilot"), "player");
  EXPECT_GT(number(json, "game.entities.shots.created"), 0u);  // fired
  EXPECT_GT(number(json, "game.kills"), 0u);                   // hit rocks
  EXPECT_EQ(number(json, "game.games"), 2u);                   // game over, then Enter
  EXPECT_EQ(json.at("game.game_over"), "false");
  EXPECT_EQ(number(json, "game.lives"), 1u);  // the second game's
  // The first game's score went to the high score when its lives were gone.
  EXPECT_GT(number(json, "play.high_score"), 0u);
  EXPECT_EQ(number(json, "allocator_switches"), 2u);
  EXPECT_GE(number(json, "modes.new_delete.frames"), 150u);
  expect_entity_counts_add_up(json);
}

// The replay `record` in a 640x400 window for `frames` frames; the summary is on stdout.
test::ProcessResult replay_in_window(const std::filesystem::path& record, int frames) {
  return test::run_quadpool("--replay '" + record.string() + "' --frames " +
                                std::to_string(frames) + " --window 640x400 --vsync off",
                            test::Capture::Stdout);
}

TEST_F(DemoSmoke, AGameRecordedInTheWindowReplaysHeadlessAndInTheWindowToItsHash) {
  ::setenv("QUADPOOL_DEMO_KEYS", kHumanGameKeys, 1);
  const std::filesystem::path record = dir_ / "human.qpr";
  const test::ProcessResult played = test::run_quadpool(
      std::string(kHumanGameArgs) + " --frames 1000 --record '" + record.string() + "'",
      test::Capture::Stdout);
  ASSERT_EQ(played.exit_code, 0) << played.output;
  const auto json = parse_summary(played);
  EXPECT_EQ(json.at("game.recorded_to"), record.string());
  const std::string hash = json.at("play.state_hash");

  ::unsetenv("QUADPOOL_DEMO_KEYS");
  const test::ProcessResult headless = test::run_quadpool(
      "--headless --allocator new-delete --replay '" + record.string() + "' --json",
      test::Capture::Stdout);
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  const auto replayed = parse_summary(headless);
  EXPECT_EQ(replayed.at("state_hash"), hash);
  EXPECT_EQ(replayed.at("game.replay.matches"), "true");
  EXPECT_EQ(number(replayed, "game.games"), 2u);

  // In the window: the replay plays its 1000 ticks, then the game stands still on its hash.
  const test::ProcessResult window = replay_in_window(record, 1050);
  ASSERT_EQ(window.exit_code, 0) << window.output;
  const auto shown = parse_summary(window);
  EXPECT_EQ(shown.at("play.pilot"), "replay");
  EXPECT_EQ(shown.at("play.state_hash"), hash);
  EXPECT_EQ(shown.at("game.replay.matches"), "true");
}

// A replay played to its end in the window waits on its verdict; Enter watches it again from
// its start (the game's restart key, which the replay's own commands otherwise decide).
TEST_F(DemoSmoke, EnterWatchesAFinishedReplayAgainFromItsStart) {
  const std::filesystem::path record = dir_ / "bot.qpr";
  ::unsetenv("QUADPOOL_DEMO_KEYS");
  const test::ProcessResult recorded = test::run_quadpool(
      "--headless --play --bot --sprites 800 --ticks 40 --record '" + record.string() + "'",
      test::Capture::Stdout);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
  const std::string args =
      "--replay '" + record.string() + "' --frames 70 --window 640x400";
  const auto waited = summary_of("", args);
  EXPECT_EQ(number(waited, "game.ticks_played"), 40u) << "the replay stops at its end";
  EXPECT_EQ(waited.at("game.replay.matches"), "true");
  // Enter at frame 50, ten frames after the end: frames 50..69 replay it again from tick 0.
  const auto again = summary_of("50:down=Return,51:up=Return", args);
  EXPECT_EQ(number(again, "game.ticks_played"), 20u) << "the replay did not start over";
}

TEST_F(DemoSmoke, ABadReplayFileExitsWith2OnOneLineBeforeAnyWindowOpens) {
  const std::filesystem::path junk = dir_ / "junk.qpr";
  std::ofstream(junk) << "not a replay";
  // No display at all: the file is refused before SDL is asked for one.
  ::unsetenv("SDL_VIDEODRIVER");
  for (const std::filesystem::path& file : {junk, dir_ / "missing.qpr"}) {
    const test::ProcessResult r =
        test::run_quadpool("--replay '" + file.string() + "' --frames 5", test::Capture::Stderr,
                           "unset DISPLAY WAYLAND_DISPLAY");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output.rfind("quadpool: ", 0), 0u) << r.output;
    EXPECT_NE(r.output.find(file.filename().string()), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  }
}

TEST_F(DemoSmoke, AbInPlayRunsBothLegsWithTheBotFlyingThenGivesThePlayerANewGame) {
  const test::ProcessResult r =
      test::run_quadpool("--ab --sprites 2000 --seed 4 --frames 620 --window 640x400 --vsync off",
                         test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("mode"), "play");
  EXPECT_EQ(json.at("ab.state"), "done");
  EXPECT_GE(number(json, "modes.pool.frames"), 300u);
  EXPECT_GE(number(json, "modes.new_delete.frames"), 300u);
  EXPECT_EQ(json.at("play.pilot"), "player");  // the A/B's bot handed the ship back
  EXPECT_LT(number(json, "game.ticks_played"), 30u);
}

// A player's finished game sets the high score, final score included (blasts still going off
// when the ship is lost score after the game is over), and the next run starts from it.
TEST_F(DemoSmoke, AFinishedGameIsTheHighScoreWhichTheNextRunReads) {
  const auto over = summary_of("5:down=D,5:down=Space,150:up=Space",
                               "--sprites 1500 --seed 3 --lives 1 --window 640x400 --frames 900");
  ASSERT_EQ(over.at("game.game_over"), "true");
  EXPECT_GT(number(over, "game.score"), 0u);
  EXPECT_EQ(number(over, "play.high_score"), number(over, "game.score"));
  EXPECT_TRUE(std::filesystem::is_regular_file(dir_ / "quadpool" / "high_score"));
  const auto next = summary_of("", "--sprites 500 --frames 3 --window 640x400");
  EXPECT_EQ(number(next, "play.high_score"), number(over, "game.score"));
}

// The high score's folder cannot be made (a file stands where it would go): the game goes on,
// and the notice on screen (and in the summary) says the score was not saved.
TEST_F(DemoSmoke, AHighScoreThatCannotBeSavedIsANoticeAndTheGameGoesOn) {
  const std::filesystem::path blocker = dir_ / "not-a-folder";
  std::ofstream(blocker) << "x";
  ::setenv("XDG_DATA_HOME", blocker.c_str(), 1);
  ::setenv("QUADPOOL_DEMO_KEYS", kHumanGameKeys, 1);
  const test::ProcessResult r =
      test::run_quadpool(std::string(kHumanGameArgs) + " --frames 1000", test::Capture::Stdout);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(number(json, "game.games"), 2u);
  EXPECT_GT(number(json, "play.high_score"), 0u);  // kept in memory
  EXPECT_EQ(json.at("play.notice").rfind("high score not saved: ", 0), 0u)
      << json.at("play.notice");
}

TEST_F(DemoSmoke, TabSwitchesBetweenTheGameAndTheLab) {
  const auto lab = summary_of("10:Tab", "--sprites 800 --frames 20 --window 640x400");
  EXPECT_EQ(lab.at("mode"), "lab");
  EXPECT_EQ(lab.at("game"), "null");
  const auto back = summary_of("10:Tab", "--lab --sprites 800 --frames 20 --window 640x400");
  EXPECT_EQ(back.at("mode"), "play");
}

// In the game an A/B run throws the player's game away (the bot flies every leg): one B only
// asks, on screen, and a second B soon after starts it.
TEST_F(DemoSmoke, InTheGameOneBAsksAndASecondBStartsTheABRun) {
  const auto asked = summary_of("5:B", "--sprites 800 --frames 12 --window 640x400");
  EXPECT_EQ(asked.at("ab.state"), "none");
  EXPECT_NE(asked.at("panel.notice").find("B again"), std::string::npos)
      << asked.at("panel.notice");
  EXPECT_EQ(asked.at("play.pilot"), "player");
  const auto started = summary_of("5:B,8:B", "--sprites 800 --frames 12 --window 640x400");
  EXPECT_EQ(started.at("ab.state"), "running");
  // The bot's attract mode has no player's game to lose: one B starts it.
  EXPECT_EQ(summary_of("5:B", "--bot --sprites 800 --frames 12 --window 640x400").at("ab.state"),
            "running");
}

// The game's clock: 60 ticks a second of wall time, however fast the frames come (hundreds a
// second on the dummy driver). A ceiling that cannot flake; the floor is loose, since a loaded
// machine may drop time (the game then runs slower, never faster).
TEST_F(DemoSmoke, TheGameTicksSixtyTimesASecondOfWallTimeNotOnceAFrame) {
  ::unsetenv("QUADPOOL_FRAME_TICKS");
  const auto json = summary_of("", "--sprites 800 --frames 300 --window 640x400");
  const double seconds = real(json, "seconds");
  const double ticks = real(json, "ticks");
  ASSERT_GT(seconds, 0.0);
  EXPECT_LE(ticks, 60.0 * seconds + 1.0) << "faster than real time";
  EXPECT_GE(ticks, 0.25 * 60.0 * seconds) << "far slower than real time";
  EXPECT_NEAR(real(json, "ticks_per_second"), ticks / seconds, 0.01 * ticks / seconds);
  std::printf("%.0f ticks in %.2f s over 300 frames: %.1f ticks a second\n", ticks, seconds,
              ticks / seconds);
}

TEST_F(DemoSmoke, ABadFrameTicksValueExitsWith2NamingItsRange) {
  for (const char* value : {"0", "5", "-1", "x", ""}) {
    ::setenv("QUADPOOL_FRAME_TICKS", value, 1);
    const test::ProcessResult r = test::run_quadpool("--frames 3", test::Capture::Stderr);
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_NE(r.output.find("QUADPOOL_FRAME_TICKS is '" + std::string(value) +
                            "': it must be an integer in [1, 4]"),
              std::string::npos)
        << r.output;
  }
}

// The game starts with the panel folded to one line, out of the pilot's way (the world takes
// the whole window); H opens it, and each mode keeps its own H across Tab.
TEST_F(DemoSmoke, TheGameStartsWithThePanelFoldedAndHOpensIt) {
  const std::string args = "--sprites 800 --frames 8 --window 1280x720";
  EXPECT_EQ(real(summary_of("", args), "layout.world.w"), 1280.0);
  EXPECT_GT(real(summary_of("", "--lab " + args), "layout.panel.w"), 0.0);
  EXPECT_GT(real(summary_of("3:H", args), "layout.panel.w"), 0.0);
  EXPECT_EQ(real(summary_of("3:Tab,5:Tab", args), "layout.world.w"), 1280.0)
      << "the lab's panel came back to the game";
}

// The tree is the lab's subject and clutter over the game: off in the game and on in the lab
// at the start, and each mode keeps its own T across Tab.
TEST_F(DemoSmoke, TheTreeIsDrawnInTheLabAndNotInTheGameUnlessTSaysSo) {
  EXPECT_EQ(summary_of("", "--sprites 800 --frames 5 --window 640x400").at("draw_tree"), "false");
  EXPECT_EQ(summary_of("", "--lab --sprites 800 --frames 5 --window 640x400").at("draw_tree"),
            "true");
  EXPECT_EQ(summary_of("3:Tab", "--sprites 800 --frames 6 --window 640x400").at("draw_tree"),
            "true");
  // T in the game, to the lab and back: the game's T is kept.
  EXPECT_EQ(
      summary_of("2:T,4:Tab,6:Tab", "--sprites 800 --frames 8 --window 640x400").at("draw_tree"),
      "true");
}

// Tab held as a person holds it (press, several frames, release) is the mode key alone: ImGui
// must not also take it for keyboard navigation, focus the panel's first text field and so
// swallow every later hotkey. F2 after it still switches the allocator.
TEST_F(DemoSmoke, ATabHeldForSeveralFramesLeavesTheHotkeysToTheGame) {
  for (const char* start : {"", "--lab "}) {
    const auto json = summary_of("10:down=Tab,14:up=Tab,20:F2",
                                 std::string(start) + "--sprites 800 --frames 30 --window 640x400");
    EXPECT_EQ(json.at("mode"), std::string(start).empty() ? "lab" : "play") << start;
    EXPECT_EQ(number(json, "allocator_switches"), 1u) << start << "F2 after Tab did nothing";
  }
}

// A bot's game of 120 ticks on 1500 sprites, seed 3, recorded in the window.
std::filesystem::path record_a_short_game(const std::filesystem::path& dir) {
  ::unsetenv("QUADPOOL_DEMO_KEYS");
  const std::filesystem::path record = dir / "short.qpr";
  const test::ProcessResult r = test::run_quadpool(
      "--bot --sprites 1500 --seed 3 --scene mixed --frames 120 --window 640x400 --vsync off "
      "--record '" + record.string() + "'",
      test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return record;
}

// --frames ends a window replay before its last tick: the verdict is "not finished" (matches
// null, finished false), never a mismatch.
TEST_F(DemoSmoke, AWindowReplayStoppedBeforeItsEndIsNotFinishedRatherThanAMismatch) {
  const std::filesystem::path record = record_a_short_game(dir_);
  const test::ProcessResult r = replay_in_window(record, 30);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = parse_summary(r);
  EXPECT_EQ(json.at("game.replay.finished"), "false");
  EXPECT_EQ(json.at("game.replay.matches"), "null");
  const test::ProcessResult headless = test::run_quadpool(
      "--headless --replay '" + record.string() + "' --json", test::Capture::Stdout);
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  EXPECT_EQ(parse_summary(headless).at("game.replay.finished"), "true");
}

// F12 in a folder that holds an earlier session's screenshot of the same frame: the old file is
// kept and the new one takes the next free name.
TEST_F(DemoSmoke, F12NeverOverwritesAnEarlierScreenshotAndTakesTheNextFreeName) {
  std::ofstream(dir_ / "quadpool-000003.png") << "an earlier session's";
  std::ofstream(dir_ / "quadpool-000003-1.png") << "and another";
  const test::ProcessResult r = f12_at_frame_3_in(dir_, 6);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(parse_summary(r).at("f12_screenshot"), "quadpool-000003-2.png");
  std::ifstream old(dir_ / "quadpool-000003.png");
  const std::string kept(std::istreambuf_iterator<char>(old), {});
  EXPECT_TRUE(kept == "an earlier session's") << "the earlier screenshot was overwritten";
  EXPECT_EQ(read_image(dir_ / "quadpool-000003-2.png").width, 320);
}

// The spawn, pick and query coordinates are window pixels: a value no window has is refused
// as bad input (it once reached a float-to-int conversion that overflows, undefined behaviour).
TEST_F(DemoSmoke, AKeyScriptCoordinateNoWindowHasIsRefusedWithExitCode2) {
  ::setenv("QUADPOOL_DEMO_KEYS", "3:spawn=2147483647/2147483647", 1);
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 200 --frames 6 --window 320x240 --vsync off", test::Capture::Stderr);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("spawn=2147483647/2147483647"), std::string::npos) << r.output;
  for (const std::string entry : {"ray=0/0/7681/5", "nearest=-1/5", "ray=1/2/3", "nearest=a/b"}) {
    ::setenv("QUADPOOL_DEMO_KEYS", ("3:" + entry).c_str(), 1);
    const test::ProcessResult bad = test::run_quadpool(
        "--lab --sprites 200 --frames 6 --window 320x240 --vsync off", test::Capture::Stderr);
    EXPECT_EQ(bad.exit_code, 2) << entry << ": " << bad.output;
    EXPECT_NE(bad.output.find(entry), std::string::npos) << bad.output;
    EXPECT_EQ(std::count(bad.output.begin(), bad.output.end(), '\n'), 1) << bad.output;
  }
}

// The demo's output is the summary on stdout and the log on stderr, in one stream here: the
// summary is the line that starts with '{'.
struct SplitRun {
  int exit_code = -1;
  std::map<std::string, std::string> json;
  std::string log;
};

SplitRun run_split(const std::string& args) {
  const test::ProcessResult r = test::run_quadpool(args, test::Capture::Both);
  SplitRun split{r.exit_code, {}, {}};
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind('{', 0) == 0) {
      split.json = test::FlatJson::parse(line).value_or(std::map<std::string, std::string>{});
    } else {
      split.log += line + "\n";
    }
  }
  return split;
}

// The replay decides the game: the log line and the summary name its sprites, seed and scene,
// not the command line's defaults (10000 sprites, seed 1, uniform).
TEST_F(DemoSmoke, AReplayInTheWindowLogsAndReportsTheReplaysStartNotTheCommandLines) {
  const std::filesystem::path record = record_a_short_game(dir_);
  const SplitRun run = run_split("--replay '" + record.string() +
                                 "' --frames 130 --window 640x400 --vsync off");
  ASSERT_EQ(run.exit_code, 0) << run.log;
  EXPECT_NE(run.log.find("demo: 1500 sprites, seed 3, scene mixed, storm off"), std::string::npos)
      << run.log;
  EXPECT_EQ(run.json.at("seed"), "3");
  EXPECT_EQ(run.json.at("scene"), "mixed");
  EXPECT_EQ(run.json.at("game.replay.finished"), "true");
  EXPECT_EQ(run.json.at("game.replay.matches"), "true");
}

// SDL 2.26 reads a folder named by SDL_GAMECONTROLLERCONFIG_FILE as a file of 2^63 bytes and
// asks for that much memory: the demo refuses the value with one warning before SDL sees it.
TEST_F(DemoSmoke, AControllerConfigFileThatIsAFolderIsRefusedWithOneWarningBeforeSdlReadsIt) {
  const test::ProcessResult r = test::run_quadpool(
      "--lab --sprites 200 --frames 3 --window 320x240 --vsync off", test::Capture::Stderr,
      "export SDL_GAMECONTROLLERCONFIG_FILE='" + dir_.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::size_t warnings = 0;
  for (std::size_t at = r.output.find("SDL_GAMECONTROLLERCONFIG_FILE"); at != std::string::npos;
       at = r.output.find("SDL_GAMECONTROLLERCONFIG_FILE", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1u) << r.output;
  EXPECT_NE(r.output.find("'" + dir_.string() + "': it is a folder, not a file"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace quadpool::game
