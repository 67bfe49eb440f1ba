// lsdae/fmu.h -- open an FMU, inspect it, create instances.
//
//   #include "lsdae/fmu.h"
//   auto fmu = lsdae::Fmu::open("TransmissionLine.fmu");   // unpack, parse, validate
//   const auto& md = fmu->model_description();             // variables, structure
//   const auto& manifest = fmu->manifest();                // LS-DAE manifest (or none)
//   for (const auto& d : fmu->diagnostics().items()) std::cerr << d.format() << '\n';
//   auto inst = fmu->instantiate("tl");                    // loads the binary on first use
//   inst->enable_dae_mode();                               // through the manifest's switch
//   inst->enter_initialization_mode(1e-8, 0.0, 4e-6);
//
// Fmu::open extracts the archive into a private temporary directory (mode
// 0700) with the protections of runtime/import/archive.h: no absolute paths,
// no `..`, no symlinks, capped member count and size (lsdae/archive_limits.h). The
// directory is removed when the last reference to the Fmu and the last of
// its instances go away, and on SIGINT/SIGTERM/SIGHUP. A directory (an unpacked FMU) can be
// opened in place; nothing is then extracted or removed.
//
// Errors throw lsdae::Error (lsdae/error.h) with the stage as its kind.
// Validation problems are collected in diagnostics() (severities in
// lsdae/diagnostics.h). With OpenOptions::reject_invalid (the default) an FMU
// with errors that stop simulation is refused with all of them in the
// message, Error(invalid); conformance errors (FMI rules that simulation does
// not depend on) are logged as warnings, or refused as well with
// OpenOptions::strict.
#ifndef LSDAE_FMU_H
#define LSDAE_FMU_H

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lsdae/archive_limits.h"
#include "lsdae/diagnostics.h"
#include "lsdae/instance.h"
#include "lsdae/manifest.h"
#include "lsdae/model.h"
#include "lsdae/model_description.h"

namespace lsdae {

struct OpenOptions {
  ArchiveLimits limits;
  bool reject_invalid = true;          // throw when validation finds errors that stop simulation
  // With reject_invalid: also throw on conformance errors (`simulate --strict`)
  // instead of logging them as warnings.
  bool strict = false;
  std::filesystem::path temp_root;     // default: $TMPDIR, else /tmp
};

// The numbers `lsdae info` prints.
struct FmuSummary {
  std::string model_name, fmi_version, generation_tool;
  ManifestShape shape = ManifestShape::none;
  DaeForm form = DaeForm::ode;
  bool has_dae_switch = false;
  std::size_t variables = 0, parameters = 0, inputs = 0, outputs = 0;
  std::size_t states = 0, derivatives = 0, algebraic = 0;
  std::size_t residual_groups = 0, formulations = 0, invariants = 0;
  std::map<int, std::size_t> formulations_per_index;  // declared index -> count (0: none)
  std::size_t event_indicators = 0;
  std::size_t ode_dependency_nonzeros = 0;   // core ModelStructure derivatives
  std::size_t dae_dependency_nonzeros = 0;   // manifest residuals (+ derivatives when semi-explicit)
  std::size_t dense_rows = 0;                // unknowns without a dependencies attribute
  std::vector<std::string> capabilities;     // ModelExchange flags that are true
};

class Instance;
class FmuBinary;
class InstanceCounter;
struct InstanceContext;

// One FMU: the Model (lsdae/model.h) of a single component.
class Fmu : public Model, public std::enable_shared_from_this<Fmu> {
 public:
  // Opens a .fmu archive or an unpacked FMU directory. Throws lsdae::Error.
  static std::shared_ptr<Fmu> open(const std::filesystem::path& path, const OpenOptions& options = {});
  ~Fmu() override;
  Fmu(const Fmu&) = delete;
  Fmu& operator=(const Fmu&) = delete;

