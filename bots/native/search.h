// The native search engine: bots/search.py (and MCMS's chance nodes of
// bots/mcms.py) over open_spiel::State, node for node.
//
// A function that mirrors a Python one says which, in one fixed form on the line
// above its definition: `// mirrors: bots/<module>.py <Class.method or function>`
// (tests/test_native_mirrors.py checks that every one named exists). The counters,
// the order of children, the floating-point expressions and the table policy are the
// same, so both engines return the same values, moves and statistics
// (tests/test_native_engine.py).
#ifndef STARSPIEL_BOTS_NATIVE_SEARCH_H_
#define STARSPIEL_BOTS_NATIVE_SEARCH_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/fast_moves.h"
#include "bots/native/field_undo.h"
#include "bots/native/keys.h"
#include "bots/native/search_settings.h"
#include "bots/native/table.h"
#include "open_spiel/spiel.h"

namespace starspiel {

struct ProbCutModel {
  double a = 1.0, b = 0.0, sigma = 0.0;
  bool has_mover = false;
  double mover_a = 1.0, mover_b = 0.0, mover_sigma = 0.0;
};

// Key kinds, as bots/native_search.py's native_settings names them (kKeyKindNames).
enum class KeyKind {
  kDigest,       // history digests (bots/keys.py digest_key): no child lookups, no leaf store
  kScheme,       // the game's registered text key (its adapter's, adapters/registry.h)
  kPythonState,  // python_state_key: (history, player, str) of a Python-registered game
  kCallback,     // a Python game's position: SearchOptions::key_text, called back
};
inline constexpr const char* kKeyKindNames[] = {"digest", "scheme", "python_state", "callback"};

// Star2.5's probing order, as bots/options.py's PROBING_ORDERS names them (kProbingNames).
enum class Probing { kCyclic, kSequential };
inline constexpr const char* kProbingNames[] = {"cyclic", "sequential"};

// The model of a game of 3+ players, as bots/options.py's MULTIPLAYER_MODELS names them.
enum class Multiplayer { kParanoid, kMaxn };
inline constexpr const char* kMultiplayerNames[] = {"paranoid", "maxn"};

// A Python game's position as text (the callback key kind's key and MCMS seed).
using TextFunction = std::function<std::string(const open_spiel::State&)>;
// ChanceProbCut's models by depth.
using ProbCutModels = std::map<int, ProbCutModel>;

// What the engine is told: one member per row of search_settings.h, which is generated
// from bots/options.py's table (each setting's name, C++ type, default and meaning).
// bots._native.Searcher reads every member from Python's settings and refuses a missing
// one, so the members are value-initialised here, never defaulted a second time.
struct SearchOptions {
#define STARSPIEL_DECLARE_SETTING(type, name) type name{};
  STARSPIEL_SEARCH_SETTINGS(STARSPIEL_DECLARE_SETTING)
#undef STARSPIEL_DECLARE_SETTING
};

// The counters, as bots/counters.py declares and documents them (same names, same order).
// clang-format off
#define STARSPIEL_SEARCH_COUNTERS(X)                                                  \
  X(nodes) X(leaves) X(evaluations) X(probe_nodes) X(tt_hits) X(cutoffs_alpha_beta)   \
  X(cutoffs_star1) X(cutoffs_star2_probe) X(cutoffs_probcut) X(probcut_nodes)         \
  X(probcut_researches) X(probe_reuses) X(sampled_chance_nodes) X(samples_drawn)      \
  X(sample_reuses)
// clang-format on

struct Stats {
#define STARSPIEL_DECLARE_COUNTER(name) std::int64_t name = 0;
  STARSPIEL_SEARCH_COUNTERS(STARSPIEL_DECLARE_COUNTER)
#undef STARSPIEL_DECLARE_COUNTER
};

// Thrown inside the tree when the deadline passes.
struct SearchTimeout {};

// A leaf value outside the declared bounds (Python's LeafValueOutOfBounds).
class LeafValueOutOfBounds : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The leaf values: a native evaluator, or a callback into Python. The search calls
// it on non-terminal states only (terminals take the game's returns).
using LeafFunction = std::function<double(const open_spiel::State&, int player)>;
// max^n's leaf vector in one call (a native evaluator's NonTerminalValues, a Python
// evaluator's evaluate()); without one, the search asks the LeafFunction for each player.
using LeafVectorFunction = std::function<void(const open_spiel::State&, std::vector<double>*)>;

// Called every few thousand nodes; throws to stop the search (Ctrl-C).
using InterruptCheck = std::function<void()>;

struct RootResult {
  double value = 0.0;
  std::int64_t action = kNoMove;
  bool has_partial = false;
  double partial_value = 0.0;
  std::int64_t partial_action = kNoMove;
  // max^n: the root's whole vector, and the partial move's.
  std::vector<double> values, partial_values;
};

// mirrors: bots/star.py StarSearcher
class Searcher {
 public:
  Searcher(std::shared_ptr<const open_spiel::Game> game, SearchOptions options, LeafFunction leaf,
           std::string evaluator_name);

