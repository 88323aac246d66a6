#!/usr/bin/env python3
"""Draws the X interface themes of hnefatafl-rs and writes them as XPM images.

Usage: python3 tools/themes/make_themes.py data/xlib

Everything is drawn procedurally with the standard library only. Noise comes from an
integer hash with fixed seeds, so running the program again gives identical files.

Each image is rendered with supersampling (SS x SS samples a pixel), reduced to at most
MAX_COLOURS colours by median cut, and written as an XPM image with one character a pixel.
Pieces are transparent (`None`) outside their outline; their half-covered edge pixels are
blended against the theme's ordinary square colour so that the outline looks smooth on the
board.
"""

import math
import os
import sys

SQUARE = 64  # square images are SQUARE x SQUARE pixels
PIECE = 52  # piece images are PIECE x PIECE pixels
SS = 3  # supersampling: SS x SS samples a pixel
MAX_COLOURS = 63  # opaque colours an image (plus `None` for pieces)
ALPHA_CUT = 0.35  # coverage below this becomes transparent

# Light falls from the upper left, towards the viewer (x right, y down, z out of the screen).
LIGHT = (-0.55, -0.62, 0.56)
_LN = math.sqrt(sum(c * c for c in LIGHT))
LIGHT = tuple(c / _LN for c in LIGHT)
_H = (LIGHT[0], LIGHT[1], LIGHT[2] + 1.0)
_HN = math.sqrt(sum(c * c for c in _H))
HALF = tuple(c / _HN for c in _H)  # half vector between the light and the viewer


# ---------------------------------------------------------------------------------------
# Small maths helpers
# ---------------------------------------------------------------------------------------


def clamp(x, lo=0.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def lerp(a, b, t):
    return a + (b - a) * t


def mix(c1, c2, t):
    return (lerp(c1[0], c2[0], t), lerp(c1[1], c2[1], t), lerp(c1[2], c2[2], t))


def scale(c, k):
    return (c[0] * k, c[1] * k, c[2] * k)


def add(c1, c2):
    return (c1[0] + c2[0], c1[1] + c2[1], c1[2] + c2[2])


def smoothstep(e0, e1, x):
    t = clamp((x - e0) / (e1 - e0))
    return t * t * (3.0 - 2.0 * t)


def normalize(v):
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) or 1.0
    return (v[0] / n, v[1] / n, v[2] / n)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def rgb(hex_colour):
    """'#RRGGBB' as a colour with channels in 0..1."""
    v = int(hex_colour[1:], 16)
    return ((v >> 16 & 255) / 255.0, (v >> 8 & 255) / 255.0, (v & 255) / 255.0)


# ---------------------------------------------------------------------------------------
# Deterministic noise
# ---------------------------------------------------------------------------------------


def hash01(ix, iy, seed):
    """A fixed pseudo-random number in [0, 1) for an integer lattice point."""
    h = (ix * 374761393 + iy * 668265263 + seed * 2147483647) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return h / 4294967296.0


def vnoise(x, y, seed):
    """Smooth value noise in [0, 1)."""
    ix, iy = math.floor(x), math.floor(y)
    fx, fy = x - ix, y - iy
    sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    a = hash01(ix, iy, seed)
    b = hash01(ix + 1, iy, seed)
    c = hash01(ix, iy + 1, seed)
    d = hash01(ix + 1, iy + 1, seed)
    return lerp(lerp(a, b, sx), lerp(c, d, sx), sy)


def fbm(x, y, seed, octaves=4):
    """Fractal noise in about [0, 1)."""
    total, amp, norm = 0.0, 1.0, 0.0
    for i in range(octaves):
        total += amp * vnoise(x, y, seed + 17 * i)
        norm += amp
        x, y, amp = x * 2.03, y * 2.03, amp * 0.5
    return total / norm


# ---------------------------------------------------------------------------------------
# Signed distances for carved motifs (unit square coordinates, centre at 0, 0)
# ---------------------------------------------------------------------------------------


def sd_ring(x, y, r):
    return abs(math.hypot(x, y) - r)


def sd_segment(x, y, ax, ay, bx, by):
    px, py, dx, dy = x - ax, y - ay, bx - ax, by - ay
    t = clamp((px * dx + py * dy) / (dx * dx + dy * dy))
    return math.hypot(px - dx * t, py - dy * t)


def sd_polyline(x, y, points, closed=False):
    n = len(points)
    last = n if closed else n - 1
    return min(
        sd_segment(x, y, *points[i], *points[(i + 1) % n]) for i in range(last)
    )


