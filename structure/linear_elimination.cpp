// structure/linear_elimination.cpp -- see linear_elimination.h.
#include "structure/linear_elimination.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace lsdae::structure {

const char* to_string(EliminationReason reason) noexcept {
  switch (reason) {
    case EliminationReason::eliminated: return "eliminated";
    case EliminationReason::not_algebraic: return "not algebraic";
    case EliminationReason::varying_entry: return "varying entry";
    case EliminationReason::no_row: return "no row";
    case EliminationReason::fill: return "fill";
  }
  return "?";
}

namespace {

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}

}  // namespace

LinearElimination plan_linear_elimination(const Pattern& P, const std::vector<bool>& constant_entry,
                                          const std::vector<bool>& algebraic, const EliminationOptions& options) {
  const std::size_t n = P.cols();
  if (P.rows() != n) throw std::invalid_argument("linear elimination: the pattern is not square");
  if (constant_entry.size() != P.nnz())
    throw std::invalid_argument("linear elimination: " + std::to_string(constant_entry.size()) +
                                " constancy flags for " + std::to_string(P.nnz()) + " entries");
  if (algebraic.size() != n)
    throw std::invalid_argument("linear elimination: " + std::to_string(algebraic.size()) + " algebraic flags for " +
                                std::to_string(n) + " unknowns");
  LinearElimination out;
  out.reason.assign(n, EliminationReason::not_algebraic);
  out.varying_row.assign(n, no_index);

  // 1. Candidates: every entry of the column constant.
  std::vector<bool> candidate(n, false);
  for (std::size_t k = 0; k < n; ++k) {
    if (!algebraic[k]) continue;
    bool all = true;
    for (std::size_t p = P.col_ptr()[k]; p < P.col_ptr()[k + 1] && all; ++p)
      if (!constant_entry[p]) all = false, out.varying_row[k] = P.row_idx()[p];
    if (!all) {
      out.reason[k] = EliminationReason::varying_entry;
      continue;
    }
    candidate[k] = true;
  }

  // 2. Rows: the diagonal first, then the first row no candidate took.
  std::vector<std::size_t> row_of(n, no_index), unknown_of_row(n, no_index);
  for (std::size_t k = 0; k < n; ++k)
    if (candidate[k] && P.contains(k, k)) row_of[k] = k, unknown_of_row[k] = k;
  for (std::size_t k = 0; k < n; ++k) {
    if (!candidate[k] || row_of[k] != no_index) continue;
    for (const std::size_t r : P.column(k))
      if (unknown_of_row[r] == no_index && !(r < n && candidate[r] && P.contains(r, r))) {
        row_of[k] = r, unknown_of_row[r] = k;
        break;
      }
    if (row_of[k] == no_index) candidate[k] = false, out.reason[k] = EliminationReason::no_row;
  }

  // 3. Blocks: the connected components of A's graph (a chosen row joins its candidates).
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t k = unknown_of_row[r];
    if (k == no_index) continue;
    for (const std::size_t c : P.row(r))
      if (candidate[c]) parent[find_root(parent, c)] = find_root(parent, k);
  }
  std::vector<std::vector<std::size_t>> block_members;
  std::vector<std::size_t> block_of(n, no_index);
  {
    std::vector<std::size_t> block_of_root(n, no_index);
    for (std::size_t k = 0; k < n; ++k) {
      if (!candidate[k]) continue;
      const std::size_t root = find_root(parent, k);
      if (block_of_root[root] == no_index) block_of_root[root] = block_members.size(), block_members.emplace_back();
      block_members[block_of_root[root]].push_back(k);
      block_of[k] = block_of_root[root];
    }
  }

  // 4. Cost model per block. Markers are stamped with a running counter so
  // that nothing is cleared between columns.
  std::vector<std::size_t> seen_unknown(n, 0), seen_fill(n, 0), seen_column(n, 0);
  std::size_t stamp = 0, column_stamp = 0;
  std::vector<std::size_t> stack;
  std::size_t current_block = no_index;  // the cost model walks one block's rows only
  // Walks the reach of column j through the block's rows; calls on_fill(row)
  // once per row outside the block that the reach touches. Returns false when
  // the budget ran out.
  auto reach = [&](std::size_t j, std::size_t& budget, auto&& on_rest_row) {
    ++stamp;
    stack.clear();
    for (const std::size_t r : P.column(j)) {
      const std::size_t k = unknown_of_row[r];
      if (k != no_index && candidate[k] && (current_block == no_index || block_of[k] == current_block) &&
          seen_unknown[k] != stamp)
        seen_unknown[k] = stamp, stack.push_back(k);
    }
    while (!stack.empty()) {
      const std::size_t z = stack.back();
      stack.pop_back();
      for (const std::size_t r : P.column(z)) {
        if (budget == 0) return false;
        --budget;
        const std::size_t k = unknown_of_row[r];
        if (k != no_index && candidate[k]) {
          if (seen_unknown[k] != stamp) seen_unknown[k] = stamp, stack.push_back(k);
        } else {
          on_rest_row(r);
        }
      }
    }
    return true;
  };

  std::vector<std::size_t> columns;
  for (std::size_t b = 0; b < block_members.size(); ++b) {
    const auto& members = block_members[b];
    current_block = b;
    std::size_t removed = 0, block_entries = 0;
    ++column_stamp;
    columns.clear();
    for (const std::size_t k : members) {
      const std::size_t r = row_of[k];
      // Entries of the row, and of the column outside the block's rows.
      removed += P.row(r).size();
      block_entries += P.row(r).size() + P.column(k).size();
      for (const std::size_t c : P.row(r))
        if (!candidate[c] && seen_column[c] != column_stamp) seen_column[c] = column_stamp, columns.push_back(c);
      for (const std::size_t rr : P.column(k)) {
        const std::size_t kk = unknown_of_row[rr];
        if (kk == no_index || !candidate[kk]) ++removed;
      }
    }
    std::size_t budget = options.work_per_entry * std::max<std::size_t>(block_entries, 1);
    const double limit = options.max_growth * static_cast<double>(removed);
    std::size_t fill = 0;
    bool ok = true;
    for (const std::size_t j : columns) {
      ++stamp;  // fill markers per column: reach() bumps stamp again, so use a fresh one for seen_fill
      const std::size_t fill_stamp = stamp;
      ok = reach(j, budget, [&](std::size_t r) {
        if (seen_fill[r] == fill_stamp) return;
        seen_fill[r] = fill_stamp;
        if (!P.contains(r, j)) ++fill;
      });
      if (!ok || static_cast<double>(fill) > limit) {
        ok = false;
        break;
      }
    }
    if (ok) {
      ++out.blocks;
      out.removed_nonzeros += removed;
      for (const std::size_t k : members) out.reason[k] = EliminationReason::eliminated;
    } else {
      ++out.rejected_blocks;
      for (const std::size_t k : members) out.reason[k] = EliminationReason::fill;
    }
  }

  current_block = no_index;
  // The chosen sets: candidates of the rejected blocks are kept.
  for (std::size_t k = 0; k < n; ++k) candidate[k] = out.reason[k] == EliminationReason::eliminated;
  out.reduced_unknown.assign(n, no_index);
  out.reduced_row.assign(n, no_index);
  out.eliminated_index.assign(n, no_index);
  std::vector<bool> row_eliminated(n, false);
  for (std::size_t k = 0; k < n; ++k)
    if (candidate[k]) {
      out.eliminated_index[k] = out.eliminated.size();
      out.eliminated.push_back(k);
      out.eliminated_rows.push_back(row_of[k]);
      out.eliminated_block.push_back(block_of[k]);
      row_eliminated[row_of[k]] = true;
    } else {
      out.reduced_unknown[k] = out.kept.size();
      out.kept.push_back(k);
    }
  for (std::size_t r = 0; r < n; ++r)
    if (!row_eliminated[r]) out.reduced_row[r] = out.kept_rows.size(), out.kept_rows.push_back(r);

  // The reduced pattern: P over the kept rows and columns, plus the fill.
  std::vector<std::vector<std::size_t>> rows(out.kept_rows.size());
  std::size_t kept_entries = 0;
  for (const std::size_t j : out.kept) {
    const std::size_t jj = out.reduced_unknown[j];
    for (const std::size_t r : P.column(j))
      if (!row_eliminated[r]) rows[out.reduced_row[r]].push_back(jj), ++kept_entries;
    std::size_t unlimited = static_cast<std::size_t>(-1);
    ++stamp;
    const std::size_t fill_stamp = stamp;
    reach(j, unlimited, [&](std::size_t r) {
      if (seen_fill[r] == fill_stamp) return;
      seen_fill[r] = fill_stamp;
      rows[out.reduced_row[r]].push_back(jj);  // duplicates of P's own entries are merged by from_rows
    });
  }
  out.reduced = Pattern::from_rows(out.kept.size(), rows);
  out.fill_nonzeros = out.reduced.nnz() - kept_entries;

  std::vector<std::vector<std::size_t>> z_rows(n);
  for (std::size_t i = 0; i < out.eliminated.size(); ++i)
    for (const std::size_t r : P.column(out.eliminated[i])) z_rows[r].push_back(i);
  out.z_columns = Pattern::from_rows(out.eliminated.size(), z_rows);
  return out;
}

}  // namespace lsdae::structure
