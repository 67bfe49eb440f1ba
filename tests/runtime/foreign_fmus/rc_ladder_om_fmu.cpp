// tests/runtime/foreign_fmus/rc_ladder_om_fmu.cpp -- see rc_ladder_om_fmu.h.
#include "rc_ladder_om_fmu.h"

#include <unistd.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "rc_ladder_om_layout.h"

namespace lsdae::test {

namespace {

constexpr int N = RCL_N;
constexpr double kR = 0.1, kC = 1e-3, kRL = 10.0, kV0 = 1.0;

std::string vr(std::uint32_t value) { return std::to_string(value); }

std::string model_description() {
  std::ostringstream x;
  x << R"XML(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription
  fmiVersion="3.0"
  modelName="RcLadderOM"
  description="RC ladder of )XML" << N << R"XML( segments, exported the way OpenModelica's DAE mode writes it"
  instantiationToken="{5b1e0c1e-om-rc-ladder-200}"
  generationTool="hand-written test FMU (OpenModelica-style DAE export)"
  variableNamingConvention="structured">
  <ModelExchange modelIdentifier="RcLadderOM" providesDirectionalDerivatives="true"/>
  <DefaultExperiment startTime="0" stopTime="2" tolerance="1e-06" stepSize="0.01"/>
  <ModelVariables>
)XML";
  // Residuals first, in layout order; then derivatives, time, the algebraic
  // variables, the states from the last segment back, the output, parameters, switch.
  for (int j = 0; j < RCL_RESIDUALS; ++j)
    x << "    <Float64 name=\"$DAEres" << j << "\" valueReference=\"" << rcl_vr_res(j)
      << "\" causality=\"local\" variability=\"continuous\"/>\n";
  for (int k = 1; k <= N; ++k)
    x << "    <Float64 name=\"der(C[" << k << "].v)\" valueReference=\"" << rcl_vr_der(k)
      << "\" causality=\"local\" variability=\"continuous\" derivative=\"" << rcl_vr_v(k) << "\"/>\n";
  x << "    <Float64 name=\"time\" valueReference=\"" << RCL_VR_TIME
    << "\" causality=\"independent\" variability=\"continuous\"/>\n";
  x << "    <Float64 name=\"load.i\" valueReference=\"" << RCL_VR_IL
    << "\" causality=\"local\" variability=\"continuous\" initial=\"approx\" start=\"0\"/>\n";
  for (int k = 1; k <= N; ++k) {
    x << "    <Float64 name=\"R[" << k << "].i\" valueReference=\"" << rcl_vr_i(k)
      << "\" causality=\"local\" variability=\"continuous\" initial=\"approx\" start=\"0\"/>\n";
    x << "    <Float64 name=\"R[" << k << "].v\" valueReference=\"" << rcl_vr_vr(k)
      << "\" causality=\"local\" variability=\"continuous\" initial=\"approx\" start=\"0\"/>\n";
  }
  for (int k = N; k >= 1; --k)
    x << "    <Float64 name=\"C[" << k << "].v\" valueReference=\"" << rcl_vr_v(k)
      << "\" causality=\"local\" variability=\"continuous\" initial=\"exact\" start=\"0\"/>\n";
  x << "    <Float64 name=\"vLoad\" valueReference=\"" << RCL_VR_VLOAD
    << "\" causality=\"output\" variability=\"continuous\"/>\n";
  x << "    <Float64 name=\"R\" valueReference=\"" << RCL_VR_R
    << "\" causality=\"parameter\" variability=\"fixed\" start=\"0.1\"/>\n";
  x << "    <Float64 name=\"C\" valueReference=\"" << RCL_VR_C
    << "\" causality=\"parameter\" variability=\"fixed\" start=\"0.001\"/>\n";
  x << "    <Float64 name=\"RL\" valueReference=\"" << RCL_VR_RL
    << "\" causality=\"parameter\" variability=\"fixed\" start=\"10\"/>\n";
  x << "    <Float64 name=\"V0\" valueReference=\"" << RCL_VR_V0
    << "\" causality=\"parameter\" variability=\"fixed\" start=\"1\"/>\n";
  x << "    <Boolean name=\"_D_daeMode\" valueReference=\"" << RCL_VR_SWITCH
    << "\" causality=\"structuralParameter\" variability=\"fixed\" start=\"false\"/>\n";
  x << "  </ModelVariables>\n  <ModelStructure>\n";
  x << "    <Output valueReference=\"" << RCL_VR_VLOAD << "\" dependencies=\"" << rcl_vr_v(N) << "\"/>\n";
  for (int s = 0; s < N; ++s) {  // fmi3GetContinuousStates order: v_N .. v_1
    const int k = rcl_k_of_state(s);
    std::string deps = vr(rcl_vr_v(k));
    if (k > 1) deps = vr(rcl_vr_v(k - 1)) + " " + deps;
    if (k < N) deps += " " + vr(rcl_vr_v(k + 1));
    x << "    <ContinuousStateDerivative valueReference=\"" << rcl_vr_der(k) << "\" dependencies=\"" << deps
      << "\"/>\n";
  }
  x << "    <InitialUnknown valueReference=\"" << RCL_VR_VLOAD << "\"/>\n";
  for (int k = 1; k <= N; ++k) x << "    <InitialUnknown valueReference=\"" << rcl_vr_der(k) << "\"/>\n";
  x << "  </ModelStructure>\n</fmiModelDescription>\n";
  return x.str();
}

std::string manifest(const RcLadderOmOptions& options) {
  std::ostringstream x;
  x << R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiDAEManifest
  xmlns:fmi-ls="http://fmi-standard.org/fmi-ls-manifest"
  fmi-ls:fmi-ls-name="org.fmi-standard.fmi-ls-dae"
  fmi-ls:fmi-ls-version="1.0.0-alpha.1"
  fmi-ls:fmi-ls-description="Layered standard for DAE support in FMI">
  <EnableDAEParameter valueReference=")" << RCL_VR_SWITCH << R"("/>
  <AlgebraicVariables>
)";
  for (int k = 1; k <= N; ++k) x << "    <AlgebraicVariable valueReference=\"" << rcl_vr_vr(k) << "\"/>\n";
  x << "    <AlgebraicVariable valueReference=\"" << RCL_VR_IL << "\"/>\n";
  for (int k = N; k >= 1; --k) x << "    <AlgebraicVariable valueReference=\"" << rcl_vr_i(k) << "\"/>\n";
  x << "  </AlgebraicVariables>\n  <ModelStructure>\n";
  x << "    <Output valueReference=\"" << RCL_VR_VLOAD << "\" dependencies=\"" << rcl_vr_v(N) << "\"/>\n";
  // No <ContinuousStateDerivative>: the residuals cover the state rows, and a
  // state named in dependencies stands for its derivative as well.
  const int residuals = options.drop_last_residual ? RCL_RESIDUALS - 1 : RCL_RESIDUALS;
  for (int j = 0; j < residuals; ++j) {
    std::string deps;
    if (j == 3 * N) {
      deps = vr(RCL_VR_IL) + " " + vr(rcl_vr_v(N));
    } else {
      const int k = j / 3 + 1;
      switch (j % 3) {
        case 0:  // C der(v_k) - (i_k - i_{k+1})
          deps = vr(rcl_vr_v(k)) + " " + vr(rcl_vr_i(k)) + " " + vr(k < N ? rcl_vr_i(k + 1) : RCL_VR_IL);
          break;
        case 1:  // vR_k - (v_{k-1} - v_k)
          deps = vr(rcl_vr_vr(k)) + " " + vr(k > 1 ? rcl_vr_v(k - 1) : RCL_VR_V0) + " " + vr(rcl_vr_v(k));
          break;
        default:  // vR_k - R i_k
          deps = vr(rcl_vr_vr(k)) + " " + vr(rcl_vr_i(k));
      }
    }
    x << "    <Residual valueReference=\"" << rcl_vr_res(j) << "\" dependencies=\"" << deps << "\"/>\n";
  }
  x << "  </ModelStructure>\n</fmiDAEManifest>\n";
  return x.str();
}

