"""The games every bot must play whole, as short variants that keep whole games cheap, and
the bad parameters of the custom games with the words their refusals must hold."""

GAMES_IN_SCOPE = [
    "backgammon(hyper_backgammon=true)",
    "pig(winscore=20)",
    "einstein_wurfelt_nicht",
    "2048(max_tile=128)",
    "yacht",
    "maedn(players=2)",
    "catch",
    "banqi(max_no_progress=10)",
    "dice(n=4,k=3)",
    "chance_tic_tac_toe",
]

# (spec, words the ValueError must hold): the same in the Python games and their C++ twins.
BAD_PARAMETERS = [
    ("dice(n=1)", ["n=1", ">= 2"]),
    ("dice(n=5,k=6)", ["k=6", "[1, 5]"]),
    ("dice(n=4,k=0)", ["k=0", "[1, 4]"]),
    ("ballard_tree(order=worst)", ["order='worst'", "best", "random"]),
    ("ballard_tree(plies=0)", ["plies=0", ">= 1"]),
    ("ballard_tree(n=1)", ["n=1", ">= 2"]),
    ("cant_stop(players=5)", ["players=5", "[2, 4]"]),
    ("cant_stop(horizon=0)", ["horizon=0", "[1, 10000]", "turns before a draw"]),
]
