"""External programs that play better than our bots, as bots: the yardsticks."""
