// python/src/model_binding.cpp -- lsdae._lsdae.Model, beneath the Python layer's
// lsdae.Model (python/lsdae/_model.py): a model opened by the run layer
// (run/open_model.h: an FMU, an unpacked FMU folder, or a system of FMUs,
// .ssp or .ssd with every variable named "component.variable") -- its
// variables, default experiment, states, and the check of a value for its
// variable's type -- and the conversions between Python values and lsdae's
// typed values (lsdae/values.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "lsdae/error.h"
#include "lsdae/model_description.h"
#include "lsdae/values.h"
#include "run/open_model.h"

namespace py = pybind11;

namespace lsdae::python {


bool is_binary_type(lsdae::VariableType t) { return t == lsdae::VariableType::binary; }

py::object hex_to_bytes(const std::string& hex) {
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return py::bytes(out);
}

std::string bytes_to_hex(const std::string& raw) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    hex.push_back(digits[c >> 4]);
    hex.push_back(digits[c & 15]);
  }
  return hex;
}

py::object element_to_python(const lsdae::Values& v, std::size_t k) {
  switch (lsdae::storage_of(v.type)) {
    case lsdae::ValueStorage::real: return py::float_(v.reals[k]);
    case lsdae::ValueStorage::integer:
      if (v.type == lsdae::VariableType::boolean) return py::bool_(v.integers[k] != 0);
      return py::int_(v.integers[k]);
    case lsdae::ValueStorage::unsigned_integer: return py::int_(v.unsigned_integers[k]);
    case lsdae::ValueStorage::text:
      if (is_binary_type(v.type)) return hex_to_bytes(v.texts[k]);
      return py::str(v.texts[k]);
  }
  return py::none();
}

py::object values_to_python(const lsdae::Values& v, bool as_array) {
  if (!as_array && v.size() == 1) return element_to_python(v, 0);
  if (lsdae::storage_of(v.type) == lsdae::ValueStorage::real) return py::array_t<double>(py::ssize_t(v.reals.size()), v.reals.data());
  py::list list;
  for (std::size_t k = 0; k < v.size(); ++k) list.append(element_to_python(v, k));
  return py::object(std::move(list));
}

// A Python value as the text lsdae parses strictly for the variable's type
// (lsdae/values.h): bool -> true/false, int -> decimal, float -> the shortest
// repr that reads back to the same double, bytes -> hex, str as it is, a
// sequence -> its elements space-separated (a whole array).
std::string python_to_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::bytes>(value)) return bytes_to_hex(value.cast<std::string>());
  if (py::isinstance<py::int_>(value)) return py::str(value).cast<std::string>();
  if (py::isinstance<py::float_>(value)) return py::repr(value).cast<std::string>();
  if (py::hasattr(value, "dtype") && py::hasattr(value, "item") && py::len(value.attr("shape")) == 0)
    return python_to_text(value.attr("item")());  // a NumPy scalar
  if (py::isinstance<py::sequence>(value) || py::hasattr(value, "__array__")) {
    py::object seq = py::hasattr(value, "tolist") ? value.attr("tolist")() : py::reinterpret_borrow<py::object>(value);
    std::string text;
    for (py::handle item : seq) text += (text.empty() ? "" : " ") + python_to_text(item);
    return text;
  }
  throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae: a value of Python type " +
                                                  py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                                                  " cannot be set → give a bool, int, float, str, bytes or a sequence of them");
}


