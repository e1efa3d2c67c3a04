// Tests of game/window/sdl/pilot_input.*: SDL's key, mouse and controller events become the pilot's
// commands. The controller tests plug a real (virtual) SDL game controller in and out: SDL
// opens it through the same path as a USB pad, on the dummy video driver, no display needed.
#include "game/window/sdl/pilot_input.hpp"

#include <SDL2/SDL.h>  // demo_tests gets no SDL include path: quadpool::demo links SDL privately

#include <cstdlib>
#include <memory>

#include <gtest/gtest.h>

namespace quadpool::game::window::sdl {
namespace {

constexpr float kShipX = 300.0f, kShipY = 200.0f;
constexpr play::Vec2 kEast{1.0f, 0.0f};

SDL_Event key_event(Uint32 type, SDL_Keycode key, Uint8 repeat = 0) {
  SDL_Event event{};
  event.type = type;
  event.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
  event.key.repeat = repeat;
  event.key.keysym.sym = key;
  return event;
}

SDL_Event mouse_event(Uint32 type, int x, int y) {
  SDL_Event event{};
  event.type = type;
  if (type == SDL_MOUSEMOTION) {
    event.motion.x = x;
    event.motion.y = y;
  } else {
    event.button.button = SDL_BUTTON_LEFT;
    event.button.x = x;
    event.button.y = y;
  }
  return event;
}

play::InputCommand command_of(const PilotInput& input) {
  return input.command(kShipX, kShipY, kEast);
}

TEST(PilotInput, KeysSetTheirBitsAndReleasesClearThem) {
  PilotInput input;
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_w), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_SPACE), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_LEFT), false, false));
  play::InputCommand command = command_of(input);
  EXPECT_TRUE(command.thrust());
  EXPECT_TRUE(command.fire());
  EXPECT_FALSE(command.restart());
  EXPECT_EQ(command.steer, -1);
  EXPECT_TRUE(input.handle(key_event(SDL_KEYUP, SDLK_SPACE), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYUP, SDLK_LEFT), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_d), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_KP_ENTER), false, false));
  command = command_of(input);
  EXPECT_TRUE(command.thrust());
  EXPECT_FALSE(command.fire());
  EXPECT_TRUE(command.restart());
  EXPECT_EQ(command.steer, 1);
  input.release_all();
  EXPECT_EQ(command_of(input), play::InputCommand{});
}

TEST(PilotInput, RepeatsOtherKeysAndKeysImGuiWantsAreNotThePilots) {
  PilotInput input;
  EXPECT_FALSE(input.handle(key_event(SDL_KEYDOWN, SDLK_s), false, false));  // no brake
  EXPECT_FALSE(input.handle(key_event(SDL_KEYDOWN, SDLK_F1), false, false));
  EXPECT_TRUE(input.handle(key_event(SDL_KEYDOWN, SDLK_SPACE, 1), false, false));
  EXPECT_FALSE(command_of(input).fire());  // a repeat presses nothing
  EXPECT_FALSE(input.handle(key_event(SDL_KEYDOWN, SDLK_UP), false, true));
  EXPECT_FALSE(command_of(input).thrust());
  // A release always is: a key held when ImGui takes the keyboard does not stick.
  input.handle(key_event(SDL_KEYDOWN, SDLK_UP), false, false);
  EXPECT_TRUE(input.handle(key_event(SDL_KEYUP, SDLK_UP), false, true));
  EXPECT_FALSE(command_of(input).thrust());
}

