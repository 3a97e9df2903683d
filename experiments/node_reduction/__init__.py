r"""Node-reduction study: how much Star1, Star2 (+TT) and ChanceProbCut save over expectiminimax.

  python -m experiments.node_reduction --preset=ballard_table2
  python -m experiments.node_reduction --preset=hauk_backgammon --positions=5 --depths=1,2
  python -m experiments.node_reduction --game=pig --algorithms=expectiminimax,star1,star2 \
      --depths=1-4 --positions=10 --out=results/pig --workers=2

Presets (presets.py): ballard_table1..4, ballard_table6, veness_blair,
hauk_backgammon, lanctot_pig, lanctot_ewn. A preset fills in game, algorithms,
depths and positions; explicit flags override it. Each search has a --budget in
seconds; one that runs over is stopped and recorded as 'skipped' (search.py).

The work runs on the shared task runner (experiments.common.runner), one task
per position or Ballard tree (tasks.py): --workers, --executor=ray,
--ray_address, --retries and --task_timeout (a limit on one position's searches
together) apply, and the records are the same on every backend.

Modules: cli (flags, main), config (presets and flags resolved, positions),
study (results folder, tasks, summary), tasks (one position's task), search
(the searches of one position), positions (position files), ballard (Ballard's
trees and tables), presets, report (summary.csv, summary.md, nodes.png).
"""
