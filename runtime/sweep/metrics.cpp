// runtime/sweep/metrics.cpp -- see metrics.h.
#include "sweep/metrics.h"

#include <charconv>
#include <cmath>
#include <map>

#include "lsdae/error.h"

namespace lsdae::sweep {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

const std::map<std::string, Selector::Aggregate>& aggregates() {
  static const std::map<std::string, Selector::Aggregate> a{{"min", Selector::Aggregate::min},
                                                            {"max", Selector::Aggregate::max},
                                                            {"mean", Selector::Aggregate::mean},
                                                            {"spread", Selector::Aggregate::spread},
                                                            {"maxdev", Selector::Aggregate::maxdev}};
  return a;
}

// Parses a selector and adds its channels to `channels` (once each).
Selector compile_selector(const Model& model, const std::string& text, const std::string& where,
                          std::vector<simulation::OutputChannel>& channels) {
  Selector s;
  s.text = trim(text);
  std::string pattern = s.text;
  const auto open = s.text.find('(');
  // NAME(...) is an aggregate, unless the whole text names a variable whose
  // name has parentheses ("der(x)", as FMI names derivatives).
  const bool variable = model.model_description().find(s.text) != nullptr;
  if (open != std::string::npos && !s.text.empty() && s.text.back() == ')' && !variable) {
    auto agg = aggregates().find(trim(s.text.substr(0, open)));
    if (agg == aggregates().end())
      throw Error(ErrorKind::usage, where + ": unknown aggregate \"" + trim(s.text.substr(0, open)) +
                                        "\" → min, max, mean, spread or maxdev, e.g. maxdev(gen[*].delta)");
    s.aggregate = agg->second;
    pattern = trim(s.text.substr(open + 1, s.text.size() - open - 2));
  }
  if (pattern.empty())
    throw Error(ErrorKind::usage, where + ": no variable named → e.g. gen[1].delta or max(bus[*].Vr)");
  std::vector<simulation::OutputChannel> selected;
  try {
    selected = simulation::select_output_channels(model, {pattern}, false);
  } catch (const Error& e) {
    std::string message = e.what();  // select_output_channels speaks of --output-vars
    if (message.rfind("--output-vars: ", 0) == 0) message.erase(0, 15);
    throw Error(ErrorKind::usage, where + ": " + message);
  }
  if (s.aggregate == Selector::Aggregate::single && selected.size() != 1)
    throw Error(ErrorKind::usage, where + ": \"" + pattern + "\" selects " + std::to_string(selected.size()) +
                                      " variables → aggregate them, e.g. max(" + pattern + ")");
  for (const auto& channel : selected) {
    const auto type = channel.variable->type;
    if (type == VariableType::string || type == VariableType::binary || type == VariableType::clock)
      throw Error(ErrorKind::usage, where + ": \"" + channel.name + "\" is not numeric → select Float, Int or Boolean variables");
    std::size_t index = channels.size();
    for (std::size_t c = 0; c < channels.size(); ++c)
      if (channels[c].name == channel.name) index = c;
    if (index == channels.size()) channels.push_back(channel);
    s.channels.push_back(index);
  }
  return s;
}

}  // namespace

double Selector::value(const std::vector<double>& samples) const {
  if (aggregate == Aggregate::single) return samples[channels[0]];
  double lo = HUGE_VAL, hi = -HUGE_VAL, sum = 0;
  for (std::size_t c : channels) {
    const double x = samples[c];
    if (std::isnan(x)) return x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    sum += x;
  }
  const double mean = sum / static_cast<double>(channels.size());
  switch (aggregate) {
    case Aggregate::min: return lo;
    case Aggregate::max: return hi;
    case Aggregate::mean: return mean;
    case Aggregate::spread: return hi - lo;
    case Aggregate::maxdev: {
      double dev = 0;
      for (std::size_t c : channels) dev = std::max(dev, std::fabs(samples[c] - mean));
      return dev;
    }
    case Aggregate::single: break;
  }
  return samples[channels[0]];
}

bool StopCondition::holds(double value) const {
  switch (op) {
    case Op::greater: return value > threshold;
    case Op::greater_equal: return value >= threshold;
    case Op::less: return value < threshold;
    case Op::less_equal: return value <= threshold;
  }
  return false;
}

