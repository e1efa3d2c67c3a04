#pragma once
// The engine's build switches for a build without CMake: engine/core and engine/memory (and
// engine/spatial) copied into another tree and compiled there, the way one lifts
// foonathan/memory or EnTT headers:
//
//   cp -r quadpool/engine/core quadpool/engine/memory quadpool/engine/spatial my_game/engine/
//   g++ -std=c++20 -ffp-contract=off -I my_game my_game/main.cpp my_game/engine/*/*.cpp
//
// A CMake build never reads this file. There CMake generates engine/core/config.hpp from
// config.hpp.in (the top CMakeLists.txt, from QUADPOOL_ASSERTS and QUADPOOL_MEMORY_*) into
// <build>/generated/<config>/, which comes before the source root on every include path, and
// installs that one, not this one. The #error below makes a CMake build that reaches this file
// anyway (the generated folder after the source root on some target's path) fail instead of
// mixing two sets of values in one program.
//
// The rule here, the one a copied tree has without a build system: the switches follow NDEBUG,
// as <cassert> does. Without NDEBUG QUADPOOL_ASSERT and all four memory debug checks (see
// engine/memory/debug.hpp) are on; with -DNDEBUG all are off. NDEBUG because it is the one
// switch a release build already sets on every file, and the memory checks follow the asserts
// as CMake's AUTO does. (CMake's AUTO also keeps them on in RelWithDebInfo and test builds,
// which define NDEBUG; a bare compiler line has no build type to go by.)
//
// The switches change inline code (try_allocate(), deallocate()), so compile every file of the
// program, the engine's .cpp files and yours, with the same NDEBUG. To decide otherwise, edit
// the values below in your copy: there is one decision per build, here, and no -D overrides.

#if __has_include("engine/core/config_is_generated.hpp")
// A CMake build: its generated folder is on the include path, but after the source root.
#error "checked-in config.hpp in a CMake build: put <build>/generated/<config> first on the -I path"
#endif
#if defined(QUADPOOL_CONFIG_ASSERTS) || defined(QUADPOOL_CONFIG_MEMORY_FILL) ||        \
    defined(QUADPOOL_CONFIG_MEMORY_SLOT_STATE) ||                                        \
    defined(QUADPOOL_CONFIG_MEMORY_POINTER_CHECKS) || defined(QUADPOOL_CONFIG_MEMORY_LEAK_CHECK)
#error "engine/core/config.hpp decides QUADPOOL_CONFIG_*: edit it, do not pass them with -D"
#endif

#if defined(NDEBUG)
#define QUADPOOL_CONFIG_ASSERTS 0
#else
#define QUADPOOL_CONFIG_ASSERTS 1
#endif
#define QUADPOOL_CONFIG_MEMORY_FILL QUADPOOL_CONFIG_ASSERTS
#define QUADPOOL_CONFIG_MEMORY_SLOT_STATE QUADPOOL_CONFIG_ASSERTS
#define QUADPOOL_CONFIG_MEMORY_POINTER_CHECKS QUADPOOL_CONFIG_ASSERTS
#define QUADPOOL_CONFIG_MEMORY_LEAK_CHECK QUADPOOL_CONFIG_ASSERTS
