"""A slow, obviously-correct n-tuple network in plain Python (lists and ints, no numpy, no
numba), written from the definitions in ``docs/patterns.md``; the kernels are tested against it.
"""

from __future__ import annotations


class ReferenceNetwork:
    """Tables, offsets and instances of ``tuples`` under ``symmetries`` (lists of cell -> image
    lists), deduplicated by orbit of cell sets, first tuple of an orbit kept. ``states``: one
    number for every cell, or a list of one per cell."""

    def __init__(self, states, tuples, symmetries):
        n_cells = len(symmetries[0])
        self.states = list(states) if isinstance(states, list) else [states] * n_cells
        symmetries = [list(s) for s in symmetries]
        self.tables = []
        for cells in tuples:
            images_of_kept = [{s[c] for c in kept} for kept in self.tables for s in symmetries]
            if set(cells) not in images_of_kept:
                self.tables.append(list(cells))
        self.offsets = [0]
        for cells in self.tables:
            size = 1
            for c in cells:
                size *= self.states[c]
            self.offsets.append(self.offsets[-1] + size)
        self.instances = []
        for lut, cells in enumerate(self.tables):
            for s in symmetries:
                instance = (lut, [s[c] for c in cells])
                if instance not in self.instances:
                    self.instances.append(instance)

    @property
    def n_weights(self):
        return self.offsets[-1]

    def index(self, board, cells):
        """``board[cells]`` read as a number, first cell most significant, digit ``c`` in base
        ``states[c]``."""
        value = 0
        for c in cells:
            value = value * self.states[c] + board[c]
        return value

    def entries(self, board):
        """The weight-array position every instance reads."""
        return [self.offsets[lut] + self.index(board, cells) for lut, cells in self.instances]

    def evaluate(self, board, weights):
        return sum(weights[k] for k in self.entries(board))


def board_of_bits(P, O, n_cells):
    """Cell states of a bitboard pair: 0 empty, 1 in P, 2 in O."""
    P, O = int(P), int(O)
    return [(P >> c & 1) + 2 * (O >> c & 1) for c in range(n_cells)]


def image_bits(bits, symmetry):
    """The board whose cell ``symmetry[c]`` holds what cell ``c`` holds in ``bits``."""
    bits = int(bits)
    return sum(1 << symmetry[c] for c in range(len(symmetry)) if bits >> c & 1)
