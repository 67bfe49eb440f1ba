// runtime/import/ssp/parameter_set.cpp -- see parameter_set.h.
#include "import/ssp/parameter_set.h"

#include <string_view>

namespace lsdae::import {

std::vector<ParameterValue> read_parameter_set(const XmlDocument& doc, const pugi::xml_node& parameter_set,
                                               Diagnostics& diagnostics) {
  std::vector<ParameterValue> values;
  for (const auto& parameters : element_children(parameter_set)) {
    if (local_name(parameters.name()) != "Parameters") continue;  // Enumerations, Units, Annotations
    for (const auto& parameter : element_children(parameters)) {
      if (local_name(parameter.name()) != "Parameter") continue;
      AttributeReader p(doc, parameter, diagnostics);
      ParameterValue v;
      v.name = p.required_text("name");
      v.line = p.line();
      if (v.name.empty()) continue;
      pugi::xml_node typed;
      for (const auto& child : element_children(parameter)) {
        const std::string_view kind = local_name(child.name());
        if (kind == "Real" || kind == "Integer" || kind == "Boolean" || kind == "String" || kind == "Enumeration" ||
            kind == "Binary") {
          typed = child;
          break;
        }
      }
      if (typed.empty()) {
        p.error("<Parameter> \"" + v.name + "\" has no value element (Real, Integer, Boolean, String, Enumeration)",
                "add one, e.g. <ssv:Real value=\"1.5\"/>");
        continue;
      }
      AttributeReader t(doc, typed, diagnostics);
      v.type = std::string(local_name(typed.name()));
      if (v.type == "Binary") {
        t.error("<Parameter> \"" + v.name + "\": Binary values are not supported by lsdae",
                "set the parameter in the FMU, or give it another type");
        continue;
      }
      auto value = t.text("value");
      if (!value) {
        t.error("<" + v.type + "> of parameter \"" + v.name + "\" lacks the required attribute value", "add it");
        continue;
      }
      v.value = *value;
      bool ok = true;
      if (v.type == "Real") {
        ok = parse_double(v.value).has_value();
        if (!ok) t.error("parameter \"" + v.name + "\": <Real> value=\"" + v.value + "\" is not a number", "write a number such as 1.5e-3");
        if (auto unit = t.text("unit")) v.unit = *unit;
      } else if (v.type == "Integer") {
        ok = parse_int64(v.value).has_value();
        if (!ok) t.error("parameter \"" + v.name + "\": <Integer> value=\"" + v.value + "\" is not an integer", "write an integer such as 3");
      } else if (v.type == "Boolean") {
        ok = v.value == "true" || v.value == "false" || v.value == "1" || v.value == "0";
        if (!ok) t.error("parameter \"" + v.name + "\": <Boolean> value=\"" + v.value + "\" is not a Boolean", "write true or false");
      }
      if (ok) values.push_back(std::move(v));
    }
  }
  return values;
}

}  // namespace lsdae::import
