// runtime/fmu/fmu.cpp -- lsdae::Fmu: open (unpack, parse, validate),
// summarise, load the binary, instantiate. See lsdae/fmu.h.
#include "lsdae/fmu.h"

#include <fstream>
#include <sstream>

#include "common/format.h"
#include "fmu/instance_context.h"
#include "fmu/loader.h"
#include "import/archive.h"
#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/temp_dir.h"
#include "import/validate.h"
#include "import/xml_document.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae {

namespace {

std::string read_member(const std::filesystem::path& dir, const std::string& member, const std::string& fmu_name,
                        std::uint64_t max_bytes, bool& exists) {
  std::filesystem::path file = dir / member;
  std::error_code ec;
  exists = std::filesystem::is_regular_file(file, ec);
  if (!exists) return {};
  auto size = std::filesystem::file_size(file, ec);
  if (ec) throw Error(ErrorKind::archive, fmu_name + ": " + member + ": cannot read its size (" + ec.message() + ")");
  if (size > max_bytes)
    throw Error(ErrorKind::archive, fmu_name + ": " + member + " is " + std::to_string(size) +
                                        " bytes, more than the limit of " + std::to_string(max_bytes) +
                                        " → if genuine, raise ArchiveLimits::max_xml_bytes");
  std::ifstream in(file, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (!in) throw Error(ErrorKind::archive, fmu_name + ": " + member + ": read failed");
  return text;
}

// Finds "<dir>/*/modelDescription.xml" to explain the common "zipped the folder" mistake.
std::string nested_hint(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_directory(ec) && std::filesystem::exists(entry.path() / "modelDescription.xml", ec))
      return "it is inside the folder \"" + entry.path().filename().string() +
             "/\": zip the folder's contents, not the folder";
  return "an FMU must contain modelDescription.xml at the top level";
}

}  // namespace

std::string Fmu::display_name() const { return path_.filename().empty() ? path_.string() : path_.filename().string(); }

std::shared_ptr<Fmu> Fmu::open(const std::filesystem::path& path, const OpenOptions& options) {
  std::shared_ptr<Fmu> fmu(new Fmu());
  fmu->path_ = path;
  const std::string name = fmu->display_name();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    fmu->unpacked_dir_ = path;
  } else if (std::filesystem::exists(path, ec)) {
    auto temp = std::make_shared<import::TempDir>(import::TempDir::create(options.temp_root));
    fmu->temp_dir_ = temp;
    fmu->unpacked_dir_ = temp->path();
    import::extract_archive(path, temp->path(), options.limits, &fmu->diagnostics_);
  } else {
    throw Error(ErrorKind::usage, path.string() + ": no such file → check the path");
  }

  bool exists = false;
  std::string md_text =
      read_member(fmu->unpacked_dir_, import::kModelDescriptionFile, name, options.limits.max_xml_bytes, exists);
  if (!exists)
    throw Error(ErrorKind::archive,
                name + ": modelDescription.xml is missing → " + nested_hint(fmu->unpacked_dir_));
  try {
    // Parsed in the buffer just read (no second copy of tens of megabytes);
    // each document is dropped once its contents are built.
    *fmu->md_ = import::parse_model_description(
        import::XmlDocument(std::move(md_text), import::kModelDescriptionFile, import::XmlDocument::in_place),
        fmu->diagnostics_);
    std::string manifest_text =
        read_member(fmu->unpacked_dir_, import::kManifestFile, name, options.limits.max_xml_bytes, exists);
    // FMI-LS-DAE is a layered standard of FMI 3.0: its DAE switch needs
    // Configuration Mode and its residuals the fmi3 calls. lsdae does not
    // guess how an FMI 2.0 binary would honour it: refused, with the way out.
    if (exists && fmu->md_->fmi_major == FmiVersion::fmi2)
      fmu->diagnostics_.error(import::kManifestFile, 0,
                              "an FMI-LS-DAE manifest next to an FMI 2.0 modelDescription.xml: FMI-LS-DAE layers "
                              "on FMI 3.0 (Configuration Mode, fmi3 calls), so lsdae cannot apply it",
                              "export the DAE as FMI 3.0, or remove the manifest to simulate the FMI 2.0 FMU as an ODE");
    else if (exists)
      *fmu->manifest_ = import::parse_manifest(
          import::XmlDocument(std::move(manifest_text), import::kManifestFile, import::XmlDocument::in_place),
          fmu->md_.get(), fmu->diagnostics_);
  } catch (const Error& e) {
    throw Error(e.kind(), name + ": " + e.what());
  }
  fmu->analyse();
  if (options.reject_invalid) fmu->refuse_or_warn(options.strict);
  return fmu;
}

