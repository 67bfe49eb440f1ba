// models/psse/exciters/dc_exciter.cpp -- see dc_exciter.h.
#include "psse/exciters/dc_exciter.h"

#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

class DcExciter final : public Equations<DcExciter> {
 public:
  DcExciter(const DyrRecord& record, const DcExciterData& d)
      : Equations(exciter_info(record)), d_(d), input_(d.tr), lead_lag_(d.tc, d.tb), regulator_(d.ka, d.ta),
        feedback_(d.kf, d.tf), vrmax_(d.vrmax), vrmin_(d.vrmin), ke_(d.ke) {}

  void declare(Layout& l) override {
    input_.declare(l);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    regulator_.declare(l, "VR", "regulator output");
    if (d_.efd_nonnegative) {
      exciter_ = PiNonWindup(0.0, 1.0 / d_.te);
      exciter_.declare(l, "EFD", "field voltage (exciter output)");
      efd_ = exciter_.state();
    } else {
      efd_ = l.state("EFD", "field voltage (exciter output)");
    }
    feedback_.declare(l, "VF", "rate feedback state");
    l.output(signal::efd, Var::x(efd_));
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    std::string note;
    const DcExciterConstants c =
        dc_exciter_constants(d_.vrmax, d_.vrmin, d_.ke, d_.e2, d_.se2, efd, d_.saturation, note);
    if (!note.empty()) in.note(note);
    if (!d_.saturation.note().empty()) in.note(d_.saturation.note());
    vrmax_ = c.vrmax, vrmin_ = c.vrmin, ke_ = c.ke;
    if (d_.efd_nonnegative)
      exciter_.initialize(in, efd);
    else
      in.state(efd_, efd);
    feedback_.initialize(in, efd);
    const double vr = ke_ * efd + d_.saturation.times(efd);
    const double e = input_.initialize(in, lead_lag_.initialize(in, regulator_.initialize(in, vr)));
    regulator_.settle(in, lead_lag_.settle(in, e));  // forward (blocks.h): the exciter absorbs the rounding
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& efd = f.x(efd_);
    const T vf = feedback_(f, efd);
    const T e = input_.reference(f) + input_.vs(f) - input_.sensed(f) - vf;
    const T vt = d_.limits_times_vt ? voltage_magnitude(f) : T(1.0);
    const T vr = regulator_(f, lead_lag_(f, e), T(vt * vrmin_), T(vt * vrmax_));
    const T net = vr - ke_ * efd - d_.saturation.times(efd);  // VR − VFE
    if (d_.efd_nonnegative)
      exciter_(f, net, T(0.0), T(kUnbounded));  // KI = 1/TE
    else
      f.der(efd_, net / d_.te);
  }

 private:
  DcExciterData d_;
  VoltageInput input_;
  LeadLag lead_lag_;
  NonWindupLag regulator_;
  PiNonWindup exciter_;
  Washout feedback_;
  double vrmax_, vrmin_, ke_;  // effective (PSS/E's rule at initialization)
  int efd_ = -1;
};

}  // namespace

std::unique_ptr<Component> make_dc_exciter(const DyrRecord& record, const DcExciterData& data) {
  return std::make_unique<DcExciter>(record, data);
}

}  // namespace lsdae::psse
