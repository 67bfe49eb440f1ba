// runtime/simulation/input_table.cpp -- see input_table.h.
#include "simulation/input_table.h"

#include <algorithm>
#include <fstream>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {

// One CSV record (RFC 4180 quoting; no line breaks inside fields).
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (quoted) {
      if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') field += '"', ++k;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  for (auto& f : out) {  // surrounding blanks are not part of an unquoted number
    while (!f.empty() && f.back() == ' ') f.pop_back();
    f.erase(0, f.find_first_not_of(' ') == std::string::npos ? f.size() : f.find_first_not_of(' '));
  }
  return out;
}

}  // namespace

InputTable InputTable::read_csv(const std::filesystem::path& path, const ModelDescription& md) {
  std::ifstream in(path);
  if (!in)
    throw Error(ErrorKind::usage, "--input: cannot read \"" + path.string() + "\" → check the path");
  const std::string file = path.filename().string();
  auto where = [&](std::size_t line) { return "--input " + file + ":" + std::to_string(line) + ": "; };
  std::string line;
  std::size_t line_no = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r") != std::string::npos) header = split_csv_line(line);
  }
  if (header.empty()) throw Error(ErrorKind::usage, where(line_no) + "the file is empty → write a header: time,<input>,...");
  if (header[0] != "time")
    throw Error(ErrorKind::usage, where(line_no) + "the first column is \"" + header[0] + "\", not \"time\" → " +
                                      (header.size() == 1 && header[0].find_first_of(";\t") != std::string::npos
                                           ? "separate the columns with commas"
                                           : "put the time in the first column"));
  InputTable table;
  for (std::size_t c = 1; c < header.size(); ++c) {
    const Variable* v = md.find(header[c]);
    if (v == nullptr)
      throw Error(ErrorKind::usage, where(line_no) + "column \"" + header[c] + "\" names no variable → `lsdae info "
                                        "--variables` lists the inputs");
    if (v->causality != Causality::input)
      throw Error(ErrorKind::usage, where(line_no) + "column \"" + header[c] + "\" has causality " +
                                        to_string(v->causality) + ", not input → use --set for parameters and start "
                                                                  "values");
    if (v->is_array())
      throw Error(ErrorKind::usage, where(line_no) + "column \"" + header[c] +
                                        "\" is an array input; lsdae reads scalar inputs from tables → set the "
                                        "array with --set");
    for (const auto& other : table.columns_)
      if (other.variable == v)
        throw Error(ErrorKind::usage, where(line_no) + "column \"" + header[c] + "\" appears twice → keep one");
    Column column;
    column.variable = v;
    column.clocked = !v->clocks.empty();
    column.continuous = is_float(v->type) && v->variability == Variability::continuous && !column.clocked;
    column.values = Values(v->type);
    table.columns_.push_back(std::move(column));
  }
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    std::vector<std::string> fields = split_csv_line(line);
    if (fields.size() != header.size())
      throw Error(ErrorKind::usage, where(line_no) + std::to_string(fields.size()) + " fields for " +
                                        std::to_string(header.size()) + " columns → give one value per column");
    Variable time_variable;
    time_variable.name = "time";
    double t = 0;
    try {
      t = parse_element_value(time_variable, md, fields[0]).reals[0];
    } catch (const Error& e) {
      throw Error(ErrorKind::usage, where(line_no) + e.what());
    }
    if (!table.times_.empty() && t < table.times_.back())
      throw Error(ErrorKind::usage, where(line_no) + "time " + fields[0] + " is before the previous row's " +
                                        format_number(table.times_.back()) + " → sort the rows by time");
    table.times_.push_back(t);
    for (std::size_t c = 0; c < table.columns_.size(); ++c) {
      Column& column = table.columns_[c];
      Values v;
      try {
        v = parse_element_value(*column.variable, md, fields[c + 1]);
      } catch (const Error& e) {
        throw Error(ErrorKind::usage, where(line_no) + e.what());
      }
      if (column.continuous) {
        column.reals.push_back(v.reals[0]);
      } else {
        switch (storage_of(v.type)) {
          case ValueStorage::real: column.values.reals.push_back(v.reals[0]); break;
          case ValueStorage::integer: column.values.integers.push_back(v.integers[0]); break;
          case ValueStorage::unsigned_integer: column.values.unsigned_integers.push_back(v.unsigned_integers[0]); break;
          case ValueStorage::text: column.values.texts.push_back(v.texts[0]); break;
        }
      }
    }
  }
  if (table.times_.empty() && !table.columns_.empty())
    throw Error(ErrorKind::usage, where(line_no) + "the table has no rows → add at least one time point");
  // Events: a step of any input (two rows at one time), or a discrete change.
  const std::size_t n = table.times_.size();
  for (std::size_t r = 1; r < n; ++r) {
    bool event = table.times_[r] == table.times_[r - 1];
    for (const auto& c : table.columns_)
      if (!c.continuous && !c.clocked && c.values.text(r) != c.values.text(r - 1)) event = true;
    if (event) table.event_times_.push_back(table.times_[r]);
  }
  table.event_times_.erase(std::unique(table.event_times_.begin(), table.event_times_.end()), table.event_times_.end());
  for (const auto& c : table.columns_)
    if (c.continuous) {
      ++table.continuous_count_;
      table.continuous_vrs_.push_back(c.variable->value_reference);
    }
  return table;
}

