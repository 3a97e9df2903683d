// einstein_wurfelt_nicht's fast paths for the native search (registry.h): move
// generation, the player to move, moves applied and undone by field restore, and its
// table key from its fields (its private members: einstein_wurfelt_nicht_fields.h). Not
// the game's own undo: after some undos its later moves differ from a clone's (OpenSpiel
// 2.0.2).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bots/native/adapters/einstein_wurfelt_nicht_fields.h"
#include "bots/native/adapters/registry.h"
#include "bots/native/field_lists.h"
#include "bots/native/internals_gate.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel_utils.h"

namespace starspiel {
namespace {

open_spiel::Player EinsteinCurrentPlayer(const open_spiel::State& state) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  if (typeid(state) != typeid(ewn::EinsteinWurfeltNichtState)) return state.CurrentPlayer();
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  // EinsteinWurfeltNichtState::IsTerminal, inline.
  const bool ended = s.*kEwnWinner >= 0 || (s.*kEwnCubes)[0] == 0 || (s.*kEwnCubes)[1] == 0;
  return ended ? open_spiel::kTerminalPlayerId : s.*kEwnCurPlayer;
}

bool EinsteinLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  if (typeid(state) != typeid(ewn::EinsteinWurfeltNichtState)) return false;
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  const open_spiel::Player player = EinsteinCurrentPlayer(state);  // no virtual calls
  if (player == open_spiel::kChancePlayerId || player == open_spiel::kTerminalPlayerId) {
    return false;
  }
  const auto color = static_cast<ewn::Color>(player);
  // AvailableCubesPosition: the cube showing the die, else the nearest value below
  // it and the nearest above it, in board order.
  struct Place {
    int value, row, col;
  };
  Place lowest{0, 0, 0}, highest{7, 0, 0};
  Place exact{-1, 0, 0};
  for (int r = 0; r < s.*kEwnRows && exact.value < 0; ++r) {
    for (int c = 0; c < s.*kEwnCols; ++c) {
      const ewn::Cube& cube = (s.*kEwnBoard)[r * (s.*kEwnCols) + c];
      if (cube.color != color) continue;
      if (cube.value == s.*kEwnDieRoll) {
        exact = {cube.value, r, c};
        break;
      }
      if (cube.value > lowest.value && cube.value < s.*kEwnDieRoll) {
        lowest = {cube.value, r, c};
      } else if (cube.value < highest.value && cube.value > s.*kEwnDieRoll) {
        highest = {cube.value, r, c};
      }
    }
  }
  Place cubes[2];
  int count = 0;
  if (exact.value >= 0) {
    cubes[count++] = exact;
  } else {
    if (lowest.value > 0) cubes[count++] = lowest;
    if (highest.value < 7) cubes[count++] = highest;
    if (count == 2 &&
        std::make_pair(cubes[1].row, cubes[1].col) < std::make_pair(cubes[0].row, cubes[0].col)) {
      std::swap(cubes[0], cubes[1]);
    }
  }
  // Each cube's three forward directions (black's first three, white's last).
  static constexpr int kDirections = 6;
  static constexpr int kRowOffsets[kDirections] = {1, 1, 0, -1, -1, 0};
  static constexpr int kColOffsets[kDirections] = {1, 0, 1, 0, -1, -1};
  actions->clear();
  actions->reserve(kDirections / 2 * 2);  // one allocation for a new list, none for a reused one
  for (int i = 0; i < count; ++i) {
    for (int o = 0; o < kDirections / 2; ++o) {
      const int dir = player * kDirections / 2 + o;
      const int rp = cubes[i].row + kRowOffsets[dir];
      const int cp = cubes[i].col + kColOffsets[dir];
      if (rp < 0 || rp >= s.*kEwnRows || cp < 0 || cp >= s.*kEwnCols) continue;
      const bool capture = (s.*kEwnBoard)[rp * (s.*kEwnCols) + cp].color != ewn::Color::kEmpty;
      // RankActionMixedBase over (rows, columns, directions, capture).
      actions->push_back(((cubes[i].row * (s.*kEwnCols) + cubes[i].col) * kDirections + dir) * 2 +
                         (capture ? 1 : 0));
    }
  }
  return true;
}