def groove(distance, half_width):
    """Depth profile of a carved line: 1 in its middle, 0 at its edges, rounded."""
    t = clamp(1.0 - distance / half_width)
    return math.sqrt(t) if t > 0 else 0.0


def interlace(distances, half_width, gap):
    """Depth of interlaced bands (Borromean rule: band i passes over band i + 1).

    At a crossing only the upper band is carved; the lower band stops a little short of
    it, which is what makes carved knotwork read as over and under.
    """
    n = len(distances)
    best = 0.0
    for i, d in enumerate(distances):
        if d >= half_width:
            continue
        upper = (i - 1) % n  # the band that passes over band i
        if n > 1 and distances[upper] < half_width + gap:
            continue
        best = max(best, groove(d, half_width))
    return best


# ---------------------------------------------------------------------------------------
# Rendering and output
# ---------------------------------------------------------------------------------------


def render(size, shader):
    """Runs shader(x, y) -> (r, g, b, a) over size x size pixels with supersampling."""
    pixels = []
    step = 1.0 / SS
    for py in range(size):
        row = []
        for px in range(size):
            r = g = b = a = 0.0
            for sy in range(SS):
                for sx in range(SS):
                    cr, cg, cb, ca = shader(px + (sx + 0.5) * step, py + (sy + 0.5) * step)
                    r += cr * ca
                    g += cg * ca
                    b += cb * ca
                    a += ca
            if a > 0:
                row.append((r / a, g / a, b / a, a / (SS * SS)))
            else:
                row.append((0.0, 0.0, 0.0, 0.0))
        pixels.append(row)
    return pixels


def outline(pixels, strength):
    """Darkens (strength < 1) or lightens (> 1) the outermost opaque ring of a piece."""
    size = len(pixels)
    out = [row[:] for row in pixels]
    for y in range(size):
        for x in range(size):
            r, g, b, a = pixels[y][x]
            if a < ALPHA_CUT:
                continue
            edge = 0.0
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                na = pixels[ny][nx][3] if 0 <= nx < size and 0 <= ny < size else 0.0
                edge = max(edge, 1.0 - na)
            if edge > 0.4:
                k = lerp(1.0, strength, edge)
                out[y][x] = (clamp(r * k), clamp(g * k), clamp(b * k), a)
    return out


def flatten(pixels, matte):
    """Opaque colours in 0..255, or None where transparent; edges blended with matte."""
    flat = []
    for row in pixels:
        for r, g, b, a in row:
            if a < ALPHA_CUT:
                flat.append(None)
                continue
            if a < 0.97:
                r, g, b = mix(matte, (r, g, b), a)
            flat.append(
                (
                    int(round(clamp(r) * 255)),
                    int(round(clamp(g) * 255)),
                    int(round(clamp(b) * 255)),
                )
            )
    return flat


def median_cut(colours, count):
    """Chooses at most count representative colours (deterministic median cut)."""
    boxes = [sorted(set(colours))]
    while len(boxes) < count:
        best, best_score, best_axis = None, 0, 0
        for i, box in enumerate(boxes):
            if len(box) < 2:
                continue
            ranges = [max(c[k] for c in box) - min(c[k] for c in box) for k in range(3)]
            axis = max(range(3), key=lambda k: ranges[k])
            score = ranges[axis] * math.sqrt(len(box))
            if score > best_score:
                best, best_score, best_axis = i, score, axis
        if best is None:
            break
        box = sorted(boxes[best], key=lambda c: (c[best_axis], c))
        half = len(box) // 2
        boxes[best : best + 1] = [box[:half], box[half:]]
    weights = {}
    for c in colours:
        weights[c] = weights.get(c, 0) + 1
    palette = []
    for box in boxes:
        n = sum(weights[c] for c in box)
        palette.append(
            tuple(int(round(sum(c[k] * weights[c] for c in box) / n)) for k in range(3))
        )
    return sorted(set(palette))


CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+@#$%&=-;:,"


