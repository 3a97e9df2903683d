"""Pruning at chance nodes: Star1's windows and Star2's probes (with Star2.5).

``StarSearcher`` is the Python engine for every algorithm. It keeps the expectiminimax
recursion of bots/expectiminimax.py and searches each chance node as a ``ChanceFrame``
(bots/frames.py) in up to three steps, each of which may cut the node:

* ``chanceprobcut``: shallow searches of every outcome, mapped through a calibrated
  linear model into probable bounds (Schadd et al. 2009, bots/chance_probcut.py);
  forward pruning, not exact.
* ``star2``: a probing phase first searches one successor of each decision child;
  a min child's probe is an upper bound, a max child's a lower bound (Hauk et al.
  2004). Probing uses only the node kind of the child, so it stays exact when
  chance decides who moves next or a player moves twice in a row. With a probing
  factor k (Ballard's Star2.5) it probes up to k successors of each child, in
  rounds (cyclic) or child by child (sequential); k=0 is Star1.
* ``star1``: Ballard's windows, generalised to non-uniform probabilities and to
  per-outcome bounds ``lower[i] <= V_i <= upper[i]`` (initially the search's
  ``lower_bound`` L and ``upper_bound`` U, narrowed by the table and the steps above).

Expectiminimax searches chance nodes without any of them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import cast

from bots.chance_probcut import chance_probcut, verify_probable
from bots.expectiminimax import CHANCE, INF, TIME_CHECK_INTERVAL, ExpectiminimaxSearcher
from bots.frames import ChanceFrame, ProbedChild, ProbedMove
from bots.node import SearchNode
from bots.options import SearchOptions
from bots.transposition import DEPTH, LOWER, MOVE, UPPER


class StarSearcher(ExpectiminimaxSearcher):
    """Expectiminimax, Star1, Star2 and ChanceProbCut: the Python engine (the reference).

    Built from ``SearchOptions`` (or an algorithm name and its settings); see
    ``ExpectiminimaxSearcher`` for the recursion it shares with expectiminimax.
    """

    def _configure(self, options: SearchOptions) -> None:
        # Star1's windows at chance nodes: every algorithm but expectiminimax.
        self.chance_pruning = options.algorithm != "expectiminimax"
        # Successors probed per decision child before the Star1 phase (0: none).
        self.probing_factor = options.probes_per_child
        self.probing = options.probing
        self.probcut = options.probcut if options.algorithm == "chanceprobcut" else None
        self.reuse_probes = options.study.reuse_probes

    def _chance(self, node: SearchNode, depth: int, alpha: float, beta: float) -> float:
        """A chance node; MCMS's draws (``sampled_outcomes``) are taken before the table
        lookup, the node's own outcomes read only once the table has not settled it."""
        if not self.chance_pruning:
            return super()._chance(node, depth, alpha, beta)
        outcomes = self.sampled_outcomes(node)
        key: Hashable = None
        if self.table is not None:
            # Before the outcomes are read: in some games the table settles about half.
            key = self.key_fn(node)
            entry = self.table.get(key)
            if entry is not None and self._entry_decides(entry[DEPTH], depth):
                cutoff = self._table_cutoff(entry, alpha, beta)
                if cutoff is not None:
                    return cutoff
        if outcomes is None:
            outcomes = self._chance_outcomes(node)
        frame = ChanceFrame.open(
            node, outcomes, depth, alpha, beta, self.lower_bound, self.upper_bound
        )
        value = self._star(frame)
        if self.table is not None:
            self._store(key, depth, value, alpha, beta, None)
        return value

    def _star(self, frame: ChanceFrame) -> float:
        """Star1 at one chance node, after ChanceProbCut's and Star2's steps where they run."""
        # Children are expanded up front only where probing or the table reads them.
        if self.probing_factor > 0 or self.table is not None:
            self._expand(frame)
            # Forward pruning only where a cut is possible: not inside the
            # open-window shallow searches themselves.
            if (
                self.probcut is not None
                and frame.depth > self.probcut.reduction
                and (frame.alpha > self.lower_bound or frame.beta < self.upper_bound)
            ):
                cut = chance_probcut(self, frame, self.probcut)
                if cut is not None:
                    return cut
            if self.probing_factor > 0:
                cut = self._probe(frame)
                if cut is not None:
                    return cut
        return self._star1(frame)

    def _expand(self, frame: ChanceFrame) -> None:
        """Every outcome's child, its player and, where looked up, its table key.

        Terminal children are exact; table entries that decide at this depth
        (``_entry_decides``) bound the rest. The clock is checked on huge chance nodes.
        """
        # With history keys the children of a fresh chance node rarely have an
        # entry yet: a lookup costs more than it finds.
        table = self.table if self._lookup_children else None
        check_clock = len(frame.outcomes) > TIME_CHECK_INTERVAL and self.deadline is not None
        children: list[SearchNode] = []
        players: list[int] = []
        keys: list[Hashable] = []
        for i, (action, _) in enumerate(frame.outcomes):
            if check_clock and i % TIME_CHECK_INTERVAL == 0:
                self._check_clock()
            child = frame.node.child(action)
            player = child.current_player()
            key: Hashable = None
            if player < 0 and player != CHANCE:
                self.nodes += 1
                self.leaves += 1
                frame.lower[i] = frame.upper[i] = self._terminal_value(child)
            elif table is not None:
                key = self.key_fn(child)
                entry = table.get(key)
                if entry is not None and self._entry_decides(entry[DEPTH], frame.depth):
                    frame.lower[i] = max(frame.lower[i], entry[LOWER])
                    frame.upper[i] = min(frame.upper[i], entry[UPPER])
            children.append(child)
            players.append(player)
            keys.append(key)
        frame.children, frame.players = children, players
        frame.keys = keys if table is not None else None

    # --------------------------------------------------------------- Star2

    def _probe(self, frame: ChanceFrame) -> float | None:
        """Star2's probing phase, and Ballard's Star2.5 for a probing factor k > 1.

        A probe searches one successor of a decision child: a min child is at
        most its successor's value, a max child at least (Hauk et al. 2004), so
        probing uses only the child's node kind and stays exact when chance
        decides who moves next. Cyclic probing probes one more successor of every
        child per round, for at most k rounds; sequential probing probes k
        successors of each child in turn. Both stop at the first cutoff; k=1 is
        Star2. The probe records stay in ``frame.probes`` for the full search.

        With ``reachable_probes`` (k=1) a probe is skipped once even the best
        result of it and of every later probe of its kind could not reach a cut;
        exact either way, since probing only narrows bounds. Whether it pays
        depends on the game (docs/guide/search.md, "The algorithms").
        """
        probs, lower, upper = frame.probs, frame.lower, frame.upper
        children = cast(list, frame.children)
        alpha, beta, tol_low, tol_high = frame.alpha, frame.beta, frame.tol_low, frame.tol_high
        child_depth = frame.depth - 1
        # The node's expected upper and lower bounds, kept up to date as probes narrow them.
        sum_upper, sum_lower = frame.expected(upper, lower)
        cut = frame.cut(sum_upper, sum_lower)
        if cut is not None:
            self.cutoffs_star2_probe += 1
            return cut
        count = len(probs)
        probes: list[ProbedChild | None] = [None] * count
        frame.probes = probes
        rounds = self.probing_factor
        # reachable_probes: how far the min children's probes could still lower
        # sum_upper (drop) and the max children's raise sum_lower (rise).
        reachable = rounds == 1 and self.options.study.reachable_probes
        kinds: list[int] = []
        drop = rise = 0.0
        if reachable:
            kinds, drop, rise = self._probe_kinds(frame)
        schedule: Iterable[tuple[int, int]]
        if self.probing == "sequential":
            schedule = ((rank, i) for i in range(count) for rank in range(rounds))
        else:
            schedule = ((rank, i) for rank in range(rounds) for i in range(count))
        nodes_before = self.nodes
        self._probe_level += 1
        try:
            for rank, i in schedule:
                if lower[i] == upper[i]:  # terminal, or settled by the table
                    continue
                if reachable:
                    # Skip a probe whose best result could not reach a cut, even
                    # with every later probe of its kind at its best too.
                    kind = kinds[i]
                    if kind == 0:
                        continue
                    span = probs[i] * (upper[i] - lower[i])
                    if kind < 0:
                        hopeless = sum_upper - drop > alpha + tol_low
                        drop -= span
                    else:
                        hopeless = sum_lower + rise < beta - tol_high
                        rise -= span
                    if hopeless:
                        continue
                record = probes[i]
                if record is None:
                    if rank > 0:
                        continue  # not probed in the first round: never probed
                    record = self._start_probing(frame, i)
                    if record is None:
                        continue
                    probes[i] = record
                elif len(record.moves) != rank or rank >= len(record.ordered):
                    continue  # probes stay a prefix of the child's move order
                child = children[i]
                action = record.ordered[rank]
                prob = probs[i]
                # The probe's window: where its value moves the node's bound toward the
                # cut, within what is known of the child (widened by half the
                # tolerance, as in Star1).
                if record.minimizing:
                    upper_i = upper[i]
                    lower_cut = (alpha - (sum_upper - prob * upper_i) + 0.5 * tol_low) / prob
                    window_low = max(lower[i], lower_cut)
                    if window_low >= upper_i:
                        continue
                    value = self._search(child.child(action), child_depth, window_low, upper_i)
                    record.moves.append(ProbedMove(action, value, window_low, upper_i))
                    if value < upper_i:
                        sum_upper -= prob * (upper_i - value)
                        upper[i] = value
                else:
                    lower_i = lower[i]
                    upper_cut = (beta - (sum_lower - prob * lower_i) - 0.5 * tol_high) / prob
                    window_high = min(upper[i], upper_cut)
                    if window_high <= lower_i:
                        continue
                    value = self._search(child.child(action), child_depth, lower_i, window_high)
                    record.moves.append(ProbedMove(action, value, lower_i, window_high))
                    if value > lower_i:
                        sum_lower += prob * (value - lower_i)
                        lower[i] = value
                cut = frame.cut(sum_upper, sum_lower)
                if cut is not None:
                    self.cutoffs_star2_probe += 1
                    return cut
        finally:
            self._probe_level -= 1
            if self._probe_level == 0:
                self.probe_nodes += self.nodes - nodes_before
        return None

    def _probe_kinds(self, frame: ChanceFrame) -> tuple[list[int], float, float]:
        """Per child: -1 a min child, +1 a max child, 0 nothing to probe; and how far
        the min children's probes could lower the expected upper bound (drop) and
        the max children's raise the lower (rise)."""
        probs, lower, upper = frame.probs, frame.lower, frame.upper
        kinds = [0] * len(probs)
        drop = rise = 0.0
        for i, player in enumerate(frame.players or ()):
            if player < 0 or lower[i] == upper[i]:
                continue
            if player == self.player:
                kinds[i] = 1
                rise += probs[i] * (upper[i] - lower[i])
            else:
                kinds[i] = -1
                drop += probs[i] * (upper[i] - lower[i])
        return kinds, drop, rise

    def _start_probing(self, frame: ChanceFrame, i: int) -> ProbedChild | None:
        """The probe record of decision child ``i``, or None where no probe can cut.

        A chance child has no one-sided bound from one successor; a min child's
        upper bound cannot cut against alpha = -inf, nor a max child's against
        beta = +inf.
        """
        player = frame.players[i]  # type: ignore[index]
        if player < 0:
            return None
        minimizing = player != self.player
        if minimizing and frame.alpha == -INF or not minimizing and frame.beta == INF:
            return None
        child = frame.children[i]  # type: ignore[index]
        key = frame.keys[i] if frame.keys is not None else None
        tt_move = None
        if self.table is not None:
            if key is None:
                key = self.key_fn(child)
            entry = self.table.get(key)
            if entry is not None:
                tt_move = entry[MOVE]
        self.nodes += 1  # the probed decision child itself
        ordered = self.ordering.ordered_actions(child, player, frame.depth, tt_move)
        return ProbedChild(ordered, [], minimizing, key)

    # --------------------------------------------------------------- Star1

    def _star1(self, frame: ChanceFrame) -> float:
        """Star1's pass over the outcomes, each searched with the window that decides
        whether the node can still reach (alpha, beta).

        ``later_upper``/``later_lower`` are the probability-weighted bounds of the
        outcomes not yet searched, ``done`` the weighted values of those searched.
        """
        probs, lower, upper = frame.probs, frame.lower, frame.upper
        later_upper, later_lower = frame.expected(upper, lower)
        done = 0.0
        for i, prob in enumerate(probs):
            lower_i, upper_i = lower[i], upper[i]
            later_upper -= prob * upper_i
            later_lower -= prob * lower_i
            if lower_i == upper_i:
                done += prob * lower_i
                continue
            cut = frame.cut(
                done + prob * upper_i + later_upper, done + prob * lower_i + later_lower
            )
            if cut is not None:
                self.cutoffs_star1 += 1
                return cut
            # The child's window is widened by half the tolerance so that a child
            # value tying the cut value (up to rounding) fails low or high there.
            lower_cut = (frame.alpha - done - later_upper + 0.5 * frame.tol_low) / prob
            upper_cut = (frame.beta - done - later_lower - 0.5 * frame.tol_high) / prob
            window_low = max(lower_i, lower_cut)
            window_high = min(upper_i, upper_cut)
            value = self._search_outcome(frame, i, window_low, window_high)
            if frame.proven is not None:
                value = verify_probable(
                    self, frame, i, value, lower_cut, upper_cut, window_low, window_high
                )
            cut = frame.cut(done + prob * value + later_upper, done + prob * value + later_lower)
            if cut is not None:
                self.cutoffs_star1 += 1
                return cut
            done += prob * value
        return done

    def _search_outcome(self, frame: ChanceFrame, i: int, alpha: float, beta: float) -> float:
        """Outcome ``i``'s value searched with window (alpha, beta); a probed child's
        search resumes from its probes. Depth is > 0 below a chance node."""
        if frame.children is None:  # not expanded: nothing has read the child yet
            action = frame.outcomes[i][0]
            return self._search(frame.node.child(action), frame.depth, alpha, beta)
        child = frame.children[i]
        probed = frame.probes[i] if frame.probes is not None and self.reuse_probes else None
        if probed is not None and probed.moves:
            # Counted as a node when its probing started.
            player = frame.players[i]  # type: ignore[index]
            return self._decision(child, player, frame.depth, alpha, beta, probed, probed.key)
        key = frame.keys[i] if frame.keys is not None else None
        return self._search(child, frame.depth, alpha, beta, key)