#if defined(__SSE2__)
// Eight bytes of 0-15 as 32 bits, byte i at bits 4i.
inline std::uint64_t PackNibbles(std::uint64_t bytes) {
  bytes = (bytes | (bytes >> 4)) & 0x00FF00FF00FF00FFull;
  bytes = (bytes | (bytes >> 8)) & 0x0000FFFF0000FFFFull;
  return (bytes | (bytes >> 16)) & 0xFFFFFFFFull;
}

// EinsteinFieldsKey's cell codes of cubes[0..3] as four 32-bit lanes, its
// `outside` bits added to *outside. A cube is its colour's byte, three bytes of
// padding (masked off) and its value.
inline __m128i FourEinsteinCodes(const open_spiel::einstein_wurfelt_nicht::Cube* cubes,
                                 __m128i* outside) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  static_assert(sizeof(ewn::Cube) == 8 && offsetof(ewn::Cube, value) == 4);
  const __m128 first = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cubes)));
  const __m128 second =
      _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cubes + 2)));
  const __m128i color =
      _mm_and_si128(_mm_castps_si128(_mm_shuffle_ps(first, second, _MM_SHUFFLE(2, 0, 2, 0))),
                    _mm_set1_epi32(0xFF));
  const __m128i value = _mm_castps_si128(_mm_shuffle_ps(first, second, _MM_SHUFFLE(3, 1, 3, 1)));
  const __m128i empty =
      _mm_cmpeq_epi32(color, _mm_set1_epi32(static_cast<int>(ewn::Color::kEmpty)));
  const __m128i next = _mm_add_epi32(value, _mm_set1_epi32(1));
  const __m128i bad = _mm_or_si128(_mm_srli_epi32(color, 1),
                                   _mm_or_si128(_mm_srli_epi32(value, 3), _mm_srli_epi32(next, 3)));
  *outside = _mm_or_si128(*outside, _mm_andnot_si128(empty, bad));
  const __m128i code = _mm_add_epi32(_mm_sub_epi32(_mm_slli_epi32(color, 3), color), next);
  return _mm_andnot_si128(empty, code);
}
#endif

// bots/keys.py einstein_key: (player, str(state), move_number % 4, die); the
// string prints each cell of the default 5x5 board as its color and value,
// empty cells without their value. Where every field fits, the key is the
// fields themselves packed into 128 bits (exact, and cheaper than the
// digest): four bits a cell, then the player, the turn parity and the die, with
// the top bit set, which no digest (< 2^127 - 1) has. Otherwise a digest.
Key EinsteinFieldsKey(const open_spiel::State& state) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  const auto& einstein = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  const int player = EinsteinCurrentPlayer(state);
  const std::int64_t die = player >= 0 ? state.FullHistory().back().action : -1;
  const int parity = state.MoveNumber() % 4;
  constexpr int kCells = ewn::kDefaultRows * ewn::kDefaultColumns;
  static_assert(kCells > 16 && kCells <= 25, "the packed key holds 17 to 25 cells");
  // Four bits a cell: 0 empty, 1-7 black 0-6, 8-14 white 0-6. A board with a
  // colour or a value outside those (never in the rules) is keyed by the digest
  // below. A cell is plain when empty, or black or white with a value from 0 to 6:
  // `outside` collects, from the other cells only, a colour bit above 1 or a
  // value bit above 2 after adding one (in 64 bits, so -1 counts too).
  std::uint64_t outside = 0;
  const auto cell_code = [&einstein, &outside](int cell) -> std::uint64_t {
    const ewn::Cube& cube = (einstein.*kEwnBoard)[cell];
    const std::uint64_t color = static_cast<std::uint8_t>(cube.color);
    const std::uint64_t value = static_cast<std::uint32_t>(cube.value);
    const std::uint64_t occupied =
        static_cast<std::uint64_t>(color == static_cast<std::uint8_t>(ewn::Color::kEmpty)) - 1;
    outside |= ((color >> 1) | ((value + 1) >> 3)) & occupied;
    return (color * 7 + value + 1) & occupied;
  };
  std::uint64_t low = 0, high = 0;
