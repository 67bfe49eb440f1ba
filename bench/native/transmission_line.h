// bench/native/transmission_line.h -- the TransmissionLine benchmark equations
// hand-coded for IDA, with no FMU: the native reference lsdae is measured
// against (issue 7).
//
// ScalableTestSuite TransmissionLineModelica_N (models/transmission_line/README.md):
// a unit step u = 1 (t >= 0) through a critically damped second-order filter
// drives N series R-L segments with shunt capacitors C, ended by the matched
// load RL = sqrt(l/c). R = r*length/N, L = l*length/N, C = c*length/N,
// v_0 = filter.y, i_{N+1} = load.i = C[N].v/RL.
//
// Two forms, each exactly as lsdae integrates the corresponding FMU, so that
// IDA takes (nearly) the same steps and a time ratio measures lsdae's overhead
// and nothing else:
//
//   ode  G(t, y, y') = y' − f(y), 2N+2 unknowns (IDA sees an ODE as lsdae does
//        for a plain ME FMU)
//          y = [filter.y, filter.yd, L[1].i, C[1].v, ..., L[N].i, C[N].v]
//          f = [yd, w*(w*(u − y) − 2*yd),
//               (v_{k−1} − R*i_k − v_k)/L,  (i_k − i_{k+1})/C  for k = 1..N]
//   dae  the fully implicit form of the FMU's manifest, 5N+3 unknowns:
//          y = [the 2N+2 states as above, then R[1].v, L[1].v, C[1].i, ...,
//               R[N].v, L[N].v, C[N].i, load.i]     (differential, then algebraic)
//          rows: res.filter_y, res.filter_yd, then per segment
//               res.R[k]   = R[k].v − R*L[k].i
//               res.L[k]   = L*der(L[k].i) − L[k].v
//               res.KVL[k] = v_{k−1} − R[k].v − L[k].v − C[k].v
//               res.C[k]   = C*der(C[k].v) − C[k].i
//               res.KCL[k] = L[k].i − C[k].i − i_{k+1}
//          and res.load = RL*load.i − C[N].v.
//        Row order: `matched` (lsdae's default, structure::order_rows_by_matching)
//        puts each residual at the position of the unknown it is matched to —
//        the matching over the leading columns is unique here: res.filter_y
//        and res.filter_yd at the filter's states, res.L[k] at L[k].i, res.C[k]
//        at C[k].v, res.R[k] at R[k].v, res.KVL[k] at L[k].v, res.KCL[k] at
//        C[k].i, res.load at load.i; `declared` keeps the list above (lsdae
//        --row-order declared).
// This is lsdae's order of IDA unknowns (states, then algebraic variables in
// manifest order; structure/index1_system.h) and of rows, and every formula
// repeats the FMU's operations in the FMU's order
// (models/transmission_line/model.cpp), so residuals agree bitwise.
//
// Jacobian. The model is linear with constant coefficients, so the iteration
// matrix is J = A + cj*B with A = ∂G/∂y and B = ∂G/∂y' fixed: the pattern
// (CSC, rows ascending in each column -- lsdae's iteration pattern) and the
// values of A and B are computed once; a Jacobian evaluation is one pass
// a[p] + cj*b[p] over the nonzeros. Each entry is then bitwise what lsdae gets
// from the FMU's directional derivatives.
//
// Cost: residual O(N), Jacobian O(nnz) = O(N); no allocation after construction.
#ifndef LSDAE_BENCH_NATIVE_TRANSMISSION_LINE_H
#define LSDAE_BENCH_NATIVE_TRANSMISSION_LINE_H

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace lsdae::bench {

enum class TlForm { ode, dae };
const char* to_string(TlForm form) noexcept;  // "ode", "dae"
// Order of the DAE form's rows (the ODE form's rows are its states' either way).
enum class TlRowOrder { matched, declared };

struct TlParameters {
  double r = 48e-6, l = 253e-9, c = 101e-12, length = 100.0, w = 1.0 / 2e-7;
};

class TransmissionLine {
 public:
  // Throws std::invalid_argument for n < 1.
  TransmissionLine(TlForm form, long n, const TlParameters& parameters = {},
                   TlRowOrder row_order = TlRowOrder::matched);

  TlForm form() const { return form_; }
  long segments() const { return n_; }
  std::size_t size() const { return size_; }            // unknowns = rows
  std::size_t differential() const { return 2 * static_cast<std::size_t>(n_) + 2; }

  // IDA's id vector: 1 for the states, 0 for the algebraic variables.
  std::vector<double> id() const;
  // Start values (all 0) and, for the ODE form, y' = f(y0); for the DAE form
  // y' = 0 as the FMU's derivative variables start (IDACalcIC fixes both).
  void initial_values(std::span<double> y, std::span<double> yp) const;

  // The index of a variable in y by its FMU name ("filter.y", "L[3].i",
  // "C[N].v" with N written out, "R[2].v", "load.i", ...); throws
  // std::invalid_argument for a name this form does not have.
  std::size_t index_of(const std::string& name) const;

  // r = G(t, y, y') (all spans size()). Never fails, never allocates.
  void residual(double t, std::span<const double> y, std::span<const double> yp, std::span<double> r) const;

  // Iteration-matrix pattern: CSC, 0-based, rows ascending per column.
  const std::vector<std::size_t>& col_ptr() const { return col_ptr_; }
  const std::vector<std::size_t>& row_idx() const { return row_idx_; }
  std::size_t nnz() const { return row_idx_.size(); }
  // values[p] = ∂G/∂y + cj·∂G/∂y' at nonzero p (size nnz()).
  void jacobian(double cj, std::span<double> values) const;

 private:
  // Offsets in y of segment k (0-based) and the filter.
  std::size_t i_of(long k) const { return 2 + 2 * static_cast<std::size_t>(k); }
  std::size_t v_of(long k) const { return 3 + 2 * static_cast<std::size_t>(k); }
  std::size_t z_of(long k) const { return differential() + 3 * static_cast<std::size_t>(k); }  // R[k].v; +1 L, +2 C
  std::size_t load_of() const { return differential() + 3 * static_cast<std::size_t>(n_); }
  // Rows of segment k (DAE form): res.R, res.L, res.KVL, res.C, res.KCL.
  struct SegmentRows {
    std::size_t r, l, kvl, c, kcl;
  };
  SegmentRows rows_of(long k) const {
    if (row_order_ == TlRowOrder::matched) {
      const std::size_t z = z_of(k);
      return {z, i_of(k), z + 1, v_of(k), z + 2};
    }
    const std::size_t row = 2 + 5 * static_cast<std::size_t>(k);
    return {row, row + 1, row + 2, row + 3, row + 4};
  }

  TlForm form_;
  TlRowOrder row_order_;
  long n_;
  std::size_t size_;
  double w_, R_, L_, C_, RL_, inv_L_, inv_C_, inv_RL_;
  std::vector<std::size_t> col_ptr_, row_idx_;
  std::vector<double> a_, b_;  // ∂G/∂y and ∂G/∂y' per nonzero
};

}  // namespace lsdae::bench

#endif  // LSDAE_BENCH_NATIVE_TRANSMISSION_LINE_H