  // Searches `state` to `depth` decision plies. Throws SearchTimeout when
  // `deadline` (CLOCK_MONOTONIC seconds; <= 0 none) passes; `partial`
  // receives the best fully searched root move so far either way.
  RootResult Search(const open_spiel::State& state, int depth,
                    const std::vector<std::int64_t>& root_order, RootResult* partial);

  void ResetStats();
  const Stats& stats() const { return stats_; }
  void set_deadline(double deadline) { deadline_ = deadline; }
  void set_interrupt_check(InterruptCheck check) { interrupt_check_ = std::move(check); }
  void set_leaf_vector(LeafVectorFunction leaf) { leaf_vector_ = std::move(leaf); }
  const SearchOptions& options() const { return options_; }
  bool searches_in_place() const { return undo_ || restorer_ != nullptr; }
  std::int64_t table_size() const { return table_ ? table_->size() : 0; }
  std::int64_t leaf_store_size() const { return table_ ? table_->leaf_size() : 0; }
  std::int64_t table_bytes() const { return table_ ? table_->MemoryBytes() : 0; }

 private:
  // A node: a state the searcher owns (a clone), or a view of a state that an
  // action was applied to in place and will be undone (games with undo).
  struct Node {
    open_spiel::State* state = nullptr;
    Key digest = 0;
    std::unique_ptr<open_spiel::State> owned;
    // A chance child not yet made (state == nullptr): `action` applied to
    // `parent`'s state in place, and restored, each time it is visited (AtChild).
    const Node* parent = nullptr;
    open_spiel::Action action = 0;
  };
  // mirrors: bots/frames.py ProbedMove
  struct ProbedMove {
    std::int64_t action;
    double value, window_low, window_high;
    bool Decides(double alpha, double beta) const;
  };
  // mirrors: bots/frames.py ProbedChild
  struct ProbedChild {
    std::vector<open_spiel::Action> ordered;
    std::vector<ProbedMove> moves;
    bool minimizing = false;
    bool has_key = false;
    Key key = 0;
    std::size_t reused = 0;
  };
  // Gives a chance node's probe records back to spare_probes_ when it returns, their
  // lists emptied but keeping their capacity: a probed child then allocates nothing.
  class ProbeRecycler {
   public:
    ProbeRecycler(Searcher* searcher, std::vector<std::unique_ptr<ProbedChild>>* probes)
        : searcher_(searcher), probes_(probes) {}
    ~ProbeRecycler() { Recycle(searcher_, probes_); }
    ProbeRecycler(const ProbeRecycler&) = delete;
    ProbeRecycler& operator=(const ProbeRecycler&) = delete;

    // Moves every record of `probes` to the searcher's spares (leaving nulls).
    static void Recycle(Searcher* searcher, std::vector<std::unique_ptr<ProbedChild>>* probes);

   private:
    Searcher* searcher_;
    std::vector<std::unique_ptr<ProbedChild>>* probes_;
  };
  using Outcomes = std::vector<std::pair<open_spiel::Action, double>>;

