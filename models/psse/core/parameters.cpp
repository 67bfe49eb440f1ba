// models/psse/core/parameters.cpp -- see parameters.h.
#include "psse/core/parameters.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "psse/core/component.h"

namespace lsdae::psse {

namespace {
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

// A whole token as a number (blanks around it allowed, Fortran D exponent accepted).
bool parse_number(std::string token, double& value) {
  while (!token.empty() && token.back() == ' ') token.pop_back();
  std::size_t start = token.find_first_not_of(' ');
  if (start == std::string::npos) return false;
  token.erase(0, start);
  for (char& c : token)
    if (c == 'D' || c == 'd') c = 'E';
  char* end = nullptr;
  value = std::strtod(token.c_str(), &end);
  return end != token.c_str() && *end == '\0';
}

std::string trimmed(const std::string& token) {
  const std::size_t a = token.find_first_not_of(' '), b = token.find_last_not_of(' ');
  return a == std::string::npos ? std::string() : token.substr(a, b - a + 1);
}
}  // namespace

std::string record_name(const DyrRecord& record) {
  return record.model + " at bus " + std::to_string(record.bus) + " id '" + record.id + "'";
}

Parameters::Parameters(const DyrRecord& record, std::span<const ParameterSpec> specs, std::span<const double> defaults)
    : record_(record), specs_(specs) {
  const std::size_t required = specs.size() - defaults.size();
  bool has_text = false;
  for (const ParameterSpec& s : specs) has_text = has_text || s.text;
  const std::size_t given = has_text ? record.tokens.size() : record.values.size();
  if (has_text && given >= required && given <= specs.size()) {
    for (std::size_t i = 0; i < given; ++i) {
      double v = std::numeric_limits<double>::quiet_NaN();
      if (specs[i].text) {
        texts_.push_back(trimmed(record.tokens[i]));
      } else {
        texts_.emplace_back();
        if (!parse_number(record.tokens[i], v))
          throw ModelError(where() + ": field " + std::to_string(i + 1) + " (" + specs[i].name + ") is \"" +
                           record.tokens[i] + "\", not a number → correct the record");
      }
      values_.push_back(v);
    }
    for (std::size_t i = given; i < specs.size(); ++i) {
      values_.push_back(defaults[i - required]);
      texts_.emplace_back();
    }
    return;
  }
  if (!record.numeric && !has_text) {
    for (std::size_t i = 0; i < record.tokens.size(); ++i) {
      char* end = nullptr;
      std::strtod(record.tokens[i].c_str(), &end);
      if (end == record.tokens[i].c_str() || *end != '\0')
        throw ModelError(where() + ": field " + std::to_string(i + 1) +
                         (i < specs.size() ? " (" + std::string(specs[i].name) + ")" : "") + " is \"" +
                         record.tokens[i] + "\", not a number → correct the record");
    }
  }
  const std::size_t n = given;
  if (n < required || n > specs.size()) {
    std::string list;
    for (std::size_t i = 0; i < specs.size(); ++i) list += (i ? ", " : "") + std::string(specs[i].name);
    throw ModelError(where() + ": " + std::to_string(n) + " parameters, expected " +
                     (required == specs.size() ? std::to_string(required)
                                               : std::to_string(required) + " to " + std::to_string(specs.size())) +
                     " (" + list + ") → correct the record, or substitute or skip the model");
  }
  values_ = record.values;
  for (std::size_t i = n; i < specs.size(); ++i) values_.push_back(defaults[i - required]);
  texts_.assign(values_.size(), std::string());
}

std::string Parameters::where() const { return record_.where() + ": " + record_name(record_); }

std::string Parameters::field(std::size_t i) const {
  return "field " + std::to_string(i + 1) + " (" + specs_[i].name + ") = " +
         (specs_[i].text ? "'" + texts_[i] + "'" : number(values_[i]));
}

void Parameters::require_positive(std::size_t i) const { require(values_[i] > 0.0, i, "must be > 0"); }

void Parameters::require_nonnegative(std::size_t i) const { require(values_[i] >= 0.0, i, "must be >= 0"); }

void Parameters::require(bool condition, std::size_t i, const std::string& what) const {
  require(condition, i, what, "correct the record");
}

void Parameters::require(bool condition, std::size_t i, const std::string& what, const std::string& remedy) const {
  if (condition && std::isfinite(values_[i])) return;
  throw ModelError(where() + ": " + field(i) + " → " + what + " → " + remedy);
}

const char* role_prefix(Role role) {
  switch (role) {
    case Role::machine: return "gen";
    case Role::load: return "load";
    case Role::exciter: return "exc";
    case Role::stabilizer: return "pss";
    case Role::governor: return "gov";
    case Role::renewable: return "ren";
    case Role::electrical_control: return "reec";
    case Role::plant_control: return "repc";
    case Role::other: return "dev";
  }
  return "dev";
}

std::string Component::describe() const {
  return info_.model + " at bus " + std::to_string(info_.bus) + " id '" + info_.id + "'" +
         (info_.origin.empty() ? "" : " (" + info_.origin + ")");
}

}  // namespace lsdae::psse
