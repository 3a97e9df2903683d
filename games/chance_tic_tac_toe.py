"""Tic-tac-toe with random blocked squares.

x (player 0) moves first. After every move that does not end the game a chance
node flips a fair coin: heads (outcome 9, probability 1/2) nothing happens;
tails blocks a uniformly random empty square (outcome c = that cell, 0..8,
probability 1/(2*empties)). Blocked squares cannot be used. Three in a row
wins (+1/-1); a board without a usable square is a draw. A move that leaves no
empty square ends the game, so every chance node has an empty square.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import pyspiel

from games import _common
from games._common import CHANCE, TERMINAL

SHORT_NAME = "chance_tic_tac_toe"  # the C++ game's name (games/native/), in messages too
# This Python twin's registered name, OpenSpiel's convention for a Python twin.
PYTHON_NAME = "python_chance_tic_tac_toe"
NO_BLOCK = 9
_FULL = 0x1FF
# The eight three-in-a-row masks.
LINES = tuple(
    sum(1 << c for c in line)
    for line in (
        (0, 1, 2),
        (3, 4, 5),
        (6, 7, 8),
        (0, 3, 6),
        (1, 4, 7),
        (2, 5, 8),
        (0, 4, 8),
        (2, 4, 6),
    )
)
_WINS = tuple(tuple(m for m in LINES if m >> c & 1) for c in range(9))
# Tables indexed by the mask of empty squares.
_LEGAL = tuple(tuple(c for c in range(9) if e >> c & 1) for e in range(512))
_OUTCOMES = tuple(
    tuple((c, 0.5 / len(cells)) for c in cells) + ((NO_BLOCK, 0.5),) if cells else ()
    for cells in _LEGAL
)
_OUTCOME_ACTIONS = tuple(tuple(a for a, _ in out) for out in _OUTCOMES)
# Status line of str(state) -> (player, detail) (status_string's inverse).
_STATUS = {
    "x won": (TERMINAL, 1),
    "o won": (TERMINAL, -1),
    "draw": (TERMINAL, 0),
    "chance (block?), then x to move": (CHANCE, 0),
    "chance (block?), then o to move": (CHANCE, 1),
    "x to move": (0, 0),
    "o to move": (1, 0),
}
_MASK_OF = {"x": 0, "o": 1, "#": 2}

_GAME_TYPE = _common.chance_game_type(PYTHON_NAME, "Tic-tac-toe with random blocked squares", {})

_new = tuple.__new__


class _ChanceTTTFields(NamedTuple):
    x_stones: int  # bitmask of x's (player 0's) cells, bit row*3+col
    o_stones: int
    blocked: int
    player: int  # 0 or 1 to move, CHANCE or TERMINAL
    detail: int  # the next player or the result: see ChanceTTTPosition


class ChanceTTTPosition(_common.PlayerDetailPosition, _ChanceTTTFields):
    """A chance tic-tac-toe position; ``detail`` depends on ``player``.

    player in {0, 1}: decision node (``detail`` is 0).
    player == CHANCE: ``next_player`` = the player to move after the chance node.
    player == TERMINAL: ``result`` = result for player 0 (+1, -1 or 0).
    """

    __slots__ = ()

    @property
    def next_player(self) -> int:
        """At a chance node: the player to move after it."""
        return self.detail

    @classmethod
    def initial(cls, rules: None = None) -> ChanceTTTPosition:
        """The empty board, x to move (the game has no rules table)."""
        return _new(cls, (0, 0, 0, 0, 0))

    def legal_actions(self) -> tuple[int, ...]:
        x, o, b, cp, _ = self
        if cp >= 0:
            return _LEGAL[_FULL & ~(x | o | b)]
        if cp == CHANCE:
            return _OUTCOME_ACTIONS[_FULL & ~(x | o | b)]
        return ()

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        x, o, b, cp, _ = self
        return _OUTCOMES[_FULL & ~(x | o | b)] if cp == CHANCE else ()

    def child(self, action: int) -> ChanceTTTPosition:
        x, o, b, cp, next_player = self
        if cp == CHANCE:
            if action == NO_BLOCK:
                return _new(ChanceTTTPosition, (x, o, b, next_player, 0))
            b |= 1 << action
            if x | o | b == _FULL:
                return _new(ChanceTTTPosition, (x, o, b, TERMINAL, 0))
            return _new(ChanceTTTPosition, (x, o, b, next_player, 0))
        if cp == 0:
            x |= 1 << action
            for m in _WINS[action]:
                if x & m == m:
                    return _new(ChanceTTTPosition, (x, o, b, TERMINAL, 1))
        else:
            o |= 1 << action
            for m in _WINS[action]:
                if o & m == m:
                    return _new(ChanceTTTPosition, (x, o, b, TERMINAL, -1))
        if x | o | b == _FULL:
            return _new(ChanceTTTPosition, (x, o, b, TERMINAL, 0))
        return _new(ChanceTTTPosition, (x, o, b, CHANCE, 1 - cp))

    def to_state(self) -> ChanceTTTState:
        """A full pyspiel state for this position (its history is empty)."""
        return _game().state_from_position(self)

    def board_string(self) -> str:
        x, o, b = self.x_stones, self.o_stones, self.blocked

        def cell(c):
            return "x" if x >> c & 1 else "o" if o >> c & 1 else "#" if b >> c & 1 else "."

        return "\n".join("".join(cell(3 * r + c) for c in range(3)) for r in range(3))

    def status_string(self) -> str:
        cp = self.player
        if cp == TERMINAL:
            return {1: "x won", -1: "o won", 0: "draw"}[self.result]
        if cp == CHANCE:
            return f"chance (block?), then {'xo'[self.next_player]} to move"
        return f"{'xo'[cp]} to move"

    @classmethod
    def from_state(cls, state: pyspiel.State) -> ChanceTTTPosition:
        """The position of a state of the C++ twin (games/native/chance_tic_tac_toe.cc).

        Its string prints every field: the board (blocks too), then the status
        line, which names the player to move (next, at a chance node) or the result.
        """
        return cls.from_string(str(state))

    @classmethod
    def from_string(cls, text: str) -> ChanceTTTPosition:
        """Inverse of ``f"{board_string()}\n{status_string()}"`` (str of a state)."""
        board, status = text[:11], text[12:]
        masks = [0, 0, 0]
        for i, ch in enumerate(board.replace("\n", "")):
            plane = _MASK_OF.get(ch)
            if plane is not None:
                masks[plane] |= 1 << i
        cp, detail = _STATUS[status]
        return _new(cls, (masks[0], masks[1], masks[2], cp, detail))

    @classmethod
    def from_board(cls, board: str, cp: int, detail: int = 0) -> ChanceTTTPosition:
        """Builds a position from 3 rows of x, o, # (blocked), . (tests).

        Terminal status is *not* recomputed: pass a non-terminal board.
        """
        rows = board.split()
        if len(rows) != 3 or any(len(r) != 3 for r in rows):
            raise ValueError("board must have 3 rows of 3 cells")
        masks = {"x": 0, "o": 0, "#": 0}
        for i, ch in enumerate("".join(rows)):
            if ch in masks:
                masks[ch] |= 1 << i
            elif ch != ".":
                raise ValueError(f"bad cell {ch!r}; use x, o, # or .")
        return _new(cls, (masks["x"], masks["o"], masks["#"], cp, detail))


@functools.cache
def _game() -> ChanceTTTGame:
    # The Python game (the registry's may be the C++ twin): positions' to_state().
    return ChanceTTTGame()


class ChanceTTTState(_common.PositionState):
    """pyspiel wrapper around a ChanceTTTPosition."""

    _pos: ChanceTTTPosition

    def _action_to_string(self, player, action):
        if player == CHANCE:
            if action == NO_BLOCK:
                return "no block"
            return f"block({action // 3},{action % 3})"
        return f"{'xo'[player]}({action // 3},{action % 3})"

    def __str__(self):
        return f"{self._pos.board_string()}\n{self._pos.status_string()}"


class ChanceTTTObserver(_common.TensorObserver):
    """Tensor: planes (empty, x, o, blocked), player to move next, chance."""

    def __init__(self, params, game: ChanceTTTGame):
        del game  # one board size
        super().__init__(params, {"board": (4, 3, 3), "player": (2,), "chance": (1,)})

    def fill(self, pos):
        x, o, b, cp, next_player = pos
        board = self.dict["board"]
        for c in range(9):
            plane = 1 if x >> c & 1 else 2 if o >> c & 1 else 3 if b >> c & 1 else 0
            board[plane, c // 3, c % 3] = 1
        if cp >= 0:
            self.dict["player"][cp] = 1
        elif cp == CHANCE:
            self.dict["player"][next_player] = 1
            self.dict["chance"][0] = 1


class ChanceTTTGame(_common.PositionGame):
    """Tic-tac-toe with random blocked squares (no parameters)."""

    position_class = ChanceTTTPosition
    state_class = ChanceTTTState
    observer_class = ChanceTTTObserver
    win_lines = LINES  # for evaluators, which see the game, not this module

    def __init__(self, params=None):
        super().__init__(
            _GAME_TYPE,
            _common.with_defaults(params, {}, SHORT_NAME),
            actions=9,
            chance_outcomes=10,
            max_game_length=9,
            max_chance_nodes=8,  # one after each move but the last
        )


_common.register_game(_GAME_TYPE, ChanceTTTGame)
