// runtime/sweep/metrics.cpp -- see metrics.h.
#include "sweep/metrics.h"

#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

#include "lsdae/error.h"

namespace lsdae::sweep {

namespace {

std::string trim_blanks(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// A finite decimal number, a leading '+' allowed, nothing else around it (blanks trimmed before);
// nullopt otherwise.
std::optional<double> finite_number(const std::string& text) {
  const char* first = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  double value = 0;
  auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

const std::map<std::string, Selector::Aggregate>& aggregates() {
  static const std::map<std::string, Selector::Aggregate> a{{"min", Selector::Aggregate::min},
                                                            {"max", Selector::Aggregate::max},
                                                            {"mean", Selector::Aggregate::mean},
                                                            {"spread", Selector::Aggregate::spread},
                                                            {"maxdev", Selector::Aggregate::maxdev}};
  return a;
}

// Splits "a, b" at the commas outside brackets and parentheses.
std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) out.emplace_back();
    else out.back() += c;
  }
  for (auto& a : out) a = trim_blanks(a);
  return out;
}

// What the wildcards of `pattern` (glob_match's syntax: '*' any run, '?' one
// character) matched in `name`, in order; nullopt when it does not match.
// '*' takes the shortest run that lets the rest match.
bool captures_from(const std::string& p, std::size_t i, const std::string& n, std::size_t j,
                   std::vector<std::string>& out) {
  if (i == p.size()) return j == n.size();
  if (p[i] == '*') {
    for (std::size_t len = 0; j + len <= n.size(); ++len) {
      out.push_back(n.substr(j, len));
      if (captures_from(p, i + 1, n, j + len, out)) return true;
      out.pop_back();
    }
    return false;
  }
  if (j == n.size()) return false;
  if (p[i] == '?') {
    out.push_back(n.substr(j, 1));
    if (captures_from(p, i + 1, n, j + 1, out)) return true;
    out.pop_back();
    return false;
  }
  return p[i] == n[j] && captures_from(p, i + 1, n, j + 1, out);
}

std::string wildcards(const std::string& pattern) {
  std::string w;
  for (char c : pattern)
    if (c == '*' || c == '?') w += c;
  return w;
}

// The channels a glob selects (Error(usage) naming `where` when none).
std::vector<simulation::OutputChannel> select_channels(const Model& model, const std::string& pattern, const std::string& where) {
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
  for (const auto& channel : selected) {
    const auto type = channel.variable->type;
    if (type == VariableType::string || type == VariableType::binary || type == VariableType::clock)
      throw Error(ErrorKind::usage, where + ": \"" + channel.name + "\" is not numeric → select Float, Int or Boolean variables");
  }
  return selected;
}

// The channels the selectors read, each once, and their index by name (a
// hash: grids select tens of thousands of channels).
struct ChannelSet {
  std::vector<simulation::OutputChannel>& channels;
  std::unordered_map<std::string, std::size_t> index;
  std::size_t add(const simulation::OutputChannel& channel) {
    auto [it, added] = index.emplace(channel.name, channels.size());
    if (added) channels.push_back(channel);
    return it->second;
  }
};

// For every channel of `first` (selected by `first_pattern`), its partner
// among those `second_pattern` selects (see metrics.h, "Pairing").
std::vector<simulation::OutputChannel> partners_of(const Model& model, const std::vector<simulation::OutputChannel>& first,
                                                   const std::string& first_pattern, const std::string& second_pattern,
                                                   const std::string& what, const std::string& where) {
  if (wildcards(first_pattern) != wildcards(second_pattern))
    throw Error(ErrorKind::usage, where + ": the " + what + " \"" + second_pattern + "\" must have the wildcards of \"" +
                                      first_pattern + "\" in the same order (" +
                                      (wildcards(first_pattern).empty() ? "none" : wildcards(first_pattern)) +
                                      ") → e.g. maxdev(gen[*].delta, gen[*].H)");
  std::map<std::string, const simulation::OutputChannel*> by_name;
  const auto second = select_channels(model, second_pattern, where);
  for (const auto& channel : second) by_name.emplace(channel.name, &channel);
  std::vector<simulation::OutputChannel> out;
  for (const auto& channel : first) {
    std::vector<std::string> caught;
    std::string name;
    if (captures_from(first_pattern, 0, channel.name, 0, caught)) {
      std::size_t k = 0;
      for (char c : second_pattern) name += (c == '*' || c == '?') ? caught[k++] : std::string(1, c);
    }
    auto it = by_name.find(name);
    if (it == by_name.end())
      throw Error(ErrorKind::usage, where + ": \"" + channel.name + "\" has no " + what + " (\"" +
                                        (name.empty() ? second_pattern : name) + "\" is not among the " +
                                        std::to_string(second.size()) + " variables \"" + second_pattern +
                                        "\" selects) → give a glob that names one for each");
    out.push_back(*it->second);
  }
  return out;
}

// Parses a selector and adds the channels it reads to `channels` (once each).
Selector compile_selector(const Model& model, const std::string& text, const std::string& where, ChannelSet& channels) {
  Selector s;
  s.text = trim_blanks(text);
  // A function call "NAME(ARGS)": its name and arguments; empty name: none.
  const auto call = [](const std::string& t) -> std::pair<std::string, std::vector<std::string>> {
    const auto open = t.find('(');
    if (open == std::string::npos || t.empty() || t.back() != ')') return {};
    return {trim_blanks(t.substr(0, open)), split_arguments(t.substr(open + 1, t.size() - open - 2))};
  };
  std::string elements = s.text;
  std::string weights;
  if (auto [name, args] = call(s.text); !name.empty() && name != "hypot") {
    auto agg = aggregates().find(name);
    if (agg == aggregates().end()) {
      // "der(x)" is a variable's name: accept it as one.
      bool is_name = false;
      try {
        is_name = !simulation::select_output_channels(model, {s.text}, false).empty();
      } catch (const Error&) {
      }
      if (!is_name)
        throw Error(ErrorKind::usage, where + ": unknown aggregate \"" + name +
                                          "\" → min, max, mean, spread or maxdev, e.g. maxdev(gen[*].delta), or "
                                          "hypot(A, B)");
    } else {
      s.aggregate = agg->second;
      if (args.size() > 2)
        throw Error(ErrorKind::usage, where + ": " + name + "() takes a glob and, for mean and maxdev, weights → "
                                              "e.g. maxdev(gen[*].delta, gen[*].H)");
      elements = args[0];
      if (args.size() == 2) {
        if (s.aggregate != Selector::Aggregate::mean && s.aggregate != Selector::Aggregate::maxdev)
          throw Error(ErrorKind::usage, where + ": weights are for mean and maxdev only → e.g. "
                                                "maxdev(gen[*].delta, gen[*].H)");
        weights = args[1];
        if (weights.empty()) throw Error(ErrorKind::usage, where + ": empty weights → e.g. maxdev(gen[*].delta, gen[*].H)");
      }
    }
  }
  std::vector<simulation::OutputChannel> selected, partners, weighted_by;
  std::string first_pattern = elements;
  if (auto [name, args] = call(elements); name == "hypot") {
    if (args.size() != 2 || args[0].empty() || args[1].empty())
      throw Error(ErrorKind::usage, where + ": hypot takes two variables or globs → e.g. hypot(bus[*].Vr, bus[*].Vi)");
    first_pattern = args[0];
    selected = select_channels(model, args[0], where);
    partners = partners_of(model, selected, args[0], args[1], "second component", where);
  } else {
    selected = select_channels(model, elements, where);
  }
  if (!weights.empty()) weighted_by = partners_of(model, selected, first_pattern, weights, "weight", where);
  if (s.aggregate == Selector::Aggregate::single && selected.size() != 1)
    throw Error(ErrorKind::usage, where + ": \"" + first_pattern + "\" selects " + std::to_string(selected.size()) +
                                      " variables → aggregate them, e.g. max(" + elements + ")");
  for (const auto& channel : selected) s.channels.push_back(channels.add(channel));
  for (const auto& channel : partners) s.partners.push_back(channels.add(channel));
  for (const auto& channel : weighted_by) s.weights.push_back(channels.add(channel));
  return s;
}

}  // namespace

