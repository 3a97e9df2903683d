"""Benchmark: our searches against OpenSpiel's expectiminimax, time limits, speed
(`python -m experiments.benchmark`), plus the evaluator and game microbenchmarks
(`python -m experiments.benchmark.evaluator_speed`, `python -m experiments.benchmark.game_speed`),
whole long games (`.full_games`) and time to depth / equal-time depth (`.depth`)."""

from experiments.benchmark.run import SECTIONS, resolve_config, run

__all__ = ["SECTIONS", "resolve_config", "run"]
