"""python -m experiments.benchmark: see experiments/benchmark/run.py."""

from experiments.benchmark.run import FLAGS, main
from experiments.common import flags

flags.run(main, FLAGS)
