// structure/pattern.cpp -- see pattern.h.
#include "structure/pattern.h"

#include <algorithm>

#include "structure/error.h"
#include "structure/messages.h"

namespace lsdae::structure {

std::span<const std::size_t> Pattern::row_range(std::size_t r, std::size_t begin, std::size_t end) const {
  const auto columns = row(r);
  const auto first = std::lower_bound(columns.begin(), columns.end(), begin);
  const auto last = std::lower_bound(first, columns.end(), end);
  return {first, last};
}

bool Pattern::contains(std::size_t r, std::size_t c) const {
  const auto columns = row(r);
  return std::binary_search(columns.begin(), columns.end(), c);
}

std::size_t Pattern::max_row_nnz() const {
  std::size_t longest = 0;
  for (std::size_t r = 0; r < rows_; ++r) longest = std::max(longest, row_ptr_[r + 1] - row_ptr_[r]);
  return longest;
}

void Pattern::build_columns() {
  // Counting sort by column; rows are visited in ascending order, so the rows
  // of each column come out ascending without a comparison sort.
  col_ptr_.assign(cols_ + 1, 0);
  for (const std::size_t c : col_idx_) ++col_ptr_[c + 1];
  for (std::size_t c = 0; c < cols_; ++c) col_ptr_[c + 1] += col_ptr_[c];
  row_idx_.resize(col_idx_.size());
  std::vector<std::size_t> next(col_ptr_.begin(), col_ptr_.end() - 1);
  for (std::size_t r = 0; r < rows_; ++r)
    for (std::size_t k = row_ptr_[r]; k < row_ptr_[r + 1]; ++k) row_idx_[next[col_idx_[k]]++] = r;
}

Pattern Pattern::from_rows(std::size_t cols, const std::vector<std::vector<std::size_t>>& rows) {
  std::size_t nnz = 0;
  for (const auto& r : rows) nnz += r.size();
  PatternBuilder builder(cols, rows.size(), nnz);
  for (const auto& r : rows) builder.add_row(r);
  return std::move(builder).build();
}

Pattern Pattern::select_rows(std::span<const std::size_t> rows) const {
  PatternBuilder builder(cols_, rows.size());
  for (const std::size_t r : rows) builder.add_row(row(r));
  return std::move(builder).build();
}

Pattern Pattern::column_block(std::size_t begin, std::size_t end) const {
  if (begin > end || end > cols_) throw StructureError(messages::bad_column_block(begin, end, cols_));
  Pattern block;
  block.rows_ = rows_;
  block.cols_ = end - begin;
  block.row_ptr_.assign(1, 0);
  block.row_ptr_.reserve(rows_ + 1);
  for (std::size_t r = 0; r < rows_; ++r) {
    for (const std::size_t c : row_range(r, begin, end)) block.col_idx_.push_back(c - begin);
    block.row_ptr_.push_back(block.col_idx_.size());
  }
  block.build_columns();
  return block;
}

Pattern Pattern::transposed() const {
  Pattern t;
  t.rows_ = cols_;
  t.cols_ = rows_;
  t.row_ptr_ = col_ptr_;
  t.col_idx_ = row_idx_;
  t.col_ptr_ = row_ptr_;
  t.row_idx_ = col_idx_;
  return t;
}

PatternBuilder::PatternBuilder(std::size_t cols, std::size_t expected_rows, std::size_t expected_nnz) {
  pattern_.cols_ = cols;
  pattern_.row_ptr_.reserve(expected_rows + 1);
  pattern_.col_idx_.reserve(expected_nnz);
}

void PatternBuilder::add_row(std::span<const std::size_t> columns) {
  auto& p = pattern_;
  const std::size_t start = p.col_idx_.size();
  for (const std::size_t c : columns) {
    if (c >= p.cols_) {
      p.col_idx_.resize(start);  // leave the builder as it was
      throw StructureError(messages::column_out_of_range(p.rows_, c, p.cols_));
    }
    p.col_idx_.push_back(c);
  }
  const auto first = p.col_idx_.begin() + static_cast<std::ptrdiff_t>(start);
  std::sort(first, p.col_idx_.end());
  p.col_idx_.erase(std::unique(first, p.col_idx_.end()), p.col_idx_.end());
  p.row_ptr_.push_back(p.col_idx_.size());
  ++p.rows_;
}

Pattern PatternBuilder::build() && {
  pattern_.build_columns();
  return std::move(pattern_);
}

}  // namespace lsdae::structure
