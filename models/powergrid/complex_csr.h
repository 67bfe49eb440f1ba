// models/powergrid/complex_csr.h -- the complex CSR matrix of models/gridcore,
// under the names this folder uses.
#ifndef LSDAE_MODELS_POWERGRID_COMPLEX_CSR_H
#define LSDAE_MODELS_POWERGRID_COMPLEX_CSR_H

#include "gridcore/complex_csr.h"

namespace lsdae::powergrid {

using grid::check_csr;
using grid::Complex;
using grid::ComplexCsr;

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_COMPLEX_CSR_H
