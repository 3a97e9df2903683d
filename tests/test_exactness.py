"""Exactness of the search engine against plain expectiminimax.

Expectiminimax (alpha-beta), Star1, Star2 and Star2 with a table return the same
root value (to 1e-9) as plain expectiminimax at the same fixed depth with the same
evaluator (docs/guide/search.md, "Conventions"). Checked here on seeded random positions of
real games and of the random-tree game (where chance decides who moves next, a player
can move twice in a row, chance children can be terminal), plus node count orderings
and the iterative-deepening bot's record.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest
from helpers.exactness import LAST_SEARCH_KEYS, OPTION_SETS, TOL, plain_problems, tag, with_options
from helpers.plain_expectiminimax import HashEvaluator, plain_expectiminimax, sample_positions
from helpers.random_tree import RandomTree, minimize_tree, random_tree, reorder
from helpers.random_tree_game import RandomTreeGame, StateOnlyTreeEvaluator, TreeEvaluator
from helpers.session_cache import session_cached
from helpers.soak import SEED, examples
from open_spiel.python.algorithms import minimax

import bots
import games  # noqa: F401  (registers dice and chance_tic_tac_toe)
from bots.evaluators import default_evaluator

EXACT = OPTION_SETS["exact"]
STAR1, EXPECTIMINIMAX, STAR2 = (
    tag({"algorithm": a, "tt_size": 0}) for a in ("star1", "expectiminimax", "star2")
)


MAX_MOVES = {"pig": 40, "einstein_wurfelt_nicht": 16, "2048": 60, "backgammon": 30}


def make_evaluator(kind: str, game: pyspiel.Game) -> Any:
    """The library's default evaluator, or bounded pseudo-random leaf values."""
    if kind == "default":
        from bots.evaluators import default_evaluator

        return default_evaluator(game)
    if game.num_players() == 1:
        return HashEvaluator(game, (0.0, 2000.0))
    return HashEvaluator(game)


def check_position(
    game: pyspiel.Game,
    state: Any,
    depth: int,
    evaluator: Any,
    player: int | None = None,
    move_ordering: bool = True,
    where: str = "",
    engine: str = "python",
) -> tuple[list[str], dict[str, int]]:
    """Every exact configuration on ``engine`` against plain; (problems, node counts)."""
    sets = EXACT if move_ordering else with_options(EXACT, move_ordering=False)
    check = plain_problems(
        game, state, depth, sets, engine=engine, evaluator=evaluator, player=player, where=where
    )
    return check.problems, check.nodes


# ----------------------------------------------------------------- the reference


def hand_tree() -> RandomTree:
    """Small tree whose values were worked out by hand (see test below)."""
    nodes = {
        0: ("D", 0, ((0, 1), (2, 2)), 0.0),
        1: ("C", ((0, 0.25, 3), (1, 0.75, 4)), 0.0),
        3: ("T", 1.0),
        4: ("D", 1, ((0, 5), (1, 6)), 0.2),
        5: ("T", -1.0),
        6: ("T", 0.5),
        2: ("D", 0, ((0, 7),), 0.3),  # player 0 moves twice in a row
        7: ("C", ((0, 0.5, 8), (3, 0.5, 9)), -0.1),
        8: ("D", 1, ((0, 6),), 0.4),  # transposition: node 6 again
        9: ("T", -0.4),
    }
    return reorder([nodes[i] for i in range(10)], 2, (-1.0, 1.0))


@pytest.mark.parametrize(
    "depth,player,value,best,nodes,evaluations",
    [
        (1, 0, 0.3, [2], 3, 2),  # both root children are depth-0 leaves
        (2, 0, -0.1, [2], 8, 1),  # chance node 7 is a depth-0 leaf (h=-0.1)
        (3, 0, 0.05, [2], 11, 0),  # 0.5*0.5 + 0.5*(-0.4) beats 0.25 - 0.75
        (3, 1, -0.05, [2], 11, 0),  # root is a min node for player 1
    ],
)
def test_plain_on_hand_computed_tree(depth, player, value, best, nodes, evaluations):
    game = RandomTreeGame(hand_tree())
    ev = TreeEvaluator(game)
    res = plain_expectiminimax(game.new_initial_state(), depth, ev, player)
    assert res.value == pytest.approx(value, abs=1e-12)
    assert res.best_actions() == best
    assert (res.nodes, res.evaluations) == (nodes, evaluations)


