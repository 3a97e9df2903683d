"""Strength studies: equal-time matches sized in advance by a power calculation.

  python -m experiments.strength --list
  python -m experiments.strength --study=einstein-star2_vs_expectiminimax-0.1
  python -m experiments.strength --report

Modules: power (games needed), plan (the studies), study (run one, reduce it
to a verdict), report (the tables of docs/results/strength.md).
"""
