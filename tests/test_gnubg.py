"""GNU Backgammon as a bot (bots/yardsticks/gnubg.py): translation proven, faults, runners.

The translation is checked both ways on over 10,000 positions from random and bot
play: every OpenSpiel position -> gnubg board -> gnubg position id -> board ->
OpenSpiel counts, and, for a sample of 1,000 (bar entry, bearing off,
no legal move, doubles played in part, both seats), gnubg's chosen move -> the
legal OpenSpiel actions that reach exactly its position.
"""

from __future__ import annotations

import json
import os
import signal
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyspiel
import pytest

import bots
from bots.yardsticks import gnubg as yard
from bots.yardsticks.gnubg import (
    GnubgBot,
    GnubgError,
    GnubgProcess,
    dice,
    gnubg_board,
    openspiel_counts,
    reaching,
    second_half,
    state_counts,
)
from experiments.common.runner import RunnerOptions
from experiments.tournament import play as tournament_play
from experiments.tournament import presets
from experiments.tournament import run as tournament

pytestmark = pytest.mark.skipif(
    not os.path.exists(yard.GNUBG_PATH), reason=f"gnubg is not installed ({yard.INSTALL_HINT})"
)

GAME = "backgammon"
MONEY = "backgammon(scoring_type=full_scoring)"


def _random_action(state: pyspiel.State, rng: np.random.RandomState) -> int:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return int(outcomes[rng.randint(len(outcomes))][0])
    legal = state.legal_actions()
    return int(legal[rng.randint(len(legal))])


def _no_legal_move(state: pyspiel.State) -> bool:
    legal = state.legal_actions()
    player = state.current_player()
    return len(legal) == 1 and gnubg_board(state.child(legal[0]), player) == gnubg_board(
        state, player
    )


@pytest.fixture(scope="module")
def bot_games() -> list[pyspiel.State]:
    """Decision states of whole games gnubg played (both seats, both objectives)."""
    states = []
    rng = np.random.RandomState(5)
    for game_string, seat in ((GAME, 0), (MONEY, 1)):
        game = pyspiel.load_game(game_string)
        bot = GnubgBot(game, seat)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_player_node():
                states.append(state.clone())
            action = (
                bot.step(state) if state.current_player() == seat else _random_action(state, rng)
            )
            state.apply_action(action)
        bot.close()
    return states


@pytest.fixture(scope="module")
def positions(bot_games) -> list[pyspiel.State]:
    """Over 10,000 decision states: random play, then the games gnubg played."""
    game = pyspiel.load_game(GAME)
    rng = np.random.RandomState(1)
    states: list[pyspiel.State] = []
    while len(states) < 10_000:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_player_node():
                states.append(state.clone())
            state.apply_action(_random_action(state, rng))
    return states + bot_games


def test_openspiel_plays_doubles_as_two_half_turns_of_the_same_player():
    game = pyspiel.load_game(GAME)
    game_state = game.new_initial_state()
    rng = np.random.RandomState(0)
    halves = []
    while not game_state.is_terminal() and len(halves) < 20:
        if game_state.is_chance_node():
            game_state.apply_action(_random_action(game_state, rng))
            continue
        roll = dice(game_state)
        if roll[0] == roll[1] and not second_half(game_state):
            player = game_state.current_player()
            used_both = [
                a
                for a in game_state.legal_actions()
                if len([m for m in game_state.spiel_move_to_checker_moves(player, a) if m.pos >= 0])
                == 2
            ]
            if used_both:
                child = game_state.child(used_both[0])
                halves.append((child.current_player() == player, second_half(child)))
                grandchild = child.child(child.legal_actions()[0])
                assert grandchild.is_chance_node() or grandchild.is_terminal()
        game_state.apply_action(_random_action(game_state, rng))
    assert halves and all(same and second for same, second in halves)


def test_every_position_round_trips_through_gnubg_boards_and_position_ids(positions):
    assert len(positions) >= 10_000
    boards = []
    for state in positions:
        player = state.current_player()
        board = gnubg_board(state, player)
        assert openspiel_counts(board, player) == state_counts(state)
        boards.append(board)
    seats = {s.current_player() for s in positions}
    on_bar = sum(1 for b in boards if b[1][24] > 0)
    bearing_off = sum(1 for b in boards if sum(b[1][6:]) == 0)
    seconds = sum(1 for s in positions if second_half(s))
    assert seats == {0, 1} and on_bar > 100 and bearing_off > 100 and seconds > 100
    process = GnubgProcess()
    try:
        answer = process.request({"op": "ids", "boards": boards})
    finally:
        process.close()
    back = [tuple(tuple(side) for side in board) for board in answer["boards"]]
    assert back == boards
    assert len(set(answer["ids"])) == len(set(boards))  # one id per position, and back