def write_xpm(path, pixels, matte):
    """Quantises an RGBA image and writes it as an XPM file (one character a pixel)."""
    size = len(pixels)
    flat = flatten(pixels, matte)
    opaque = [c for c in flat if c is not None]
    palette = median_cut(opaque, MAX_COLOURS)
    cache = {}

    def nearest(c):
        if c not in cache:
            cache[c] = min(
                range(len(palette)),
                key=lambda i: (
                    2 * (palette[i][0] - c[0]) ** 2
                    + 4 * (palette[i][1] - c[1]) ** 2
                    + 3 * (palette[i][2] - c[2]) ** 2,
                    i,
                ),
            )
        return cache[c]

    indices = [None if c is None else nearest(c) for c in flat]
    used = sorted({i for i in indices if i is not None})
    keys = {i: CHARS[n] for n, i in enumerate(used)}
    has_none = any(i is None for i in indices)
    name = os.path.splitext(os.path.basename(path))[0]
    lines = ["/* XPM */", "static char * %s_xpm[] = {" % name]
    lines.append('"%d %d %d 1",' % (size, size, len(used) + (1 if has_none else 0)))
    if has_none:
        lines.append('"  c None",')
    for i in used:
        lines.append('"%s c #%02X%02X%02X",' % ((keys[i],) + palette[i]))
    for y in range(size):
        row = indices[y * size : (y + 1) * size]
        text = "".join(" " if i is None else keys[i] for i in row)
        lines.append('"%s"%s' % (text, "," if y < size - 1 else ""))
    lines.append("};")
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------
# Shared drawing pieces
# ---------------------------------------------------------------------------------------


def bevel(x, y, size, light_w, dark_w):
    """Tile edge shading: lighter towards the top and left, darker at bottom and right.

    Returns a brightness factor; the darkening is a few pixels wide so that the grid still
    reads when the interface scales a square down.
    """
    k = 1.0
    k += 0.10 * (1.0 - smoothstep(0.0, light_w, min(x, y)))
    right, bottom = size - x, size - y
    k -= 0.22 * (1.0 - smoothstep(0.0, dark_w, min(right, bottom)))
    k -= 0.25 * (1.0 - smoothstep(0.0, 1.2, min(right, bottom)))
    return k


def carved_light(depth_at, x, y, depth_scale):
    """Brightness of a carved height map at (x, y): slopes facing the light are lit."""
    e = 0.35
    hx = (depth_at(x + e, y) - depth_at(x - e, y)) / (2 * e)
    hy = (depth_at(x, y + e) - depth_at(x, y - e)) / (2 * e)
    # Carving goes down into the surface: height = -depth.
    n = normalize((hx * depth_scale, hy * depth_scale, 1.0))
    return dot(n, LIGHT) / LIGHT[2]


def shade(base, normal, ambient, diffuse, spec, power, rim=0.0, rim_colour=(1, 1, 1)):
    """Lambert plus Blinn highlight plus an optional rim light for dark materials."""
    d = max(0.0, dot(normal, LIGHT))
    s = max(0.0, dot(normal, HALF)) ** power
    c = scale(base, ambient + diffuse * d)
    c = add(c, scale((1.0, 0.97, 0.9), spec * s))
    if rim:
        c = add(c, scale(rim_colour, rim * (1.0 - max(0.0, normal[2])) ** 3))
    return c


def shadow_alpha(x, y, cx, cy, rx, ry, strength):
    """A soft elliptical contact shadow."""
    d = math.hypot((x - cx) / rx, (y - cy) / ry)
    return strength * (1.0 - smoothstep(0.75, 1.0, d))


# ---------------------------------------------------------------------------------------
# Wood theme
# ---------------------------------------------------------------------------------------

MAPLE_LIGHT = rgb("#EBC893")
MAPLE_DARK = rgb("#C4965E")
WOOD_MATTE = rgb("#DDB57F")  # average ordinary square, for piece edges


def maple(x, y, seed):
    """Light wood with a gently wavering grain running top to bottom."""
    u, v = x / SQUARE, y / SQUARE
    warp = fbm(u * 1.6, v * 0.45, seed)
    t = (u + 0.06 * v) * 7.5 + warp * 1.5 + 0.08 * math.sin(v * 5.0 + u * 2.0)
    f = t - math.floor(t)
    late = smoothstep(0.55, 0.9, f) * (1.0 - smoothstep(0.9, 1.0, f))  # dark ring edges
    streak = vnoise(u * 46.0, v * 3.0, seed + 5)
    k = 0.55 * late + 0.3 * streak + 0.25 * fbm(u * 5, v * 2, seed + 9)
    return mix(MAPLE_LIGHT, MAPLE_DARK, clamp(k * 0.75))


def wood_square(stain, motif, seed, carve_colour=0.78):
    """A wooden square: grain, optional stain, optional carved motif, bevelled edges."""

    def depth_at(x, y):
        return motif((x / SQUARE) - 0.5, (y / SQUARE) - 0.5) if motif else 0.0

    def shader(x, y):
        c = maple(x, y, seed)
        raw = c
        if stain:
            c = (c[0] * stain[0], c[1] * stain[1], c[2] * stain[2])
        if motif:
            d = depth_at(x, y)
            if d > 0:
                # The cut goes through the stain: pale wood shows in the groove.
                c = mix(c, scale(raw, carve_colour), smoothstep(0.0, 0.5, d))
                c = scale(c, 1.0 - 0.25 * d)
            c = scale(c, clamp(carved_light(depth_at, x, y, 3.2), 0.45, 1.5))
        c = scale(c, bevel(x, y, SQUARE, 2.5, 3.5))
        return (clamp(c[0]), clamp(c[1]), clamp(c[2]), 1.0)

    return render(SQUARE, shader)


