#!/usr/bin/env python3
"""Generates assets/sprites.png, the demo's sprite atlas, with the Python standard library only.

The atlas is 256 x 128 RGBA, in 64 x 64 cells:
  row 0: the four sprite kinds (game::kSpriteKinds == 4), each a shaded disc of its own colour
         and pattern
  row 1: cell 0 a contact ring, cell 1 a selection ring, cell 2 solid white (lines, boxes and
         bars are drawn with it, so that all of the demo's geometry shares one texture)

Every pixel is computed here, so the result is ours to license: CC0 (see assets/README.md).
Run it from anywhere: python3 scripts/make_assets.py
"""

import argparse
import math
import os
import struct
import zlib

CELL = 64
WIDTH, HEIGHT = 4 * CELL, 2 * CELL

# (base colour, pattern) per sprite kind
KINDS = [
    ((255, 176, 64), "plain"),    # amber
    ((64, 200, 230), "ring"),     # teal
    ((190, 110, 255), "dots"),    # violet
    ((140, 230, 90), "stripes"),  # lime
]


def clamp(v):
    return max(0, min(255, int(round(v))))


def coverage(d, r):
    """Anti-aliased coverage of a pixel whose centre is d from the disc's centre."""
    return max(0.0, min(1.0, r - d + 0.5))


def disc_pixel(px, py, colour, pattern):
    c = CELL / 2
    dx, dy = px + 0.5 - c, py + 0.5 - c
    d = math.hypot(dx, dy)
    r = c - 2
    a = coverage(d, r)
    if a <= 0:
        return (0, 0, 0, 0)
    # Light from the top left: a radial gradient offset towards the light, and a dark rim.
    lx, ly = dx + r * 0.35, dy + r * 0.35
    shade = 1.15 - 0.55 * min(1.0, math.hypot(lx, ly) / (1.6 * r))
    base = [ch * shade for ch in colour]
    if pattern == "ring" and abs(d - r * 0.55) < r * 0.12:
        base = [ch * 0.45 for ch in colour]
    elif pattern == "dots":
        for ang in range(0, 360, 72):
            ox, oy = r * 0.5 * math.cos(math.radians(ang)), r * 0.5 * math.sin(math.radians(ang))
            if math.hypot(dx - ox, dy - oy) < r * 0.16:
                base = [255 - (255 - ch) * 0.3 for ch in colour]
    elif pattern == "stripes" and int((dx + dy + 2 * r) / (r * 0.35)) % 2 == 0:
        base = [ch * 0.7 for ch in base]
    if d > r - 3:  # outline
        base = [ch * 0.35 for ch in colour]
    # Specular spot.
    spot = max(0.0, 1.0 - math.hypot(dx + r * 0.38, dy + r * 0.38) / (r * 0.3))
    base = [ch + (255 - ch) * spot * 0.8 for ch in base]
    return (clamp(base[0]), clamp(base[1]), clamp(base[2]), clamp(255 * a))


def ring_pixel(px, py, colour, width):
    c = CELL / 2
    d = math.hypot(px + 0.5 - c, py + 0.5 - c)
    r = c - 1.5
    a = coverage(d, r) * (1.0 - coverage(d, r - width))
    return (colour[0], colour[1], colour[2], clamp(255 * a))


def build():
    pixels = [[(0, 0, 0, 0)] * WIDTH for _ in range(HEIGHT)]
    for k, (colour, pattern) in enumerate(KINDS):
        for y in range(CELL):
            for x in range(CELL):
                pixels[y][k * CELL + x] = disc_pixel(x, y, colour, pattern)
    for y in range(CELL):
        for x in range(CELL):
            # Rings are white: the demo tints them through vertex colours.
            pixels[CELL + y][x] = ring_pixel(x, y, (255, 255, 255), 7)
            pixels[CELL + y][CELL + x] = ring_pixel(x, y, (255, 255, 255), 4)
            pixels[CELL + y][2 * CELL + x] = (255, 255, 255, 255)
    return pixels


def write_png(path, pixels):
    raw = b"".join(b"\x00" + bytes(v for p in row for v in p) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", len(pixels[0]), len(pixels), 8, 6, 0, 0, 0)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
           + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)


if __name__ == "__main__":
    # Takes no arguments; --help prints the docstring, anything else exits 2.
    argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(root, "assets", "sprites.png")
    write_png(out, build())
    print(f"wrote {out} ({WIDTH}x{HEIGHT})")
