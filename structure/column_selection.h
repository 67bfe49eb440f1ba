// structure/column_selection.h -- choose d well-conditioned columns of a dense
// d × k matrix (d ≤ k): the numeric step of the dummy-derivative selection.
//
// Algorithm: column-pivoted modified Gram–Schmidt, i.e. the pivot rule of QR
// with column pivoting (P. Businger, G. H. Golub, "Linear least squares
// solutions by Householder transformations", Numer. Math. 7, 1965; Eigen's
// ColPivHouseholderQR), applied block by block over the rows in the order of
// the dummy-derivative hierarchy (Mattsson & Söderlind 1993: constraints of
// the highest differentiation distance first, "position before velocity").
// Rows are processed in blocks of equal `row_height`, descending; after a
// block picks its columns, the remaining rows are reduced by the Schur
// complement on the picked block (block Gaussian elimination), so the final
// selection is nonsingular iff every block's pivots are.
//
// Pivot rule inside a block, at each step, over the columns not yet taken,
// with ‖·‖ the column norm of the block after orthogonalisation:
//   1. hierarchy: columns with column_height ≤ the block's height ("fresh":
//      they appear in no constraint of a greater distance) are used when the
//      largest fresh norm is ≥ hierarchy_tolerance × the largest norm;
//      otherwise all columns are;
//   2. eligibility: norm ≥ preference_tolerance × the largest norm of that pool;
//   3. among eligible columns: highest `column_priority`, then largest norm
//      (norms within a relative 1e-9 count as equal), then lowest index.
// The rule is deterministic (exact ties cannot flip with rounding) and keeps
// the state preferences of the model (priority) unless they cost more than a
// factor 1/preference_tolerance in a pivot. Eigen's ColPivHouseholderQR is not
// used because its pivot choice can be neither biased nor tie-broken.
//
// Conditioning: `rcond` is Eigen's PartialPivLU::rcond() of the selected
// d × d submatrix, an estimate of 1/κ₁; 0 if singular. Rank: a pivot whose
// norm is ≤ rank_tolerance × the largest column norm of the input counts as
// zero; then the selection fails with `rank` = the steps that succeeded.
//
// Cost: O(d² k) time, O(d k) memory. Validation: sizes are checked (throws
// StructureError); values are trusted (callers check finiteness).
#ifndef LSDAE_STRUCTURE_COLUMN_SELECTION_H
#define LSDAE_STRUCTURE_COLUMN_SELECTION_H

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstddef>
#include <span>
#include <vector>

#include "structure/column_selection_options.h"

namespace lsdae::structure {

// matrix: d × k. row_height: d entries; column_height, column_priority: k entries.
ColumnSelection select_columns(const Eigen::MatrixXd& matrix, std::span<const std::size_t> row_height,
                               std::span<const std::size_t> column_height, std::span<const int> column_priority,
                               const ColumnSelectionOptions& options = {});

// The same choice for a large SPARSE matrix, by right-looking sparse Gaussian
// elimination with threshold partial pivoting (the scheme of sparse LU codes
// such as KLU, applied to the rows): rows in descending height, each picks
// its pivot column among its own entries by the rules above with |entry|
// in place of the column norm (for a block of one row the two coincide), then
// that column is eliminated from the later rows. rcond: Hager–Higham 1-norm
// estimate with Eigen's SparseLU of the selected columns (a few solves).
// Cost: O(nnz + fill) for banded or tree-like constraint structures instead
// of O(d² k); the dense function is the reference for small components.
// rcond of a square sparse matrix: 1 / (‖A‖₁ · est ‖A⁻¹‖₁), the Hager–Higham
// estimate (LAPACK's xLACON, at most five iterations) with Eigen's SparseLU; 0
// when the factorization fails (singular).
double sparse_rcond(const Eigen::SparseMatrix<double>& a);

ColumnSelection select_columns_sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& matrix,
                                      std::span<const std::size_t> row_height,
                                      std::span<const std::size_t> column_height,
                                      std::span<const int> column_priority,
                                      const ColumnSelectionOptions& options = {});

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_COLUMN_SELECTION_H
