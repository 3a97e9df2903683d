#include "games/native/common.h"

#include <stdexcept>
#include <vector>

namespace starspiel::games {

open_spiel::GameType ChanceGameType(const std::string& short_name, const std::string& long_name,
                                    const open_spiel::GameParameters& parameters, int min_players,
                                    int max_players) {
  open_spiel::GameType type{short_name,
                            long_name,
                            open_spiel::GameType::Dynamics::kSequential,
                            open_spiel::GameType::ChanceMode::kExplicitStochastic,
                            open_spiel::GameType::Information::kPerfectInformation,
                            open_spiel::GameType::Utility::kZeroSum,
                            open_spiel::GameType::RewardModel::kTerminal,
                            max_players,
                            min_players,
                            /*provides_information_state_string=*/true,
                            /*provides_information_state_tensor=*/false,
                            /*provides_observation_string=*/true,
                            /*provides_observation_tensor=*/true,
                            parameters};
  type.is_concrete = false;
  return type;
}

void ThrowNotApplicable(open_spiel::Action action, bool terminal,
                        const std::vector<open_spiel::Action>& legal) {
  if (terminal) {
    throw std::invalid_argument("cannot apply action " + std::to_string(action) +
                                ": state is terminal");
  }
  std::string shown;
  for (open_spiel::Action a : legal) shown += (shown.empty() ? "" : ", ") + std::to_string(a);
  throw std::invalid_argument("illegal action " + std::to_string(action) +
                              " in this state; legal: [" + shown + "]");
}

std::string Repr(const std::string& text) {
  // Python quotes with ' unless the text holds a ' and no ".
  const bool double_quotes =
      text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string out(1, quote);
  for (char c : text) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  return out + quote;
}

namespace {

// Python's repr of a sorted list of str.
std::string ListRepr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + Repr(items[i]);
  return out + "]";
}

}  // namespace

open_spiel::GameParameters FullParameters(const open_spiel::GameParameters& given,
                                          const open_spiel::GameParameters& spec,
                                          const std::string& game) {
  std::vector<std::string> unknown, accepted;
  for (const auto& [name, value] : given) {
    if (!spec.count(name)) unknown.push_back(name);  // std::map: sorted already
  }
  for (const auto& [name, value] : spec) accepted.push_back(name);
  if (!unknown.empty()) {
    throw std::invalid_argument(game + ": unknown parameter(s) " + ListRepr(unknown) +
                                "; accepted: " + ListRepr(accepted));
  }
  open_spiel::GameParameters full = spec;
  for (const auto& [name, value] : given) full.insert_or_assign(name, value);
  return full;
}

int CheckInt(const open_spiel::GameParameters& params, const std::string& name, std::int64_t lo,
             std::optional<std::int64_t> hi, const std::string& game, const std::string& extra) {
  const open_spiel::GameParameter& param = params.at(name);
  if (!param.has_int_value()) {
    const std::string shown =
        param.has_string_value() ? Repr(param.string_value()) : param.ToString();
    throw std::invalid_argument(game + ": parameter " + name + "=" + shown + " must be an integer" +
                                extra);
  }
  const std::int64_t value = param.int_value();
  if (value < lo || (hi && value > *hi)) {
    const std::string range = hi ? "in [" + std::to_string(lo) + ", " + std::to_string(*hi) + "]"
                                 : ">= " + std::to_string(lo);
    throw std::invalid_argument(game + ": parameter " + name + "=" + std::to_string(value) +
                                " is out of range; accepted: integers " + range + extra);
  }
  return static_cast<int>(value);
}

}  // namespace starspiel::games
