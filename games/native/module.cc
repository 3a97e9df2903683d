// games._native_games: the C++ custom games' Python module. Loading it runs the games'
// static GameRegisterers, so OpenSpiel knows them under their plain names; it defines
// nothing else (games/__init__.py imports it; the engine, bots._native, links against it).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "games/native/build_info.h"

namespace {

PyModuleDef kModule = {
    PyModuleDef_HEAD_INIT,
    "_native_games",
    "starspiel's C++ custom games (games/native/), registered with OpenSpiel on import",
    -1,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit__native_games() {
  PyObject* module = PyModule_Create(&kModule);
  if (module == nullptr) return nullptr;
  if (PyModule_AddStringConstant(module, "SOURCE_DIGEST", STARSPIEL_SOURCE_DIGEST) < 0 ||
      PyModule_AddStringConstant(module, "OPEN_SPIEL_VERSION", STARSPIEL_OPEN_SPIEL_VERSION) < 0) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