CompiledChecks compile_checks(const Model& model, const SweepOptions& options) {
  CompiledChecks checks;
  for (const auto& text : options.metrics) {
    const std::string where = "--metric \"" + text + "\"";
    const auto colon = text.find(':');
    static const std::map<std::string, Metric::Stat> stats{{"min", Metric::Stat::min},
                                                           {"max", Metric::Stat::max},
                                                           {"final", Metric::Stat::final},
                                                           {"tmax", Metric::Stat::tmax},
                                                           {"tmin", Metric::Stat::tmin}};
    auto stat = colon == std::string::npos ? stats.end() : stats.find(trim(text.substr(0, colon)));
    if (stat == stats.end())
      throw Error(ErrorKind::usage, where + ": expected STAT:SELECTOR with STAT min, max, final, tmax or tmin → "
                                            "e.g. --metric max:gen[1].delta or --metric 'max:maxdev(gen[*].delta)'");
    Metric m;
    m.stat = stat->second;
    m.text = trim(text);
    m.selector = compile_selector(model, text.substr(colon + 1), where, checks.channels);
    for (const auto& other : checks.metrics)
      if (other.text == m.text) throw Error(ErrorKind::usage, where + ": given twice → keep one");
    checks.metrics.push_back(std::move(m));
  }
  for (const auto& text : options.stop_when) {
    const std::string where = "--stop-when \"" + text + "\"";
    const auto at = text.find_first_of("<>");
    if (at == std::string::npos)
      throw Error(ErrorKind::usage, where + ": expected SELECTOR OP NUMBER with OP >, >=, < or <= → "
                                            "e.g. --stop-when 'maxdev(gen[*].delta) > 3.14159'");
    StopCondition s;
    s.text = trim(text);
    const bool equal = at + 1 < text.size() && text[at + 1] == '=';
    s.op = text[at] == '>' ? (equal ? StopCondition::Op::greater_equal : StopCondition::Op::greater)
                           : (equal ? StopCondition::Op::less_equal : StopCondition::Op::less);
    const std::string number = trim(text.substr(at + (equal ? 2 : 1)));
    const char* first = number.data() + (!number.empty() && number[0] == '+' ? 1 : 0);
    auto [end, ec] = std::from_chars(first, number.data() + number.size(), s.threshold);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !std::isfinite(s.threshold))
      throw Error(ErrorKind::usage, where + ": \"" + number + "\" is not a finite number → e.g. '... > 3.14159'");
    s.selector = compile_selector(model, text.substr(0, at), where, checks.channels);
    checks.stops.push_back(std::move(s));
  }
  if (options.settle) {
    if (!(options.settle->tol > 0) || !(options.settle->duration >= 0) || !std::isfinite(options.settle->tol) ||
        !std::isfinite(options.settle->duration))
      throw Error(ErrorKind::usage, "--settle: the tolerance must be positive and the duration at least 0 → e.g. "
                                    "--settle 1e-4,1");
    if (model.derivatives().empty())
      throw Error(ErrorKind::usage, "--settle: the model declares no continuous-state derivatives → stop with "
                                    "--stop-when instead");
    checks.settle = options.settle;
  }
  return checks;
}

MetricAccumulator::MetricAccumulator(const CompiledChecks& checks) : checks_(checks), state_(checks.metrics.size()) {}

std::string MetricAccumulator::sample(double t, const std::vector<double>& samples) {
  for (std::size_t m = 0; m < checks_.metrics.size(); ++m) {
    const Metric& metric = checks_.metrics[m];
    State& s = state_[m];
    const double x = metric.selector.value(samples);
    s.last = x;
    if (std::isnan(x)) continue;
    const bool low = metric.stat == Metric::Stat::min || metric.stat == Metric::Stat::tmin;
    if (!s.any || (low ? x < s.best : x > s.best)) {
      s.best = x;
      s.at = t;
      s.any = true;
    }
  }
  for (const auto& stop : checks_.stops)
    if (stop.holds(stop.selector.value(samples))) return stop.text;
  return {};
}

std::vector<std::optional<double>> MetricAccumulator::results() const {
  std::vector<std::optional<double>> out;
  for (std::size_t m = 0; m < checks_.metrics.size(); ++m) {
    const State& s = state_[m];
    switch (checks_.metrics[m].stat) {
      case Metric::Stat::min:
      case Metric::Stat::max: out.push_back(s.best); break;
      case Metric::Stat::tmin:
      case Metric::Stat::tmax: out.push_back(s.at); break;
      case Metric::Stat::final: out.push_back(s.last); break;
    }
  }
  return out;
}

}  // namespace lsdae::sweep
