// models/powergrid/disturbance.h -- the two disturbances of the PowerGrid
// model, switched by FMI time events:
//
//   three-phase fault   a shunt admittance y_f = 1/(R_f + j X_f) at bus
//                       `fault.bus`, on for fault.t_on ≤ t < fault.t_off;
//   line trip           in-service branch `trip.branch` (its MATPOWER row)
//                       opened for t ≥ trip.time (its π-model entries are
//                       subtracted from the admittance matrix).
// Bus 0 / branch 0 means "no such disturbance".
//
// The sparsity pattern never changes: a fault only changes the diagonal of
// its bus, a trip only the four entries of its branch, and all of them are
// in the pattern. Their dependency kinds are `discrete` (they change at
// events) -- but kinds are fixed when the FMU is built, while bus and branch
// are parameters. So the FMU is built with candidate sets (configuration keys
// fault_buses and trip_branches: a comma-separated list, `all` or `none`;
// by default just the default fault bus and trip branch) whose entries are
// declared discrete, and the parameters must pick a candidate. Every other
// network coefficient is declared constant.
//
// All messages of the disturbance parameters live here; resolve() validates
// and throws std::invalid_argument, e.g.
//   fault.bus = 5: not one of the buses this FMU can fault (fault_buses=8) →
//   rebuild it with fault_buses=5 (or all), or choose one of 8
// resolve() does not allocate unless it throws (compute() calls it).
#ifndef LSDAE_MODELS_POWERGRID_DISTURBANCE_H
#define LSDAE_MODELS_POWERGRID_DISTURBANCE_H

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "powergrid/grid_data.h"

namespace lsdae::powergrid {

inline constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);

class DisturbanceCandidates {
 public:
  // Throws std::invalid_argument for a list entry that is not a bus number /
  // in-service branch row of `grid`.
  DisturbanceCandidates(const GridData& grid, const std::string& fault_buses, const std::string& trip_branches);

  bool fault_candidate(std::size_t bus) const { return fault_bus_[bus]; }
  bool trip_candidate(std::size_t branch) const { return trip_branch_[branch]; }
  // Bus index of a bus number / grid branch index of a MATPOWER branch row,
  // or kNoIndex.
  std::size_t bus_index(long number) const;
  std::size_t branch_index(long case_row) const;
  const std::string& fault_text() const { return fault_text_; }
  const std::string& trip_text() const { return trip_text_; }

 private:
  std::vector<bool> fault_bus_, trip_branch_;
  std::unordered_map<long, std::size_t> bus_index_, branch_index_;
  std::string fault_text_, trip_text_;
};

// The parameter values as the model reads them.
struct DisturbanceParameters {
  double fault_bus = 0, fault_t_on = 0, fault_t_off = 0, fault_r = 0, fault_x = 0;
  double trip_branch = 0, trip_time = 0;
};

struct Disturbance {
  std::size_t fault_bus = kNoIndex;  // bus index, or kNoIndex
  Complex fault_admittance;
  double t_on = 0, t_off = 0;
  std::size_t trip_branch = kNoIndex;  // grid branch index, or kNoIndex
  double t_trip = 0;

  bool fault_active(double t) const { return fault_bus != kNoIndex && t >= t_on && t < t_off; }
  bool trip_open(double t) const { return trip_branch != kNoIndex && t >= t_trip; }
  // The first switching time after t, if any.
  std::optional<double> next_event(double t) const;
};

Disturbance resolve(const DisturbanceCandidates& candidates, const DisturbanceParameters& p, const std::string& grid);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_DISTURBANCE_H