@pytest.mark.parametrize(
    "game_name,depths,count",
    [
        ("pig", (1, 2, 3), 6),
        ("einstein_wurfelt_nicht", (1, 2), 4),
        ("2048", (1, 2), 3),
        ("backgammon", (1,), 3),
    ],
)
def test_plain_matches_openspiel_expectiminimax(game_name, depths, count):
    """Same depth convention as OpenSpiel's expectiminimax (checked in its source)."""
    game = pyspiel.load_game(game_name)
    ev = make_evaluator("hash", game)
    for depth in depths:
        for state in sample_positions(game, count, 7 + depth, MAX_MOVES[game_name]):
            p = state.current_player()
            ours = plain_expectiminimax(state, depth, ev).value
            theirs, _ = minimax.expectiminimax(
                state.clone(), depth, lambda s, p=p: ev.evaluate(s)[p], p
            )
            assert ours == pytest.approx(theirs, abs=TOL), (game_name, depth, state.history())


# ---------------------------------------------------------------- the engine


def test_engine_on_hand_computed_tree(engine):
    game = RandomTreeGame(hand_tree())
    state = game.new_initial_state()
    problems = []
    for depth in (1, 2, 3, 4):
        for player in (0, 1):
            problems += check_position(
                game,
                state,
                depth,
                TreeEvaluator(game),
                player,
                where=f"hand tree player={player}",
                engine=engine,
            )[0]
    assert not problems, "\n".join(problems)


def _real_case(name: str, depth: int, count: int, slow: bool = False):
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(name, depth, count, marks=marks, id=f"{name}-d{depth}")


REAL_CASES = (
    [_real_case("pig", d, 12) for d in (1, 2, 3, 4)]
    + [_real_case("einstein_wurfelt_nicht", d, 5) for d in (1, 2, 3)]
    + [_real_case("einstein_wurfelt_nicht", 4, 2, slow=True)]
    + [_real_case("2048", d, 4) for d in (1, 2)]
    + [_real_case("2048", 3, 2, slow=True)]
    + [_real_case("backgammon", 1, 4), _real_case("backgammon", 2, 1, slow=True)]
)


@session_cached
def run_real_case(name: str, depth: int, count: int, evaluator_kind: str, engine: str):
    """(problems, per-position node counts); cached for the session, so the exactness and
    the node-count tests share the work whichever workers run them."""
    game = pyspiel.load_game(name)
    evaluator = make_evaluator(evaluator_kind, game)
    problems, counts = [], []
    seed = 1000 * depth + len(name)
    for i, state in enumerate(sample_positions(game, count, seed, MAX_MOVES[name])):
        where = (
            f"{name} evaluator={evaluator_kind} sample_positions(seed={seed}) #{i} "
            f"history={state.history()}"
        )
        p, n = check_position(game, state, depth, evaluator, where=where, engine=engine)
        problems += p
        counts.append((where, n))
    return problems, counts


@pytest.mark.parametrize("evaluator_kind", ["default", "hash"])
@pytest.mark.parametrize("name,depth,count", REAL_CASES)
def test_exact_algorithms_match_plain_on_real_games(name, depth, count, evaluator_kind, engine):
    problems, _ = run_real_case(name, depth, count, evaluator_kind, engine)
    assert not problems, "\n".join(problems)


TREE_CASES = [(players, fast) for players in (2, 1) for fast in (True, False)]


@session_cached
def run_tree_case(players: int, fast: bool, engine: str, seeds: int = 24):
    """(problems, node counts) on seeded random trees; cached as ``run_real_case`` is."""
    problems, counts = [], []
    for seed in range(seeds):
        layered = seed % 4 >= 2  # dice-game-like shapes, where the pruning happens
        kwargs = dict(
            num_players=players,
            grid=seed % 2 == 1,
            layered=layered,
            max_nodes=150 if layered else 60 + 40 * (seed % 2),
            max_branching=3 + seed % 2,
            reuse=0.1 + 0.1 * (seed % 3),
        )
        tree = random_tree(random.Random(seed), **kwargs)
        game = RandomTreeGame(tree, fast_path=fast)
        evaluator = TreeEvaluator(game) if seed % 3 else StateOnlyTreeEvaluator(game)
        for _i, state in enumerate(sample_positions(game, 3, seed, 4)):
            for depth in (1, 2, 3, 4):
                where = (
                    f"random_tree(Random({seed}), **{kwargs}) fast_path={fast} "
                    f"evaluator={type(evaluator).__name__} root node {state.node}"
                )
                p, n = check_position(game, state, depth, evaluator, where=where, engine=engine)
                if p:
                    problems += p + [
                        _minimized(tree, state.node, depth, fast, type(evaluator), engine)
                    ]
                counts.append((f"{where} depth={depth}", n))
    return problems, counts


