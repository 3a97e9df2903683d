// Native twin of bots/evaluators/maedn.py (MaednEvaluator), two players.
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
  explicit MaednEvaluator(bool opposite) {
    // Board position (seat) of each player as OpenSpiel seats two players.
    auto seat = [opposite](int player) {
      return opposite && (player == 1 || player == 2) ? 3 - player : player;
    };
    for (int player = 0; player < 2; ++player) {
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
    std::array<float, maedn::kStateEncodingSize> tensor;
    m.ObservationTensor(0, absl::MakeSpan(tensor));
    std::array<Piece, maedn::kNumPiecesPerPlayer> p0, p1;
    const int n0 = Pieces(tensor, 0, &p0);
    const int n1 = Pieces(tensor, 1, &p1);
    const double r0 = Remaining(p0, n0, p1, n1);
    const double r1 = Remaining(p1, n1, p0, n0);
    const double x = (r1 - r0) / 3.5;
    const double v = evaluators::kShrink * std::tanh(x / (0.8 * std::sqrt((r0 + r1) / 3.5) + 1.0));
    return player == 1 ? -v : v;
  }

 private:
  // The player's pieces on its track, in str(state) order; returns how many.
  int Pieces(const std::array<float, maedn::kStateEncodingSize>& tensor, int player,
             std::array<Piece, maedn::kNumPiecesPerPlayer>* out) {
    int n = 0;
    for (const Field& f : fields_[player]) {
      if (tensor[f.tensor_index] != 0.0f) {
        if (n == maedn::kNumPiecesPerPlayer) {
          throw std::logic_error("MaednEvaluator: more than 4 pieces");
        }
        (*out)[n++] = {f.rel, f.track};
      }
    }
    return n;
  }

  // MaednEvaluator._remaining: 170 minus progress, plus 1/6 of the progress
  // of each piece an enemy piece 1..6 fields behind can throw out.
  static double Remaining(const std::array<Piece, 4>& own, int n_own,
                          const std::array<Piece, 4>& enemy, int n_enemy) {
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

  std::vector<Field> fields_[2];
};

std::unique_ptr<Evaluator> MakeMaednEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "maedn", "MaednEvaluator");
  if (game.NumPlayers() != 2) {
    throw std::invalid_argument("MaednEvaluator supports 2 players, got " +
                                std::to_string(game.NumPlayers()));
  }
  if (game.ObservationTensorSize() != maedn::kStateEncodingSize) {
    throw std::invalid_argument(
        "MaednEvaluator expects a " + std::to_string(maedn::kStateEncodingSize) +
        "-entry observation tensor, got " + std::to_string(game.ObservationTensorSize()));
  }
  const bool opposite = evaluators::BoolParameter(game.GetParameters(), "twoPlayersOpposite", true);
  return std::make_unique<MaednEvaluator>(opposite);
}

const bool kRegistered = RegisterEvaluator("maedn", MakeMaednEvaluator);

}  // namespace
}  // namespace starspiel
