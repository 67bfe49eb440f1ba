// runtime/common/model_description.cpp -- names and lookups of lsdae/model_description.h.
#include "lsdae/model_description.h"

namespace lsdae {

const char* to_string(FmiVersion version) noexcept {
  return version == FmiVersion::fmi2 ? "FMI 2.0" : "FMI 3.0";
}

const char* to_string(VariableType type) noexcept {
  switch (type) {
    case VariableType::float32: return "Float32";
    case VariableType::float64: return "Float64";
    case VariableType::int8: return "Int8";
    case VariableType::uint8: return "UInt8";
    case VariableType::int16: return "Int16";
    case VariableType::uint16: return "UInt16";
    case VariableType::int32: return "Int32";
    case VariableType::uint32: return "UInt32";
    case VariableType::int64: return "Int64";
    case VariableType::uint64: return "UInt64";
    case VariableType::boolean: return "Boolean";
    case VariableType::string: return "String";
    case VariableType::binary: return "Binary";
    case VariableType::enumeration: return "Enumeration";
    case VariableType::clock: return "Clock";
  }
  return "?";
}

const char* fmi_type_name(FmiVersion version, VariableType type) noexcept {
  if (version == FmiVersion::fmi2 && type == VariableType::float64) return "Real";
  if (version == FmiVersion::fmi2 && type == VariableType::int32) return "Integer";
  return to_string(type);
}

const char* to_string(Causality causality) noexcept {
  switch (causality) {
    case Causality::parameter: return "parameter";
    case Causality::calculated_parameter: return "calculatedParameter";
    case Causality::input: return "input";
    case Causality::output: return "output";
    case Causality::local: return "local";
    case Causality::independent: return "independent";
    case Causality::structural_parameter: return "structuralParameter";
  }
  return "?";
}

const char* to_string(Variability variability) noexcept {
  switch (variability) {
    case Variability::constant: return "constant";
    case Variability::fixed: return "fixed";
    case Variability::tunable: return "tunable";
    case Variability::discrete: return "discrete";
    case Variability::continuous: return "continuous";
  }
  return "?";
}

const char* to_string(Initial initial) noexcept {
  switch (initial) {
    case Initial::exact: return "exact";
    case Initial::approx: return "approx";
    case Initial::calculated: return "calculated";
  }
  return "?";
}

const char* to_string(DependencyKind kind) noexcept {
  switch (kind) {
    case DependencyKind::independent: return "independent";
    case DependencyKind::constant: return "constant";
    case DependencyKind::fixed: return "fixed";
    case DependencyKind::tunable: return "tunable";
    case DependencyKind::discrete: return "discrete";
    case DependencyKind::dependent: return "dependent";
  }
  return "?";
}

const char* to_string(ClockKind kind) noexcept {
  switch (kind) {
    case ClockKind::constant: return "constant";
    case ClockKind::fixed: return "fixed";
    case ClockKind::tunable: return "tunable";
    case ClockKind::changing: return "changing";
    case ClockKind::countdown: return "countdown";
    case ClockKind::triggered: return "triggered";
  }
  return "?";
}

bool is_float(VariableType type) noexcept { return type == VariableType::float32 || type == VariableType::float64; }

bool is_integer(VariableType type) noexcept {
  switch (type) {
    case VariableType::int8: case VariableType::uint8: case VariableType::int16: case VariableType::uint16:
    case VariableType::int32: case VariableType::uint32: case VariableType::int64: case VariableType::uint64:
      return true;
    default:
      return false;
  }
}

std::optional<std::size_t> ModelDescription::index_of(ValueReference vr) const {
  auto it = by_vr_.find(vr);
  if (it == by_vr_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::size_t> ModelDescription::index_of(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

const Variable* ModelDescription::find(ValueReference vr) const {
  auto i = index_of(vr);
  return i ? &variables[*i] : nullptr;
}

const Variable* ModelDescription::find(const std::string& name) const {
  auto i = index_of(name);
  return i ? &variables[*i] : nullptr;
}

std::size_t Variable::element_count() const {
  std::size_t n = 1;
  for (std::uint64_t d : shape) n *= static_cast<std::size_t>(d);
  return n;
}

std::string element_name(const Variable& variable, std::size_t element) {
  if (variable.shape.empty()) return variable.name;
  std::vector<std::size_t> index(variable.shape.size());
  for (std::size_t d = variable.shape.size(); d-- > 0;) {
    const auto extent = static_cast<std::size_t>(variable.shape[d]);
    index[d] = extent == 0 ? 0 : element % extent;
    element = extent == 0 ? 0 : element / extent;
  }
  std::string out = variable.name + "[";
  for (std::size_t d = 0; d < index.size(); ++d) out += (d == 0 ? "" : ",") + std::to_string(index[d] + 1);
  return out + "]";
}

std::optional<ModelDescription::ElementRef> ModelDescription::find_element(const std::string& name) const {
  if (const Variable* v = find(name)) return ElementRef{v, 0};
  // "base[i,j,...]": the last '[' opens the subscripts (a flat name such as
  // "L[1].i" is a plain variable name and was found above).
  if (name.empty() || name.back() != ']') return std::nullopt;
  const std::size_t open = name.rfind('[');
  if (open == std::string::npos || open == 0) return std::nullopt;
  const Variable* v = find(name.substr(0, open));
  if (v == nullptr || v->shape.empty()) return std::nullopt;
  std::vector<std::size_t> index;
  std::string digits;
  for (std::size_t k = open + 1; k < name.size(); ++k) {
    char c = name[k];
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (c == ',' || c == ']') {
      if (digits.empty() || digits.size() > 18) return std::nullopt;
      index.push_back(static_cast<std::size_t>(std::stoull(digits)));
      digits.clear();
    } else if (c != ' ') {
      return std::nullopt;
    }
  }
  if (index.size() != v->shape.size()) return std::nullopt;
  std::size_t flat = 0;
  for (std::size_t d = 0; d < index.size(); ++d) {
    if (index[d] < 1 || index[d] > v->shape[d]) return std::nullopt;
    flat = flat * static_cast<std::size_t>(v->shape[d]) + (index[d] - 1);
  }
  return ElementRef{v, flat};
}

void ModelDescription::rebuild_index() {
  by_vr_.clear();
  by_name_.clear();
  has_arrays_ = false;
  for (const auto& v : variables) has_arrays_ = has_arrays_ || v.is_array();
  by_vr_.reserve(variables.size());
  by_name_.reserve(variables.size());
  for (std::size_t i = 0; i < variables.size(); ++i) {
    // FMI 2.0 value references are unique per type only, and aliases share
    // one: the first variable wins, except that a Real beats a variable of
    // another type (states, derivatives and residuals are looked up by VR).
    auto [it, fresh] = by_vr_.emplace(variables[i].value_reference, i);
    if (!fresh && !is_float(variables[it->second].type) && is_float(variables[i].type)) it->second = i;
    by_name_.emplace(variables[i].name, i);
  }
}

}  // namespace lsdae