  Node Child(const Node& node, open_spiel::Action action) const;
  // search(child) for the child after `action`: on the node's own state, the
  // action applied and then undone, where the game undoes moves; else on a clone.
  template <class SearchFn>
  auto SearchAfter(const Node& node, open_spiel::Action action, SearchFn&& search);
  // Whether `state`'s children are made in place (a restorer, or the game's undo
  // past its first move) rather than cloned.
  bool InPlace(const open_spiel::State& state) const;
  // state.CurrentPlayer(), by the game's FastPlayer where it has one.
  // mirrors: bots/node.py SearchNode.current_player
  open_spiel::Player PlayerAt(const open_spiel::State& state) const {
    return fast_player_ != nullptr ? fast_player_(state) : state.CurrentPlayer();
  }
  // fn(view) with `action` applied to `state` in place, then undone: the restorer's
  // saved fields written back, or the game's UndoAction.
  template <class Fn>
  auto Restored(open_spiel::State* state, open_spiel::Action action, Key digest, Fn&& fn);
  // fn(child) on a made child, or on its parent's state with its action applied.
  template <class Fn>
  auto AtChild(const Node& child, Fn&& fn);
  bool UndoWorks() const;
  bool CheckUndo(const FieldRestorer* restorer) const;
  const FieldRestorer* WorkingRestorer() const;
  Key NodeKey(const Node& node) const;
  void Tick();
  void CheckClock();
  double Evaluate(const Node& node);
  double TerminalValue(const Node& node);
  [[noreturn]] __attribute__((noinline, cold)) void ThrowTerminalOutOfBounds(double value) const;
  // The node's moves in search order, into `actions` (its capacity reused).
  void OrderedActions(const Node& node, int player, int depth, std::int64_t tt_move,
                      std::vector<open_spiel::Action>* actions);
  void StaticallyOrder(const Node& node, int player, std::vector<open_spiel::Action>* actions);
  // A move list taken from spare_actions_ and given back, with its capacity, when the
  // lease ends: a decision node allocates no list of its own.
  class ActionLease {
   public:
    explicit ActionLease(Searcher* searcher);
    ~ActionLease();
    ActionLease(const ActionLease&) = delete;
    ActionLease& operator=(const ActionLease&) = delete;
    std::vector<open_spiel::Action>& list() { return list_; }

   private:
    Searcher* searcher_;
    std::vector<open_spiel::Action> list_;
  };
  void RewardMove(int player, std::int64_t action, int depth);

  // What Enter finds where no player moves: a leaf, the game's end or the frontier.
  static constexpr int kTerminalNode = open_spiel::kTerminalPlayerId;
  static constexpr int kFrontierNode = kTerminalNode - 1;
  // Counts the visit (and the leaf, where it is one) and says what `node` is at
  // `depth`: the player to move, kChancePlayerId, kTerminalNode or kFrontierNode.
  // SearchNode and Maxn classify their nodes here, so they count alike (as
  // bots/alphabeta.py's _enter).
  int Enter(const Node& node, int depth);

  // The root's moves in search order: root_order's legal ones first, then the
  // ordering's (as bots/alphabeta.py's _root_actions); `key` receives the root's
  // table key where there is a table.
  std::vector<open_spiel::Action> RootActions(const Node& node, int player, int depth,
                                              const std::vector<std::int64_t>& root_order,
                                              Key* key);
  RootResult Root(const Node& node, int player, int depth,
                  const std::vector<std::int64_t>& root_order, RootResult* partial);
  double SearchNode(const Node& node, int depth, double alpha, double beta);
  double Leaf(const Node& node);
  double Decision(const Node& node, int player, int depth, double alpha, double beta,
                  ProbedChild* probed, const Key* key);
  // Decision's loop over `actions` for a max (or min) node; the first `reusable` moves
  // answer from `probed`'s probes where they decide.
  template <bool kMaximizing>
  double BestMove(const Node& node, const std::vector<open_spiel::Action>& actions,
                  ProbedChild* probed, std::size_t reusable, int depth, double alpha, double beta,
                  std::int64_t* best_action);
  double ReuseProbe(ProbedChild& probed, const Node& node, open_spiel::Action action, int depth,
                    double alpha, double beta);
  std::optional<double> TableCutoff(const Entry& entry, double alpha, double beta);
  bool EntryDecides(int entry_depth, int depth) const;
  void StoreResult(Key key, int depth, double value, double alpha, double beta, std::int64_t move);
  double Chance(const Node& node, int depth, double alpha, double beta);
  double ChanceWith(const Node& node, const Outcomes& outcomes, int depth, double alpha,
                    double beta, bool sampled);
  // One chance node under Star1/Star2: outcome i has probability probs[i] and a value
  // known to lie in [lo[i], hi[i]]; the node answers (alpha, beta). The steps
  // (ProbCut, Probe, Star's Star1 pass) read it and narrow the bounds.
  // mirrors: bots/frames.py ChanceFrame
  struct ChanceFrame {
    ChanceFrame(const Node& node, const Outcomes& outcomes, int depth, double alpha, double beta,
                double lower_bound, double upper_bound);
    // The probability-weighted sums of `upper` and `lower`, in the engines' one order.
    std::pair<double, double> Expected(const std::vector<double>& upper,
                                       const std::vector<double>& lower) const;
    // The node's answer where its value, within [lower_sum, upper_sum], falls outside
    // the window (up to rounding), clamped to the window; nullopt otherwise.
    std::optional<double> Cut(double upper_sum, double lower_sum) const;