namespace {
// At most this many conformance errors are logged one by one; `lsdae
// validate` lists them all.
constexpr std::size_t kConformanceWarningsShown = 20;
}  // namespace

void Fmu::refuse_or_warn(bool strict) const {
  const std::string name = display_name();
  const std::size_t errors = diagnostics_.count(Severity::error);
  const std::size_t conformance = diagnostics_.count(Severity::conformance);
  if (errors > 0 || (strict && conformance > 0)) {
    const bool listed_conformance = strict && conformance > 0;
    std::string message = name + ": the FMU is invalid (" +
                          count_of(errors + (listed_conformance ? conformance : 0), "error") +
                          (listed_conformance && errors == 0 ? ", refused by --strict" : "") + "):";
    for (const auto& d : diagnostics_.items())
      if (d.severity == Severity::error || (listed_conformance && d.severity == Severity::conformance))
        message += "\n  " + d.format();
    throw Error(ErrorKind::invalid, message);
  }
  std::size_t shown = 0;
  for (const auto& d : diagnostics_.items()) {
    if (d.severity != Severity::conformance || shown++ >= kConformanceWarningsShown) continue;
    Diagnostic as_warning = d;
    as_warning.severity = Severity::warning;
    log_warning(name + ": " + as_warning.format() + " (breaks an FMI rule that simulation does not depend on; "
                "--strict refuses it)");
  }
  if (conformance > kConformanceWarningsShown)
    log_warning(name + ": " + count_of(conformance - kConformanceWarningsShown, "more conformance error") +
                " (`lsdae validate` lists them)");
}

Fmu::Fmu()
    : md_(std::make_shared<ModelDescription>()),
      manifest_(std::make_shared<Manifest>()),
      live_(std::make_shared<InstanceCounter>()) {}

Fmu::~Fmu() = default;

void Fmu::analyse() {
  import::ValidationResult result = import::validate(*md_, *manifest_, diagnostics_);
  form_ = manifest_->present() ? result.form : DaeForm::ode;
  // One entry per scalar state: an array state contributes its elements in
  // row-major order, as fmi3GetContinuousStates orders them (FMI 3.0 §2.4.8).
  for (std::size_t i = 0; i < result.states.size(); ++i) {
    const Variable* x = md_->find(result.states[i]);
    const Variable* dx = md_->find(result.derivatives[i]);
    const std::size_t n = x != nullptr ? x->element_count() : 1;
    if (x != nullptr && dx != nullptr && dx->element_count() != n)
      diagnostics_.error("modelDescription.xml", dx->line,
                         "the state derivative \"" + dx->name + "\" has " + std::to_string(dx->element_count()) +
                             " elements, its state \"" + x->name + "\" " + std::to_string(n),
                         "give both the same <Dimension>s");
    if (x != nullptr && x->is_array() && manifest_->present())
      diagnostics_.error("modelDescription.xml", x->line,
                         "the state \"" + x->name + "\" is an array in an FMU with an LS-DAE manifest; lsdae reads "
                         "DAE-mode FMUs with scalar states only",
                         "export the DAE with scalar states (array states work in FMUs without a manifest)");
    for (std::size_t e = 0; e < n; ++e) {
      states_.push_back(result.states[i]);
      derivatives_.push_back(result.derivatives[i]);
      state_elements_.push_back(e);
    }
  }
  for (const auto& a : manifest_->algebraic_variables)
    if (const Variable* z = md_->find(a.value_reference); z != nullptr && z->is_array())
      diagnostics_.error("modelDescription.xml", z->line,
                         "the algebraic variable \"" + z->name + "\" is an array; lsdae reads scalar algebraic "
                         "variables only",
                         "export the DAE with scalar algebraic variables");
  for (const auto& u : md_->structure.event_indicators)
    if (const Variable* v = md_->find(u.value_reference)) event_indicators_ += v->element_count();
  // FMI 2.0 declares the count (numberOfEventIndicators) instead of listing them.
  if (md_->number_of_event_indicators) event_indicators_ = *md_->number_of_event_indicators;
  std::error_code ec;
  if (md_->model_exchange) {
    auto binary = binary_path(*md_, unpacked_dir_);
    if (!std::filesystem::exists(binary, ec))
      diagnostics_.warning("binaries/" + platform_folder(md_->fmi_major) + "/" +
                               md_->model_exchange->model_identifier + ".so",
                           0, "the FMU has no binary for this platform", "it can be inspected but not simulated here");
  }
}