#if defined(__SSE2__)
  // The same codes four cells at a time (the key was a quarter of a search's
  // instructions cell by cell), then packed four bits apart.
  static_assert(kCells == 25, "the vector path reads cells 0-23, then cell 24 alone");
  const ewn::Cube* board = (einstein.*kEwnBoard).data();
  __m128i outside4 = _mm_setzero_si128();
  const __m128i bytes_low = _mm_packus_epi16(
      _mm_packs_epi32(FourEinsteinCodes(board, &outside4), FourEinsteinCodes(board + 4, &outside4)),
      _mm_packs_epi32(FourEinsteinCodes(board + 8, &outside4),
                      FourEinsteinCodes(board + 12, &outside4)));
  const __m128i bytes_high =
      _mm_packus_epi16(_mm_packs_epi32(FourEinsteinCodes(board + 16, &outside4),
                                       FourEinsteinCodes(board + 20, &outside4)),
                       _mm_setzero_si128());
  low = PackNibbles(static_cast<std::uint64_t>(_mm_cvtsi128_si64(bytes_low))) |
        PackNibbles(
            static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes_low, bytes_low))))
            << 32;
  high = PackNibbles(static_cast<std::uint64_t>(_mm_cvtsi128_si64(bytes_high))) | cell_code(24)
                                                                                      << 32;
  if (_mm_movemask_epi8(_mm_cmpeq_epi32(outside4, _mm_setzero_si128())) != 0xFFFF) outside = 1;
#else
  for (int cell = 0; cell < 16; ++cell) low |= cell_code(cell) << (4 * cell);
  for (int cell = 16; cell < kCells; ++cell) high |= cell_code(cell) << (4 * (cell - 16));
#endif
  const bool plain = outside == 0;
  const bool packs = plain && player + 8 >= 0 && player + 8 < 16 && die + 2 >= 0 && die + 2 < 16;
  if (packs) {
    high |= static_cast<std::uint64_t>(player + 8) << 36 |
            static_cast<std::uint64_t>(parity) << 40 | static_cast<std::uint64_t>(die + 2) << 44 |
            std::uint64_t{1} << 63;
    return static_cast<Key>(high) << 64 | low;
  }
  Key key = 0xE175;
  key = ExtendDigest(key, static_cast<std::uint64_t>(static_cast<std::uint32_t>(player + 8)) << 32 |
                              static_cast<std::uint64_t>(parity) << 16 |
                              static_cast<std::uint64_t>(die + 2));
  std::uint64_t word = 0;
  int bytes = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const ewn::Cube& cube = (einstein.*kEwnBoard)[cell];
    std::uint64_t code;
    if (cube.color == ewn::Color::kEmpty) {
      code = 0xFF;
    } else {
      if (cube.value < 0 || cube.value >= 64) {
        open_spiel::SpielFatalError("einstein key: a cube value outside 0..63");
      }
      code = static_cast<std::uint64_t>(cube.color == ewn::Color::kBlack ? 0 : 64) |
             static_cast<std::uint64_t>(cube.value);
    }
    word = word << 8 | code;
    if (++bytes == 8) {
      key = ExtendDigest(key, word);
      word = 0;
      bytes = 0;
    }
  }
  return ExtendDigest(key, word << 8 | static_cast<std::uint64_t>(bytes));
}

bool IsEinsteinState(const open_spiel::State& state) {
  return FieldPathsOn() &&
         typeid(state) == typeid(open_spiel::einstein_wurfelt_nicht::EinsteinWurfeltNichtState);
}

namespace ewn = open_spiel::einstein_wurfelt_nicht;

