// models/psse/system/system.cpp -- System's public face (system.h).
#include "psse/system/system.h"

#include <optional>
#include <stdexcept>
#include <string>

#include "psse/system/event_solver.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

System::System(SystemInput input, kit::Form form) : impl_(std::make_unique<Impl>(std::move(input), form)) {}

System::~System() = default;

void System::declare(kit::Builder& b) { impl_->declare(b); }

void System::compute(kit::Context& c) {
  if (!c.dae_mode)
    throw std::logic_error("PsseGrid has no ODE mode: build it with manifest=A (DAE mode from the start)");
  if (c.initialization) {
    impl_->disturbances.resolve(c.v, impl_->active);
    impl_->disturbances.set_flags(c.time, impl_->active, c.v);
  }
  impl_->compute(c.v, c.time, true, c.discrete_epoch);
}

bool System::compute_event_indicators(kit::Context& c) {
  if (c.dae_mode && !c.initialization && impl_->indicators(c.v, c.time, c.discrete_epoch)) return false;
  compute(c);
  return true;
}

void System::partials(const kit::Context& c, kit::PartialSink& sink) {
  impl_->partials(c.v, c.time, sink, c.discrete_epoch);
}

kit::DiscreteUpdate System::update_discrete(kit::Context& c) { return impl_->update_discrete(c); }

std::vector<double> System::internal_state() const {
  const Impl& s = *impl_;
  std::vector<double> out;
  out.push_back(s.first_update ? 1.0 : 0.0);
  out.push_back(s.pending_release ? 1.0 : 0.0);
  out.push_back(s.pending_release.value_or(0.0));
  for (std::size_t i = 0; i < s.net.buses.size(); ++i) out.push_back(i < s.bus_dead.size() && s.bus_dead[i] ? 1.0 : 0.0);
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    const SlotState& slot = s.slots[i];
    const SlotHot& h = s.work[i];
    out.push_back(h.frozen ? 1.0 : 0.0);
    for (std::size_t j = 0; j < slot.z_vr.size(); ++j) out.push_back(j < slot.z_frozen.size() ? slot.z_frozen[j] : 0.0);
    out.insert(out.end(), h.last(), h.last() + h.shape.limiters);
    out.insert(out.end(), h.shift(), h.shift() + h.shape.limiters);
  }
  // The releases the bounce rule remembers across events (system_impl.h),
  // one pair per limiter of the indicator slots.
  for (std::size_t i = 0; i < s.release_time.size(); ++i) {
    out.push_back(s.release_time[i]);
    out.push_back(s.release_value[i]);
  }
  return out;
}

void System::set_internal_state(const std::vector<double>& state) {
  Impl& s = *impl_;
  const std::size_t limiters = s.release_time.size();  // declare()'s
  std::size_t expected = 3 + s.net.buses.size() + 2 * limiters;
  for (std::size_t i = 0; i < s.slots.size(); ++i)
    expected += 1 + s.slots[i].z_vr.size() + 2 * static_cast<std::size_t>(s.work[i].shape.limiters);
  if (state.size() != expected)
    throw std::invalid_argument("PsseGrid internal state: " + std::to_string(state.size()) + " numbers, this case has " +
                                std::to_string(expected) + " → restore a state this FMU and case saved");
  std::size_t k = 0;
  auto flag = [&]() {
    const double f = state[k++];
    if (f != 0.0 && f != 1.0)
      throw std::invalid_argument("PsseGrid internal state: entry " + std::to_string(k - 1) + " is " +
                                  std::to_string(f) + ", a flag (0 or 1) → restore a state this FMU saved");
    return f == 1.0;
  };
  s.first_update = flag();
  const bool pending = flag();
  const double release = state[k++];
  s.pending_release = pending ? std::optional<double>(release) : std::nullopt;
  s.bus_dead.assign(s.net.buses.size(), false);
  for (std::size_t i = 0; i < s.net.buses.size(); ++i) s.bus_dead[i] = flag();
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    SlotState& slot = s.slots[i];
    SlotHot& h = s.work[i];
    h.frozen = flag();
    slot.z_frozen.assign(state.begin() + static_cast<std::ptrdiff_t>(k),
                         state.begin() + static_cast<std::ptrdiff_t>(k + slot.z_vr.size()));
    k += slot.z_vr.size();
    if (!h.frozen) slot.z_frozen.clear();
    double* last = h.last();
    for (int l = 0; l < h.shape.limiters; ++l) last[l] = state[k++];
    double* shift = h.shift();
    for (int l = 0; l < h.shape.limiters; ++l) shift[l] = state[k++];
    h.note_shifts();
  }
  for (std::size_t i = 0; i < limiters; ++i) {
    s.release_time[i] = state[k++];
    s.release_value[i] = state[k++];
  }
  s.solver->forget();  // its pivots came from the events of another run (event_solver.h)
}

System::EventSolveCounts System::event_solve_counts() const { return impl_->solver->counts(); }

const InitReport& System::report() const { return impl_->report; }

std::vector<std::pair<std::string, double>> System::initial_point() const {
  std::vector<std::pair<std::string, double>> out;
  const Impl& s = *impl_;
  for (std::size_t i = 0; i < s.net.buses.size(); ++i) {
    const std::string bus = "bus[" + std::to_string(s.net.buses[i].number) + "].";
    out.emplace_back(bus + "Vr", s.v0[i].real());
    out.emplace_back(bus + "Vi", s.v0[i].imag());
  }
  for (const SlotState& slot : s.slots) {
    for (std::size_t i = 0; i < slot.x0.size(); ++i) {
      out.emplace_back(slot.prefix + "." + slot.slot->states()[i].name, slot.x0[i]);
      out.emplace_back("der(" + slot.prefix + "." + slot.slot->states()[i].name + ")", 0.0);
    }
    for (std::size_t j = 0; j < slot.z0.size(); ++j)
      out.emplace_back(slot.prefix + "." + slot.slot->algebraics()[j].name, slot.z0[j]);
  }
  return out;
}

}  // namespace lsdae::psse