TEST(PilotInput, TheMouseAimsFromTheShipToTheCursorAndTheLeftButtonFires) {
  PilotInput input;
  EXPECT_TRUE(input.handle(mouse_event(SDL_MOUSEMOTION, 500, 150), false, false));
  EXPECT_EQ(command_of(input).aim, play::aim_toward(500.0f - kShipX, 150.0f - kShipY));
  EXPECT_TRUE(input.handle(mouse_event(SDL_MOUSEBUTTONDOWN, 100, 260), false, false));
  play::InputCommand command = command_of(input);
  EXPECT_TRUE(command.fire());
  EXPECT_EQ(command.aim, play::aim_toward(100.0f - kShipX, 260.0f - kShipY));
  EXPECT_TRUE(input.handle(mouse_event(SDL_MOUSEBUTTONUP, 100, 260), false, false));
  EXPECT_FALSE(command_of(input).fire());
  // Over ImGui: no click, and the guns go back to the heading.
  EXPECT_FALSE(input.handle(mouse_event(SDL_MOUSEBUTTONDOWN, 10, 10), true, false));
  EXPECT_FALSE(input.handle(mouse_event(SDL_MOUSEMOTION, 10, 10), true, false));
  EXPECT_EQ(command_of(input), play::InputCommand{});
}

TEST(PilotInput, WithoutTheControllerSubsystemControllerEventsAreIgnored) {
  ASSERT_EQ(SDL_WasInit(SDL_INIT_GAMECONTROLLER), 0u);
  PilotInput input;
  SDL_Event added{};
  added.type = SDL_CONTROLLERDEVICEADDED;
  added.cdevice.which = 0;
  EXPECT_FALSE(input.handle(added, false, false));
  EXPECT_EQ(input.controllers_open(), 0u);
  EXPECT_EQ(input.controller_name(), "");
}

// SDL with its controller subsystem on the dummy video driver, and a virtual controller with
// every axis and button of SDL's game controller layout, which SDL then maps as a controller.
class PilotInputController : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("SDL_VIDEODRIVER", "dummy", 1);
    ASSERT_EQ(SDL_Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS), 0) << SDL_GetError();
  }
  void TearDown() override { SDL_Quit(); }

  // Attaches the virtual controller; returns its device index.
  static int attach() {
    SDL_VirtualJoystickDesc desc{};
    desc.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    desc.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    desc.naxes = SDL_CONTROLLER_AXIS_MAX;
    desc.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    desc.axis_mask = (1u << SDL_CONTROLLER_AXIS_MAX) - 1;
    desc.button_mask = (1u << SDL_CONTROLLER_BUTTON_MAX) - 1;
    desc.name = "quadpool test pad";
    return SDL_JoystickAttachVirtualEx(&desc);
  }

  // Pumps SDL's queue into `input`, as the window's event loop does; returns how many events
  // the pilot took.
  static int pump(PilotInput& input) {
    SDL_GameControllerUpdate();
    int taken = 0;
    SDL_Event event;
    while (SDL_PollEvent(&event) != 0) taken += input.handle(event, false, false) ? 1 : 0;
    return taken;
  }
};

