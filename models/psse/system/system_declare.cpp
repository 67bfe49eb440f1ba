// models/psse/system/system_declare.cpp -- System: the FMU's variables and
// the manifest's structure (system.h).
#include <algorithm>
#include <map>
#include <limits>
#include <stdexcept>
#include <string>

#include "gridcore/island_names.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

namespace {

kit::Variable discrete_variable(const std::string& name, const std::string& description, double start) {
  kit::Variable x;
  x.name = name;
  x.description = description;
  x.causality = kit::Causality::local;
  x.variability = kit::Variability::discrete;
  x.initial = kit::Initial::exact;
  x.start = start;
  return x;
}

// Dependencies keyed by known, the strongest kind kept (dependent > discrete > constant).
class Deps {
 public:
  void add(ValueRef known, kit::DepKind kind) {
    auto [it, fresh] = map_.emplace(known, kind);
    if (!fresh && static_cast<int>(kind) > static_cast<int>(it->second)) it->second = kind;
  }
  std::vector<kit::Dependency> list() const {
    std::vector<kit::Dependency> out;
    for (const auto& [k, kind] : map_) out.push_back({k, kind});
    return out;
  }

 private:
  std::map<ValueRef, kit::DepKind> map_;
};

}  // namespace

void System::Impl::declare(kit::Builder& b) {
  b.provides_partials();
  b.has_time_events();
  b.form(form);
  const std::size_t n = net.buses.size();
  const bool implicit = form == kit::Form::fully_implicit;
  // The count of what follows, so that the kit sizes its list once
  // (kit::Builder::expect_variables; describe() checks it): per bus Vr, Vi,
  // res_re, res_im; per slot its states, their derivatives (and with the
  // fully implicit form their residuals), algebraics and their residuals,
  // parameters, a mode and an indicator per limiter; the held constants,
  // the disturbances, and the five limits/islands variables.
  std::size_t count = 4 * n + constants.size() + disturbances.variable_count() + 5;
  for (const SlotState& s : slots)
    count += (implicit ? 3 : 2) * s.x0.size() + 2 * s.z0.size() + s.p0.size() + 2 * s.mode0.size();
  b.expect_variables(count);
  vr.assign(n, kNoRef);
  vi.assign(n, kNoRef);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string bus = "bus[" + std::to_string(net.buses[i].number) + "].";
    const std::string what = net.buses[i].star_point       ? "star point of a three-winding transformer, "
                             : net.buses[i].generator >= 0 ? "terminal of a generator behind its step-up transformer, "
                                                           : "";
    vr[i] = b.algebraic(bus + "Vr", v0[i].real(), "", what + "voltage, real part, p.u.");
    vi[i] = b.algebraic(bus + "Vi", v0[i].imag(), "", what + "voltage, imaginary part, p.u.");
  }
  for (SlotState& s : slots) {
    s.x_vr.clear();
    for (std::size_t i = 0; i < s.x0.size(); ++i) {
      const DeclaredVariable& d = s.slot->states()[i];
      s.x_vr.push_back(b.state(s.prefix + "." + d.name, s.x0[i], d.unit, d.description, true));
    }
  }
  for (SlotState& s : slots) {
    s.der_vr.clear();
    for (ValueRef x : s.x_vr) s.der_vr.push_back(b.derivative(x));
  }
  for (SlotState& s : slots) {
    s.z_vr.clear();
    for (std::size_t j = 0; j < s.z0.size(); ++j) {
      const DeclaredVariable& d = s.slot->algebraics()[j];
      s.z_vr.push_back(b.algebraic(s.prefix + "." + d.name, s.z0[j], d.unit, d.description));
    }
  }
  for (SlotState& s : slots) {
    s.p_vr.clear();
    for (std::size_t k = 0; k < s.p0.size(); ++k) {
      const DeclaredVariable& d = s.slot->parameters()[k];
      s.p_vr.push_back(b.parameter(s.prefix + "." + d.name, s.p0[k], d.unit, d.description));
    }
  }
  for (HeldConstant& h : constants) h.vr = b.parameter(h.name, h.value, "", h.description);
  for (SlotState& s : slots) {
    s.u_vr.clear();
    s.u_known.clear();
    for (const InputSource& src : s.input) {
      if (src.constant >= 0) {
        s.u_vr.push_back(constants[static_cast<std::size_t>(src.constant)].vr);
        s.u_known.push_back(0);
      } else {
        const SlotState& p = slots[static_cast<std::size_t>(src.slot)];
        s.u_vr.push_back(src.variable.kind == Var::Kind::state ? p.x_vr[static_cast<std::size_t>(src.variable.index)]
                                                               : p.z_vr[static_cast<std::size_t>(src.variable.index)]);
        s.u_known.push_back(1);
      }
    }
  }
  disturbances.declare(b);
  for (SlotState& s : slots) {
    s.mode_vr.clear();
    s.ind_vr.clear();
    for (std::size_t l = 0; l < s.mode0.size(); ++l) {
      const DeclaredLimiter& lim = s.slot->limiters()[l];
      s.mode_vr.push_back(b.add(discrete_variable(
          s.prefix + "." + lim.name + ".mode",
          lim.kind == LimiterKind::below ? "limiter mode: 1 below the threshold, 0 above"
                                         : "limiter mode: 0 free, 1 at the upper limit, -1 at the lower limit",
          s.mode0[l])));
    }
    for (std::size_t l = 0; l < s.mode0.size(); ++l) {
      const ValueRef ind = b.local(s.prefix + "." + s.slot->limiters()[l].name + ".indicator", "",
                                   "event indicator: positive while the limiter's mode holds");
      b.event_indicator(ind);
      s.ind_vr.push_back(ind);
    }
  }
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotHot& h = work[k];
    std::fill(h.shift(), h.shift() + h.shape.limiters, 0.0);
    std::fill(h.last(), h.last() + h.shape.limiters, 1.0);
    h.shifted = false;
  }
  events_vr = b.add(discrete_variable("limits.events", "number of limiter mode changes so far (limit events)", 0.0));
  dead_buses_vr = b.add(discrete_variable(grid::kDeadBusesName,
                                          "number of buses de-energized: in an island without a machine", 0.0));
  lost_load_vr = b.add(discrete_variable(grid::kLostLoadName,
                                         "load dropped with the de-energized buses, MW (their demand at the operating point)", 0.0));
  release_delay_vr = b.parameter("limits.release_delay", 1e-6, "s",
                                 "delay of a load's switch back to constant power after an event, relative to "
                                 "max(1, |t|) (0: released at the event itself)");
  // The limiter log (system_events.cpp): the FMI log category, off unless the
  // importer turns it on, and a parameter for importers that set no categories.
  b.log_category(kLogLimiters, "Each limiter mode change: time, model, bus, id, limiter, engaged or released, "
                               "indicator (PsseGrid)");
  log_limiters_vr = b.parameter("limits.log", 0.0, "",
                                "1: log each limiter mode change in the FMI log category logLimiters (as when the "
                                "importer turns that category on); 0: only when the importer does");

  res_re.assign(n, kNoRef);
  res_im.assign(n, kNoRef);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string bus = "bus[" + std::to_string(net.buses[i].number) + "].";
    res_re[i] = b.residual_variable(bus + "res_re", "current balance, real part");
    res_im[i] = b.residual_variable(bus + "res_im", "current balance, imaginary part");
  }
  for (SlotState& s : slots) {
    s.g_vr.clear();
    s.rx_vr.clear();
    for (std::size_t j = 0; j < s.z0.size(); ++j)
      s.g_vr.push_back(b.residual_variable(s.prefix + ".res_" + s.slot->algebraics()[j].name,
                                           "residual of " + s.slot->algebraics()[j].name));
    if (implicit)
      for (std::size_t i = 0; i < s.x0.size(); ++i)
        s.rx_vr.push_back(b.residual_variable(s.prefix + ".res_der_" + s.slot->states()[i].name,
                                              "der(" + s.slot->states()[i].name + ") - f"));
  }

  // ---- structure
  auto knowns = [&](const SlotState& s, Deps& d) {
    for (ValueRef r : s.x_vr) d.add(r, kit::DepKind::dependent);
    for (ValueRef r : s.z_vr) d.add(r, kit::DepKind::dependent);
    for (std::size_t k = 0; k < s.u_vr.size(); ++k)
      if (s.u_known[k]) d.add(s.u_vr[k], kit::DepKind::dependent);
    d.add(vr[s.placed.bus], kit::DepKind::dependent);
    d.add(vi[s.placed.bus], kit::DepKind::dependent);
  };
  const ComplexCsr& y = net.y;
  std::vector<bool> switched(y.nnz(), false);
  for (std::size_t i = 0; i < n; ++i)
    if (disturbances.bus_switched(i)) switched[y.find(i, i)] = true;
  for (std::size_t k = 0; k < net.branches.size(); ++k) {
    if (!disturbances.branch_switched(k)) continue;
    const BranchStamp& br = net.branches[k];
    for (auto [r, c] : {std::pair{br.from, br.from}, {br.from, br.to}, {br.to, br.from}, {br.to, br.to}})
      switched[y.find(r, c)] = true;
  }
  bus_groundable.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) bus_groundable[i] = switched[y.find(i, i)] || !devices_at[i].empty();
  for (std::size_t i = 0; i < n; ++i) {
    Deps d;
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
      const kit::DepKind kind = switched[p] ? kit::DepKind::discrete : kit::DepKind::constant;
      d.add(vr[y.column[p]], kind);
      d.add(vi[y.column[p]], kind);
    }
    for (std::size_t k : devices_at[i]) knowns(slots[k], d);
    b.residual_group({{{res_re[i], 0, d.list()}}});
    b.residual_group({{{res_im[i], 0, d.list()}}});
  }
  for (SlotState& s : slots) {
    Deps d;
    knowns(s, d);
    const auto deps = d.list();
    for (ValueRef g : s.g_vr) b.residual_group({{{g, 0, deps}}});
    for (std::size_t i = 0; i < s.x_vr.size(); ++i) {
      if (implicit) {
        auto with_der = deps;
        with_der.push_back({s.der_vr[i], kit::DepKind::constant});
        b.residual_group({{{s.rx_vr[i], 0, with_der}}});
      } else {
        b.dae_dependencies(s.der_vr[i], deps);
      }
    }
    for (ValueRef ind : s.ind_vr) b.dae_dependencies(ind, deps);
  }
  // What compute() and partials() read per slot: the value references in the
  // slot's block of the work space (slot_work.h), in the order SlotHot reads
  // them; each list as long as the shape says (checked: the layout depends on it).
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const SlotState& s = slots[k];
    SlotHot& h = work[k];
    std::vector<ValueRef> ref;
    for (const auto* list : {&s.x_vr, &s.z_vr, &s.u_vr}) ref.insert(ref.end(), list->begin(), list->end());
    ref.push_back(vr[s.placed.bus]);
    ref.push_back(vi[s.placed.bus]);
    const bool sizes = ref.size() == h.known_count() && s.p_vr.size() == static_cast<std::size_t>(h.shape.parameters) &&
                       s.mode_vr.size() == h.limiters() && s.der_vr.size() == static_cast<std::size_t>(h.shape.states) &&
                       s.rx_vr.size() == h.rx && s.g_vr.size() == static_cast<std::size_t>(h.shape.algebraics) &&
                       s.ind_vr.size() == h.limiters();
    for (const auto* list : {&s.p_vr, &s.mode_vr, &s.der_vr, &s.rx_vr, &s.g_vr, &s.ind_vr})
      ref.insert(ref.end(), list->begin(), list->end());
    for (const DeclaredLimiter& lim : s.slot->limiters()) ref.push_back(static_cast<ValueRef>(lim.kind));
    if (!sizes || ref.size() != slot_ref_count(h.shape, h.rx))
      throw std::logic_error(s.placed.component->describe() + ": its value references (" + std::to_string(ref.size()) +
                             ") do not match its shape → an internal error of PsseGrid's declaration");
    std::copy(ref.begin(), ref.end(), h.ref);
  }
  // The slots with event indicators, in slot order (indicators()).
  indicator_slots.clear();
  for (std::size_t k = 0; k < slots.size(); ++k)
    if (work[k].shape.limiters != 0) indicator_slots.push_back(k);
  // One release per limiter of those slots, for the bounce rule across events
  // (system_events.cpp, kBounceWindow): none yet.
  std::size_t limiters = 0;
  for (std::size_t k : indicator_slots) limiters += work[k].limiters();
  release_time.assign(limiters, -std::numeric_limits<double>::infinity());
  release_value.assign(limiters, 0.0);
  // Value references are handed out in order: the last one declared bounds them.
  value_count = 0;
  for (ValueRef r : res_re) value_count = std::max<std::size_t>(value_count, r + 1);
  for (ValueRef r : res_im) value_count = std::max<std::size_t>(value_count, r + 1);
  for (const SlotState& s : slots) {
    for (ValueRef r : s.g_vr) value_count = std::max<std::size_t>(value_count, r + 1);
    for (ValueRef r : s.rx_vr) value_count = std::max<std::size_t>(value_count, r + 1);
  }
  declared = true;
}

}  // namespace lsdae::psse
