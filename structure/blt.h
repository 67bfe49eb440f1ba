// structure/blt.h -- block lower triangular (BLT) form of a square system
// with a perfect matching: the strongly connected components of the matched
// dependency graph, in the order in which they can be solved.
//
// Algorithm: Tarjan's strongly connected components (R. E. Tarjan, "Depth-
// first search and linear graph algorithms", SIAM J. Comput. 1(2), 1972) on
// the graph with one node per row and an edge r → r' whenever row r contains
// the column matched to row r' (r needs the variable that r' solves for);
// iterative, O(rows + nnz) time and memory. Tarjan emits a component only
// after every component it depends on, so emission order IS the block lower
// triangular order: block b depends on blocks < b only. Duff & Reid's
// partitioning (ACM TOMS 4(2), 1978; SuiteSparse BTF's btf_strongcomp) is the
// same algorithm.
//
// Determinism: roots are taken in ascending row order and edges in the sorted
// column order; the rows inside one block are listed ascending.
//
// Validation: throws StructureError when the matching is not perfect (BLT of a
// structurally singular system is not defined; run the matching diagnostic).
#ifndef LSDAE_STRUCTURE_BLT_H
#define LSDAE_STRUCTURE_BLT_H

#include <cstddef>
#include <utility>
#include <vector>

#include "structure/matching.h"

namespace lsdae::structure {

struct Blt {
  std::vector<std::size_t> row_order;     // rows, block by block
  std::vector<std::size_t> column_order;  // column_order[k] is matched to row_order[k]
  std::vector<std::size_t> block_ptr{0};  // block b holds positions [block_ptr[b], block_ptr[b+1])
  std::vector<std::size_t> block_of_row;  // per row: its block

  std::size_t blocks() const { return block_ptr.size() - 1; }
  std::size_t block_size(std::size_t b) const { return block_ptr[b + 1] - block_ptr[b]; }
  std::size_t largest_block() const;
  // (block size, number of blocks of that size), ascending size.
  std::vector<std::pair<std::size_t, std::size_t>> size_histogram() const;
};

Blt block_lower_triangular(BipartiteView g, const Matching& m);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_BLT_H
