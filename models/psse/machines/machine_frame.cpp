// models/psse/machines/machine_frame.cpp -- see machine_frame.h (its
// functions are templates; the saturation function moved to
// core/saturation.cpp, shared with the exciters).
#include "psse/machines/machine_frame.h"
