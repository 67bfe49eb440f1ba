// models/psse/system/disturbance_runtime.cpp -- see disturbance_runtime.h.
#include "psse/system/disturbance_runtime.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "psse/io/psse_text.h"

namespace lsdae::psse {

namespace {

// Circuit and machine ids as PSS/E compares them: without regard to case.
bool same_id(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

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
        if (!net.buses[i].internal()) buses.push_back(net.buses[i].number);
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

  // Trip candidates: rows of the branch table, named FROM-TO-CIRCUIT (or all).
  std::vector<std::size_t> rows;
  auto row_of = [&](int from, int to, const std::string& ckt, const std::string& item) {
    for (std::size_t r = 0; r < net.branch_records.size(); ++r) {
      const BranchRecord& b = net.branch_records[r];
      const bool ends = (b.from == from && b.to == to) || (b.from == to && b.to == from);
      if (!ends || !same_id(b.ckt, ckt)) continue;
      if (!b.in_service)
        throw std::invalid_argument("model configuration: " + item + " names " + net.branch_label(r) +
                                    ", which is out of service (or at an isolated bus) → choose an in-service branch");
      return r;
    }
    throw std::invalid_argument("model configuration: " + item + ": no branch or transformer " + std::to_string(from) +
                                "-" + std::to_string(to) + " circuit '" + ckt +
                                "' in the case → check the bus numbers and the circuit (lsdae-grid --list-branches)");
  };
  if (spec_.trip_branches == "all") {
    for (std::size_t r = 0; r < net.branch_records.size(); ++r)
      if (net.branch_records[r].in_service) rows.push_back(r);
  } else if (spec_.trip_branches.empty()) {
    for (const auto& t : spec_.trips)
      if (t.from != 0) rows.push_back(row_of(t.from, t.to, t.ckt, "trips"));
  } else {
    for (const std::string& item : split(spec_.trip_branches, ',')) {
      const auto parts = split(item, '-');
      std::optional<int> a, b;
      if (parts.size() == 3) a = parse_integer(parts[0]), b = parse_integer(parts[1]);
      if (!a || !b)
        throw std::invalid_argument("model configuration: trip_branches lists \"" + item +
                                    "\", not FROM-TO-CIRCUIT → write e.g. 101-102-1, or all");
      rows.push_back(row_of(*a, *b, parts[2], "trip_branches"));
    }
  }
  for (std::size_t r : rows) {
    if (std::find(trip_rows_.begin(), trip_rows_.end(), r) != trip_rows_.end()) continue;
    const BranchRecord& rec = net.branch_records[r];
    TripTarget target;
    for (std::size_t i : rec.stamps) {
      const BranchStamp& b = net.branches[i];
      target.branches.push_back(i);
      branch_switched_[i] = true;
      if (b.kind == BranchStamp::Kind::winding) {
        target.grounded_star = b.to;
        bus_switched_[b.to] = true;
      }
    }
    targets_.push_back(std::move(target));
    trip_rows_.push_back(r);
    if (spec_.trip_branches != "all")
      trip_text_ += (trip_text_.empty() ? "" : ",") + std::to_string(rec.from) + "-" + std::to_string(rec.to) + "-" +
                    rec.ckt;
  }
  if (spec_.trip_branches == "all") trip_text_ = "all";
  if (trip_text_.empty()) trip_text_ = "none";
  for (const GenTripSpec& g : spec_.gen_trips) {
    if (g.bus == 0) continue;
    bool found = false;
    for (const GeneratorRecord& r : net.generators) found = found || (r.bus == g.bus && same_id(r.id, g.id) && r.in_service);
    if (!found)
      throw std::invalid_argument("model configuration: gentrips names generator " + std::to_string(g.bus) + " '" + g.id +
                                  "', which is not an in-service generator of the case → check the bus and the id "
                                  "(lsdae-grid --list-machines)");
  }
}

std::size_t DisturbanceRuntime::find_row(int from, int to, const std::string& ckt) const {
  for (std::size_t k = 0; k < trip_rows_.size(); ++k) {
    const BranchRecord& b = net_.branch_records[trip_rows_[k]];
    if (((b.from == from && b.to == to) || (b.from == to && b.to == from)) && same_id(b.ckt, ckt)) return k;
  }
  return kNone;
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
    // A numeric circuit is named by from, to, ckt; any other by its row.
    const auto ckt = parse_integer(t.ckt);
    const std::size_t at = t.from != 0 && !ckt ? find_row(t.from, t.to, t.ckt) : kNone;
    trip_p_.push_back(b.parameter(s + "from", t.from, "", "from bus of the branch or transformer tripped (0 and branch "
                                                          "0: none); candidates " + trip_text_));
    b.parameter(s + "to", t.to, "", "to bus of the branch or transformer tripped");
    b.parameter(s + "ckt", ckt ? *ckt : 0, "", "circuit id, numeric (other ids: choose the branch by its row)");
    b.parameter(s + "time", t.time, "s", "time the branch is opened");
    b.parameter(s + "branch", at == kNone ? 0.0 : static_cast<double>(trip_rows_[at] + 1), "",
                "row of the branch table (lsdae-grid --list-branches), 1-based; 0: the branch from, to, ckt");
    trip_flag_.push_back(b.add(flag(s + "open", "1 once the branch is open")));
  }
  for (std::size_t k = 0; k < spec_.gen_trips.size(); ++k) {
    const GenTripSpec& g = spec_.gen_trips[k];
    const std::string s = slot("gentrip", k);
    const auto id = parse_integer(g.id);
    double row = 0;
    if (g.bus != 0 && !id)
      for (std::size_t r = 0; r < net_.generators.size(); ++r)
        if (net_.generators[r].bus == g.bus && same_id(net_.generators[r].id, g.id)) row = static_cast<double>(r + 1);
    gentrip_p_.push_back(b.parameter(s + "bus", g.bus, "", "bus of the generator tripped (0 and machine 0: none)"));
    b.parameter(s + "id", id ? *id : 0, "", "machine id, numeric (other ids: choose the machine by its row)");
    b.parameter(s + "time", g.time, "s", "time the generator is disconnected");
    b.parameter(s + "machine", row, "",
                "row of the generator table (lsdae-grid --list-machines), 1-based; 0: the machine bus, id");
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
    const int from = whole(v[p]), to = whole(v[p + 1]), ckt = whole(v[p + 2]), row = whole(v[p + 4]);
    const std::string name = "trip[" + std::to_string(k + 1) + "]";
    if (row != 0) {
      for (std::size_t i = 0; i < trip_rows_.size(); ++i)
        if (trip_rows_[i] + 1 == static_cast<std::size_t>(row)) t.target = &targets_[i];
      if (t.target == nullptr)
        throw std::invalid_argument(name + ".branch = " + number_text(v[p + 4]) +
                                    ": not the row of a branch this FMU can trip (trip_branches=" + trip_text_ +
                                    ") → rebuild it with that branch in trip_branches (or all), or choose one of " +
                                    trip_text_ + " (rows: lsdae-grid --list-branches)");
    } else if (from != 0) {
      for (std::size_t i = 0; i < trip_rows_.size() && t.target == nullptr; ++i) {
        const BranchRecord& b = net_.branch_records[trip_rows_[i]];
        const auto id = parse_integer(b.ckt);
        if (id && *id == ckt && ((b.from == from && b.to == to) || (b.from == to && b.to == from)))
          t.target = &targets_[i];
      }
      if (t.target == nullptr)
        throw std::invalid_argument(name + " = " + std::to_string(from) + "-" + std::to_string(to) + " circuit " +
                                    std::to_string(ckt) + ": not one of the branches this FMU can trip (trip_branches=" +
                                    trip_text_ + ") → rebuild it with that branch in trip_branches (or all), or "
                                    "choose one of " + trip_text_);
    }
    out.trips.push_back(t);
  }
  for (std::size_t k = 0; k < gentrip_p_.size(); ++k) {
    const kit::ValueRef p = gentrip_p_[k];
    ActiveDisturbances::GenTrip g;
    g.time = v[p + 2];
    const int bus = whole(v[p]), id = whole(v[p + 1]), row = whole(v[p + 3]);
    const std::string name = "gentrip[" + std::to_string(k + 1) + "]";
    if (row != 0) {
      if (row < 0 || static_cast<std::size_t>(row) > net_.generators.size() ||
          !net_.generators[static_cast<std::size_t>(row) - 1].in_service)
        throw std::invalid_argument(name + ".machine = " + number_text(v[p + 3]) + ": not the row of an in-service "
                                    "generator (1.." + std::to_string(net_.generators.size()) +
                                    ") → choose a row of lsdae-grid --list-machines");
      g.generator = static_cast<std::size_t>(row) - 1;
    } else if (bus != 0) {
      for (std::size_t r = 0; r < net_.generators.size() && g.generator == kNone; ++r) {
        const GeneratorRecord& gen = net_.generators[r];
        const auto gid = parse_integer(gen.id);
        if (gen.bus == bus && gid && *gid == id && gen.in_service) g.generator = r;
      }
      if (g.generator == kNone)
        throw std::invalid_argument(name + " = bus " + std::to_string(bus) + " id " + std::to_string(id) +
                                    ": no in-service generator with that bus and numeric id → choose its row "
                                    "(gentrip[k].machine, lsdae-grid --list-machines)");
    }
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
    v[gentrip_flag_[k]] = a.gen_trips[k].generator != kNone && t >= a.gen_trips[k].time ? 1.0 : 0.0;
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
  for (const auto& g : a.gen_trips) consider(g.generator != kNone, g.time);
  for (const auto& l : a.load_steps) consider(l.bus != kNone, l.time);
  return next;
}

}  // namespace lsdae::psse
