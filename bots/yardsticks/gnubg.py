"""GNU Backgammon (gnubg) as a bot for OpenSpiel's ``backgammon``: the yardstick.

One long-lived gnubg process per bot runs ``gnubg_server.py`` (gnubg's own
Python) and answers one JSON line per request, so a position costs a message,
not a process. Positions go to gnubg as its boards (`gnubg_board`); gnubg's
whole move comes back as the board it leads to, and the bot plays the legal
OpenSpiel actions whose resulting positions equal that board: actions are found
by applying them and comparing positions, never by decoding action ids. A move
that no legal action reaches is an error naming the position.

OpenSpiel plays a roll of doubles as two half-turns of the same player; gnubg
chooses the whole turn once and the bot plays it out over both halves, checking
at the second half that the state is the one its plan expected (else it asks
gnubg to value the second half's positions). See docs/guide/gnubg.md.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import subprocess
import time
import weakref
from collections.abc import Sequence
from typing import Any

import pyspiel

# Where Debian installs gnubg; tests and users may point elsewhere (the bot's ``path``).
GNUBG_PATH = "/usr/games/gnubg"
INSTALL_HINT = "apt-get install gnubg"
SERVER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gnubg_server.py")
ANSWER_PREFIX = "@starspiel "
PLIES = (0, 1, 2)
DEFAULT_TIMEOUT = 60.0
_BAR = 100  # OpenSpiel's kBarPos
CHECKERS = 15

Board = tuple[tuple[int, ...], tuple[int, ...]]  # gnubg: (opponent's side, side on roll)


class GnubgError(RuntimeError):
    """gnubg is missing, died, hung, or chose a move no legal action reaches."""


def objective_for(game: pyspiel.Game) -> str:
    """``win`` for OpenSpiel's win/loss scoring, ``money`` for full scoring; refuses others."""
    if game.get_type().short_name != "backgammon":
        raise ValueError(
            f"gnubg plays only OpenSpiel's 'backgammon', not '{game}' "
            "(GNU Backgammon knows no other game)"
        )
    params = game.get_parameters()
    if params.get("hyper_backgammon", False):
        raise ValueError(f"gnubg cannot play '{game}': hyper-backgammon is not supported")
    scoring = params.get("scoring_type", "winloss_scoring")
    if scoring == "winloss_scoring":
        return "win"
    if scoring == "full_scoring":
        return "money"
    raise ValueError(
        f"gnubg cannot play '{game}': scoring_type={scoring} (gammons 2, backgammons 1) "
        "matches no gnubg objective; use winloss_scoring (gnubg maximises P(win)) or "
        "full_scoring (cubeless money, Jacoby off)"
    )


def gnubg_board(state: pyspiel.State, player: int) -> Board:
    """``state``'s checkers as gnubg's board with ``player`` on roll.

    OpenSpiel's player 0 (x) moves from point 0 to 23, player 1 (o) from 23 to 0;
    gnubg counts each side's points from its own home: index 0 is the point next to
    bearing off, 24 the bar. Checkers borne off are implicit (15 minus the rest).
    """

    def side(p: int) -> tuple[int, ...]:
        points = [state.board(p, 23 - i if p == 0 else i) for i in range(24)]
        return tuple(points + [state.board(p, _BAR)])

    return (side(1 - player), side(player))


def openspiel_counts(board: Board, player: int) -> dict[str, list[int]]:
    """The inverse of `gnubg_board`: per OpenSpiel player, its 24 points, bar and off."""
    counts: dict[str, list[int]] = {}
    for p, gside in ((player, board[1]), (1 - player, board[0])):
        points = [0] * 24
        for i in range(24):
            points[23 - i if p == 0 else i] = gside[i]
        counts[f"points{p}"] = points
        counts[f"bar{p}"] = [gside[24]]
        counts[f"off{p}"] = [CHECKERS - _count(gside)]
    return counts


def _count(checkers: Sequence[int]) -> int:
    """Checkers in all: a sum of ints, exact in any order."""
    total = 0
    for count in checkers:
        total += count
    return total


def state_counts(state: pyspiel.State) -> dict[str, list[int]]:
    """OpenSpiel's own counts of a state, in `openspiel_counts`'s layout."""
    counts: dict[str, list[int]] = {}
    for p in (0, 1):
        points = [state.board(p, pos) for pos in range(24)]
        bar = state.board(p, _BAR)
        counts[f"points{p}"] = points
        counts[f"bar{p}"] = [bar]
        counts[f"off{p}"] = [CHECKERS - _count(points) - bar]
    return counts


