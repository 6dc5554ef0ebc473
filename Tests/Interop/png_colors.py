"""Where given colours appear in a PNG screenshot: for each colour, the number of pixels within a tolerance and
their bounding box. Standard library only (zlib, struct), so any python3 runs it; the screenshot tests use it to
check what a page shows, not the file's size.

    python3 png_colors.py SHOT.png '#1f5fa8' '#c0392b@0,0,1200,60' [--tolerance 24]

A colour may name a region, `@x0,y0,x1,y1` (x1 and y1 excluded): only pixels inside it count. Prints one JSON
object keyed by each colour as given: {"width": W, "height": H, "colors": {"#1f5fa8": {"count": N,
"x": [min, max], "y": [min, max]}, ...}}. Only 8-bit RGB and RGBA, non-interlaced (what Chromium writes)."""

import json
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    position, idat = 8, []
    width = height = channels = None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace != 0:
                raise SystemExit(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs (depth {depth}, colour type {color})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    arguments = sys.argv[1:]
    tolerance = 24
    if "--tolerance" in arguments:
        index = arguments.index("--tolerance")
        tolerance = int(arguments[index + 1])
        del arguments[index:index + 2]
    path, wanted = arguments[0], arguments[1:]
    width, height, channels, rows = read_png(path)
    targets = []
    for name in wanted:
        color, _, region = name.partition("@")
        box = [int(v) for v in region.split(",")] if region else [0, 0, width, height]
        targets.append((name, tuple(int(color[i:i + 2], 16) for i in (1, 3, 5)), box))
    found = {name: {"count": 0, "x": [width, -1], "y": [height, -1]} for name in wanted}
    for y, line in enumerate(rows):
        for x in range(width):
            r, g, b = line[x * channels], line[x * channels + 1], line[x * channels + 2]
            for name, (tr, tg, tb), (x0, y0, x1, y1) in targets:
                if x0 <= x < x1 and y0 <= y < y1 and abs(r - tr) <= tolerance and abs(g - tg) <= tolerance and abs(b - tb) <= tolerance:
                    entry = found[name]
                    entry["count"] += 1
                    entry["x"] = [min(entry["x"][0], x), max(entry["x"][1], x)]
                    entry["y"] = [min(entry["y"][0], y), max(entry["y"][1], y)]
    print(json.dumps({"width": width, "height": height, "colors": found}))


if __name__ == "__main__":
    main()
