// models/psse/system/system_build.cpp -- System: binding the components'
// signals and initializing them (system.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "psse/core/limiter.h"
#include "psse/core/parameters.h"
#include "psse/system/event_solver.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

namespace {

std::string sanitized(const std::string& id) {
  std::string out;
  for (char c : id) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return out;
}

// A limit of ±kUnbounded (no limit on that side) reads "-inf" / "inf".
std::string number(double v) {
  if (std::fabs(v) >= kUnbounded) return v > 0.0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

using SignalKey = std::pair<std::string, std::string>;  // (unit, signal)

class Init final : public InitContext {
 public:
  Init(SlotState& s, const System::Impl& sys, std::map<SignalKey, double>& table, std::map<SignalKey, std::string>& who,
       std::vector<std::string>& notes)
      : s_(s), sys_(sys), table_(table), who_(who), notes_(notes) {}
  Complex voltage() const override { return sys_.v0[s_.placed.bus]; }
  Complex injection() const override { return s_.placed.injection; }
  double system_base() const override { return sys_.net.sbase; }
  double frequency() const override { return sys_.net.frequency; }
  void state(int i, double value) override { s_.x0.at(static_cast<std::size_t>(i)) = value; }
  void algebraic(int j, double value) override { s_.z0.at(static_cast<std::size_t>(j)) = value; }
  void parameter(int k, double value) override { s_.p0.at(static_cast<std::size_t>(k)) = value; }
  double signal(const char* name) const override {
    auto it = table_.find({s_.placed.unit, name});
    if (it == table_.end())
      throw ModelError(s_.placed.component->describe() + ": initialization reads signal \"" + name +
                       "\" of its unit, which no model of the unit has set → give the unit the model that sets it "
                       "(core/signals.h), or check the initialization order (InitStage)");
    return it->second;
  }
  bool has_signal(const char* name) const override { return table_.count({s_.placed.unit, name}) != 0; }
  void set_signal(const char* name, double value) override {
    const SignalKey key{s_.placed.unit, name};
    auto it = table_.find(key);
    if (it != table_.end() && std::fabs(it->second - value) > 1e-8 * std::max(1.0, std::fabs(value)))
      throw ModelError(s_.placed.component->describe() + ": sets signal \"" + name + "\" to " + number(value) +
                       ", but " + who_[key] + " set it to " + number(it->second) +
                       " → the unit's models disagree on its operating point");
    table_[key] = value;
    who_[key] = s_.placed.component->describe();
  }
  void note(const std::string& message) override { notes_.push_back(s_.placed.component->describe() + ": " + message); }

 private:
  SlotState& s_;
  const System::Impl& sys_;
  std::map<SignalKey, double>& table_;
  std::map<SignalKey, std::string>& who_;
  std::vector<std::string>& notes_;
};

}  // namespace

System::Impl::Impl(SystemInput input, kit::Form f)
    : form(f), net(std::move(input.network)), v0(std::move(input.voltage)), disturbances(net, std::move(input.disturbances)),
      hold_initial_limits(input.hold_initial_limits) {
  slots.resize(input.components.size());
  for (std::size_t k = 0; k < input.components.size(); ++k) slots[k].placed = std::move(input.components[k]);
  devices_at.resize(net.buses.size());
  bind();
  initialize();
  check_rest();
}

System::Impl::~Impl() = default;

void System::Impl::bind() {
  std::map<std::string, std::vector<std::string>> consumed;  // unit -> signals read
  for (SlotState& s : slots)
    for (const DeclaredInput& in : ComponentSlot::inputs_of(*s.placed.component))
      consumed[s.placed.unit].push_back(in.signal);
  std::set<std::string> prefixes;
  std::map<SignalKey, std::size_t> producer;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotState& s = slots[k];
    const ComponentInfo& info = s.placed.component->info();
    s.slot = std::make_unique<ComponentSlot>(*s.placed.component, consumed[s.placed.unit]);
    const std::string id = sanitized(info.id);
    s.prefix = std::string(role_prefix(info.role)) + "[" + std::to_string(info.bus) + (id.empty() ? "" : "_" + id) + "]";
    if (!prefixes.insert(s.prefix).second)
      throw ModelError(s.placed.component->describe() + ": a second " + role_prefix(info.role) +
                       " model for the same unit (" + s.prefix + ") → keep one record per role and unit");
    s.network_device = info.stage == InitStage::network_device;
    if (s.network_device) devices_at[s.placed.bus].push_back(k);
    for (const DeclaredOutput& o : s.slot->outputs()) {
      auto [it, fresh] = producer.emplace(SignalKey{s.placed.unit, o.signal}, k);
      if (!fresh)
        throw ModelError(s.placed.component->describe() + ": writes signal \"" + o.signal + "\", which " +
                         slots[it->second].placed.component->describe() + " writes already → drop one of them");
    }
    const FrameShape& sh = s.slot->shape();
    s.x0.assign(static_cast<std::size_t>(sh.states), 0.0);
    s.z0.assign(static_cast<std::size_t>(sh.algebraics), 0.0);
    s.p0.assign(static_cast<std::size_t>(sh.parameters), 0.0);
    s.mode0.assign(static_cast<std::size_t>(sh.limiters), kModeFree);
  }
  std::map<SignalKey, int> constant_of;
  for (SlotState& s : slots) {
    for (const DeclaredInput& in : s.slot->inputs()) {
      InputSource src;
      const SignalKey key{s.placed.unit, in.signal};
      auto p = producer.find(key);
      if (p != producer.end()) {
        src.slot = static_cast<int>(p->second);
        for (const DeclaredOutput& o : slots[p->second].slot->outputs())
          if (o.signal == in.signal) src.variable = o.variable;
      } else {
        auto c = constant_of.find(key);
        if (c == constant_of.end()) {
          HeldConstant h;
          h.name = s.prefix + "." + in.signal;
          h.signal = in.signal;
          h.description = "signal " + in.signal + " of the unit, held (no model of the unit writes it)";
          if (!std::isnan(in.default_value)) h.value = in.default_value, h.set = true;
          constants.push_back(h);
          c = constant_of.emplace(key, static_cast<int>(constants.size()) - 1).first;
        }
        src.constant = c->second;
      }
      s.input.push_back(src);
    }
  }
  lay_out_work();
}

