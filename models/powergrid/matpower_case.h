// models/powergrid/matpower_case.h -- reader for MATPOWER case files, format
// version 2 (the `.m` files of MATPOWER's data/ folder).
//
// Format (MATPOWER manual, appendix B "Data File Format", and `help caseformat`):
//   function mpc = <name>
//   mpc.version = '2';
//   mpc.baseMVA = 100;
//   mpc.bus = [ <rows> ];      13 columns  BUS_I BUS_TYPE PD QD GS BS BUS_AREA VM VA
//                                          BASE_KV ZONE VMAX VMIN (+ OPF results)
//   mpc.gen = [ <rows> ];      >= 10 columns GEN_BUS PG QG QMAX QMIN VG MBASE
//                                          GEN_STATUS PMAX PMIN (+ PC1 .. APF, results)
//   mpc.branch = [ <rows> ];   >= 11 columns F_BUS T_BUS BR_R BR_X BR_B RATE_A RATE_B
//                                          RATE_C TAP SHIFT BR_STATUS (+ ANGMIN ANGMAX,
//                                          results)
// Rows end with `;` or a line break; elements are separated by blanks, tabs or
// commas; `%` starts a comment; `...` continues a line; Inf, -Inf and NaN are
// numbers. Any other assignment (mpc.gencost, cell arrays such as mpc.bus_name
// or mpc.gentype, strings) is skipped. Units: powers in MW / MVAr, impedances
// in p.u. on baseMVA and the bus base kV, angles in degrees, TAP = 0 means 1.
//
// Contract: read_matpower_case() validates everything the power flow and the
// models rely on (presence of baseMVA, bus, gen and branch; column counts;
// integer fields; unique bus numbers; bus types 1..3; generator and branch
// buses that exist; status 0 or 1) and throws CaseError with the message shape
//   <file>:<line>: <what> → <value seen> → <what to do>
// Everything else (physically odd values) is left to the power flow.
// Cost: one pass over the text, O(size).
#ifndef LSDAE_MODELS_POWERGRID_MATPOWER_CASE_H
#define LSDAE_MODELS_POWERGRID_MATPOWER_CASE_H

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::powergrid {

// Thrown for every malformed input; what() is the complete message.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class BusType { pq = 1, pv = 2, slack = 3 };

struct Bus {
  int number = 0;        // BUS_I, positive, unique
  BusType type = BusType::pq;
  double pd = 0, qd = 0;  // load, MW / MVAr
  double gs = 0, bs = 0;  // shunt, MW / MVAr demanded at V = 1 p.u.
  double vm = 1, va = 0;  // stored voltage: magnitude p.u., angle degrees
  double base_kv = 0;
  int line = 0;          // line of the row in the file (1-based)
};

struct Generator {
  int bus = 0;           // GEN_BUS (a bus number)
  double pg = 0, qg = 0;  // MW / MVAr
  double qmax = 0, qmin = 0;
  double vg = 1;         // voltage set point, p.u.
  double mbase = 0;      // MVA base of the machine
  bool in_service = true;
  double pmax = 0, pmin = 0;
  int line = 0;
};

struct Branch {
  int from = 0, to = 0;  // bus numbers
  double r = 0, x = 0, b = 0;  // p.u.; b is the total line charging susceptance
  double rate_a = 0;
  double ratio = 0;      // off-nominal tap ratio at the from end; 0 means 1
  double angle = 0;      // phase shift, degrees
  bool in_service = true;
  int line = 0;
};

struct Case {
  std::string path;      // as given to the reader, used in messages
  std::string name;      // from `function mpc = <name>`, else the file stem
  double base_mva = 0;
  std::vector<Bus> buses;
  std::vector<Generator> generators;  // in file order (MATPOWER's gen index - 1)
  std::vector<Branch> branches;       // in file order (MATPOWER's branch index - 1)
};

// Reads and validates the case file at `path`. Throws CaseError.
Case read_matpower_case(const std::string& path);

// The same for text already in memory; `path` is only used in messages.
Case parse_matpower_case(std::string_view text, const std::string& path);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_MATPOWER_CASE_H
