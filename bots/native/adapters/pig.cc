// pig's fast paths for the native search (registry.h): undo by field restore, its
// table key from its fields, and the private members they read.
#include "open_spiel/games/pig/pig.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "bots/native/adapters/registry.h"
#include "bots/native/field_lists.h"
#include "bots/native/internals_gate.h"
#include "bots/native/keys.h"
#include "bots/native/openspiel_internals.h"

namespace starspiel {
namespace {

// pig
STARSPIEL_OPENSPIEL_MEMBER(kPigTotalMoves, open_spiel::pig::PigState, total_moves_, int);
STARSPIEL_OPENSPIEL_MEMBER(kPigCurPlayer, open_spiel::pig::PigState, cur_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kPigTurnPlayer, open_spiel::pig::PigState, turn_player_, int);
STARSPIEL_OPENSPIEL_MEMBER(kPigScores, open_spiel::pig::PigState, scores_, std::vector<int>);
STARSPIEL_OPENSPIEL_MEMBER(kPigTurnTotal, open_spiel::pig::PigState, turn_total_, int);

// bots/keys.py pig_key, str(state): the scores, the turn total, the turn
// player and whether a roll is pending.
Key PigFieldsKey(const open_spiel::State& state) {
  const auto& pig = static_cast<const open_spiel::pig::PigState&>(state);
  const std::vector<int>& scores = pig.*kPigScores;
  const std::uint64_t rolling_bit = pig.*kPigCurPlayer == open_spiel::kChancePlayerId ? 1 : 0;
  // Two players whose fields fit: the fields themselves, packed (exact, and
  // cheaper than the digest), with the top bit set, which no digest has.
  if (scores.size() == 2 && scores[0] >= 0 && scores[1] >= 0 && pig.*kPigTurnTotal >= 0 &&
      pig.*kPigTurnPlayer >= 0 && pig.*kPigTurnPlayer < 16) {
    const std::uint64_t low = static_cast<std::uint64_t>(static_cast<std::uint32_t>(scores[0])) |
                              static_cast<std::uint64_t>(static_cast<std::uint32_t>(scores[1]))
                                  << 32;
    const auto turn_total =
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(pig.*kPigTurnTotal));
    const std::uint64_t high = turn_total | static_cast<std::uint64_t>(pig.*kPigTurnPlayer) << 32 |
                               rolling_bit << 36 | std::uint64_t{1} << 63;
    return static_cast<Key>(high) << 64 | low;
  }
  Key key = 0x9160;  // tells the scheme apart from other games' keys
  for (std::size_t i = 0; i < scores.size(); i += 2) {
    const std::uint64_t high = static_cast<std::uint32_t>(scores[i]);
    const std::uint64_t low = i + 1 < scores.size() ? static_cast<std::uint32_t>(scores[i + 1]) : 0;
    key = ExtendDigest(key, high << 32 | low);
  }
  const std::uint64_t rolling = rolling_bit;
  const std::uint64_t turn = static_cast<std::uint32_t>(pig.*kPigTurnTotal);
  const std::uint64_t player = static_cast<std::uint32_t>(pig.*kPigTurnPlayer);
  return ExtendDigest(key, turn << 32 | player << 1 | rolling);
}

bool IsPigState(const open_spiel::State& state) {
  return FieldPathsOn() && typeid(state) == typeid(open_spiel::pig::PigState);
}

constexpr std::size_t kMaxPigPlayers = 10;  // pig's own limit on players

struct PigFields {
  int total_moves, cur_player, turn_player, turn_total;
  std::array<int, kMaxPigPlayers> scores;
};

bool PigApplies(const open_spiel::State& state) {
  if (typeid(state) != typeid(open_spiel::pig::PigState)) return false;
  return (static_cast<const open_spiel::pig::PigState&>(state).*kPigScores).size() <=
         kMaxPigPlayers;
}

using PigFieldList = FieldList<
    open_spiel::pig::PigState, PigFields, FieldPair<kPigTotalMoves, &PigFields::total_moves>,
    FieldPair<kPigCurPlayer, &PigFields::cur_player>,
    FieldPair<kPigTurnPlayer, &PigFields::turn_player>,
    FieldPair<kPigTurnTotal, &PigFields::turn_total>, FieldPair<kPigScores, &PigFields::scores>>;

constexpr FieldRestorer kPigRestorer = {.applies = PigApplies,
                                        .save = PigFieldList::Save,
                                        .restore = PigFieldList::Restore,
                                        .same = PigFieldList::Same};

// bots/keys.py pig_key: the bare string (it prints the player and a pending roll); MCMS
// seeds its draws with (player, string).
const bool kRegistered =
    RegisterGameAdapter("pig", {.restorer = &kPigRestorer}) &&
    RegisterKeyScheme("pig", {[](const open_spiel::State& s) { return s.ToString(); },
                              PlayerAndStringText, PigFieldsKey, IsPigState});

}  // namespace
}  // namespace starspiel
