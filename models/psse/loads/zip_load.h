// models/psse/loads/zip_load.h -- a PSS/E load record as a dynamic component:
// constant power, constant current and constant admittance parts, with the
// low-voltage change of characteristic that keeps constant-power loads
// solvable in a fault, and CONL-style conversion as an option.
//
// Load record (PSS/E POM): PL + jQL constant power (MW, Mvar), IP + jIQ
// constant current (MW, Mvar at 1 p.u.; IQ > 0 inductive), YP + jYQ constant
// admittance (MW, Mvar at 1 p.u.; YQ < 0 inductive). Consumed power, on the
// system base, at |V| = U:
//     S(U) = S_P + S_I U + conj(Y) U²        for U >= U_b
//     S(U) = (S_P + S_I U_b)(U/U_b)² + conj(Y) U²    for U < U_b
// i.e. below the breakpoint U_b (PSS/E's PQBRAK, 0.7 p.u. by default; the
// .raw's v34 system-wide value when given) the constant-power and constant-
// current parts become the constant admittance that draws the same power at
// U_b: continuous in U, and a state event (a `below` limiter on U) when it
// switches. The injected current is −conj(S/V).
//
// Conversion (PSS/E's CONL): fractions of the constant-power part, separately
// for P and Q, turned into constant current and constant admittance AT THE
// POWER-FLOW VOLTAGE U0 (so the operating point does not move):
//     P_I += a_P PL / U0,   G += b_P PL / U0²,   PL := (1 − a_P − b_P) PL  (Q alike).
// PowerSimulationsDynamics.jl's PSS/E comparisons convert every load to
// constant impedance: a = 0, b = 1.
//
// Variables: none but its limiter load[<bus>_<id>].lv.mode.
#ifndef LSDAE_MODELS_PSSE_LOADS_ZIP_LOAD_H
#define LSDAE_MODELS_PSSE_LOADS_ZIP_LOAD_H

#include <memory>
#include <string>

#include "psse/core/component.h"
#include "psse/io/raw_case.h"

namespace lsdae::psse {

struct LoadConversion {
  double p_to_current = 0, p_to_admittance = 0;  // fractions 0..1 of PL
  double q_to_current = 0, q_to_admittance = 0;  // fractions 0..1 of QL
  double breakpoint = 0.7;                       // U_b, p.u.
};

// `where` names the record in messages ("case.raw:12"); `sign` = -1 makes a
// generator without a dynamic model a negative load (its power as constant
// current).
std::unique_ptr<Component> make_zip_load(const RawLoad& load, double system_base, const LoadConversion& conversion,
                                         const std::string& where);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_LOADS_ZIP_LOAD_H
