"""TD self-play training of learned evaluators: ``python -m experiments.learn``.

Float models (models.py), their inputs (features.py), the numpy reference of self-play and
TD(lambda) (selfplay.py), its C++ twin on threads (native.py over bots/native/learning/) or
Ray tasks (remote.py), the run with checkpoints and resume (train.py), and the one bridge to
the model file both engines play (export.py). docs/guide/learned.md, "Training", says how to use it.
"""
