"""Can't Stop (Sid Sackson, 1980) for 2 to 4 players, with a turn horizon.

Board: columns 2..12 of heights 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3. Each player
has a permanent marker per column (its banked height, 0 = not started).

A turn: the mover rolls four dice (a chance node) and pairs them into two sums
in one of three ways; each sum names a column. The mover advances temporary
markers (runners, three at most per turn) in the chosen pairing's columns, then
decides to roll again or stop. Stopping banks the runners' heights as the
mover's permanent markers; a roll with no usable pairing busts (the turn's
runners are lost) and the mover's one legal action is ``STOP``. A stop ends the
turn and the next player rolls. (The forced stop after a bust keeps a decision
between any two chance nodes: without it, busts at the start of turns would chain
chance nodes, which consume no search depth, up to the horizon.)

Details, as in the standard rules:

* A column is usable when it is not won, the mover's runner there (or banked
  marker) is below its top, and the mover has a runner there or one to place.
* A pairing whose two sums are both usable must use both: one step in each
  column, two steps when the sums are equal (one if only one step is left).
  When only one runner is left and the two sums name different columns that
  both need it, the mover picks one of the two. A pairing with one usable sum
  uses that one.
* Stopping with a runner at the top of a column wins the column: it closes to
  everyone and the other players' markers in it are removed. Winning three
  columns wins the game.

Encoding. Decision actions: ``ROLL`` (0) and ``STOP`` (1) after a successful
roll; a move is the multiset of columns it advances: ``c`` (2..12) advances
column c by one step, ``13 + pair index`` advances the columns c <= d of a pair
(c == d: two steps in c); the legal moves of a roll are its pairings' distinct
moves, ascending (two pairings with the same effect are one action). Chance
outcomes: the four dice as a sorted multiset, 126 outcomes in lexicographic
order (``ROLLS``), each with its exact probability (count of the 1,296 ordered
rolls)/1296, so not uniform (1 1 1 1: 1/1296, 1 2 3 4: 24/1296).

Horizon. Busts can repeat forever, so the rules alone do not bound a game and
OpenSpiel needs a finite length: after ``horizon`` turns (default 1000, a bust
or a stop ends a turn) the game ends in a draw. Returns: the winner +1, the
others -1/(N-1) (zero-sum, as OpenSpiel's pig with N players); a draw 0 to all.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import pyspiel

from games import _common
from games._common import CHANCE, TERMINAL

SHORT_NAME = "cant_stop"  # the C++ game's name (games/native/), in messages too
# This Python twin's registered name, OpenSpiel's convention for a Python twin.
PYTHON_NAME = "python_cant_stop"
_DEFAULT_PARAMS = {"players": 2, "horizon": 1000}

FIRST_COLUMN = 2
HEIGHTS = (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)  # columns 2..12
COLUMNS = len(HEIGHTS)
RUNNERS = 3  # temporary markers per turn
COLUMNS_TO_WIN = 3

ROLL, STOP = 0, 1
SINGLE_BASE = FIRST_COLUMN  # action c advances column c (2..12)
PAIR_BASE = FIRST_COLUMN + COLUMNS  # 13: the pairs of columns c <= d follow
# Column indices (0..10) of each pair action, in order.
PAIRS = tuple((i, j) for i in range(COLUMNS) for j in range(i, COLUMNS))
NUM_ACTIONS = PAIR_BASE + len(PAIRS)  # 79
_PAIR_ACTION = {pair: PAIR_BASE + k for k, pair in enumerate(PAIRS)}

# The 126 sorted rolls of four dice and how many of the 6^4 ordered rolls each is.
_ROLL_COUNTS: dict[tuple[int, ...], int] = {}
for _dice in itertools.product(range(1, 7), repeat=4):
    _key = tuple(sorted(_dice))
    _ROLL_COUNTS[_key] = _ROLL_COUNTS.get(_key, 0) + 1
ROLLS: tuple[tuple[int, int, int, int], ...] = tuple(sorted(_ROLL_COUNTS))  # type: ignore[arg-type]
ROLL_PROBABILITIES = tuple(_ROLL_COUNTS[r] / 1296 for r in ROLLS)
CHANCE_OUTCOMES = tuple(enumerate(ROLL_PROBABILITIES))
# The three pairings of each roll, as column indices (sum - 2): (a+b, c+d), (a+c, b+d), (a+d, b+c).
PAIRINGS = tuple(
    ((a + b - 2, c + d - 2), (a + c - 2, b + d - 2), (a + d - 2, b + c - 2)) for a, b, c, d in ROLLS
)
del _dice, _key

# Phases of a position.
TO_ROLL, TO_MOVE, ROLL_OR_STOP, BUSTED, OVER = 0, 1, 2, 3, 4
# At most 35 successful rolls a turn (three columns of 13, 11, 11), 2 decisions each, and
# the stop after a bust.
DECISIONS_PER_TURN = 71
CHANCE_PER_TURN = 36


def action_columns(action: int) -> tuple[int, ...]:
    """The column indices (0..10) a move action advances, one entry per step."""
    if SINGLE_BASE <= action < PAIR_BASE:
        return (action - SINGLE_BASE,)
    return PAIRS[action - PAIR_BASE]


def action_string(action: int) -> str:
    """A decision action's text: "roll", "stop", "advance 7", "advance 4 4", "advance 6 8"."""
    if action == ROLL:
        return "roll"
    if action == STOP:
        return "stop"
    return "advance " + " ".join(str(c + FIRST_COLUMN) for c in action_columns(action))


