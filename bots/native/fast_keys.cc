// Table keys read from the game's own fields instead of its string.
//
// pig and einstein_wurfelt_nicht are keyed in bots/keys.py by what their
// ToString() prints. Building that string costs more than the rest of a node,
// so here the same fields are hashed directly: two states get equal keys
// exactly when their printed fields (and so their Python keys) are equal
// (tests/test_native_keys.py checks the partition against the Python keys).
// The fields are private in OpenSpiel's headers: they are named in
// openspiel_internals.h, and these keys are off for any other open_spiel
// (internals_gate.h), where the key is made from the text.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bots/native/fast_moves.h"
#include "bots/native/internals_gate.h"
#include "bots/native/keys.h"
#include "bots/native/openspiel_internals.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_utils.h"

namespace starspiel {

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

// bots/keys.py string_key for backgammon: (player, str(state)). The string
// draws each point's checkers for the player X if X has any there, else for O
// (a count from 1 to 15 drawn distinctly), then prints the turn, the previous
// player, the extra-turn flag, the dice (used ones marked), the bar and the
// scores.
Key BackgammonFieldsKey(const open_spiel::State& state) {
  namespace bg = open_spiel::backgammon;
  const auto& game = static_cast<const bg::BackgammonState&>(state);
  Key key = 0xBAC6;
  auto packed = [](std::int64_t a, std::int64_t b) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 |
           static_cast<std::uint32_t>(b);
  };
  key = ExtendDigest(key, packed(state.CurrentPlayer(), game.*kBgCurPlayer));
  key = ExtendDigest(key, packed(game.*kBgPrevPlayer, game.*kBgDoubleTurn ? 1 : 0));
  std::uint64_t dice = (game.*kBgDice).size();
  for (std::size_t i = 0; i < (game.*kBgDice).size() && i < 2; ++i) {
    dice = dice << 16 | static_cast<std::uint16_t>((game.*kBgDice)[i]);
  }
  key = ExtendDigest(key, dice);
  key = ExtendDigest(key, packed((game.*kBgBar)[bg::kXPlayerId], (game.*kBgBar)[bg::kOPlayerId]));
  key = ExtendDigest(key,
                     packed((game.*kBgScores)[bg::kXPlayerId], (game.*kBgScores)[bg::kOPlayerId]));
  std::uint64_t word = 0;
  int points = 0;
  for (int pos = 0; pos < 24; ++pos) {
    const int x = (game.*kBgBoard)[bg::kXPlayerId][pos];
    const int o = (game.*kBgBoard)[bg::kOPlayerId][pos];
    // What the string shows of the point: X's count, else O's, else nothing.
    const std::uint64_t code = x > 0 ? static_cast<std::uint64_t>(x) : o > 0 ? 128 + o : 0;
    word = word << 8 | (code & 0xFF);
    if (++points == 8) {
      key = ExtendDigest(key, word);
      word = 0;
      points = 0;
    }
  }
  return key;
}

bool IsBackgammonState(const open_spiel::State& state) {
  return FieldPathsOn() && typeid(state) == typeid(open_spiel::backgammon::BackgammonState);
}

// bots/keys.py string_key for catch: (player, str(state)). The board string shows
// the ball and the paddle, so it and the player follow from these four fields,
// packed (the top bit set, which no digest has).
Key CatchFieldsKey(const open_spiel::State& state) {
  const auto& c = static_cast<const open_spiel::catch_::CatchState&>(state);
  constexpr int kBits = 21;  // each field + 1 (they start at -1)
  auto fits = [](int value) { return value >= -1 && value < (1 << kBits) - 1; };
  if (!fits(c.*kCatchBallRow) || !fits(c.*kCatchBallCol) || !fits(c.*kCatchPaddleCol)) {
    return TextKey(std::to_string(state.CurrentPlayer()) + '|' + state.ToString());
  }
  auto field = [](int value) { return static_cast<std::uint64_t>(value + 1); };
  const std::uint64_t low = field(c.*kCatchBallRow) << (2 * kBits) |
                            field(c.*kCatchBallCol) << kBits | field(c.*kCatchPaddleCol);
  const std::uint64_t high = (c.*kCatchInitialized ? 1 : 0) | std::uint64_t{1} << 63;
  return static_cast<Key>(high) << 64 | low;
}

bool IsCatchState(const open_spiel::State& state) {
  return FieldPathsOn() && typeid(state) == typeid(open_spiel::catch_::CatchState);
}

}  // namespace starspiel
