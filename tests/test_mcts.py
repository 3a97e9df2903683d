"""mcts on every game in scope: OpenSpiel's C++ MCTSBot where it runs, its Python MCTS elsewhere.

OpenSpiel 2.0.2's C++ MCTSBot segfaults on Python-registered games when stepped
from Python, so every whole game here runs in a subprocess: a crash fails the
test instead of killing the suite.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pyspiel
import pytest
from open_spiel.python import games as openspiel_python_games  # noqa: F401 - python_tic_tac_toe
from open_spiel.python.algorithms import mcts as os_mcts

import bots
import games  # registers the custom games
from bots import mcts

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYTHON_GAMES = [
    "dice(n=4,k=3)",
    "chance_tic_tac_toe",
    "ballard_tree(n=3,plies=4)",
    "python_tic_tac_toe",
]
CUSTOM_GAMES = PYTHON_GAMES[:3]


def _run(
    args: list[str], timeout: float = 300, python_games: bool = False
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    if python_games:
        # Without the native engine the custom games register as Python games, not as
        # their C++ twins.
        env["STARSPIEL_ENGINE"] = "python"
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


_PLAY = textwrap.dedent(
    """
    import json, sys
    import numpy as np, pyspiel
    import open_spiel.python.games  # python_tic_tac_toe
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    import games
    import bots

    game = pyspiel.load_game(sys.argv[1])
    players = [
        bots.make_bot("mcts(time_limit=0.02,seed=1)", game, 0),
        bots.make_bot("mcts(max_simulations=30,seed=2,solve=false)", game, 1),
    ]
    python_returns = evaluate_bots(game.new_initial_state(), players, np.random.RandomState(3))
    cpp_returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 4)
    print(json.dumps({
        "implementation": [p.implementation for p in players],
        "python_returns": [float(r) for r in python_returns],
        "cpp_returns": [float(r) for r in cpp_returns],
    }))
    """
)


@pytest.mark.parametrize("game_string", PYTHON_GAMES)
def test_mcts_plays_python_games_through_both_evaluate_bots(game_string):
    done = _run(["-c", _PLAY, game_string], python_games=True)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["implementation"] == [mcts.PYTHON, mcts.PYTHON]
    game = pyspiel.load_game(game_string)
    for key in ("python_returns", "cpp_returns"):
        returns = result[key]
        assert len(returns) == 2 and returns[0] == -returns[1]
        assert game.min_utility() <= returns[0] <= game.max_utility()


@pytest.mark.slow
@pytest.mark.parametrize("game_string", CUSTOM_GAMES)
def test_mcts_plays_custom_games_in_the_tournament(game_string, tmp_path):
    out = tmp_path / "run"
    done = _run(
        [
            "-m",
            "experiments.tournament",
            f"--game={game_string}",
            "--bot=random(seed=1)",
            "--bot=mcts(time_limit=0.02)",
            "--games_per_pair=2",
            "--workers=1",
            f"--out={out}",
        ]
    )
    assert done.returncode == 0, done.stderr[-3000:]
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["error"] is None, record["error"]
        assert len(record["returns"]) == 2


def test_python_games_get_the_python_mcts_and_cpp_games_the_cpp_one():
    dice = games.python_game("dice(n=4,k=3)")  # the Python twin, whatever is registered
    pig = pyspiel.load_game("pig(winscore=10)")
    assert mcts.is_python_game(dice) and not mcts.is_python_game(pig)
    python_bot = bots.make_bot("mcts(max_simulations=5)", dice, 0)
    cpp_bot = bots.make_bot("mcts(max_simulations=5)", pig, 0)
    assert isinstance(python_bot, os_mcts.MCTSBot) and isinstance(python_bot, pyspiel.Bot)
    assert isinstance(cpp_bot, pyspiel.MCTSBot)
    assert python_bot.implementation == mcts.PYTHON and cpp_bot.implementation == mcts.CPP
    state = pig.new_initial_state()
    assert cpp_bot.step(state) in state.legal_actions()


def test_python_mcts_gets_the_specs_parameters():
    game = games.python_game("chance_tic_tac_toe")
    bot = bots.make_bot("mcts(uct_c=1.5,max_simulations=7,rollouts=3,solve=false)", game, 1)
    assert (bot.uct_c, bot.max_simulations, bot.solve) == (1.5, 7, False)
    assert bot.evaluator.n_rollouts == 3 and bot.time_limit is None
    timed = bots.make_bot("mcts(time_limit=0.5)", game, 0)
    assert timed.time_limit == 0.5 and timed.max_simulations == 10**9


class _Clock:
    """A fake perf_counter: each reading is one second later than the last."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_time_limit_stops_between_simulations_and_keeps_openspiels_search(monkeypatch):
    game = games.python_game("dice(n=4,k=3)")
    state = game.new_initial_state()
    state.apply_action(0)
    monkeypatch.setattr(mcts.time, "perf_counter", _Clock())
    # The search reads 1 (deadline 4.5). Simulations 1 and 2 run before the root has
    # children and do not read the clock; 3, 4 and 5 read 2, 3 and 4; the sixth reads 5
    # and is refused. So five complete simulations, as OpenSpiel's with max_simulations=5.
    limited = mcts.make_mcts_bot(
        game,
        uct_c=2.0,
        max_simulations=10**9,
        rollouts=1,
        max_memory_mb=100,
        solve=True,
        seed=5,
        time_limit=3.5,
    )
    limited_root = limited.mcts_search(state)
    reference = os_mcts.MCTSBot(
        game,
        2.0,
        limited_root.explore_count,
        os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)),
        solve=True,
        random_state=np.random.RandomState(5),
    )
    reference_root = reference.mcts_search(state)
    assert limited_root.explore_count == 5

    def tree(node: os_mcts.SearchNode) -> list:
        return [(c.action, c.explore_count, c.total_reward, tree(c)) for c in node.children]

    assert tree(limited_root) == tree(reference_root)
    assert limited_root.best_child().action == reference_root.best_child().action


def test_mcts_plays_games_with_intermediate_rewards_valuing_in_points():
    """2048 pays a reward at every merge. OpenSpiel's MCTSBot refuses such games; through
    TerminalReturnsView its Python bot plays them, and a node's mean value is a final
    score: at least the points already collected (2048's rewards are never negative). Rollouts
    play whole 2048 games in test_bots.py."""
    game = pyspiel.load_game("2048(max_tile=64)")
    with pytest.raises(ValueError, match="terminal rewards"):
        os_mcts.MCTSBot(game, 2.0, 10, os_mcts.RandomRolloutEvaluator())
    bot = bots.make_bot("mcts(evaluator=heuristic,max_simulations=40,seed=2)", game, 0)
    assert bot.implementation == mcts.PYTHON
    state, rng, collected = game.new_initial_state(), np.random.RandomState(4), 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            root = bot.mcts_search(state)
            means = [c.total_reward / c.explore_count for c in root.children if c.explore_count]
            assert means and min(means) >= state.returns()[0]
            state.apply_action(root.best_child().action)
            collected += state.rewards()[0]  # the move's merges (a tile's draw pays none)
    assert state.returns()[0] == collected > 0


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mcts(solve=3)", "solve must be true or false"),
        ("mcts(time_limit=0)", "time_limit must be a number > 0 or none"),
        ("mcts(rollouts=0)", "rollouts must be an integer >= 1"),
        ("mcts(depth=3)", "unknown parameter"),
    ],
)
def test_bad_mcts_specs_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        bots.make_bot(spec, pyspiel.load_game("dice"), 0)