double Selector::element(const std::vector<double>& samples, std::size_t k) const {
  const double x = samples[channels[k]];
  if (partners.empty()) return x;
  const double y = samples[partners[k]];
  return std::isnan(x) || std::isnan(y) ? std::nan("") : std::hypot(x, y);
}

double Selector::value(const std::vector<double>& samples) const {
  if (aggregate == Aggregate::single) return element(samples, 0);
  double lo = HUGE_VAL, hi = -HUGE_VAL, sum = 0, weight_sum = 0;
  for (std::size_t k = 0; k < channels.size(); ++k) {
    const double x = element(samples, k);
    if (std::isnan(x)) return x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    if (weights.empty()) {
      sum += x;
    } else {
      const double w = samples[weights[k]];
      sum += w * x;
      weight_sum += w;
    }
  }
  double mean = sum / static_cast<double>(channels.size());
  if (!weights.empty()) mean = weight_sum > 0 ? sum / weight_sum : std::nan("");  // NaN weights: NaN too
  switch (aggregate) {
    case Aggregate::min: return lo;
    case Aggregate::max: return hi;
    case Aggregate::mean: return mean;
    case Aggregate::spread: return hi - lo;
    case Aggregate::maxdev: {
      if (std::isnan(mean)) return mean;
      double dev = 0;
      for (std::size_t k = 0; k < channels.size(); ++k) dev = std::max(dev, std::fabs(element(samples, k) - mean));
      return dev;
    }
    case Aggregate::single: break;
  }
  return element(samples, 0);
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
  ChannelSet channels{checks.channels, {}};
  for (const auto& text : options.metrics) {
    const std::string where = "--metric \"" + text + "\"";
    const auto colon = text.find(':');
    static const std::map<std::string, Metric::Stat> stats{{"min", Metric::Stat::min},
                                                           {"max", Metric::Stat::max},
                                                           {"final", Metric::Stat::final},
                                                           {"tmax", Metric::Stat::tmax},
                                                           {"tmin", Metric::Stat::tmin}};
    const std::string head = colon == std::string::npos ? std::string() : trim_blanks(text.substr(0, colon));
    const std::size_t at = head.find('@');
    auto stat = colon == std::string::npos ? stats.end() : stats.find(trim_blanks(head.substr(0, at)));
    if (stat == stats.end())
      throw Error(ErrorKind::usage, where + ": expected STAT:SELECTOR or STAT@FROM:SELECTOR with STAT min, max, final, "
                                            "tmax or tmin → e.g. --metric max:gen[1].delta, --metric "
                                            "'max:maxdev(gen[*].delta)' or --metric 'min@1.2:min(hypot(bus[*].Vr, "
                                            "bus[*].Vi))'");
    Metric m;
    m.stat = stat->second;
    if (at != std::string::npos) {
      const std::string from = trim_blanks(head.substr(at + 1));
      const std::optional<double> start = finite_number(from);
      if (!start)
        throw Error(ErrorKind::usage, where + ": the window's start \"" + from + "\" is not a finite number → e.g. "
                                              "min@1.2:...");
      m.from = *start;
      if (m.stat == Metric::Stat::final)
        throw Error(ErrorKind::usage, where + ": final takes no window (it is the last point reached) → drop \"@" +
                                              from + "\"");
    }
    m.text = trim_blanks(text);
    m.selector = compile_selector(model, text.substr(colon + 1), where, channels);
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
    s.text = trim_blanks(text);
    const bool equal = at + 1 < text.size() && text[at + 1] == '=';
    s.op = text[at] == '>' ? (equal ? StopCondition::Op::greater_equal : StopCondition::Op::greater)
                           : (equal ? StopCondition::Op::less_equal : StopCondition::Op::less);
    const std::string number = trim_blanks(text.substr(at + (equal ? 2 : 1)));
    const std::optional<double> threshold = finite_number(number);
    if (!threshold)
      throw Error(ErrorKind::usage, where + ": \"" + number + "\" is not a finite number → e.g. '... > 3.14159'");
    s.threshold = *threshold;
    s.selector = compile_selector(model, text.substr(0, at), where, channels);
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

MetricAccumulator::MetricAccumulator(const CompiledChecks& checks)
    : checks_(checks), state_(checks.metrics.size()), stop_metric_(checks.stops.size()) {
  // A selector's value is a function of its elements and aggregate alone: a
  // stop condition on a metric's selector (the screening settings' maxdev of
  // the rotor angles, metric and stop) takes the metric's value at each sample.
  for (std::size_t k = 0; k < checks.stops.size(); ++k) {
    const Selector& a = checks.stops[k].selector;
    for (std::size_t m = 0; m < checks.metrics.size() && !stop_metric_[k]; ++m) {
      const Selector& b = checks.metrics[m].selector;
      if (a.aggregate == b.aggregate && a.channels == b.channels && a.partners == b.partners && a.weights == b.weights)
        stop_metric_[k] = m;
    }
  }
}

std::string MetricAccumulator::sample(double t, const std::vector<double>& samples) {
  for (std::size_t m = 0; m < checks_.metrics.size(); ++m) {
    const Metric& metric = checks_.metrics[m];
    State& s = state_[m];
    const double x = metric.selector.value(samples);
    s.last = x;
    if (t < metric.from) continue;
    s.reached = true;
    if (std::isnan(x)) continue;
    const bool low = metric.stat == Metric::Stat::min || metric.stat == Metric::Stat::tmin;
    if (!s.any || (low ? x < s.best : x > s.best)) {
      s.best = x;
      s.at = t;
      s.any = true;
    }
  }
  for (std::size_t k = 0; k < checks_.stops.size(); ++k) {
    const StopCondition& stop = checks_.stops[k];
    const double x = stop_metric_[k] ? state_[*stop_metric_[k]].last : stop.selector.value(samples);
    if (stop.holds(x)) return stop.text;
  }
  return {};
}

std::vector<std::optional<double>> MetricAccumulator::results() const {
  std::vector<std::optional<double>> out;
  for (std::size_t m = 0; m < checks_.metrics.size(); ++m) {
    const State& s = state_[m];
    switch (checks_.metrics[m].stat) {
      case Metric::Stat::min:
      case Metric::Stat::max:
        out.push_back(s.reached ? std::optional<double>(s.best) : std::nullopt);  // no sample in its window: empty
        break;
      case Metric::Stat::tmin:
      case Metric::Stat::tmax: out.push_back(s.reached ? std::optional<double>(s.at) : std::nullopt); break;
      case Metric::Stat::final: out.push_back(s.last); break;
    }
  }
  return out;
}

}  // namespace lsdae::sweep
