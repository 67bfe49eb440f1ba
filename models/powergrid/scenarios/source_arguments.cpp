// models/powergrid/scenarios/source_arguments.cpp -- see source_arguments.h.
#include "powergrid/scenarios/source_arguments.h"

#include <charconv>
#include <limits>
#include <system_error>
#include <utility>

#include "lsdae/error.h"

namespace lsdae::gridsources {

void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

const std::string* argument(const sweep::ScenarioSourceArguments& arguments, const std::string& name) {
  for (const auto& [key, value] : arguments)
    if (key == name) return &value;
  return nullptr;
}

std::optional<double> number(const sweep::ScenarioSourceArguments& arguments, const std::string& name) {
  const std::string* text = argument(arguments, name);
  if (text == nullptr) return std::nullopt;
  double value = 0;
  const char* first = text->data() + (!text->empty() && (*text)[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(first, text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    refuse("--" + name + ": \"" + *text + "\" is not a number → e.g. --" + name + " 0.1");
  return value;
}

sweep::ScenarioSourceOption option(std::string name, sweep::ScenarioSourceOption::Kind kind, std::string value_name,
                                   std::string help) {
  sweep::ScenarioSourceOption o;
  o.name = std::move(name);
  o.kind = kind;
  o.value_name = std::move(value_name);
  o.help = std::move(help);
  return o;
}

sweep::ScenarioSourceOption fault_on_option() {
  auto o = option("fault-on", sweep::ScenarioSourceOption::Kind::number, "TIME",
                  "Contingencies: fault.t_on (default: the FMU's)");
  o.meaning = "the fault time";
  o.example = "--fault-on 1";
  return o;
}

sweep::ScenarioSourceOption clear_after_option() {
  auto o = option("clear-after", sweep::ScenarioSourceOption::Kind::number, "SECONDS",
                  "Contingencies: fault.t_off = trip.time = t_on + this (default: the FMU's times)");
  o.low = 0.0;
  o.low_inclusive = false;
  o.high = std::numeric_limits<double>::infinity();
  o.meaning = "the fault duration";
  o.example = "--clear-after 0.1";
  return o;
}

}  // namespace lsdae::gridsources
