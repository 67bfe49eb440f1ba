// lsdae/system.h -- a system of FMUs assembled into one DAE (docs/systems.md).
//
//   lsdae::SystemDescription d;                         // or read_system_description("x.ssp")
//   d.components = {{"mass1", "Mass.fmu", {{"m", "1"}}}, {"mass2", "Mass.fmu", {{"m", "2"}}}};
//   d.couplings = {{"rod", {{{"mass1", "v"}, {"mass1", "F"}}, {{"mass2", "v"}, {"mass2", "F"}}}}};
//   auto system = lsdae::System::create(d);              // opens, checks, composes
//   auto sim = lsdae::Simulation::create(system, options);
//   sim->initialize();  sim->advance_to(1.0);  sim->get("mass2.v");
//
// A System is a Model (lsdae/model.h): the simulation runs it as it runs one
// FMU. The composition rules (runtime/system/composition.h states them in
// full): every component variable appears as "component.variable" with a
// value reference of the system (a dense renumbering, component by
// component); the states are the components' states concatenated in
// component order; the system is one fully implicit DAE whose residuals are
//   - each component's own residuals (a component with an LS-DAE manifest),
//   - ẋ − f(x, u) per state of a component without a manifest or with a
//     semi-explicit one ("component.residual(der(x))"),
//   - to − factor·from − offset per continuous connection
//     ("connect(A.y,B.u)"), `to` becoming an algebraic unknown,
//   - per coupling of n ports: p_1 − p_k, k = 2..n ("rod.potential[k]") and
//     Σ f_k ("rod.flows"), the flows (the ports' inputs) algebraic unknowns.
// A discrete connection is no equation: its value is copied from output to
// input at every event iteration until no component needs another.
//
// System::create checks the description against the components' model
// descriptions and throws lsdae::Error with a `where → what → value seen →
// what to do` message:
//   invalid (exit 1): two components of one name; a connection or coupling
//     naming an unknown component or variable; `from` not an output, `to` not
//     an input; a potential not an output or a flow not an input; types
//     that differ; units that are both declared and differ; an input driven
//     twice (two connections, or a connection and a coupling); an input
//     neither connected nor given a start value (by the FMU or by the
//     component's parameters); a parameter value that does not parse or
//     names no variable; a component in the OpenModelica DAE form, with
//     array variables, or without Model Exchange;
//   archive, xml, invalid, binary: from opening a component's FMU.
// A structurally singular composed system is refused by
// Simulation::create (Error(structure), exit 8) with the unmatched
// equations and unknowns named as above, connections and couplings included.
#ifndef LSDAE_SYSTEM_H
#define LSDAE_SYSTEM_H

#include <memory>
#include <string>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/model.h"
#include "lsdae/system_description.h"

namespace lsdae {

namespace system {
struct Composition;
}

class System final : public Model, public std::enable_shared_from_this<System> {
 public:
  // Opens every component's FMU (with `options`), checks the description
  // and composes the DAE. Throws lsdae::Error (see above).
  static std::shared_ptr<System> create(const SystemDescription& description, const OpenOptions& options = {});
  ~System() override;
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  const SystemDescription& description() const { return description_; }
  std::size_t component_count() const;
  const std::string& component_name(std::size_t c) const;
  const Fmu& component_fmu(std::size_t c) const;

  // --- Model
  const std::filesystem::path& path() const override { return description_.source; }
  std::string display_name() const override;  // "system <name>" or the .ssp's file name
  const ModelDescription& model_description() const override;
  const Manifest& manifest() const override;
  DaeForm form() const override { return DaeForm::fully_implicit; }
  const std::vector<ValueReference>& states() const override;
  const std::vector<ValueReference>& derivatives() const override;
  std::string state_name(std::size_t i) const override;
  std::string derivative_name(std::size_t i) const override;
  std::size_t event_indicator_count() const override;
  void load_binary() const override;
  // When at least one component's are available (Fmu::directional_derivatives_available:
  // declared and exported; after load_binary()): the composite instance
  // forwards them, adding the rows lsdae computes itself, and takes those
  // of the components without them by central differences along the seed
  // (a mixed Jacobian: runtime/system/composite_instance.h). When no
  // component has them, the Jacobian of a system is built by coloured
  // finite differences, and the note names every component.
  bool directional_derivatives_available() const override;
  std::string directional_derivatives_note() const override;
  // The components without usable directional derivatives (after load_binary()).
  std::vector<std::string> components_by_differences() const;
  // A composite instance: one instance of every component (named
  // "<instance_name>.<component>"), the DAE switch of those with a manifest
  // on, the components' parameter values applied.
  std::unique_ptr<Instance> instantiate(const std::string& instance_name) const override;

 private:
  System();
  SystemDescription description_;
  std::unique_ptr<system::Composition> composition_;
  mutable bool mixed_note_logged_ = false;
};

}  // namespace lsdae

#endif  // LSDAE_SYSTEM_H