void write(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

RcLadderOmFmu::RcLadderOmFmu(const std::string& tag, const RcLadderOmOptions& options) {
  dir_ = std::filesystem::temp_directory_path() / ("lsdae-rc-ladder-om-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir_);
  write(dir_ / "modelDescription.xml", model_description());
  write(dir_ / "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml", manifest(options));
  std::filesystem::create_directories(dir_ / "binaries/x86_64-linux");
  std::filesystem::copy_file(LSDAE_RC_LADDER_OM_BINARY, dir_ / "binaries/x86_64-linux/RcLadderOM.so");
}

RcLadderOmFmu::~RcLadderOmFmu() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::vector<double> rc_ladder_exact(double t) {
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(N, N);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(N);
  for (int k = 0; k < N; ++k) {
    a(k, k) = k + 1 < N ? -2.0 / kR : -1.0 / kR - 1.0 / kRL;
    if (k > 0) a(k, k - 1) = 1.0 / kR;
    if (k + 1 < N) a(k, k + 1) = 1.0 / kR;
  }
  b(0) = kV0 / kR;
  const Eigen::VectorXd steady = a.ldlt().solve(-b);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(a);
  const Eigen::VectorXd decay = (eig.eigenvalues() * (t / kC)).array().exp().matrix();
  const Eigen::VectorXd v =
      steady - eig.eigenvectors() * (decay.asDiagonal() * (eig.eigenvectors().transpose() * steady));
  return {v.data(), v.data() + v.size()};
}

}  // namespace lsdae::test