def roll_string(outcome: int) -> str:
    """A chance outcome's text: "roll 1 2 2 5"."""
    return "roll " + " ".join(map(str, ROLLS[outcome]))


class CantStopRules(_common.Rules):
    """The per-parameter tables of one (players, horizon), shared by all positions."""

    __slots__ = ("players", "horizon", "win_returns", "zero_returns", "start", "_game")

    def __init__(self, players: int, horizon: int):
        self.players, self.horizon = players, horizon
        loss = -1.0 / (players - 1)
        self.win_returns = tuple(
            tuple(1.0 if p == w else loss for p in range(players)) for w in range(players)
        )
        self.zero_returns = (0.0,) * players
        self.start = ((0,) * COLUMNS,) * players
        self._game: CantStopGame | None = None

    def __reduce__(self):
        return (cant_stop_rules, (self.players, self.horizon))

    def game(self) -> CantStopGame:
        """The Python game of these rules (not the registry's, which may be the C++ twin)."""
        if self._game is None:
            self._game = CantStopGame({"players": self.players, "horizon": self.horizon})
        return self._game


@functools.cache
def cant_stop_rules(players: int, horizon: int) -> CantStopRules:
    return CantStopRules(players, horizon)


class _CantStopFields(NamedTuple):
    rules: CantStopRules
    progress: tuple[tuple[int, ...], ...]  # progress[p][c]: player p's banked height in column c
    runners: tuple[int, ...]  # the mover's steps this turn per column (0: no runner)
    mover: int  # whose turn it is; at the end, the winner (-1: a draw)
    phase: int  # TO_ROLL (chance), TO_MOVE, ROLL_OR_STOP, BUSTED, OVER
    roll: int  # TO_MOVE: the rolled outcome (index into ROLLS); else -1
    turns: int  # turns completed (the horizon counts them)


_new = tuple.__new__


