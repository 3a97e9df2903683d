"""starspiel bots: Expectiminimax, Star1, Star2 and ChanceProbCut for OpenSpiel.

`make_bot` also builds OpenSpiel's MCTS (`bots.mcts`: the C++ bot on C++ games,
the Python one on Python-registered games) and a seeded uniform random bot.
"""

from bots.factory import BOT_NAMES, SEARCH_BOTS, check_game_supported, make_bot

__all__ = ["BOT_NAMES", "SEARCH_BOTS", "check_game_supported", "make_bot"]