def motif_sun_cross(x, y):
    """Escape square: a ring with a cross, the old sun sign."""
    r = 0.29
    d = min(
        sd_ring(x, y, r),
        sd_segment(x, y, -r, 0, r, 0),
        sd_segment(x, y, 0, -r, 0, r),
    )
    d2 = sd_ring(x, y, 0.36)
    return max(groove(d, 0.045), 0.6 * groove(d2, 0.018))


def motif_borromean(x, y):
    """Throne: three interlaced rings inside a border ring."""
    dists = []
    for k in range(3):
        a = -math.pi / 2 + k * 2 * math.pi / 3
        cx, cy = 0.105 * math.cos(a), 0.105 * math.sin(a)
        dists.append(sd_ring(x - cx, y - cy, 0.165))
    knot = interlace(dists, 0.032, 0.03)
    border = max(groove(sd_ring(x, y, 0.415), 0.03), 0.7 * groove(sd_ring(x, y, 0.36), 0.015))
    return max(knot, border)


def motif_lozenge(x, y):
    """Attackers' ground: a small carved lozenge."""
    pts = [(0, -0.17), (0.13, 0), (0, 0.17), (-0.13, 0)]
    return max(
        groove(sd_polyline(x, y, pts, closed=True), 0.03),
        groove(math.hypot(x, y), 0.04),
    )


def motif_saltire(x, y):
    """Spare special square: a carved saltire in a square frame."""
    a = 0.2
    d = min(sd_segment(x, y, -a, -a, a, a), sd_segment(x, y, -a, a, a, -a))
    frame = sd_polyline(x, y, [(-0.3, -0.3), (0.3, -0.3), (0.3, 0.3), (-0.3, 0.3)], True)
    return max(groove(d, 0.035), groove(frame, 0.025))


# Lathe-turned wooden pieces, seen from the side.


def ball(cy, radius):
    def r(y):
        t = radius * radius - (y - cy) ** 2
        return math.sqrt(t) if t > 0 else 0.0

    return (cy - radius, cy + radius, r)


def disc(y0, y1, radius, round_=1.5):
    """A cylinder from y0 to y1 with rounded top and bottom edges."""

    def r(y):
        e = min(y - y0, y1 - y)
        if e >= round_:
            return radius
        t = 1.0 - e / round_
        return radius - round_ * (1.0 - math.sqrt(max(0.0, 1.0 - t * t)))

    return (y0, y1, r)


def flare(y0, r0, y1, r1, power):
    """A smooth waist from radius r0 at y0 to r1 at y1 (power > 1: concave)."""

    def r(y):
        t = clamp((y - y0) / (y1 - y0))
        return lerp(r0, r1, t**power)

    return (y0, y1, r)


def dome(y0, y1, radius):
    """A bullet-like helmet: point at y0, full radius at y1."""

    def r(y):
        t = clamp((y - y0) / (y1 - y0))
        return radius * t**0.55

    return (y0, y1, r)


def lathe_radius(parts, y):
    best = 0.0
    for y0, y1, r in parts:
        if y0 <= y <= y1:
            best = max(best, r(y))
    return best


def lathe_normal(parts, x, y, cx):
    """Silhouette radius and surface normal of a turned piece at a screen point."""
    r = lathe_radius(parts, y)
    dx = x - cx
    if r <= 0 or abs(dx) > r:
        return r, None
    s = dx / r
    nz = math.sqrt(max(0.0, 1.0 - s * s))
    e = 0.4
    slope = (lathe_radius(parts, y + e) - lathe_radius(parts, y - e)) / (2 * e)
    slope = clamp(slope, -4.0, 4.0)
    return r, normalize((s, -slope, nz))


BOXWOOD = (rgb("#F3D7A4"), rgb("#D8AE72"))
EBONY = (rgb("#4A342A"), rgb("#22160F"))
HONEY = (rgb("#F6CD84"), rgb("#DCA055"))
GOLD = rgb("#E8B63C")


