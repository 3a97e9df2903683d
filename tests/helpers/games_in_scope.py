"""The games every bot must play whole, as short variants that keep whole games cheap."""

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
