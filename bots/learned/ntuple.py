"""N-tuple placements: each tuple of cells and its images under a board's symmetries.

The images of one tuple share its table, and the file lists every placement, so the
file, not the code, says what the symmetries were. Cells are numbered row-major on a
``side`` x ``side`` board (2048: 4x4, EinStein: 5x5), ``r * side + c``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Transform = Callable[[int, int, int], tuple[int, int]]

# (row, col, side) -> (row, col): the eight symmetries of the square, identity first.
_DIHEDRAL: tuple[Transform, ...] = (
    lambda r, c, n: (r, c),
    lambda r, c, n: (c, n - 1 - r),  # rotations by 90, 180, 270 degrees
    lambda r, c, n: (n - 1 - r, n - 1 - c),
    lambda r, c, n: (n - 1 - c, r),
    lambda r, c, n: (r, n - 1 - c),  # mirror images of the four
    lambda r, c, n: (c, r),
    lambda r, c, n: (n - 1 - r, c),
    lambda r, c, n: (n - 1 - c, n - 1 - r),
)
SYMMETRIES: dict[str, tuple[Transform, ...]] = {
    "none": _DIHEDRAL[:1],
    "dihedral": _DIHEDRAL,
    # The main diagonal's mirror, which keeps the corners (0, 0) and (n-1, n-1): EinStein's.
    "diagonal": (_DIHEDRAL[0], _DIHEDRAL[5]),
}


def pad_placements(placements: Sequence[Sequence[int]]) -> np.ndarray:
    """(P, kmax) int32, each row its cells then -1 padding: the file's ``placements``."""
    width = max(len(p) for p in placements)
    padded = np.full((len(placements), width), -1, dtype=np.int32)
    for row, cells in enumerate(placements):
        padded[row, : len(cells)] = cells
    return padded


def ntuple_placements(
    tuples: Sequence[Sequence[int]], symmetries: str = "none", side: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(placements, placement_tables)`` for the file: tuple t's images under the named
    symmetries (``none``, ``dihedral``, ``diagonal``), identical images listed once, all
    reading table t. ``side`` is the board's width, needed unless ``symmetries="none"``."""
    if symmetries not in SYMMETRIES:
        raise ValueError(f"unknown symmetries {symmetries!r}; accepted: {', '.join(SYMMETRIES)}")
    if symmetries != "none" and (side is None or side < 1):
        raise ValueError(f"symmetries {symmetries!r} need the board's side, got {side!r}")
    placements: list[tuple[int, ...]] = []
    tables: list[int] = []
    for table, cells in enumerate(tuples):
        if not cells or len(set(cells)) != len(cells) or min(cells) < 0:
            raise ValueError(f"tuple {table} must list distinct cells >= 0, got {list(cells)}")
        if side is not None and max(cells) >= side * side:
            raise ValueError(f"tuple {table} {list(cells)} leaves the {side}x{side} board")
        seen: set[tuple[int, ...]] = set()
        for transform in SYMMETRIES[symmetries]:
            image = tuple(_image(cell, transform, side) for cell in cells)
            if image not in seen:
                seen.add(image)
                placements.append(image)
                tables.append(table)
    return pad_placements(placements), np.array(tables, dtype=np.int32)


def _image(cell: int, transform: Transform, side: int | None) -> int:
    if side is None:
        return cell
    r, c = transform(cell // side, cell % side, side)
    return r * side + c