std::string Fmu::state_name(std::size_t i) const {
  const Variable* v = md_->find(states_[i]);
  return v != nullptr ? element_name(*v, state_elements_[i]) : "vr " + std::to_string(states_[i]);
}

std::string Fmu::derivative_name(std::size_t i) const {
  const Variable* v = md_->find(derivatives_[i]);
  return v != nullptr ? element_name(*v, state_elements_[i]) : "vr " + std::to_string(derivatives_[i]);
}

FmuSummary Fmu::summary() const {
  FmuSummary s;
  s.model_name = md_->model_name;
  s.fmi_version = md_->fmi_version;
  s.generation_tool = md_->generation_tool;
  s.shape = manifest_->shape;
  s.form = form_;
  s.has_dae_switch = manifest_->enable_dae.has_value();
  s.variables = md_->variables.size();
  for (const auto& v : md_->variables) {
    if (v.causality == Causality::parameter || v.causality == Causality::structural_parameter) ++s.parameters;
    if (v.causality == Causality::input) ++s.inputs;
    if (v.causality == Causality::output) ++s.outputs;
  }
  s.states = states_.size();
  s.derivatives = derivatives_.size();
  s.algebraic = manifest_->algebraic_variables.size();
  s.residual_groups = manifest_->residuals.size();
  s.formulations = manifest_->formulation_count();
  s.invariants = manifest_->invariants.size();
  for (const auto& g : manifest_->residuals)
    for (const auto& f : g.formulations) ++s.formulations_per_index[f.index.value_or(0)];
  s.event_indicators = event_indicators_;
  for (const auto& u : md_->structure.continuous_state_derivatives) {
    if (u.dependencies) s.ode_dependency_nonzeros += u.dependencies->size();
    else if (!manifest_->present()) ++s.dense_rows;
  }
  if (manifest_->present()) {
    auto count = [&](const Unknown& u) {
      if (u.dependencies) s.dae_dependency_nonzeros += u.dependencies->size();
      else ++s.dense_rows;
    };
    for (const auto& g : manifest_->residuals)
      for (const auto& f : g.formulations) count(f.residual);
    if (form_ == DaeForm::semi_explicit)
      for (const auto& u : manifest_->structure.continuous_state_derivatives) count(u);
  }
  if (md_->model_exchange) {
    const ModelExchange& me = *md_->model_exchange;
    auto flag = [&](bool on, const char* name) { if (on) s.capabilities.emplace_back(name); };
    if (md_->fmi_major == FmiVersion::fmi2) {  // FMI 2.0's own attribute names
      flag(me.provides_directional_derivatives, "providesDirectionalDerivative");
      flag(me.can_get_and_set_fmu_state, "canGetAndSetFMUstate");
      flag(me.can_serialize_fmu_state, "canSerializeFMUstate");
      flag(!me.needs_completed_integrator_step, "completedIntegratorStepNotNeeded");
      flag(me.can_not_use_memory_management_functions, "canNotUseMemoryManagementFunctions");
      flag(me.provides_constraints == ModelExchange::Constraints::values, "providesConstraints");
      flag(me.provides_constraints == ModelExchange::Constraints::with_jacobian, "providesConstraints=withJacobian");
      flag(me.provides_projection, "providesProjection");
      flag(me.provides_projection_step, "providesProjectionStep");
      flag(me.can_be_instantiated_only_once_per_process, "canBeInstantiatedOnlyOncePerProcess");
      flag(me.needs_execution_tool, "needsExecutionTool");
      return s;
    }
    flag(me.provides_directional_derivatives, "providesDirectionalDerivatives");
    flag(me.provides_adjoint_derivatives, "providesAdjointDerivatives");
    flag(me.can_get_and_set_fmu_state, "canGetAndSetFMUState");
    flag(me.can_serialize_fmu_state, "canSerializeFMUState");
    flag(me.provides_per_element_dependencies, "providesPerElementDependencies");
    flag(me.needs_completed_integrator_step, "needsCompletedIntegratorStep");
    flag(me.provides_evaluate_discrete_states, "providesEvaluateDiscreteStates");
    flag(me.can_be_instantiated_only_once_per_process, "canBeInstantiatedOnlyOncePerProcess");
    flag(me.needs_execution_tool, "needsExecutionTool");
  }
  return s;
}

