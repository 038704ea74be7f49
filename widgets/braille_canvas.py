"""A grid of terminal cells, each holding a 2x4 block of braille dots: four times the resolution of text."""

from __future__ import annotations

BRAILLE_BASE = 0x2800
DOT_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""DOT_BITS[row][column]: the Unicode braille bit for each dot of a cell, top row first."""


class BrailleCanvas:
    """Dots addressed in dot coordinates (x right, y down); each cell remembers which series drew last."""

    def __init__(self, cells_wide: int, cells_high: int) -> None:
        self.cells_wide, self.cells_high = max(cells_wide, 0), max(cells_high, 0)
        self.dots_wide, self.dots_high = self.cells_wide * 2, self.cells_high * 4
        self.bits = [[0] * self.cells_wide for _ in range(self.cells_high)]
        self.owner: list[list[int | None]] = [[None] * self.cells_wide for _ in range(self.cells_high)]

    def dot(self, x: int, y: int, owner: int) -> None:
        """Set one dot; dots outside the canvas are ignored."""
        if 0 <= x < self.dots_wide and 0 <= y < self.dots_high:
            row, column = y >> 2, x >> 1
            self.bits[row][column] |= DOT_BITS[y & 3][x & 1]
            self.owner[row][column] = owner

    def line(self, x0: int, y0: int, x1: int, y1: int, owner: int) -> None:
        """Set the dots of a straight segment, both ends included."""
        steps = max(abs(x1 - x0), abs(y1 - y0))
        if steps == 0:
            self.dot(x0, y0, owner)
            return
        for step in range(steps + 1):
            self.dot(x0 + round((x1 - x0) * step / steps), y0 + round((y1 - y0) * step / steps), owner)

    def char(self, row: int, column: int) -> str:
        """The braille character of one cell (a blank braille pattern when no dot is set)."""
        return chr(BRAILLE_BASE + self.bits[row][column])
