// bench/native/nvector_preload.cpp -- liblsdae_nvector_preload.so, a measuring
// aid: loaded with LD_PRELOAD, it interposes SUNDIALS' N_VNew_Serial so that
// every serial vector a program creates (lsdae's y, y', tolerances, id, and
// through N_VClone every vector IDA derives from them) gets the optimised
// operations of optimized_nvector.h. Results are bitwise unchanged; only the
// time of the vector kernels changes. Used by bench/scaling.py --optimized-vectors
// to measure lsdae as it would run with optimised vector kernels.
#include <dlfcn.h>
#include <nvector/nvector_serial.h>

#include "simulation/ida/optimized_nvector.h"

extern "C" N_Vector N_VNew_Serial(sunindextype length, SUNContext context) {
  using Fn = N_Vector (*)(sunindextype, SUNContext);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "N_VNew_Serial"));
  if (real == nullptr) return nullptr;
  N_Vector v = real(length, context);
  if (v != nullptr) lsdae_use_optimized_ops(v);
  return v;
}
