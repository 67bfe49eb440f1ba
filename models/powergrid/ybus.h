// models/powergrid/ybus.h -- the bus admittance matrix of a MATPOWER case.
//
// Each in-service branch is a π model with series admittance ys = 1/(r + jx),
// total charging susceptance b and a complex tap t = τ·e^(jθ) at the from end
// (τ = TAP, 1 when TAP = 0; θ = SHIFT in degrees). With V_f, V_t its terminal
// voltages, the currents into the branch are
//     I_f = y_ff V_f + y_ft V_t,   I_t = y_tf V_f + y_tt V_t,
//     y_tt = ys + j b/2,  y_ff = y_tt / τ²,  y_ft = −ys / conj(t),  y_tf = −ys / t
// (MATPOWER manual, section 3.2, equations 3.1–3.4, and makeYbus.m). Bus
// shunts add (GS + j BS)/baseMVA to the diagonal. Reference: R. D. Zimmerman,
// C. E. Murillo-Sánchez, MATPOWER User's Manual, version 7.1 (2020).
//
// Buses are indexed 0..n−1 in file order. Cost O(branches + buses log).
// Trusts the Case (read_matpower_case validated it).
#ifndef LSDAE_MODELS_POWERGRID_YBUS_H
#define LSDAE_MODELS_POWERGRID_YBUS_H

#include <complex>
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "powergrid/complex_csr.h"
#include "powergrid/matpower_case.h"

namespace lsdae::powergrid {

// Bus numbers <-> 0-based indices (file order).
struct BusNumbering {
  std::vector<int> number;                       // index -> bus number
  std::unordered_map<int, std::size_t> index;   // bus number -> index
};
BusNumbering number_buses(const Case& c);

// The four entries a branch adds to the admittance matrix (p.u. on baseMVA).
struct BranchAdmittance {
  Complex yff, yft, ytf, ytt;
};
BranchAdmittance branch_admittance(const Branch& b);

// One entry to add into a matrix, and their sum as a CSR matrix (gridcore).
using grid::assemble_csr;
using grid::ComplexTriplet;

// Ybus of the in-service branches and the bus shunts.
ComplexCsr make_ybus(const Case& c, const BusNumbering& buses);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_YBUS_H