def _move_sample(positions: list[pyspiel.State]) -> list[pyspiel.State]:
    """First halves and whole turns: every doubles, bar and no-move case, then others."""
    special, rest = [], []
    for state in positions:
        if not second_half(state):
            mine = gnubg_board(state, state.current_player())[1]
            roll = dice(state)
            unusual = roll[0] == roll[1] or mine[24] > 0 or sum(mine[6:]) == 0
            (special if unusual else rest).append(state)
    rng = np.random.RandomState(3)
    chosen = [special[i] for i in rng.choice(len(special), min(700, len(special)), replace=False)]
    chosen += [rest[i] for i in rng.choice(len(rest), 300, replace=False)]
    return chosen


def _gnubg_moves(states: list[pyspiel.State], chunks: int = 8) -> list[dict]:
    """gnubg's moves for ``states``, in a few processes at once (gnubg answers fast but
    each call waits for its worker thread, which a loaded machine makes slow)."""

    def ask(part: list[pyspiel.State]) -> list[dict]:
        process = GnubgProcess()
        try:
            boards = [gnubg_board(s, s.current_player()) for s in part]
            return process.request(
                {
                    "op": "move",
                    "objective": "win",
                    "plies": 0,
                    "boards": boards,
                    "dice": [list(dice(s)) for s in part],
                    "valued": False,
                }
            )["results"]
        finally:
            process.close()

    parts = [states[k::chunks] for k in range(chunks)]
    with ThreadPoolExecutor(chunks) as pool:
        answers = list(pool.map(ask, parts))
    out: list[dict] = [{}] * len(states)
    for k, answer in enumerate(answers):
        out[k::chunks] = answer
    return out


def test_gnubg_moves_map_to_the_legal_actions_that_reach_its_position(positions):
    sample = _move_sample(positions)
    results = _gnubg_moves(sample)
    seen = {"bar entry": 0, "bearing off": 0, "no legal move": 0, "doubles in part": 0}
    seats = set()
    for state, result in zip(sample, results):
        player = state.current_player()
        target = tuple(tuple(side) for side in result["after"])
        found = reaching(state, player, state.legal_actions(), target)
        assert found, f"gnubg's {result['text']} reached by no action from\n{state}"
        seats.add(player)
        move = result["move"]
        roll = dice(state)
        seen["bar entry"] += 25 in move[0::2]
        seen["bearing off"] += 0 in move[1::2]
        seen["no legal move"] += not move
        seen["doubles in part"] += roll[0] == roll[1] and 0 < len(move) < 8
        if not move:
            assert _no_legal_move(state)
    assert len(sample) >= 1000 and seats == {0, 1}
    print(f"{len(sample)} moves mapped: {seen}")
    assert all(count > 0 for count in seen.values()), seen


def test_a_move_no_action_reaches_is_an_error_naming_the_position(monkeypatch):
    game = pyspiel.load_game(GAME)
    state = game.new_initial_state()
    state.apply_action(0)
    bot = GnubgBot(game, state.current_player())
    real = bot.best_moves

    def wrong(boards, rolls, valued=True):
        results = real(boards, rolls, valued)
        results[0]["after"] = [list(boards[0][0]), list(boards[0][1])]  # as if it passed
        return results

    monkeypatch.setattr(bot, "best_moves", wrong)
    try:
        with pytest.raises(GnubgError, match="maps to no legal OpenSpiel action at position"):
            bot.step(state)
    finally:
        bot.close()


def test_doubles_are_played_out_as_gnubg_planned_them():
    game = pyspiel.load_game(GAME)
    bot = GnubgBot(game, 1)
    rng = np.random.RandomState(11)
    checked = 0
    try:
        for _ in range(2):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node() or state.current_player() == 0:
                    state.apply_action(_random_action(state, rng))
                    continue
                roll = dice(state)
                plan = None
                if roll[0] == roll[1]:
                    plan = bot.best_moves([gnubg_board(state, 1)], [roll], valued=False)[0]
                state.apply_action(bot.step(state))
                if plan is not None and not state.is_terminal() and state.is_player_node():
                    assert bot.last_search["half"] == 1
                    state.apply_action(bot.step(state))
                    assert bot.last_search["half"] == 2
                if plan is not None:
                    assert gnubg_board(state, 1) == tuple(tuple(s) for s in plan["after"])
                    checked += 1
        assert checked > 0
    finally:
        bot.close()


