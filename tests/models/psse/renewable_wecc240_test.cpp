// tests/models/psse/renewable_wecc240_test.cpp -- the WECC renewable models
// on WECC240 (../shared/data/grids/psse/no_reference/WECC240): every one of
// its 37 REGCA1 + REECB1 + REPCA1 units read by the .dyr reader, made through
// the registry, chained through their unit's signals and initialized at the
// operating point the solved .raw stores, at rest with no limit engaged; and
// the whole case (its other controllers skipped) initialized flat by the
// assembled system.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <string>

#include "component_harness.h"
#include "psse/case/case_builder.h"
#include "psse/core/limiter.h"
#include "psse/core/registry.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/raw_reader.h"

namespace lsdae::psse::test {
namespace {

const std::string kWecc = std::string(LSDAE_PSSE_DATA_DIR) + "/no_reference/WECC240/";

TEST(RenewablesWecc240, EveryUnitRestsAtItsOperatingPoint) {
  const RawCase rc = read_raw(kWecc + "240busWECC_2018_PSS33.raw");
  const std::vector<DyrRecord> dyr = read_dyr(kWecc + "240busWECC_2018_PSS.dyr");
  std::map<int, Complex> voltage;
  for (const RawBus& b : rc.buses) voltage[b.number] = std::polar(b.vm, b.va * std::numbers::pi / 180.0);
  std::map<std::pair<int, std::string>, std::map<std::string, const DyrRecord*>> units;
  for (const DyrRecord& r : dyr)
    if (r.model == "REGCA1" || r.model == "REECB1" || r.model == "REPCA1") units[{r.bus, r.id}][r.model] = &r;
  ASSERT_EQ(units.size(), 37u);
  for (const auto& [key, records] : units) {
    SCOPED_TRACE(std::to_string(key.first) + " '" + key.second + "'");
    ASSERT_EQ(records.size(), 3u);
    const RawGenerator* gen = nullptr;
    for (const RawGenerator& g : rc.generators)
      if (g.bus == key.first && g.id == key.second) gen = &g;
    ASSERT_NE(gen, nullptr);
    UnitData unit;
    unit.system_base = rc.sbase;
    unit.mbase = gen->mbase;
    unit.zsource = {gen->zr, gen->zx};
    const Complex v = voltage.at(key.first), s = Complex(gen->pg, gen->qg) / rc.sbase;
    // Stage order, each handing its signals to the next (as the system does).
    std::map<std::string, double> signals;
    std::vector<std::string> consumed = {"pe", "qe"};
    for (const char* model : {"REGCA1", "REECB1", "REPCA1"}) {
      const ModelEntry* entry = find_model(model);
      ASSERT_NE(entry, nullptr);
      ComponentHarness h(entry->make(*records.at(model), unit), consumed);
      h.initialize(v, s, signals);
      EXPECT_LT(h.largest_derivative(), 1e-12) << model;
      EXPECT_LT(h.jacobian_mismatch(), 1e-6) << model;
      const std::vector<LimiterRecord> limits = h.limiter_records();
      for (std::size_t k = 0; k < limits.size(); ++k) {
        bool outside = false;
        limiter_initial_mode(h.slot().limiters()[k].kind, limits[k], 1e-9, outside);
        EXPECT_FALSE(outside) << model << " " << h.slot().limiters()[k].name;
        EXPECT_EQ(h.modes()[k], kModeFree) << model << " " << h.slot().limiters()[k].name;
      }
      for (const DeclaredOutput& o : h.slot().outputs()) {  // delivers what the previous stage set
        if (signals.count(o.signal) != 0) {
          EXPECT_NEAR(h.signal(o.signal), signals.at(o.signal), 1e-13) << o.signal;
        }
      }
      signals = h.signals();
    }
  }
}

TEST(RenewablesWecc240, CaseInitializesFlat) {
  CaseOptions options;
  options.skip_unsupported = true;  // the machines' exciters, governors and stabilizers are other models
  BuiltCase c = build_case(kWecc + "240busWECC_2018_PSS33.raw", kWecc + "240busWECC_2018_PSS.dyr", options);
  const System system(std::move(c.input), kit::Form::semi_explicit);
  const InitReport& r = system.report();
  EXPECT_LT(r.largest_derivative, 1e-8) << r.largest_derivative_name;
  EXPECT_LT(r.largest_residual, 1e-8) << r.largest_residual_name;
  for (const std::string& limit : r.limits)
    EXPECT_EQ(limit.find("RE"), std::string::npos) << limit;  // no renewable limit engaged at rest
  std::size_t renewables = 0;
  for (const auto& [name, value] : system.initial_point())
    if (name.rfind("reec[", 0) == 0 && name.find(".Pord") != std::string::npos) ++renewables;
  EXPECT_EQ(renewables, 37u);
}

}  // namespace
}  // namespace lsdae::psse::test
