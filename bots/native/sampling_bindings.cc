#include "bots/native/bindings.h"

namespace starspiel {
void BindSampling(pybind11::module_& m) {}
}  // namespace starspiel
