// models/psse/network/step_up.h -- the step-up transformer of a generator
// record (RT + jXT, GTAP), added to the network after the power flow.
//
// PSS/E Program Operation Manual, generator data: RT + jXT is the impedance
// of the generator's step-up transformer in p.u. on MBASE and GTAP its
// off-nominal ratio; XT is zero when the transformer is a branch of the case
// and bus I is the machine's terminal. When RT + jXT is not zero, bus I is
// the high-voltage side: the power flow sees the machine's PG + jQG at bus I
// (PSS/E's power flow has no internal node), and the dynamic models see the
// machine behind its transformer. lsdae therefore, after the power flow:
//   * adds a bus of its own for the machine's terminal (numbered above every
//     bus and star point; `NetworkBus::generator` names the record), and a
//     two-winding transformer from it (ratio GTAP at the terminal) to bus I
//     with Z = (RT + jXT) SBASE/MBASE, in the convention of network.h;
//   * sets the terminal voltage so that the transformer carries exactly the
//     power the generator delivers to bus I in the power flow, S_I:
//         I_I = conj(S_I / V_I),  V_t = −(I_I + y_tt V_I) / y_tf,
//     and the machine's power at its terminal to S_t = V_t conj(y_ff V_t + y_ft V_I)
//     (S_I plus the transformer's losses), from which its models initialize.
// The network's state at the case's buses does not move. Which side carries
// GTAP is not stated in the public material; no case at hand has XT != 0
// (docs/psse.md). A generator trip leaves its terminal connected to bus I
// through the transformer.
//
// Contract: throws ModelError (case_builder.h) for a record whose terminal
// cannot be computed (MBASE = 0 or GTAP = 0).
#ifndef LSDAE_MODELS_PSSE_NETWORK_STEP_UP_H
#define LSDAE_MODELS_PSSE_NETWORK_STEP_UP_H

#include <string>
#include <vector>

#include "psse/network/network.h"
#include "psse/network/power_flow.h"

namespace lsdae::psse {

// Adds the terminals and transformers to `net`, extends op.voltage and
// replaces op.generator_power by the power at the terminal for those
// generators; returns one report line (empty when no record has RT + jXT).
std::string add_step_up_transformers(const RawCase& rc, Network& net, OperatingPoint& op);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_NETWORK_STEP_UP_H
