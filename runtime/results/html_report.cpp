// runtime/results/html_report.cpp -- see html_report.h.
#include "results/html_report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <sstream>

#include "lsdae/error.h"

namespace lsdae::results {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kListedEvents = 200;

// Section titles of the statistics' objects the report knows.
const std::map<std::string, std::string>& section_titles() {
  static const std::map<std::string, std::string> titles = {
      {"model", "Model and structure"}, {"jacobian", "Jacobian"},         {"klu", "Sparse LU (KLU)"},
      {"counters", "Solver counters"},  {"time_s", "Time spent (s)"},     {"results", "Result file"},
      {"versions", "Versions"},
  };
  return titles;
}

std::string number_text(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// A field for people: text as it is, real numbers to 6 significant digits
// (the statistics file keeps them exact), the rest as JSON.
std::string scalar_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return number_text(v.get<double>());
  if (v.is_null()) return "–";
  return v.dump();  // numbers in their shortest round-trip form, true/false
}

// A table of the object's fields; nested objects and arrays as JSON text.
void object_table(std::string& out, const Json& object) {
  out += "<table class=\"kv\">\n";
  for (const auto& [key, value] : object.items()) {
    out += "<tr><th>" + html_escape(key) + "</th><td>";
    out += html_escape(value.is_structured() ? value.dump() : scalar_text(value));
    out += "</td></tr>\n";
  }
  out += "</table>\n";
}

const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
.outcome { display: inline-block; padding: 0.1em 0.6em; border-radius: 0.3em; color: #fff; font-weight: bold; }
.completed { background: #2a7d2a; } .interrupted { background: #b07a00; } .failed { background: #b02a2a; }
.unknown { background: #777; }
table.kv { border-collapse: collapse; margin: 0.4em 0; }
table.kv th { text-align: left; font-weight: normal; color: #555; padding: 0.15em 1.2em 0.15em 0; }
table.kv td { font-family: ui-monospace, monospace; padding: 0.15em 0; word-break: break-all; }
pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; }
.grid { display: flex; flex-wrap: wrap; gap: 0 3em; }
.note { color: #666; font-size: 0.9em; }
footer { margin-top: 2em; color: #777; font-size: 0.85em; }
)";

// Counts the plots and their lines into the footer once the page is laid out.
const char* kScript = R"(
window.addEventListener('load', function () {
  var plots = document.querySelectorAll('figure.plot svg');
  var lines = document.querySelectorAll('figure.plot svg polyline');
  var footer = document.getElementById('rendered');
  footer.setAttribute('data-plots', String(plots.length));
  footer.setAttribute('data-lines', String(lines.length));
  footer.textContent = plots.length + ' plot(s), ' + lines.length + ' series drawn.';
});
)";

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_html_report(const ReportInput& in) {
  Json stats = Json::object();
  if (!in.statistics_json.empty()) {
    try {
      stats = Json::parse(in.statistics_json);
    } catch (const Json::exception& e) {
      throw Error(ErrorKind::usage, "lsdae report → the statistics of " + in.statistics_origin +
                                        " are not JSON → " + e.what() +
                                        " → pass the file lsdae simulate --stats wrote");
    }
    if (!stats.is_object())
      throw Error(ErrorKind::usage, "lsdae report → the statistics of " + in.statistics_origin +
                                        " are not a JSON object → " + stats.type_name() +
                                        " → pass the file lsdae simulate --stats wrote");
  }
  const bool have_stats = !in.statistics_json.empty();
  auto field = [&](const char* key) -> const Json* {
    auto it = stats.find(key);
    return it == stats.end() ? nullptr : &*it;
  };
  std::string fmu = in.title;
  if (fmu.empty() && field("fmu") != nullptr) fmu = scalar_text(*field("fmu"));
  if (fmu.empty()) fmu = in.result_path;

  std::string outcome = "unknown", outcome_text = "outcome unknown (no statistics)";
  if (have_stats) {
    const Json* error = field("error");
    const Json* interrupted = field("interrupted");
    const Json* completed = field("completed");
    if (completed != nullptr && completed->is_boolean() && completed->get<bool>()) {
      outcome = "completed";
      outcome_text = "completed";
    } else if (interrupted != nullptr && interrupted->is_boolean() && interrupted->get<bool>()) {
      outcome = "interrupted";
      outcome_text = "interrupted";
    } else if (error != nullptr) {
      outcome = "failed";
      outcome_text = "failed";
    }
  }

  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"generator\" content=\"" + html_escape(in.generator) + "\">\n";
  out += "<title>" + html_escape(fmu) + " — lsdae report</title>\n<style>" + std::string(kStyle) + "</style>\n";
  out += "</head>\n<body>\n";
  out += "<h1>" + html_escape(fmu) + "</h1>\n";
  out += "<p><span class=\"outcome " + outcome + "\">" + html_escape(outcome_text) + "</span>";
  if (have_stats) {
    auto put = [&](const char* key, const std::string& label, const std::string& suffix = "") {
      if (const Json* v = field(key)) out += " &nbsp; " + label + " <b>" + html_escape(scalar_text(*v)) + "</b>" + suffix;
    };
    put("reached_time", "reached t =");
    put("stop_time", "of");
    put("rows_written", "·", " rows");
    put("wall_time_s", "· wall time", " s");
  }
  out += "</p>\n";
  if (const Json* error = field("error"))
    out += "<pre class=\"error\">" + html_escape(scalar_text(*error)) + "</pre>\n";

  // The run.
  out += "<h2>Run</h2>\n<table class=\"kv\">\n";
  if (const Json* command = field("command_line")) {
    std::string line;
    if (command->is_array())
      for (const auto& word : *command) {
        const std::string w = scalar_text(word);
        const bool quote = w.empty() || w.find_first_of(" \t'\"*?$;&|<>()") != std::string::npos;
        line += (line.empty() ? "" : " ") + (quote ? "'" + w + "'" : w);
      }
    else
      line = scalar_text(*command);
    out += "<tr><th>command line</th><td>" + html_escape(line) + "</td></tr>\n";
  }
  out += "<tr><th>result file</th><td>" + html_escape(in.result_path) + "</td></tr>\n";
  out += "<tr><th>statistics</th><td>" +
         html_escape(have_stats ? in.statistics_origin
                                : "none (pass --stats with the JSON lsdae simulate --stats wrote)") +
         "</td></tr>\n";
  for (const auto& [key, value] : stats.items())
    if (!value.is_structured() && key != "error" && key != "command_line")
      out += "<tr><th>" + html_escape(key) + "</th><td>" + html_escape(scalar_text(value)) + "</td></tr>\n";
  out += "</table>\n";

  // Plots.
  const ResultTable& table = *in.table;
  const std::vector<double> events = event_times(table.time);
  out += "<h2>Plots</h2>\n<p class=\"note\">" + html_escape(in.selection) + ": " +
         std::to_string(table.series.size()) + " series, " + std::to_string(table.time.size()) + " rows" +
         (events.empty() ? "" : "; dashed lines mark the events") + ".</p>\n";
  if (!table.series.empty() && !table.time.empty()) {
    SvgOptions svg;
    svg.width = 960;
    svg.panel_height = 220;
    std::string picture = render_svg(table, in.panels, events, svg);
    if (picture.rfind("<?xml", 0) == 0) picture.erase(0, picture.find("?>") + 2);  // inline: no XML declaration
    picture.erase(0, picture.find('<'));
    out += "<figure class=\"plot\">" + picture + "</figure>\n";
  } else {
    out += "<p class=\"note\">Nothing to plot: the result holds no rows or no numeric series.</p>\n";
  }

  // Events.
  out += "<h2>Events</h2>\n";
  if (have_stats) {
    if (const Json* counters = field("counters"); counters != nullptr && counters->is_object()) {
      out += "<p>";
      for (const char* key : {"time_events", "state_events", "step_events"})
        if (auto it = counters->find(key); it != counters->end())
          out += html_escape(key) + " <b>" + html_escape(scalar_text(*it)) + "</b> &nbsp; ";
      out += "</p>\n";
    }
  }
  if (events.empty()) {
    out += "<p class=\"note\">No event rows in the result (no repeated time).</p>\n";
  } else {
    out += "<p>" + std::to_string(events.size()) + " event time" + (events.size() == 1 ? "" : "s") +
           " in the result:</p>\n<p class=\"events\">";
    for (std::size_t k = 0; k < events.size() && k < kListedEvents; ++k)
      out += (k ? ", " : "") + number_text(events[k]);
    if (events.size() > kListedEvents) out += ", … and " + std::to_string(events.size() - kListedEvents) + " more";
    out += "</p>\n";
  }

  // The statistics' objects.
  if (have_stats) {
    out += "<h2>Statistics</h2>\n<div class=\"grid\">\n";
    for (const auto& [key, value] : stats.items()) {
      if (!value.is_object()) continue;
      const auto t = section_titles().find(key);
      out += "<section><h3>" + html_escape(t == section_titles().end() ? key : t->second) + "</h3>\n";
      object_table(out, value);
      out += "</section>\n";
    }
    // Top-level arrays other than the command line (none today): shown as JSON.
    for (const auto& [key, value] : stats.items())
      if (value.is_array() && key != "command_line")
        out += "<section><h3>" + html_escape(key) + "</h3><pre>" + html_escape(value.dump(1)) + "</pre></section>\n";
    out += "</div>\n";
  }

  out += "<footer><p>Made by " + html_escape(in.generator) + (in.created.empty() ? "" : " on " + html_escape(in.created)) +
         ". This page is self-contained: it needs no network and no other file.</p>\n";
  out += "<p id=\"rendered\" data-plots=\"\" data-lines=\"\"></p></footer>\n";
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace lsdae::results