def turned_wood(material, x, y, s, seed):
    """Wood colour on a turned surface: fine rings around the piece, a little figure."""
    light, dark = material
    t = y * 0.32 + 1.6 * fbm(s * 1.5 + 3, y * 0.07, seed)
    f = t - math.floor(t)
    k = 0.6 * smoothstep(0.6, 0.95, f) * (1 - smoothstep(0.95, 1.0, f))
    k += 0.35 * vnoise(s * 6 + 9, y * 0.9, seed + 3)
    return mix(light, dark, clamp(k * 0.7))


def wood_piece(parts, material, dark, seed, extras=None, base_y=None, base_r=None, zoom=1.0):
    """Renders a turned piece; extras(x, y) may draw layers in front of the body.

    zoom enlarges the design about the middle of its foot.
    """
    cx = PIECE / 2.0

    def body(x, y):
        _, n = lathe_normal(parts, x, y, cx)
        if n is None:
            return None
        c = turned_wood(material, x, y, n[0], seed)
        if dark:
            return shade(c, n, 0.55, 0.75, 0.55, 38, rim=0.35, rim_colour=rgb("#B89070"))
        return shade(c, n, 0.5, 0.62, 0.3, 22)

    def shader(x, y):
        x, y = cx + (x - cx) / zoom, base_y + (y - base_y) / zoom
        if extras:
            c = extras(x, y)
            if c is not None:
                return (clamp(c[0]), clamp(c[1]), clamp(c[2]), 1.0)
        c = body(x, y)
        if c is not None:
            return (clamp(c[0]), clamp(c[1]), clamp(c[2]), 1.0)
        a = shadow_alpha(x, y, cx + 1.5, base_y, base_r + 3.0, 3.6, 0.75)
        return (0.18, 0.11, 0.06, a)

    pixels = render(PIECE, shader)
    return outline(pixels, 0.55 if not dark else 1.0)


def wood_defender(material, dark, seed):
    parts = [
        ball(19.0, 7.2),
        flare(24.5, 4.0, 26.0, 4.4, 1.0),
        disc(25.5, 28.0, 9.0, 1.1),
        flare(27.5, 5.8, 42.5, 12.5, 2.2),
        disc(41.0, 45.0, 14.5, 1.3),
        disc(44.0, 48.5, 16.5, 1.8),
    ]
    return wood_piece(parts, material, dark, seed, base_y=48.3, base_r=16.5, zoom=1.1)


def wood_attacker(material, dark, seed):
    parts = [
        dome(11.0, 23.0, 8.2),
        disc(22.5, 25.5, 10.0, 1.2),
        flare(25.0, 5.6, 42.5, 12.5, 2.2),
        disc(41.0, 45.0, 14.5, 1.3),
        disc(44.0, 48.5, 16.5, 1.8),
    ]
    return wood_piece(parts, material, dark, seed, base_y=48.3, base_r=16.5, zoom=1.1)


def wood_king(seed):
    cx = PIECE / 2.0
    parts = [
        disc(19.5, 23.0, 13.0, 1.2),
        flare(22.5, 8.0, 41.5, 14.0, 2.0),
        disc(40.0, 44.5, 16.5, 1.3),
        disc(44.0, 49.0, 19.5, 1.8),
        disc(31.0, 33.0, 10.4, 0.9),  # a turned bead on the waist
    ]
    cushion = [ball(12.5, 9.0)]
    orb = [ball(3.6, 2.6), disc(5.8, 7.6, 1.4, 0.3)]
    crown_top, crown_bottom, crown_r = 7.5, 20.0, 11.5

    def crown_edge(s):
        # Eight points around the crown; those in front show as five peaks.
        theta = math.asin(clamp(s, -1.0, 1.0))
        phase = (theta / (math.pi / 4.0)) % 1.0
        tri = abs(phase - 0.5) * 2.0  # 1 at a point, 0 between two
        return crown_top + 6.0 * (1.0 - tri)

    def gold(n, k=1.0):
        return shade(scale(GOLD, k), n, 0.35, 0.85, 0.9, 30)

    def extras(x, y):
        dx = x - cx
        # Crown band: a gold cylinder with pointed top edge and a red jewel in front.
        if crown_top - 1.5 <= y <= crown_bottom and abs(dx) <= crown_r:
            s = dx / crown_r
            top = crown_edge(s)
            if y >= top:
                nz = math.sqrt(max(0.0, 1 - s * s))
                n = normalize((s, 0.0, nz))
                if math.hypot(dx, y - 15.0) < 2.8:
                    jn = normalize((dx / 2.8, (y - 15.0) / 2.8, 0.8))
                    return shade(rgb("#C0202A"), jn, 0.4, 0.8, 1.0, 40)
                # A darker line engraved round the foot of the band.
                return gold(n, 0.92 if abs(y - 17.5) < 1.0 else 1.0)
            # A bead on every point of the crown that faces the viewer.
            for k in range(-2, 3):
                px = cx + crown_r * math.sin(k * math.pi / 4.0)
                if math.hypot(x - px, y - (crown_top - 0.6)) < 1.8:
                    return gold(normalize((x - px, y - crown_top + 0.6, 1.2)))
        _, n = lathe_normal(orb, x, y, cx)
        if n is not None:
            return gold(n)
        _, n = lathe_normal(cushion, x, y, cx)
        if n is not None and y < crown_bottom:
            return shade(rgb("#9E1E2C"), n, 0.45, 0.7, 0.25, 12)
        return None

    return wood_piece(parts, HONEY, False, seed, extras, base_y=48.8, base_r=19.5)