def _minimized(
    tree: RandomTree, root: int, depth: int, fast: bool, evaluator_cls, engine: str
) -> str:
    """A greedily minimized tree that still fails, for the bug report."""

    def fails(t: RandomTree) -> bool:
        g = RandomTreeGame(t, fast_path=fast)
        s = g.new_initial_state()
        return (
            bool(check_position(g, s, depth, evaluator_cls(g), player=None, engine=engine)[0])
            if not s.is_chance_node()
            else False
        )

    small = minimize_tree(tree, fails, root)
    return (
        f"  minimized (root node 0, depth={depth}, fast_path={fast}, engine={engine}): "
        f"{small.literal()}"
    )


@pytest.mark.parametrize("players,fast", TREE_CASES)
def test_exact_algorithms_match_plain_on_random_tree_game(players, fast, engine):
    problems, _ = run_tree_case(players, fast, engine)
    assert not problems, "\n".join(problems)


def test_exact_without_move_ordering(engine):
    problems = []
    for seed in range(6):
        tree = random_tree(random.Random(100 + seed), grid=True)
        game = RandomTreeGame(tree)
        for depth in (2, 3, 4):
            problems += check_position(
                game,
                game.new_initial_state(),
                depth,
                TreeEvaluator(game),
                move_ordering=False,
                where=f"random_tree(Random({100 + seed}), grid=True)",
                engine=engine,
            )[0]
    game = pyspiel.load_game("pig")
    ev = make_evaluator("hash", game)
    for state in sample_positions(game, 4, 5, 40):
        problems += check_position(
            game,
            state,
            3,
            ev,
            move_ordering=False,
            where=f"pig history={state.history()}",
            engine=engine,
        )[0]
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ node counts


def _node_order_violations(counts):
    """Per position: star1 <= expectiminimax <= plain (no table)."""
    bad = []
    for where, n in counts:
        s1, emm, plain = n[STAR1], n[EXPECTIMINIMAX], n["plain"]
        if not s1 <= emm <= plain:
            bad.append(f"{where}: star1 {s1}, expectiminimax {emm}, plain {plain}")
    return bad


def _star2_totals(counts):
    star2 = sum(n[STAR2] for _, n in counts)
    plain = sum(n["plain"] for _, n in counts)
    exceptions = [
        f"{where}: star2 {n[STAR2]} > plain {n['plain']}"
        for where, n in counts
        if n[STAR2] > n["plain"]
    ]
    return star2, plain, exceptions


def _check_node_counts(counts) -> None:
    bad = _node_order_violations(counts)
    assert not bad, "\n".join(bad)
    star2, plain, exceptions = _star2_totals(counts)
    # Probing can revisit nodes, so only the total over the position set is bounded.
    assert star2 <= plain, "\n".join(exceptions)
    if exceptions:
        print(f"star2 > plain on {len(exceptions)} position(s):\n" + "\n".join(exceptions))


@pytest.mark.parametrize("name,depth,count", REAL_CASES)
def test_node_counts_on_real_games(name, depth, count):
    _check_node_counts(run_real_case(name, depth, count, "hash", "python")[1])


@pytest.mark.parametrize("players,fast", TREE_CASES)
def test_node_counts_on_random_tree_game(players, fast):
    _check_node_counts(run_tree_case(players, fast, "python")[1])  # the cache: same arguments


# --------------------------------------------------------- the bot's record


