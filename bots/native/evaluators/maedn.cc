// Native twin of bots/evaluators/maedn.py (MaednEvaluator), 2 to 4 players.
//
// Python finds the piece characters in str(state) and maps each string
// position to the field reached along the owner's track. Here the pieces come
// from the observation tensor (player 0's view holds every field), visited in
// the order of their position in str(state), because the per-piece threat
// corrections are non-integer floats whose sum depends on that order.
#include "open_spiel/games/maedn/maedn.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

namespace maedn = open_spiel::maedn;

constexpr int kRow = 22;  // 21 characters + newline in str(state)

// One field of a player's track, in str(state) order.
struct Field {
  int string_index;  // where the field's character is in str(state)
  int tensor_index;  // player 0's tensor entry "owned by player 0", + player
  int rel;           // 0..43 along the player's own track
  int track;         // absolute common field 0..39, or -1 for a goal field
};

struct Piece {
  int rel;
  int track;
};

class MaednEvaluator : public Evaluator {
 public:
  // `opposite`: twoPlayersOpposite, which seats player 1 opposite player 0
  // with two players only.
  MaednEvaluator(int num_players, bool opposite) : num_players_(num_players) {
    opposite = opposite && num_players == 2;
    // Board position (seat) of each player (MaednState::PlayerToPosition).
    auto seat = [opposite](int player) {
      return opposite && (player == 1 || player == 2) ? 3 - player : player;
    };
    for (int player = 0; player < num_players; ++player) {
      const int position = (player == 1 && opposite) ? 2 : player;
      std::vector<Field>& fields = fields_[player];
      for (int rel = 0; rel < 44; ++rel) {
        const int absolute = rel < 40 ? (rel + 10 * position) % 40 : 40 + 4 * position + rel - 40;
        int tensor;
        if (absolute < 40) {
          tensor = 4 * absolute;
        } else {
          // Goal fields come per player 0..3 in player 0's view.
          const int goal_seat = (absolute - 40) / 4;
          int owner = 0;
          while (seat(owner) != goal_seat) ++owner;
          tensor = 4 * 40 + 16 * owner + 4 * ((absolute - 40) % 4);
        }
        const maedn::Coords xy = maedn::kFieldToBoardString[absolute];
        fields.push_back({kRow * xy.y + xy.x, tensor + player, rel, rel < 40 ? absolute : -1});
      }
      std::sort(fields.begin(), fields.end(),
                [](const Field& a, const Field& b) { return a.string_index < b.string_index; });
    }
  }

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const auto& m = evaluators::StateAs<maedn::MaednState>(state, "MaednEvaluator");
    Tensor tensor;
    m.ObservationTensor(0, absl::MakeSpan(tensor));
    if (num_players_ > 2) return Values(tensor)[player];
    std::array<Piece, maedn::kNumPiecesPerPlayer> p0, p1;
    const int n0 = Pieces(tensor, 0, p0.data());
    const int n1 = Pieces(tensor, 1, p1.data());
    const double v =
        Race(Remaining(p0.data(), n0, p1.data(), n1), Remaining(p1.data(), n1, p0.data(), n0));
    return player == 1 ? -v : v;
  }

  void NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) override {
    if (num_players_ <= 2) return Evaluator::NonTerminalValues(state, values);
    const auto& m = evaluators::StateAs<maedn::MaednState>(state, "MaednEvaluator");
    Tensor tensor;
    m.ObservationTensor(0, absl::MakeSpan(tensor));
    *values = Values(tensor);
  }

 private:
  using Tensor = std::array<float, maedn::kStateEncodingSize>;

  // MaednEvaluator._race: the side with r0 to go against the side with r1.
  static double Race(double r0, double r1) {
    const double x = (r1 - r0) / 3.5;
    return evaluators::kShrink * std::tanh(x / (0.8 * std::sqrt((r0 + r1) / 3.5) + 1.0));
  }

  // MaednEvaluator._values: each player's remaining distance with every
  // other player's pieces as the enemies, each pair's race, combined.
  std::vector<double> Values(const Tensor& tensor) {
    constexpr int kPieces = maedn::kNumPiecesPerPlayer;
    const int n = num_players_;
    std::array<Piece, kPieces * maedn::kMaxNumPlayers> pieces;  // player p's from kPieces * p
    std::array<int, maedn::kMaxNumPlayers> counts;
    for (int p = 0; p < n; ++p) counts[p] = Pieces(tensor, p, &pieces[kPieces * p]);
    std::array<double, maedn::kMaxNumPlayers> remaining;
    for (int p = 0; p < n; ++p) {
      std::array<Piece, kPieces*(maedn::kMaxNumPlayers - 1)> enemies;
      int n_enemies = 0;
      for (int q = 0; q < n; ++q) {
        if (q == p) continue;
        for (int k = 0; k < counts[q]; ++k) enemies[n_enemies++] = pieces[kPieces * q + k];
      }
      remaining[p] = Remaining(&pieces[kPieces * p], counts[p], enemies.data(), n_enemies);
    }
    std::vector<double> pairs;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) pairs.push_back(Race(remaining[i], remaining[j]));
    }
    return evaluators::PairwiseWinValues(pairs, n, 1.0);
  }

  // The player's pieces on its track, in str(state) order, into out[0..4);
  // returns how many.
  int Pieces(const Tensor& tensor, int player, Piece* out) const {
    int n = 0;
    for (const Field& f : fields_[player]) {
      if (tensor[f.tensor_index] != 0.0f) {
        if (n == maedn::kNumPiecesPerPlayer) {
          throw std::logic_error("MaednEvaluator: more than 4 pieces");
        }
        out[n++] = {f.rel, f.track};
      }
    }
    return n;
  }

  // MaednEvaluator._remaining: 170 minus progress, plus 1/6 of the progress
  // of each piece an enemy piece 1..6 fields behind can throw out.
  static double Remaining(const Piece* own, int n_own, const Piece* enemy, int n_enemy) {
    double left = 170.0;
    for (int i = 0; i < n_own; ++i) {
      const Piece& piece = own[i];
      left -= piece.rel + 1;
      if (piece.track < 0) continue;
      for (int j = 0; j < n_enemy; ++j) {
        const int b = enemy[j].track;
        if (b < 0) continue;
        const int gap = ((piece.track - b) % 40 + 40) % 40;
        if (1 <= gap && gap <= 6) {
          left += (piece.rel + 1) / 6.0;
          break;
        }
      }
    }
    return left;
  }

  int num_players_;
  std::vector<Field> fields_[maedn::kMaxNumPlayers];
};

std::unique_ptr<Evaluator> MakeMaednEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "maedn", "MaednEvaluator");
  if (game.NumPlayers() < 2 || game.NumPlayers() > maedn::kMaxNumPlayers) {
    throw std::invalid_argument("MaednEvaluator supports 2 to 4 players, got " +
                                std::to_string(game.NumPlayers()));
  }
  if (game.ObservationTensorSize() != maedn::kStateEncodingSize) {
    throw std::invalid_argument(
        "MaednEvaluator expects a " + std::to_string(maedn::kStateEncodingSize) +
        "-entry observation tensor, got " + std::to_string(game.ObservationTensorSize()));
  }
  const bool opposite = evaluators::BoolParameter(game.GetParameters(), "twoPlayersOpposite", true);
  return std::make_unique<MaednEvaluator>(game.NumPlayers(), opposite);
}

const bool kRegistered = RegisterEvaluator("maedn", MakeMaednEvaluator);

}  // namespace
}  // namespace starspiel
