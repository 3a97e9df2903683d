"""python -m experiments.node_reduction: see experiments/node_reduction/__init__.py."""

from experiments.common import flags
from experiments.node_reduction.cli import FLAGS, main

if __name__ == "__main__":
    flags.run(main, FLAGS)
