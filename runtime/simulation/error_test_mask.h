// runtime/simulation/error_test_mask.h -- which of IDA's unknowns enter its
// local error test.
//
// Why: in an index-1 system an algebraic unknown that the equations tie to
// the derivative ẋ of a differential state (the rod force F of a pendulum,
// m·u̇₁ + F·r₁ = 0; a dummy derivative u̇₂ that follows from F) is computed
// from IDA's BDF derivative approximation y′ = y′_pred + c_j·(y − y_pred),
// c_j ~ 1/h: an error δ in y (the step's local error, what the Newton
// iteration leaves) reaches it as δ/h. Held to the tolerance in the error
// test, such a variable fails it more often the smaller h gets: the step
// size collapses and the error grows as rtol shrinks
// (issue 15: CartesianPendulum, 318 760 steps and a 10× larger error at rtol
// 1e-10 than at 1e-8; plain IDA on the index-1 pendulum behaves alike). This
// is the index-2-like behaviour for which Brenan, Campbell & Petzold (1996,
// sec. 5.4.3) and the IDA guide (IDASetSuppressAlg) exclude algebraic
// variables from the error estimate. Algebraic unknowns that the equations
// tie to the states x alone (dummy states, the network voltages of a power
// grid) are as accurate as the states and stay in the test: their output
// rows are interpolated, and the test keeps that interpolation accurate.
//
// Algorithm (structural): the system the index-1 rows form for (ẋ, z) at
// given x -- one node per IDA unknown: ẋ_k for a differential unknown k (its
// x_k is known), the unknown itself for an algebraic one; a row touches a
// differential node only through the ẋ_k column. A maximum matching gives
// each algebraic unknown j the row r(j) that determines it; j depends on ẋ
// when r(j) contains a ẋ node or an algebraic unknown that depends on ẋ
// (transitive closure by a breadth-first search on the reversed
// dependencies). Unknowns solved together in an algebraic loop reach each
// other, and the block structure of a square structurally nonsingular
// system is the same for every perfect matching (Dulmage–Mendelsohn), so
// the result does not depend on the matching found. A semi-explicit
// ẋ − f(x, z) = 0, 0 = g(x, z) leaves every z in the test. Cost: one
// matching, O(nnz·√N), and O(nnz) for the closure.
//
// Contract: mask[k] = 1 for a differential unknown and for an algebraic one
// that does not depend on ẋ, 0 for one that does. When the (ẋ, z) system
// has no perfect matching (not an index-1 system; IDA will say so) every
// unknown is 1: IDA's default, all in the test.
#ifndef LSDAE_RUNTIME_SIMULATION_ERROR_TEST_MASK_H
#define LSDAE_RUNTIME_SIMULATION_ERROR_TEST_MASK_H

#include <vector>

#include "structure/dae_system.h"
#include "structure/index1_system.h"

namespace lsdae::simulation {

std::vector<double> error_test_mask(const structure::DaeSystem& system, const structure::Index1System& index1);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_ERROR_TEST_MASK_H
