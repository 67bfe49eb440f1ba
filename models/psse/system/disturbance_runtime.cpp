// models/psse/system/disturbance_runtime.cpp -- see disturbance_runtime.h.
#include "psse/system/disturbance_runtime.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "psse/io/psse_text.h"

namespace lsdae::psse {

namespace {

std::vector<std::string> split(const std::string& list, char sep) {
  std::vector<std::string> out;
  std::stringstream s(list);
  std::string item;
  while (std::getline(s, item, sep)) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

int whole(double v) { return static_cast<int>(std::lround(v)); }

std::string number_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

kit::Variable flag(const std::string& name, const std::string& description) {
  kit::Variable x;
  x.name = name;
  x.description = description;
  x.causality = kit::Causality::local;
  x.variability = kit::Variability::discrete;
  x.initial = kit::Initial::calculated;
  return x;
}

}  // namespace

DisturbanceRuntime::DisturbanceRuntime(const Network& net, Disturbances spec) : net_(net), spec_(std::move(spec)) {
  const std::size_t n = net.buses.size();
  fault_candidate_.assign(n, false);
  loadstep_candidate_.assign(n, false);
  bus_switched_.assign(n, false);
  branch_switched_.assign(net.branches.size(), false);

  auto bus_list = [&](const std::string& text, const char* key, std::vector<int> defaults, std::vector<bool>& mark,
                      std::string& shown) {
    std::vector<int> buses;
    if (text == "all") {
      for (std::size_t i = 0; i < n; ++i)
        if (!net.buses[i].star_point) buses.push_back(net.buses[i].number);
    } else if (text.empty()) {
      buses = std::move(defaults);
    } else {
      for (const std::string& item : split(text, ',')) {
        const auto v = parse_integer(item);
        if (!v) throw std::invalid_argument(std::string("model configuration: ") + key + " lists \"" + item +
                                            "\", not a bus number → give bus numbers, or all");
        buses.push_back(*v);
      }
    }
    for (int b : buses) {
      if (b == 0) continue;
      if (net.index_of.count(b) == 0)
        throw std::invalid_argument(std::string("model configuration: ") + key + " names bus " + std::to_string(b) +
                                    ", which is not an in-service bus of the case → correct the list");
      mark[net.bus_index(b)] = true;
      bus_switched_[net.bus_index(b)] = true;
      shown += (shown.empty() ? "" : ",") + std::to_string(b);
    }
    if (text == "all") shown = "all";
    if (shown.empty()) shown = "none";
  };
  std::vector<int> fault_buses, step_buses;
  for (const auto& f : spec_.faults) fault_buses.push_back(f.bus);
  for (const auto& s : spec_.load_steps) step_buses.push_back(s.bus);
  bus_list(spec_.fault_buses, "fault_buses", fault_buses, fault_candidate_, fault_text_);
  bus_list(spec_.loadstep_buses, "loadstep_buses", step_buses, loadstep_candidate_, loadstep_text_);

  // Trip candidates, by (I, J, circuit).
  std::vector<TripKey> keys;
  if (spec_.trip_branches == "all") {
    for (const BranchStamp& b : net.branches) {
      const auto ckt = parse_integer(b.ckt);
      if (!ckt) continue;
      TripKey k{b.raw_from, b.raw_to, *ckt};
      bool seen = false;
      for (const TripKey& o : keys) seen = seen || (o.from == k.from && o.to == k.to && o.ckt == k.ckt);
      if (!seen) keys.push_back(k);
    }
  } else if (spec_.trip_branches.empty()) {
    for (const auto& t : spec_.trips)
      if (t.from != 0) keys.push_back({t.from, t.to, t.ckt});
  } else {
    for (const std::string& item : split(spec_.trip_branches, ',')) {
      const auto parts = split(item, '-');
      std::optional<int> a, b, c;
      if (parts.size() == 3) a = parse_integer(parts[0]), b = parse_integer(parts[1]), c = parse_integer(parts[2]);
      if (!a || !b || !c)
        throw std::invalid_argument("model configuration: trip_branches lists \"" + item +
                                    "\", not FROM-TO-CIRCUIT → write e.g. 101-102-1, or all");
      keys.push_back({*a, *b, *c});
    }
  }
  for (const TripKey& k : keys) {
    TripTarget target;
    for (std::size_t i = 0; i < net.branches.size(); ++i) {
      const BranchStamp& b = net.branches[i];
      const auto ckt = parse_integer(b.ckt);
      const bool ends = (b.raw_from == k.from && b.raw_to == k.to) || (b.raw_from == k.to && b.raw_to == k.from);
      if (!ends || !ckt || *ckt != k.ckt) continue;
      target.branches.push_back(i);
      branch_switched_[i] = true;
      if (b.kind == BranchStamp::Kind::winding) {
        target.grounded_star = b.to;
        bus_switched_[b.to] = true;
      }
    }
    if (target.branches.empty())
      throw std::invalid_argument("model configuration: no in-service branch or transformer " + std::to_string(k.from) +
                                  "-" + std::to_string(k.to) + " circuit " + std::to_string(k.ckt) +
                                  " to trip → check the bus numbers and the circuit");
    targets_.push_back(std::move(target));
    target_keys_.push_back(k);
    trip_text_ += (trip_text_.empty() ? "" : ",") + std::to_string(k.from) + "-" + std::to_string(k.to) + "-" +
                  std::to_string(k.ckt);
  }
  if (spec_.trip_branches == "all") trip_text_ = "all";
  if (trip_text_.empty()) trip_text_ = "none";
}

void DisturbanceRuntime::declare(kit::Builder& b) {
  auto slot = [](const char* kind, std::size_t k) { return std::string(kind) + "[" + std::to_string(k + 1) + "]."; };
  for (std::size_t k = 0; k < spec_.faults.size(); ++k) {
    const FaultSpec& f = spec_.faults[k];
    const std::string s = slot("fault", k);
    fault_p_.push_back(b.parameter(s + "bus", f.bus, "", "bus number of the three-phase fault (0: none); one of " +
                                                              fault_text_));
    b.parameter(s + "t_on", f.t_on, "s", "time the fault starts");
    b.parameter(s + "t_off", f.t_off, "s", "time the fault is cleared");
    b.parameter(s + "R", f.r, "", "fault resistance, p.u. on the system base");
    b.parameter(s + "X", f.x, "", "fault reactance, p.u. on the system base");
    fault_flag_.push_back(b.add(flag(s + "active", "1 while the fault is on")));
  }
  for (std::size_t k = 0; k < spec_.trips.size(); ++k) {
    const TripSpec& t = spec_.trips[k];
    const std::string s = slot("trip", k);
    trip_p_.push_back(b.parameter(s + "from", t.from, "", "from bus of the branch or transformer tripped (0: none); "
                                                          "candidates " + trip_text_));
    b.parameter(s + "to", t.to, "", "to bus of the branch or transformer tripped");
    b.parameter(s + "ckt", t.ckt, "", "circuit id (numeric)");
    b.parameter(s + "time", t.time, "s", "time the branch is opened");
    trip_flag_.push_back(b.add(flag(s + "open", "1 once the branch is open")));
  }
  for (std::size_t k = 0; k < spec_.gen_trips.size(); ++k) {
    const GenTripSpec& g = spec_.gen_trips[k];
    const std::string s = slot("gentrip", k);
    gentrip_p_.push_back(b.parameter(s + "bus", g.bus, "", "bus of the generator tripped (0: none)"));
    b.parameter(s + "id", g.id, "", "machine id (numeric)");
    b.parameter(s + "time", g.time, "s", "time the generator is disconnected");
    gentrip_flag_.push_back(b.add(flag(s + "open", "1 once the generator is disconnected")));
  }
  for (std::size_t k = 0; k < spec_.load_steps.size(); ++k) {
    const LoadStepSpec& l = spec_.load_steps[k];
    const std::string s = slot("loadstep", k);
    loadstep_p_.push_back(b.parameter(s + "bus", l.bus, "", "bus of the load step (0: none); one of " + loadstep_text_));
    b.parameter(s + "time", l.time, "s", "time the load is added");
    b.parameter(s + "P", l.p, "MW", "active power at 1 p.u. voltage (constant admittance)");
    b.parameter(s + "Q", l.q, "Mvar", "reactive power at 1 p.u. voltage (constant admittance)");
    loadstep_flag_.push_back(b.add(flag(s + "on", "1 once the load is added")));
  }
}

void DisturbanceRuntime::resolve(const double* v, ActiveDisturbances& out) const {
  out.faults.clear();
  out.trips.clear();
  out.gen_trips.clear();
  out.load_steps.clear();
  for (std::size_t k = 0; k < fault_p_.size(); ++k) {
    const kit::ValueRef p = fault_p_[k];
    const int bus = whole(v[p]);
    ActiveDisturbances::Fault f;
    f.t_on = v[p + 1];
    f.t_off = v[p + 2];
    if (bus != 0) {
      auto it = net_.index_of.find(bus);
      if (it == net_.index_of.end() || !fault_candidate_[it->second])
        throw std::invalid_argument("fault[" + std::to_string(k + 1) + "].bus = " + number_text(v[p]) +
                                    ": not one of the buses this FMU can fault (fault_buses=" + fault_text_ +
                                    ") → rebuild it with fault_buses=" + std::to_string(bus) + " (or all), or choose one of " +
                                    fault_text_);
      const Complex z(v[p + 3], v[p + 4]);
      if (z == Complex())
        throw std::invalid_argument("fault[" + std::to_string(k + 1) +
                                    "]: R = X = 0 is an infinite admittance → give the fault a reactance, e.g. X = 1e-4");
      f.bus = it->second;
      f.admittance = 1.0 / z;
    }
    out.faults.push_back(f);
  }
  for (std::size_t k = 0; k < trip_p_.size(); ++k) {
    const kit::ValueRef p = trip_p_[k];
    ActiveDisturbances::Trip t;
    t.time = v[p + 3];
    const int from = whole(v[p]), to = whole(v[p + 1]), ckt = whole(v[p + 2]);
    if (from != 0) {
      for (std::size_t i = 0; i < target_keys_.size(); ++i) {
        const TripKey& key = target_keys_[i];
        if (key.ckt == ckt && ((key.from == from && key.to == to) || (key.from == to && key.to == from)))
          t.target = &targets_[i];
      }
      if (t.target == nullptr)
        throw std::invalid_argument("trip[" + std::to_string(k + 1) + "] = " + std::to_string(from) + "-" +
                                    std::to_string(to) + " circuit " + std::to_string(ckt) +
                                    ": not one of the branches this FMU can trip (trip_branches=" + trip_text_ +
                                    ") → rebuild it with that branch in trip_branches (or all), or choose one of " +
                                    trip_text_);
    }
    out.trips.push_back(t);
  }
  for (std::size_t k = 0; k < gentrip_p_.size(); ++k) {
    const kit::ValueRef p = gentrip_p_[k];
    ActiveDisturbances::GenTrip g;
    g.time = v[p + 2];
    if (whole(v[p]) != 0) g.unit = "G:" + std::to_string(whole(v[p])) + ":" + std::to_string(whole(v[p + 1]));
    out.gen_trips.push_back(g);
  }
  for (std::size_t k = 0; k < loadstep_p_.size(); ++k) {
    const kit::ValueRef p = loadstep_p_[k];
    ActiveDisturbances::LoadStep l;
    l.time = v[p + 1];
    const int bus = whole(v[p]);
    if (bus != 0) {
      auto it = net_.index_of.find(bus);
      if (it == net_.index_of.end() || !loadstep_candidate_[it->second])
        throw std::invalid_argument("loadstep[" + std::to_string(k + 1) + "].bus = " + number_text(v[p]) +
                                    ": not one of the buses this FMU can step (loadstep_buses=" + loadstep_text_ +
                                    ") → rebuild it with loadstep_buses=" + std::to_string(bus) + " (or all)");
      l.bus = it->second;
      l.admittance = Complex(v[p + 2], -v[p + 3]) / net_.sbase;
    }
    out.load_steps.push_back(l);
  }
}

void DisturbanceRuntime::set_flags(double t, const ActiveDisturbances& a, double* v) const {
  for (std::size_t k = 0; k < a.faults.size(); ++k)
    v[fault_flag_[k]] = a.faults[k].bus != kNone && t >= a.faults[k].t_on && t < a.faults[k].t_off ? 1.0 : 0.0;
  for (std::size_t k = 0; k < a.trips.size(); ++k)
    v[trip_flag_[k]] = a.trips[k].target != nullptr && t >= a.trips[k].time ? 1.0 : 0.0;
  for (std::size_t k = 0; k < a.gen_trips.size(); ++k)
    v[gentrip_flag_[k]] = !a.gen_trips[k].unit.empty() && t >= a.gen_trips[k].time ? 1.0 : 0.0;
  for (std::size_t k = 0; k < a.load_steps.size(); ++k)
    v[loadstep_flag_[k]] = a.load_steps[k].bus != kNone && t >= a.load_steps[k].time ? 1.0 : 0.0;
}

std::optional<double> DisturbanceRuntime::next_event(double t, const ActiveDisturbances& a) const {
  std::optional<double> next;
  auto consider = [&](bool exists, double time) {
    if (exists && time > t && (!next || time < *next)) next = time;
  };
  for (const auto& f : a.faults) {
    consider(f.bus != kNone, f.t_on);
    consider(f.bus != kNone, f.t_off);
  }
  for (const auto& tr : a.trips) consider(tr.target != nullptr, tr.time);
  for (const auto& g : a.gen_trips) consider(!g.unit.empty(), g.time);
  for (const auto& l : a.load_steps) consider(l.bus != kNone, l.time);
  return next;
}

}  // namespace lsdae::psse
