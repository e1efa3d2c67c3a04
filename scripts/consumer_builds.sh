#!/usr/bin/env bash
# Builds examples/ (a game's bullets in an ObjectPool, queried through a QuadTree; its enemies in
# a SlotPool, referred to by handles; its rocks kept in the tree's order) against
# quadpool's engine the four ways a game takes it, with SDL2, spdlog, fmt, CLI11 and GoogleTest
# hidden from CMake (the copy has none), and checks that each program links none of them, then
# runs it:
#   find_package      quadpool built engine-only and installed into a fresh prefix, then
#                     find_package(quadpool 0.2 CONFIG REQUIRED); the installed
#                     engine/core/config.hpp must be the generated one
#   add_subdirectory  the checkout as a subproject, with quadpool's defaults for one; the
#                     generated config folder must come before the checkout on the include path
#   pkg-config        g++ examples/PROGRAM.cpp $(pkg-config --cflags --libs quadpool)
#   copy              engine/core, engine/memory and engine/spatial copied, and nothing else,
#                     into a fresh tree, their .cpp files compiled with the program by bare
#                     g++ -std=c++20 -ffp-contract=off -I<copy> lines, once without and once
#                     with -DNDEBUG (the checked-in engine/core/config.hpp follows it); and
#                     engine/core + engine/memory alone, to show that memory needs no spatial
# Needs only g++, cmake, ninja and pkg-config.
#
#   scripts/consumer_builds.sh [OUT]
#
# OUT is the work folder (default: build/consumer in this checkout; a relative OUT is taken from
# the folder you run it in). It must be new, empty, or one that an earlier run filled (it holds
# quadpool.log). A run deletes there only what it writes: quadpool/, prefix/, find_package/,
# add_subdirectory/, pkg-config/, copy/ and the three .log files. The file system's root, your
# home, this checkout or a folder that holds it, and a file are refused.
set -euo pipefail

# shellcheck source=scripts/bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) exit_with_usage "$0" ;;
    -*) refuse_argument consumer_builds.sh "$1" "it takes one folder, OUT" ;;
    *) [ -z "$OUT" ] || refuse_argument consumer_builds.sh "$1" "it takes one folder, OUT, and has '$OUT'"
       OUT=$1; shift ;;
  esac
done
# Before the cd, so that a relative OUT names a folder below the caller's.
OUT=$(realpath -m -- "${OUT:-$(dirname "$0")/../build/consumer}")
cd "$(dirname "$0")/.."
ROOT=$(pwd -P)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# The programs of examples/, each examples/PROGRAM.cpp (examples/CMakeLists.txt builds the same).
EXAMPLES="bullets entities box_order"
# CMAKE_DISABLE_FIND_PACKAGE_<Name> makes a REQUIRED find_package of <Name> fail the configure,
# so a configure that passes reached no such call.
HIDDEN=(SDL2 spdlog fmt CLI11 GTest)
HIDE=()
for name in "${HIDDEN[@]}"; do HIDE+=("-DCMAKE_DISABLE_FIND_PACKAGE_$name=ON"); done

# configure LOG ARGS...: runs cmake ARGS into LOG, then checks that CMake reports every
# CMAKE_DISABLE_FIND_PACKAGE_<Name> as unused, which it does only when no find_package(<Name>)
# call, REQUIRED or not, was reached.
configure() {
  local log=$1 name
  shift
  cmake "$@" "${HIDE[@]}" >"$log" 2>&1 || { cat "$log"; fail "configure failed: cmake $*"; }
  for name in "${HIDDEN[@]}"; do
    grep -q "^ *CMAKE_DISABLE_FIND_PACKAGE_$name\$" "$log" ||
      fail "the configure called find_package($name) (see $log)"
  done
  echo "configured; no find_package call for ${HIDDEN[*]}"
}

say() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf 'consumer_builds.sh: %s\n' "$*" >&2; exit 1; }

# check_binary EXE: no library of the game's (dynamic or static) is in EXE; then run it.
check_binary() {
  local exe=$1 needed symbols
  needed=$( (readelf -d "$exe" | grep NEEDED; ldd "$exe") || true)
  if grep -Eiq 'sdl|spdlog|fmt|cli11|gtest|gmock|imgui' <<<"$needed"; then
    fail "$exe links a library it must not: $needed"
  fi
  symbols=$(nm -C "$exe" | grep -E ' (spdlog|fmt|CLI|testing|ImGui)::| SDL_' || true)
  if [ -n "$symbols" ]; then
    fail "$exe holds code of a library it must not: $(head -3 <<<"$symbols")"
  fi
  echo "$exe: dynamic libraries: $(readelf -d "$exe" | grep -o 'NEEDED.*' | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' ')"
  "$exe"
}