void System::Impl::lay_out_work() {
  std::vector<FrameShape> shapes;
  shapes.reserve(slots.size());
  for (const SlotState& s : slots) shapes.push_back(s.slot->shape());
  work.layout(shapes, form == kit::Form::fully_implicit);
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotHot& h = work[k];
    h.component = slots[k].placed.component.get();
    h.widen = slots[k].slot->widen_data();
    h.bus = static_cast<std::uint32_t>(slots[k].placed.bus);
    h.network_device = slots[k].network_device;
  }
}

void System::Impl::initialize() {
  std::vector<std::size_t> order(slots.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return slots[a].placed.component->info().stage < slots[b].placed.component->info().stage;
  });
  std::map<SignalKey, double> table;
  std::map<SignalKey, std::string> who;
  for (std::size_t k : order) {
    SlotState& s = slots[k];
    Init init(s, *this, table, who, report.notes);
    s.placed.component->initialize(init);
    for (const DeclaredOutput& o : s.slot->outputs()) {
      const double value = o.variable.kind == Var::Kind::state ? s.x0[static_cast<std::size_t>(o.variable.index)]
                                                               : s.z0[static_cast<std::size_t>(o.variable.index)];
      const SignalKey key{s.placed.unit, o.signal};
      auto it = table.find(key);
      if (it != table.end() && std::fabs(it->second - value) > 1e-8 * std::max(1.0, std::fabs(value)))
        throw ModelError(s.placed.component->describe() + ": its output \"" + o.signal + "\" starts at " +
                         number(value) + ", but " + who[key] + " needs " + number(it->second) +
                         " → the model's initialization must deliver the value its unit needs");
      table[key] = value;
      who[key] = s.placed.component->describe();
    }
  }
  for (SlotState& s : slots)
    for (std::size_t k = 0; k < s.input.size(); ++k) {
      if (s.input[k].constant < 0) continue;
      HeldConstant& h = constants[static_cast<std::size_t>(s.input[k].constant)];
      auto it = table.find({s.placed.unit, h.signal});
      if (it != table.end()) {
        h.value = it->second;
        h.set = true;
      }
      if (!h.set)
        throw ModelError(s.placed.component->describe() + ": reads signal \"" + h.signal +
                         "\", which no model of its unit writes or sets at initialization, and it has no default → "
                         "add the model that provides it");
    }
  // Limiter modes from the initial values; report those outside their limits.
  for (std::size_t slot_index = 0; slot_index < slots.size(); ++slot_index) {
    SlotState& s = slots[slot_index];
    SlotHot& h = work[slot_index];
    const FrameShape& sh = s.slot->shape();
    double* known = h.known;
    std::fill(known, known + sh.known_count(), 0.0);
    std::fill(h.out(), h.out() + sh.output_count(), 0.0);
    std::vector<LimiterRecord> record(static_cast<std::size_t>(sh.limiters));
    std::copy(s.p0.begin(), s.p0.end(), h.param());
    std::copy(s.x0.begin(), s.x0.end(), known);
    std::copy(s.z0.begin(), s.z0.end(), known + sh.states);
    for (std::size_t k = 0; k < s.input.size(); ++k) {
      const InputSource& src = s.input[k];
      double value = 0;
      if (src.constant >= 0) value = constants[static_cast<std::size_t>(src.constant)].value;
      else {
        const SlotState& p = slots[static_cast<std::size_t>(src.slot)];
        value = src.variable.kind == Var::Kind::state ? p.x0[static_cast<std::size_t>(src.variable.index)]
                                                      : p.z0[static_cast<std::size_t>(src.variable.index)];
      }
      known[static_cast<std::size_t>(sh.states + sh.algebraics) + k] = value;
    }
    known[sh.vr_index()] = v0[s.placed.bus].real();
    known[sh.vr_index() + 1] = v0[s.placed.bus].imag();
    // Modes from the values, repeated until they settle (slot.h: one limiter's
    // mode can move another's input).
    std::vector<char> outside;
    s.slot->initial_modes(known, h.param(), 1e-6, s.mode0, record, outside);
    // PowerWorld's rule (SystemInput::hold_initial_limits): a limit the value
    // starts beyond moves to the value, with a margin of 1e-5 (relative: ten
    // times the tolerance by which a non-windup state at its limit counts as
    // held) so that the limiter starts free and not at a tie. One limiter per pass, the
    // first declared (models declare along the signal path), and the modes
    // found again: a limiter held in the pass before gives the next one a
    // wrong input (ESAC6A's VR sees VA at its limit), which must not widen it.
    std::vector<std::string> widened;
    for (std::size_t pass = 0; !hold_initial_limits && pass <= record.size(); ++pass) {
      const auto first = std::find(outside.begin(), outside.end(), 1);
      if (first == outside.end()) break;
      const auto l = static_cast<std::size_t>(first - outside.begin());
      const LimiterRecord& r = record[l];
      const double margin = 1e-5 * std::max(1.0, std::fabs(r.u));
      const bool high = r.u > r.hi;
      s.slot->widen(l, high ? kUnbounded : r.u - margin, high ? r.u + margin : -kUnbounded);
      widened.push_back(s.placed.component->describe() + ": limiter " + s.slot->limiters()[l].name +
                        " starts outside its limits (" + number(r.u) + " not in [" + number(r.lo) + ", " +
                        number(r.hi) + "]); its " + (high ? "upper" : "lower") + " limit widened to " +
                        number(high ? r.u + margin : r.u - margin));
      s.slot->initial_modes(known, h.param(), 1e-6, s.mode0, record, outside);
    }
    report.limits.insert(report.limits.end(), widened.begin(), widened.end());
    for (std::size_t l = 0; l < record.size(); ++l) {
      const DeclaredLimiter& lim = s.slot->limiters()[l];
      if (outside[l])
        report.limits.push_back(s.placed.component->describe() + ": limiter " + lim.name + " starts outside its limits (" +
                                number(record[l].u) + " not in [" + number(record[l].lo) + ", " +
                                number(record[l].hi) + "]); held at the limit");
      if (lim.kind == LimiterKind::non_windup && s.mode0[l] != kModeFree)
        s.x0[static_cast<std::size_t>(lim.state)] = limiter_held_value(s.mode0[l], record[l]);
    }
    std::copy(record.begin(), record.end(), h.record());
    std::copy(s.mode0.begin(), s.mode0.end(), h.mode());
    h.widen = s.slot->widen_data();  // widen() above may have moved them
    report.states += s.x0.size();
    report.algebraics += s.z0.size();
    report.limiters += s.mode0.size();
  }
  report.components = slots.size();
  report.algebraics += 2 * net.buses.size();
}

