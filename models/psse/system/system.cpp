// models/psse/system/system.cpp -- System's public face (system.h).
#include "psse/system/system.h"

#include <stdexcept>

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
  impl_->compute(c.v, c.time, true);
}

void System::partials(const kit::Context& c, kit::PartialSink& sink) { impl_->partials(c.v, c.time, sink); }

kit::DiscreteUpdate System::update_discrete(kit::Context& c) { return impl_->update_discrete(c); }

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