def test_a_second_half_without_the_plan_asks_gnubg_again():
    game = pyspiel.load_game(GAME)
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not (state.is_player_node() and second_half(state)):
        state.apply_action(_random_action(state, rng))
    bot = GnubgBot(game, state.current_player())
    try:
        action = bot.step(state)
        assert action in state.legal_actions() and bot.last_search["half"] == 2
    finally:
        bot.close()


@pytest.mark.parametrize("game_string", [GAME, MONEY])
def test_gnubg_chooses_the_move_best_for_the_games_objective(game_string, positions):
    """At 0-ply its move is the best of all legal continuations by gnubg's own values:
    P(win) for win/loss scoring, cubeless money equity (gammons 2, backgammons 3)."""
    game = pyspiel.load_game(game_string)
    turns = [s for s in positions[:3000] if not second_half(s) and dice(s)[0] != dice(s)[1]]
    bot = GnubgBot(game, 0)
    try:
        for state in turns[:4]:
            player = state.current_player()
            bot._player_id = player
            action = bot.step(state)
            chosen = gnubg_board(state.child(action), player)
            boards = sorted({gnubg_board(state.child(a), player) for a in state.legal_actions()})
            evals = bot._ask("evaluate", boards=boards)["evals"]
            equities = [bot._equity(e) for e in evals]
            assert equities[boards.index(chosen)] >= max(equities) - 1e-6
    finally:
        bot.close()


def test_last_search_reports_gnubgs_equity_and_chances():
    game = pyspiel.load_game(MONEY)
    state = game.new_initial_state()
    state.apply_action(0)
    bot = bots.make_bot("gnubg(plies=1)", game, state.current_player())
    try:
        action = bot.step(state)
    finally:
        bot.close()
    search = bot.last_search
    assert search["action"] == action and search["time"] > 0 and search["objective"] == "money"
    for key in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
        assert 0 <= search[key] <= 1
    assert search["win_gammon"] <= search["win"]
    expected = (
        2 * search["win"]
        - 1
        + search["win_gammon"]
        - search["lose_gammon"]
        + search["win_backgammon"]
        - search["lose_backgammon"]
    )
    assert search["equity"] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("gnubg(plies=3)", GAME, "plies must be one of 0, 1, 2, got 3"),
        ("gnubg(plies=-1)", GAME, "plies must be an integer >= 0"),
        ("gnubg", "pig", "gnubg plays only OpenSpiel's 'backgammon', not 'pig()'"),
        ("gnubg", "backgammon(scoring_type=enable_gammons)", "scoring_type=enable_gammons"),
        ("gnubg", "backgammon(hyper_backgammon=true)", "hyper-backgammon"),
        ("gnubg(depth=2)", GAME, "unknown parameter(s) depth for bot 'gnubg'"),
    ],
)
def test_make_bot_refuses_what_gnubg_cannot_play(spec, game, message):
    with pytest.raises(ValueError) as error:
        bots.make_bot(spec, game, 0)
    assert message in str(error.value)


def test_gnubg_missing_names_the_install_command(monkeypatch):
    with pytest.raises(GnubgError, match="apt-get install gnubg"):
        bots.make_bot("gnubg", GAME, 0, path="/nonexistent/gnubg")
    monkeypatch.setattr(yard, "GNUBG_PATH", "/nonexistent/gnubg")
    with pytest.raises(GnubgError, match="apt-get install gnubg"):
        bots.make_bot("gnubg", GAME, 0)


def _opening() -> tuple[pyspiel.Game, pyspiel.State]:
    game = pyspiel.load_game(GAME)
    state = game.new_initial_state()
    state.apply_action(0)
    return game, state


def test_one_process_per_bot_started_on_first_use_and_closed_with_it():
    game, state = _opening()
    bot = GnubgBot(game, state.current_player())
    assert bot.process.pid is None  # nothing started yet
    bot.step(state)
    pid = bot.process.pid
    bot.step(state)
    assert bot.process.pid == pid  # a position costs a message, not a process
    bot.close()
    assert bot.process.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_killed_gnubg_is_a_clear_error():
    game, state = _opening()
    bot = GnubgBot(game, state.current_player())
    bot.step(state)
    os.kill(bot.process.pid, signal.SIGKILL)
    with pytest.raises(GnubgError, match=r"gnubg \(pid \d+\) died"):
        bot.step(state)
    bot.close()