def wood_man(material, dark, seed):
    """A plain draughts-like man: a short turned disc seen from above at an angle."""
    cx, top_cy, rx, ry, thick = PIECE / 2.0, 22.5, 20.0, 11.0, 8.0

    def shader(x, y):
        dx = x - cx
        q = (dx / rx) ** 2 + ((y - top_cy) / ry) ** 2
        if q <= 1.0:
            rho = math.sqrt(q)
            c = turned_wood(material, x, rho * 30.0, dx / rx, seed)
            # Turned rings on the top face.
            ring = groove(abs(rho - 0.62), 0.06) + 0.6 * groove(abs(rho - 0.3), 0.05)
            n = normalize((0.0, -0.45, 0.9))
            if ring:
                n = normalize((0.0, -0.45 + 0.35 * ring * (1 if y < top_cy else -1), 0.9))
            c = scale(c, 1.0 - 0.12 * ring)
            if dark:
                return shade(c, n, 0.55, 0.8, 0.35, 30) + (1.0,)
            return shade(c, n, 0.55, 0.6, 0.2, 20) + (1.0,)
        if abs(dx) <= rx and top_cy <= y <= top_cy + thick + ry * math.sqrt(
            max(0.0, 1 - (dx / rx) ** 2)
        ):
            s = dx / rx
            n = normalize((s, 0.15, math.sqrt(max(0.0, 1 - s * s))))
            c = turned_wood(material, x, y * 2.0, s, seed)
            c = scale(c, 0.8)
            if dark:
                return shade(c, n, 0.55, 0.75, 0.5, 38, 0.35, rgb("#B89070")) + (1.0,)
            return shade(c, n, 0.5, 0.62, 0.3, 22) + (1.0,)
        a = shadow_alpha(x, y, cx + 1.5, top_cy + thick + 1.0, rx + 2.5, ry + 2.0, 0.7)
        return (0.18, 0.11, 0.06, a)

    return outline(render(PIECE, shader), 0.55 if not dark else 1.0)


def make_wood(directory):
    out = {}
    out["s001"] = wood_square(None, None, 11)
    out["s002"] = wood_square(rgb("#6E4A33"), motif_sun_cross, 12)
    out["s004"] = wood_square(rgb("#6E4A33"), motif_borromean, 13)
    out["s008"] = wood_square(rgb("#A88070"), motif_lozenge, 14, 0.9)
    out["s016"] = wood_square(rgb("#8E9C86"), motif_saltire, 15, 0.9)
    out["p001"] = wood_king(21)
    out["p002"] = wood_defender(BOXWOOD, False, 22)
    out["p004"] = wood_attacker(EBONY, True, 23)
    out["p008"] = wood_man(BOXWOOD, False, 24)
    out["p016"] = wood_man(EBONY, True, 25)
    save(directory, out, WOOD_MATTE)


# ---------------------------------------------------------------------------------------
# Stone theme
# ---------------------------------------------------------------------------------------

SLATE = rgb("#6C747C")
STONE_MATTE = rgb("#6A7179")


def slate(x, y, seed, base):
    """Grey stone with cloudy variation and small light and dark grains."""
    u, v = x / SQUARE, y / SQUARE
    cloud = fbm(u * 3.0, v * 3.0, seed)
    c = scale(base, 0.86 + 0.3 * cloud)
    grain = vnoise(u * 70.0, v * 70.0, seed + 7)
    if grain > 0.82:
        c = mix(c, rgb("#C7CACB"), (grain - 0.82) * 3.0)
    elif grain < 0.12:
        c = scale(c, 0.8 + grain)
    streak = fbm(u * 1.5 + v * 4.0, v * 1.0, seed + 11)
    c = scale(c, 0.95 + 0.1 * streak)
    # Faint layers, as in split slate.
    layer = math.sin((u * 0.9 + v * 1.7) * 8.0 + 2.5 * fbm(u * 2, v * 2, seed + 13))
    c = scale(c, 1.0 + 0.035 * layer)
    return c


