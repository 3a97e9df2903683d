"""Hauk's "Dice": k in a row on an n x n board, the line chosen by a die.

Encoding (fixed, see README): every move is preceded by a chance node with n
equally likely outcomes 0..n-1. For player 0 (x) outcome i selects column i,
for player 1 (o) it selects row i. A decision action is the cell index
row*n+col of an empty cell on the selected line; if that line is full the only
legal action is the pass action n*n. k consecutive stones in a row, column or
either diagonal direction win (+1/-1); a full board is a draw (0).

Boards are two bitmasks; win checks use precomputed k-windows per cell and the
legal actions of a line are cached per occupancy pattern of that line.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import pyspiel

from games import _common
from games._common import CHANCE, TERMINAL

SHORT_NAME = "dice"  # the C++ game's name (games/native/), in messages too
# This Python twin's registered name, OpenSpiel's convention for a Python twin.
PYTHON_NAME = "python_dice"
_DEFAULT_PARAMS = {"n": 5, "k": 4}

_GAME_TYPE = _common.chance_game_type(
    PYTHON_NAME, "Dice (Hauk): k in a row, line chosen by a die", _DEFAULT_PARAMS
)

_new = tuple.__new__


def max_decisions(n: int) -> int:
    """Bound on decision moves per game (the game itself is unbounded).

    Passes can repeat, so Dice has no finite maximum length. While a cell is
    empty each decision places a stone with probability >= 1/n, and at most
    n*n stones are placed, so P(more than t decisions) <= P(Bin(t,1/n) < n*n).
    We return the t for which the Chernoff bound exp(-(mu-a)^2/(2 mu)),
    mu = t/n, a = n*n, is below 1e-30. OpenSpiel needs a finite
    max_game_length; exceeding this one will not happen in practice.
    """
    a, c = n * n, _common.NEG_LOG_EPS
    mu = a + c + math.sqrt(c * c + 2 * a * c)
    return int(math.ceil(n * mu))


class DiceRules(_common.Rules):
    """Precomputed tables for one (n, k); shared by all positions."""

    __slots__ = (
        "n",
        "k",
        "cells",
        "pass_action",
        "full",
        "wins",
        "windows",
        "line_mask",
        "line_legal",
        "chance",
        "actions",
        "_game",
    )

    def __init__(self, n: int, k: int):
        self.n, self.k = n, k
        self.cells = n * n
        self.pass_action = n * n
        self.full = (1 << self.cells) - 1
        windows = []
        for r in range(n):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    rr, cc = r + (k - 1) * dr, c + (k - 1) * dc
                    if 0 <= rr < n and 0 <= cc < n:
                        m = 0
                        for i in range(k):
                            m |= 1 << ((r + i * dr) * n + c + i * dc)
                        windows.append(m)
        # k == 1: every direction gives the same single-cell window.
        self.windows = tuple(sorted(set(windows)))
        self.wins = tuple(tuple(m for m in self.windows if m >> a & 1) for a in range(self.cells))
        # line_mask[p][i]: cells of the line player p rolls with outcome i.
        cols = [[r * n + i for r in range(n)] for i in range(n)]
        rows = [[i * n + c for c in range(n)] for i in range(n)]
        self.line_mask = tuple(
            tuple(sum(1 << x for x in line) for line in lines) for lines in (cols, rows)
        )
        self.line_legal = tuple(
            tuple(_LineTable(line, self.pass_action) for line in lines) for lines in (cols, rows)
        )
        p = 1.0 / n
        self.chance = tuple((i, p) for i in range(n))
        self.actions = tuple(range(n))
        self._game: DiceGame | None = None

    def __reduce__(self):
        return (dice_rules, (self.n, self.k))

    def game(self) -> DiceGame:
        """The Python game of these rules (not the registry's, which may be the C++ twin)."""
        if self._game is None:
            self._game = DiceGame({"n": self.n, "k": self.k})
        return self._game


class _LineTable(dict):
    """occupancy pattern of one line -> tuple of legal actions (lazy)."""

    __slots__ = ("line", "pass_action")

    def __init__(self, line, pass_action):
        super().__init__()
        self.line = tuple(line)
        self.pass_action = pass_action

    def __missing__(self, occ: int) -> tuple[int, ...]:
        v = tuple(c for c in self.line if not occ >> c & 1) or (self.pass_action,)
        self[occ] = v
        return v

    def __reduce__(self):  # never pickled with content; rebuilt lazily
        return (_LineTable, (self.line, self.pass_action))


@functools.cache
def dice_rules(n: int, k: int) -> DiceRules:
    return DiceRules(n, k)


# Status line of str(state) -> (cp, x) for chance nodes and terminals.
_STATUS = {
    "x won": (TERMINAL, 1),
    "o won": (TERMINAL, -1),
    "draw": (TERMINAL, 0),
    "x to roll a column": (CHANCE, 0),
    "o to roll a row": (CHANCE, 1),
}


class _DiceFields(NamedTuple):
    rules: DiceRules
    x_stones: int  # bitmask of x's (player 0's) cells, bit row*n+col
    o_stones: int
    player: int  # 0 or 1 to move, CHANCE or TERMINAL
    detail: int  # the line, the roller or the result: see DicePosition


class DicePosition(_common.PlayerDetailPosition, _DiceFields):
    """A Dice position; ``detail`` depends on ``player``, read it by its meaning.

    player in {0, 1}: decision node, ``line`` = index of the rolled line.
    player == CHANCE: ``roller`` = the player about to roll.
    player == TERMINAL: ``result`` = result for player 0 (+1, -1 or 0).
    """

    __slots__ = ()

    @property
    def line(self) -> int:
        """The rolled column (x) or row (o) the player to move places on."""
        return self.detail

    @property
    def roller(self) -> int:
        """At a chance node: the player whose line is rolled."""
        return self.detail

    @classmethod
    def initial(cls, rules: DiceRules) -> DicePosition:
        return _new(cls, (rules, 0, 0, CHANCE, 0))

    def legal_actions(self) -> tuple[int, ...]:
        r, b0, b1, cp, line = self
        if cp >= 0:
            return r.line_legal[cp][line][(b0 | b1) & r.line_mask[cp][line]]
        return r.actions if cp == CHANCE else ()

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return self.rules.chance if self.player == CHANCE else ()

    def child(self, action: int) -> DicePosition:
        r, b0, b1, cp, roller = self
        if cp == CHANCE:
            return _new(DicePosition, (r, b0, b1, roller, action))
        if action == r.pass_action:
            return _new(DicePosition, (r, b0, b1, CHANCE, 1 - cp))
        if cp == 0:
            b0 |= 1 << action
            for m in r.wins[action]:
                if b0 & m == m:
                    return _new(DicePosition, (r, b0, b1, TERMINAL, 1))
        else:
            b1 |= 1 << action
            for m in r.wins[action]:
                if b1 & m == m:
                    return _new(DicePosition, (r, b0, b1, TERMINAL, -1))
        if b0 | b1 == r.full:
            return _new(DicePosition, (r, b0, b1, TERMINAL, 0))
        return _new(DicePosition, (r, b0, b1, CHANCE, 1 - cp))

    def to_state(self) -> DiceState:
        """A full pyspiel state for this position (its history is empty)."""
        return self.rules.game().state_from_position(self)

    # Helpers for humans and observers (not used by the search).
    def board_string(self) -> str:
        b0, b1 = self.x_stones, self.o_stones
        n = self.rules.n
        rows = []
        for i in range(n):
            rows.append(
                "".join(
                    "x" if b0 >> (i * n + j) & 1 else "o" if b1 >> (i * n + j) & 1 else "."
                    for j in range(n)
                )
            )
        return "\n".join(rows)

    def status_string(self) -> str:
        cp = self.player
        if cp == TERMINAL:
            return {1: "x won", -1: "o won", 0: "draw"}[self.result]
        if cp == CHANCE:
            return f"{'xo'[self.roller]} to roll a {'column' if self.roller == 0 else 'row'}"
        return f"{'xo'[cp]} to move on {'column' if cp == 0 else 'row'} {self.line}"

    @classmethod
    def from_state(cls, state: pyspiel.State) -> DicePosition:
        """The position of a state of the C++ twin (games/native/dice.cc).

        Its string prints every field: the board, then the status line
        (status_string), which names the player and the line, the roller or
        the result.
        """
        params = state.get_game().get_parameters()
        return cls.from_string(dice_rules(int(params["n"]), int(params["k"])), str(state))

    @classmethod
    def from_string(cls, rules: DiceRules, text: str) -> DicePosition:
        """Inverse of ``f"{board_string()}\n{status_string()}"`` (str of a state)."""
        *rows, status = text.split("\n")
        known = _STATUS.get(status)
        if known is not None:
            cp, detail = known
        else:  # "x to move on column 3", "o to move on row 0"
            words = status.split()
            cp, detail = (0 if words[0] == "x" else 1), int(words[-1])
        return _new(cls, (rules, *_stones(rows, rules.n), cp, detail))

    @classmethod
    def from_board(cls, rules: DiceRules, board: str, cp: int, detail: int) -> DicePosition:
        """Builds a position from rows of 'x', 'o', '.' (tests, analysis).

        Terminal status is *not* recomputed: pass a non-terminal board.
        """
        rows = board.split()
        n = rules.n
        if len(rows) != n or any(len(row) != n for row in rows):
            raise ValueError(f"board must have {n} rows of {n} cells")
        bad = [ch for ch in "".join(rows) if ch not in "xo."]
        if bad:
            raise ValueError(f"bad cell {bad[0]!r}; use x, o or .")
        return _new(cls, (rules, *_stones(rows, n), cp, detail))


def _stones(rows: list[str], n: int) -> tuple[int, int]:
    """The bitmasks of x's and o's stones on rows of 'x', 'o' and '.'."""
    b0 = b1 = 0
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch == "x":
                b0 |= 1 << (i * n + j)
            elif ch == "o":
                b1 |= 1 << (i * n + j)
    return b0, b1


class DiceState(_common.PositionState):
    """pyspiel wrapper around a DicePosition."""

    _pos: DicePosition

    def _action_to_string(self, player, action):
        r = self._pos.rules
        if player == CHANCE:
            # The roller is stored in the position only before the roll.
            roller = self._pos.roller if self._pos.player == CHANCE else None
            kind = {0: "column", 1: "row", None: "line"}[roller]
            return f"roll {kind} {action}"
        if action == r.pass_action:
            return f"{'xo'[player]} pass"
        return f"{'xo'[player]}({action // r.n},{action % r.n})"

    def __str__(self):
        return f"{self._pos.board_string()}\n{self._pos.status_string()}"


class DiceObserver(_common.TensorObserver):
    """Tensor: board planes (empty, x, o), player to move/roll, chosen line."""

    def __init__(self, params, game: DiceGame):
        n = self._n = game.rules.n
        super().__init__(params, {"board": (3, n, n), "player": (2,), "line": (n,)})

    def fill(self, pos):
        _, b0, b1, cp, detail = pos
        n = self._n
        board = self.dict["board"]
        for c in range(n * n):
            i, j = divmod(c, n)
            board[1 if b0 >> c & 1 else 2 if b1 >> c & 1 else 0, i, j] = 1
        if cp >= 0:
            self.dict["player"][cp] = 1
            self.dict["line"][detail] = 1  # the rolled line
        elif cp == CHANCE:
            self.dict["player"][detail] = 1  # the roller


class DiceGame(_common.PositionGame):
    """Hauk's Dice game; parameters n (board size) and k (stones in a row)."""

    position_class = DicePosition
    state_class = DiceState
    observer_class = DiceObserver
    rules: DiceRules

    def __init__(self, params=None):
        params = _common.with_defaults(params, _DEFAULT_PARAMS, SHORT_NAME)
        n = _common.check_int("n", params["n"], 2, None, SHORT_NAME, " (board side)")
        k = _common.check_int(
            "k", params["k"], 1, n, SHORT_NAME, " (stones in a row to win; 1 <= k <= n)"
        )
        length = max_decisions(n)
        super().__init__(
            _GAME_TYPE,
            {"n": n, "k": k},
            actions=n * n + 1,
            chance_outcomes=n,
            max_game_length=length,
            max_chance_nodes=length,
        )
        self.rules = dice_rules(n, k)


_common.register_game(_GAME_TYPE, DiceGame)