refuse_out() { echo "consumer_builds.sh: OUT '$OUT' $*; name another folder" >&2; exit 2; }
[ "$OUT" != / ] || refuse_out "is the file system's root"
[ "$OUT" != "$(realpath -m -- "${HOME:-/}")" ] || refuse_out "is your home folder"
case "$ROOT/" in "$OUT"/*) refuse_out "is this checkout or holds it" ;; esac
[ ! -e "$OUT" ] || [ -d "$OUT" ] || refuse_out "is not a folder"
# A folder of someone else's may hold a quadpool/ or prefix/ of its own.
if [ -n "$(ls -A "$OUT" 2>/dev/null)" ] && [ ! -f "$OUT/quadpool.log" ]; then
  refuse_out "is not empty and holds no quadpool.log of an earlier run"
fi
for entry in quadpool prefix find_package add_subdirectory pkg-config copy \
             quadpool.log find_package.log add_subdirectory.log; do
  rm -rf "${OUT:?}/$entry"
done
mkdir -p "$OUT"

say "quadpool's engine, built as the top-level project with the game off, installed into $OUT/prefix"
configure "$OUT/quadpool.log" -S "$ROOT" -B "$OUT/quadpool" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DQUADPOOL_BUILD_GAME=OFF -DQUADPOOL_WARNINGS_AS_ERRORS=ON
cmake --build "$OUT/quadpool" -j "$JOBS" >>"$OUT/quadpool.log"
cmake --install "$OUT/quadpool" --prefix "$OUT/prefix" >>"$OUT/quadpool.log"
find "$OUT/prefix" -type f | sed "s|$OUT/prefix/||" | sort | awk '
  /^include\// { headers++; next } { print "  " $0 } END { print "  and " headers " headers under include/" }'
# The install holds the generated config header, the one the libraries were compiled with, and
# not the checked-in default for copies (engine/core/config.hpp), which has the same name.
installed_config="$OUT/prefix/include/quadpool/engine/core/config.hpp"
cmp "$installed_config" "$OUT/quadpool/generated/Release/engine/core/config.hpp" ||
  fail "the installed engine/core/config.hpp is not the generated one"
if cmp -s "$installed_config" "$ROOT/engine/core/config.hpp"; then
  fail "the checked-in default engine/core/config.hpp was installed"
fi
echo "installed engine/core/config.hpp: the generated one"

say "find_package(quadpool 0.2 CONFIG REQUIRED) against the install"
configure "$OUT/find_package.log" -S "$ROOT/examples" -B "$OUT/find_package" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$OUT/prefix"
cmake --build "$OUT/find_package" -j "$JOBS" >>"$OUT/find_package.log"
for program in $EXAMPLES; do check_binary "$OUT/find_package/$program"; done

say "add_subdirectory of the checkout"
configure "$OUT/add_subdirectory.log" -S "$ROOT/examples" -B "$OUT/add_subdirectory" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DQUADPOOL_SOURCE_DIR="$ROOT"
cmake --build "$OUT/add_subdirectory" -j "$JOBS" >>"$OUT/add_subdirectory.log"
# The parent's flags are its own: quadpool's warnings and -Werror stay on quadpool's sources,
# and what the engine needs (C++20, -ffp-contract=off) reaches the game's.
game_line=$(grep -F '"command"' "$OUT/add_subdirectory/compile_commands.json" | grep -F 'bullets.cpp')
engine_line=$(grep -F '"command"' "$OUT/add_subdirectory/compile_commands.json" |
              grep -F 'engine/memory/pool_allocator.cpp')
grep -q -- '-ffp-contract=off' <<<"$game_line" || fail "bullets.cpp built without -ffp-contract=off"
grep -Eq -- '-std=(c|gnu)\+\+20' <<<"$game_line" || fail "bullets.cpp built without C++20"
if grep -Eq -- '-Wpedantic|-Werror|-Wextra' <<<"$game_line"; then
  fail "quadpool's warning flags reached the parent's bullets.cpp: $game_line"
fi
grep -q -- '-Wextra' <<<"$engine_line" || fail "quadpool's own sources lost their warnings"
# The generated config header wins over the checked-in default beside the sources: its folder
# comes before the checkout on the game's include path (and the default #errors if reached).
include_dirs=$(grep -o -- '-I[^ ]*' <<<"$game_line" | sed 's/^-I//')
first_config=$(grep -n -x -F "$OUT/add_subdirectory/quadpool/generated/Release" <<<"$include_dirs" |
               head -1 | cut -d: -f1)
first_root=$(grep -n -x -F "$ROOT" <<<"$include_dirs" | head -1 | cut -d: -f1)
if [ -z "$first_config" ] || [ -z "$first_root" ] || [ "$first_config" -gt "$first_root" ]; then
  fail "bullets.cpp does not have the generated config folder before the checkout: $include_dirs"
fi
echo "bullets.cpp's include path: the generated config folder, then the checkout"
for program in $EXAMPLES; do check_binary "$OUT/add_subdirectory/$program"; done

say "pkg-config --cflags --libs quadpool and a bare g++ line"
mkdir -p "$OUT/pkg-config"
export PKG_CONFIG_PATH="$OUT/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "pkg-config --cflags --libs quadpool: $(pkg-config --cflags --libs quadpool)"
for program in $EXAMPLES; do
  # shellcheck disable=SC2046  # the flags are words
  g++ -O2 -Wall -Wextra -Wpedantic -Werror "$ROOT/examples/$program.cpp" \
    $(pkg-config --cflags --libs quadpool) -o "$OUT/pkg-config/$program"
  check_binary "$OUT/pkg-config/$program"
done

# copy_build NAME DEFINES PROGRAMS -- MODULES...: copies engine/MODULE (each folder as it is, and
# nothing else of the checkout) into a fresh $OUT/copy/NAME, compiles the copy's .cpp files with
# a bare g++ line and the -D flags in DEFINES, links each of PROGRAMS (files in $OUT/copy) with
# them, checks that no header came from outside the copy, and runs each.
copy_build() {
  local name=$1 defines=$2 programs=$3 dir=$OUT/copy/$1 module source program outside
  shift 4
  mkdir -p "$dir/engine" "$dir/obj"
  for module in "$@"; do cp -r "$ROOT/engine/$module" "$dir/engine/"; done
  # shellcheck disable=SC2206  # the flags are words
  local cxx=(g++ -std=c++20 -ffp-contract=off -O2 -Wall -Wextra -Wpedantic -Werror $defines
             -I"$dir")
  echo "$name: ${cxx[*]}, engine/{$(IFS=,; echo "$*")}/*.cpp"
  for source in "$dir"/engine/*/*.cpp; do
    module=$(basename "$(dirname "$source")")
    "${cxx[@]}" -c "$source" -o "$dir/obj/${module}_$(basename "$source" .cpp).o"
  done
  for program in $programs; do
    cp "$OUT/copy/$program.cpp" "$dir/"
    # Every header but the standard library's (-MM leaves those out) comes from the copy.
    outside=$("${cxx[@]}" -MM "$dir/$program.cpp" "$dir"/engine/*/*.cpp | sed 's/\\$//' |
              tr ' ' '\n' | grep -v -e '^$' -e ':$' | grep -v -F "$dir/" || true)
    [ -z "$outside" ] ||
      fail "$name: $program.cpp or the engine included from outside the copy: $outside"
    "${cxx[@]}" "$dir/$program.cpp" "$dir"/obj/*.o -o "$dir/$program"
    check_binary "$dir/$program"
  done
}

say "engine/core, engine/memory and engine/spatial copied into a fresh tree, bare g++ lines"
mkdir -p "$OUT/copy"
for program in $EXAMPLES; do cp "$ROOT/examples/$program.cpp" "$OUT/copy/"; done
# What the copy's checked-in engine/core/config.hpp decided, in this file and in the engine's
# .cpp files (compiled_switches()): every switch on without NDEBUG, off with it.
cat >"$OUT/copy/switches.cpp" <<'EOF'
// Written by scripts/consumer_builds.sh. Exits 1 unless this file and the engine's .cpp files
// saw the switches engine/core/config.hpp promises a copy: all on without NDEBUG, off with it.
#include <cstdio>

#include "engine/memory/debug.hpp"
#include "engine/memory/object_pool.hpp"
#include "engine/memory/offset_allocator.hpp"

int main() {
  namespace debug = quadpool::memory::debug;
#if defined(NDEBUG)
  constexpr bool kOn = false;
#else
  constexpr bool kOn = true;
#endif
  constexpr debug::Switches kPromised{kOn, kOn, kOn, kOn, kOn};
  const debug::Switches library = debug::compiled_switches();
  std::printf("switches: asserts %d, fill %d, slot state %d, pointer checks %d, leak check %d; "
              "the engine's .cpp files: %s\n",
              debug::kSwitches.asserts, debug::kSwitches.fill, debug::kSwitches.slot_state,
              debug::kSwitches.pointer_checks, debug::kSwitches.leak_check,
              library == debug::kSwitches ? "the same" : "DIFFERENT");
  quadpool::memory::ObjectPool<int> pool(16);
  int* seven = pool.create(7);
  const bool pooled = *seven == 7;
  pool.destroy(seven);
  quadpool::memory::OffsetAllocator ranges(1024);
  const quadpool::memory::OffsetAllocation range = ranges.allocate(100);
  const bool allocated = range.size == 100 && ranges.free_size() == 924;
  ranges.free(range);
  const bool ok = debug::kSwitches == kPromised && library == kPromised && pooled && allocated &&
                  ranges.free_size() == 1024;
  return ok ? 0 : 1;
}
EOF
copy_build checked "" "$EXAMPLES switches" -- core memory spatial
copy_build ndebug "-DNDEBUG" "$EXAMPLES switches" -- core memory spatial
copy_build memory-only "" "entities switches" -- core memory

say "the four consumer builds passed"
