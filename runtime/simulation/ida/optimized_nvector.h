// runtime/simulation/ida/optimized_nvector.h -- SUNDIALS' serial N_Vector operations,
// compiled with the project's optimisation, swapped into a vector's ops table.
//
// Why: Debian 12's libsundials 6.4.1 is built without optimisation (-O0: every
// loop variable lives on the stack; see docs/performance/transmission-line.md). IDA spends most
// of a TransmissionLine run in the serial vector kernels (weighted RMS norms,
// linear sums and combinations, ~40 passes over the unknowns per step), so a
// run costs several times what the same algorithm costs optimised. The vector
// kernels are small and specified exactly by SUNDIALS (sundials_nvector.h and
// the N_Vector chapter of the user guide); re-implementing them here, with no
// change to IDA, KLU or the package, removes most of that cost.
//
// Exactness: every operation computes, element by element, the same floating-
// point expression in the same order as nvector_serial.c, including the
// special cases of N_VLinearSum that round differently (a == b: a*(x + y);
// a == -b: a*(x − y)) and sequential reductions. Results are bitwise those of
// the package, so IDA takes the same steps (checked by tl_native
// --nvector optimized against --nvector serial). The fused and vector-array
// operations stay as the package leaves them (disabled: IDA's generic
// fallbacks loop over the standard operations, i.e. over these), except
// N_VLinearCombination: the fallback's own arithmetic (N_VScale, then
// N_VLinearSum(c_i, X_i, 1, z, z) per further vector) done in one pass over
// the unknowns instead of one per vector, bitwise the same (IDA's prediction
// and interpolation; a restored ACTIVSg10k contingency spent about 3 % of its
// CPU in those passes).
//
// lsdae's integrator (ida_integrator.cpp) uses them for every IDA vector; the
// native reference solver in bench/ can switch them on and off to measure them.
//
// use_optimized_ops(v) replaces the operations of a serial vector in place
// (v from N_VNew_Serial or N_VMake_Serial); clones inherit them (N_VClone
// copies the ops table), so doing it on the y0 given to IDAInit covers every
// vector IDA creates. Precondition: N_VGetVectorID(v) == SUNDIALS_NVEC_SERIAL.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_OPTIMIZED_NVECTOR_H
#define LSDAE_RUNTIME_SIMULATION_IDA_OPTIMIZED_NVECTOR_H

#include <sundials/sundials_nvector.h>

#ifdef __cplusplus
extern "C" {
#endif

// Returns 0, or -1 (nothing changed) when v is not a serial vector.
int lsdae_use_optimized_ops(N_Vector v);

#ifdef __cplusplus
}
#endif

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_OPTIMIZED_NVECTOR_H