namespace {

// ---- the model ----------------------------------------------------------------

py::object optional_number(const std::optional<double>& v) { return v ? py::object(py::float_(*v)) : py::none(); }

py::list variables_of(const lsdae::Model& fmu) {
  const lsdae::ModelDescription& md = fmu.model_description();
  py::list out;
  for (const lsdae::Variable& v : md.variables) {
    py::dict d;
    d["name"] = v.name;
    d["value_reference"] = v.value_reference;
    d["type"] = lsdae::to_string(v.type);
    d["causality"] = lsdae::to_string(v.causality);
    d["variability"] = lsdae::to_string(v.variability);
    d["initial"] = v.initial ? py::object(py::str(lsdae::to_string(*v.initial))) : py::none();
    d["unit"] = v.unit;
    d["description"] = v.description;
    d["declared_type"] = v.declared_type;
    d["start"] = v.start_text ? py::object(py::str(*v.start_text)) : py::none();
    d["nominal"] = optional_number(v.nominal);
    d["min"] = optional_number(v.min);
    d["max"] = optional_number(v.max);
    d["shape"] = py::tuple(py::cast(v.shape));
    const lsdae::Variable* of = v.derivative ? md.find(*v.derivative) : nullptr;
    d["derivative_of"] = of != nullptr ? py::object(py::str(of->name)) : py::none();
    out.append(d);
  }
  return out;
}

py::dict default_experiment_of(const lsdae::Model& fmu) {
  const lsdae::DefaultExperiment& e = fmu.model_description().default_experiment;
  py::dict d;
  d["start_time"] = optional_number(e.start_time);
  d["stop_time"] = optional_number(e.stop_time);
  d["tolerance"] = optional_number(e.tolerance);
  d["step_size"] = optional_number(e.step_size);
  return d;
}

// The variable `name` names, or the array whose element it names ("A[2,3]"):
// the element's row-major index (0-based) in *element. nullptr when neither.
const lsdae::Variable* variable_or_element(const lsdae::ModelDescription& md, const std::string& name,
                                           std::optional<std::size_t>* element) {
  element->reset();
  if (const lsdae::Variable* v = md.find(name)) return v;
  const auto open = name.rfind('[');
  if (open == std::string::npos || name.back() != ']') return nullptr;
  const lsdae::Variable* v = md.find(name.substr(0, open));
  if (v == nullptr || !v->is_array()) return nullptr;
  std::vector<std::uint64_t> indices;
  std::string part;
  for (std::size_t i = open + 1; i < name.size(); ++i) {
    const char c = name[i];
    if (c == ',' || c == ']') {
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      indices.push_back(std::stoull(part));
      part.clear();
    } else if (c != ' ') {
      part.push_back(c);
    }
  }
  if (indices.size() != v->shape.size()) return nullptr;
  std::size_t flat = 0;
  for (std::size_t d = 0; d < indices.size(); ++d) {
    if (indices[d] < 1 || indices[d] > v->shape[d]) return nullptr;
    flat = flat * v->shape[d] + (indices[d] - 1);
  }
  *element = flat;
  return v;
}

const lsdae::Variable& find_or_throw(const lsdae::Model& fmu, const std::string& name,
                                     std::optional<std::size_t>* element) {
  const lsdae::Variable* v = variable_or_element(fmu.model_description(), name, element);
  if (v == nullptr)
    throw lsdae::Error(lsdae::ErrorKind::usage, fmu.display_name() + ": no variable (or array element) is named \"" +
                                                    name + "\" → model.variables lists them; names are case-sensitive, "
                                                    "elements are 1-based (\"A[1,2]\")");
  return *v;
}

// Model.set: the value is checked against the variable's type when given,
// not at the next simulate().
void check_value(const lsdae::Model& fmu, const std::string& name, const py::object& value) {
  std::optional<std::size_t> element;
  const lsdae::Variable& v = find_or_throw(fmu, name, &element);
  const std::string text = python_to_text(value);
  if (element) lsdae::parse_element_value(v, fmu.model_description(), text);
  else lsdae::parse_value(v, fmu.model_description(), text);
}

py::object start_value(const lsdae::Model& fmu, const std::string& name) {
  std::optional<std::size_t> element;
  const lsdae::Variable& v = find_or_throw(fmu, name, &element);
  const lsdae::Values all = lsdae::start_values(v, fmu.model_description());
  if (element) {
    if (*element >= all.size()) return py::none();
    return element_to_python(all, *element);
  }
  return values_to_python(all, v.is_array());
}


}  // namespace

void define_model(py::module_& m) {
  py::class_<PyModel, std::shared_ptr<PyModel>>(m, "Model")
      .def_static(
          "open",
          [](const std::filesystem::path& path) {
            auto model = std::make_shared<PyModel>();
            model->model = call_without_gil([&] { return lsdae::run::open_model(path).model; });
            return model;
          },
          py::arg("path"))
      .def_property_readonly("path", [](const PyModel& m) { return m.model->path(); })
      .def_property_readonly("display_name", [](const PyModel& m) { return m.model->display_name(); })
      .def_property_readonly("model_name", [](const PyModel& m) { return m.model->model_description().model_name; })
      .def_property_readonly("fmi_version", [](const PyModel& m) { return m.model->model_description().fmi_version; })
      .def_property_readonly("default_experiment", [](const PyModel& m) { return default_experiment_of(*m.model); })
      .def("variables", [](const PyModel& m) { return variables_of(*m.model); })
      .def("check_value", [](const PyModel& m, const std::string& name, const py::object& value) {
             check_value(*m.model, name, value);
           }, py::arg("name"), py::arg("value"))
      .def("start_value", [](const PyModel& m, const std::string& name) { return start_value(*m.model, name); },
           py::arg("name"))
      .def("states", [](const PyModel& m) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < m.model->states().size(); ++i) names.push_back(m.model->state_name(i));
        return names;
      });
}

}  // namespace lsdae::python
