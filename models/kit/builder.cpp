// models/kit/builder.cpp -- the Builder's convenience methods: each fills a
// Variable and hands it to Builder::add() (description.cpp records it and
// checks the whole declaration in describe()).
#include "kit/model.h"

#include <utility>

namespace lsdae::kit {

ValueRef Builder::parameter(const std::string& name, double value, const std::string& unit,
                            const std::string& description) {
  return parameter_of(Variability::fixed, name, value, unit, description);
}

ValueRef Builder::tunable_parameter(const std::string& name, double value, const std::string& unit,
                                    const std::string& description) {
  return parameter_of(Variability::tunable, name, value, unit, description);
}

ValueRef Builder::parameter_of(Variability variability, const std::string& name, double value,
                               const std::string& unit, const std::string& description) {
  Variable v;
  v.name = name;
  v.description = description;
  v.causality = Causality::parameter;
  v.variability = variability;
  v.initial = Initial::exact;
  v.start = value;
  v.unit = unit;
  return add(std::move(v));
}

ValueRef Builder::state(const std::string& name, double start, const std::string& unit,
                        const std::string& description, bool fixed) {
  Variable v;
  v.name = name;
  v.description = description;
  v.initial = fixed ? Initial::exact : Initial::approx;
  v.start = start;
  v.unit = unit;
  return add(std::move(v));
}

ValueRef Builder::algebraic(const std::string& name, double start, const std::string& unit,
                            const std::string& description) {
  Variable v;
  v.name = name;
  v.description = description;
  v.initial = Initial::approx;
  v.start = start;
  v.unit = unit;
  v.algebraic = true;
  return add(std::move(v));
}

ValueRef Builder::residual_variable(const std::string& name, const std::string& description) {
  Variable v;
  v.name = name;
  v.description = description;
  v.initial = Initial::calculated;
  return add(std::move(v));
}

ValueRef Builder::output(const std::string& name, const std::string& unit, const std::string& description) {
  Variable v;
  v.name = name;
  v.description = description;
  v.causality = Causality::output;
  v.initial = Initial::calculated;
  v.unit = unit;
  return add(std::move(v));
}

ValueRef Builder::local(const std::string& name, const std::string& unit, const std::string& description) {
  Variable v;
  v.name = name;
  v.description = description;
  v.initial = Initial::calculated;
  v.unit = unit;
  return add(std::move(v));
}

ValueRef Builder::input_clock(const std::string& name, const ClockProperties& properties,
                              const std::string& description) {
  Variable v;
  v.type = VarType::clock;
  v.name = name;
  v.description = description;
  v.causality = Causality::input;
  v.variability = Variability::discrete;
  v.clock = properties;
  return add(std::move(v));
}

ValueRef Builder::output_clock(const std::string& name, const std::string& description) {
  Variable v;
  v.type = VarType::clock;
  v.name = name;
  v.description = description;
  v.causality = Causality::output;
  v.variability = Variability::discrete;
  v.clock.interval_variability = IntervalVariability::triggered;
  return add(std::move(v));
}

ClockedState Builder::clocked_state(const std::string& name, double start, std::vector<ValueRef> clocks,
                                    VarType type, Causality causality, const std::string& description) {
  Variable previous;
  previous.type = type;
  previous.name = "previous(" + name + ")";
  previous.description = "value of " + name + " at its previous clock tick";
  previous.variability = Variability::discrete;
  previous.initial = Initial::exact;
  previous.start = start;
  ClockedState out;
  out.previous = add(std::move(previous));
  Variable v;
  v.type = type;
  v.name = name;
  v.description = description;
  v.causality = causality;
  v.variability = Variability::discrete;
  v.initial = Initial::exact;
  v.start = start;
  v.clocks = std::move(clocks);
  v.previous = out.previous;
  out.value = add(std::move(v));
  return out;
}

ValueRef Builder::clocked(const std::string& name, std::vector<ValueRef> clocks, VarType type, Causality causality,
                          const std::string& description) {
  Variable v;
  v.type = type;
  v.name = name;
  v.description = description;
  v.causality = causality;
  v.variability = Variability::discrete;
  v.initial = Initial::calculated;
  v.clocks = std::move(clocks);
  return add(std::move(v));
}

}  // namespace lsdae::kit
