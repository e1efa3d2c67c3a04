#!/usr/bin/env bash
# quadpool's one set-up script. It installs the Debian 12 packages that are missing, configures
# CMake, builds incrementally and runs what you asked for.
#
#   ./setup.sh demo [ARGS...]   install, build Release, run the demo (ARGS go to quadpool)
#   ./setup.sh test             install, build and run every test: ASan+UBSan Debug (clang),
#                               Release with asserts (gcc), token benchmark runs, a bounded
#                               fuzz run and a valgrind pass over the headless runner
#   ./setup.sh bench [ARGS...]  install, build the benchmarks in Release and run them
#   ./setup.sh deps             only install the packages
#
# Build trees live in build/<name>; delete build/ for a clean start.
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$(pwd)
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
  libboost-dev libmimalloc-dev libbox2d-dev  # benchmark peers
  valgrind xvfb xauth                  # test-time tools
  python3                              # scripts that turn benchmark JSON into README tables
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

# configure NAME [cmake args...]: configures build/NAME once, then only builds.
configure() {
  local name=$1; shift
  local dir="$ROOT/build/$name"
  if [ ! -f "$dir/build.ninja" ]; then
    say "configuring build/$name"
    cmake -S "$ROOT" -B "$dir" -G Ninja "$@"
  fi
}

build() {
  local name=$1; shift
  say "building build/$name"
  cmake --build "$ROOT/build/$name" -j "$JOBS" "$@"
}

run_ctest() {
  local name=$1
  say "running the test suite in build/$name"
  ctest --test-dir "$ROOT/build/$name" --output-on-failure -j "$JOBS" --timeout 600
}

cmd_demo() {
  install_packages
  configure release -DCMAKE_BUILD_TYPE=Release
  build release
  local exe="$ROOT/build/release/game/quadpool"
  if [ ! -x "$exe" ]; then
    echo "The demo is not built yet (its issue is open); the engine libraries built fine."
    return 0
  fi
  say "running $exe $*"
  exec "$exe" "$@"
}

cmd_test() {
  install_packages
  local start=$SECONDS

  # 1. Debug with AddressSanitizer and UndefinedBehaviorSanitizer, built with clang 14.
  configure asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 \
    -DQUADPOOL_SANITIZE=ON -DQUADPOOL_BUILD_TESTS=ON -DQUADPOOL_WARNINGS_AS_ERRORS=ON
  build asan
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    SDL_VIDEODRIVER=dummy run_ctest asan

  # 2. Release with GCC: the whole suite again (asserts stay on in test builds), and the
  #    benchmarks compiled and run for a token count so they cannot rot.
  configure release-tests -DCMAKE_BUILD_TYPE=Release -DQUADPOOL_BUILD_TESTS=ON \
    -DQUADPOOL_BUILD_BENCH=ON -DQUADPOOL_WARNINGS_AS_ERRORS=ON
  build release-tests
  SDL_VIDEODRIVER=dummy run_ctest release-tests

  # 3. The fuzz targets, clang 14 with libFuzzer, each for a bounded time on its seed corpus.
  if [ -d "$ROOT/tests/fuzz" ]; then
    configure fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
      -DQUADPOOL_BUILD_FUZZ=ON -DQUADPOOL_BUILD_GAME=OFF -DQUADPOOL_WARNINGS_AS_ERRORS=ON
    build fuzz
    run_ctest fuzz
  fi
  say "all tests passed in $((SECONDS - start)) s"
}

cmd_bench() {
  install_packages
  configure bench -DCMAKE_BUILD_TYPE=Release -DQUADPOOL_BUILD_BENCH=ON
  build bench
  local filter=${1:-}
  for exe in "$ROOT"/build/bench/bench/*_bench; do
    say "running $exe"
    "$exe" ${filter:+--benchmark_filter="$filter"}
  done
}

case "${1:-}" in
  demo) shift; cmd_demo "$@" ;;
  test) shift; cmd_test "$@" ;;
  bench) shift; cmd_bench "$@" ;;
  deps) install_packages ;;
  *) die "usage: ./setup.sh demo [ARGS...] | test | bench [FILTER] | deps (got '${1:-}')" ;;
esac
