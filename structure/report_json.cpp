// structure/report_json.cpp -- StructureReport::to_json() (report.h): the
// JSON document of `lsdae info --structure --json`, schema version 1, every
// key of report.h always present (null where report.h says). Cost: O(size
// of the output).
#include <string>
#include <vector>

#include "structure/json_writer.h"
#include "structure/report.h"

namespace lsdae::structure {

namespace {

void string_array(JsonWriter& json, const std::vector<std::string>& names) {
  json.begin_array();
  for (const auto& name : names) json.value(name);
  json.end_array();
}

}  // namespace

std::string StructureReport::to_json() const {
  JsonWriter json;
  json.begin_object();
  json.key("schema").value(std::size_t{1});
  json.key("model").begin_object();
  json.key("form").value(form);
  json.key("states").value(states);
  json.key("algebraic").value(algebraic);
  json.key("residual_groups").value(residual_groups);
  json.key("formulations").value(formulations);
  json.key("invariants").value(invariants);
  json.key("nonzeros").value(nonzeros);
  json.key("dense_rows").value(dense_rows);
  json.end_object();
  json.key("status").value(status);
  json.key("error");
  if (error.empty()) json.null();
  else json.value(error);
  json.key("original_matching").begin_object();
  json.key("rows").value(original.rows);
  json.key("unknowns").value(original.unknowns);
  json.key("structural_rank").value(original.rank);
  json.key("unmatched_residuals");
  string_array(json, original.unmatched_rows);
  json.key("unmatched_residual_count").value(original.unmatched_row_count);
  json.key("unmatched_variables");
  string_array(json, original.unmatched_unknowns);
  json.key("unmatched_variable_count").value(original.unmatched_unknown_count);
  json.end_object();
  json.key("structural_index");
  if (structural_index) json.value(*structural_index);
  else json.null();
  json.key("index_source");
  if (index_source.empty()) json.null();
  else json.value(index_source);
  json.key("differentiated").begin_array();
  for (const auto& d : differentiated) {
    json.begin_object().key("residual").value(d.residual).key("times").value(d.times).key("formulations");
    string_array(json, d.formulations);
    json.key("synthesized");
    string_array(json, d.synthesized);
    json.end_object();
  }
  json.end_array();
  json.key("classic_differentiations").begin_array();
  for (const auto& d : classic_differentiations)
    json.begin_object().key("residual").value(d.residual).key("times").value(d.times).end_object();
  json.end_array();
  json.key("blt").begin_object();
  json.key("blocks").value(blt_blocks);
  json.key("largest").value(largest_block);
  json.key("block_sizes");
  if (block_sizes) {
    json.begin_array();
    for (const std::size_t s : *block_sizes) json.value(s);
    json.end_array();
  } else {
    json.null();
  }
  json.key("histogram").begin_array();
  for (const auto& [size, count] : block_histogram)
    json.begin_object().key("size").value(size).key("count").value(count).end_object();
  json.end_array();
  json.end_object();
  json.key("reduction");
  if (reduction) {
    const auto& red = *reduction;
    json.begin_object();
    json.key("method").value(red.method);
    json.key("selection");
    if (red.selection.empty()) json.null();
    else json.value(red.selection);
    json.key("checked");
    if (red.checked.empty()) json.null();
    else json.value(red.checked);
    json.key("structural_check");
    if (red.structural_check.empty()) json.null();
    else json.value(red.structural_check);
    json.key("dummy_derivatives");
    string_array(json, red.dummy_derivatives);
    json.key("dummy_count").value(red.dummy_count);
    json.key("switched_off");
    string_array(json, red.switched_off);
    json.key("states_after");
    string_array(json, red.states_after);
    json.key("states_after_count").value(red.states_after_count);
    json.key("rcond").value(red.rcond);
    json.key("rows").value(red.rows);
    json.key("row_order").value(red.row_order);
    json.key("differential").value(red.differential);
    json.key("algebraic").value(red.algebraic);
    json.key("projection_constraints");
    string_array(json, red.projection_constraints);
    json.key("projection_constraint_count").value(red.projection_constraint_count);
    json.end_object();
  } else {
    json.null();
  }
  json.key("coloring");
  if (coloring) {
    json.begin_object();
    json.key("ordering").value(coloring->ordering);
    json.key("colors").value(coloring->colors);
    json.key("columns").value(coloring->columns);
    json.key("lower_bound").value(coloring->lower_bound);
    json.key("per_ordering").begin_array();
    for (const auto& [name, colors] : coloring->per_ordering)
      json.begin_object().key("ordering").value(name).key("colors").value(colors).end_object();
    json.end_array();
    json.key("varying");
    if (coloring->varying) {
      const auto& v = *coloring->varying;
      json.begin_object();
      json.key("constant_entries").value(v.constant_entries);
      json.key("varying_columns").value(v.varying_columns);
      json.key("colors").value(v.colors);
      json.key("method").value(v.subtracts ? "subtract" : "exclusive");
      json.key("exclusive_colors").value(v.exclusive_colors);
      json.key("subtract_colors").value(v.subtract_colors);
      json.end_object();
    } else {
      json.null();
    }
    json.end_object();
  } else {
    json.null();
  }
  json.key("elimination");
  if (elimination) {
    const auto& e = *elimination;
    json.begin_object();
    if (!e.not_planned.empty()) json.key("not_planned").value(e.not_planned);
    json.key("algebraic").value(e.algebraic);
    json.key("eliminated").value(e.eliminated);
    json.key("blocks").value(e.blocks);
    json.key("rejected_blocks").value(e.rejected_blocks);
    json.key("unknowns_after").value(e.unknowns_after);
    json.key("nonzeros_before").value(e.nonzeros_before);
    json.key("nonzeros_after").value(e.nonzeros_after);
    json.key("colors_after").value(e.colors_after);
    json.key("eliminated_names");
    string_array(json, e.eliminated_names);
    json.key("varying").begin_array();
    for (const auto& [unknown, row] : e.varying)
      json.begin_object().key("unknown").value(unknown).key("row").value(row).end_object();
    json.end_array();
    json.key("varying_count").value(e.varying_count);
    json.key("no_row");
    string_array(json, e.no_row);
    json.key("no_row_count").value(e.no_row_count);
    json.key("fill");
    string_array(json, e.fill);
    json.key("fill_count").value(e.fill_count);
    json.end_object();
  } else {
    json.null();
  }
  json.key("warnings");
  string_array(json, warnings);
  json.key("notes");
  string_array(json, notes);
  json.end_object();
  return json.str() + "\n";
}

}  // namespace lsdae::structure