// The scalar fields every EinStein move may change, saved and restored alike by
// the whole-state snapshot and by a move's delta.
struct EinsteinScalars {
  int cur_player, prev_player, winner, turns, die_roll;
  std::array<int, 2> cubes;

  void ReadFrom(const ewn::EinsteinWurfeltNichtState& s) {
    cur_player = s.*kEwnCurPlayer;
    prev_player = s.*kEwnPrevPlayer;
    winner = s.*kEwnWinner;
    turns = s.*kEwnTurns;
    die_roll = s.*kEwnDieRoll;
    cubes = s.*kEwnCubes;
  }
  void WriteTo(ewn::EinsteinWurfeltNichtState& s) const {
    s.*kEwnCurPlayer = cur_player;
    s.*kEwnPrevPlayer = prev_player;
    s.*kEwnWinner = winner;
    s.*kEwnTurns = turns;
    s.*kEwnDieRoll = die_roll;
    s.*kEwnCubes = cubes;
  }
};

struct EinsteinFields {
  EinsteinScalars scalars;
  int total_moves;
  std::array<ewn::Cube, ewn::k2dMaxBoardSize> board;
  std::size_t turn_info_size;
};

bool EinsteinApplies(const open_spiel::State& state) {
  return typeid(state) == typeid(ewn::EinsteinWurfeltNichtState);
}

void EinsteinSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  EinsteinFields& fields = StoreIn<EinsteinFields>(state, snapshot);
  fields.scalars.ReadFrom(s);
  fields.total_moves = s.*kEwnTotalMoves;
  fields.board = s.*kEwnBoard;
  fields.turn_info_size = (s.*kEwnTurnHistoryInfo).size();
}

void EinsteinRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinFields& fields = LoadFrom<EinsteinFields>(state, snapshot);
  fields.scalars.WriteTo(s);
  s.*kEwnTotalMoves = fields.total_moves;
  s.*kEwnBoard = fields.board;
  CutTo(s.*kEwnTurnHistoryInfo, fields.turn_info_size);
}

// What one of EinsteinApply's moves changes: the scalar fields, the two cells a
// decision writes (-1 for a die roll) and the length of turn_history_info_.
struct EinsteinDelta {
  EinsteinScalars scalars;
  int from, to;
  ewn::Cube from_cube, to_cube;
  std::size_t turn_info_size;
};

__attribute__((always_inline)) inline void SaveEinsteinDelta(const open_spiel::State& state,
                                                             int from, int to, Snapshot* snapshot) {
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  EinsteinDelta& delta = StoreIn<EinsteinDelta>(state, snapshot);
  delta.scalars.ReadFrom(s);
  delta.from = from;
  delta.to = to;
  if (from >= 0) {
    delta.from_cube = (s.*kEwnBoard)[from];
    delta.to_cube = (s.*kEwnBoard)[to];
  }
  delta.turn_info_size = (s.*kEwnTurnHistoryInfo).size();
}

void EinsteinUndo(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinDelta& delta = LoadFrom<EinsteinDelta>(state, snapshot);
  delta.scalars.WriteTo(s);
  if (delta.from >= 0) {
    (s.*kEwnBoard)[delta.from] = delta.from_cube;
    (s.*kEwnBoard)[delta.to] = delta.to_cube;
  }
  CutTo(s.*kEwnTurnHistoryInfo, delta.turn_info_size);
}

