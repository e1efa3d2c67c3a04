// Tests of game/play/pilot_controls.*: held keys, the mouse and a controller's sticks and
// buttons become the command the contract in the header describes; the stick really flies the
// ship toward where it points.
#include "game/play/pilot_controls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include <gtest/gtest.h>

#include "game/play/play_config.hpp"
#include "game/play/ship.hpp"

namespace quadpool::game::play {
namespace {

constexpr Vec2 kShip{400.0f, 300.0f};
constexpr Vec2 kEast{1.0f, 0.0f};

TEST(PilotControls, NothingHeldIsAnEmptyCommand) {
  const PilotControls controls;
  EXPECT_EQ(controls.command(kShip, kEast), InputCommand{});
}

TEST(PilotControls, EachKeySetsItsBitAndReleasingItClearsIt) {
  PilotControls controls;
  controls.set_key(PilotAction::Thrust, true);
  controls.set_key(PilotAction::Fire, true);
  controls.set_key(PilotAction::Restart, true);
  InputCommand command = controls.command(kShip, kEast);
  EXPECT_TRUE(command.thrust());
  EXPECT_TRUE(command.fire());
  EXPECT_TRUE(command.restart());
  EXPECT_EQ(command.steer, 0);
  controls.set_key(PilotAction::Fire, false);
  command = controls.command(kShip, kEast);
  EXPECT_TRUE(command.thrust());
  EXPECT_FALSE(command.fire());
  controls.release_all();
  EXPECT_EQ(controls.command(kShip, kEast), InputCommand{});
}

TEST(PilotControls, LeftAndRightSteerAndCancelWhenBothAreHeld) {
  PilotControls controls;
  controls.set_key(PilotAction::Left, true);
  EXPECT_EQ(controls.command(kShip, kEast).steer, -1);
  controls.set_key(PilotAction::Right, true);
  EXPECT_EQ(controls.command(kShip, kEast).steer, 0);
  controls.set_key(PilotAction::Left, false);
  EXPECT_EQ(controls.command(kShip, kEast).steer, 1);
}

TEST(PilotControls, AKeyAndAPadButtonOfOneActionAreHeldApart) {
  PilotControls controls;
  controls.set_key(PilotAction::Fire, true);
  controls.set_pad_button(PilotAction::Fire, true);
  controls.set_key(PilotAction::Fire, false);
  EXPECT_TRUE(controls.command(kShip, kEast).fire());  // the pad still holds it
  controls.release_pad();
  EXPECT_FALSE(controls.command(kShip, kEast).fire());
}

TEST(PilotControls, MouseAimPointsFromTheShipToTheCursor) {
  PilotControls controls;
  controls.move_mouse(kShip.x - 120.0f, kShip.y + 40.0f);
  const InputCommand command = controls.command(kShip, kEast);
  EXPECT_EQ(command.aim, aim_toward(-120.0f, 40.0f));
  EXPECT_EQ(command.aim.x, -FixedAim::kAimScale);
  EXPECT_FALSE(command.fire());
  controls.set_mouse_button(true);
  EXPECT_TRUE(controls.command(kShip, kEast).fire());
  controls.set_mouse_button(false);
  EXPECT_FALSE(controls.command(kShip, kEast).fire());
}

TEST(PilotControls, ASteerKeyPressTurnsMouseAimOffUntilTheMouseMovesAgain) {
  PilotControls controls;
  controls.move_mouse(10.0f, 10.0f);
  EXPECT_TRUE(controls.command(kShip, kEast).aims());
  controls.set_key(PilotAction::Right, true);
  EXPECT_FALSE(controls.command(kShip, kEast).aims());  // shots go along the heading
  controls.move_mouse(kShip.x, kShip.y - 50.0f);
  EXPECT_EQ(controls.command(kShip, kEast).aim, aim_toward(0.0f, -50.0f));
  controls.mouse_left();
  EXPECT_FALSE(controls.command(kShip, kEast).aims());
}

TEST(PilotControls, TheLeftStickInsideTheDeadZoneDoesNothing) {
  PilotControls controls;
  controls.set_pad_axis(PadAxis::LeftX, PilotControls::kStickDeadZone - 1);
  controls.set_pad_axis(PadAxis::RightY, -PilotControls::kStickDeadZone + 1);
  controls.set_pad_axis(PadAxis::RightTrigger, PilotControls::kTriggerFire);
  EXPECT_EQ(controls.command(kShip, {0.0f, -1.0f}), InputCommand{});
}

TEST(PilotControls, TheLeftStickSteersTowardItsDirectionAndThrustsPastHalfWay) {
  PilotControls controls;
  // Heading east, stick down (y-down screen): a clockwise turn, +1.
  controls.set_pad_axis(PadAxis::LeftY, 12000);
  InputCommand command = controls.command(kShip, kEast);
  EXPECT_EQ(command.steer, 1);
  EXPECT_FALSE(command.thrust());
  controls.set_pad_axis(PadAxis::LeftY, -32768);  // the odd extreme counts as -32767
  command = controls.command(kShip, kEast);
  EXPECT_EQ(command.steer, -1);
  EXPECT_TRUE(command.thrust());
  // Along the heading: no steer; straight behind: a turn (right) rather than a stall.
  controls.set_pad_axis(PadAxis::LeftY, 0);
  controls.set_pad_axis(PadAxis::LeftX, 30000);
  EXPECT_EQ(controls.command(kShip, kEast).steer, 0);
  controls.set_pad_axis(PadAxis::LeftX, -30000);
  EXPECT_EQ(controls.command(kShip, kEast).steer, 1);
  // The keys win over the stick.
  controls.set_key(PilotAction::Left, true);
  EXPECT_EQ(controls.command(kShip, kEast).steer, -1);
}

TEST(PilotControls, TheRightStickAimsAndTheTriggerFires) {
  PilotControls controls;
  controls.move_mouse(0.0f, 0.0f);
  controls.set_pad_axis(PadAxis::RightX, 20000);
  controls.set_pad_axis(PadAxis::RightY, -20000);
  InputCommand command = controls.command(kShip, kEast);
  EXPECT_EQ(command.aim, aim_toward(1.0f, -1.0f));
  EXPECT_FALSE(command.fire());
  controls.set_pad_axis(PadAxis::RightTrigger, 32767);
  EXPECT_TRUE(controls.command(kShip, kEast).fire());
  // Released, the stick does not hand the guns back to the old cursor: along the heading.
  controls.set_pad_axis(PadAxis::RightX, 0);
  controls.set_pad_axis(PadAxis::RightY, 0);
  EXPECT_FALSE(controls.command(kShip, kEast).aims());
}

TEST(PilotControls, AnyAxisValueIsSafe) {
  PilotControls controls;
  for (const int value : {-2147483647 - 1, -32768, -1, 0, 32767, 2147483647}) {
    controls.set_pad_axis(PadAxis::LeftX, value);
    controls.set_pad_axis(PadAxis::LeftY, value);
    controls.set_pad_axis(PadAxis::RightX, value);
    controls.set_pad_axis(PadAxis::RightTrigger, value);
    const InputCommand command = controls.command(kShip, kEast);
    EXPECT_GE(command.steer, -1);
    EXPECT_LE(command.steer, 1);
  }
  controls.set_pad_axis(static_cast<PadAxis>(200), 5);  // not an axis: ignored
}

// Flies the real ship under the stick's command: from any heading, the ship turns toward the
// stick and then holds within a turn step of it, without swinging back and forth.
TEST(PilotControls, TheStickTurnsTheShipToPointWhereItPoints) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> axis(-32768, 32767);
  const Tuning tuning = tuning_for(false);
  for (int trial = 0; trial < 200; ++trial) {
    PilotControls controls;
    const int x = axis(random), y = axis(random);
    controls.set_pad_axis(PadAxis::LeftX, x);
    controls.set_pad_axis(PadAxis::LeftY, y);
    const Vec2 stick{static_cast<float>(std::max(x, -32767)),
                     static_cast<float>(std::max(y, -32767))};
    if (length_sq(stick) <= 8000.0f * 8000.0f) continue;
    const Vec2 want = normalized_or(stick, kEast);
    Ship ship;
    ship.position = {5000.0f, 5000.0f};
    ship.heading = normalized_or({static_cast<float>(axis(random)), static_cast<float>(axis(random))},
                                 kEast);
    // Half a turn takes about 45 ticks at 4 degrees a tick.
    for (int tick = 0; tick < 60; ++tick)
      fly(ship, controls.command({}, ship.heading), tuning.ship, 1e4f);
    for (int tick = 0; tick < 20; ++tick) {
      ASSERT_GT(dot(ship.heading, want), std::cos(0.08f)) << "seed " << seed << " trial " << trial;
      fly(ship, controls.command({}, ship.heading), tuning.ship, 1e4f);
    }
  }
}

}  // namespace
}  // namespace quadpool::game::play