  const std::filesystem::path& path() const override { return path_; }
  std::string display_name() const override;  // file name, for messages
  const std::filesystem::path& unpacked_dir() const { return unpacked_dir_; }
  const ModelDescription& model_description() const override { return *md_; }
  const Manifest& manifest() const override { return *manifest_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  DaeForm form() const override { return form_; }
  FmuSummary summary() const;

  // Continuous states and their derivatives, in ContinuousStateDerivative order
  // (the order of fmi3GetContinuousStates).
  // One entry per scalar state: an array state appears once per element
  // (same value reference; state_element() says which, row-major, 0-based).
  const std::vector<ValueReference>& states() const override { return states_; }
  const std::vector<ValueReference>& derivatives() const override { return derivatives_; }
  std::size_t state_element(std::size_t i) const { return state_elements_[i]; }
  // "x" or "x[2]" for state i; likewise its derivative.
  std::string state_name(std::size_t i) const override;
  std::string derivative_name(std::size_t i) const override;
  // Scalar event indicators (array indicators count their elements).
  std::size_t event_indicator_count() const override { return event_indicators_; }

  // Loads binaries/<platform>/<modelIdentifier>.so (RTLD_NOW | RTLD_LOCAL)
  // with the binary interface of the model description's FMI version
  // (x86_64-linux and the fmi3 functions for FMI 3.0, linux64 and the fmi2
  // functions for FMI 2.0; runtime/fmu/loader.h), resolves the functions
  // and checks GetVersion. Called by instantiate() on first use. Throws
  // Error(binary) naming the missing symbol or the dlopen message. Missing
  // optional functions disable features (a warning is logged).
  void load_binary() const override;
  bool binary_loaded() const { return library_ != nullptr; }
  // Whether lsdae uses fmi3GetDirectionalDerivative for this FMU: declared,
  // exported, and meaningful for the form read. Not in the OpenModelica form:
  // there one value reference stands for x and x', and FMI-LS-DAE
  // 1.0.0-alpha.1 admits no derivative among the knowns, so the FMU cannot be
  // asked for dF/dx and dF/dx' apart (directional_derivatives_note() says so).
  bool directional_derivatives_available() const override;
  // Why declared directional derivatives are not used; empty when they are
  // used or not declared.
  std::string directional_derivatives_note() const override;

  // A new instance (fmi3InstantiateModelExchange / fmi2Instantiate with the
  // instantiation token or guid and the resources directory). Throws Error(fmu_call) when the FMU refuses
  // (e.g. a token mismatch) and Error(usage) for a second live instance of an
  // FMU with canBeInstantiatedOnlyOncePerProcess. The instance knows this
  // FMU through a small context (runtime/fmu/instance_context.h: the model
  // description, the resources folder, the display name), not this object;
  // it keeps the unpacked folder and the loaded binary while it lives.
  std::unique_ptr<Instance> instantiate(const std::string& instance_name) const override;
  std::size_t live_instances() const;

 private:
  Fmu();
  // What an instance of this FMU is given (runtime/fmu/instance_context.h).
  InstanceContext instance_context() const;
  void analyse();
  // OpenOptions::reject_invalid: throws Error(invalid) listing the errors (and,
  // when `strict`, the conformance errors); otherwise logs each conformance
  // error as a warning.
  void refuse_or_warn(bool strict) const;

  std::filesystem::path path_;
  std::filesystem::path unpacked_dir_;
  std::shared_ptr<void> temp_dir_;  // removes the extraction directory when released
  // Shared with the instances (their context), which may outlive this object.
  std::shared_ptr<ModelDescription> md_;
  std::shared_ptr<Manifest> manifest_;
  Diagnostics diagnostics_;
  DaeForm form_ = DaeForm::ode;
  std::vector<ValueReference> states_, derivatives_;
  std::vector<std::size_t> state_elements_;
  std::size_t event_indicators_ = 0;
  mutable std::shared_ptr<FmuBinary> library_;
  std::shared_ptr<InstanceCounter> live_;  // shared with the instances, which count themselves in it
};

}  // namespace lsdae

#endif  // LSDAE_FMU_H
