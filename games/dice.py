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

import pyspiel

from bots.evaluators.registry import register_evaluator
from bots.keys import register_sampling_key
from games import _common
from games._common import CHANCE, TERMINAL

SHORT_NAME = "dice"
_DEFAULT_PARAMS = {"n": 5, "k": 4}

_GAME_TYPE = _common.two_player_chance_game_type(
    SHORT_NAME, "Dice (Hauk): k in a row, line chosen by a die", _DEFAULT_PARAMS
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


_WIN = {0: (1.0, -1.0), 1: (-1.0, 1.0)}
# Status line of str(state) -> (cp, x) for chance nodes and terminals.
_STATUS = {
    "x won": (TERMINAL, 1),
    "o won": (TERMINAL, -1),
    "draw": (TERMINAL, 0),
    "x to roll a column": (CHANCE, 0),
    "o to roll a row": (CHANCE, 1),
}
_RETURNS = {1: (1.0, -1.0), -1: (-1.0, 1.0), 0: (0.0, 0.0)}
_ZERO = (0.0, 0.0)


class DicePosition(_common.Position):
    """(rules, b0, b1, cp, x): stones of x and o as bitmasks, cp the player.

    cp in {0, 1}: decision node, x = index of the selected line.
    cp == -1 (chance): x = the player about to roll.
    cp == -4 (terminal): x = result for player 0 (+1, -1 or 0).
    """

    __slots__ = ()

    @staticmethod
    def initial(rules: DiceRules) -> DicePosition:
        return _new(DicePosition, (rules, 0, 0, CHANCE, 0))

    def is_terminal(self) -> bool:
        return self[3] == TERMINAL

    def is_chance_node(self) -> bool:
        return self[3] == CHANCE

    def current_player(self) -> int:
        return self[3]

    def legal_actions(self) -> tuple[int, ...]:
        r, b0, b1, cp, x = self
        if cp >= 0:
            return r.line_legal[cp][x][(b0 | b1) & r.line_mask[cp][x]]
        return r.actions if cp == CHANCE else ()

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return self[0].chance if self[3] == CHANCE else ()

    def child(self, action: int) -> DicePosition:
        r, b0, b1, cp, x = self
        if cp == CHANCE:
            return _new(DicePosition, (r, b0, b1, x, action))
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

    def returns(self) -> tuple[float, float]:
        return _RETURNS[self[4]] if self[3] == TERMINAL else _ZERO

    def to_state(self) -> DiceState:
        """A full pyspiel state for this position (its history is empty)."""
        return self[0].game().state_from_position(self)

    # Helpers for humans and observers (not used by the search).
    def board_string(self) -> str:
        r, b0, b1 = self[0], self[1], self[2]
        n = r.n
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
        cp, x = self[3], self[4]
        if cp == TERMINAL:
            return {1: "x won", -1: "o won", 0: "draw"}[x]
        if cp == CHANCE:
            return f"{'xo'[x]} to roll a {'column' if x == 0 else 'row'}"
        return f"{'xo'[cp]} to move on {'column' if cp == 0 else 'row'} {x}"

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
        n = rules.n
        b0 = b1 = 0
        for i, row in enumerate(rows):
            for j, ch in enumerate(row):
                if ch == "x":
                    b0 |= 1 << (i * n + j)
                elif ch == "o":
                    b1 |= 1 << (i * n + j)
        known = _STATUS.get(status)
        if known is not None:
            cp, x = known
        else:  # "x to move on column 3", "o to move on row 0"
            words = status.split()
            cp, x = (0 if words[0] == "x" else 1), int(words[-1])
        return _new(cls, (rules, b0, b1, cp, x))

    @classmethod
    def from_board(cls, rules: DiceRules, board: str, cp: int, x: int) -> DicePosition:
        """Builds a position from rows of 'x', 'o', '.' (tests, analysis).

        Terminal status is *not* recomputed: pass a non-terminal board.
        """
        rows = board.split()
        n = rules.n
        if len(rows) != n or any(len(row) != n for row in rows):
            raise ValueError(f"board must have {n} rows of {n} cells")
        b0 = b1 = 0
        for i, row in enumerate(rows):
            for j, ch in enumerate(row):
                if ch == "x":
                    b0 |= 1 << (i * n + j)
                elif ch == "o":
                    b1 |= 1 << (i * n + j)
                elif ch != ".":
                    raise ValueError(f"bad cell {ch!r}; use x, o or .")
        return _new(cls, (rules, b0, b1, cp, x))


class DiceGame(pyspiel.Game):
    """Hauk's Dice game; parameters n (board size) and k (stones in a row)."""

    def __init__(self, params=None):
        params = dict(params or {})
        _common.check_known(params, _DEFAULT_PARAMS, SHORT_NAME)
        params = {**_DEFAULT_PARAMS, **params}
        n = _common.check_int("n", params["n"], 2, None, SHORT_NAME, " (board side)")
        k = _common.check_int(
            "k", params["k"], 1, n, SHORT_NAME, " (stones in a row to win; 1 <= k <= n)"
        )
        length = max_decisions(n)
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=n * n + 1,
                max_chance_outcomes=n,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=length,
            ),
            {"n": n, "k": k},
        )
        self.rules = dice_rules(n, k)
        self._max_length = length

    def new_initial_state(self):
        return DiceState(self, DicePosition.initial(self.rules))

    def state_from_position(self, position: DicePosition) -> DiceState:
        if position[0] is not self.rules:
            raise ValueError("position belongs to a different dice game")
        return DiceState(self, position)

    def max_chance_nodes_in_history(self):
        return self._max_length

    def make_py_observer(self, iig_obs_type=None, params=None):
        n = self.rules.n
        return _common.make_observer(functools.partial(DiceObserver, n=n), iig_obs_type, params)