class CantStopPosition(_common.Position, _CantStopFields):
    """A Can't Stop position (see the module doc for the rules)."""

    __slots__ = ()

    @classmethod
    def initial(cls, rules: CantStopRules) -> CantStopPosition:
        return _new(cls, (rules, rules.start, (0,) * COLUMNS, 0, TO_ROLL, -1, 0))

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == TO_ROLL

    def current_player(self) -> int:
        phase = self.phase
        if phase == TO_ROLL:
            return CHANCE
        return TERMINAL if phase == OVER else self.mover

    def returns(self) -> tuple[float, ...]:
        rules = self.rules
        if self.phase == OVER and self.mover >= 0:
            return rules.win_returns[self.mover]
        return rules.zero_returns

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return CHANCE_OUTCOMES if self.phase == TO_ROLL else ()

    def legal_actions(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TO_MOVE:
            return self.moves(self.roll)
        if phase == ROLL_OR_STOP:
            return (ROLL, STOP)
        if phase == BUSTED:
            return (STOP,)
        if phase == TO_ROLL:
            return tuple(range(len(ROLLS)))
        return ()

    def closed(self) -> tuple[bool, ...]:
        """Whether each column is won (closed to everyone)."""
        return tuple(
            any(row[c] == height for row in self.progress) for c, height in enumerate(HEIGHTS)
        )

    def moves(self, roll: int) -> tuple[int, ...]:
        """The mover's legal moves for a roll, ascending; () is a bust."""
        own = self.progress[self.mover]
        runners = self.runners
        free = RUNNERS - sum(1 for r in runners if r)
        closed = self.closed()
        found = set()
        for s, t in PAIRINGS[roll]:
            room_s = 0 if closed[s] else HEIGHTS[s] - own[s] - runners[s]
            usable_s = room_s > 0 and (runners[s] > 0 or free > 0)
            if s == t:
                if usable_s:
                    found.add(_PAIR_ACTION[(s, s)] if room_s >= 2 else SINGLE_BASE + s)
                continue
            room_t = 0 if closed[t] else HEIGHTS[t] - own[t] - runners[t]
            usable_t = room_t > 0 and (runners[t] > 0 or free > 0)
            if usable_s and usable_t:
                if runners[s] or runners[t] or free >= 2:
                    found.add(_PAIR_ACTION[(min(s, t), max(s, t))])
                else:  # one runner left for two new columns: the mover picks one
                    found.add(SINGLE_BASE + s)
                    found.add(SINGLE_BASE + t)
            elif usable_s:
                found.add(SINGLE_BASE + s)
            elif usable_t:
                found.add(SINGLE_BASE + t)
        return tuple(sorted(found))

    def child(self, action: int) -> CantStopPosition:
        rules, progress, runners, mover, phase, _, turns = self
        if phase == TO_ROLL:
            if self.moves(action):
                return _new(
                    CantStopPosition, (rules, progress, runners, mover, TO_MOVE, action, turns)
                )
            # Bust: the runners are lost; the mover's forced stop ends the turn.
            return _new(
                CantStopPosition, (rules, progress, (0,) * COLUMNS, mover, BUSTED, -1, turns)
            )
        if phase == TO_MOVE:
            steps = list(runners)
            for c in action_columns(action):
                steps[c] += 1
            return _new(
                CantStopPosition, (rules, progress, tuple(steps), mover, ROLL_OR_STOP, -1, turns)
            )
        if phase == BUSTED:
            return self._end_turn(progress)
        if action == ROLL:
            return _new(CantStopPosition, (rules, progress, runners, mover, TO_ROLL, -1, turns))
        # STOP: bank the runners; a column topped is won and others' markers leave it.
        own = tuple(h + r for h, r in zip(progress[mover], runners))
        rows = [own if p == mover else list(row) for p, row in enumerate(progress)]
        for c, height in enumerate(HEIGHTS):
            if runners[c] and own[c] == height:
                for p, row in enumerate(rows):
                    if p != mover:
                        row[c] = 0  # type: ignore[index]
        banked = tuple(tuple(row) for row in rows)
        if sum(1 for c, height in enumerate(HEIGHTS) if own[c] == height) >= COLUMNS_TO_WIN:
            return _new(
                CantStopPosition, (rules, banked, (0,) * COLUMNS, mover, OVER, -1, turns + 1)
            )
        return self._end_turn(banked)

    def _end_turn(self, progress: tuple[tuple[int, ...], ...]) -> CantStopPosition:
        """The next player's roll, or a draw at the horizon."""
        rules, turns = self.rules, self.turns + 1
        if turns >= rules.horizon:
            return _new(CantStopPosition, (rules, progress, (0,) * COLUMNS, -1, OVER, -1, turns))
        mover = (self.mover + 1) % rules.players
        return _new(CantStopPosition, (rules, progress, (0,) * COLUMNS, mover, TO_ROLL, -1, turns))

    def to_state(self) -> CantStopState:
        """A full pyspiel state for this position (its history is empty)."""
        return self.rules.game().state_from_position(self)

    # Text: every field, so the string is a sound table key and from_string its inverse.
    def status_string(self) -> str:
        head = f"turn {self.turns}: "
        phase, mover = self.phase, self.mover
        if phase == TO_ROLL:
            return head + f"player {mover} to roll"
        if phase == TO_MOVE:
            return head + f"player {mover} rolled {' '.join(map(str, ROLLS[self.roll]))}, to move"
        if phase == ROLL_OR_STOP:
            return head + f"player {mover} to roll or stop"
        if phase == BUSTED:
            return head + f"player {mover} busted, to stop"
        return head + (f"player {mover} won" if mover >= 0 else "draw at the horizon")

    def board_string(self) -> str:
        def line(label: str, values) -> str:
            return f"{label:<8}" + "".join(f"{v:>3}" for v in values)

        rows = [
            line("column", range(FIRST_COLUMN, FIRST_COLUMN + COLUMNS)),
            line("height", HEIGHTS),
        ]
        rows += [line(f"p{p}", row) for p, row in enumerate(self.progress)]
        own = self.progress[self.mover] if self.mover >= 0 else (0,) * COLUMNS
        rows.append(line("runners", (own[c] + r if r else "." for c, r in enumerate(self.runners))))
        return "\n".join(rows)

    @classmethod
    def from_state(cls, state: pyspiel.State) -> CantStopPosition:
        """The position of a state of the C++ twin (games/native/cant_stop.cc), from its string."""
        params = state.get_game().get_parameters()
        rules = cant_stop_rules(int(params["players"]), int(params["horizon"]))
        return cls.from_string(rules, str(state))

    @classmethod
    def from_string(cls, rules: CantStopRules, text: str) -> CantStopPosition:
        """Inverse of ``f"{status_string()}\n{board_string()}"`` (str of a state)."""
        status, _, _, *rest = text.split("\n")
        words = status.replace(":", "").replace(",", "").split()
        turns = int(words[1])
        roll = -1
        if words[2] == "draw":
            mover, phase = -1, OVER
        else:
            mover = int(words[3])
            if words[4] == "rolled":
                phase = TO_MOVE
                roll = ROLLS.index(tuple(int(w) for w in words[5:9]))
            elif words[4] == "won":
                phase = OVER
            elif words[4] == "busted":
                phase = BUSTED
            elif words[-1] == "stop":
                phase = ROLL_OR_STOP
            else:
                phase = TO_ROLL
        progress = tuple(tuple(int(v) for v in row.split()[1:]) for row in rest[:-1])
        own = progress[mover] if mover >= 0 else (0,) * COLUMNS
        marks = rest[-1].split()[1:]
        runners = tuple(0 if m == "." else int(m) - own[c] for c, m in enumerate(marks))
        return _new(cls, (rules, progress, runners, mover, phase, roll, turns))


class CantStopState(_common.PositionState):
    """pyspiel wrapper around a CantStopPosition."""

    _pos: CantStopPosition

    def _action_to_string(self, player, action):
        return roll_string(action) if player == CHANCE else action_string(action)

    def __str__(self):
        return f"{self._pos.status_string()}\n{self._pos.board_string()}"


class CantStopObserver(_common.TensorObserver):
    """Tensor: banked heights (players x 11), runner steps (11), mover (players),
    phase (to roll, to move, roll or stop, busted), the rolled dice's face counts (6)."""

    def __init__(self, params, game: CantStopGame):
        players = game.rules.players
        super().__init__(
            params,
            {
                "progress": (players, COLUMNS),
                "runners": (COLUMNS,),
                "mover": (players,),
                "phase": (4,),
                "dice": (6,),
            },
        )

    def fill(self, pos):
        _, progress, runners, mover, phase, roll, _ = pos
        for p, row in enumerate(progress):
            self.dict["progress"][p] = row
        self.dict["runners"][:] = runners
        if phase != OVER:
            self.dict["mover"][mover] = 1
            self.dict["phase"][phase] = 1
        if phase == TO_MOVE:
            for face in ROLLS[roll]:
                self.dict["dice"][face - 1] += 1


_GAME_TYPE = _common.chance_game_type(
    PYTHON_NAME, "Can't Stop (Sid Sackson)", _DEFAULT_PARAMS, min_players=2, max_players=4
)


class CantStopGame(_common.PositionGame):
    """Can't Stop; parameters players (2-4) and horizon (turns before a draw)."""

    position_class = CantStopPosition
    state_class = CantStopState
    observer_class = CantStopObserver
    rules: CantStopRules

    def __init__(self, params=None):
        params = _common.with_defaults(params, _DEFAULT_PARAMS, SHORT_NAME)
        players = _common.check_int("players", params["players"], 2, 4, SHORT_NAME)
        horizon = _common.check_int(
            "horizon", params["horizon"], 1, 10_000, SHORT_NAME, " (turns before a draw)"
        )
        super().__init__(
            _GAME_TYPE,
            {"players": players, "horizon": horizon},
            actions=NUM_ACTIONS,
            chance_outcomes=len(ROLLS),
            max_game_length=horizon * DECISIONS_PER_TURN,
            max_chance_nodes=horizon * CHANCE_PER_TURN,
            players=players,
        )
        self.rules = cant_stop_rules(players, horizon)


_common.register_game(_GAME_TYPE, CantStopGame)