TEST_F(PilotInputController, APluggedInControllerSteersThrustsAimsAndFiresUntilUnplugged) {
  PilotInput input;
  EXPECT_EQ(input.controllers_open(), 0u);
  const int index = attach();
  ASSERT_GE(index, 0) << SDL_GetError();
  ASSERT_EQ(SDL_IsGameController(index), SDL_TRUE);
  pump(input);
  ASSERT_EQ(input.controllers_open(), 1u);
  EXPECT_FALSE(input.controller_name().empty());

  SDL_Joystick* joystick = SDL_JoystickOpen(index);  // the same device, to move its axes
  ASSERT_NE(joystick, nullptr) << SDL_GetError();
  SDL_JoystickSetVirtualAxis(joystick, SDL_CONTROLLER_AXIS_LEFTY, -32768);  // up, full
  SDL_JoystickSetVirtualAxis(joystick, SDL_CONTROLLER_AXIS_RIGHTX, -30000);  // aim left
  SDL_JoystickSetVirtualButton(joystick, SDL_CONTROLLER_BUTTON_A, 1);
  EXPECT_GT(pump(input), 0);
  play::InputCommand command = command_of(input);
  EXPECT_EQ(command.steer, -1);  // heading east, stick up: counter-clockwise
  EXPECT_TRUE(command.thrust());
  EXPECT_TRUE(command.fire());
  EXPECT_EQ(command.aim, play::aim_toward(-1.0f, 0.0f));

  SDL_JoystickSetVirtualButton(joystick, SDL_CONTROLLER_BUTTON_A, 0);
  SDL_JoystickSetVirtualButton(joystick, SDL_CONTROLLER_BUTTON_START, 1);
  SDL_JoystickSetVirtualAxis(joystick, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
  pump(input);
  command = command_of(input);
  EXPECT_TRUE(command.fire());  // the trigger now
  EXPECT_TRUE(command.restart());

  // Unplugged mid-game: closed, nothing held any more, the keyboard flies alone.
  input.handle(key_event(SDL_KEYDOWN, SDLK_w), false, false);
  SDL_JoystickClose(joystick);
  ASSERT_EQ(SDL_JoystickDetachVirtual(index), 0) << SDL_GetError();
  pump(input);
  EXPECT_EQ(input.controllers_open(), 0u);
  EXPECT_EQ(input.controller_name(), "");
  command = command_of(input);
  EXPECT_EQ(command.steer, 0);
  EXPECT_FALSE(command.fire());
  EXPECT_FALSE(command.restart());
  EXPECT_FALSE(command.aims());
  EXPECT_TRUE(command.thrust());
}

TEST_F(PilotInputController, AControllerPresentAtStartIsOpenedOnceAndItsStateRead) {
  const int index = attach();
  ASSERT_GE(index, 0) << SDL_GetError();
  SDL_Joystick* joystick = SDL_JoystickOpen(index);
  ASSERT_NE(joystick, nullptr) << SDL_GetError();
  SDL_JoystickSetVirtualAxis(joystick, SDL_CONTROLLER_AXIS_LEFTY, 20000);  // down, past half
  SDL_JoystickUpdate();
  PilotInput input;
  EXPECT_EQ(input.controllers_open(), 1u);
  const play::InputCommand command = command_of(input);  // read at open, before any event
  EXPECT_EQ(command.steer, 1);
  EXPECT_TRUE(command.thrust());
  pump(input);  // SDL announces it again: still one
  EXPECT_EQ(input.controllers_open(), 1u);
  SDL_JoystickClose(joystick);
}

TEST_F(PilotInputController, EventsOfUnknownDevicesAreHarmless) {
  PilotInput input;
  SDL_Event event{};
  event.type = SDL_CONTROLLERDEVICEADDED;
  event.cdevice.which = 57;
  input.handle(event, false, false);
  event.cdevice.which = -3;
  input.handle(event, false, false);
  event.type = SDL_CONTROLLERDEVICEREMOVED;
  event.cdevice.which = 12345;
  input.handle(event, false, false);
  SDL_Event axis{};
  axis.type = SDL_CONTROLLERAXISMOTION;
  axis.caxis.which = 777;
  axis.caxis.axis = SDL_CONTROLLER_AXIS_LEFTX;
  axis.caxis.value = -32768;
  input.handle(axis, false, false);
  SDL_Event button{};
  button.type = SDL_CONTROLLERBUTTONDOWN;
  button.cbutton.which = 777;
  button.cbutton.button = 250;
  input.handle(button, false, false);
  EXPECT_EQ(input.controllers_open(), 0u);
  EXPECT_EQ(command_of(input), play::InputCommand{});
}

TEST_F(PilotInputController, OutlivingSdlIsSafe) {
  const int index = attach();
  ASSERT_GE(index, 0) << SDL_GetError();
  auto input = std::make_unique<PilotInput>();
  EXPECT_EQ(input->controllers_open(), 1u);
  SDL_Quit();  // frees the controller; the destructor must not close it again
  input.reset();
  ASSERT_EQ(SDL_Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS), 0) << SDL_GetError();
}

}  // namespace
}  // namespace quadpool::game::window::sdl
