"""TD self-play training of learned evaluators: ``python -m experiments.learn``.

The numpy reference trainer (the native trainer slots in behind the same run folder):
float models (models.py), their inputs (features.py), self-play and TD(lambda) (selfplay.py),
the run with checkpoints and resume (train.py), and the one bridge to the model file both
engines play (export.py). docs/guide/learned.md, "Training", says how to use it.
"""
