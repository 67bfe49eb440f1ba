// lsdae/model.h -- the model a simulation runs: what lsdae::Simulation needs
// to know about it and how it makes instances.
//
// Two implementations:
//   - lsdae::Fmu (lsdae/fmu.h): one FMU, as read from its archive. Its
//     instances are the FMU's own (fmi3 or fmi2 calls, no layer between).
//   - lsdae::System (lsdae/system.h): several FMUs composed into one DAE by
//     runtime/system/ (components, connections, couplings). Its model
//     description names every variable "component.variable"; its instances
//     fan each call out to the components' instances.
// "A single FMU is a system of one component": the simulation sees only
// this interface, so a single FMU runs exactly as before (same calls, same
// counters) and a system runs through the same code.
//
// Contract (what the simulation relies on):
//   - model_description() and manifest() describe the model as one FMU
//     would: states() / derivatives() in the order of get_continuous_states,
//     the manifest's residual groups and algebraic variables by value
//     reference of model_description(); form() says how residuals relate to
//     the state derivatives (lsdae/dae_form.h).
//   - instantiate(name) returns an Instance (lsdae/instance.h) whose value
//     references are those of model_description(); enable_dae_mode() is a
//     no-op on it when the manifest has no enable switch.
//   - The object outlives its instances (instances keep a shared_ptr to it).
#ifndef LSDAE_MODEL_H
#define LSDAE_MODEL_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "lsdae/dae_form.h"
#include "lsdae/manifest.h"
#include "lsdae/model_description.h"

namespace lsdae {

class Instance;

class Model {
 public:
  virtual ~Model();

  // The file the model was read from (an .fmu, an .ssp; empty when built by a program).
  virtual const std::filesystem::path& path() const = 0;
  virtual std::string display_name() const = 0;  // for messages
  virtual const ModelDescription& model_description() const = 0;
  virtual const Manifest& manifest() const = 0;
  virtual DaeForm form() const = 0;

  // Continuous states and their derivatives, one entry per scalar state, in
  // the order of get_continuous_states (an array state appears once per element).
  virtual const std::vector<ValueReference>& states() const = 0;
  virtual const std::vector<ValueReference>& derivatives() const = 0;
  // "x" or "x[2]" for state i ("component.x" in a system); likewise its derivative.
  virtual std::string state_name(std::size_t i) const = 0;
  virtual std::string derivative_name(std::size_t i) const = 0;
  // Scalar event indicators (array indicators count their elements).
  virtual std::size_t event_indicator_count() const = 0;

  // Loads what instantiate() needs (the binaries); Error(binary) when it cannot.
  virtual void load_binary() const = 0;
  // Whether the instances give directional derivatives the simulation may use,
  // and why not when they are declared but not used ("" otherwise).
  virtual bool directional_derivatives_available() const = 0;
  virtual std::string directional_derivatives_note() const = 0;

  virtual std::unique_ptr<Instance> instantiate(const std::string& instance_name) const = 0;
};

}  // namespace lsdae

#endif  // LSDAE_MODEL_H
