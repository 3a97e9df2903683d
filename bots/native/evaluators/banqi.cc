// Native twin of bots/evaluators/banqi.py (BanqiEvaluator).
//
// Python counts face-up material in str(state), takes the face-down pool
// from chance_outcomes() (of the child after a flip at a decision node) and
// the colours from "(P0=...)". Here the face-up pieces come from the
// observation tensor and the pool and colours from the history: every chance
// outcome is a revealed piece, and the first one fixed the colours. The pool
// probabilities and their sum are formed exactly as Python forms them.
#include "open_spiel/games/banqi/banqi.h"

#include <array>
#include <cmath>
#include <memory>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

namespace banqi = open_spiel::banqi;

// Piece values in type order G A E R H C S (banqi.py's _BANQI_VALUES).
constexpr int kValues[banqi::kNumPieceTypes] = {6, 5, 4, 3, 2, 4, 1};

// Signed value of piece id (red 0..6 positive, black 7..13 negative).
constexpr int Signed(int piece) {
  return piece < banqi::kNumPieceTypes ? kValues[piece] : -kValues[piece - banqi::kNumPieceTypes];
}

class BanqiEvaluator : public Evaluator {
 public:
  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const auto& b = evaluators::StateAs<banqi::BanqiState>(state, "BanqiEvaluator");
    const auto& history = b.FullHistory();
    // Colours are fixed by the first revealed piece: the flipping player
    // (the entry before it) gets that piece's colour.
    int p0_color = banqi::kNoColor;
    for (size_t i = 1; i < history.size(); ++i) {
      if (history[i].player == open_spiel::kChancePlayerId) {
        const int color = banqi::PieceColor(history[i].action);
        p0_color = history[i - 1].player == 0 ? color : 1 - color;
        break;
      }
    }
    double v = 0.0;  // before colours are assigned
    if (p0_color != banqi::kNoColor) {
      v = evaluators::kShrink * std::tanh(Material(b, history) / 12.0);
      if (p0_color != banqi::kRed) v = -v;
    }
    return player == 1 ? -v : v;
  }

 private:
  // BanqiEvaluator.material: red minus black, face-down pool included.
  static double Material(const banqi::BanqiState& b,
                         const std::vector<open_spiel::State::PlayerAction>& history) {
    std::array<float, banqi::kObsTensorSize> tensor;
    b.ObservationTensor(0, absl::MakeSpan(tensor));
    int face_up = 0;
    for (int piece = 0; piece < banqi::kNumDistinctPieces; ++piece) {
      const float* channel = &tensor[piece * banqi::kNumSquares];
      int count = 0;
      for (int sq = 0; sq < banqi::kNumSquares; ++sq) count += channel[sq] != 0.0f;
      face_up += count * Signed(piece);
    }
    const float* face_down = &tensor[(banqi::kNumDistinctPieces + 1) * banqi::kNumSquares];
    int hidden = 0;
    for (int sq = 0; sq < banqi::kNumSquares; ++sq) hidden += face_down[sq] != 0.0f;
    double diff = face_up;
    if (hidden > 0) {
      // The pool: the initial pieces minus every revealed one.
      std::array<int, banqi::kNumDistinctPieces> remaining = banqi::kInitialPieceCounts;
      for (const auto& entry : history) {
        if (entry.player == open_spiel::kChancePlayerId) --remaining[entry.action];
      }
      // sum(signed * p for the chance outcomes), p = remaining / face-down.
      double pool = 0.0;
      for (int piece = 0; piece < banqi::kNumDistinctPieces; ++piece) {
        if (remaining[piece] <= 0) continue;
        const double p = static_cast<double>(remaining[piece]) / hidden;
        pool += static_cast<double>(Signed(piece)) * p;
      }
      diff += hidden * pool;
    }
    return diff;
  }
};

std::unique_ptr<Evaluator> MakeBanqiEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "banqi", "BanqiEvaluator");
  return std::make_unique<BanqiEvaluator>();
}

const bool kRegistered = RegisterEvaluator("banqi", MakeBanqiEvaluator);

}  // namespace
}  // namespace starspiel