void Fmu::load_binary() const {
  if (library_) return;
  if (!md_->model_exchange)
    throw Error(ErrorKind::usage, display_name() + ": no <ModelExchange> element, so there is no binary to load");
  library_ = load_fmu_binary(*md_, unpacked_dir_, display_name());
  for (const auto& missing : library_->missing_optional_functions())
    log_debug(display_name() + ": the binary does not export the optional function " + missing);
  const bool v2 = md_->fmi_major == FmiVersion::fmi2;
  if (md_->model_exchange->provides_directional_derivatives && !library_->exports_directional_derivative())
    log_warning(display_name() + ": " +
                (v2 ? "providesDirectionalDerivative" : "providesDirectionalDerivatives") +
                "=\"true\" but the binary does not export " +
                fmi_call_name(md_->fmi_major, FmiCall::get_directional_derivative) +
                " → lsdae uses finite differences");
  for (const auto& warning : library_->capability_warnings(*md_)) log_warning(display_name() + ": " + warning);
  if (manifest_->enable_dae && !library_->can_set_dae_switch())
    log_warning(display_name() + ": the binary lacks fmi3EnterConfigurationMode or fmi3SetBoolean, so its DAE "
                "switch cannot be set → only ODE mode is usable");
  if (std::string note = directional_derivatives_note(); !note.empty())
    log_info(display_name() + ": " + note + " → the Jacobian is built by coloured finite differences (x + h and "
             "ẋ + cj·h together), as OMSimulator does");
}

bool Fmu::directional_derivatives_available() const {
  return md_->model_exchange && md_->model_exchange->provides_directional_derivatives && library_ &&
         library_->exports_directional_derivative() && form_ != DaeForm::fully_implicit_openmodelica;
}

std::string Fmu::directional_derivatives_note() const {
  if (form_ != DaeForm::fully_implicit_openmodelica || !md_->model_exchange ||
      !md_->model_exchange->provides_directional_derivatives)
    return {};
  // IDA's iteration matrix needs dF/dx + cj·dF/dẋ. In this form the manifest names
  // a state for both x and ẋ, and FMI-LS-DAE 1.0.0-alpha.1 admits inputs, states,
  // parameters, algebraic variables and time as knowns, not derivatives: a
  // directional derivative seeded on a state gives dF/dx at fixed ẋ (or an
  // FMU-specific mixture), never the cj-weighted sum.
  return "the fully implicit OpenModelica form names a state for both x and ẋ, and FMI-LS-DAE "
         "1.0.0-alpha.1 admits no derivative among the knowns of fmi3GetDirectionalDerivative, so dF/dx and "
         "dF/dẋ cannot be asked for apart";
}

std::unique_ptr<Instance> Fmu::instantiate(const std::string& instance_name) const {
  load_binary();
  if (md_->model_exchange->can_be_instantiated_only_once_per_process && live_->live() > 0)
    throw Error(ErrorKind::usage, display_name() + ": canBeInstantiatedOnlyOncePerProcess=\"true\" and an instance "
                                                   "is alive → free it first, or use one thread");
  return library_->instantiate(instance_context(), instance_name);
}

InstanceContext Fmu::instance_context() const {
  InstanceContext context;
  context.description = md_;
  context.manifest = manifest_;
  context.resources = unpacked_dir_ / "resources";
  context.display_name = display_name();
  context.states = states_.size();
  context.event_indicators = event_indicators_;
  context.directional_derivatives = directional_derivatives_available();
  context.counter = live_;
  context.files = temp_dir_;
  return context;
}

std::size_t Fmu::live_instances() const { return live_->live(); }

}  // namespace lsdae