def stone_square(base, motif, seed):
    def depth_at(x, y):
        return motif((x / SQUARE) - 0.5, (y / SQUARE) - 0.5) if motif else 0.0

    def shader(x, y):
        c = slate(x, y, seed, base)
        if motif:
            d = depth_at(x, y)
            if d > 0:
                c = scale(c, 1.0 - 0.4 * smoothstep(0.0, 0.7, d))
            c = scale(c, clamp(carved_light(depth_at, x, y, 3.6), 0.35, 1.7))
        c = scale(c, bevel(x, y, SQUARE, 3.0, 4.0))
        return (clamp(c[0]), clamp(c[1]), clamp(c[2]), 1.0)

    return render(SQUARE, shader)


def rune_raidho(x, y, k=1.0):
    """Raidho, the rune of the journey: the way out through the corner."""
    pts = [(-0.1 * k, 0.2 * k), (-0.1 * k, -0.2 * k), (0.08 * k, -0.1 * k), (-0.1 * k, 0.0)]
    return min(sd_polyline(x, y, pts), sd_segment(x, y, -0.1 * k, 0.0, 0.1 * k, 0.2 * k))


def rune_othala(x, y, k=1.0):
    """Othala, the rune of the home and its inheritance: the king's own rune."""
    top, left, right = (0.0, -0.22 * k), (-0.15 * k, -0.06 * k), (0.15 * k, -0.06 * k)
    d = min(
        sd_segment(x, y, *top, *left),
        sd_segment(x, y, *top, *right),
        sd_segment(x, y, *left, 0.16 * k, 0.2 * k),
        sd_segment(x, y, *right, -0.16 * k, 0.2 * k),
    )
    return d


def rune_tiwaz(x, y, k=1.0):
    """Tiwaz, the warrior's arrow: the attackers' ground."""
    return min(
        sd_segment(x, y, 0.0, -0.15 * k, 0.0, 0.17 * k),
        sd_polyline(x, y, [(-0.11 * k, -0.04 * k), (0.0, -0.15 * k), (0.11 * k, -0.04 * k)]),
    )


def rune_ingwaz(x, y, k=1.0):
    """Ingwaz: a small diamond."""
    pts = [(0, -0.13 * k), (0.11 * k, 0), (0, 0.13 * k), (-0.11 * k, 0)]
    return sd_polyline(x, y, pts, closed=True)


def stone_corner(x, y):
    return max(
        groove(sd_ring(x, y, 0.34), 0.035),
        groove(rune_raidho(x, y, 1.05), 0.035),
    )


def stone_throne(x, y):
    """The valknut, three interlaced triangles, in a square frame."""
    frame = sd_polyline(x, y, [(-0.41, -0.41), (0.41, -0.41), (0.41, 0.41), (-0.41, 0.41)], True)
    y -= 0.095  # the knot's outline is a triangle pointing up: centre it
    dists = []
    for k in range(3):
        a = -math.pi / 2 + k * 2 * math.pi / 3
        cx, cy = 0.165 * math.cos(a), 0.165 * math.sin(a)
        pts = []
        for j in range(3):
            b = -math.pi / 2 + j * 2 * math.pi / 3
            pts.append((cx + 0.215 * math.cos(b), cy + 0.215 * math.sin(b)))
        dists.append(sd_polyline(x, y, pts, closed=True))
    knot = interlace(dists, 0.025, 0.024)
    return max(knot, groove(frame, 0.022))


def stone_base(x, y):
    return groove(rune_tiwaz(x, y), 0.03)


def stone_spare(x, y):
    return max(groove(rune_ingwaz(x, y, 1.3), 0.03), groove(sd_ring(x, y, 0.3), 0.02))


MARBLE = (rgb("#EEEAE2"), rgb("#9C9AA2"))
BASALT = (rgb("#3A3C40"), rgb("#7E8086"))


def marble_colour(u, v, seed):
    light, vein = MARBLE
    t = (u * 2.0 + v * 1.3) * 2.2 + 3.0 * fbm(u * 2.5, v * 2.5, seed)
    w = abs(math.sin(t * math.pi))
    k = (1.0 - w) ** 7 * 0.7 + 0.12 * fbm(u * 8, v * 8, seed + 4)
    return mix(light, vein, clamp(k))


