// runtime/sweep/summary_row.cpp -- SummaryRow as one CSV record and back
// (lsdae/sweep.h). Numbers in the shortest round-trip text; an absent value
// is an empty field, a NaN "nan".
#include <charconv>
#include <cmath>

#include "lsdae/error.h"
#include "lsdae/sweep.h"
#include "sweep/csv_line.h"
#include "sweep/scenario_sources.h"

namespace lsdae::sweep {

const char* to_string(Status status) noexcept {
  switch (status) {
    case Status::ok: return "ok";
    case Status::stopped_early: return "stopped-early";
    case Status::failed: return "failed";
  }
  return "failed";
}

std::vector<std::string> summary_header(const std::vector<std::string>& metrics) {
  std::vector<std::string> header{"id", "status", "message", "reached_time", "steps", "wall_time_s"};
  header.insert(header.end(), metrics.begin(), metrics.end());
  return header;
}

namespace {

std::string number_text(const std::optional<double>& value) {
  if (!value) return {};
  if (std::isnan(*value)) return "nan";
  return round_trip(*value);
}

std::optional<double> parse_number(const std::string& text, bool& ok) {
  if (text.empty()) return std::nullopt;
  if (text == "nan") return std::nan("");
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  ok = ok && ec == std::errc() && end == text.data() + text.size();
  return v;
}

}  // namespace

std::string SummaryRow::to_csv() const {
  std::vector<std::string> fields{id, to_string(status), message, number_text(reached_time), std::to_string(steps),
                                  number_text(wall_time)};
  for (const auto& m : metrics) fields.push_back(number_text(m));
  return csv_record(fields);
}

SummaryRow SummaryRow::from_csv(const std::string& record, std::size_t metric_count) {
  std::size_t pos = 0;
  std::string error;
  auto fields = parse_csv_record(record, pos, &error);
  const auto refuse = [&](const std::string& what) {
    throw Error(ErrorKind::usage, "summary row \"" + record.substr(0, 80) + "\": " + what +
                                      " → was the summary written by the same sweep (same --metric options)?");
  };
  if (!error.empty()) refuse(error);
  if (fields.size() != 6 + metric_count)
    refuse(std::to_string(fields.size()) + " fields, expected " + std::to_string(6 + metric_count));
  SummaryRow row;
  row.id = fields[0];
  if (fields[1] == "ok") row.status = Status::ok;
  else if (fields[1] == "stopped-early") row.status = Status::stopped_early;
  else if (fields[1] == "failed") row.status = Status::failed;
  else refuse("unknown status \"" + fields[1] + "\"");
  row.message = fields[2];
  bool ok = true;
  row.reached_time = parse_number(fields[3], ok);
  auto steps = std::from_chars(fields[4].data(), fields[4].data() + fields[4].size(), row.steps);
  ok = ok && steps.ec == std::errc() && steps.ptr == fields[4].data() + fields[4].size();
  row.wall_time = parse_number(fields[5], ok).value_or(0.0);
  for (std::size_t m = 0; m < metric_count; ++m) row.metrics.push_back(parse_number(fields[6 + m], ok));
  if (!ok) refuse("a field that is not a number");
  return row;
}

}  // namespace lsdae::sweep