class DiceState(_common.PositionState):
    """pyspiel wrapper around a DicePosition."""

    _pos: DicePosition

    def _action_to_string(self, player, action):
        r = self._pos[0]
        if player == CHANCE:
            # The roller is stored in the position only before the roll.
            roller = self._pos[4] if self._pos[3] == CHANCE else None
            kind = {0: "column", 1: "row", None: "line"}[roller]
            return f"roll {kind} {action}"
        if action == r.pass_action:
            return f"{'xo'[player]} pass"
        return f"{'xo'[player]}({action // r.n},{action % r.n})"

    def __str__(self):
        return f"{self._pos.board_string()}\n{self._pos.status_string()}"


class DiceObserver(_common.TensorObserver):
    """Tensor: board planes (empty, x, o), player to move/roll, chosen line."""

    def __init__(self, params, n):
        super().__init__(params, {"board": (3, n, n), "player": (2,), "line": (n,)})
        self._n = n

    def fill(self, pos):
        _, b0, b1, cp, x = pos
        n = self._n
        board = self.dict["board"]
        for c in range(n * n):
            i, j = divmod(c, n)
            board[1 if b0 >> c & 1 else 2 if b1 >> c & 1 else 0, i, j] = 1
        if cp >= 0:
            self.dict["player"][cp] = 1
            self.dict["line"][x] = 1
        elif cp == CHANCE:
            self.dict["player"][x] = 1


class DiceEvaluator(_common.PositionEvaluator):
    """Open k-windows weighted by stones, squashed with tanh into (-1, 1).

    A window holding only x stones scores +3^(s-1) for s stones (only o:
    minus); the sum is divided by 3^(k-1) so one window one stone short of a
    win is worth about tanh(1/3). Cached per board (bounded cache).
    """

    position_type = DicePosition
    native_name = "dice"  # the C++ twin in games/native/dice.cc

    def __init__(self, game):
        super().__init__((-1.0, 1.0))
        r = (
            game.rules
            if isinstance(game, DiceGame)
            else dice_rules(int(game.get_parameters()["n"]), int(game.get_parameters()["k"]))
        )
        self._windows = r.windows
        self._weights = tuple(
            0.0 if s == 0 else 3.0 ** (s - 1) / 3.0 ** (r.k - 1) for s in range(r.k + 1)
        )
        self._cache: dict[tuple[int, int], float] = {}

    def value(self, pos):
        key = (pos[1], pos[2])
        v = self._cache.get(key)
        if v is None:
            b0, b1 = key
            w = self._weights
            s = 0.0
            for m in self._windows:
                a = b0 & m
                b = b1 & m
                if a:
                    if not b:
                        s += w[a.bit_count()]
                elif b:
                    s -= w[b.bit_count()]
            v = _common.squash(s)
            if len(self._cache) > 1_000_000:
                self._cache.clear()
            self._cache[key] = v
        return v


PYTHON_REGISTERED = _common.register_game(_GAME_TYPE, DiceGame)
register_evaluator(SHORT_NAME, DiceEvaluator)
# MCMS seeds its draws with the position's canonical text, on either twin.
register_sampling_key(SHORT_NAME, DicePosition.from_state)
