#!/usr/bin/env bash
# Builds examples/ (a game's bullets in an ObjectPool, queried through a QuadTree) against
# quadpool's engine the three ways a game takes it, each with SDL2, spdlog, fmt, CLI11 and
# GoogleTest hidden from CMake, and checks that each program links none of them, then runs it:
#   find_package      quadpool built engine-only and installed into a fresh prefix, then
#                     find_package(quadpool 0.2 CONFIG REQUIRED)
#   add_subdirectory  the checkout as a subproject, with quadpool's defaults for one
#   pkg-config        g++ examples/bullets.cpp $(pkg-config --cflags --libs quadpool)
# Needs only g++, cmake, ninja and pkg-config.
#
#   scripts/consumer_builds.sh [OUT]
#
# OUT is the work folder (default: build/consumer in this checkout; a relative OUT is taken from
# the folder you run it in). It must be new, empty, or one that an earlier run filled (it holds
# quadpool.log). A run deletes there only what it writes: quadpool/, prefix/, find_package/,
# add_subdirectory/, pkg-config/ and the three .log files. The file system's root, your home,
# this checkout or a folder that holds it, and a file are refused.
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
for entry in quadpool prefix find_package add_subdirectory pkg-config \
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

say "find_package(quadpool 0.2 CONFIG REQUIRED) against the install"
configure "$OUT/find_package.log" -S "$ROOT/examples" -B "$OUT/find_package" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$OUT/prefix"
cmake --build "$OUT/find_package" -j "$JOBS" >>"$OUT/find_package.log"
check_binary "$OUT/find_package/bullets"

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
check_binary "$OUT/add_subdirectory/bullets"

say "pkg-config --cflags --libs quadpool and a bare g++ line"
mkdir -p "$OUT/pkg-config"
export PKG_CONFIG_PATH="$OUT/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "pkg-config --cflags --libs quadpool: $(pkg-config --cflags --libs quadpool)"
# shellcheck disable=SC2046  # the flags are words
g++ -O2 -Wall -Wextra -Wpedantic -Werror "$ROOT/examples/bullets.cpp" \
  $(pkg-config --cflags --libs quadpool) -o "$OUT/pkg-config/bullets"
check_binary "$OUT/pkg-config/bullets"

say "the three consumer builds passed"
