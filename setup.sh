#!/usr/bin/env bash
# quadpool's one set-up script. It installs the Debian 12 packages that are missing, then calls the
# CMake presets (CMakePresets.json holds every build setting; this script adds none) and runs what
# you asked for. Configure runs every time, so a changed preset always reaches its build folder.
#
#   ./setup.sh demo [ARGS...]   install, build preset `release`, run the demo (ARGS go to quadpool)
#   ./setup.sh test             install, then the CI stages, each a preset, each built and tested:
#                                 asan                     Debug, clang 14, ASan+UBSan, asserts on
#                                 tsan                     clang 14, ThreadSanitizer: the threading
#                                                          tests only (worker pool, parallel tick)
#                                 release-noasserts-tests  Release, GCC, asserts and memory checks
#                                                          off (the shipped path): the whole suite,
#                                                          token benchmark runs, valgrind, xvfb
#                                 headless                 the demo off: no SDL2, no ImGui
#                                 fuzz                     each libFuzzer target for 20 s
#                                 headless-x86-64-v3       the runner and the pinned state hashes
#                                                          built for AVX2 and FMA; skipped, with
#                                                          a message, on a CPU without them
#                               then scripts/consumer_builds.sh: examples/ built against the
#                               engine by find_package, add_subdirectory and pkg-config, with
#                               no game library found or linked, and from a copy of its folders
#   ./setup.sh bench [FILTER]   install, build preset `bench` (asserts off) and run the benchmarks
#   ./setup.sh deps             only install the packages
#
# Build trees live in build/<preset>; delete build/ for a clean start.
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$(pwd)
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh
JOBS=$(nproc 2>/dev/null || echo 2)

say() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'setup.sh: %s\n' "$*" >&2; exit 2; }

# Everything the project uses, by Debian 12 package name.
PACKAGES=(
  g++ cmake ninja-build pkg-config git
  clang-14 libclang-rt-14-dev          # sanitizer and fuzz builds
  libsdl2-dev libimgui-dev libstb-dev  # demo
  libspdlog-dev libfmt-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libboost-dev libmimalloc-dev libbox2d-dev libplf-colony-dev  # benchmark peers
  valgrind xvfb xauth                  # test-time tools
  python3                              # scripts that turn benchmark JSON into the tables in docs/
)

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    # dpkg-query prints "install ok installed" only for a fully installed package.
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "all ${#PACKAGES[@]} Debian packages are installed"
    return
  fi
  say "installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install as root: apt-get install ${missing[*]}"
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# stage PRESET: configure, build and test one preset; prints the count of skipped tests.
stage() {
  local preset=$1
  say "configuring, building and testing preset $preset"
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j "$JOBS"
  local log="$ROOT/build/$preset/ctest-output.log"
  ctest --preset "$preset" -j "$JOBS" 2>&1 | tee "$log"
  local skipped
  skipped=$(grep -c '(Skipped)' "$log" || true)
  say "preset $preset: passed, $skipped test(s) skipped (each skip names its reason in the log)"
}

# The pinned state hashes again, from a build for x86-64-v3: FMA contraction must not move them.
# Only a CPU with AVX2 and FMA can run that build; elsewhere the stage says so and passes.
stage_x86_64_v3() {
  local flag missing=()
  for flag in avx2 fma; do
    grep -qw "$flag" /proc/cpuinfo 2>/dev/null || missing+=("$flag")
  done
  if [ ${#missing[@]} -ne 0 ]; then
    say "preset headless-x86-64-v3 SKIPPED, not failed: this CPU lacks ${missing[*]}" \
        "(per /proc/cpuinfo), which an x86-64-v3 build needs"
    return
  fi
  stage headless-x86-64-v3
}

cmd_demo() {
  install_packages
  cmake --preset release
  cmake --build --preset release -j "$JOBS"
  local exe="$ROOT/build/release/game/quadpool"
  say "running $exe $*"
  exec "$exe" "$@"
}

cmd_test() {
  install_packages
  local start=$SECONDS
  # Asserts on are covered by asan (clang) and headless (GCC, a test build); the shipped path by
  # release-noasserts-tests.
  local preset
  for preset in asan tsan release-noasserts-tests headless fuzz; do
    local t=$SECONDS
    stage "$preset"
    echo "preset $preset took $((SECONDS - t)) s"
  done
  local t=$SECONDS
  stage_x86_64_v3
  echo "preset headless-x86-64-v3 took $((SECONDS - t)) s"
  t=$SECONDS
  say "consumer builds: the engine as a library, four ways (scripts/consumer_builds.sh)"
  JOBS=$JOBS scripts/consumer_builds.sh "$ROOT/build/consumer"
  echo "consumer builds took $((SECONDS - t)) s"
  say "all tests passed in $((SECONDS - start)) s"
}

cmd_bench() {
  install_packages
  cmake --preset bench
  cmake --build --preset bench -j "$JOBS"
  local filter=${1:-}
  for exe in "$ROOT"/build/bench/bench/*_bench; do
    say "running $exe"
    "$exe" ${filter:+--benchmark_filter="$filter"}
  done
}

case "${1:-}" in
  -h|--help) exit_with_usage setup.sh ;;
  demo) shift; cmd_demo "$@" ;;  # --help here is the demo's: it lists quadpool's flags
  test) shift; takes_at_most setup.sh 0 "'test' takes none" "$@"; cmd_test ;;
  bench) shift; takes_at_most setup.sh 1 "'bench' takes one FILTER" "$@"; cmd_bench "$@" ;;
  deps) shift; takes_at_most setup.sh 0 "'deps' takes none" "$@"; install_packages ;;
  '') die "usage: ./setup.sh demo [ARGS...] | test | bench [FILTER] | deps (./setup.sh --help says more)" ;;
  *) refuse_argument setup.sh "$1" "use demo [ARGS...], test, bench [FILTER] or deps" ;;
esac
