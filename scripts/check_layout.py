#!/usr/bin/env python3
"""Checks the source tree's layout and include rules, from the include lines themselves.

Usage: scripts/check_layout.py [--graph]

Each folder of the tree may include only the folders below it:

  engine/core < engine/memory < engine/spatial      the engine: nothing outside engine/
  common/ (scene/, worker pool, heap counter)        the engine only
  game/util                                         the engine only: no game type
  game/sim                                          util, common
  game/play                                         sim and below
  game/audio                                        the engine only
  game/headless                                     play and below
  game/window                                       play and below, never SDL or ImGui
  game/window/sdl                                   window, audio and below; the only folder
                                                    that includes SDL or ImGui
  game/ (main.cpp, cli.*)                           any of game/
  bench/, examples/                                 the engine and common/, never game/

and game/'s root holds only main.cpp, cli.hpp and cli.cpp (with CMakeLists.txt and README.md).
Prints every include that breaks a rule, file:line, and exits 1 if there is one; --graph also
prints the folder graph drawn from the includes. Run from anywhere; ctest runs it as
`layout_include_rules`.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".inl"}

# A folder's rank: it may include folders of the same chain below it. Each entry lists what a
# folder may include (besides itself); anything under engine/ counts as its module.
ENGINE = {"engine/core", "engine/memory", "engine/spatial"}
ALLOWED = {
    "engine/core": set(),
    "engine/memory": {"engine/core"},
    "engine/spatial": {"engine/core", "engine/memory"},
    "common": ENGINE,
    "common/scene": ENGINE,
    "game/util": ENGINE,
    "game/sim": ENGINE | {"common", "common/scene", "game/util"},
    "game/play": ENGINE | {"common", "common/scene", "game/util", "game/sim"},
    "game/audio": ENGINE,
    "game/headless": ENGINE | {"common", "common/scene", "game/util", "game/sim", "game/play"},
    "game/window": ENGINE | {"common", "common/scene", "game/util", "game/sim", "game/play"},
    "game/window/sdl": ENGINE | {"common", "common/scene", "game/util", "game/sim", "game/play",
                                "game/audio", "game/window"},
    "game": ENGINE | {"common", "common/scene", "game/util", "game/sim", "game/play",
                      "game/headless", "game/window"},
    "bench": ENGINE | {"common", "common/scene", "bench"},
    "examples": ENGINE,
}
# Folders whose files may include SDL or ImGui headers.
DISPLAY_FOLDERS = {"game/window/sdl"}
DISPLAY_HEADER = re.compile(r"^\s*#\s*include\s*[<\"](SDL2?/|SDL[_.]|imgui)")
PROJECT_HEADER = re.compile(r"^\s*#\s*include\s*\"([^\"]+)\"")
GAME_ROOT_FILES = {"main.cpp", "cli.hpp", "cli.cpp", "CMakeLists.txt", "README.md"}


def folder_of(path: pathlib.PurePosixPath) -> str:
    """The folder of ALLOWED that holds `path` (the longest that matches), or ""."""
    parent = str(path.parent)
    best = ""
    for folder in ALLOWED:
        if (parent == folder or parent.startswith(folder + "/")) and len(folder) > len(best):
            best = folder
    # engine/memory/detail/x.hpp belongs to engine/memory
    return best


def check(graph: dict) -> list:
    problems = []
    for folder in ALLOWED:
        base = ROOT / folder
        if not base.is_dir():
            problems.append(f"{folder}/: the folder is missing")
            continue
        for file in sorted(base.rglob("*")):
            if file.suffix not in SOURCE_SUFFIXES or not file.is_file():
                continue
            rel = pathlib.PurePosixPath(file.relative_to(ROOT).as_posix())
            own = folder_of(rel)
            if own != folder:
                continue  # a subfolder with rules of its own
            for number, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
                if DISPLAY_HEADER.match(line) and own not in DISPLAY_FOLDERS:
                    problems.append(f"{rel}:{number}: {own}/ must not include SDL or ImGui: "
                                    f"{line.strip()}")
                match = PROJECT_HEADER.match(line)
                if not match:
                    continue
                target = pathlib.PurePosixPath(match.group(1))
                if len(target.parts) < 2:
                    continue  # a header beside the file (bench's own, a third-party one)
                other = folder_of(target)
                if not other:
                    if target.parts[0] in {"engine", "common", "game", "bench", "examples"}:
                        problems.append(f"{rel}:{number}: includes {target}, which is in no "
                                        f"folder of the layout")
                    continue
                if other == own:
                    continue
                graph.setdefault(own, set()).add(other)
                if other not in ALLOWED[own]:
                    problems.append(f"{rel}:{number}: {own}/ must not include {other}/ "
                                    f"({target})")
    for entry in sorted((ROOT / "game").iterdir()):
        if entry.is_file() and entry.name not in GAME_ROOT_FILES:
            problems.append(f"game/{entry.name}: game/'s root holds only "
                            f"{', '.join(sorted(GAME_ROOT_FILES))}; move it into its job's folder")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Checks the layout and include rules of the source tree (see the top of "
                    "this file).")
    parser.add_argument("--graph", action="store_true",
                        help="also print the folder graph drawn from the includes")
    args = parser.parse_args()
    graph: dict = {}
    problems = check(graph)
    if args.graph:
        for folder in sorted(graph):
            print(f"{folder} -> {', '.join(sorted(graph[folder]))}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check_layout.py: {len(problems)} include rule(s) broken", file=sys.stderr)
        return 1
    print(f"check_layout.py: the layout and include rules hold ({len(ALLOWED)} folders)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
