"""Draws icon.png (128x128, the extension's Marketplace icon) with the standard library only:
an orange tile with a white scope ring and cross-hair. Usage: python vscode-client/images/make_icon.py"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

SIZE = 128
ORANGE = (255, 111, 0)
WHITE = (255, 255, 255)


def _pixel(x: float, y: float) -> tuple[int, int, int, int]:
    centre = SIZE / 2
    # rounded square tile
    corner = 24
    dx = max(abs(x - centre) - (centre - corner), 0)
    dy = max(abs(y - centre) - (centre - corner), 0)
    if math.hypot(dx, dy) > corner:
        return (0, 0, 0, 0)
    distance = math.hypot(x - centre, y - centre)
    ring = abs(distance - 38) < 7
    cross = (abs(x - centre) < 4 and abs(y - centre) > 14 and distance < 54) or (
        abs(y - centre) < 4 and abs(x - centre) > 14 and distance < 54
    )
    dot = distance < 7
    return (*WHITE, 255) if ring or cross or dot else (*ORANGE, 255)


def png() -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(_pixel(x + 0.5, y + 0.5)) for x in range(SIZE)) for y in range(SIZE)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    (Path(__file__).parent / "icon.png").write_bytes(png())
