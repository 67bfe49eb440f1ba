// models/powergrid/disturbance.cpp -- see disturbance.h.
#include "powergrid/disturbance.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace lsdae::powergrid {

namespace {

std::string number_text(double value) {
  std::ostringstream out;
  out.precision(15);
  out << value;
  return out.str();
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

long parse_integer(const std::string& key, const std::string& item) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(item, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != item.size() || item.empty())
    throw std::invalid_argument("model configuration: " + key + " has \"" + item +
                                "\" → give a comma-separated list of numbers, all or none");
  return value;
}

// A parameter that must be a whole number: returns it, or throws.
long whole(double value, const char* name, const std::string& what) {
  if (!std::isfinite(value) || value != std::floor(value) || std::abs(value) > 2e9)
    throw std::invalid_argument(std::string(name) + " = " + number_text(value) + " is not " + what +
                                " → give a whole number (0 for none)");
  return static_cast<long>(value);
}

}  // namespace

DisturbanceCandidates::DisturbanceCandidates(const GridData& grid, const std::string& fault_buses,
                                             const std::string& trip_branches)
    : fault_bus_(grid.bus_number.size(), false), trip_branch_(grid.branches.size(), false) {
  for (std::size_t i = 0; i < grid.bus_number.size(); ++i) bus_index_.emplace(grid.bus_number[i], i);
  for (std::size_t k = 0; k < grid.branches.size(); ++k) branch_index_.emplace(grid.branches[k].case_row, k);

  fault_text_ = fault_buses.empty() ? "none" : fault_buses;
  if (fault_text_ == "all") fault_bus_.assign(fault_bus_.size(), true);
  else if (fault_text_ != "none")
    for (const std::string& item : split_list(fault_text_)) {
      const std::size_t i = bus_index(parse_integer("fault_buses", item));
      if (i == kNoIndex)
        throw std::invalid_argument("model configuration: fault_buses names bus " + item + ", which " + grid.name +
                                    " does not have → list bus numbers of the case");
      fault_bus_[i] = true;
    }

  trip_text_ = trip_branches.empty() ? "none" : trip_branches;
  if (trip_text_ == "all") trip_branch_.assign(trip_branch_.size(), true);
  else if (trip_text_ != "none")
    for (const std::string& item : split_list(trip_text_)) {
      const std::size_t k = branch_index(parse_integer("trip_branches", item));
      if (k == kNoIndex)
        throw std::invalid_argument("model configuration: trip_branches names branch row " + item + ", which is not an "
                                    "in-service branch of " + grid.name + " → list rows of mpc.branch with status 1");
      trip_branch_[k] = true;
    }
}

std::size_t DisturbanceCandidates::bus_index(long number) const {
  const auto it = bus_index_.find(number);
  return it == bus_index_.end() ? kNoIndex : it->second;
}

std::size_t DisturbanceCandidates::branch_index(long case_row) const {
  const auto it = branch_index_.find(case_row);
  return it == branch_index_.end() ? kNoIndex : it->second;
}

std::optional<double> Disturbance::next_event(double t) const {
  std::optional<double> next;
  auto consider = [&](double time) {
    if (time > t && (!next || time < *next)) next = time;
  };
  if (fault_bus != kNoIndex) {
    consider(t_on);
    consider(t_off);
  }
  if (trip_branch != kNoIndex) consider(t_trip);
  return next;
}

Disturbance resolve(const DisturbanceCandidates& c, const DisturbanceParameters& p, const std::string& grid) {
  Disturbance d;
  const long bus = whole(p.fault_bus, "fault.bus", "a bus number");
  if (bus != 0) {
    d.fault_bus = c.bus_index(bus);
    if (d.fault_bus == kNoIndex)
      throw std::invalid_argument("fault.bus = " + std::to_string(bus) + ": " + grid +
                                  " has no such bus → choose a bus number of the case (0 for no fault)");
    if (!c.fault_candidate(d.fault_bus))
      throw std::invalid_argument("fault.bus = " + std::to_string(bus) + ": not one of the buses this FMU can fault (" +
                                  "fault_buses=" + c.fault_text() + ") → rebuild it with fault_buses=" +
                                  std::to_string(bus) + " (or all), or choose one of " + c.fault_text());
    if (!(p.fault_t_off >= p.fault_t_on))
      throw std::invalid_argument("fault.t_off = " + number_text(p.fault_t_off) + " s is before fault.t_on = " +
                                  number_text(p.fault_t_on) + " s → clear the fault after it starts");
    const Complex z(p.fault_r, p.fault_x);
    if (z == Complex(0.0, 0.0) || !std::isfinite(p.fault_r) || !std::isfinite(p.fault_x))
      throw std::invalid_argument("fault.R = " + number_text(p.fault_r) + ", fault.X = " + number_text(p.fault_x) +
                                  " → give the fault a finite, non-zero impedance (e.g. fault.X = 1e-4)");
    d.fault_admittance = 1.0 / z;
    d.t_on = p.fault_t_on;
    d.t_off = p.fault_t_off;
  }
  const long row = whole(p.trip_branch, "trip.branch", "a branch row");
  if (row != 0) {
    d.trip_branch = c.branch_index(row);
    if (d.trip_branch == kNoIndex)
      throw std::invalid_argument("trip.branch = " + std::to_string(row) + ": " + grid +
                                  " has no in-service branch in that row of mpc.branch → choose an in-service "
                                  "branch (0 for no trip)");
    if (!c.trip_candidate(d.trip_branch))
      throw std::invalid_argument("trip.branch = " + std::to_string(row) +
                                  ": not one of the branches this FMU can trip (trip_branches=" + c.trip_text() +
                                  ") → rebuild it with trip_branches=" + std::to_string(row) +
                                  " (or all), or choose one of " + c.trip_text());
    d.t_trip = p.trip_time;
  }
  return d;
}

}  // namespace lsdae::powergrid
