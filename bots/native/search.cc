// bots/search.py in C++: see search.h. Comments name the Python method each
// function mirrors; the reasons for the rules are documented there.
#include "bots/native/search.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <typeinfo>

#include "bots/native/adapters/registry.h"
#include "bots/native/fast_moves.h"
#include "bots/native/mcms_draws.h"

namespace starspiel {
namespace {

// std::stable_sort's order without its buffer for the short lists a node sorts
// (moves, outcomes): an insertion sort is stable too, and allocates nothing.
template <class It, class Less>
void StableSort(It first, It last, Less less) {
  if (last - first > 32) {
    std::stable_sort(first, last, less);
    return;
  }
  for (It i = first + (first != last ? 1 : 0); i < last; ++i) {
    auto value = std::move(*i);
    It j = i;
    for (; j != first && less(value, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(value);
  }
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kTimeCheckInterval = 64;
constexpr int kInterruptInterval = 4096;
constexpr std::size_t kDrawCacheSize = 100000;
constexpr int kChance = open_spiel::kChancePlayerId;

// Rounding slack for comparing a probability-weighted sum with a window edge.
// mirrors: bots/frames.py tolerance
double Tolerance(double edge) { return std::isinf(edge) ? 0.0 : 1e-12 * (1.0 + std::fabs(edge)); }

// Python's repr() of a float, for error messages.
std::string Repr(double x) {
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

// repr() of a non-negative 128-bit int: canonical_text of a history digest.
// mirrors: bots/mcms.py canonical_text
std::string DecimalText(Key value) {
  if (value == 0) return "0";
  std::string digits;
  while (value > 0) {
    digits += static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  }
  return std::string(digits.rbegin(), digits.rend());
}

// RAII counter of nested probing (or ProbCut) phases: only the outermost
// adds the nodes searched inside it, also when a timeout unwinds it.
class NestedCount {
 public:
  NestedCount(int& level, const std::int64_t& nodes, std::int64_t& total)
      : level_(level), nodes_(nodes), total_(total), before_(nodes) {
    ++level_;
  }
  ~NestedCount() {
    if (--level_ == 0) total_ += nodes_ - before_;
  }

 private:
  int& level_;
  const std::int64_t& nodes_;
  std::int64_t& total_;
  std::int64_t before_;
};

}  // namespace

double MonotonicSeconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// mirrors: bots/frames.py ProbedMove.decides
bool Searcher::ProbedMove::Decides(double alpha, double beta) const {
  return (window_low < value && value < window_high) || (value <= window_low && value <= alpha) ||
         (value >= window_high && value >= beta);
}

// mirrors: bots/star.py StarSearcher._configure
Searcher::Searcher(std::shared_ptr<const open_spiel::Game> game, SearchOptions options,
                   LeafFunction leaf, std::string evaluator_name)
    : game_(std::move(game)),
      options_(std::move(options)),
      leaf_(std::move(leaf)),
      evaluator_name_(std::move(evaluator_name)),
      game_name_(game_->GetType().short_name),
      fast_moves_(FastMovesFor(game_name_)),
      fast_player_(FastPlayerFor(game_name_)) {
  chance_pruning_ = options_.algorithm != "expectiminimax";
  if (options_.tt_size > 0) table_ = std::make_unique<TranspositionTable>(options_.tt_size);
  if (options_.key_kind == KeyKind::kScheme) {
    scheme_ = FindKeyScheme(game_name_);
    if (scheme_ == nullptr) options_.key_kind = KeyKind::kDigest;
  }
  if (scheme_ != nullptr && scheme_->fields_key && scheme_->fields_apply) {
    // The fields are read from the game's own state class only.
    std::unique_ptr<open_spiel::State> initial = game_->NewInitialState();
    use_fields_key_ = scheme_->fields_apply(*initial);
  }
  const bool digest_keys = options_.key_kind == KeyKind::kDigest;
  // bots/search.py _search_root: history keys find no transpositions off the
  // path, so children and leaves are not looked up there.
  use_digest_ = digest_keys && (table_ != nullptr || options_.samples > 0);
  lookup_children_ = !digest_keys;
  cache_leaves_ = table_ != nullptr && lookup_children_;
  undo_ = options_.use_undo && UndoWorks();
  if (options_.use_undo && !undo_) restorer_ = WorkingRestorer();
  history_order_.assign(game_->NumPlayers(),
                        std::vector<std::int64_t>(game_->NumDistinctActions(), 0));
  num_players_ = game_->NumPlayers();
  maxn_ = options_.multiplayer == Multiplayer::kMaxn;
  if (maxn_ && num_players_ <= 2) {
    throw std::invalid_argument("multiplayer=maxn is for games of 3 or more players");
  }
  if (options_.maxn_bounds.size() != 2 ||
      (!options_.maxn_sum.empty() && options_.maxn_sum.size() != 3)) {
    throw std::invalid_argument(
        "maxn_bounds must be [L, U] and maxn_sum [S, tolerance, offset] or []");
  }
  maxn_lower_ = options_.maxn_bounds[0];
  maxn_upper_ = options_.maxn_bounds[1];
  maxn_pruning_ = !options_.maxn_sum.empty();
  if (maxn_pruning_) {
    maxn_total_ = options_.maxn_sum[0];
    maxn_tolerance_ = options_.maxn_sum[1];
    maxn_offset_ = options_.maxn_sum[2];
  }
  ResetStats();
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher.reset_stats
void Searcher::ResetStats() {
  stats_ = Stats();
  probe_level_ = 0;
  probcut_level_ = 0;
  next_time_check_ = kTimeCheckInterval;
  next_interrupt_check_ = kInterruptInterval;
}

// ------------------------------------------------------------------ helpers

// mirrors: bots/node.py SearchNode.child
Searcher::Node Searcher::Child(const Node& node, open_spiel::Action action) const {
  Node child;
  child.owned = node.state->Child(action);
  child.state = child.owned.get();
  if (use_digest_) child.digest = ExtendDigest(node.digest, action);
  return child;
}

bool Searcher::InPlace(const open_spiel::State& state) const {
  // A game's first move is always cloned (some games cannot undo their opening roll).
  return restorer_ != nullptr || (undo_ && !state.FullHistory().empty());
}

template <class Fn>
auto Searcher::Restored(open_spiel::State* state, open_spiel::Action action, Key digest, Fn&& fn) {
  Node view;
  view.state = state;
  view.digest = digest;
  if (restorer_ == nullptr) {  // the game's own UndoAction
    const open_spiel::Player mover = state->CurrentPlayer();
    state->ApplyAction(action);
    auto result = fn(view);
    state->UndoAction(mover, action);
    return result;
  }
  Snapshot snapshot;
  SaveAndApply(*restorer_, state, action, &snapshot);
  auto result = fn(view);
  RestoreFrom(*restorer_, state, snapshot);
  return result;
}

template <class Fn>
auto Searcher::AtChild(const Node& child, Fn&& fn) {
  if (child.state != nullptr) return fn(child);
  return Restored(child.parent->state, child.action, child.digest, fn);
}

template <class SearchFn>
auto Searcher::SearchAfter(const Node& node, open_spiel::Action action, SearchFn&& search) {
  if (InPlace(*node.state)) {
    return Restored(node.state, action, use_digest_ ? ExtendDigest(node.digest, action) : 0,
                    search);
  }
  const Node child = Child(node, action);
  return search(child);
}

// Whether ApplyAction followed by UndoAction restores this game's states, along
// one line of play: where cloning a state costs more than a node's other work (games
// whose histories are copied), a game is searched in place.
bool Searcher::UndoWorks() const {
  // Only games whose adapter says their undo was checked by hand over whole games:
  // in some games, after some undos, later moves differ from a clone's (OpenSpiel
  // 2.0.2), and the check below only plays the first moves.
  const GameAdapter* adapter = FindGameAdapter(game_name_);
  if (adapter == nullptr || !adapter->undo_checked) return false;
  static std::mutex mutex;
  // By game string and state class (a C++ game and its Python twin print alike): checked
  // once per process.
  static std::map<std::string, bool> known;
  const std::string game_string =
      game_->ToString() + '|' + typeid(*game_->NewInitialState()).name();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known.find(game_string);
    if (it != known.end()) return it->second;
  }
  const bool works = CheckUndo(nullptr);
  std::lock_guard<std::mutex> lock(mutex);
  known[game_string] = works;
  return works;
}

// The game's field restorer (field_undo.h) where it has one and it passes the
// same check as UndoAction, once per process and game string.
const FieldRestorer* Searcher::WorkingRestorer() const {
  const FieldRestorer* restorer = FindFieldRestorer(game_name_, *game_->NewInitialState());
  if (restorer == nullptr) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  const std::string game_string = game_->ToString();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known.find(game_string);
    if (it != known.end()) return it->second ? restorer : nullptr;
  }
  const bool works = CheckUndo(restorer);
  std::lock_guard<std::mutex> lock(mutex);
  known[game_string] = works;
  return works ? restorer : nullptr;
}

bool Searcher::CheckUndo(const FieldRestorer* restorer) const {
  // Two plies of every few moves along a line of play, each compared with a clone:
  // after ApplyAction the state must equal Child(), after UndoAction (or the
  // restorer's restore) the state before.
  auto same = [](const open_spiel::State& a, const open_spiel::State& b) {
    if (a.ToString() != b.ToString() || a.History() != b.History() ||
        a.CurrentPlayer() != b.CurrentPlayer() || a.IsTerminal() != b.IsTerminal()) {
      return false;
    }
    if (a.IsTerminal()) return a.Returns() == b.Returns();
    return a.IsChanceNode() ? a.ChanceOutcomes() == b.ChanceOutcomes()
                            : a.LegalActions() == b.LegalActions();
  };
  auto moves = [](const open_spiel::State& state) {
    std::vector<open_spiel::Action> actions;
    if (state.IsChanceNode()) {
      for (const auto& [action, prob] : state.ChanceOutcomes()) actions.push_back(action);
    } else {
      actions = state.LegalActions();
    }
    if (actions.size() > 6) actions.resize(6);
    return actions;
  };
  // A move made and taken back: by the restorer where there is one, else by the game.
  auto apply = [restorer](open_spiel::State* state, open_spiel::Action a, Snapshot* saved) {
    if (restorer != nullptr) {
      SaveAndApply(*restorer, state, a, saved);
    } else {
      state->ApplyAction(a);
    }
  };
  auto undo = [restorer](open_spiel::State* state, open_spiel::Player mover, open_spiel::Action a,
                         const Snapshot& saved) {
    if (restorer != nullptr) {
      RestoreFrom(*restorer, state, saved);
    } else {
      state->UndoAction(mover, a);
    }
  };
  try {
    std::unique_ptr<open_spiel::State> state = game_->NewInitialState();
    for (int step = 0; step < 60 && !state->IsTerminal(); ++step) {
      const std::vector<open_spiel::Action> actions = moves(*state);
      // The first move is never undone (SearchAfter), but it is restored.
      if (restorer != nullptr || !state->FullHistory().empty()) {
        for (open_spiel::Action a : actions) {
          std::unique_ptr<open_spiel::State> before = state->Clone();
          std::unique_ptr<open_spiel::State> child = state->Child(a);
          const open_spiel::Player mover = state->CurrentPlayer();
          Snapshot saved;
          apply(state.get(), a, &saved);
          if (!same(*state, *child)) return false;
          if (!state->IsTerminal()) {
            const open_spiel::Player next = state->CurrentPlayer();
            for (open_spiel::Action b : moves(*state)) {
              std::unique_ptr<open_spiel::State> grandchild = child->Child(b);
              Snapshot saved_child;
              apply(state.get(), b, &saved_child);
              if (!same(*state, *grandchild)) return false;
              undo(state.get(), next, b, saved_child);
              if (!same(*state, *child)) return false;
            }
          }
          undo(state.get(), mover, a, saved);
          if (!same(*state, *before)) return false;
        }
      }
      state->ApplyAction(actions[(step * 7) % actions.size()]);
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

Key Searcher::NodeKey(const Node& node) const {
  switch (options_.key_kind) {
    case KeyKind::kDigest:
      return node.digest;
    case KeyKind::kScheme:
      return use_fields_key_ ? scheme_->fields_key(*node.state)
                             : TextKey(scheme_->text(*node.state));
    case KeyKind::kCallback:
      return TextKey(options_.key_text(*node.state));
    case KeyKind::kPythonState: {
      std::string text;
      for (open_spiel::Action a : node.state->History()) text += std::to_string(a) + ',';
      text += '|' + std::to_string(node.state->CurrentPlayer()) + '|' + node.state->ToString();
      return TextKey(text);
    }
  }
  return node.digest;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._tick
void Searcher::Tick() {
  next_time_check_ = stats_.nodes + kTimeCheckInterval;
  CheckClock();
  if (interrupt_check_ && stats_.nodes >= next_interrupt_check_) {
    next_interrupt_check_ = stats_.nodes + kInterruptInterval;
    interrupt_check_();
  }
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._check_clock
void Searcher::CheckClock() {
  if (deadline_ > 0.0 && MonotonicSeconds() >= deadline_) throw SearchTimeout();
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._evaluate
double Searcher::Evaluate(const Node& node) {
  ++stats_.evaluations;
  const double value = leaf_(*node.state, options_.player);
  if (!(options_.lower_bound <= value && value <= options_.upper_bound)) {
    throw LeafValueOutOfBounds(
        "evaluator " + evaluator_name_ + " returned " + Repr(value) + " for player " +
        std::to_string(options_.player) + ", outside its declared bounds [" +
        Repr(options_.lower_bound) + ", " + Repr(options_.upper_bound) + "] in game " +
        game_->ToString() +
        "; Star1/Star2 are only exact when every leaf lies within the bounds: fix the "
        "evaluator or declare wider `bounds`");
  }
  return value;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._terminal_value
double Searcher::TerminalValue(const Node& node) {
  const double value = node.state->PlayerReturn(options_.player);  // no vector, where overridden
  if (!(options_.lower_bound <= value && value <= options_.upper_bound)) {
    ThrowTerminalOutOfBounds(value);
  }
  return value;
}

// Out of line, so that TerminalValue (at every terminal leaf) stays a few instructions.
void Searcher::ThrowTerminalOutOfBounds(double value) const {
  throw LeafValueOutOfBounds(
      "terminal utility " + Repr(value) + " for player " + std::to_string(options_.player) +
      " in game " + game_->ToString() + " lies outside the bounds [" + Repr(options_.lower_bound) +
      ", " + Repr(options_.upper_bound) + "] declared by evaluator " + evaluator_name_ +
      "; declared bounds must cover the game's terminal utilities too");
}

Searcher::ActionLease::ActionLease(Searcher* searcher) : searcher_(searcher) {
  if (searcher->spare_actions_.empty()) return;
  list_ = std::move(searcher->spare_actions_.back());
  searcher->spare_actions_.pop_back();
}

Searcher::ActionLease::~ActionLease() { searcher_->spare_actions_.push_back(std::move(list_)); }

// mirrors: bots/ordering.py MoveOrdering.ordered_actions
void Searcher::OrderedActions(const Node& node, int player, int depth, std::int64_t tt_move,
                              std::vector<open_spiel::Action>* actions) {
  if (fast_moves_ == nullptr || !fast_moves_(*node.state, actions)) {
    *actions = node.state->LegalActions();
  }
  if (!options_.move_ordering) return;
  if (depth >= options_.history_min_depth && actions->size() > 1 && history_rewarded_) {
    const std::vector<std::int64_t>& order = history_order_[player];
    StableSort(
        actions->begin(), actions->end(),
        [&order](open_spiel::Action a, open_spiel::Action b) { return order[a] < order[b]; });
  }
  auto tt_place = tt_move == kNoMove || actions->size() < 2
                      ? actions->end()
                      : std::find(actions->begin(), actions->end(), tt_move);
  if (tt_place != actions->end()) {
    std::rotate(actions->begin(), tt_place, tt_place + 1);
  } else if (options_.static_ordering && depth >= 2 && actions->size() > 1) {
    StaticallyOrder(node, player, actions);
  }
}

// mirrors: bots/ordering.py MoveOrdering._statically_ordered
void Searcher::StaticallyOrder(const Node& node, int player,
                               std::vector<open_spiel::Action>* actions) {
  std::vector<double> values(actions->size());
  for (std::size_t i = 0; i < actions->size(); ++i) {
    values[i] = SearchAfter(node, (*actions)[i], [this, player](const Node& child) {
      const int kind = PlayerAt(*child.state);
      if (maxn_) {  // each mover by its own component
        return (kind < 0 && kind != kChance ? TerminalVector(child) : LeafVector(child))[player];
      }
      return kind < 0 && kind != kChance ? TerminalValue(child) : Leaf(child);
    });
  }
  std::vector<std::size_t> index(actions->size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  if (maxn_ || player == options_.player) {
    StableSort(index.begin(), index.end(),
               [&values](std::size_t a, std::size_t b) { return -values[a] < -values[b]; });
  } else {
    StableSort(index.begin(), index.end(),
               [&values](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  }
  std::vector<open_spiel::Action> sorted(actions->size());
  for (std::size_t i = 0; i < index.size(); ++i) sorted[i] = (*actions)[index[i]];
  *actions = std::move(sorted);
}

// mirrors: bots/ordering.py MoveOrdering.reward
void Searcher::RewardMove(int player, std::int64_t action, int depth) {
  history_order_[player][action] -= static_cast<std::int64_t>(depth) * depth;
  history_rewarded_ = true;
}

// --------------------------------------------------------------------- root

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._search_root
RootResult Searcher::Search(const open_spiel::State& state, int depth,
                            const std::vector<std::int64_t>& root_order, RootResult* partial) {
  if (depth < 0) throw std::invalid_argument("depth must be >= 0, got " + std::to_string(depth));
  Node node;
  if (restorer_ != nullptr && !restorer_->applies(state)) {
    throw std::invalid_argument("a state of another class than " + game_name_ +
                                "'s own was passed to its searcher");
  }
  node.owned = state.Clone();
  node.state = node.owned.get();
  if (use_digest_) node.digest = HistoryDigest(state.History());
  const int player = node.state->CurrentPlayer();
  if (maxn_) {
    if (depth > 0 && player >= 0) return MaxnRoot(node, player, depth, root_order, partial);
    RootResult result;
    result.values = Maxn(node, depth, -1, -kInf);
    result.value = result.values[options_.player];
    return result;
  }
  if (depth == 0 || player < 0) {
    RootResult result;
    result.value = SearchNode(node, depth, -kInf, kInf);
    return result;
  }
  return Root(node, player, depth, root_order, partial);
}

void Searcher::PutFirst(const std::vector<std::int64_t>& root_order,
                        std::vector<open_spiel::Action>* actions) {
  if (root_order.empty()) return;
  std::vector<open_spiel::Action> ordered;
  for (std::int64_t a : root_order) {
    if (std::find(actions->begin(), actions->end(), a) != actions->end()) ordered.push_back(a);
  }
  for (open_spiel::Action a : *actions) {
    if (std::find(ordered.begin(), ordered.end(), a) == ordered.end()) ordered.push_back(a);
  }
  *actions = std::move(ordered);
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._root_actions
std::vector<open_spiel::Action> Searcher::RootActions(const Node& node, int player, int depth,
                                                      const std::vector<std::int64_t>& root_order,
                                                      Key* key) {
  std::int64_t tt_move = kNoMove;
  if (table_) {
    *key = NodeKey(node);
    if (const Entry* entry = table_->Get(*key)) tt_move = entry->move;
  }
  std::vector<open_spiel::Action> actions;
  OrderedActions(node, player, depth, tt_move, &actions);
  PutFirst(root_order, &actions);
  return actions;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._root
RootResult Searcher::Root(const Node& node, int player, int depth,
                          const std::vector<std::int64_t>& root_order, RootResult* partial) {
  ++stats_.nodes;
  const bool maximize = player == options_.player;
  Key key = 0;
  const std::vector<open_spiel::Action> actions =
      RootActions(node, player, depth, root_order, &key);
  RootResult result;
  result.value = maximize ? -kInf : kInf;
  double alpha = -kInf, beta = kInf;
  for (open_spiel::Action action : actions) {
    const double value = SearchAfter(
        node, action, [&](const Node& child) { return SearchNode(child, depth - 1, alpha, beta); });
    if (maximize ? value > result.value : value < result.value) {
      result.value = value;
      result.action = action;
      if (maximize) {
        alpha = value;
      } else {
        beta = value;
      }
      if (partial != nullptr) {
        partial->has_partial = true;
        partial->partial_value = value;
        partial->partial_action = action;
      }
    }
  }
  if (result.action != kNoMove) RewardMove(player, result.action, depth);
  if (table_) table_->Store(key, depth, result.value, result.value, result.action);
  return result;
}

// ----------------------------------------------------------------- interior

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._enter
inline int Searcher::Enter(const Node& node, int depth) {
  ++stats_.nodes;
  if (stats_.nodes >= next_time_check_) Tick();
  const int player = PlayerAt(*node.state);
  if (player >= 0 || player == kChance) {
    if (depth != 0) return player;
    ++stats_.leaves;
    return kFrontierNode;
  }
  ++stats_.leaves;
  return kTerminalNode;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._search
double Searcher::SearchNode(const Node& node, int depth, double alpha, double beta) {
  const int kind = Enter(node, depth);
  if (kind >= 0) return Decision(node, kind, depth, alpha, beta, nullptr, nullptr);
  if (kind == kChance) return Chance(node, depth, alpha, beta);
  return kind == kFrontierNode ? Leaf(node) : TerminalValue(node);
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._leaf
double Searcher::Leaf(const Node& node) {
  if (!cache_leaves_ || !table_) return Evaluate(node);
  const Key key = NodeKey(node);
  if (const double* value = table_->GetLeaf(key)) {
    ++stats_.tt_hits;
    return *value;
  }
  const double value = Evaluate(node);
  table_->StoreLeaf(key, value);
  return value;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._decision
double Searcher::Decision(const Node& node, int player, int depth, double alpha, double beta,
                          ProbedChild* probed, const Key* known_key) {
  std::int64_t tt_move = kNoMove;
  Key key = 0;
  if (table_) {
    key = known_key != nullptr ? *known_key : NodeKey(node);
    if (const Entry* entry = table_->Get(key)) {
      tt_move = entry->move;
      if (EntryDecides(entry->depth, depth)) {
        if (std::optional<double> cutoff = TableCutoff(*entry, alpha, beta)) return *cutoff;
      }
    }
  }
  ActionLease own_actions(this);
  std::size_t reusable = 0;
  if (probed == nullptr) {
    OrderedActions(node, player, depth, tt_move, &own_actions.list());
  } else {
    reusable = probed->moves.size();
  }
  const std::vector<open_spiel::Action>& actions =
      probed == nullptr ? own_actions.list() : probed->ordered;
  std::int64_t best_action = actions[0];
  const double best =
      player == options_.player
          ? BestMove<true>(node, actions, probed, reusable, depth, alpha, beta, &best_action)
          : BestMove<false>(node, actions, probed, reusable, depth, alpha, beta, &best_action);
  if (options_.move_ordering) RewardMove(player, best_action, depth);
  if (table_) StoreResult(key, depth, best, alpha, beta, best_action);
  return best;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._decision (its loop over the moves)
template <bool kMaximizing>
double Searcher::BestMove(const Node& node, const std::vector<open_spiel::Action>& actions,
                          ProbedChild* probed, std::size_t reusable, int depth, double alpha,
                          double beta, std::int64_t* best_action) {
  const int child_depth = depth - 1;
  double best = kMaximizing ? -kInf : kInf;
  for (open_spiel::Action action : actions) {
    double value;
    if (reusable) {
      value = ReuseProbe(*probed, node, action, child_depth, alpha, beta);
      --reusable;
    } else {
      value = SearchAfter(node, action, [&](const Node& child) {
        return SearchNode(child, child_depth, alpha, beta);
      });
    }
    if (kMaximizing ? value > best : value < best) {
      best = value;
      *best_action = action;
      if (kMaximizing ? value >= beta : value <= alpha) {
        ++stats_.cutoffs_alpha_beta;
        break;
      }
      if (kMaximizing) {
        if (value > alpha) alpha = value;
      } else if (value < beta) {
        beta = value;
      }
    }
  }
  return best;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._reuse_probe
double Searcher::ReuseProbe(ProbedChild& probed, const Node& node, open_spiel::Action action,
                            int depth, double alpha, double beta) {
  const ProbedMove& move = probed.moves[probed.reused];
  ++probed.reused;
  if (move.Decides(alpha, beta)) {
    ++stats_.probe_reuses;
    return move.value;
  }
  return SearchAfter(node, action,
                     [&](const Node& child) { return SearchNode(child, depth, alpha, beta); });
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._entry_decides
bool Searcher::EntryDecides(int entry_depth, int depth) const {
  return entry_depth == depth || (entry_depth > depth && options_.deeper_cutoffs);
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._table_cutoff
std::optional<double> Searcher::TableCutoff(const Entry& entry, double alpha, double beta) {
  if (entry.lower >= beta || entry.lower == entry.upper) {
    ++stats_.tt_hits;
    return entry.lower;
  }
  if (entry.upper <= alpha) {
    ++stats_.tt_hits;
    return entry.upper;
  }
  return std::nullopt;
}

// mirrors: bots/expectiminimax.py ExpectiminimaxSearcher._store
void Searcher::StoreResult(Key key, int depth, double value, double alpha, double beta,
                           std::int64_t move) {
  if (value <= alpha) {
    table_->Store(key, depth, -kInf, value, move);
  } else if (value >= beta) {
    table_->Store(key, depth, value, kInf, move);
  } else {
    table_->Store(key, depth, value, value, move);
  }
}

// ------------------------------------------------------------------- chance

// mirrors: bots/star.py StarSearcher._chance
double Searcher::Chance(const Node& node, int depth, double alpha, double beta) {
  if (options_.samples > 0) {
    if (const Outcomes* sampled = SampledOutcomes(node)) {
      ++stats_.sampled_chance_nodes;
      return ChanceWith(node, *sampled, depth, alpha, beta, true);
    }
  }
  Key key = 0;
  const bool use_table = chance_pruning_ && table_ != nullptr;
  if (use_table) {
    key = NodeKey(node);
    if (const Entry* entry = table_->Get(key)) {
      if (EntryDecides(entry->depth, depth)) {
        if (std::optional<double> cutoff = TableCutoff(*entry, alpha, beta)) return *cutoff;
      }
    }
  }
  Outcomes outcomes = node.state->ChanceOutcomes();
  if (options_.move_ordering && outcomes.size() > 1) {
    StableSort(outcomes.begin(), outcomes.end(),
               [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  if (!chance_pruning_) {
    double total = 0.0;
    for (const auto& [action, prob] : outcomes) {
      total += prob * SearchAfter(node, action, [&](const Node& child) {
                 return SearchNode(child, depth, -kInf, kInf);
               });
    }
    return total;
  }
  const double value = Star(node, outcomes, depth, alpha, beta);
  if (use_table) StoreResult(key, depth, value, alpha, beta, kNoMove);
  return value;
}

// StarSearcher._chance on a sampled node (ChanceSampling.sampled_outcomes): the draws, in
// their own order.
// mirrors: bots/star.py StarSearcher._chance
double Searcher::ChanceWith(const Node& node, const Outcomes& outcomes, int depth, double alpha,
                            double beta, bool /*sampled*/) {
  Key key = 0;
  if (table_) {
    key = NodeKey(node);
    if (const Entry* entry = table_->Get(key)) {
      if (EntryDecides(entry->depth, depth)) {
        if (std::optional<double> cutoff = TableCutoff(*entry, alpha, beta)) return *cutoff;
      }
    }
  }
  const double value = Star(node, outcomes, depth, alpha, beta);
  if (table_) StoreResult(key, depth, value, alpha, beta, kNoMove);
  return value;
}

Searcher::ChanceFrame::ChanceFrame(const Node& node, const Outcomes& outcomes, int depth,
                                   double alpha, double beta, double lower_bound,
                                   double upper_bound)
    : node(node),
      outcomes(outcomes),
      depth(depth),
      alpha(alpha),
      beta(beta),
      tol_low(Tolerance(alpha)),
      tol_high(Tolerance(beta)),
      probs(outcomes.size()),
      lo(outcomes.size(), lower_bound),
      hi(outcomes.size(), upper_bound) {
  for (std::size_t i = 0; i < outcomes.size(); ++i) probs[i] = outcomes[i].second;
}

// mirrors: bots/frames.py ChanceFrame.expected
std::pair<double, double> Searcher::ChanceFrame::Expected(const std::vector<double>& upper,
                                                          const std::vector<double>& lower) const {
  double upper_sum = 0.0, lower_sum = 0.0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    upper_sum += probs[i] * upper[i];
    lower_sum += probs[i] * lower[i];
  }
  return {upper_sum, lower_sum};
}

// mirrors: bots/frames.py ChanceFrame.cut
inline std::optional<double> Searcher::ChanceFrame::Cut(double upper_sum, double lower_sum) const {
  if (upper_sum <= alpha + tol_low) return upper_sum < alpha ? upper_sum : alpha;
  if (lower_sum >= beta - tol_high) return lower_sum > beta ? lower_sum : beta;
  return std::nullopt;
}

// mirrors: bots/star.py StarSearcher._star
double Searcher::Star(const Node& node, const Outcomes& outcomes, int depth, double alpha,
                      double beta) {
  ChanceFrame frame(node, outcomes, depth, alpha, beta, options_.lower_bound, options_.upper_bound);
  const ProbeRecycler recycle_probes(this, &frame.probes);
  // Children are expanded up front only where probing or the table reads them.
  if (options_.probing_factor > 0 || table_ != nullptr) {
    Expand(frame);
    if (options_.probcut_reduction > 0 && depth > options_.probcut_reduction &&
        (alpha > options_.lower_bound || beta < options_.upper_bound)) {
      if (std::optional<double> cut = ProbCut(frame)) return *cut;
    }
    if (options_.probing_factor > 0) {
      const std::optional<double> cut = Probe(frame);
      // Without reuse, the records go back to the spares before the Star1 pass.
      if (!options_.reuse_probes) ProbeRecycler::Recycle(this, &frame.probes);
      if (cut) return *cut;
    }
  }
  return Star1(frame);
}

// mirrors: bots/star.py StarSearcher._star1
double Searcher::Star1(ChanceFrame& frame) {
  const std::vector<double>&probs = frame.probs, &lo = frame.lo, &hi = frame.hi;
  auto [later_hi, later_lo] = frame.Expected(hi, lo);
  double done = 0.0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    const double prob = probs[i];
    const double lo_i = lo[i], hi_i = hi[i];
    later_hi -= prob * hi_i;
    later_lo -= prob * lo_i;
    if (lo_i == hi_i) {
      done += prob * lo_i;
      continue;
    }
    if (std::optional<double> cut =
            frame.Cut(done + prob * hi_i + later_hi, done + prob * lo_i + later_lo)) {
      ++stats_.cutoffs_star1;
      return *cut;
    }
    // The child's window is widened by half the tolerance so that a child value tying
    // the cut value (up to rounding) fails low or high there.
    const double lower_cut = (frame.alpha - done - later_hi + 0.5 * frame.tol_low) / prob;
    const double upper_cut = (frame.beta - done - later_lo - 0.5 * frame.tol_high) / prob;
    const double window_low = lower_cut > lo_i ? lower_cut : lo_i;
    const double window_high = upper_cut < hi_i ? upper_cut : hi_i;
    double value = SearchOutcome(frame, i, window_low, window_high);
    if (frame.has_proven) {
      value = VerifyProbable(frame, i, value, lower_cut, upper_cut, window_low, window_high);
    }
    if (std::optional<double> cut =
            frame.Cut(done + prob * value + later_hi, done + prob * value + later_lo)) {
      ++stats_.cutoffs_star1;
      return *cut;
    }
    done += prob * value;
  }
  return done;
}

// mirrors: bots/star.py StarSearcher._search_outcome
double Searcher::SearchOutcome(ChanceFrame& frame, std::size_t i, double alpha, double beta) {
  const int depth = frame.depth;
  if (!frame.expanded) {  // nothing has read the child yet
    return SearchAfter(frame.node, frame.outcomes[i].first,
                       [&](const Node& child) { return SearchNode(child, depth, alpha, beta); });
  }
  ProbedChild* probed =
      options_.reuse_probes && !frame.probes.empty() ? frame.probes[i].get() : nullptr;
  const Key* key = frame.keys.empty() ? nullptr : &frame.keys[i];
  const int player = frame.players[i];
  return AtChild(frame.children[i], [&](const Node& child) {
    if (probed != nullptr && !probed->moves.empty()) {
      // Counted as a node when its probing started.
      return Decision(child, player, depth, alpha, beta, probed,
                      probed->has_key ? &probed->key : nullptr);
    }
    ++stats_.nodes;
    if (stats_.nodes >= next_time_check_) Tick();
    if (player < 0) return Chance(child, depth, alpha, beta);
    return Decision(child, player, depth, alpha, beta, nullptr, key);
  });
}

// mirrors: bots/chance_probcut.py verify_probable
double Searcher::VerifyProbable(ChanceFrame& frame, std::size_t i, double value, double lower_cut,
                                double upper_cut, double window_low, double window_high) {
  const double proven_low = frame.proven_lo[i], proven_high = frame.proven_hi[i];
  if (lower_cut < value && value <= window_low && proven_low < value) {
    ++stats_.probcut_researches;
    return AtChild(frame.children[i], [&](const Node& made) {
      return SearchNode(made, frame.depth, std::max(lower_cut, proven_low), window_high);
    });
  }
  if (upper_cut > value && value >= window_high && proven_high > value) {
    ++stats_.probcut_researches;
    return AtChild(frame.children[i], [&](const Node& made) {
      return SearchNode(made, frame.depth, window_low, std::min(upper_cut, proven_high));
    });
  }
  return value;
}

// mirrors: bots/star.py StarSearcher._expand
void Searcher::Expand(ChanceFrame& frame) {
  const Node& node = frame.node;
  const std::size_t count = frame.outcomes.size();
  // With history keys the children of a fresh chance node rarely have an entry yet.
  const bool lookup = lookup_children_ && table_ != nullptr;
  frame.expanded = true;
  frame.children.resize(count);
  frame.players.assign(count, 0);
  if (lookup) frame.keys.assign(count, 0);
  const bool check_clock = count > kTimeCheckInterval && deadline_ > 0.0;
  const bool in_place = InPlace(*node.state);
  for (std::size_t i = 0; i < count; ++i) {
    if (check_clock && i % kTimeCheckInterval == 0) CheckClock();
    Node& child = frame.children[i];
    if (in_place) {  // made when visited
      child.parent = &node;
      child.action = frame.outcomes[i].first;
      if (use_digest_) child.digest = ExtendDigest(node.digest, child.action);
    } else {
      child = Child(node, frame.outcomes[i].first);
    }
    AtChild(child, [&](const Node& made) {
      const int player = frame.players[i] = PlayerAt(*made.state);
      if (player < 0 && player != kChance) {
        ++stats_.nodes;
        ++stats_.leaves;
        frame.lo[i] = frame.hi[i] = TerminalValue(made);
      } else if (lookup) {
        const Key key = frame.keys[i] = NodeKey(made);
        if (const Entry* entry = table_->Get(key)) {
          if (EntryDecides(entry->depth, frame.depth)) {
            if (entry->lower > frame.lo[i]) frame.lo[i] = entry->lower;
            if (entry->upper < frame.hi[i]) frame.hi[i] = entry->upper;
          }
        }
      }
      return 0;
    });
  }
}

// mirrors: bots/star.py StarSearcher._probe
std::optional<double> Searcher::Probe(ChanceFrame& frame) {
  const std::vector<double>& probs = frame.probs;
  std::vector<double>&lo = frame.lo, &hi = frame.hi;
  const double alpha = frame.alpha, beta = frame.beta;
  const double tol_low = frame.tol_low, tol_high = frame.tol_high;
  const std::size_t count = probs.size();
  // The node's expected bounds, kept up to date as probes narrow them.
  auto [sum_hi, sum_lo] = frame.Expected(hi, lo);
  if (std::optional<double> cut = frame.Cut(sum_hi, sum_lo)) {
    ++stats_.cutoffs_star2_probe;
    return cut;
  }
  frame.probes.resize(count);
  std::vector<std::unique_ptr<ProbedChild>>& probed = frame.probes;
  const int rounds = options_.probing_factor;
  // reachable_probes (bots/star.py StarSearcher._probe_kinds): -1 a min child,
  // +1 a max child, 0 nothing to probe.
  std::vector<int> kinds;
  double drop = 0.0, rise = 0.0;
  const bool reachable = rounds == 1 && options_.reachable_probes;
  if (reachable) {
    kinds.assign(count, 0);
    for (std::size_t i = 0; i < count; ++i) {
      if (frame.players[i] < 0 || lo[i] == hi[i]) continue;
      if (frame.players[i] == options_.player) {
        kinds[i] = 1;
        rise += probs[i] * (hi[i] - lo[i]);
      } else {
        kinds[i] = -1;
        drop += probs[i] * (hi[i] - lo[i]);
      }
    }
  }
  const std::size_t total = rounds == 1 ? count : count * static_cast<std::size_t>(rounds);
  const int child_depth = frame.depth - 1;
  NestedCount counting(probe_level_, stats_.nodes, stats_.probe_nodes);
  for (std::size_t step = 0; step < total; ++step) {
    std::size_t rank, i;
    if (rounds == 1) {
      rank = 0;
      i = step;
    } else if (options_.probing == Probing::kSequential) {
      i = step / rounds;
      rank = step % rounds;
    } else {
      rank = step / count;
      i = step % count;
    }
    if (lo[i] == hi[i]) continue;  // terminal, or settled by the table
    if (reachable) {
      const int kind = kinds[i];
      if (kind == 0) continue;
      const double span = probs[i] * (hi[i] - lo[i]);
      bool hopeless;
      if (kind < 0) {
        hopeless = sum_hi - drop > alpha + tol_low;
        drop -= span;
      } else {
        hopeless = sum_lo + rise < beta - tol_high;
        rise -= span;
      }
      if (hopeless) continue;
    }
    Node& child = frame.children[i];
    ProbedChild* record = probed[i].get();
    if (record == nullptr) {
      if (rank > 0) continue;  // not probed in the first round: never probed
      probed[i] = AtChild(child, [&](const Node& made) {
        return StartProbing(made, frame.players[i], frame.depth, alpha, beta,
                            frame.keys.empty() ? nullptr : &frame.keys[i]);
      });
      record = probed[i].get();
      if (record == nullptr) continue;
    } else if (record->moves.size() != rank || rank >= record->ordered.size()) {
      continue;  // probes stay a prefix of the child's move order
    }
    const open_spiel::Action action = record->ordered[rank];
    const double prob = probs[i];
    // The probe's window: where its value moves the node's bound toward the cut,
    // within what is known of the child (widened by half the tolerance, as in Star1).
    double window_low = lo[i], window_high = hi[i];
    if (record->minimizing) {
      const double lower_cut = (alpha - (sum_hi - prob * window_high) + 0.5 * tol_low) / prob;
      if (lower_cut > window_low) window_low = lower_cut;
      if (window_low >= window_high) continue;
    } else {
      const double upper_cut = (beta - (sum_lo - prob * window_low) - 0.5 * tol_high) / prob;
      if (upper_cut < window_high) window_high = upper_cut;
      if (window_high <= window_low) continue;
    }
    const double value = AtChild(child, [&](const Node& made) {
      return SearchAfter(made, action, [&](const Node& grandchild) {
        return SearchNode(grandchild, child_depth, window_low, window_high);
      });
    });
    record->moves.push_back(ProbedMove{action, value, window_low, window_high});
    if (record->minimizing ? value < window_high : value > window_low) {
      if (record->minimizing) {
        sum_hi -= prob * (window_high - value);
        hi[i] = value;
      } else {
        sum_lo += prob * (value - window_low);
        lo[i] = value;
      }
      if (std::optional<double> cut = frame.Cut(sum_hi, sum_lo)) {
        ++stats_.cutoffs_star2_probe;
        return cut;
      }
    }
  }
  return std::nullopt;
}

void Searcher::ProbeRecycler::Recycle(Searcher* searcher,
                                      std::vector<std::unique_ptr<ProbedChild>>* probes) {
  for (std::unique_ptr<ProbedChild>& record : *probes) {
    if (record == nullptr) continue;
    record->ordered.clear();
    record->moves.clear();
    record->minimizing = false;
    record->has_key = false;
    record->key = 0;
    record->reused = 0;
    searcher->spare_probes_.push_back(std::move(record));
  }
}

// mirrors: bots/star.py StarSearcher._start_probing
std::unique_ptr<Searcher::ProbedChild> Searcher::StartProbing(const Node& child, int player,
                                                              int depth, double alpha, double beta,
                                                              const Key* key) {
  if (player < 0) return nullptr;
  const bool minimizing = player != options_.player;
  if ((minimizing && alpha == -kInf) || (!minimizing && beta == kInf)) return nullptr;
  std::unique_ptr<ProbedChild> record;
  if (spare_probes_.empty()) {
    record = std::make_unique<ProbedChild>();
  } else {
    record = std::move(spare_probes_.back());
    spare_probes_.pop_back();
  }
  std::int64_t tt_move = kNoMove;
  if (table_) {
    record->key = key != nullptr ? *key : NodeKey(child);
    record->has_key = true;
    if (const Entry* entry = table_->Get(record->key)) tt_move = entry->move;
  }
  ++stats_.nodes;  // the probed decision child itself
  OrderedActions(child, player, depth, tt_move, &record->ordered);
  record->minimizing = minimizing;
  return record;
}

// mirrors: bots/probcut_models.py ProbCutSettings.model_for
const ProbCutModel& Searcher::ModelFor(int depth) const {
  const auto& models = options_.probcut_models;
  auto it = models.find(depth);
  if (it != models.end()) return it->second;
  // The nearest calibrated depth; ties go to the deeper one.
  const ProbCutModel* best = nullptr;
  int best_distance = 0, best_depth = 0;
  for (const auto& [d, model] : models) {
    const int distance = std::abs(d - depth);
    if (best == nullptr || distance < best_distance ||
        (distance == best_distance && d > best_depth)) {
      best = &model;
      best_distance = distance;
      best_depth = d;
    }
  }
  return *best;
}

// mirrors: bots/chance_probcut.py chance_probcut
std::optional<double> Searcher::ProbCut(ChanceFrame& frame) {
  std::vector<double>&lo = frame.lo, &hi = frame.hi;
  frame.has_proven = true;
  frame.proven_lo = lo;
  frame.proven_hi = hi;
  const ProbCutModel& model = ModelFor(frame.depth);
  const int shallow_depth = frame.depth - options_.probcut_reduction;
  std::vector<double> probable_lo = lo, probable_hi = hi;
  {
    // Shallow searches inside shallow searches count their nodes once.
    NestedCount counting(probcut_level_, stats_.nodes, stats_.probcut_nodes);
    for (std::size_t i = 0; i < frame.children.size(); ++i) {
      if (lo[i] == hi[i]) continue;
      const auto [shallow, mover] = AtChild(frame.children[i], [&](const Node& child) {
        return std::pair<double, int>(SearchNode(child, shallow_depth, -kInf, kInf),
                                      PlayerAt(*child.state));
      });
      double predicted, sigma;
      if (model.has_mover && mover >= 0) {
        const double sign = mover == options_.player ? 1.0 : -1.0;
        predicted = model.mover_a * shallow + sign * model.mover_b;
        sigma = model.mover_sigma;
      } else {
        predicted = model.a * shallow + model.b;
        sigma = model.sigma;
      }
      const double margin = options_.probcut_t * sigma;
      if (predicted - margin > probable_lo[i]) probable_lo[i] = std::min(predicted - margin, hi[i]);
      if (predicted + margin < probable_hi[i]) probable_hi[i] = std::max(predicted + margin, lo[i]);
    }
  }
  const auto [expected_hi, expected_lo] = frame.Expected(probable_hi, probable_lo);
  if (std::optional<double> cut = frame.Cut(expected_hi, expected_lo)) {
    ++stats_.cutoffs_probcut;
    return cut;
  }
  lo = std::move(probable_lo);
  hi = std::move(probable_hi);
  return std::nullopt;
}

// --------------------------------------------------------------------- MCMS

// mirrors: bots/mcms.py ChanceSampling.sampled_outcomes
const Searcher::Outcomes* Searcher::SampledOutcomes(const Node& node) {
  // bots/mcms.py sampling_key: the table key's text, or the history digest.
  std::string text;
  Key key;
  if (options_.key_kind == KeyKind::kDigest) {
    key = use_digest_ ? node.digest : HistoryDigest(node.state->History());
    text = DecimalText(key);
  } else if (options_.key_kind == KeyKind::kScheme) {
    text = scheme_->sampling_text(*node.state);
    key = TextKey(text);
  } else if (options_.key_kind == KeyKind::kCallback) {
    text = options_.sampling_text(*node.state);
    key = TextKey(options_.key_text(*node.state));
  } else {
    const std::vector<open_spiel::Action> history = node.state->History();
    text = "(";
    for (std::size_t i = 0; i < history.size(); ++i) {
      text += (i ? "," : "") + std::to_string(history[i]);
    }
    text += ")," + std::to_string(node.state->CurrentPlayer()) + "," +
            PythonRepr(node.state->ToString());
    text = "(" + text + ")";
    key = TextKey(text);
  }
  auto it = draws_.find(key);
  if (it != draws_.end()) {
    if (it->second.has_value()) {
      ++stats_.sample_reuses;
      return &*it->second;
    }
    return nullptr;
  }
  const Outcomes outcomes = node.state->ChanceOutcomes();
  std::optional<Outcomes> draws;
  if (static_cast<int>(outcomes.size()) > options_.samples) {
    draws = McmsDrawOutcomes(outcomes, options_.samples, options_.sampling_seed, text);
    stats_.samples_drawn += options_.samples;
  }
  if (draws_.size() >= kDrawCacheSize) draws_.clear();
  auto inserted = draws_.emplace(key, std::move(draws)).first;
  return inserted->second.has_value() ? &*inserted->second : nullptr;
}

// -------------------------------------------------------------------- max^n

namespace {

// bots/maxn.py _better: more for `player`, or as much by a smaller action id.
// mirrors: bots/maxn.py _better
bool Better(const std::vector<double>& values, std::int64_t action, const std::vector<double>& best,
            std::int64_t best_action, int player) {
  return values[player] > best[player] || (values[player] == best[player] && action < best_action);
}

}  // namespace

// mirrors: bots/maxn.py MaxnBounds.problem
void Searcher::CheckVector(const Vector& values, bool terminal) const {
  // bots/maxn.py MaxnBounds.problem; the message is built only on an error.
  std::string problem;
  if (static_cast<int>(values.size()) != num_players_) {
    problem = "has " + std::to_string(values.size()) + " components for " +
              std::to_string(num_players_) + " players";
  }
  for (int p = 0; problem.empty() && p < num_players_; ++p) {
    if (!(maxn_lower_ <= values[p] && values[p] <= maxn_upper_)) {
      problem = "gives player " + std::to_string(p) + " " + Repr(values[p]) +
                ", outside the bounds [" + Repr(maxn_lower_) + ", " + Repr(maxn_upper_) +
                "]; max^n's shallow pruning needs every component within them: fix the "
                "evaluator or declare wider `bounds`";
    }
  }
  if (problem.empty() && maxn_pruning_) {
    double total = 0.0;
    for (double value : values) total += value;
    if (!(std::fabs(total - maxn_total_) <= maxn_tolerance_)) {
      problem = "sums to " + Repr(total) + ", but the game's utilities sum to " +
                Repr(maxn_total_) +
                "; max^n's shallow pruning needs every value vector to keep that sum: fix the "
                "evaluator";
    }
  }
  if (problem.empty()) return;
  throw LeafValueOutOfBounds(
      (terminal ? "a terminal's returns " : "evaluator " + evaluator_name_ + " ") + problem +
      " (game " + game_->ToString() + ")");
}

// mirrors: bots/maxn.py MaxnSearcher._leaf_vector
Searcher::Vector Searcher::LeafVector(const Node& node) {
  ++stats_.evaluations;
  Vector values(num_players_);
  if (leaf_vector_) {
    leaf_vector_(*node.state, &values);
  } else {
    for (int p = 0; p < num_players_; ++p) values[p] = leaf_(*node.state, p);
  }
  CheckVector(values, false);
  return values;
}

// mirrors: bots/maxn.py MaxnSearcher._terminal_vector
Searcher::Vector Searcher::TerminalVector(const Node& node) {
  Vector values = node.state->Returns();
  CheckVector(values, true);
  return values;
}

// mirrors: bots/maxn.py MaxnSearcher._maxn_root
RootResult Searcher::MaxnRoot(const Node& node, int player, int depth,
                              const std::vector<std::int64_t>& root_order, RootResult* partial) {
  ++stats_.nodes;
  Key key = 0;
  const std::vector<open_spiel::Action> actions =
      RootActions(node, player, depth, root_order, &key);
  RootResult result;
  for (open_spiel::Action action : actions) {
    const double bound = result.values.empty() ? -kInf : result.values[player];
    Vector values = SearchAfter(
        node, action, [&](const Node& child) { return Maxn(child, depth - 1, player, bound); });
    if (result.values.empty() || Better(values, action, result.values, result.action, player)) {
      result.values = std::move(values);
      result.action = action;
      if (partial != nullptr) {
        partial->has_partial = true;
        partial->partial_value = result.values[options_.player];
        partial->partial_action = action;
        partial->partial_values = result.values;
      }
    }
  }
  result.value = result.values[options_.player];
  if (result.action != kNoMove) RewardMove(player, result.action, depth);
  if (table_) table_->Store(key, depth, -kInf, kInf, result.action);
  return result;
}

// mirrors: bots/maxn.py MaxnSearcher._maxn
Searcher::Vector Searcher::Maxn(const Node& node, int depth, int parent, double bound) {
  const int kind = Enter(node, depth);
  if (kind >= 0) return MaxnDecision(node, kind, depth, parent, bound);
  if (kind == kChance) return MaxnChance(node, depth);
  return kind == kFrontierNode ? LeafVector(node) : TerminalVector(node);
}

// mirrors: bots/maxn.py MaxnSearcher._maxn_decision
Searcher::Vector Searcher::MaxnDecision(const Node& node, int player, int depth, int parent,
                                        double bound) {
  std::int64_t tt_move = kNoMove;
  Key key = 0;
  if (table_) {
    key = NodeKey(node);
    if (const Entry* entry = table_->Get(key)) tt_move = entry->move;
  }
  ActionLease own_actions(this);
  OrderedActions(node, player, depth, tt_move, &own_actions.list());
  const std::vector<open_spiel::Action>& actions = own_actions.list();
  // Shallow pruning: cut once this node's best for its mover exceeds cut_above.
  const double cut_above = maxn_pruning_ && parent >= 0 && parent != player && bound > -kInf
                               ? maxn_offset_ - bound
                               : kInf;
  Vector best;
  std::int64_t best_action = actions[0];
  for (open_spiel::Action action : actions) {
    const double child_bound = best.empty() ? -kInf : best[player];
    Vector values = SearchAfter(node, action, [&](const Node& child) {
      return Maxn(child, depth - 1, player, child_bound);
    });
    if (best.empty() || Better(values, action, best, best_action, player)) {
      best = std::move(values);
      best_action = action;
      if (best[player] > cut_above) {
        ++stats_.cutoffs_alpha_beta;
        break;
      }
    }
  }
  if (options_.move_ordering) RewardMove(player, best_action, depth);
  if (table_) table_->Store(key, depth, -kInf, kInf, best_action);
  return best;
}

// mirrors: bots/maxn.py MaxnSearcher._maxn_chance
Searcher::Vector Searcher::MaxnChance(const Node& node, int depth) {
  if (options_.samples > 0) {
    if (const Outcomes* sampled = SampledOutcomes(node)) {
      ++stats_.sampled_chance_nodes;
      const Outcomes draws = *sampled;  // the cache may be cleared below
      return MaxnAverage(node, draws, depth);
    }
  }
  return MaxnAverage(node, node.state->ChanceOutcomes(), depth);
}

// mirrors: bots/maxn.py MaxnSearcher._maxn_chance
Searcher::Vector Searcher::MaxnAverage(const Node& node, const Outcomes& outcomes, int depth) {
  Vector totals(num_players_, 0.0);
  for (const auto& [action, prob] : outcomes) {
    const Vector values =
        SearchAfter(node, action, [&](const Node& child) { return Maxn(child, depth, -1, -kInf); });
    for (int p = 0; p < num_players_; ++p) totals[p] += prob * values[p];
  }
  return totals;
}

}  // namespace starspiel
