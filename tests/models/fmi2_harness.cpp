// tests/models/fmi2_harness.cpp
#include "fmi2_harness.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace lsdae::test::fmi2 {

std::vector<CatalogEntry> read_catalog_fmi2() {
  std::ifstream in(LSDAE_FMU_CATALOG_FMI2);
  if (!in) throw std::runtime_error(std::string("cannot read the FMU catalog ") + LSDAE_FMU_CATALOG_FMI2);
  std::vector<CatalogEntry> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) fields.push_back(field);
    fields.resize(6);
    entries.push_back({fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]});
  }
  return entries;
}

const Variable& Description::named(const std::string& name) const {
  for (const Variable& v : variables)
    if (v.name == name) return v;
  throw std::runtime_error("no ScalarVariable named \"" + name + "\"");
}

std::vector<std::size_t> Description::state_indices() const {
  std::vector<std::size_t> out;
  for (const Unknown& u : derivatives) out.push_back(at(u.index).derivative.value());
  return out;
}

namespace {

std::size_t to_index(const std::string& text, std::size_t count, const std::string& where) {
  std::size_t pos = 0;
  const unsigned long value = std::stoul(text, &pos);
  if (pos != text.size() || value == 0 || value > count)
    throw std::runtime_error(where + ": index \"" + text + "\" is not in 1.." + std::to_string(count));
  return value;
}

std::vector<Unknown> parse_unknowns(const pugi::xml_node& list, std::size_t count, const std::string& where) {
  std::vector<Unknown> out;
  for (pugi::xml_node n : list.children("Unknown")) {
    Unknown u;
    u.index = to_index(n.attribute("index").as_string(), count, where + " index");
    if (pugi::xml_attribute deps = n.attribute("dependencies")) {
      u.has_dependencies = true;
      std::istringstream in(deps.as_string());
      std::string word;
      while (in >> word) u.dependencies.push_back(to_index(word, count, where + " dependencies"));
      std::istringstream kinds(n.attribute("dependenciesKind").as_string());
      while (kinds >> word) u.kinds.push_back(word);
    }
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace

Description parse(const std::string& stage_dir) {
  const std::string path = stage_dir + "/modelDescription.xml";
  pugi::xml_document doc;
  const pugi::xml_parse_result result = doc.load_file(path.c_str());
  if (!result) throw std::runtime_error(path + ": " + result.description());
  const pugi::xml_node root = doc.child("fmiModelDescription");
  Description d;
  d.fmi_version = root.attribute("fmiVersion").as_string();
  d.guid = root.attribute("guid").as_string();
  d.number_of_event_indicators = root.attribute("numberOfEventIndicators").as_ullong(0);
  d.max_number_of_constraints = root.attribute("maxNumberOfConstraints").as_ullong(0);
  const pugi::xml_node me = root.child("ModelExchange");
  if (!me) throw std::runtime_error(path + ": no <ModelExchange>");
  d.model_identifier = me.attribute("modelIdentifier").as_string();
  d.provides_directional = me.attribute("providesDirectionalDerivative").as_bool(false);
  d.provides_constraints = me.attribute("providesConstraints").as_string("false");
  d.provides_projection = me.attribute("providesProjection").as_bool(false);
  d.provides_projection_step = me.attribute("providesProjectionStep").as_bool(false);
  for (pugi::xml_node sv : root.child("ModelVariables").children("ScalarVariable")) {
    Variable v;
    v.index = d.variables.size() + 1;
    v.name = sv.attribute("name").as_string();
    if (!sv.attribute("valueReference")) throw std::runtime_error(path + ": " + v.name + " has no valueReference");
    v.vr = sv.attribute("valueReference").as_uint();
    v.causality = sv.attribute("causality").as_string("local");
    v.variability = sv.attribute("variability").as_string("continuous");
    v.initial = sv.attribute("initial").as_string("");
    pugi::xml_node type = sv.first_child();
    v.type = type.name();
    if (pugi::xml_attribute der = type.attribute("derivative")) v.derivative = der.as_ullong();
    if (pugi::xml_attribute start = type.attribute("start")) {
      const std::string text = start.as_string();
      v.start = text == "true" ? 1.0 : text == "false" ? 0.0 : start.as_double();
    }
    d.variables.push_back(std::move(v));
  }
  const std::size_t count = d.variables.size();
  for (const Variable& v : d.variables)
    if (v.derivative && (*v.derivative == 0 || *v.derivative > count))
      throw std::runtime_error(path + ": derivative of " + v.name + " points nowhere");
  const pugi::xml_node ms = root.child("ModelStructure");
  d.outputs = parse_unknowns(ms.child("Outputs"), count, path + " Outputs");
  d.derivatives = parse_unknowns(ms.child("Derivatives"), count, path + " Derivatives");
  d.initial_unknowns = parse_unknowns(ms.child("InitialUnknowns"), count, path + " InitialUnknowns");
  return d;
}

Functions load(const std::string& stage_dir, const std::string& identifier) {
  Functions f;
  const std::string path = stage_dir + "/binaries/linux64/" + identifier + ".so";
  f.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (f.handle == nullptr) throw std::runtime_error("dlopen " + path + ": " + dlerror());
  auto resolve = [&](auto& slot, const char* symbol) {
    void* s = dlsym(f.handle, symbol);
    if (s == nullptr) throw std::runtime_error(path + ": missing symbol " + symbol);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(s);
  };
  resolve(f.get_version, "fmi2GetVersion");
  resolve(f.get_types_platform, "fmi2GetTypesPlatform");
  resolve(f.instantiate, "fmi2Instantiate");
  resolve(f.free_instance, "fmi2FreeInstance");
  resolve(f.setup_experiment, "fmi2SetupExperiment");
  resolve(f.enter_initialization, "fmi2EnterInitializationMode");
  resolve(f.exit_initialization, "fmi2ExitInitializationMode");
  resolve(f.enter_event, "fmi2EnterEventMode");
  resolve(f.new_discrete_states, "fmi2NewDiscreteStates");
  resolve(f.enter_continuous_time, "fmi2EnterContinuousTimeMode");
  resolve(f.completed_integrator_step, "fmi2CompletedIntegratorStep");
  resolve(f.set_time, "fmi2SetTime");
  resolve(f.set_states, "fmi2SetContinuousStates");
  resolve(f.get_states, "fmi2GetContinuousStates");
  resolve(f.get_derivatives, "fmi2GetDerivatives");
  resolve(f.get_event_indicators, "fmi2GetEventIndicators");
  resolve(f.get_nominals, "fmi2GetNominalsOfContinuousStates");
  resolve(f.get_real, "fmi2GetReal");
  resolve(f.set_real, "fmi2SetReal");
  resolve(f.get_integer, "fmi2GetInteger");
  resolve(f.get_boolean, "fmi2GetBoolean");
  resolve(f.get_string, "fmi2GetString");
  resolve(f.get_directional_derivative, "fmi2GetDirectionalDerivative");
  resolve(f.terminate, "fmi2Terminate");
  resolve(f.reset, "fmi2Reset");
  resolve(f.do_step, "fmi2DoStep");
  resolve(f.get_fmu_state, "fmi2GetFMUstate");
  resolve(f.set_fmu_state, "fmi2SetFMUstate");
  resolve(f.free_fmu_state, "fmi2FreeFMUstate");
  resolve(f.serialized_fmu_state_size, "fmi2SerializedFMUstateSize");
  resolve(f.serialize_fmu_state, "fmi2SerializeFMUstate");
  resolve(f.deserialize_fmu_state, "fmi2DeSerializeFMUstate");
  resolve(f.get_number_of_constraints, "fmi2GetNumberOfConstraints");
  resolve(f.constraint, "fmi2Constraint");
  resolve(f.constraint_jacobian, "fmi2ConstraintJacobian");
  resolve(f.projection_step, "fmi2ProjectionStep");
  resolve(f.projection, "fmi2Projection");
  return f;
}

void unload(Functions& f) {
  if (f.handle != nullptr) dlclose(f.handle);
  f.handle = nullptr;
}

std::string Log::all() const {
  std::string out;
  for (const std::string& m : messages) out += m + "\n";
  return out;
}

void Log::logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status, fmi2String category,
                 fmi2String message, ...) {
  char buffer[4096];
  va_list args;
  va_start(args, message);
  std::vsnprintf(buffer, sizeof buffer, message, args);
  va_end(args);
  static_cast<Log*>(env)->messages.push_back(std::to_string(static_cast<int>(status)) + " " +
                                             (instance ? instance : "") + " [" + (category ? category : "") + "] " +
                                             buffer);
}

std::string resource_uri(const std::string& stage_dir) { return "file://" + stage_dir + "/resources"; }

Session::Session(const Functions& f, const Description& d, const std::string& stage_dir, Log& log) : f_(f) {
  callbacks_.logger = &Log::logger;
  callbacks_.componentEnvironment = &log;
  c_ = f.instantiate("session", fmi2ModelExchange, d.guid.c_str(), resource_uri(stage_dir).c_str(), &callbacks_,
                     fmi2False, fmi2False);
  if (c_ == nullptr) throw std::runtime_error("fmi2Instantiate failed: " + log.all());
  auto ok = [&](fmi2Status s, const char* what) {
    if (s != fmi2OK) throw std::runtime_error(std::string(what) + " returned " + std::to_string(s) + ": " + log.all());
  };
  ok(f.setup_experiment(c_, fmi2False, 0.0, 0.0, fmi2False, 0.0), "fmi2SetupExperiment");
  ok(f.enter_initialization(c_), "fmi2EnterInitializationMode");
  ok(f.exit_initialization(c_), "fmi2ExitInitializationMode");
  info_.newDiscreteStatesNeeded = fmi2True;
  for (int i = 0; i < 100 && info_.newDiscreteStatesNeeded != fmi2False; ++i)
    ok(f.new_discrete_states(c_, &info_), "fmi2NewDiscreteStates");
  ok(f.enter_continuous_time(c_), "fmi2EnterContinuousTimeMode");
}

Session::~Session() {
  if (c_ != nullptr) f_.free_instance(c_);
}

}  // namespace lsdae::test::fmi2
