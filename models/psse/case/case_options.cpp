// models/psse/case/case_options.cpp -- case_options() and case_settings()
// (case_builder.h): the options as key=value settings.
#include <cctype>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "psse/case/case_builder.h"
#include "psse/io/psse_text.h"

namespace lsdae::psse {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, sep)) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

[[noreturn]] void bad(const std::string& key, const std::string& value, const std::string& form) {
  throw std::invalid_argument("option " + key + "=\"" + value + "\" → expected " + form);
}

double real(const std::string& key, const std::string& whole, const std::string& text, const char* form) {
  const auto v = parse_real(text);
  if (!v) bad(key, whole, form);
  return *v;
}

int integer(const std::string& key, const std::string& whole, const std::string& text, const char* form) {
  const auto v = parse_integer(text);
  if (!v) bad(key, whole, form);
  return *v;
}

std::string g(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

CaseOptions case_options(const std::map<std::string, std::string>& settings) {
  CaseOptions o;
  o.loads.breakpoint = -1.0;
  auto get = [&](const char* key) -> std::string {
    auto it = settings.find(key);
    return it == settings.end() ? std::string() : it->second;
  };
  if (const std::string v = get("raw_version"); !v.empty()) {
    o.raw_version = integer("raw_version", v, v, "32, 33 or 34");
    if (o.raw_version < 32 || o.raw_version > 34) bad("raw_version", v, "32, 33 or 34");
  }
  for (const std::string& item : split(get("substitute"), ',')) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) bad("substitute", item, "MODEL:OTHER or MODEL:none, comma-separated");
    std::string from = trim(item.substr(0, colon)), to = trim(item.substr(colon + 1));
    for (char& c : from) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : to) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (to == "NONE") to = "none";
    o.substitute[from] = to;
  }
  if (const std::string v = get("skip_unsupported"); !v.empty()) {
    if (v != "true" && v != "false") bad("skip_unsupported", v, "true or false");
    o.skip_unsupported = v == "true";
  }
  if (const std::string v = get("unmodelled_generators"); !v.empty()) {
    if (v != "source" && v != "current") bad("unmodelled_generators", v, "source or current");
    o.unmodelled = v == "current" ? Unmodelled::current : Unmodelled::source;
  }
  if (const std::string v = get("load_conversion"); !v.empty()) {
    const auto parts = split(v, ',');
    const char* form = "four percentages PI,PY,QI,QY (of PL to constant current and admittance, of QL alike)";
    if (parts.size() != 4) bad("load_conversion", v, form);
    o.loads.p_to_current = real("load_conversion", v, parts[0], form) / 100.0;
    o.loads.p_to_admittance = real("load_conversion", v, parts[1], form) / 100.0;
    o.loads.q_to_current = real("load_conversion", v, parts[2], form) / 100.0;
    o.loads.q_to_admittance = real("load_conversion", v, parts[3], form) / 100.0;
  }
  if (const std::string v = get("load_breakpoint"); !v.empty())
    o.loads.breakpoint = real("load_breakpoint", v, v, "a voltage in p.u., e.g. 0.7");
  if (const std::string v = get("pv_set_points"); !v.empty()) {
    if (v != "stored" && v != "vs") bad("pv_set_points", v, "stored or vs");
    o.vs_set_points = v == "vs";
  }
  if (const std::string v = get("initial_limits"); !v.empty()) {
    if (v != "widen" && v != "hold") bad("initial_limits", v, "widen or hold");
    o.hold_initial_limits = v == "hold";
  }
  for (const std::string& item : split(get("faults"), ',')) {
    const auto p = split(item, ':');
    const char* form = "BUS:T_ON:T_OFF:R:X (R, X in p.u. on SBASE), comma-separated";
    if (p.size() != 5) bad("faults", item, form);
    o.disturbances.faults.push_back({integer("faults", item, p[0], form), real("faults", item, p[1], form),
                                     real("faults", item, p[2], form), real("faults", item, p[3], form),
                                     real("faults", item, p[4], form)});
  }
  for (const std::string& item : split(get("trips"), ',')) {
    const char* form = "FROM-TO-CKT@TIME (the circuit id as in the .raw), comma-separated";
    const auto at = item.find('@');
    if (at == std::string::npos) bad("trips", item, form);
    const auto ends = split(item.substr(0, at), '-');
    if (ends.size() != 3) bad("trips", item, form);
    o.disturbances.trips.push_back({integer("trips", item, ends[0], form), integer("trips", item, ends[1], form),
                                    ends[2], real("trips", item, item.substr(at + 1), form)});
  }
  for (const std::string& item : split(get("gentrips"), ',')) {
    const char* form = "BUS-ID@TIME (the machine id as in the .raw), comma-separated";
    const auto at = item.find('@');
    if (at == std::string::npos) bad("gentrips", item, form);
    const auto ends = split(item.substr(0, at), '-');
    if (ends.size() != 2) bad("gentrips", item, form);
    o.disturbances.gen_trips.push_back({integer("gentrips", item, ends[0], form), ends[1],
                                        real("gentrips", item, item.substr(at + 1), form)});
  }
  for (const std::string& item : split(get("loadsteps"), ',')) {
    const auto p = split(item, ':');
    const char* form = "BUS:TIME:P:Q (MW, Mvar at 1 p.u.), comma-separated";
    if (p.size() != 4) bad("loadsteps", item, form);
    o.disturbances.load_steps.push_back({integer("loadsteps", item, p[0], form), real("loadsteps", item, p[1], form),
                                         real("loadsteps", item, p[2], form), real("loadsteps", item, p[3], form)});
  }
  o.disturbances.fault_buses = get("fault_buses");
  o.disturbances.trip_branches = get("trip_branches");
  o.disturbances.loadstep_buses = get("loadstep_buses");
  return o;
}

