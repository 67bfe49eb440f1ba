// runtime/common/model_description.cpp -- names and lookups of lsdae/model_description.h
// and lsdae/manifest.h.
#include "lsdae/manifest.h"
#include "lsdae/model_description.h"

namespace lsdae {

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

const char* to_string(ManifestShape shape) noexcept {
  switch (shape) {
    case ManifestShape::none: return "none";
    case ManifestShape::draft_0_1: return "A (draft 0.1)";
    case ManifestShape::alpha_1_0_0: return "B (1.0.0-alpha.1)";
  }
  return "?";
}

const char* to_key(ManifestShape shape) noexcept {
  switch (shape) {
    case ManifestShape::none: return "none";
    case ManifestShape::draft_0_1: return "A";
    case ManifestShape::alpha_1_0_0: return "B";
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

void ModelDescription::rebuild_index() {
  by_vr_.clear();
  by_name_.clear();
  by_vr_.reserve(variables.size());
  by_name_.reserve(variables.size());
  for (std::size_t i = 0; i < variables.size(); ++i) {
    by_vr_.emplace(variables[i].value_reference, i);
    by_name_.emplace(variables[i].name, i);
  }
}

std::size_t Manifest::formulation_count() const {
  std::size_t n = 0;
  for (const auto& g : residuals) n += g.formulations.size();
  return n;
}

}  // namespace lsdae
