// Ballard's (1983) *-complete n-ary test tree, the C++ twin of
// games/ballard_tree.py: the same levels, arcs, strings and tensor, and for
// order=random the same trees from the same seed (a Fisher-Yates shuffle per node
// by SplitMix64 seeded with the tree's seed and the node's path, games/native/splitmix.h).
#ifndef STARSPIEL_GAMES_NATIVE_BALLARD_TREE_H_
#define STARSPIEL_GAMES_NATIVE_BALLARD_TREE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "games/native/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::ballard_tree {

inline constexpr char kShortName[] = "ballard_tree";

// Level structure and arc tables of one tree, shared by its states.
class Rules {
 public:
  Rules(int n, int plies, bool random_order, int seed, bool final_chance);

  int n() const { return n_; }
  int plies() const { return plies_; }
  bool final_chance() const { return final_chance_; }
  int depth() const { return depth_; }
  // Player 0 (max), 1 (min), chance or terminal at each level 0..depth.
  open_spiel::Player player(int level) const { return players_[level]; }
  // Levels 0..dense_levels()-1 have dense arc tables (none where order=best).
  int dense_levels() const { return dense_levels_; }
  std::int64_t leaf_min() const { return leaf_min_; }
  std::int64_t leaf_max() const { return leaf_max_; }
  // The arc value of each action at the node reached by `path`.
  std::vector<int> ArcsAt(const std::vector<int>& path) const;
  int Arc(const std::vector<int>& path, int action) const;
  // The same, given the node's index among its level's nodes (the path's digits
  // in base n): constant time where the level has a dense table.
  int Arc(const std::vector<int>& path, std::uint64_t index, int action) const;
  // The same, given also the node's family (its parent's index, 0 at the root): where
  // the family is drawn, a table read inline, without a division.
  int Arc(const std::vector<int>& path, std::uint64_t index, std::uint64_t family,
          int action) const {
    if (static_cast<int>(path.size()) < dense_levels_) {
      const DenseLevel& table = dense_[path.size()];
      if (table.filled[family].load(std::memory_order_acquire)) {
        return table.arcs[index * n_ + action];
      }
    }
    return Arc(path, index, action);
  }

 private:
  // order=random, a level of at most kDenseLevelBytes arcs: every node's arcs in
  // node order, filled a family of n siblings at a time. Mapped, not allocated: pages nobody visits
  // cost no memory, and huge pages where the system allows spare the TLB (probes jump across the
  // table).
  struct DenseLevel {
    struct Unmap {
      std::size_t bytes;
      void operator()(void* p) const;
    };
    std::unique_ptr<std::int8_t[], Unmap> arcs;
    std::unique_ptr<std::atomic<std::uint8_t>[], Unmap> filled;  // one flag per family
  };
  void FillFamily(const std::vector<int>& path, std::uint64_t index) const;

  int n_, plies_;
  bool random_order_;
  std::uint64_t seed_;  // the tree's seed modulo 2^64
  bool final_chance_;
  int depth_;
  std::vector<open_spiel::Player> players_;
  std::vector<std::vector<int>> level_arcs_;
  std::int64_t leaf_min_ = 0, leaf_max_ = 0;
  mutable std::mutex mutex_;  // held while a family of a dense level is filled
  std::vector<DenseLevel> dense_;
  int dense_levels_ = 0;  // per level; empty arcs where the level is too large
};

class BallardGame : public open_spiel::Game {
 public:
  explicit BallardGame(const open_spiel::GameParameters& params);

  int NumDistinctActions() const override { return rules_->n(); }
  std::unique_ptr<open_spiel::State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return rules_->n(); }
  int NumPlayers() const override { return 2; }
  // Per-player bounds: player 1 gets minus the leaf value, so take the union.
  double MinUtility() const override;
  double MaxUtility() const override;
  absl::optional<double> UtilitySum() const override { return 0.0; }
  int MaxGameLength() const override { return rules_->plies(); }
  int MaxChanceNodesInHistory() const override {
    return rules_->plies() - 1 + (rules_->final_chance() ? 1 : 0);
  }
  std::vector<int> ObservationTensorShape() const override {
    return {rules_->depth() * rules_->n() + rules_->depth() + 1};
  }

  std::shared_ptr<const Rules> rules() const { return rules_; }

 private:
  std::shared_ptr<const Rules> rules_;
};

// A position of the Python BallardPosition: (path, value).
class BallardState : public games::CustomState<BallardState> {
 public:
  explicit BallardState(std::shared_ptr<const open_spiel::Game> game);

  open_spiel::Player CurrentPlayer() const override {
    return rules_->player(static_cast<int>(path_.size()));
  }
  std::vector<open_spiel::Action> LegalActions() const override;
  std::vector<std::pair<open_spiel::Action, double>> ChanceOutcomes() const override;
  std::string ActionToString(open_spiel::Player player, open_spiel::Action action) const override;
  std::string ToString() const override;
  bool IsTerminal() const override { return static_cast<int>(path_.size()) == rules_->depth(); }
  std::vector<double> Returns() const override;
  double PlayerReturn(open_spiel::Player player) const override;
  void ObservationTensor(open_spiel::Player player, absl::Span<float> values) const override;
  void UndoAction(open_spiel::Player player, open_spiel::Action action) override;

  // The arc sum so far (the leaf value at a terminal).
  std::int64_t value() const { return value_; }
  // The actions from the root: the position (its value and node kind follow).
  const std::vector<int>& path() const { return path_; }
  const Rules& rules() const { return *rules_; }
  // canonical_text of the Python position (MCMS seeds its draws with it).
  std::string SamplingText() const;

 protected:
  void DoApplyAction(open_spiel::Action action) override;

 private:
  // What UndoAction needs of each move: the node's index before it and the arc taken.
  struct Step {
    std::uint64_t index;
    int arc;
  };
  // The parent's index (the node's family in the dense tables), 0 at the root.
  std::uint64_t family() const { return steps_.empty() ? 0 : steps_.back().index; }

  std::shared_ptr<const Rules> rules_;
  std::vector<int> path_;
  std::vector<Step> steps_;  // one per action in path_
  std::uint64_t index_ = 0;  // within dense levels, the node's place: path_ in base n
  std::int64_t value_ = 0;
};

}  // namespace starspiel::ballard_tree

#endif  // STARSPIEL_GAMES_NATIVE_BALLARD_TREE_H_
