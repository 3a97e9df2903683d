"""Banqi heuristic: material alive per colour, the face-down pool included."""

from __future__ import annotations

import math

import pyspiel

from bots.arithmetic import ordered_sum
from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.registry import register_evaluator

# Banqi piece values in the order G A E R H C S (general ... soldier).
_BANQI_VALUES = (6, 5, 4, 3, 2, 4, 1)
# Signed value of a chance outcome (piece id: red 0..6, black 7..13).
_BANQI_SIGNED = tuple(float(v) for v in _BANQI_VALUES) + tuple(-float(v) for v in _BANQI_VALUES)
# bytes.translate table: red piece -> 10 + value, black -> 10 - value, else 10,
# so sum(board.translate(table)) - 10 * len(board) is the face-up difference.
_BANQI_TABLE = bytes(
    10
    + dict(zip(b"GAERHCS", _BANQI_VALUES)).get(c, 0)
    - dict(zip(b"gaerhcs", _BANQI_VALUES)).get(c, 0)
    for c in range(256)
)


class BanqiEvaluator(Evaluator):
    """Material still alive per colour, face-down pieces included.

    Face-up pieces are counted in `str(state)`. The face-down pool comes from
    `chance_outcomes()` (at a decision node: of the child after flipping a
    face-down square), probability * number of face-down squares, so flips
    are value-neutral and only captures move the evaluation. Values
    G6 A5 E4 R3 H2 C4 S1; v = SHRINK * tanh(material difference / 12) for
    the player holding that colour; 0 before colours are assigned.
    Bounds: (-1, 1).
    """

    native_name = "banqi"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "banqi", "BanqiEvaluator")
        super().__init__(game)

    def material(self, state, text: str | None = None) -> float:
        """Red material minus black material, face-down pool included."""
        if text is None:
            text = str(state)
        board = text[:64].encode()  # 4 rows of 8 pieces + spaces
        diff = float(sum(board.translate(_BANQI_TABLE)) - 640)
        hidden = board.count(b"?")
        if hidden:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
            else:
                outcomes = state.child(board.find(b"?") // 2).chance_outcomes()
            diff += hidden * ordered_sum(_BANQI_SIGNED[a] * p for a, p in outcomes)
        return diff

    def _value(self, state):
        s = str(state)
        colour_at = s.find("(P0=", 64)
        if colour_at < 0:
            return 0.0
        v = SHRINK * math.tanh(self.material(state, s) / 12.0)
        return v if s[colour_at + 4] == "R" else -v


register_evaluator("banqi", BanqiEvaluator)
