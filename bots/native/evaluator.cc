#include "bots/native/evaluator.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace starspiel {
namespace {

std::map<std::string, EvaluatorFactory>& Registry() {
  static auto* registry = new std::map<std::string, EvaluatorFactory>();
  return *registry;
}

}  // namespace

bool RegisterEvaluator(const std::string& name, EvaluatorFactory factory) {
  Registry()[name] = std::move(factory);
  return true;
}

std::unique_ptr<Evaluator> MakeEvaluator(const std::string& name, const open_spiel::Game& game) {
  auto it = Registry().find(name);
  if (it == Registry().end()) {
    std::string known;
    for (const std::string& n : EvaluatorNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("no native evaluator named '" + name +
                                "'; native evaluators: " + known);
  }
  return it->second(game);
}

std::vector<std::string> EvaluatorNames() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : Registry()) names.push_back(name);
  return names;
}

}  // namespace starspiel
