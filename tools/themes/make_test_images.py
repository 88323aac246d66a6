#!/usr/bin/env python3
"""Writes the XPM images the theme loader's tests read: uicx/tests/xpm/.

They are small, made for this project, and written the ways XPM files found in the wild
are: 16-bit colours (#RRRRGGGGBBBB), X colour names with mono and symbolic keys, two
characters a pixel, comments between the rows, `None` for transparency and a hotspot in
the header. Run from the repository root:

    python3 tools/themes/make_test_images.py uicx/tests/xpm
"""

import math
import os
import sys

SQUARE = 24
PIECE = 18


def write(path, name, width, height, chars_per_pixel, colours, rows, header_extra="",
          comments=False):
    lines = ["/* XPM */", f"static char * {name}_xpm[] = {{",
             "/* columns rows colours chars-per-pixel */",
             f'"{width} {height} {len(colours)} {chars_per_pixel}{header_extra}",']
    for key, spec in colours:
        lines.append(f'"{key}\t{spec}",')
    if comments:
        lines.append("/* pixels */")
    for index, row in enumerate(rows):
        end = "," if index + 1 < len(rows) else ""
        lines.append(f'"{row}"{end}')
    lines.append("};")
    with open(path, "w", encoding="ascii") as out:
        out.write("\n".join(lines) + "\n")


def plain_square(out):
    # Three shades of a light board, 16-bit colours, a darker edge at the right and bottom.
    colours = [(".", "c #D6D6B2B27E7E"), ("o", "c #CCCCA8A87474"), ("X", "c #8E8E6E6E4A4A")]
    rows = []
    for y in range(SQUARE):
        row = ""
        for x in range(SQUARE):
            if x == SQUARE - 1 or y == SQUARE - 1:
                row += "X"
            else:
                row += "o" if (x * 7 + y * 3) % 11 < 3 else "."
        rows.append(row)
    write(os.path.join(out, "s001.xpm"), "s001", SQUARE, SQUARE, 1, colours, rows)


def corner_square(out):
    # X colour names, with mono and symbolic keys, and a cross mark.
    colours = [(" ", "c sienna m black s background"), ("+", "c wheat m white s mark")]
    rows = []
    for y in range(SQUARE):
        row = ""
        for x in range(SQUARE):
            on_cross = abs(x - y) <= 1 or abs(x + y - SQUARE + 1) <= 1
            inside = 5 <= x < SQUARE - 5 and 5 <= y < SQUARE - 5
            row += "+" if on_cross and inside else " "
        rows.append(row)
    write(os.path.join(out, "s002.xpm"), "s002", SQUARE, SQUARE, 1, colours, rows)


def disc(out, name, fill, ring, chars_per_pixel, header_extra="", comments=False, mark=None):
    keys = ["  ", "..", "oo", "**"] if chars_per_pixel == 2 else [" ", ".", "o", "*"]
    colours = [(keys[0], "c None"), (keys[1], f"c {ring}"), (keys[2], f"c {fill}")]
    if mark:
        colours.append((keys[3], f"c {mark}"))
    rows = []
    centre = (PIECE - 1) / 2
    for y in range(PIECE):
        row = ""
        for x in range(PIECE):
            distance = math.hypot(x - centre, y - centre)
            if distance > PIECE / 2 - 0.5:
                row += keys[0]
            elif distance > PIECE / 2 - 2.5:
                row += keys[1]
            elif mark and distance < 3:
                row += keys[3]
            else:
                row += keys[2]
        rows.append(row)
    write(os.path.join(out, f"{name}.xpm"), name, PIECE, PIECE, chars_per_pixel, colours,
          rows, header_extra, comments)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "uicx/tests/xpm"
    os.makedirs(out, exist_ok=True)
    plain_square(out)
    corner_square(out)
    # The king: two characters a pixel, comments, a gold mark.
    disc(out, "p001", "#F4ECD6", "#483C30", 2, comments=True, mark="#DEB428")
    # A defender: light.
    disc(out, "p002", "#F4ECD6", "#483C30", 1)
    # An attacker: dark, with a hotspot in the header.
    disc(out, "p004", "#2C2826", "#C4BAA6", 1, header_extra=" 9 9")


if __name__ == "__main__":
    main()
