// structure/coloring_varying.cpp -- see coloring_varying.h.
#include "structure/coloring_varying.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace lsdae::structure {
namespace {

// `keep` per CSC entry: the pattern of those entries (same shape).
Pattern entries_pattern(const Pattern& pattern, const std::vector<bool>& keep) {
  std::vector<std::vector<std::size_t>> rows(pattern.rows());
  for (std::size_t c = 0; c < pattern.cols(); ++c)
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      if (keep[p]) rows[pattern.row_idx()[p]].push_back(c);
  return Pattern::from_rows(pattern.cols(), rows);
}

}  // namespace

Coloring restrict_coloring(const Coloring& coloring, const std::vector<bool>& coloured) {
  std::vector<std::size_t> renumber(coloring.colors, no_index);
  Coloring out;
  out.ordering = coloring.ordering;
  out.color.assign(coloring.color.size(), no_index);
  for (std::size_t c = 0; c < coloring.colors; ++c) {
    for (std::size_t j : coloring.group(c)) {
      if (!coloured[j]) continue;
      if (renumber[c] == no_index) renumber[c] = out.colors++;
      out.color[j] = renumber[c];
    }
  }
  out.group_ptr.assign(out.colors + 1, 0);
  for (std::size_t j = 0; j < out.color.size(); ++j)
    if (out.color[j] != no_index) ++out.group_ptr[out.color[j] + 1];
  for (std::size_t c = 0; c < out.colors; ++c) out.group_ptr[c + 1] += out.group_ptr[c];
  out.group_columns.resize(out.group_ptr[out.colors]);
  std::vector<std::size_t> next(out.group_ptr.begin(), out.group_ptr.end() - 1);
  for (std::size_t j = 0; j < out.color.size(); ++j)  // ascending within a colour
    if (out.color[j] != no_index) out.group_columns[next[out.color[j]]++] = j;
  return out;
}

VaryingColoring color_varying_columns(const Pattern& pattern, const std::vector<bool>& entry_constant,
                                      VaryingChoice choice) {
  if (entry_constant.size() != pattern.nnz())
    throw std::invalid_argument("varying colouring: " + std::to_string(entry_constant.size()) + " flags for " +
                                std::to_string(pattern.nnz()) + " entries");
  const std::size_t n = pattern.cols();
  std::vector<bool> varying_column(n, false), in_varying_column(pattern.nnz(), false),
      varying_entry(pattern.nnz(), false);
  VaryingColoring out;
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p) {
      if (entry_constant[p]) ++out.constant_entries;
      else varying_column[c] = true, varying_entry[p] = true;
    }
  for (std::size_t c = 0; c < n; ++c) {
    if (varying_column[c]) ++out.varying_columns;
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      in_varying_column[p] = varying_column[c];
  }
  Coloring exclusive =
      restrict_coloring(color_columns_best(entries_pattern(pattern, in_varying_column)), varying_column);
  Coloring subtract = restrict_coloring(color_columns_best(entries_pattern(pattern, varying_entry)), varying_column);
  out.exclusive_colors = exclusive.colors;
  out.subtract_colors = subtract.colors;
  out.subtracts = choice == VaryingChoice::subtract ||
                  (choice == VaryingChoice::best && subtract.colors < exclusive.colors);
  out.coloring = out.subtracts ? std::move(subtract) : std::move(exclusive);
  return out;
}

bool verify_varying_coloring(const Pattern& pattern, const std::vector<bool>& entry_constant, const Coloring& coloring,
                             std::string* why) {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (entry_constant.size() != pattern.nnz() || coloring.color.size() != pattern.cols())
    return fail("sizes differ: " + std::to_string(entry_constant.size()) + " flags, " +
                std::to_string(coloring.color.size()) + " colours for " + std::to_string(pattern.nnz()) +
                " entries in " + std::to_string(pattern.cols()) + " columns");
  // Per row and colour: the column whose varying entry took it.
  std::vector<std::size_t> owner(pattern.rows(), no_index), owner_color(pattern.rows(), no_index);
  for (std::size_t c = 0; c < pattern.cols(); ++c) {
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p) {
      if (entry_constant[p]) continue;
      const std::size_t color = coloring.color[c];
      if (color == no_index || color >= coloring.colors)
        return fail("column " + std::to_string(c) + " has a varying entry but no colour");
    }
  }
  for (std::size_t color = 0; color < coloring.colors; ++color) {
    for (std::size_t c : coloring.group(color))
      for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p) {
        if (entry_constant[p]) continue;
        const std::size_t r = pattern.row_idx()[p];
        if (owner_color[r] == color)
          return fail("row " + std::to_string(r) + ": columns " + std::to_string(owner[r]) + " and " +
                      std::to_string(c) + " both have varying entries and colour " + std::to_string(color));
        owner[r] = c;
        owner_color[r] = color;
      }
  }
  return true;
}

}  // namespace lsdae::structure
