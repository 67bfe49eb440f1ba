// models/psse/core/saturation.h -- PSS/E's quadratic saturation function,
// shared by the synchronous machines (air-gap flux, through S(1.0) and
// S(1.2)) and the rotating exciters (exciter voltage, through (E1, SE(E1))
// and (E2, SE(E2))).
//
// Definition (PSS/E; PowerSimulationsDynamics.jl and ANDES write the same
// function, and PSS/E's own GENROU trajectories confirm it, machine_frame.h):
//     Se(x) = B (x − A)² / x   for x > A,   else 0,
// the saturation FACTOR: the machine's extra field current is x·Se(x), a
// rotating exciter's saturation voltage is VX = VE·Se(VE) = B (VE − A)²
// (times()). Through Se(x1) = s1 and Se(x2) = s2 with x2 > x1:
//     r = √((s1 x1) / (s2 x2)),   A = (x1 − r x2) / (1 − r),   B = s1 x1 / (x1 − A)².
// s1 = 0 means NO saturation, whatever s2 is (PSS/E's GENROU_NO_SAT case has
// S(1.2) = 1 and its initial rotor angle is the unsaturated one to 1e-6°; the
// exciters follow the same rule, and a nonzero s2 is then named in a note).
// Below A the function is zero and its first derivative is continuous at A,
// so no event is needed there.
//
// Cost: one comparison, two multiplications, one division (times(): none).
#ifndef LSDAE_MODELS_PSSE_CORE_SATURATION_H
#define LSDAE_MODELS_PSSE_CORE_SATURATION_H

#include <cstddef>
#include <string>

#include "psse/core/dual.h"
#include "psse/core/parameters.h"

namespace lsdae::psse {

class QuadraticSaturation {
 public:
  QuadraticSaturation() = default;  // no saturation
  // A machine's: through (1.0, p[i10]) and (1.2, p[i12]). Throws ModelError
  // when S(1.0) > 0 and 1.2 S(1.2) <= S(1.0) (no quadratic through both).
  QuadraticSaturation(const Parameters& p, std::size_t i10, std::size_t i12);
  // An exciter's: through (p[ie1], p[ise1]) and (p[ie2], p[ise2]). Throws
  // ModelError naming the field when SE(E1) > 0 and the points admit no
  // increasing quadratic (E2 <= E1, E1 <= 0, or SE(E2) E2 <= SE(E1) E1).
  static QuadraticSaturation through(const Parameters& p, std::size_t ie1, std::size_t ise1, std::size_t ie2,
                                     std::size_t ise2);

  // The factor Se(x).
  template <class T>
  T operator()(const T& x) const {
    if (!active_ || !(value(x) > a_)) return T(0.0);
    const T e = x - a_;
    return b_ * e * e / x;
  }
  // x·Se(x) = B (x − A)², without the division (an exciter's VX).
  template <class T>
  T times(const T& x) const {
    if (!active_ || !(value(x) > a_)) return T(0.0);
    const T e = x - a_;
    return b_ * e * e;
  }
  bool active() const { return active_; }
  double a() const { return a_; }
  double b() const { return b_; }
  // Set by through() when SE(E1) = 0 but SE(E2) is not: a line for the
  // initialization report (empty otherwise).
  const std::string& note() const { return note_; }

 private:
  QuadraticSaturation(double x1, double s1, double x2, double s2);
  bool active_ = false;
  double a_ = 0.0, b_ = 0.0;
  std::string note_;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_SATURATION_H