// The largest derivative and residual at t = 0, by name (the flat start), and
// each load's demand there (SlotState::p_operating), from the same evaluation.
void System::Impl::check_rest() {
  std::vector<Complex> mismatch(net.buses.size());
  for (std::size_t i = 0; i < net.buses.size(); ++i)
    for (std::size_t p = net.y.row_start[i]; p < net.y.row_start[i + 1]; ++p)
      mismatch[i] += net.y.value[p] * v0[net.y.column[p]];
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotState& s = slots[k];
    const SlotHot& h = work[k];
    const FrameShape& sh = s.slot->shape();
    const double* out = h.out();
    std::copy(s.x0.begin(), s.x0.end(), h.known);
    s.slot->evaluate(h.known, h.out(), h.param(), h.mode(), nullptr, 0.0);
    for (int i = 0; i < sh.states; ++i)
      if (std::fabs(out[i]) > report.largest_derivative) {
        report.largest_derivative = std::fabs(out[i]);
        report.largest_derivative_name = "der(" + s.prefix + "." + s.slot->states()[static_cast<std::size_t>(i)].name + ")";
      }
    for (int j = 0; j < sh.algebraics; ++j)
      if (std::fabs(out[sh.states + j]) > report.largest_residual) {
        report.largest_residual = std::fabs(out[sh.states + j]);
        report.largest_residual_name = s.prefix + "." + s.slot->algebraics()[static_cast<std::size_t>(j)].name;
      }
    if (!s.network_device) continue;
    const Complex injected(out[sh.states + sh.algebraics], out[sh.states + sh.algebraics + 1]);
    mismatch[s.placed.bus] -= injected;
    // A load's demand at the operating point, −V conj(I_injected): what islands.lost_load
    // adds when its bus is de-energized (system_islands.cpp).
    if (s.placed.unit.rfind("L:", 0) == 0) s.p_operating = -(v0[s.placed.bus] * std::conj(injected)).real() * net.sbase;
  }
  for (std::size_t i = 0; i < net.buses.size(); ++i)
    if (std::abs(mismatch[i]) > report.largest_residual) {
      report.largest_residual = std::abs(mismatch[i]);
      report.largest_residual_name = "bus[" + std::to_string(net.buses[i].number) + "] current balance";
    }
  solver = std::make_unique<EventSolver>(*this);
}

}  // namespace lsdae::psse