// EinsteinWurfeltNichtState::DoApplyAction for a decision or a die roll (OpenSpiel 2.0.2), then
// State::ApplyAction's history and move number: the move unranked without
// UnrankActionMixedBase's vectors (a fifth of a search's instructions).
// With `snapshot`, what the move changes is saved there first (EinsteinDelta).
bool EinsteinApplySaving(open_spiel::State* state, open_spiel::Action action, Snapshot* snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  // EinsteinWurfeltNichtState::IsTerminal, inline (a virtual call at every move).
  if (s.*kEwnWinner >= 0 || (s.*kEwnCubes)[0] == 0 || (s.*kEwnCubes)[1] == 0 || action < 0)
    return false;
  if (s.*kEwnCurPlayer == open_spiel::kChancePlayerId) {
    // A die roll; the two setups (turns_ -1 and 0) and odd actions are left to the game.
    if (s.*kEwnTurns < 1 || action > 5) return false;
    if (snapshot != nullptr) SaveEinsteinDelta(*state, -1, -1, snapshot);
    (s.*kEwnTurnHistoryInfo)
        .push_back(ewn::TurnHistoryInfo(open_spiel::kChancePlayerId, s.*kEwnPrevPlayer,
                                        s.*kEwnDieRoll, static_cast<int>(action),
                                        ewn::Cube{ewn::Color::kEmpty, -1}));
    s.*kEwnCurPlayer = 1 - (s.*kEwnPrevPlayer);
    s.*kEwnPrevPlayer = s.*kEwnCurPlayer;
    s.*kEwnDieRoll = static_cast<int>(action) + 1;
    ++(s.*kEwnTurns);
    RecordMove(state, open_spiel::kChancePlayerId, action);
    return true;
  }
  if (s.*kEwnCurPlayer < 0 || s.*kEwnDieRoll < 1 || s.*kEwnDieRoll > 6) {
    return false;  // the game's own checks speak for these
  }
  static constexpr int kDirections = 6;
  static constexpr std::array<int, kDirections> kRowOffsets = {1, 1, 0, -1, -1, 0};
  static constexpr std::array<int, kDirections> kColOffsets = {1, 0, 1, 0, -1, -1};
  // RankActionMixedBase over (rows, columns, directions, capture).
  const bool capture = action % 2 == 1;
  const int dir = static_cast<int>(action / 2 % kDirections);
  const std::int64_t from = action / (2 * kDirections);
  const int r1 = static_cast<int>(from / (s.*kEwnCols)),
            c1 = static_cast<int>(from % (s.*kEwnCols));
  const int r2 = r1 + kRowOffsets[dir], c2 = c1 + kColOffsets[dir];
  if (r1 >= s.*kEwnRows || r2 < 0 || r2 >= s.*kEwnRows || c2 < 0 || c2 >= s.*kEwnCols) return false;
  const open_spiel::Player player = s.*kEwnCurPlayer;
  if (snapshot != nullptr) {
    SaveEinsteinDelta(*state, r1 * (s.*kEwnCols) + c1, r2 * (s.*kEwnCols) + c2, snapshot);
  }
  ewn::Cube& target = (s.*kEwnBoard)[r2 * (s.*kEwnCols) + c2];
  if (target.color == ewn::Color::kBlack) {
    --(s.*kEwnCubes)[ewn::kBlackPlayerId];
  } else if (target.color == ewn::Color::kWhite) {
    --(s.*kEwnCubes)[ewn::kWhitePlayerId];
  }
  const ewn::Cube captured = capture ? target : ewn::Cube{ewn::Color::kEmpty, -1};
  (s.*kEwnTurnHistoryInfo)
      .push_back(ewn::TurnHistoryInfo(s.*kEwnCurPlayer, s.*kEwnPrevPlayer, s.*kEwnDieRoll,
                                      static_cast<int>(action), captured));
  target = (s.*kEwnBoard)[r1 * (s.*kEwnCols) + c1];
  (s.*kEwnBoard)[r1 * (s.*kEwnCols) + c1] = ewn::Cube{ewn::Color::kEmpty, -1};
  if ((s.*kEwnCurPlayer == 0 && r2 == s.*kEwnRows - 1 && c2 == s.*kEwnCols - 1) ||
      (s.*kEwnCubes)[ewn::kWhitePlayerId] == 0) {
    s.*kEwnWinner = 0;
  } else if ((s.*kEwnCurPlayer == 1 && r2 == 0 && c2 == 0) ||
             (s.*kEwnCubes)[ewn::kBlackPlayerId] == 0) {
    s.*kEwnWinner = 1;
  }
  s.*kEwnCurPlayer = open_spiel::kChancePlayerId;
  ++(s.*kEwnTurns);
  RecordMove(state, player, action);
  return true;
}