def basalt_colour(u, v, seed):
    dark, fleck = BASALT
    c = scale(dark, 0.85 + 0.3 * fbm(u * 4, v * 4, seed))
    g = vnoise(u * 55, v * 55, seed + 2)
    if g > 0.8:
        c = mix(c, fleck, (g - 0.8) * 3.5)
    return c


def pebble(colour_fn, dark, seed, radius, height, inlay=None):
    """A domed stone seen from above, with a contact shadow to the lower right."""
    cx = cy = PIECE / 2.0 - 0.8

    def shader(x, y):
        dx, dy = x - cx, y - cy
        ang = math.atan2(dy, dx)
        wobble = 1.0 + 0.025 * (vnoise(math.cos(ang) * 2 + 5, math.sin(ang) * 2 + 5, seed) - 0.5)
        rr = radius * wobble
        rho = math.hypot(dx, dy) / rr
        if rho <= 1.0:
            z = height * math.sqrt(max(0.0, 1 - rho * rho))
            n = normalize((dx / (rr * rr), dy / (rr * rr), z / (height * height) if z else 0.0))
            u, v = x / PIECE, y / PIECE
            c = colour_fn(u, v, seed)
            spec, power = (0.75, 45) if dark else (0.45, 30)
            material = None
            if inlay:
                material = inlay(dx / radius, dy / radius)
            if material == "gold":
                return shade(GOLD, n, 0.35, 0.8, 0.9, 30) + (1.0,)
            if material == "cut":
                c = scale(c, 0.55)
            if dark:
                return shade(c, n, 0.55, 0.7, spec, power, 0.4, rgb("#A0A8B8")) + (1.0,)
            return shade(c, n, 0.5, 0.6, spec, power) + (1.0,)
        a = shadow_alpha(x, y, cx + 2.2, cy + 2.8, radius + 0.8, radius + 0.8, 0.8)
        return (0.08, 0.09, 0.1, a)

    pixels = render(PIECE, shader)
    return outline(pixels, 0.6 if not dark else 1.0)


def king_inlay(x, y):
    """Gold band and Othala rune inlaid in the king stone (unit: stone radius)."""
    rho = math.hypot(x, y)
    if abs(rho - 0.8) < 0.055:
        return "gold"
    if abs(rho - 0.8) < 0.085:
        return "cut"
    d = rune_othala(x, y + 0.01, 2.4)
    if d < 0.085:
        return "gold"
    if d < 0.12:
        return "cut"
    return None


def flat_token(colour_fn, dark, seed):
    """A plain man: a flat disc with a bevelled rim and a small turned centre."""

    def inlay(x, y):
        rho = math.hypot(x, y)
        if abs(rho - 0.62) < 0.035:
            return "cut"
        return None

    return pebble(colour_fn, dark, seed, 19.0, 5.0, inlay)


def make_stone(directory):
    out = {}
    out["s001"] = stone_square(SLATE, None, 31)
    out["s002"] = stone_square(rgb("#4E555E"), stone_corner, 32)
    out["s004"] = stone_square(rgb("#4E555E"), stone_throne, 33)
    out["s008"] = stone_square(rgb("#7D6A66"), stone_base, 34)
    out["s016"] = stone_square(rgb("#627565"), stone_spare, 35)
    out["p001"] = pebble(marble_colour, False, 41, 24.0, 13.0, king_inlay)
    out["p002"] = pebble(marble_colour, False, 42, 19.5, 11.0)
    out["p004"] = pebble(basalt_colour, True, 43, 19.5, 11.0)
    out["p008"] = flat_token(marble_colour, False, 44)
    out["p016"] = flat_token(basalt_colour, True, 45)
    save(directory, out, STONE_MATTE)


# ---------------------------------------------------------------------------------------


def save(directory, images, matte):
    os.makedirs(directory, exist_ok=True)
    for name in sorted(images):
        write_xpm(os.path.join(directory, name + ".xpm"), images[name], matte)


NULL_NOTE = """\
The theme `null` has no directory: it means the built-in fallback graphics.
This file exists so that nobody creates a directory with that name.
"""


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: make_themes.py <xlib directory>\n")
        return 2
    root = argv[1]
    os.makedirs(root, exist_ok=True)
    make_wood(os.path.join(root, "wood"))
    make_stone(os.path.join(root, "stone"))
    with open(os.path.join(root, "themes"), "w", encoding="ascii", newline="\n") as f:
        f.write("wood\nstone\nnull\n")
    with open(os.path.join(root, "null"), "w", encoding="ascii", newline="\n") as f:
        f.write(NULL_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
