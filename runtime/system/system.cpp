// runtime/system/system.cpp -- lsdae::System (lsdae/system.h): the Model of
// a system of FMUs; the rules are in composition.h, the calls in
// composite_instance.h.
#include "lsdae/system.h"

#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/values.h"
#include "system/composite_instance.h"
#include "system/composition.h"

namespace lsdae {

System::System() = default;
System::~System() = default;

std::shared_ptr<System> System::create(const SystemDescription& description, const OpenOptions& options) {
  std::shared_ptr<System> s(new System());
  s->description_ = description;
  s->composition_ = system::compose(description, options);
  return s;
}

std::size_t System::component_count() const { return composition_->components.size(); }
const std::string& System::component_name(std::size_t c) const { return composition_->components.at(c).name; }
const Fmu& System::component_fmu(std::size_t c) const { return *composition_->components.at(c).fmu; }

std::string System::display_name() const {
  if (!description_.source.empty() && !description_.source.filename().empty())
    return description_.source.filename().string();
  return "system \"" + composition_->name + "\"";
}
const ModelDescription& System::model_description() const { return composition_->md; }
const Manifest& System::manifest() const { return composition_->manifest; }
const std::vector<ValueReference>& System::states() const { return composition_->states; }
const std::vector<ValueReference>& System::derivatives() const { return composition_->derivatives; }
std::string System::state_name(std::size_t i) const { return composition_->state_names.at(i); }
std::string System::derivative_name(std::size_t i) const { return composition_->derivative_names.at(i); }
std::size_t System::event_indicator_count() const { return composition_->event_indicators; }

void System::load_binary() const {
  for (const auto& part : composition_->components) {
    try {
      part.fmu->load_binary();
    } catch (const Error& e) {
      throw Error(e.kind(), display_name() + ": component \"" + part.name + "\": " + e.what());
    }
  }
  // A mixed system: say once which components' columns are differences.
  const std::vector<std::string> by_differences = components_by_differences();
  if (!by_differences.empty() && by_differences.size() < composition_->components.size() && !mixed_note_logged_) {
    std::string names;
    for (const auto& n : by_differences) names += (names.empty() ? "\"" : ", \"") + n + "\"";
    log_info(display_name() + ": directional derivatives from the components that provide them; " + names +
             " by central differences along each seed (docs/systems.md, \"Mixed Jacobians\")");
    mixed_note_logged_ = true;
  }
}

bool System::directional_derivatives_available() const {
  for (const auto& part : composition_->components)
    if (part.fmu->directional_derivatives_available()) return true;
  return false;
}

std::vector<std::string> System::components_by_differences() const {
  std::vector<std::string> out;
  for (const auto& part : composition_->components)
    if (!part.fmu->directional_derivatives_available()) out.push_back(part.name);
  return out;
}

std::string System::directional_derivatives_note() const {
  if (directional_derivatives_available()) return "";
  std::string out = "no component provides directional derivatives (";
  for (std::size_t k = 0; k < composition_->components.size(); ++k) {
    const auto& part = composition_->components[k];
    const std::string own = part.fmu->directional_derivatives_note();
    out += (k == 0 ? "" : ", ") + ("\"" + part.name + "\": " + part.fmu->display_name()) +
           (own.empty() ? "" : ": " + own);
  }
  return out + ")";
}

std::unique_ptr<Instance> System::instantiate(const std::string& instance_name) const {
  std::vector<std::unique_ptr<Instance>> parts;
  for (const auto& part : composition_->components) {
    auto inst = part.fmu->instantiate(instance_name + "." + part.name);
    system::prepare_component(part, *inst);
    parts.push_back(std::move(inst));
  }
  return std::make_unique<system::CompositeInstance>(shared_from_this(), *composition_, instance_name,
                                                     std::move(parts));
}

}  // namespace lsdae