bool EinsteinApply(open_spiel::State* state, open_spiel::Action action) {
  return EinsteinApplySaving(state, action, nullptr);
}

bool SameEinsteinFields(const open_spiel::State& a, const open_spiel::State& b) {
  const auto& x = static_cast<const ewn::EinsteinWurfeltNichtState&>(a);
  const auto& y = static_cast<const ewn::EinsteinWurfeltNichtState&>(b);
  auto same_cube = [](const ewn::Cube& p, const ewn::Cube& q) {
    return p.color == q.color && p.value == q.value;
  };
  for (std::size_t i = 0; i < (x.*kEwnBoard).size(); ++i) {
    if (!same_cube((x.*kEwnBoard)[i], (y.*kEwnBoard)[i])) return false;
  }
  if ((x.*kEwnTurnHistoryInfo).size() != (y.*kEwnTurnHistoryInfo).size()) return false;
  for (std::size_t i = 0; i < (x.*kEwnTurnHistoryInfo).size(); ++i) {
    const ewn::TurnHistoryInfo& p = (x.*kEwnTurnHistoryInfo)[i];
    const ewn::TurnHistoryInfo& q = (y.*kEwnTurnHistoryInfo)[i];
    if (p.player != q.player || p.prev_player != q.prev_player || p.die_roll_ != q.die_roll_ ||
        p.action != q.action || !same_cube(p.captured_cube, q.captured_cube)) {
      return false;
    }
  }
  return x.*kEwnCurPlayer == y.*kEwnCurPlayer && x.*kEwnPrevPlayer == y.*kEwnPrevPlayer &&
         x.*kEwnWinner == y.*kEwnWinner && x.*kEwnTotalMoves == y.*kEwnTotalMoves &&
         x.*kEwnTurns == y.*kEwnTurns && x.*kEwnCubes == y.*kEwnCubes &&
         x.*kEwnRows == y.*kEwnRows && x.*kEwnCols == y.*kEwnCols &&
         x.*kEwnDieRoll == y.*kEwnDieRoll;
}

// bots/keys.py's einstein_key: (player, str(state), move_number % 4, die).
std::string EinsteinText(const open_spiel::State& state) {
  const int player = state.CurrentPlayer();
  const long die = player >= 0 ? static_cast<long>(state.History().back()) : -1;
  return std::to_string(player) + '|' + std::to_string(state.MoveNumber() % 4) + '|' +
         std::to_string(die) + '|' + state.ToString();
}

std::string EinsteinSamplingText(const open_spiel::State& state) {
  const int player = state.CurrentPlayer();
  const long die = player >= 0 ? static_cast<long>(state.History().back()) : -1;
  return "(" + std::to_string(player) + "," + PythonRepr(state.ToString()) + "," +
         std::to_string(state.MoveNumber() % 4) + "," + std::to_string(die) + ")";
}

constexpr FieldRestorer kEinsteinRestorer = {.applies = EinsteinApplies,
                                             .save = EinsteinSave,
                                             .restore = EinsteinRestore,
                                             .apply = EinsteinApply,
                                             .apply_saving = EinsteinApplySaving,
                                             .undo = EinsteinUndo,
                                             .same = SameEinsteinFields};

const bool kRegistered =
    RegisterGameAdapter("einstein_wurfelt_nicht", {.moves = EinsteinLegalActions,
                                                   .player = EinsteinCurrentPlayer,
                                                   .reads_private_fields = true,
                                                   .restorer = &kEinsteinRestorer}) &&
    RegisterKeyScheme("einstein_wurfelt_nicht",
                      {EinsteinText, EinsteinSamplingText, EinsteinFieldsKey, IsEinsteinState});

}  // namespace
}  // namespace starspiel
