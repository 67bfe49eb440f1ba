// models/psse/system/disturbance_runtime.h -- the disturbances of
// core/disturbances.h inside the FMU: their parameters, their candidate
// locations (which fix the manifest's dependency kinds), and, at a given
// time, which are active and where.
//
// resolve() reads the parameter values and maps them to network indices; it
// throws std::invalid_argument, in the house shape, for a location that is
// not a candidate or does not exist, e.g.
//   fault[1].bus = 5: not one of the buses this FMU can fault (fault_buses=7)
//   → rebuild it with fault_buses=5 (or all), or choose one of 7
// Trips name their branch by row (trip[k].branch) or by from, to and a
// numeric circuit; generator trips by row (gentrip[k].machine) or by bus and
// a numeric id (core/disturbances.h). Every in-service generator may be
// tripped (its unit's variables are dependent already); the branches are
// candidates as the buses are, since a trip switches admittance entries.
#ifndef LSDAE_MODELS_PSSE_SYSTEM_DISTURBANCE_RUNTIME_H
#define LSDAE_MODELS_PSSE_SYSTEM_DISTURBANCE_RUNTIME_H

#include <optional>
#include <string>
#include <vector>

#include "kit/model.h"
#include "psse/core/disturbances.h"
#include "psse/network/network.h"

namespace lsdae::psse {

inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// A trip's effect: the branch stamps it opens, and the star point it grounds.
struct TripTarget {
  std::vector<std::size_t> branches;
  std::size_t grounded_star = kNone;
};

struct ActiveDisturbances {
  struct Fault {
    std::size_t bus = kNone;
    Complex admittance;
    double t_on = 0, t_off = 0;
  };
  struct Trip {
    const TripTarget* target = nullptr;
    double time = 0;
  };
  struct GenTrip {
    std::size_t generator = kNone;  // row of Network::generators
    double time = 0;
  };
  struct LoadStep {
    std::size_t bus = kNone;
    Complex admittance;
    double time = 0;
  };
  std::vector<Fault> faults;
  std::vector<Trip> trips;
  std::vector<GenTrip> gen_trips;
  std::vector<LoadStep> load_steps;
};

class DisturbanceRuntime {
 public:
  DisturbanceRuntime(const Network& net, Disturbances spec);

  // FMU parameters (with the spec's values as starts) and the discrete flags.
  void declare(kit::Builder& b);
  // The number of variables declare() adds.
  std::size_t variable_count() const {
    return 6 * (spec_.faults.size() + spec_.trips.size()) + 5 * (spec_.gen_trips.size() + spec_.load_steps.size());
  }

  // From the parameters in v; throws std::invalid_argument (header comment).
  void resolve(const double* v, ActiveDisturbances& out) const;

  // The flags at time t (faults on, trips open, ...), written to v.
  void set_flags(double t, const ActiveDisturbances& a, double* v) const;
  // Flag values as last written (a disturbance acts when its flag is 1).
  bool fault_on(const double* v, std::size_t k) const { return v[fault_flag_[k]] != 0.0; }
  bool trip_open(const double* v, std::size_t k) const { return v[trip_flag_[k]] != 0.0; }
  bool gen_tripped(const double* v, std::size_t k) const { return v[gentrip_flag_[k]] != 0.0; }
  bool load_stepped(const double* v, std::size_t k) const { return v[loadstep_flag_[k]] != 0.0; }
  std::optional<double> next_event(double t, const ActiveDisturbances& a) const;

  // Which admittance entries a candidate disturbance can switch: the
  // diagonal of a candidate bus, the entries of a candidate branch.
  bool bus_switched(std::size_t bus) const { return bus_switched_[bus]; }
  bool branch_switched(std::size_t branch) const { return branch_switched_[branch]; }
  const std::vector<TripTarget>& targets() const { return targets_; }
  // The candidate branch rows (0-based rows of Network::branch_records).
  const std::vector<std::size_t>& trip_rows() const { return trip_rows_; }

 private:
  std::size_t find_row(int from, int to, const std::string& ckt) const;  // kNone when no candidate matches
  const Network& net_;
  Disturbances spec_;
  std::vector<bool> fault_candidate_, loadstep_candidate_, bus_switched_, branch_switched_;
  std::vector<TripTarget> targets_;    // per candidate trip row
  std::vector<std::size_t> trip_rows_; // the candidate rows, as targets_
  std::string fault_text_, trip_text_, loadstep_text_;
  std::vector<kit::ValueRef> fault_p_, trip_p_, gentrip_p_, loadstep_p_;  // first parameter of each slot
  std::vector<kit::ValueRef> fault_flag_, trip_flag_, gentrip_flag_, loadstep_flag_;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_DISTURBANCE_RUNTIME_H
