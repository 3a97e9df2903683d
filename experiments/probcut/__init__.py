"""ChanceProbCut programs: calibration (`python -m experiments.probcut.calibrate`) and
evaluation against exact Star2 (`python -m experiments.probcut.evaluate`)."""
