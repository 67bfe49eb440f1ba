// structure/pattern.h -- sparse incidence patterns (structure only, no values).
//
// A Pattern is a rows × cols boolean matrix stored twice: compressed rows
// (CSR: row_ptr, col_idx) and compressed columns (CSC: col_ptr, row_idx).
// Both are 0-based, both are in DETERMINISTIC order: the columns of a row are
// sorted ascending and unique, and so are the rows of a column. Every
// algorithm of lsdae::structure reads patterns through these two views.
//
// Construction validates: a column index >= cols throws StructureError naming
// the row and the column. Duplicates are removed silently (a dependency
// listed twice is still one dependency). Construction is O(rows + cols + nnz)
// time and memory (counting sort; no comparison sort over the whole pattern,
// each row is sorted in place: O(Σ k log k) for rows of length k).
//
// Column blocks: the DAE patterns of lsdae put the unknowns in contiguous
// column ranges (ẋ, x, z; see structure/dae_system.h). `row_range` is a
// zero-copy view of one row restricted to a column range; `column_block`
// copies a range out as a pattern of its own, re-indexed from 0.
#ifndef LSDAE_STRUCTURE_PATTERN_H
#define LSDAE_STRUCTURE_PATTERN_H

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace lsdae::structure {

// "No index": an unmatched row or column, an absent derivative, ...
inline constexpr std::size_t no_index = std::numeric_limits<std::size_t>::max();

class Pattern {
 public:
  // An empty 0 × 0 pattern.
  Pattern() = default;

  // Rows given as column lists (any order, duplicates allowed).
  // Throws StructureError when a column is >= cols.
  static Pattern from_rows(std::size_t cols, const std::vector<std::vector<std::size_t>>& rows);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t nnz() const { return col_idx_.size(); }

  // The columns of row r, sorted ascending. Precondition r < rows().
  std::span<const std::size_t> row(std::size_t r) const {
    return {col_idx_.data() + row_ptr_[r], row_ptr_[r + 1] - row_ptr_[r]};
  }
  // The rows of column c, sorted ascending. Precondition c < cols().
  std::span<const std::size_t> column(std::size_t c) const {
    return {row_idx_.data() + col_ptr_[c], col_ptr_[c + 1] - col_ptr_[c]};
  }
  // The columns of row r that lie in [begin, end): a sub-span of row(r).
  std::span<const std::size_t> row_range(std::size_t r, std::size_t begin, std::size_t end) const;

  // Raw CSR (size rows+1, nnz) and CSC (size cols+1, nnz) arrays.
  const std::vector<std::size_t>& row_ptr() const { return row_ptr_; }
  const std::vector<std::size_t>& col_idx() const { return col_idx_; }
  const std::vector<std::size_t>& col_ptr() const { return col_ptr_; }
  const std::vector<std::size_t>& row_idx() const { return row_idx_; }

  // Whether (r, c) is a nonzero: binary search in row r, O(log k).
  bool contains(std::size_t r, std::size_t c) const;
  // The longest row (0 for an empty pattern).
  std::size_t max_row_nnz() const;

  // New patterns (all O(nnz) except as noted):
  // rows listed in `rows` (any order, repeats allowed), same columns.
  Pattern select_rows(std::span<const std::size_t> rows) const;
  // columns [begin, end) re-indexed to [0, end - begin). Throws on a bad range.
  Pattern column_block(std::size_t begin, std::size_t end) const;
  // the transpose (CSR and CSC swapped, no work beyond a copy).
  Pattern transposed() const;

  bool operator==(const Pattern& other) const {
    return rows_ == other.rows_ && cols_ == other.cols_ && row_ptr_ == other.row_ptr_ &&
           col_idx_ == other.col_idx_;
  }

 private:
  friend class PatternBuilder;
  void build_columns();  // CSC from CSR by counting sort

  std::size_t rows_ = 0, cols_ = 0;
  std::vector<std::size_t> row_ptr_{0}, col_idx_;
  std::vector<std::size_t> col_ptr_{0}, row_idx_;
};

// Builds a Pattern row by row without a vector per row (for 10^6 rows).
//   PatternBuilder b(cols); b.add_row({0, 3}); ... Pattern p = std::move(b).build();
class PatternBuilder {
 public:
  explicit PatternBuilder(std::size_t cols, std::size_t expected_rows = 0, std::size_t expected_nnz = 0);
  // Appends a row; columns in any order, duplicates removed.
  // Throws StructureError (naming this row's number) when a column is >= cols.
  void add_row(std::span<const std::size_t> columns);
  void add_row(std::initializer_list<std::size_t> columns) {
    add_row(std::span<const std::size_t>(columns.begin(), columns.size()));
  }
  std::size_t rows() const { return pattern_.rows_; }
  Pattern build() &&;

 private:
  Pattern pattern_;
};

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_PATTERN_H
