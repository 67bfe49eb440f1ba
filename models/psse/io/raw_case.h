// models/psse/io/raw_case.h -- a PSS/E power-flow case (.raw, versions 32,
// 33 and 34) as the reader keeps it: the records the network and the dynamic
// models need, in file order, each with its line; and a note for every
// section read but not used, and every section skipped.
//
// Units as in the file (PSS/E Program Operation Manual, "Power Flow Raw Data
// File Contents"): powers in MW / Mvar, voltages in p.u. and degrees, branch
// impedances in p.u. on the system base, generator impedances on MBASE,
// transformer data in the units its CW, CZ, CM codes say (network.h converts).
#ifndef LSDAE_MODELS_PSSE_IO_RAW_CASE_H
#define LSDAE_MODELS_PSSE_IO_RAW_CASE_H

#include <array>
#include <complex>
#include <string>
#include <vector>

namespace lsdae::psse {

struct RawBus {
  int number = 0;
  std::string name;
  double base_kv = 0;
  int type = 1;  // IDE: 1 load (PQ), 2 generator (PV), 3 swing, 4 isolated
  int area = 1, zone = 1, owner = 1;
  double vm = 1.0, va = 0.0;  // p.u., degrees
  int line = 0;
};

struct RawLoad {
  int bus = 0;
  std::string id;
  int status = 1;
  int area = 1, zone = 1;
  double pl = 0, ql = 0;  // constant power, MW / Mvar
  double ip = 0, iq = 0;  // constant current, MW / Mvar at 1 p.u. voltage
  double yp = 0, yq = 0;  // constant admittance, MW / Mvar at 1 p.u. (YQ < 0 inductive)
  int owner = 1;
  double scale = 1;
  int line = 0;
};

struct RawFixedShunt {
  int bus = 0;
  std::string id;
  int status = 1;
  double gl = 0, bl = 0;  // MW / Mvar at 1 p.u. (BL > 0 capacitive)
  int line = 0;
};

struct RawGenerator {
  int bus = 0;
  std::string id;
  double pg = 0, qg = 0;    // MW / Mvar
  double qt = 9999, qb = -9999;
  double vs = 1.0;          // voltage set point, p.u.
  int ireg = 0;             // regulated bus (0: own)
  double mbase = 0;         // MVA (0 in the file: SBASE)
  double zr = 0, zx = 1.0;  // ZSORCE, p.u. on MBASE
  double rt = 0, xt = 0, gtap = 1.0;  // step-up transformer (unused when XT = 0)
  int status = 1;
  double rmpct = 100, pt = 9999, pb = -9999;
  int line = 0;
};

struct RawBranch {
  int from = 0, to = 0;
  std::string ckt;
  double r = 0, x = 0, b = 0;          // p.u. on SBASE, total charging
  double gi = 0, bi = 0, gj = 0, bj = 0;  // line shunts at the ends, p.u.
  int status = 1;
  int line = 0;
  bool switching_device = false;       // a v34 system switching device (R = 0, B = 0)
};

struct RawWinding {
  double windv = 1.0, nomv = 0, ang = 0;  // ratio or kV (CW), nominal kV, degrees
  int cod = 0, cont = 0, ntp = 33, tab = 0;
  double rma = 1.1, rmi = 0.9, vma = 1.1, vmi = 0.9;
};

struct RawTransformer {
  int i = 0, j = 0, k = 0;  // k = 0: two windings
  std::string ckt;
  int cw = 1, cz = 1, cm = 1;
  double mag1 = 0, mag2 = 0;
  std::string name;
  int status = 1;  // 3 windings: 0 all out, 2 winding 2 out, 3 winding 3 out, 4 winding 1 out
  double r12 = 0, x12 = 0, sbase12 = 0, r23 = 0, x23 = 0, sbase23 = 0, r31 = 0, x31 = 0, sbase31 = 0;
  double vmstar = 1.0, anstar = 0;
  std::array<RawWinding, 3> w;
  int line = 0;
  bool three_winding() const { return k != 0; }
};

struct RawSwitchedShunt {
  int bus = 0;
  int modsw = 1, adjm = 0, status = 1;
  double vswhi = 1, vswlo = 1;
  int swrem = 0;
  double rmpct = 100;
  double binit = 0;  // Mvar at 1 p.u., the present setting
  std::vector<std::pair<int, double>> blocks;  // (N, B) steps
  int line = 0;
};

// A transformer impedance correction table: the factor F(T) by which the
// impedance of a winding naming it (TAB) is multiplied, T its ratio or phase
// shift angle. v32/33: real factors on one line (I, T1, F1, ..., T11, F11);
// v34: complex factors, I, T1, Re(F1), Im(F1), ... over as many lines as
// needed, ended by a point 0.0, 0.0, 0.0.
struct RawImpedanceCorrection {
  int number = 0;
  std::vector<double> t;
  std::vector<std::complex<double>> f;
  int line = 0;
};

struct RawCase {
  std::string path;
  int version = 33;
  int ic = 0;
  double sbase = 100.0;
  double frequency = 60.0;  // BASFRQ (0 in the file: 60)
  std::array<std::string, 2> title;
  double thrshz = 0.0001;   // zero-impedance threshold (v34 system-wide GENERAL; default otherwise)
  double pqbrak = 0.7;      // constant-power load breakpoint (v34 system-wide GENERAL; default otherwise)
  std::vector<RawBus> buses;
  std::vector<RawLoad> loads;
  std::vector<RawFixedShunt> fixed_shunts;
  std::vector<RawGenerator> generators;
  std::vector<RawBranch> branches;      // non-transformer branches, then (v34) switching devices
  std::vector<RawTransformer> transformers;
  std::vector<RawSwitchedShunt> switched_shunts;
  std::vector<RawImpedanceCorrection> impedance_corrections;
  std::vector<std::string> notes;       // "areas: 4 records read (not used)", "FACTS devices: skipped", ...
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_IO_RAW_CASE_H
