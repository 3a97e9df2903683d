#include "bots/native/bindings.h"

namespace starspiel {
void BindSearch(pybind11::module_& m) {}
}  // namespace starspiel