def _check_record(record: dict, state: Any) -> None:
    missing = [k for k in LAST_SEARCH_KEYS if k not in record]
    assert not missing, f"last_search lacks {missing}; has {sorted(record)}"
    assert record["action"] in state.legal_actions()
    assert isinstance(record["completed"], bool)
    for key in LAST_SEARCH_KEYS:
        if (
            key.startswith(("nodes", "leaves", "evaluations", "probe", "tt_", "cutoffs", "probcut"))
            or key == "depth"
        ):
            assert isinstance(record[key], int) and record[key] >= 0, (key, record[key])


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2"])
@pytest.mark.parametrize("name", ["pig", "backgammon", "2048", "einstein_wurfelt_nicht"])
def test_iterative_deepening_returns_legal_action_and_full_record(name, algorithm, engine):
    game = pyspiel.load_game(name)
    for state in sample_positions(game, 2, 3, MAX_MOVES[name]):
        bot = bots.make_bot(
            f"{algorithm}(time_limit=0.05)", game, state.current_player(), engine=engine
        )
        action = bot.step(state)
        assert action in state.legal_actions()
        _check_record(bot.last_search, state)
        assert bot.last_search["engine"] == engine
        assert bot.last_search["action"] == action


def test_iterative_deepening_to_max_depth_is_exact(engine):
    """A generous time limit with max_depth: the deepest iteration is plain's value."""
    game = pyspiel.load_game("pig")
    ev = make_evaluator("hash", game)
    for state in sample_positions(game, 4, 11, 40):
        plain = plain_expectiminimax(state, 3, ev)
        for algorithm in ("expectiminimax", "star1", "star2"):
            bot = bots.make_bot(
                f"{algorithm}(max_depth=3,time_limit=600)",
                game,
                state.current_player(),
                evaluator=ev,
                engine=engine,
            )
            action = bot.step(state)
            record = bot.last_search
            assert record["engine"] == engine
            _check_record(record, state)
            assert record["completed"] and record["depth"] == 3, record
            assert abs(record["value"] - plain.value) <= TOL, (algorithm, state.history())
            assert action in plain.best_actions()


# Bots as users make them: per-game defaults (ordering, probes), the default evaluator.
BOT_GAMES = [
    ("dice(n=5,k=4)", 3, 40),
    ("pig", 4, 60),
    ("einstein_wurfelt_nicht", 3, 20),
    ("backgammon", 2, 40),
    ("chance_tic_tac_toe", 3, 6),
    ("catch", 4, 5),
    ("2048", 2, 60),
    ("yacht", 1, 20),
    ("maedn", 2, 30),
    ("banqi", 2, 20),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,depth,max_moves", BOT_GAMES)
def test_bots_from_make_bot_equal_plain_over_several_moves(name, depth, max_moves, engine):
    """One bot per seat (one table) stepped over several positions, as a game steps it."""
    game = pyspiel.load_game(name)
    evaluator = default_evaluator(game)
    seats = []  # per seat: its seed, positions and plain's results, shared by the algorithms
    for player in range(game.num_players()):
        seed = SEED + 17 + player
        positions = sample_positions(game, examples(3), seed, max_moves, player=player)
        plains = [plain_expectiminimax(state, depth, evaluator, player) for state in positions]
        seats.append((seed, positions, plains))
    for algorithm in ("expectiminimax", "star1", "star2"):
        for player, (seed, positions, plains) in enumerate(seats):
            bot = bots.make_bot(f"{algorithm}(max_depth={depth})", game, player, engine=engine)
            for i, (state, plain) in enumerate(zip(positions, plains)):
                action = bot.step(state)
                assert bot.last_search["engine"] == engine
                where = (
                    f"{name} {algorithm}(max_depth={depth}) engine={engine} seat {player}, "
                    f"position {i} of sample_positions(seed={seed}), history {state.history()}"
                )
                assert abs(bot.last_search["value"] - plain.value) <= TOL, where
                if plain.action_values:
                    assert action in plain.best_actions(), where


def test_iterative_deepening_on_tiny_tree_stops_when_all_leaves_terminal(engine):
    tree = RandomTree(nodes=(("D", 0, ((0, 1), (1, 2)), 0.0), ("T", 0.5), ("T", -0.5)))
    game = RandomTreeGame(tree)
    state = game.new_initial_state()
    bot = bots.make_bot(
        "star2(time_limit=5)", game, 0, evaluator=TreeEvaluator(game), engine=engine
    )
    assert bot.step(state) == 0
    _check_record(bot.last_search, state)
    assert bot.last_search["value"] == 0.5
    assert bot.last_search["completed"] is True