def dice(state: pyspiel.State) -> tuple[int, int]:
    """The roll to play, read from the observation (its last two entries)."""
    tensor = state.observation_tensor(state.current_player())
    return (int(tensor[-2]), int(tensor[-1]))


def second_half(state: pyspiel.State) -> bool:
    """Whether the player to move already played the first half of a roll of doubles."""
    history = state.full_history()
    return bool(history) and history[-1].player == state.current_player()


def as_board(sides: Sequence[Sequence[int]]) -> Board:
    """A board as gnubg's answers hold it (lists), as a comparable tuple."""
    return (tuple(sides[0]), tuple(sides[1]))


def describe(state: pyspiel.State, board: Board, roll: Sequence[int]) -> str:
    return f"position {board!r} (dice {tuple(roll)}, history {state.history()}):\n{state}"


class GnubgProcess:
    """One gnubg running `SERVER_SCRIPT`: JSON lines in, JSON lines out, with a timeout."""

    def __init__(self, path: str = GNUBG_PATH, timeout: float = DEFAULT_TIMEOUT):
        self.path = path
        self.timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def _start(self) -> subprocess.Popen[bytes]:
        executable = shutil.which(self.path)
        if executable is None:
            raise GnubgError(
                f"GNU Backgammon not found at {self.path}: install it with "
                f"'{INSTALL_HINT}' (Debian, Ubuntu)"
            )
        self._proc = subprocess.Popen(
            [executable, "-t", "-q", "-r", "-p", SERVER_SCRIPT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=os.path.dirname(SERVER_SCRIPT),
        )
        self._buffer = b""
        _LIVE.add(self)
        self._read("start")
        return self._proc

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Sends one request and returns its answer; GnubgError if gnubg fails."""
        proc = self._proc if self._proc is not None else self._start()
        assert proc.stdin is not None
        what = message.get("op", "?")
        try:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            self._fail(f"gnubg (pid {proc.pid}) died before {what!r} reached it ({error})")
        answer = self._read(what)
        if "error" in answer:
            raise GnubgError(f"gnubg refused the request {what!r}: {answer['error']}")
        return answer

    def _read(self, what: str) -> dict[str, Any]:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                text = line.decode(errors="replace")
                if text.startswith(ANSWER_PREFIX):
                    return dict(json.loads(text[len(ANSWER_PREFIX) :]))
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(
                    f"gnubg (pid {proc.pid}) gave no answer to {what!r} within "
                    f"{self.timeout:g} s; it was stopped"
                )
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = proc.poll()
                    self._fail(
                        f"gnubg (pid {proc.pid}) died while answering {what!r}"
                        + (f" (exit status {code})" if code is not None else "")
                    )
                self._buffer += chunk

    def _fail(self, message: str) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()  # hung or half-dead: it gets no second chance
        self.close()
        raise GnubgError(message)

    def close(self) -> None:
        """Stops the process (closing its stdin ends the server's loop)."""
        proc, self._proc = self._proc, None
        _LIVE.discard(self)
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


_LIVE: weakref.WeakSet[GnubgProcess] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for process in list(_LIVE):
        process.close()


class GnubgBot(pyspiel.Bot):
    """gnubg's choice of move at ``plies`` lookahead, cubeless, for one seat.

    ``last_search`` after a step: ``action``, ``time``, ``equity`` (for the
    objective: 2 P(win) - 1, or money points per game), ``win``, ``win_gammon``,
    ``win_backgammon``, ``lose_gammon``, ``lose_backgammon`` (gnubg's chances of
    the position after the whole move, for this bot's player), ``move`` (gnubg's
    notation), ``objective``, ``plies``, ``half`` (1 or 2 on a roll of doubles).
    """

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: int,
        plies: int = 0,
        noise: float = 0.0,
        timeout: float = DEFAULT_TIMEOUT,
        path: str | None = None,
    ):
        pyspiel.Bot.__init__(self)
        if plies not in PLIES:
            raise ValueError(f"plies must be one of {', '.join(map(str, PLIES))}, got {plies!r}")
        self.objective = objective_for(game)
        self._player_id = player_id
        self.plies = plies
        self.noise = float(noise)
        self.path = GNUBG_PATH if path is None else path
        if shutil.which(self.path) is None:
            raise GnubgError(
                f"GNU Backgammon not found at {self.path}: install it with '{INSTALL_HINT}'"
            )
        self.process = GnubgProcess(self.path, timeout)
        self._plan: tuple[Board, tuple[int, int], Board, dict[str, Any]] | None = None
        self.last_search: dict[str, Any] = {}

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: pyspiel.State) -> None:
        self._plan = None

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def close(self) -> None:
        self.process.close()

    def __del__(self) -> None:
        process = self.__dict__.get("process")
        if process is not None:
            process.close()

    def _ask(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.process.request(
            {"op": op, "objective": self.objective, "plies": self.plies, "noise": self.noise}
            | fields
        )

    def best_moves(
        self, boards: Sequence[Board], rolls: Sequence[Sequence[int]], valued: bool = True
    ) -> list[dict]:
        """gnubg's whole move for each (board, roll), in one message; ``valued``: with
        gnubg's evaluation of the board it leads to."""
        answer = self._ask(
            "move", boards=list(boards), dice=[list(r) for r in rolls], valued=valued
        )
        return list(answer["results"])

    def step(self, state: pyspiel.State) -> int:
        start = time.perf_counter()
        player = state.current_player()
        if player != self._player_id:
            raise ValueError(f"gnubg bot of player {self._player_id} asked to move for {player}")
        board = gnubg_board(state, player)
        roll = dice(state)
        legal = state.legal_actions()
        plan = self._plan
        self._plan = None
        if second_half(state):
            if plan is not None and plan[0] == board and plan[1] == roll:
                target, result = plan[2], plan[3]
                matches = [a for a in legal if gnubg_board(state.child(a), player) == target]
                if not matches:
                    raise GnubgError(
                        f"gnubg's move {result['text']!r} reaches no legal action in the "
                        f"second half of the doubles at {describe(state, board, roll)}"
                    )
                action = matches[0]
                self._report(action, result, 2, start)
                return action
            return self._second_half_anew(state, player, legal, start)
        result = self.best_moves([board], [roll])[0]
        target = as_board(result["after"])
        matches = reaching(state, player, legal, target)
        if not matches:
            raise GnubgError(
                f"gnubg's move {result['text']!r} (to {target!r}) maps to no legal "
                f"OpenSpiel action at {describe(state, board, roll)}"
            )
        action = matches[0]
        child = state.child(action)
        if roll[0] == roll[1] and not child.is_terminal() and second_half(child):
            self._plan = (gnubg_board(child, player), roll, target, result)
        self._report(action, result, 1, start)
        return action

    def _second_half_anew(
        self, state: pyspiel.State, player: int, legal: Sequence[int], start: float
    ) -> int:
        """No plan for this second half: gnubg values each legal continuation."""
        boards = [gnubg_board(state.child(a), player) for a in legal]
        evals = self._ask("evaluate", boards=boards)["evals"]
        scores = [self._equity(e) for e in evals]
        best = max(range(len(legal)), key=lambda i: (scores[i], -legal[i]))
        result = {"text": "(second half valued anew)", "eval": evals[best]}
        self._report(legal[best], result, 2, start)
        return int(legal[best])

    def _equity(self, probabilities: Sequence[float]) -> float:
        win, win_g, win_bg, lose_g, lose_bg = probabilities
        if self.objective == "win":
            return 2 * win - 1
        return 2 * win - 1 + win_g - lose_g + win_bg - lose_bg

    def _report(self, action: int, result: dict[str, Any], half: int, start: float) -> None:
        chances = dict(
            zip(
                ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"),
                result["eval"],
            )
        )
        self.last_search = {
            "action": int(action),
            "value": self._equity(result["eval"]),
            "equity": self._equity(result["eval"]),
            **chances,
            "move": result["text"],
            "objective": self.objective,
            "plies": self.plies,
            "half": half,
            "engine": "gnubg",
            "time": time.perf_counter() - start,
        }


def reaching(state: pyspiel.State, player: int, legal: Sequence[int], target: Board) -> list[int]:
    """The legal actions from which ``player`` reaches ``target`` this turn, sorted.

    On a roll of doubles an action reaches it through the second half (any of its
    legal actions), or directly when the turn ends after the first half.
    """
    found = []
    halfway: dict[Board, bool] = {}  # several actions lead to one position halfway
    for action in legal:
        child = state.child(action)
        board = gnubg_board(child, player)
        if not child.is_terminal() and child.is_player_node() and second_half(child):
            if board not in halfway:
                halfway[board] = any(
                    gnubg_board(child.child(b), player) == target for b in child.legal_actions()
                )
            if halfway[board]:
                found.append(int(action))
        elif board == target:
            found.append(int(action))
    return sorted(found)
