// runtime/sweep/sweep_report_html.cpp -- see sweep_report.h: the page.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/format.h"
#include "results/html_report.h"
#include "sweep/sweep_report.h"

namespace lsdae::sweep {
namespace {

using results::html_escape;

constexpr std::size_t kListedFailures = 50;
constexpr int kBins = 12;  // at most, on the 1-2-5 rule

const std::array<const char*, kOutcomes> kRules = {
    "settled (--settle), or ran to the stop time with no --stop-when condition holding",
    "stopped early by a --stop-when condition",
    "labelled by the scenario source: the outage left buses without a machine, which the FMU de-energized "
    "(their load lost) and ran on; settled or ran to the stop time (below: by the load lost)",
    "failed at an impasse point: the algebraic equations lost their solution (in a grid: a voltage collapse)",
    "every other failure: no consistent point after an event, an FMU error, a time limit, a crash"};

const char* kSweepStyle = R"(
.stable { background: #2a7d2a; } .unstable { background: #b02a2a; } .islanded { background: #6a4fb0; }
.collapsed { background: #c0761a; } .failed { background: #777; }
rect.stable { fill: #2a7d2a; } rect.unstable { fill: #b02a2a; } rect.islanded { fill: #6a4fb0; }
rect.collapsed { fill: #c0761a; } rect.failed { fill: #777; }
.bar { display: flex; height: 1.2em; margin: 0.6em 0; border-radius: 0.3em; overflow: hidden; }
.bar span { display: block; height: 100%; }
table.ranked { border-collapse: collapse; margin: 0.4em 0 1.2em; font-size: 0.92em; }
table.ranked th, table.ranked td { border-bottom: 1px solid #e4e4e4; padding: 0.15em 0.7em; text-align: right; }
table.ranked td.id, table.ranked th.id { text-align: left; font-family: ui-monospace, monospace; }
table.ranked td.key { font-weight: bold; }
table.ranked .outcome { font-size: 0.85em; }
div.distributions { display: grid; grid-template-columns: repeat(auto-fill, minmax(470px, 1fr)); gap: 0.6em 1.5em; }
figure.distribution { margin: 0.4em 0; }
table.outcomes { border-collapse: collapse; margin: 0.4em 0; }
table.outcomes td { padding: 0.15em 0.8em 0.15em 0; text-align: right; white-space: nowrap; }
table.outcomes td.note { text-align: left; white-space: normal; }
figure.distribution figcaption { font-size: 0.9em; color: #444; font-family: ui-monospace, monospace; }
svg text { font-family: system-ui, sans-serif; font-size: 11px; fill: #333; }
svg line.axis { stroke: #888; } svg line.grid { stroke: #e4e4e4; }
)";

// Counts the distributions and ranked tables laid out into the footer.
const char* kSweepScript = R"(
window.addEventListener('load', function () {
  var footer = document.getElementById('rendered');
  footer.setAttribute('data-distributions', String(document.querySelectorAll('figure.distribution svg').length));
  footer.setAttribute('data-ranked', String(document.querySelectorAll('table.ranked').length));
});
)";

std::string badge(Outcome o) {
  return std::string("<span class=\"outcome ") + to_string(o) + "\">" + to_string(o) + "</span>";
}

std::string value_text(const std::optional<double>& v) {
  return v && !std::isnan(*v) ? format_number(*v) : std::string("—");
}

std::string px(double x) { return format_number(std::round(x * 10.0) / 10.0); }

// A histogram of the metric's numbers, each bar stacked by outcome.
std::string histogram_svg(const std::vector<std::pair<double, Outcome>>& values) {
  double lo = values.front().first, hi = lo;
  for (const auto& [v, o] : values) lo = std::min(lo, v), hi = std::max(hi, v);
  const results::AxisTicks x = results::nice_ticks(lo, hi, kBins);
  const std::size_t bins = std::max<std::size_t>(1, x.values.size() - 1);
  std::vector<std::array<std::size_t, kOutcomes>> count(bins, std::array<std::size_t, kOutcomes>{});
  for (const auto& [v, o] : values) {
    auto b = static_cast<long>(std::floor((v - x.lo) / x.step));
    b = std::clamp(b, 0L, static_cast<long>(bins) - 1);
    ++count[static_cast<std::size_t>(b)][static_cast<std::size_t>(o)];
  }
  std::size_t tallest = 1;
  for (const auto& c : count) tallest = std::max(tallest, c[0] + c[1] + c[2] + c[3]);
  const results::AxisTicks y = results::nice_ticks(0, static_cast<double>(tallest), 4);
  constexpr double W = 460, H = 190, left = 44, right = 24, top = 8, bottom = 34;
  const double pw = W - left - right, ph = H - top - bottom;
  auto sx = [&](double v) { return left + (v - x.lo) / (x.hi - x.lo) * pw; };
  auto sy = [&](double v) { return top + ph - v / y.hi * ph; };
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(W) + "\" height=\"" + px(H) +
                  "\" viewBox=\"0 0 " + px(W) + " " + px(H) + "\">";
  for (std::size_t k = 0; k < y.values.size(); ++k) {
    const double yy = sy(y.values[k]);
    s += "<line class=\"grid\" x1=\"" + px(left) + "\" x2=\"" + px(left + pw) + "\" y1=\"" + px(yy) + "\" y2=\"" +
         px(yy) + "\"/><text x=\"" + px(left - 4) + "\" y=\"" + px(yy + 4) + "\" text-anchor=\"end\">" +
         html_escape(y.labels[k]) + "</text>";
  }
  for (std::size_t b = 0; b < bins; ++b) {
    double base = 0;
    const double x0 = sx(x.values[b]) + 1, x1 = sx(x.values[std::min(b + 1, x.values.size() - 1)]) - 1;
    for (std::size_t o = 0; o < kOutcomes; ++o) {
      if (count[b][o] == 0) continue;
      const double top_value = base + static_cast<double>(count[b][o]);
      s += "<rect class=\"" + std::string(to_string(static_cast<Outcome>(o))) + "\" x=\"" + px(x0) + "\" y=\"" +
           px(sy(top_value)) + "\" width=\"" + px(std::max(1.0, x1 - x0)) + "\" height=\"" +
           px(sy(base) - sy(top_value)) + "\"><title>" + std::to_string(count[b][o]) + " " +
           to_string(static_cast<Outcome>(o)) + " in [" + html_escape(x.labels[b]) + ", " +
           html_escape(x.labels[std::min(b + 1, x.labels.size() - 1)]) + ")</title></rect>";
      base = top_value;
    }
  }
  const std::size_t every = x.values.size() > 7 ? 2 : 1;
  for (std::size_t k = 0; k < x.values.size(); k += every)
    s += "<text x=\"" + px(sx(x.values[k])) + "\" y=\"" + px(top + ph + 14) + "\" text-anchor=\"middle\">" +
         html_escape(x.labels[k]) + "</text>";
  s += "<line class=\"axis\" x1=\"" + px(left) + "\" x2=\"" + px(left + pw) + "\" y1=\"" + px(top + ph) + "\" y2=\"" +
       px(top + ph) + "\"/><text x=\"" + px(left + pw / 2) + "\" y=\"" + px(H - 4) +
       "\" text-anchor=\"middle\">value (bars: scenarios, by outcome)</text></svg>";
  return s;
}

void outcome_section(std::string& out, const SummaryTable& table, const std::vector<Outcome>& outcomes) {
  std::array<std::size_t, kOutcomes> n{};
  for (Outcome o : outcomes) ++n[static_cast<std::size_t>(o)];
  const double rows = static_cast<double>(std::max<std::size_t>(1, table.rows.size()));
  out += "<div class=\"bar\" title=\"outcomes\">";
  for (std::size_t o = 0; o < kOutcomes; ++o)
    if (n[o] > 0)
      out += "<span class=\"" + std::string(to_string(static_cast<Outcome>(o))) + "\" style=\"width:" +
             format_number(100.0 * static_cast<double>(n[o]) / rows) + "%\"></span>";
  out += "</div>\n<h2>Outcomes</h2>\n<table class=\"outcomes\">\n";
  for (std::size_t o = 0; o < kOutcomes; ++o)
    out += "<tr><td>" + badge(static_cast<Outcome>(o)) + "</td><td>" + std::to_string(n[o]) + "</td><td>" +
           format_number(std::round(1000.0 * static_cast<double>(n[o]) / rows) / 10.0) +
           " %</td><td class=\"note\">" + html_escape(kRules[o]) + "</td></tr>\n";
  out += "</table>\n";
}

void worst_section(std::string& out, const SweepReportInput& in, const std::vector<Outcome>& outcomes,
                   const std::vector<std::string>& metrics) {
  const SummaryTable& table = *in.table;
  out += "<h2>Worst contingencies</h2>\n";
  bool any = false;
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const Worst how = worst_direction(metrics[m]);
    if (how == Worst::not_ranked) continue;
    any = true;
    const auto ranked = rank_worst(table, m, in.worst);
    std::size_t with_value = rank_worst(table, m, table.rows.size()).size();
    out += "<h3>" + html_escape(metrics[m]) + " <span class=\"note\">(" +
           (how == Worst::largest ? "largest" : how == Worst::smallest ? "smallest" : "largest magnitude") +
           " first; " + std::to_string(with_value) + " of " + std::to_string(table.rows.size()) +
           " rows have a value)</span></h3>\n";
    out += "<table class=\"ranked\"><tr><th>#</th><th class=\"id\">id</th><th>value</th><th>outcome</th>"
           "<th>reached t</th>";
    for (std::size_t k = 0; k < metrics.size(); ++k)
      if (k != m) out += "<th>" + html_escape(metrics[k]) + "</th>";
    out += "</tr>\n";
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const SummaryRow& row = table.rows[ranked[i]];
      out += "<tr><td>" + std::to_string(i + 1) + "</td><td class=\"id\">" + html_escape(row.id) +
             "</td><td class=\"key\">" + value_text(row.metrics[m]) + "</td><td>" + badge(outcomes[ranked[i]]) +
             "</td><td>" + value_text(row.reached_time) + "</td>";
      for (std::size_t k = 0; k < metrics.size(); ++k)
        if (k != m) out += "<td>" + (k < row.metrics.size() ? value_text(row.metrics[k]) : std::string("—")) + "</td>";
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  if (!any)
    out += "<p class=\"note\">No metric to rank: rankings are by max:, min: and final: metrics "
           "(lsdae sweep --metric).</p>\n";
}

void distribution_section(std::string& out, const SummaryTable& table, const std::vector<Outcome>& outcomes,
                          const std::vector<std::string>& metrics) {
  if (metrics.empty()) return;
  out += "<h2>Distributions</h2>\n<div class=\"distributions\">\n";
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    std::vector<std::pair<double, Outcome>> values;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      const auto& v = table.rows[r].metrics;
      if (m < v.size() && v[m] && !std::isnan(*v[m]) && std::isfinite(*v[m])) values.emplace_back(*v[m], outcomes[r]);
    }
    out += "<figure class=\"distribution\"><figcaption>" + html_escape(metrics[m]);
    if (values.empty()) {
      out += " — no row has a value</figcaption></figure>\n";
      continue;
    }
    std::vector<double> sorted;
    for (const auto& [v, o] : values) sorted.push_back(v);
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    out += "<br>" + std::to_string(n) + " values: min " + format_number(sorted.front()) + ", median " +
           format_number(median) + ", max " + format_number(sorted.back()) + "</figcaption>" + histogram_svg(values) +
           "</figure>\n";
  }
  out += "</div>\n";
}

void trajectory_section(std::string& out, const SweepReportInput& in, const std::vector<Outcome>& outcomes) {
  if (in.results_dir.empty()) return;
  out += "<h2>Trajectories of the worst</h2>\n<p class=\"note\">From " + html_escape(in.results_dir) +
         " (lsdae sweep --results-dir); dashed lines: events.</p>\n";
  if (in.trajectories.empty()) out += "<p class=\"note\">No row was ranked, so none is plotted.</p>\n";
  for (const Trajectory& t : in.trajectories) {
    std::string outcome;
    for (std::size_t r = 0; r < in.table->rows.size(); ++r)
      if (in.table->rows[r].id == t.id) outcome = badge(outcomes[r]);
    out += "<h3>" + html_escape(t.id) + " " + outcome + "</h3>\n";
    if (t.file.empty()) {
      out += "<p class=\"note\">No result file for this scenario in " + html_escape(in.results_dir) + ".</p>\n";
      continue;
    }
    if (t.table.series.empty() || t.table.time.empty()) {
      out += "<p class=\"note\">" + html_escape(t.file) + " holds no numeric rows to plot.</p>\n";
      continue;
    }
    results::SvgOptions svg;
    svg.panel_height = 200;
    svg.title = t.id;
    out += "<figure class=\"plot\">" + results::inline_svg(results::render_svg(t.table, t.panels, t.events, svg)) +
           "</figure>\n";
  }
}

// The islanded rows, the largest amount lost first (sweep_report.h, rank_islands).
void island_section(std::string& out, const SummaryTable& table, const std::vector<Outcome>& outcomes) {
  const std::size_t total = static_cast<std::size_t>(std::count(outcomes.begin(), outcomes.end(), Outcome::islanded));
  if (total == 0) return;
  const std::vector<std::size_t> ranked = rank_islands(table, outcomes, kListedFailures);
  const auto first = labelled(table.rows[ranked.front()]);
  const std::string amount = first ? first->amount : "amount", indicator = first ? first->indicator : "indicator";
  out += "<h2>Islands</h2>\n<p class=\"note\">" + std::to_string(total) + " row(s) islanded, by " +
         html_escape(amount) + " (largest first).</p>\n<table class=\"ranked islands\"><tr><th>#</th>"
         "<th class=\"id\">id</th><th>" + html_escape(amount) + "</th><th>" + html_escape(indicator) +
         "</th><th>reached t</th><th class=\"id\">the run</th></tr>\n";
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const SummaryRow& row = table.rows[ranked[i]];
    const auto o = labelled(row);
    const std::size_t own = row.message.find("; ");
    out += "<tr><td>" + std::to_string(i + 1) + "</td><td class=\"id\">" + html_escape(row.id) +
           "</td><td class=\"key\">" + (o ? html_escape(format_number(o->value) + (o->unit.empty() ? "" : " " + o->unit)) : "—") +
           "</td><td>" + (o ? format_number(o->indicator_value) : "—") + "</td><td>" + value_text(row.reached_time) +
           "</td><td class=\"id\">" + html_escape(own == std::string::npos ? "ran to the stop time" : row.message.substr(own + 2)) +
           "</td></tr>\n";
  }
  out += "</table>\n";
  if (total > ranked.size())
    out += "<p class=\"note\">… and " + std::to_string(total - ranked.size()) +
           " more; the summary file holds every row.</p>\n";
}

void failure_section(std::string& out, const SummaryTable& table, const std::vector<Outcome>& outcomes) {
  std::vector<std::size_t> failed;
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    if (outcomes[r] == Outcome::collapsed || outcomes[r] == Outcome::failed) failed.push_back(r);
  if (failed.empty()) return;
  out += "<h2>Failures</h2>\n<table class=\"ranked\"><tr><th class=\"id\">id</th><th>outcome</th>"
         "<th class=\"id\">message</th></tr>\n";
  for (std::size_t i = 0; i < std::min(failed.size(), kListedFailures); ++i) {
    const SummaryRow& row = table.rows[failed[i]];
    out += "<tr><td class=\"id\">" + html_escape(row.id) + "</td><td>" + badge(outcomes[failed[i]]) +
           "</td><td class=\"id\">" + html_escape(row.message) + "</td></tr>\n";
  }
  out += "</table>\n";
  if (failed.size() > kListedFailures)
    out += "<p class=\"note\">… and " + std::to_string(failed.size() - kListedFailures) +
           " more; the summary file holds every message.</p>\n";
}

}  // namespace

std::string render_sweep_report(const SweepReportInput& in) {
  const SummaryTable& table = *in.table;
  std::vector<Outcome> outcomes;
  for (const auto& row : table.rows) outcomes.push_back(outcome_of(row));
  const std::size_t fixed = summary_header({}).size();
  const std::vector<std::string> metrics(table.columns.begin() + static_cast<std::ptrdiff_t>(std::min(fixed, table.columns.size())),
                                         table.columns.end());
  const std::string heading = in.title.empty() ? "Sweep: " + in.summary_path : in.title;
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"generator\" content=\"" + html_escape(in.generator) + "\">\n";
  out += "<title>" + html_escape(heading) + " — lsdae report</title>\n<style>" + std::string(results::report_style()) +
         kSweepStyle + "</style>\n</head>\n<body>\n";
  out += "<h1>" + html_escape(heading) + "</h1>\n<p>" + std::to_string(table.rows.size()) + " scenarios";
  std::array<std::size_t, kOutcomes> n{};
  for (Outcome o : outcomes) ++n[static_cast<std::size_t>(o)];
  for (std::size_t o = 0; o < kOutcomes; ++o)
    out += " &nbsp; " + badge(static_cast<Outcome>(o)) + " <b>" + std::to_string(n[o]) + "</b>";
  double wall = 0;
  long steps = 0;
  for (const auto& row : table.rows) wall += row.wall_time, steps += row.steps;
  out += "</p>\n<p class=\"note\">Summary " + html_escape(in.summary_path) + "; " + std::to_string(metrics.size()) +
         " metric(s); " + format_number(std::round(wall * 10.0) / 10.0) + " s of scenario wall time, " +
         std::to_string(steps) + " IDA steps in all.</p>\n";
  outcome_section(out, table, outcomes);
  worst_section(out, in, outcomes, metrics);
  distribution_section(out, table, outcomes, metrics);
  trajectory_section(out, in, outcomes);
  island_section(out, table, outcomes);
  failure_section(out, table, outcomes);
  out += "<script>" + std::string(kSweepScript) + "</script>\n";
  return out + results::report_footer(in.generator, in.created);
}

}  // namespace lsdae::sweep