@pytest.mark.slow
def test_a_hung_gnubg_is_a_clear_error_after_its_timeout():
    game, state = _opening()
    bot = GnubgBot(game, state.current_player(), timeout=1.0)
    bot.step(state)
    pid = bot.process.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(GnubgError, match="gave no answer to 'move' within 1 s"):
            bot.step(state)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        bot.close()


def test_evaluate_bots_plays_gnubg_in_either_seat():
    game = pyspiel.load_game(GAME)
    for seat in (0, 1):
        gnubg = bots.make_bot("gnubg", game, seat)
        other = bots.make_bot("random(seed=3)", game, 1 - seat)
        players = [gnubg, other] if seat == 0 else [other, gnubg]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 7)
        gnubg.close()
        assert sorted(returns) == [-1.0, 1.0]


def _config(games_per_pair: int = 2, max_moves: int = 40) -> dict:
    return {
        "program": "experiments.tournament",
        "game": GAME,
        "bots": ["gnubg", "random"],
        "schedule": "round_robin",
        "games_per_pair": games_per_pair,
        "seed": 3,
        "max_moves": max_moves,
    }


@pytest.mark.parametrize("workers", [1, 2])
def test_the_tournament_runner_plays_gnubg(tmp_path, workers):
    summary = tournament.run_tournament(
        _config(),
        str(tmp_path),
        options=RunnerOptions(workers=workers, progress=False, task_timeout=120),
        bootstrap=0,
        plots=False,
    )
    records = [json.loads(line) for line in open(tmp_path / "games.jsonl")]
    assert len(records) == 2 and all(r["error"] is None for r in records)
    assert summary.pairings[0]["games"] == 2


@pytest.mark.slow
def test_a_gnubg_killed_mid_game_voids_that_game_only(tmp_path, monkeypatch):
    real_create = tournament_play.create_bot
    moves = [0]  # gnubg's moves over the whole run: the first game is played first

    class Killer(pyspiel.Bot):
        """gnubg whose process is killed at the third gnubg move of the run."""

        def __init__(self, inner):
            pyspiel.Bot.__init__(self)
            self.inner = inner

        def restart_at(self, state):
            pass

        def step(self, state):
            moves[0] += 1
            if moves[0] == 3:
                os.kill(self.inner.process.pid, signal.SIGKILL)
            return self.inner.step(state)

    def create(spec, game, player_id, seed):
        bot = real_create(spec, game, player_id, seed)
        return Killer(bot) if spec == "gnubg" else bot

    monkeypatch.setattr(tournament_play, "create_bot", create)
    summary = tournament.run_tournament(
        _config(games_per_pair=4, max_moves=30),
        str(tmp_path),
        options=RunnerOptions(workers=1, progress=False),
        bootstrap=0,
        plots=False,
    )
    records = {r["id"]: r for r in map(json.loads, open(tmp_path / "games.jsonl"))}
    bad = [r for r in records.values() if r["error"]]
    assert len(records) == 4 and len(bad) == 1 and bad[0]["id"] == "0v1#0"
    assert "GnubgError" in bad[0]["error"] and "died" in bad[0]["error"]
    assert summary.pairings[0]["errors"] == 1 and summary.pairings[0]["games"] == 3


def test_the_gnubg_presets_are_sized_and_run():
    for name in ("gnubg", "gnubg_learned", "gnubg1_learned", "gnubg_check"):
        preset = presets.preset(name)
        config = preset.config()
        assert config["game"] == MONEY and config["schedule"] == "gauntlet"
        assert config["games_per_pair"] % 2 == 0 and preset.worker_hours / 2 <= 2.5
        assert "gnubg" in config["bots"][0]
    study = presets.preset("gnubg").config()["bots"]
    assert len(study) == 6 and all("time_limit=0.1" in spec for spec in study[1:])


def test_openspiel_bot_registry_holds_starspiel_gnubg():
    try:
        bots.register_native_bots()
    except Exception as error:  # no native engine here: the registry entries need it
        pytest.skip(f"the native engine is not built: {error}")
    game = pyspiel.load_game(GAME)
    assert "starspiel_gnubg" in pyspiel.bots_that_can_play_game(game, 0)
    assert "starspiel_gnubg" not in pyspiel.bots_that_can_play_game(pyspiel.load_game("pig"), 0)
    gnubg = pyspiel.load_bot("starspiel_gnubg", game, 0, {"plies": 0})
    other = pyspiel.load_bot("starspiel_random", game, 1, {"seed": 1})
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [gnubg, other], 3)
    assert sorted(returns) == [-1.0, 1.0]
