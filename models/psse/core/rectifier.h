// models/psse/core/rectifier.h -- the rectifier regulation of AC and static
// exciters: the output voltage VE·FEX(IN) of a rectifier bridge fed by the
// voltage VE and loaded by the field current, IN = KC·IFD / VE.
//
// Reference: IEEE Std 421.5-2016, Annex D (rectifier regulation), Figure
// D.3; the PSS/E Model Library draws the same FEX(IN) in ESAC1A, ESAC6A,
// EXAC1, EXAC2, ESST4B and EXPIC1:
//     FEX = 1                   IN <= 0       (PowerSimulationsDynamics.jl and
//                                              ANDES: no regulation for a
//                                              negative field current)
//     FEX = 1 − 0.577 IN        0 < IN <= 0.433
//     FEX = √(0.75 − IN²)       0.433 < IN <= 0.75
//     FEX = 1.732 (1 − IN)      0.75 < IN <= 1
//     FEX = 0                   IN > 1
//
// It is evaluated as the product VE·FEX(KC·IFD / VE), which is homogeneous:
// with c = KC·IFD it is VE, VE − 0.577 c, √(0.75 VE² − c²), 1.732 (VE − c),
// 0 -- no division, so VE -> 0 (a dead exciter, a bolted fault at an ESST4B's
// terminal) is harmless. The curve is continuous with a kink at each
// breakpoint; each breakpoint t is a switch on c − t·VE (LimiterKind::below,
// "IN below t"), so a change of mode is a state event, like a limit.
//
// Cost: four switches (none when KC = 0, where the output is VE).
#ifndef LSDAE_MODELS_PSSE_CORE_RECTIFIER_H
#define LSDAE_MODELS_PSSE_CORE_RECTIFIER_H

#include <string>

#include "psse/core/component.h"

namespace lsdae::psse {

class RectifierRegulation {
 public:
  RectifierRegulation() = default;
  explicit RectifierRegulation(double kc) : kc_(kc) {}

  // Declares the four switches "<name>.IN_below_0", "<name>.IN_below_0433",
  // "<name>.IN_below_075", "<name>.IN_below_1" (none
  // when KC = 0).
  void declare(Layout& l, const std::string& name);

  // VE·FEX(KC·IFD / VE), for VE >= 0.
  template <class T>
  T operator()(Frame<T>& f, const T& ve, const T& ifd) const {
    if (switch_[0] < 0) return ve;
    const T c = kc_ * ifd;
    const bool b0 = f.below(switch_[0], c, T(0.0));
    const bool b1 = f.below(switch_[1], c - 0.433 * ve, T(0.0));
    const bool b2 = f.below(switch_[2], c - 0.75 * ve, T(0.0));
    const bool b3 = f.below(switch_[3], c - ve, T(0.0));
    if (b0) return ve;
    if (b1) return ve - 0.577 * c;
    if (b2) {
      const T r = 0.75 * ve * ve - c * c;  // >= 0 within the mode; kept so while an event is located
      return value(r) > 0.0 ? sqrt(r) : T(0.0);
    }
    if (b3) return 1.732 * (ve - c);
    return T(0.0);
  }

  // FEX(IN) alone, for initialization and reports.
  static double fex(double in);
  // The VE that gives the output `efd` at field current `ifd` (the inverse
  // of operator(), monotone in VE); throws ModelError with `where` when
  // efd <= 0 cannot be produced with IN <= 1 (efd <= 0 with KC·IFD > 0).
  double source_for(double efd, double ifd, const std::string& where) const;

 private:
  double kc_ = 0.0;
  int switch_[4] = {-1, -1, -1, -1};
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_RECTIFIER_H
