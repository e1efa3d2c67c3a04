#!/usr/bin/env python3
"""Checks the relative links of every Markdown file in the tree.

Usage: scripts/check_links.py [ROOT]

A link `[text](path)` or `![alt](path)` outside a fenced code block must name a file or folder
that exists, relative to the file that holds it; a link with `#anchor` into a Markdown file must
name one of its headings, spelled as GitHub spells anchors (lower case, punctuation dropped,
spaces to hyphens, -1, -2 for repeats). Links with a scheme (https:, mailto:) are not checked.
Prints each broken link as file:line and exits 1 if there is one. Files are those git tracks
plus untracked ones not ignored, so a new page is checked before it is committed.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.*)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def lines_outside_fences(path: pathlib.Path):
    """(line number, line) for every line of `path` outside ``` fences."""
    fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            yield number, line


def anchors(path: pathlib.Path) -> set:
    found = set()
    for _, line in lines_outside_fences(path):
        match = HEADING.match(line)
        if match:
            base = anchor = slug(match.group(1))
            repeat = 1
            while anchor in found:
                anchor = f"{base}-{repeat}"
                repeat += 1
            found.add(anchor)
    return found


def main() -> int:
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "*.md"],
                           capture_output=True, text=True, check=True).stdout.split()
    broken = 0
    for name in names:
        page = ROOT / name
        if not page.exists():
            continue
        for number, line in lines_outside_fences(page):
            for url in LINK.findall(line):
                if re.match(r"^[a-z]+:", url):
                    continue
                path, _, anchor = url.partition("#")
                target = (page.parent / path).resolve() if path else page
                if not target.exists():
                    print(f"{name}:{number}: {url}: no such file")
                    broken += 1
                elif anchor and target.suffix == ".md" and anchor not in anchors(target):
                    print(f"{name}:{number}: {url}: {target.name} has no heading #{anchor}")
                    broken += 1
    if broken:
        print(f"check_links.py: {broken} broken link(s)", file=sys.stderr)
        return 1
    print(f"check_links.py: every relative link of {len(names)} Markdown files resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
