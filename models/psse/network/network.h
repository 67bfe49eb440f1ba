// models/psse/network/network.h -- the network of a PSS/E case: its buses
// (and the star points of three-winding transformers), the admittance of
// every in-service branch, transformer winding and shunt, with PSS/E's
// conventions; per unit on the system base SBASE.
//
// Conventions (PSS/E Program Operation Manual, "Power Flow Raw Data File
// Contents", and Program Application Guide, transformer model; the 4.21b
// scaling by the winding-2 ratio as PowerSystems.jl's parser quotes it):
// * Line: π model, y = 1/(R + jX); charging jB/2 at each end plus the line
//   shunts GI + jBI at bus I and GJ + jBJ at bus J. A line with R = 0 and
//   |X| < THRSHZ (a zero-impedance line, which PSS/E merges) gets X = THRSHZ.
// * Two-winding transformer: bus I — ideal ratio a1 = t1 e^(jθ1) — Z — ideal
//   ratio t2 — bus J, so
//       I_I = y/|a1|² V_I − y/(conj(a1) t2) V_J,   I_J = −y/(a1 t2) V_I + y/t2² V_J;
//   t1, t2 in p.u. of the bus base voltage from WINDV by CW (1: as given;
//   2: kV / bus base kV; 3: × NOMV / bus base kV, NOMV = 0 meaning the bus
//   base); Z to the system base by CZ (1: as given; 2: × SBASE/SBASE1-2;
//   3: R = load loss W / (10⁶ SBASE1-2), X = √(|Z|² − R²), then × SBASE/SBASE1-2);
//   the magnetizing admittance at bus I by CM (1: MAG1 + jMAG2 on SBASE;
//   2: G = no-load loss W / (10⁶ SBASE1-2), B = −√(MAG2² − G²) on SBASE1-2 and
//   NOMV1, converted).
// * Three-winding transformer: a star point (a bus of its own, at VMSTAR∠
//   ANSTAR at the start), each winding k a transformer from bus k (ratio a_k)
//   to the star (ratio 1) with Z_k of the star equivalent
//   Z1 = (Z12 + Z31 − Z23)/2, Z2 = (Z12 + Z23 − Z31)/2, Z3 = (Z23 + Z31 − Z12)/2,
//   each pair impedance on the system base by CZ with its own SBASE; a
//   winding whose star impedance is zero gets X = THRSHZ. STAT 2, 3, 4 take
//   winding 2, 3, 1 out; the magnetizing admittance at winding 1's bus.
// * Fixed shunts (GL + jBL)/SBASE and switched shunts at their present
//   setting j BINIT/SBASE (no switching during the simulation).
// * Impedance correction tables (TAB != 0 on a winding): the winding's
//   impedance (two windings: Z1-2; three windings: its star impedance Z_k)
//   is multiplied by F(T), interpolated linearly in the table at the
//   winding's ratio t_k (in p.u. of its bus base, as above) or, for a phase
//   shifter, at its angle; outside the table the end value. A phase shifter:
//   |COD| = 3 (v34), or a table whose first T < 0.5 or last T > 1.5 (v32/33,
//   PSS/E's rule). Taps do not move in a dynamic simulation, so neither does
//   the factor.
// * Isolated buses (IDE = 4) and out-of-service elements are left out.
// * Every branch and transformer record is a row of `branch_records` (the
//   lines and switching devices in file order, then the transformers), and
//   every generator record a row of `generators`: the tables by which a trip
//   or a generator trip names one (disturbances.h), printed by lsdae-grid.
// Loads are not in y: they are dynamic components (loads/zip_load.h). A
// generator's step-up transformer (RT + jXT) is added after the power flow
// (step_up.h).
//
// Contract: build_network() throws TextError ("file:line: what → seen →
// fix") for data it cannot represent: a transformer whose ratio is zero or
// whose bus has no base voltage under CW = 2 or 3, CZ = 3 with |Z| < R, a
// nothing else (values are taken as given).
#ifndef LSDAE_MODELS_PSSE_NETWORK_NETWORK_H
#define LSDAE_MODELS_PSSE_NETWORK_NETWORK_H

#include <complex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gridcore/complex_csr.h"
#include "psse/io/raw_case.h"

namespace lsdae::psse {

using grid::Complex;
using grid::ComplexCsr;

struct NetworkBus {
  int number = 0;         // PSS/E bus number; star points get numbers above every bus
  std::string name;       // "" for star points
  double base_kv = 0;
  int raw_type = 1;       // IDE (1 for a star point)
  Complex stored_voltage; // VM∠VA of the .raw (VMSTAR∠ANSTAR for a star point)
  bool star_point = false;
  int transformer = -1;   // star point: index into RawCase::transformers
  int generator = -1;     // the internal terminal of that generator record (step_up.h)
  bool internal() const { return star_point || generator >= 0; }
};

// One in-service two-terminal element with its π-model entries (p.u. on SBASE).
struct BranchStamp {
  enum class Kind { line, transformer, winding, switching_device, step_up } kind = Kind::line;
  std::size_t from = 0, to = 0;  // bus indices (a winding: from = winding bus, to = star point)
  Complex yff, yft, ytf, ytt;
  int raw_from = 0, raw_to = 0, raw_k = 0;  // the record's I, J (and K)
  std::string ckt;
  int record = -1;   // index into RawCase::branches or ::transformers
  int winding = 0;   // 1..3 for a winding of a three-winding transformer
  int line = 0;      // line of the record
  int row = -1;      // its row of Network::branch_records (-1: a step-up transformer)
};

// One branch or transformer record of the .raw, in file order (network.h).
struct BranchRecord {
  enum class Kind { line, switching_device, transformer, three_winding } kind = Kind::line;
  int from = 0, to = 0, third = 0;  // I, J (and K)
  std::string ckt;
  bool in_service = false;          // some of its stamps are in the network
  int line = 0;
  std::vector<std::size_t> stamps;  // indices into Network::branches
};

// One generator record of the .raw, in file order.
struct GeneratorRecord {
  int bus = 0;
  std::string id;
  bool in_service = false;          // in service at an in-service bus
  int line = 0;
  std::size_t terminal = static_cast<std::size_t>(-1);  // the network bus its machine sits at (bus I, or step_up.h)
};

struct Network {
  std::string path;
  double sbase = 100.0;
  double frequency = 60.0;
  std::vector<NetworkBus> buses;
  std::unordered_map<int, std::size_t> index_of;  // bus number -> index (in-service buses only)
  std::vector<BranchStamp> branches;
  std::vector<BranchRecord> branch_records;
  std::vector<GeneratorRecord> generators;
  std::vector<Complex> shunt;  // per bus: fixed and switched shunts, p.u.
  ComplexCsr y;                // branches and shunts
  std::vector<std::string> notes;

  std::size_t bus_index(int number) const;  // throws std::out_of_range
  // "line 7001-7002 circuit '1'", "transformer 7002-7003-7004 circuit '1'" (row: 0-based)
  std::string branch_label(std::size_t row) const;
};

Network build_network(const RawCase& rc);

// The admittance entries of a two-winding transformer (as above): exposed for
// the tests, which check them against the physics of ideal ratios.
struct WindingAdmittance {
  Complex yff, yft, ytf, ytt;
};
WindingAdmittance transformer_admittance(Complex y, Complex a1, double t2);

// F(x) of an impedance correction table (network.h): linear between its
// points, the end value outside them.
Complex correction_factor(const RawImpedanceCorrection& table, double x);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_NETWORK_NETWORK_H