    const Node& node;
    const Outcomes& outcomes;
    const int depth;
    const double alpha, beta;
    const double tol_low, tol_high;  // rounding slack against alpha and beta
    std::vector<double> probs, lo, hi;
    // Filled by Expand: each outcome's child, its player and, where the table was
    // asked, its key (keys empty otherwise).
    bool expanded = false;
    std::vector<Node> children;
    std::vector<int> players;
    std::vector<Key> keys;
    // Star2's probe records, by outcome (null where a child was not probed).
    std::vector<std::unique_ptr<ProbedChild>> probes;
    // The bounds proven before ChanceProbCut narrowed them to probable ones.
    bool has_proven = false;
    std::vector<double> proven_lo, proven_hi;
  };
  double Star(const Node& node, const Outcomes& outcomes, int depth, double alpha, double beta);
  double Star1(ChanceFrame& frame);
  double SearchOutcome(ChanceFrame& frame, std::size_t i, double alpha, double beta);
  double VerifyProbable(ChanceFrame& frame, std::size_t i, double value, double lower_cut,
                        double upper_cut, double window_low, double window_high);
  void Expand(ChanceFrame& frame);
  std::optional<double> Probe(ChanceFrame& frame);
  std::unique_ptr<ProbedChild> StartProbing(const Node& child, int player, int depth, double alpha,
                                            double beta, const Key* key);
  std::optional<double> ProbCut(ChanceFrame& frame);
  const ProbCutModel& ModelFor(int depth) const;
  // MCMS: the merged draws of a chance node, or nullptr where it is enumerated.
  const Outcomes* SampledOutcomes(const Node& node);
  // max^n (bots/maxn.py's MaxnSearcher, function for function).
  using Vector = std::vector<double>;
  RootResult MaxnRoot(const Node& node, int player, int depth,
                      const std::vector<std::int64_t>& root_order, RootResult* partial);
  Vector Maxn(const Node& node, int depth, int parent, double bound);
  Vector MaxnDecision(const Node& node, int player, int depth, int parent, double bound);
  Vector MaxnChance(const Node& node, int depth);
  Vector MaxnAverage(const Node& node, const Outcomes& outcomes, int depth);
  Vector LeafVector(const Node& node);
  Vector TerminalVector(const Node& node);
  void CheckVector(const Vector& values, bool terminal) const;
  // The previous iteration's best moves first, then the rest in their order.
  static void PutFirst(const std::vector<std::int64_t>& root_order,
                       std::vector<open_spiel::Action>* actions);

  std::shared_ptr<const open_spiel::Game> game_;
  SearchOptions options_;
  LeafFunction leaf_;
  std::string evaluator_name_;
  std::string game_name_;
  FastMoves fast_moves_ = nullptr;    // LegalActions() by the game's adapter (fast_moves.h)
  FastPlayer fast_player_ = nullptr;  // CurrentPlayer() by the game's adapter
  const KeyScheme* scheme_ = nullptr;
  std::unique_ptr<TranspositionTable> table_;
  bool chance_pruning_;
  bool undo_ = false;  // children by ApplyAction/UndoAction instead of Child()
  // Else children by ApplyAction and this restorer's saved fields, where it has one.
  const FieldRestorer* restorer_ = nullptr;
  bool use_fields_key_ = false;  // the scheme's key from the state's fields, not its text
  bool use_digest_ = false;      // nodes carry history digests
  bool lookup_children_ = false;
  bool cache_leaves_ = false;
  std::vector<std::vector<std::int64_t>> history_order_;
  std::vector<std::vector<open_spiel::Action>> spare_actions_;
  std::vector<std::unique_ptr<ProbedChild>> spare_probes_;
  bool history_rewarded_ = false;
  double deadline_ = 0.0;
  InterruptCheck interrupt_check_;
  Stats stats_;
  std::int64_t next_time_check_ = 0;
  std::int64_t next_interrupt_check_ = 0;
  int probe_level_ = 0;
  int probcut_level_ = 0;
  // MCMS draws by sampling key (the node's key; history digest where keyed by history).
  std::unordered_map<Key, std::optional<Outcomes>, KeyHash> draws_;
  // max^n.
  bool maxn_ = false;
  int num_players_ = 0;
  bool maxn_pruning_ = false;  // a constant sum: shallow pruning, and sums checked
  double maxn_lower_ = 0.0, maxn_upper_ = 0.0;
  double maxn_total_ = 0.0, maxn_tolerance_ = 0.0, maxn_offset_ = 0.0;
  LeafVectorFunction leaf_vector_;
};

// CLOCK_MONOTONIC seconds: Python's time.perf_counter() on Linux.
double MonotonicSeconds();

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_SEARCH_H_
