// runtime/capi/lsdae_c_variables.cpp -- the variables and the typed values
// of the C interface (lsdae/lsdae.h): lsdae_variable_*, lsdae_get_text,
// lsdae_get_int64 and the typed setters and getters, each checking the
// variable's type and naming the function to use instead.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include "capi/guarded.h"
#include "capi/handle.h"
#include "lsdae/error.h"
#include "lsdae/lsdae.h"
#include "lsdae/model_description.h"
#include "lsdae/values.h"

using lsdae::capi::null_handle;

namespace {

// The variable `name` names, or the array variable whose element it names ("A[2,3]").
const lsdae::Variable* variable_named(const lsdae::ModelDescription& md, const std::string& name) {
  if (const lsdae::Variable* v = md.find(name)) return v;
  const auto open = name.rfind('[');
  if (open == std::string::npos || open == 0 || name.back() != ']') return nullptr;
  const lsdae::Variable* v = md.find(name.substr(0, open));
  return v != nullptr && v->is_array() ? v : nullptr;
}

// The typed function for a variable of this type (for a mismatch's message).
const char* typed_functions(lsdae::VariableType type) {
  switch (type) {
    case lsdae::VariableType::float32:
    case lsdae::VariableType::float64: return "lsdae_set / lsdae_get";
    case lsdae::VariableType::boolean: return "lsdae_set_boolean / lsdae_get_boolean";
    case lsdae::VariableType::string: return "lsdae_set_text / lsdae_get_text";
    case lsdae::VariableType::binary: return "lsdae_set_binary / lsdae_get_binary";
    case lsdae::VariableType::uint64: return "lsdae_set_uint64 / lsdae_get_uint64";
    case lsdae::VariableType::clock: return "none: Clocks have no value to set or get";
    default: return "lsdae_set_int64 / lsdae_get_int64";
  }
}

// The variable, checked to be of one of the `accepted` types.
const lsdae::Variable& typed_variable(lsdae_simulation* s, const char* function, const char* name,
                                      std::initializer_list<lsdae::VariableType> accepted, const char* accepted_text) {
  if (name == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": name must not be NULL");
  const lsdae::Model& fmu = s->sim->model();
  const lsdae::Variable* v = variable_named(fmu.model_description(), name);
  if (v == nullptr)
    throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": " + fmu.display_name() +
                                                    ": no variable is named \"" + name +
                                                    "\" → `lsdae info --variables` lists them; names are case-sensitive");
  for (lsdae::VariableType t : accepted)
    if (v->type == t) return *v;
  throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": \"" + name + "\" is " +
                                                  lsdae::to_string(v->type) + ", not " + accepted_text + " → use " +
                                                  typed_functions(v->type));
}

constexpr std::initializer_list<lsdae::VariableType> kIntegerTypes = {
    lsdae::VariableType::int8,  lsdae::VariableType::uint8,  lsdae::VariableType::int16, lsdae::VariableType::uint16,
    lsdae::VariableType::int32, lsdae::VariableType::uint32, lsdae::VariableType::int64, lsdae::VariableType::uint64};

// The one value of a scalar (or element) read with get_values.
lsdae::Values one_value(lsdae_simulation* s, const char* function, const char* name) {
  lsdae::Values v = s->sim->get_values(std::string(name));
  if (v.size() != 1)
    throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": \"" + name + "\" is an array of " +
                                                    std::to_string(v.size()) + " elements → name one: " + name + "[1]");
  return v;
}

std::string to_hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(digits[data[i] >> 4]);
    hex.push_back(digits[data[i] & 15]);
  }
  return hex;
}

}  // namespace

extern "C" {

lsdae_status lsdae_get_int64(lsdae_simulation* s, const char* name, int64_t* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr || value == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_int64: name and value must not be NULL");
    lsdae::Values v = s->sim->get_values(std::string(name));
    if (v.size() != 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" is an array of " +
                                                      std::to_string(v.size()) + " elements → name one: " + name + "[1]");
    switch (lsdae::storage_of(v.type)) {
      case lsdae::ValueStorage::integer: *value = v.integers[0]; return;
      case lsdae::ValueStorage::unsigned_integer:
        if (v.unsigned_integers[0] > static_cast<std::uint64_t>(INT64_MAX))
          throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" = " +
                                                          std::to_string(v.unsigned_integers[0]) +
                                                          " does not fit an int64 → use lsdae_get_text");
        *value = static_cast<int64_t>(v.unsigned_integers[0]);
        return;
      default:
        throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" is " +
                                                        lsdae::to_string(v.type) + " → use lsdae_get or lsdae_get_text");
    }
  });
}

lsdae_status lsdae_get_text(lsdae_simulation* s, const char* name, char* buffer, size_t size, size_t* needed) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_text: name must not be NULL");
    lsdae::Values v = s->sim->get_values(std::string(name));
    std::string text;
    for (std::size_t k = 0; k < v.size(); ++k) text += (k == 0 ? "" : " ") + v.text(k);
    if (needed != nullptr) *needed = text.size() + 1;
    if (size == 0 && buffer == nullptr) return;  // a size query
    if (buffer == nullptr || size < text.size() + 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_text: \"" + std::string(name) + "\" needs " +
                                                      std::to_string(text.size() + 1) + " bytes, the buffer has " +
                                                      std::to_string(size) + " → pass a larger buffer (*needed says how large)");
    std::memcpy(buffer, text.c_str(), text.size() + 1);
  });
}

