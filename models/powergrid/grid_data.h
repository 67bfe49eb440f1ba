// models/powergrid/grid_data.h -- the network data a PowerGrid FMU ships in
// its resources/ folder, written at build time by lsdae_grid_data (reader,
// power flow, machine initialization) and read by the model's declare() in
// the describer and in every instance. One FMU binary serves every case.
//
// Everything is per unit on the system base (baseMVA) and already solved:
// the model does no power flow and no initialization of its own.
//
//   y         admittance matrix of the pre-disturbance network: in-service
//             branches (π models with taps and phase shifts), bus shunts and
//             the loads as constant admittances (P_d − j Q_d)/|V|² at the
//             operating point; NOT the machines. Every diagonal is present.
//   branches  every in-service branch with its four π-model entries, so a
//             line trip can subtract them (their positions are in y).
//   machines  classical machines: rating, H, D, x'd (converted to the system
//             base), E', δ0 and Pm such that the model is at rest at t = 0.
//
// File format (text, one record per line, `#` starts a comment line; numbers
// are written shortest-round-trip, so reading gives the same doubles):
//   lsdae-powergrid-data 1
//   name <case name>          one word: blanks and control characters written as _, "" as unnamed
//   base_mva <MVA>
//   frequency <Hz>
//   power_flow <iterations> <largest mismatch p.u.>
//   buses <n>                  then n lines: <bus number> <Vr> <Vi>
//   admittance <nnz>           then nnz lines: <row> <col> <G> <B> (0-based, rows ascending, columns ascending)
//   branches <count>           then: <case row> <from> <to> <Gff> <Bff> <Gft> <Bft> <Gtf> <Btf> <Gtt> <Btt>
//   machines <count>           then: <case row> <bus> <rating MVA> <H s> <D> <x'd> <E'> <δ0 rad> <Pm> <P> <Q>
//   end
// Case rows are MATPOWER's 1-based row numbers in mpc.branch / mpc.gen; bus
// and from/to are 0-based bus indices.
//
// read_grid_data() validates the format, every index and the CSR invariants
// and throws std::runtime_error as "<path>:<line>: <what> → <seen> → <fix>".
#ifndef LSDAE_MODELS_POWERGRID_GRID_DATA_H
#define LSDAE_MODELS_POWERGRID_GRID_DATA_H

#include <ostream>
#include <string>
#include <vector>

#include "powergrid/complex_csr.h"

namespace lsdae::powergrid {

struct GridBranch {
  int case_row = 0;
  std::size_t from = 0, to = 0;
  Complex yff, yft, ytf, ytt;
};

struct GridMachine {
  int case_row = 0;
  std::size_t bus = 0;
  double rating_mva = 0;          // the machine's own MVA base
  double h = 0, d = 0, xd = 0;    // system base: H (s), D (p.u. power / p.u. speed), x'd (p.u.)
  double e = 0, delta0 = 0, pm = 0;  // E' (p.u.), rotor angle (rad), mechanical power (p.u.)
  double p = 0, q = 0;            // electrical output at the operating point (p.u.)
};

struct GridData {
  std::string name;
  double base_mva = 100;
  double frequency = 60;
  int power_flow_iterations = 0;
  double power_flow_mismatch = 0;
  std::vector<int> bus_number;
  std::vector<Complex> voltage;  // operating point
  ComplexCsr y;
  std::vector<GridBranch> branches;
  std::vector<GridMachine> machines;
};

void write_grid_data(const GridData& data, std::ostream& out);
void write_grid_data(const GridData& data, const std::string& path);  // throws std::runtime_error
GridData read_grid_data(const std::string& path);
// The same for the text of a file; `path` is only used in messages.
GridData parse_grid_data(std::string text, const std::string& path);

// Variable names shared by the model and the reference writers.
std::string bus_name(int bus_number, const char* part);        // bus[7].Vr
std::string machine_name(int case_row, const char* part);      // gen[2].delta

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_GRID_DATA_H
