"""starspiel bots: Expectiminimax, Star1, Star2 and ChanceProbCut for OpenSpiel."""

from bots.factory import BOT_NAMES, SEARCH_BOTS, check_game_supported, make_bot

__all__ = ["BOT_NAMES", "SEARCH_BOTS", "check_game_supported", "make_bot"]
