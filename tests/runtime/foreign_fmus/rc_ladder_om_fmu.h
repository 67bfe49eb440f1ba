// tests/runtime/foreign_fmus/rc_ladder_om_fmu.h -- writes RcLadderOM, a
// hand-written FMU in OpenModelica's fully implicit DAE form
// (rc_ladder_om_layout.h), as an unpacked FMU folder that lsdae opens in place:
// modelDescription.xml and the shape-B manifest written here, independently of
// the kit, and the binary built from rc_ladder_om.c.
//
// The manifest lists no <ContinuousStateDerivative>; each of the 3N + 1
// residuals names in `dependencies` the value references of the states it
// involves (standing for v_k and der(v_k) both), the algebraic variables, and
// for the first segment the parameter V0; no dependenciesKind.
#ifndef LSDAE_TESTS_RUNTIME_FOREIGN_FMUS_RC_LADDER_OM_FMU_H
#define LSDAE_TESTS_RUNTIME_FOREIGN_FMUS_RC_LADDER_OM_FMU_H

#include <filesystem>
#include <vector>

namespace lsdae::test {

struct RcLadderOmOptions {
  // A broken file: the manifest leaves out the load residual (3N residuals for
  // N states and 2N + 1 algebraic variables).
  bool drop_last_residual = false;
};

// A fresh folder under the system's temporary directory, removed by the destructor.
class RcLadderOmFmu {
 public:
  explicit RcLadderOmFmu(const std::string& tag, const RcLadderOmOptions& options = {});
  ~RcLadderOmFmu();
  RcLadderOmFmu(const RcLadderOmFmu&) = delete;
  RcLadderOmFmu& operator=(const RcLadderOmFmu&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// The exact solution v_1..v_N at time t for the FMU's default parameters (R =
// 0.1, C = 1e-3, RL = 10, V0 = 1, all v_k(0) = 0): the ladder is the linear ODE
// C v' = A v + b, solved by the eigen-decomposition of the symmetric A.
std::vector<double> rc_ladder_exact(double t);

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_FOREIGN_FMUS_RC_LADDER_OM_FMU_H