std::map<std::string, std::string> case_settings(const CaseOptions& o) {
  std::map<std::string, std::string> s;
  if (o.raw_version != 0) s["raw_version"] = std::to_string(o.raw_version);
  std::string list;
  for (const auto& [from, to] : o.substitute) list += (list.empty() ? "" : ",") + from + ":" + to;
  if (!list.empty()) s["substitute"] = list;
  if (o.skip_unsupported) s["skip_unsupported"] = "true";
  if (o.unmodelled == Unmodelled::current) s["unmodelled_generators"] = "current";
  const LoadConversion& c = o.loads;
  if (c.p_to_current != 0 || c.p_to_admittance != 0 || c.q_to_current != 0 || c.q_to_admittance != 0)
    s["load_conversion"] = g(100 * c.p_to_current) + "," + g(100 * c.p_to_admittance) + "," + g(100 * c.q_to_current) +
                           "," + g(100 * c.q_to_admittance);
  if (c.breakpoint > 0) s["load_breakpoint"] = g(c.breakpoint);
  if (o.vs_set_points) s["pv_set_points"] = "vs";
  if (o.hold_initial_limits) s["initial_limits"] = "hold";
  auto join = [&](const char* key, const std::vector<std::string>& items) {
    std::string text;
    for (const auto& i : items) text += (text.empty() ? "" : ",") + i;
    if (!text.empty()) s[key] = text;
  };
  std::vector<std::string> items;
  for (const auto& f : o.disturbances.faults)
    items.push_back(std::to_string(f.bus) + ":" + g(f.t_on) + ":" + g(f.t_off) + ":" + g(f.r) + ":" + g(f.x));
  join("faults", items);
  items.clear();
  for (const auto& t : o.disturbances.trips)
    items.push_back(std::to_string(t.from) + "-" + std::to_string(t.to) + "-" + t.ckt + "@" + g(t.time));
  join("trips", items);
  items.clear();
  for (const auto& t : o.disturbances.gen_trips)
    items.push_back(std::to_string(t.bus) + "-" + t.id + "@" + g(t.time));
  join("gentrips", items);
  items.clear();
  for (const auto& l : o.disturbances.load_steps)
    items.push_back(std::to_string(l.bus) + ":" + g(l.time) + ":" + g(l.p) + ":" + g(l.q));
  join("loadsteps", items);
  if (!o.disturbances.fault_buses.empty()) s["fault_buses"] = o.disturbances.fault_buses;
  if (!o.disturbances.trip_branches.empty()) s["trip_branches"] = o.disturbances.trip_branches;
  if (!o.disturbances.loadstep_buses.empty()) s["loadstep_buses"] = o.disturbances.loadstep_buses;
  return s;
}

}  // namespace lsdae::psse
