// tests/models/powergrid/grid_fmu_session.cpp -- see grid_fmu_session.h.
#include "grid_fmu_session.h"

#include <stdexcept>

namespace lsdae::test {

GridFmuSession::GridFmuSession(const std::string& name, const std::string& stage_dir, const ParsedFmu& fmu,
                               const std::vector<std::pair<std::string, double>>& parameters)
    : fmu_(fmu), states_(fmu.states()), derivatives_(fmu.derivatives()) {
  for (const auto& group : fmu.residual_groups) residuals_.push_back(group.back().vr);
  fns_ = load_binary(stage_dir, fmu.model_identifier);
  const std::string resources = stage_dir + "/resources/";
  inst_ = fns_.instantiate(name.c_str(), fmu.token.c_str(), resources.c_str(), false, false, &log_,
                           &LogSink::callback);
  if (inst_ == nullptr) {
    unload_binary(fns_);
    throw std::runtime_error("instantiate failed: " + joined_log());
  }
  try {
    if (fmu.dae_switch) {  // shape B (the OpenModelica form): DAE mode through the switch
      ok(fns_.enter_configuration(inst_), "EnterConfigurationMode");
      const fmi3ValueReference vr = *fmu.dae_switch;
      const bool on = true;
      ok(fns_.set_boolean(inst_, &vr, 1, &on, 1), "SetBoolean (enable DAE mode)");
      ok(fns_.exit_configuration(inst_), "ExitConfigurationMode");
    }
    for (const auto& [parameter, value] : parameters) {
      const fmi3ValueReference vr = fmu.by_name.at(parameter);
      ok(fns_.set_float64(inst_, &vr, 1, &value, 1), "SetFloat64 (parameter)");
    }
    ok(fns_.enter_initialization(inst_, false, 0.0, 0.0, false, 0.0), "EnterInitializationMode");
    ok(fns_.exit_initialization(inst_), "ExitInitializationMode");
    bool need = false, term = false, nominals = false, values = false, next = false;
    double next_time = 0;
    ok(fns_.update_discrete_states(inst_, &need, &term, &nominals, &values, &next, &next_time),
       "UpdateDiscreteStates");
    if (next) next_event_ = next_time;
    ok(fns_.enter_continuous_time(inst_), "EnterContinuousTimeMode");
  } catch (...) {
    fns_.free_instance(inst_);  // the destructor does not run for a constructor that throws
    unload_binary(fns_);
    throw;
  }
}

GridFmuSession::~GridFmuSession() {
  if (inst_ != nullptr) fns_.free_instance(inst_);
  unload_binary(fns_);
}

std::string GridFmuSession::joined_log() const {
  std::string all;
  for (const auto& m : log_.messages) all += m + "\n";
  return all;
}

void GridFmuSession::ok(fmi3Status status, const char* what) {
  if (status != fmi3OK) throw std::runtime_error(std::string(what) + " returned " + std::to_string(status) + ": " +
                                                 joined_log());
}

void GridFmuSession::set_time(double t) { ok(fns_.set_time(inst_, t), "SetTime"); }

std::optional<double> GridFmuSession::handle_event() {
  ok(fns_.enter_event(inst_), "EnterEventMode");
  bool need = false, term = false, nominals = false, values = false, next = false;
  double next_time = 0;
  ok(fns_.update_discrete_states(inst_, &need, &term, &nominals, &values, &next, &next_time), "UpdateDiscreteStates");
  next_event_ = next ? std::optional<double>(next_time) : std::nullopt;
  ok(fns_.enter_continuous_time(inst_), "EnterContinuousTimeMode");
  return next_event_;
}

Eigen::VectorXd GridFmuSession::get(const std::vector<fmi3ValueReference>& vrs) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(vrs.size()));
  if (!vrs.empty()) ok(fns_.get_float64(inst_, vrs.data(), vrs.size(), out.data(), vrs.size()), "GetFloat64");
  return out;
}

double GridFmuSession::get(const std::string& name) {
  const fmi3ValueReference vr = fmu_.by_name.at(name);
  double v = 0;
  ok(fns_.get_float64(inst_, &vr, 1, &v, 1), "GetFloat64");
  return v;
}

void GridFmuSession::set(const std::vector<fmi3ValueReference>& vrs, const Eigen::VectorXd& values) {
  if (!vrs.empty()) ok(fns_.set_float64(inst_, vrs.data(), vrs.size(), values.data(), vrs.size()), "SetFloat64");
}

void GridFmuSession::set_states(const Eigen::VectorXd& x) {
  ok(fns_.set_states(inst_, x.data(), static_cast<std::size_t>(x.size())), "SetContinuousStates");
}

Eigen::VectorXd GridFmuSession::residual(const Eigen::VectorXd& xdot) {
  const auto nx = static_cast<Eigen::Index>(states_.size());
  if (fmu_.fully_implicit) {
    set(derivatives_, xdot);
    Eigen::VectorXd r = get(residuals_);
    return r;
  }
  const Eigen::VectorXd f = get(derivatives_);
  const Eigen::VectorXd g = get(residuals_);
  Eigen::VectorXd r(nx + g.size());
  r << xdot - f, g;
  return r;
}

Eigen::VectorXd GridFmuSession::directional(const std::vector<fmi3ValueReference>& unknowns, fmi3ValueReference known) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(unknowns.size()));
  const double seed = 1.0;
  ok(fns_.get_directional_derivative(inst_, unknowns.data(), unknowns.size(), &known, 1, &seed, 1, out.data(),
                                     unknowns.size()),
     "GetDirectionalDerivative");
  return out;
}

void GridFmuSession::jacobians(Eigen::MatrixXd& r_x, Eigen::MatrixXd& r_z, Eigen::MatrixXd& r_xdot) {
  const auto nx = static_cast<Eigen::Index>(states_.size());
  const auto nz = static_cast<Eigen::Index>(fmu_.algebraic.size());
  const Eigen::Index rows = fmu_.fully_implicit ? static_cast<Eigen::Index>(residuals_.size()) : nx + static_cast<Eigen::Index>(residuals_.size());
  std::vector<fmi3ValueReference> unknowns = residuals_;
  if (!fmu_.fully_implicit) unknowns.insert(unknowns.begin(), derivatives_.begin(), derivatives_.end());
  auto column = [&](fmi3ValueReference known) {
    Eigen::VectorXd c = directional(unknowns, known);
    if (!fmu_.fully_implicit) c.head(nx) *= -1.0;  // rows x' − f
    return c;
  };
  r_x.resize(rows, nx);
  r_z.resize(rows, nz);
  r_xdot.setZero(rows, nx);
  for (Eigen::Index j = 0; j < nx; ++j) r_x.col(j) = column(states_[static_cast<std::size_t>(j)]);
  for (Eigen::Index j = 0; j < nz; ++j) r_z.col(j) = column(fmu_.algebraic[static_cast<std::size_t>(j)]);
  if (fmu_.fully_implicit)
    for (Eigen::Index j = 0; j < nx; ++j) r_xdot.col(j) = directional(residuals_, derivatives_[static_cast<std::size_t>(j)]);
  else
    r_xdot.topRows(nx).setIdentity();
}

}  // namespace lsdae::test
