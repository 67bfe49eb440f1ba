// tests/models/powergrid/grid_fmu_session.h -- one PowerGrid FMU instance in
// DAE mode (set through the switch when the FMU has one: shape B), driven
// through its fmi3 functions (no lsdae runtime), with the
// DAE written uniformly as
//     R(x', x, z) = 0,
// R = [x' − f(x, z); g(x, z)] for the semi-explicit form (f from the
// derivative variables, g the residuals) and R = the FMU's residuals for the
// fully implicit form. Rows: the n_x state rows, then the residual groups;
// columns of the Jacobians: states, algebraic variables, derivatives.
#ifndef LSDAE_TESTS_MODELS_POWERGRID_GRID_FMU_SESSION_H
#define LSDAE_TESTS_MODELS_POWERGRID_GRID_FMU_SESSION_H

#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

#include "fmu_fixture.h"

namespace lsdae::test {

class GridFmuSession {
 public:
  // Instantiates and initializes (parameters may be changed by `before_init`
  // name/value pairs); throws std::runtime_error with the FMU's log.
  GridFmuSession(const std::string& name, const std::string& stage_dir, const ParsedFmu& fmu,
                 const std::vector<std::pair<std::string, double>>& parameters = {});
  ~GridFmuSession();
  GridFmuSession(const GridFmuSession&) = delete;
  GridFmuSession& operator=(const GridFmuSession&) = delete;

  std::size_t n_states() const { return states_.size(); }
  std::size_t n_algebraic() const { return fmu_.algebraic.size(); }
  const std::vector<fmi3ValueReference>& states() const { return states_; }
  const std::vector<fmi3ValueReference>& derivatives() const { return derivatives_; }
  const std::vector<fmi3ValueReference>& residuals() const { return residuals_; }  // the g rows (all groups)
  const ParsedFmu& fmu() const { return fmu_; }

  void set_time(double t);
  // One event iteration at the current time; returns the next time event.
  std::optional<double> handle_event();
  std::optional<double> next_time_event() const { return next_event_; }

  // x, z, x' as vectors in the orders above.
  Eigen::VectorXd get(const std::vector<fmi3ValueReference>& vrs);
  double get(const std::string& name);
  void set(const std::vector<fmi3ValueReference>& vrs, const Eigen::VectorXd& values);
  void set_states(const Eigen::VectorXd& x);
  void set_algebraic(const Eigen::VectorXd& z) { set(fmu_.algebraic, z); }

  // R(x', x, z) at the values last set (x' is written only in the fully implicit form).
  Eigen::VectorXd residual(const Eigen::VectorXd& xdot);
  // dR/dx, dR/dz, dR/dx' by directional derivatives, dense.
  void jacobians(Eigen::MatrixXd& r_x, Eigen::MatrixXd& r_z, Eigen::MatrixXd& r_xdot);
  // Column of directional derivatives of `unknowns` along `known`.
  Eigen::VectorXd directional(const std::vector<fmi3ValueReference>& unknowns, fmi3ValueReference known);

  std::string joined_log() const;
  // The binary's functions and the instance, for calls the session does not wrap.
  const Fmi3Functions& functions() const { return fns_; }
  fmi3Instance instance() const { return inst_; }

 private:
  void ok(fmi3Status status, const char* what);

  const ParsedFmu& fmu_;
  Fmi3Functions fns_;
  fmi3Instance inst_ = nullptr;
  LogSink log_;
  std::vector<fmi3ValueReference> states_, derivatives_, residuals_;
  std::optional<double> next_event_;
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_MODELS_POWERGRID_GRID_FMU_SESSION_H
