"""Search for 3 and 4 players: paranoid and max^n, exact against plain references, on both
engines, node for node (docs/guide/multiplayer.md).

Paranoid must return plain paranoid expectimax's value (and an optimal move) with every
exact configuration; max^n must return plain expectimax^n's vector bit for bit and its
move (the tie-break is fixed), whatever the algorithm, table or move ordering. The two
engines must agree on values, moves and every counter. Trees come from
nplayer_tree_game.py, real positions from pig(players=3) and maedn(players=4).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from helpers.engines import ENGINES
from helpers.nplayer_tree_game import (
    HashVectorEvaluator,
    VectorTree,
    VectorTreeState,
    random_vector_tree,
    tree_game,
)
from helpers.plain_expectiminimax import sample_positions
from helpers.plain_multiplayer import plain_maxn, plain_paranoid
from helpers.soak import PROFILE, examples
from hypothesis import given, settings
from hypothesis import strategies as st

import bots
from bots.mcms import MaxnMCMSSearcher
from bots.native_searcher import make_searcher
from bots.options import SearchOptions
from bots.probcut_models import ProbCutModel, ProbCutSettings
from bots.searcher_protocol import LeafValueOutOfBounds

TOL = 1e-9
# A calibration for tests only: ChanceProbCut's models are irrelevant to exactness here
# (max^n ignores them; paranoid chanceprobcut is compared between engines only).
PROBCUT = ProbCutSettings(1, 1.0, {d: ProbCutModel(0.9, 0.0, 0.2) for d in range(1, 6)})
EXACT = (
    {"algorithm": "expectiminimax"},
    {"algorithm": "star1"},
    {"algorithm": "star2"},
    {"algorithm": "star2", "probing_factor": 2, "probing": "sequential"},
    {"algorithm": "star2", "reachable_probes": True},
    {"algorithm": "star2", "static_ordering": True},
)
TABLES = (0, 2, 100_000)
OTHER_ENGINE = {"python": "native", "native": "python"}


def _options(config: dict, multiplayer: str, tt_size: int, evaluator, **more) -> SearchOptions:
    config = dict(config)
    algorithm = config.pop("algorithm")
    if algorithm == "chanceprobcut":
        config["probcut"] = PROBCUT
    return SearchOptions.create(
        algorithm, multiplayer=multiplayer, tt_size=tt_size, evaluator=evaluator, **config, **more
    )


def _run(game, state, depth, player, options, engine):
    searcher = make_searcher(engine, game, player, options)
    assert searcher.engine == engine
    value, action = searcher.search(state, depth)
    return value, action, searcher.stats(), getattr(searcher, "root_values", None)


def _paranoid_problems(game, evaluator, state, depth, player, engine, configs=EXACT) -> list:
    plain, children = plain_paranoid(state, depth, evaluator, player)
    problems = []
    for config in configs:
        for tt_size in TABLES:
            options = _options(config, "paranoid", tt_size, evaluator)
            value, action, _, _ = _run(game, state, depth, player, options, engine)
            where = f"{config} tt={tt_size} depth={depth} player={player} {engine}"
            if abs(value - plain) > TOL:
                problems.append(f"{where}: value {value!r}, plain {plain!r}")
            elif children and abs(children[action] - plain) > TOL:
                problems.append(f"{where}: move {action} worth {children[action]}, best {plain}")
    return problems


MAXN_CONFIGS = EXACT + ({"algorithm": "chanceprobcut"},)


def _maxn_problems(game, evaluator, state, depth, player, engine) -> list:
    plain, plain_action = plain_maxn(state, depth, evaluator)
    problems = []
    for config in MAXN_CONFIGS:
        for tt_size in TABLES:
            for ordering in (True, False):
                options = _options(config, "maxn", tt_size, evaluator, move_ordering=ordering)
                value, action, _, values = _run(game, state, depth, player, options, engine)
                where = f"{config} tt={tt_size} ordering={ordering} depth={depth} {engine}"
                if tuple(values) != plain or value != plain[player] or action != plain_action:
                    problems.append(
                        f"{where}: {values} {action}, plain {list(plain)} {plain_action}"
                    )
    return problems


def _parity_problems(game, evaluator, state, depth, player, configs, multiplayer) -> list:
    """Both engines: the same value, move, vector and counters."""
    problems = []
    for config in configs:
        for tt_size in TABLES:
            options = _options(config, multiplayer, tt_size, evaluator)
            python = _run(game, state, depth, player, options, "python")
            native = _run(game, state, depth, player, options, "native")
            if python != native:
                problems.append(f"{multiplayer} {config} tt={tt_size}: {python} != {native}")
    return problems


# ------------------------------------------------------------------ generated trees


def _tree_cases(seed: int) -> tuple[VectorTree, int, int]:
    """A tree (3 or 4 players, constant- or general-sum, grid or not), a root, a depth."""
    rng = random.Random(seed)
    tree = random_vector_tree(
        rng,
        rng.choice([3, 4]),
        constant_sum=rng.random() < 0.75,
        grid=rng.random() < 0.5,
    )
    roots = [i for i, n in enumerate(tree.nodes) if n[0] != "T"]
    root = 0 if rng.random() < 0.7 else rng.choice(roots)
    return tree, root, rng.choice([1, 2, 3, 4])


def _check_tree(seed: int, engine: str) -> None:
    tree, root, depth = _tree_cases(seed)
    game, evaluator = tree_game(tree)
    state = VectorTreeState(game, root)
    problems = _maxn_problems(game, evaluator, state, depth, seed % tree.num_players, engine)
    for player in range(tree.num_players):
        problems += _paranoid_problems(game, evaluator, state, depth, player, engine)
    assert not problems, f"\n{tree.literal()}\nroot={root}:\n" + "\n".join(problems)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(12))
def test_seeded_trees_equal_plain(seed, engine):
    _check_tree(seed, engine)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(25), **PROFILE)
@given(st.integers(0, 2**32))
def test_generated_trees_equal_plain(engine, seed):
    _check_tree(seed, engine)


@settings(max_examples=examples(20), **PROFILE)
@given(st.integers(0, 2**32))
def test_engines_agree_on_trees_node_for_node(seed):
    pytest.importorskip("bots._native")
    _skip_without_native()
    tree, root, depth = _tree_cases(seed)
    game, evaluator = tree_game(tree)
    state = VectorTreeState(game, root)
    player = seed % tree.num_players
    configs = EXACT + ({"algorithm": "chanceprobcut"},)
    problems = _parity_problems(game, evaluator, state, depth, player, configs, "paranoid")
    problems += _parity_problems(game, evaluator, state, depth, player, configs, "maxn")
    assert not problems, f"\n{tree.literal()}\nroot={root} depth={depth}:\n" + "\n".join(problems)


def _skip_without_native() -> None:
    from helpers.engines import skip_unless_runs

    skip_unless_runs("native")


@pytest.mark.parametrize("multiplayer", ["paranoid", "maxn"])
def test_deepening_one_searcher_stays_exact(multiplayer, engine):
    """As a bot deepens: one searcher (its table and history kept), the previous best
    move first; every iteration equals plain, and both engines count alike."""
    for seed in range(8):
        tree, root, _ = _tree_cases(seed)
        game, evaluator = tree_game(tree)
        state = VectorTreeState(game, root)
        player = state.current_player() if state.current_player() >= 0 else 0
        options = _options({"algorithm": "star2"}, multiplayer, 1000, evaluator)
        searcher = make_searcher(engine, game, player, options)
        order: list[int] = []
        for depth in range(1, 5):
            value, action = searcher.search(state, depth, root_order=order)
            order = [action] if action is not None else []
            if multiplayer == "maxn":
                assert (tuple(searcher.root_values), action) == plain_maxn(state, depth, evaluator)
            else:
                plain, children = plain_paranoid(state, depth, evaluator, player)
                assert abs(value - plain) <= TOL
                assert not children or abs(children[action] - plain) <= TOL
        if engine == "native":
            twin = make_searcher("python", game, player, options)
            order = []
            for depth in range(1, 5):
                action = twin.search(state, depth, root_order=order)[1]
                order = [action] if action is not None else []
            assert twin.stats() == searcher.stats(), tree.literal()


def test_shallow_pruning_cuts_and_general_sum_does_not():
    """The cut fires on constant-sum trees (so the tests above test it), never without a sum."""
    cuts = {True: 0, False: 0}
    for seed in range(40):
        for constant in (True, False):
            tree = random_vector_tree(random.Random(seed), 3, constant_sum=constant)
            game, evaluator = tree_game(tree)
            options = _options({"algorithm": "star2"}, "maxn", 0, evaluator)
            cuts[constant] += _run(game, game.new_initial_state(), 4, 0, options, "python")[2][
                "cutoffs_alpha_beta"
            ]
    assert cuts[True] > 0 and cuts[False] == 0, cuts


# ------------------------------------------------------------------------ real games

PIG3 = "pig(players=3,winscore=12)"
MAEDN4 = "maedn(players=4)"


def _positions(game_string: str, count: int, moves: int) -> list:
    game = pyspiel.load_game(game_string)
    return [s for s in sample_positions(game, count, 7, moves) if not s.is_terminal()]


@pytest.mark.parametrize(("game_string", "depths"), [(PIG3, (1, 2, 3)), (MAEDN4, (1, 2))])
def test_real_games_equal_plain(game_string, depths, engine):
    game = pyspiel.load_game(game_string)
    evaluator = HashVectorEvaluator(game, levels=4)
    problems = []
    for state in _positions(game_string, 3, 30):
        player = state.current_player()
        for depth in depths:
            problems += _maxn_problems(game, evaluator, state, depth, player, engine)
            problems += _paranoid_problems(game, evaluator, state, depth, player, engine, EXACT[:3])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_string", [PIG3, MAEDN4])
def test_real_games_engines_agree(game_string):
    _skip_without_native()
    game = pyspiel.load_game(game_string)
    evaluator = HashVectorEvaluator(game)
    configs = EXACT + ({"algorithm": "chanceprobcut"},)
    problems = []
    for state in _positions(game_string, 2, 40):
        for multiplayer in ("paranoid", "maxn"):
            problems += _parity_problems(
                game, evaluator, state, 2, state.current_player(), configs, multiplayer
            )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------- MCMS


def _draws(sampler: MaxnMCMSSearcher):
    """The sampled tree's chance outcomes: the sampler's draws, all outcomes where it draws
    none (plain expectimax^n over them is what MCMS must return)."""
    return lambda s: sampler.sampled_outcomes(s) or s.chance_outcomes()


@pytest.mark.parametrize("samples", [1, 2, 3, 6])
def test_mcms_maxn_is_plain_on_the_sampled_tree(samples, engine):
    game = pyspiel.load_game(PIG3)
    evaluator = HashVectorEvaluator(game)
    sampled = 0
    for state in _positions(PIG3, 3, 20):
        player = state.current_player()
        options = SearchOptions.create(
            "star2", multiplayer="maxn", samples=samples, seed=3, evaluator=evaluator
        )
        oracle = MaxnMCMSSearcher(game, player, options)  # its draws, not its search
        plain, plain_action = plain_maxn(state, 3, evaluator, _draws(oracle))
        for tt_size in (0, 100_000):
            searcher = make_searcher(
                engine,
                game,
                player,
                SearchOptions.create(
                    "star2",
                    multiplayer="maxn",
                    samples=samples,
                    seed=3,
                    evaluator=evaluator,
                    tt_size=tt_size,
                ),
            )
            value, action = searcher.search(state, 3)
            assert (tuple(searcher.root_values), action) == (plain, plain_action)
            assert value == plain[player]
            sampled += searcher.stats()["sampled_chance_nodes"]
    assert (sampled > 0) == (samples < 6)  # pig's die has 6 faces


def test_paranoid_mcms_with_every_outcome_is_plain_paranoid(engine):
    game = pyspiel.load_game(PIG3)
    evaluator = HashVectorEvaluator(game)
    for state in _positions(PIG3, 3, 20):
        player = state.current_player()
        plain, children = plain_paranoid(state, 3, evaluator, player)
        options = SearchOptions.create("star2", samples=6, tt_size=1000, evaluator=evaluator)
        value, action, stats, _ = _run(game, state, 3, player, options, engine)
        assert abs(value - plain) <= TOL and abs(children[action] - plain) <= TOL
        assert stats["sampled_chance_nodes"] == 0


def test_mcms_engines_agree_under_both_models():
    _skip_without_native()
    game = pyspiel.load_game(MAEDN4)
    evaluator = HashVectorEvaluator(game)
    for state in _positions(MAEDN4, 2, 30):
        for multiplayer in ("paranoid", "maxn"):
            options = SearchOptions.create(
                "star2", multiplayer=multiplayer, samples=2, tt_size=1000, evaluator=evaluator
            )
            runs = [
                _run(game, state, 2, state.current_player(), options, engine)
                for engine in ("python", "native")
            ]
            assert runs[0] == runs[1]


# ------------------------------------------------------------------- bots and games


@pytest.mark.parametrize("multiplayer", ["paranoid", "maxn"])
@pytest.mark.parametrize(
    ("name", "game_string"),
    [("star2", PIG3), ("expectiminimax", MAEDN4), ("mcms", "pig(players=4,winscore=10)")],
)
def test_whole_games_through_evaluate_bots(name, game_string, multiplayer, engine):
    game = pyspiel.load_game(game_string)
    evaluator = HashVectorEvaluator(game)
    players = [
        bots.make_bot(
            f"{name}(max_depth=2)",
            game,
            p,
            evaluator=evaluator,
            engine=engine,
            multiplayer=multiplayer,
        )
        for p in range(game.num_players())
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 5)
    assert len(returns) == game.num_players()
    record = players[0].last_search
    assert record["engine"] == engine
    if multiplayer == "maxn":
        assert len(record["values"]) == game.num_players()
        assert record["value"] == record["values"][0]
    else:
        assert "values" not in record


def test_time_limited_maxn_bot_reports_its_vector(engine):
    game = pyspiel.load_game(PIG3)
    bot = bots.make_bot(
        "star2(time_limit=0.05)",
        game,
        0,
        evaluator=HashVectorEvaluator(game),
        multiplayer="maxn",
        engine=engine,
    )
    state = game.new_initial_state()
    bot.step(state)
    record = bot.last_search
    assert record["depth"] >= 1 and len(record["values"]) == 3
    assert record["value"] == record["values"][0]


def test_registry_bots_play_a_three_player_game():
    _skip_without_native()
    game = pyspiel.load_game(PIG3)
    players = [
        pyspiel.load_bot(
            f"starspiel_{name}",
            game,
            p,
            {"max_depth": 1, "multiplayer": model, "evaluator": "zero"},
        )
        for p, (name, model) in enumerate(
            [("star2", "paranoid"), ("expectiminimax", "maxn"), ("mcms", "maxn")]
        )
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 11)
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


# -------------------------------------------------------------------------- errors


def test_maxn_is_refused_below_three_players(engine):
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError, match="multiplayer=maxn is for games of 3 or more players"):
        bots.make_bot("star2(max_depth=1)", game, 0, multiplayer="maxn", engine=engine)


def test_unknown_model_is_refused():
    with pytest.raises(ValueError, match="unknown multiplayer 'best'; accepted: paranoid, maxn"):
        bots.make_bot("star2", pyspiel.load_game(PIG3), 0, multiplayer="best")


class _OffSum(HashVectorEvaluator):
    def evaluate(self, state):
        return super().evaluate(state) + 0.01


class _OutOfBounds(HashVectorEvaluator):
    def evaluate(self, state):
        return np.array([5.0, -2.5, -2.5])


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [(_OffSum, "sums to"), (_OutOfBounds, "outside the bounds")],
)
def test_maxn_checks_leaf_vectors(evaluator, message, engine):
    game = pyspiel.load_game(PIG3)
    options = SearchOptions.create("star2", multiplayer="maxn", evaluator=evaluator(game))
    searcher = make_searcher(engine, game, 0, options)
    with pytest.raises(LeafValueOutOfBounds, match=message):
        searcher.search(game.new_initial_state(), 2)