size_t lsdae_variable_count(const lsdae_simulation* s) {
  return s == nullptr ? 0 : s->sim->model().model_description().variables.size();
}

lsdae_status lsdae_variable_at(lsdae_simulation* s, size_t index, lsdae_variable* out) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (out == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_at: variable must not be NULL");
    const auto& variables = s->sim->model().model_description().variables;
    if (index >= variables.size())
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_at: index " + std::to_string(index) +
                                                      " is past the last variable → use 0 .. " +
                                                      std::to_string(variables.size()) +
                                                      " - 1 (lsdae_variable_count)");
    const lsdae::Variable& v = variables[index];
    out->name = v.name.c_str();
    out->value_reference = v.value_reference;
    out->type = static_cast<lsdae_type>(v.type);
    out->causality = static_cast<lsdae_causality>(v.causality);
    out->variability = static_cast<lsdae_variability>(v.variability);
    out->unit = v.unit.c_str();
    out->description = v.description.c_str();
    out->start = v.start_text ? v.start_text->c_str() : nullptr;
    out->elements = v.element_count();
  });
}

lsdae_status lsdae_variable_index(lsdae_simulation* s, const char* name, size_t* index) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr || index == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_index: name and index must not be NULL");
    const lsdae::Model& fmu = s->sim->model();
    const auto& variables = fmu.model_description().variables;
    const lsdae::Variable* v = fmu.model_description().find(std::string(name));
    if (v == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_index: " + fmu.display_name() +
                                                      ": no variable is named \"" + name +
                                                      "\" → `lsdae info --variables` lists them; names are case-sensitive");
    *index = static_cast<size_t>(v - variables.data());
  });
}

const char* lsdae_type_name(lsdae_type type) {
  if (static_cast<int>(type) < 0 || static_cast<int>(type) > LSDAE_TYPE_CLOCK) return "";
  return lsdae::to_string(static_cast<lsdae::VariableType>(type));
}

lsdae_status lsdae_set_int64(lsdae_simulation* s, const char* name, int64_t value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_int64", name,
                   {lsdae::VariableType::int8, lsdae::VariableType::uint8, lsdae::VariableType::int16,
                    lsdae::VariableType::uint16, lsdae::VariableType::int32, lsdae::VariableType::uint32,
                    lsdae::VariableType::int64, lsdae::VariableType::uint64, lsdae::VariableType::enumeration,
                    lsdae::VariableType::boolean},
                   "an integer, Enumeration or Boolean");
    s->sim->set(std::string(name), std::to_string(value));  // range-checked for the type
  });
}

lsdae_status lsdae_set_uint64(lsdae_simulation* s, const char* name, uint64_t value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_uint64", name, kIntegerTypes, "an integer type");
    s->sim->set(std::string(name), std::to_string(value));
  });
}

lsdae_status lsdae_get_uint64(lsdae_simulation* s, const char* name, uint64_t* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_uint64", name, kIntegerTypes, "an integer type");
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_uint64: value must not be NULL");
    const lsdae::Values v = one_value(s, "lsdae_get_uint64", name);
    if (lsdae::storage_of(v.type) == lsdae::ValueStorage::unsigned_integer) {
      *value = v.unsigned_integers[0];
      return;
    }
    if (v.integers[0] < 0)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_uint64: \"") + name + "\" = " +
                                                      std::to_string(v.integers[0]) +
                                                      " is negative → read it with lsdae_get_int64");
    *value = static_cast<uint64_t>(v.integers[0]);
  });
}

lsdae_status lsdae_set_boolean(lsdae_simulation* s, const char* name, int value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_boolean", name, {lsdae::VariableType::boolean}, "Boolean");
    if (value != 0 && value != 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_set_boolean: \"") + name + "\" given " +
                                                      std::to_string(value) + " → give 0 (false) or 1 (true)");
    s->sim->set(std::string(name), std::string(value == 1 ? "true" : "false"));
  });
}

lsdae_status lsdae_get_boolean(lsdae_simulation* s, const char* name, int* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_boolean", name, {lsdae::VariableType::boolean}, "Boolean");
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_boolean: value must not be NULL");
    *value = one_value(s, "lsdae_get_boolean", name).integers[0] != 0 ? 1 : 0;
  });
}

lsdae_status lsdae_set_binary(lsdae_simulation* s, const char* name, const uint8_t* data, size_t size) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_binary", name, {lsdae::VariableType::binary}, "Binary");
    if (data == nullptr && size > 0)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_binary: data is NULL with size " + std::to_string(size) +
                                                      " → pass the bytes (NULL only with size 0)");
    s->sim->set(std::string(name), to_hex(data, size));
  });
}

lsdae_status lsdae_get_binary(lsdae_simulation* s, const char* name, uint8_t* buffer, size_t size, size_t* needed) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_binary", name, {lsdae::VariableType::binary}, "Binary");
    const std::string hex = one_value(s, "lsdae_get_binary", name).texts[0];
    const size_t bytes = hex.size() / 2;
    if (needed != nullptr) *needed = bytes;
    if (size == 0 && buffer == nullptr) return;  // a size query
    if (buffer == nullptr || size < bytes)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_binary: \"") + name + "\" has " +
                                                      std::to_string(bytes) + " bytes, the buffer " +
                                                      std::to_string(size) + " → pass a larger buffer (*needed says how large)");
    for (size_t i = 0; i < bytes; ++i)
      buffer[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  });
}

}  // extern "C"