std::optional<double> InputTable::next_event_after(double t) const {
  auto it = std::upper_bound(event_times_.begin(), event_times_.end(), t);
  if (it == event_times_.end()) return std::nullopt;
  return *it;
}

double InputTable::continuous_value(const Column& c, double t, bool right) const {
  const std::size_t n = times_.size();
  auto lo = std::lower_bound(times_.begin(), times_.end(), t);
  auto hi = std::upper_bound(times_.begin(), times_.end(), t);
  if (lo != hi) {  // rows at exactly t: the first is the left limit, the last the right one
    std::size_t r = static_cast<std::size_t>((right ? hi - 1 : lo) - times_.begin());
    return c.reals[r];
  }
  if (hi == times_.begin()) return c.reals.front();
  if (hi == times_.end()) return c.reals[n - 1];
  const std::size_t b = static_cast<std::size_t>(hi - times_.begin()), a = b - 1;
  const double w = (t - times_[a]) / (times_[b] - times_[a]);
  return c.reals[a] + w * (c.reals[b] - c.reals[a]);
}

std::size_t InputTable::discrete_row(double t) const {
  auto hi = std::upper_bound(times_.begin(), times_.end(), t);
  return hi == times_.begin() ? 0 : static_cast<std::size_t>(hi - times_.begin()) - 1;
}

CallStatus InputTable::apply(Instance& instance, double t, bool discrete) const {
  if (columns_.empty()) return CallStatus::ok;
  const bool right = discrete || t <= stretch_start_;
  if (continuous_count_ > 0) {
    thread_local std::vector<double> values;
    values.clear();
    for (const auto& c : columns_)
      if (c.continuous) values.push_back(continuous_value(c, t, right));
    bool all_float64 = true;
    for (const auto& c : columns_)
      if (c.continuous && c.variable->type != VariableType::float64) all_float64 = false;
    if (all_float64) {
      if (instance.set_float64(continuous_vrs_, values) == CallStatus::discard) return CallStatus::discard;
    } else {
      std::size_t k = 0;
      for (const auto& c : columns_) {
        if (!c.continuous) continue;
        Values one(c.variable->type);
        one.reals.push_back(values[k++]);
        const ValueReference vr = c.variable->value_reference;
        if (instance.set_values({&vr, 1}, one) == CallStatus::discard) return CallStatus::discard;
      }
    }
  }
  if (!discrete) return CallStatus::ok;
  const std::size_t r = discrete_row(t);
  for (const auto& c : columns_) {
    if (c.continuous || c.clocked) continue;
    if (set_discrete(instance, c, r) == CallStatus::discard) return CallStatus::discard;
  }
  return CallStatus::ok;
}

CallStatus InputTable::apply_clocked(Instance& instance, double t, std::span<const ValueReference> ticked) const {
  if (ticked.empty()) return CallStatus::ok;
  const std::size_t r = discrete_row(t);
  for (const auto& c : columns_) {
    if (!c.clocked) continue;
    const auto& clocks = c.variable->clocks;
    const bool active = std::any_of(clocks.begin(), clocks.end(), [&](ValueReference vr) {
      return std::find(ticked.begin(), ticked.end(), vr) != ticked.end();
    });
    if (active && set_discrete(instance, c, r) == CallStatus::discard) return CallStatus::discard;
  }
  return CallStatus::ok;
}

CallStatus InputTable::set_discrete(Instance& instance, const Column& c, std::size_t r) const {
  Values one(c.variable->type);
  switch (storage_of(c.variable->type)) {
    case ValueStorage::real: one.reals.push_back(c.values.reals[r]); break;
    case ValueStorage::integer: one.integers.push_back(c.values.integers[r]); break;
    case ValueStorage::unsigned_integer: one.unsigned_integers.push_back(c.values.unsigned_integers[r]); break;
    case ValueStorage::text: one.texts.push_back(c.values.texts[r]); break;
  }
  const ValueReference vr = c.variable->value_reference;
  return instance.set_values({&vr, 1}, one);
}

}  // namespace lsdae::simulation
