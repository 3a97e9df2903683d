// chance_tic_tac_toe's fast paths for the native search (registry.h): undo (checked by hand over
// whole games).
#include "bots/native/adapters/registry.h"

namespace starspiel {
namespace {

const bool kRegistered = RegisterGameAdapter("chance_tic_tac_toe", {.undo_checked = true});

}  // namespace
}  // namespace starspiel
