// tests/models/psse/renewable_data.h -- foreign data for the renewable model
// tests: the records of the wind plant at bus 1034 ('W') of WECC240
// (../shared/data/grids/psse/no_reference/WECC240/240busWECC_2018_PSS.dyr,
// lines 808-825) and its operating point from the solved case
// (240busWECC_2018_PSS33.raw: bus 1034 at 1.03340 p.u., 20.6726°; generator
// 1034 'W' 1598 MW, 208.850 Mvar, MBASE 1682 MVA; SBASE 100 MVA).
#ifndef LSDAE_TESTS_MODELS_PSSE_RENEWABLE_DATA_H
#define LSDAE_TESTS_MODELS_PSSE_RENEWABLE_DATA_H

#include <numbers>
#include <string>
#include <vector>

#include "component_harness.h"
#include "psse/core/signals.h"
#include "psse/renewables/reecb1.h"
#include "psse/renewables/regca1.h"

namespace lsdae::psse::test {

inline const Complex kV1034 = std::polar(1.03340, 20.6726 * std::numbers::pi / 180.0);
inline const Complex kS1034(15.98, 2.0885);  // p.u. on SBASE
inline constexpr double kRatio1034 = 16.82;  // MBASE / SBASE

inline UnitData unit_1034() {
  UnitData u;
  u.mbase = 1682.0;
  u.zsource = {0.0, 0.2};
  return u;
}

// REGCA1: LVPLSW Tg Rrpwr Brkpt Zerox Lvpl1 Volim Lvpnt1 Lvpnt0 Iolim Tfltr Khv Iqrmax Iqrmin Accel.
inline const std::vector<double> kRegca1Wecc240 = {1, 0.02, 10.0, 0.9, 0.4, 1.22, 1.2, 0.9, 0.5, -1.3,
                                                   0.02, 0.0, 100.0, -100.0, 0.7};

// REECB1: 5 ICONs (remote bus, PFFLAG, VFLAG, QFLAG, PQFLAG), then Vdip Vup Trv
// dbd1 dbd2 Kqv Iqh1 Iql1 Vref0 Tp Qmax Qmin Vmax Vmin Kqp Kqi Kvp Kvi Tiq dPmax
// dPmin Pmax Pmin Imax Tpord.
inline const std::vector<double> kReecb1Wecc240 = {0,    0,    1,    0,    0,     -99.0, 99.0, 0.02, 0.0, 0.0,
                                                   0.0,  1.1,  -1.1, 0.0,  0.05,  0.44,  -0.44, 1.05, 0.9, 0.0,
                                                   0.01, 10.0, 60.0, 0.02, 99.0, -99.0, 1.0,   0.0,  1.11, 0.02};

// REPCA1, as the .dyr writes it (the circuit id quoted): 7 ICONs (bus, from,
// to, ckt, VCFlag, RefFlag, Fflag), then Tfltr Kp Ki Tft Tfv Vfrz Rc Xc Kc
// emax emin dbd1 dbd2 Qmax Qmin Kpg Kig Tp fdbd1 fdbd2 femax femin Pmax Pmin
// Tlag Ddn Dup.
inline const std::vector<std::string> kRepca1Wecc240 = {
    "0",    "0",     "0",     "0 ",   "0",    "0",    "1",    "0.02", "18.0", "5.0",   "0.0",  "0.05",
    "0.0",  "0.0",   "0.0",   "0.02", "0.1",  "-0.1", "-1.0", "1.0",  "0.43", "-0.43", "1.0",  "0.05",
    "0.25", "-1.0",  "1.0",   "99.0", "-99.0", "1.0", "0.0",  "0.1",  "0.0",  "0.0"};

// A record with tokens as the .dyr reader keeps them (a quoted field is a
// token but not a value).
inline DyrRecord token_record(int bus, const std::string& model, const std::string& id,
                              const std::vector<std::string>& tokens, std::size_t quoted_field) {
  DyrRecord r = record(bus, model, id, {});
  r.tokens = tokens;
  r.numeric = false;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (i != quoted_field) r.values.push_back(std::stod(tokens[i]));
  return r;
}

// The signals of unit 1034 'W' once its converter and electrical control have
// initialized (ipcmd, iqcmd, pe, qe, pref, qext), as the framework hands them
// to the plant controller.
inline std::map<std::string, double> unit_1034_signals(const std::vector<double>& reecb1 = kReecb1Wecc240) {
  ComponentHarness g(make_regca1(record(1034, "REGCA1", "W", kRegca1Wecc240), unit_1034()), {signal::pe, signal::qe});
  g.initialize(kV1034, kS1034);
  ComponentHarness e(make_reecb1(record(1034, "REECB1", "W", reecb1), unit_1034()));
  e.initialize(kV1034, kS1034, g.signals());
  return e.signals();
}

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_RENEWABLE_DATA_H
