"""What make_bot's own bots share: the ``pyspiel.Bot`` methods, and the upstream check.

The check (games/upstream.py: does the installed OpenSpiel score this game's ends?)
plays a random game, so it runs at a bot's first ``step``, never in ``make_bot`` or on
import, and says what it found in one line (an ``UpstreamGameWarning``). The
tournament and strength commands run it before any game and refuse a flagged one.
"""

from __future__ import annotations

import warnings

import numpy as np
import pyspiel

from games.upstream import UpstreamGameWarning, upstream_problem


class BotBase(pyspiel.Bot):
    """A bot for one player of one game, with its own seeded generator; a subclass
    implements ``_act`` (or ``step_with_policy``, calling ``_first_step`` first)."""

    def __init__(self, game: pyspiel.Game, player_id: int, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self._game = game
        self._player_id = player_id
        self._rng = np.random.RandomState(seed)
        self._game_checked = False

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step_with_policy(self, state: pyspiel.State):
        action = self.step(state)
        return [(action, 1.0)], action

    def step(self, state: pyspiel.State) -> int:
        self._first_step()
        return self._act(state)

    def _act(self, state: pyspiel.State) -> int:
        raise NotImplementedError

    def _first_step(self) -> None:
        """The upstream check, once per bot: a warning if the game has a known fault."""
        if self._game_checked:
            return
        self._game_checked = True
        problem = upstream_problem(self._game)
        if problem is not None:
            warnings.warn(problem, UpstreamGameWarning, stacklevel=3)
