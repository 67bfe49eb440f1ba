// tests/models/psse/indicators_fmu_test.cpp -- the kit's side of the
// indicator-only evaluation (kit/instance.h, "Evaluation is lazy"), on the
// PsseGrid FMU of GAST's case (GENROU, ESAC1A, GAST, GENCLS) through the
// fmi3 functions: two instances at the same points, one asking the event
// indicators before the derivatives and residuals, the other after. Every
// value bitwise equal both ways; the derivatives after an indicator-only
// request are the new point's (compute() still runs), not the last point's;
// the same after an event that switched limiter modes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fmu_fixture.h"

namespace lsdae::test {
namespace {

const CatalogEntry& indicator_fmu_entry(const std::string& name) {
  static const std::vector<CatalogEntry> catalog = read_catalog();
  for (const auto& e : catalog)
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in the catalog");
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class IndicatorsFmu : public ::testing::Test {
 protected:
  void SetUp() override {
    entry_ = indicator_fmu_entry("PsseGrid_GAST_fault_semi_explicit");
    fmu_ = parse_fmu(entry_.stage_dir);
    fns_ = load_binary(entry_.stage_dir, fmu_.model_identifier);
    for (const auto& group : fmu_.residual_groups)
      for (const XmlUnknown& r : group) residuals_.push_back(r.vr);
    states_ = fmu_.states();
    indicator_count_ = fmu_.core_event_indicators.size();  // <EventIndicator> of modelDescription.xml
    ASSERT_GT(indicator_count_, 0u);
    ASSERT_FALSE(residuals_.empty());
  }
  void TearDown() override {
    for (auto* i : instances_) fns_.free_instance(i);
    unload_binary(fns_);
  }
  fmi3Instance start(const char* name) {
    const std::string res = entry_.stage_dir + "/resources/";
    fmi3Instance i = fns_.instantiate(name, fmu_.token.c_str(), res.c_str(), false, false, &log_, &LogSink::callback);
    EXPECT_NE(i, nullptr);
    instances_.push_back(i);
    EXPECT_EQ(fns_.enter_initialization(i, false, 0, 0, false, 0), fmi3OK);
    EXPECT_EQ(fns_.exit_initialization(i), fmi3OK);
    fmi3Boolean need = false, terminate = false, nominals = false, values = false, next = false;
    double next_time = 0;
    EXPECT_EQ(fns_.update_discrete_states(i, &need, &terminate, &nominals, &values, &next, &next_time), fmi3OK);
    EXPECT_EQ(fns_.enter_continuous_time(i), fmi3OK);
    return i;
  }
  struct Point {
    double t = 0;
    std::vector<double> x, z;
  };
  Point read_point(fmi3Instance i) {
    Point p;
    p.x.resize(states_.size());
    EXPECT_EQ(fns_.get_states(i, p.x.data(), p.x.size()), fmi3OK);
    p.z.resize(fmu_.algebraic.size());
    EXPECT_EQ(fns_.get_float64(i, fmu_.algebraic.data(), p.z.size(), p.z.data(), p.z.size()), fmi3OK);
    return p;
  }
  // Every state and algebraic variable by a relative `scale`, alternating in sign.
  static Point moved(Point p, double scale, double t) {
    p.t = t;
    int k = 0;
    for (double& x : p.x) x *= 1.0 + scale * ((k++ % 2 == 0) ? 1.0 : -0.5);
    for (double& z : p.z) z *= 1.0 + scale * ((k++ % 2 == 0) ? -0.5 : 1.0);
    return p;
  }
  void set_point(fmi3Instance i, const Point& p) {
    ASSERT_EQ(fns_.set_time(i, p.t), fmi3OK);
    ASSERT_EQ(fns_.set_states(i, p.x.data(), p.x.size()), fmi3OK);
    ASSERT_EQ(fns_.set_float64(i, fmu_.algebraic.data(), p.z.size(), p.z.data(), p.z.size()), fmi3OK);
  }
  struct Values {
    std::vector<double> z, dx, r;
  };
  std::vector<double> indicators(fmi3Instance i) {
    std::vector<double> z(indicator_count_, -12345.0);
    EXPECT_EQ(fns_.get_event_indicators(i, z.data(), z.size()), fmi3OK);
    return z;
  }
  void rest(fmi3Instance i, Values& v) {
    v.dx.assign(states_.size(), -12345.0);
    EXPECT_EQ(fns_.get_derivatives(i, v.dx.data(), v.dx.size()), fmi3OK);
    v.r.assign(residuals_.size(), -12345.0);
    EXPECT_EQ(fns_.get_float64(i, residuals_.data(), residuals_.size(), v.r.data(), v.r.size()), fmi3OK);
  }
  // At point `p`: instance a asks the indicators first (twice: the second
  // from the values in hand), then the derivatives and residuals, then the
  // indicators once more; instance b the derivatives and residuals first.
  void compare(fmi3Instance a, fmi3Instance b, const Point& p, const Values& before, const char* where) {
    set_point(a, p);
    set_point(b, p);
    Values va, vb;
    va.z = indicators(a);
    const std::vector<double> za_again = indicators(a);
    rest(a, va);
    const std::vector<double> za_after = indicators(a);
    rest(b, vb);
    vb.z = indicators(b);
    EXPECT_TRUE(same_bits(va.z, vb.z)) << where << ": indicators first vs after the residuals";
    EXPECT_TRUE(same_bits(va.z, za_again)) << where;
    EXPECT_TRUE(same_bits(va.z, za_after)) << where;
    EXPECT_TRUE(same_bits(va.dx, vb.dx)) << where << ": derivatives after an indicator-only request";
    EXPECT_TRUE(same_bits(va.r, vb.r)) << where << ": residuals after an indicator-only request";
    // Not the last point's values (what a stale cache would give).
    EXPECT_FALSE(same_bits(va.dx, before.dx)) << where;
    EXPECT_FALSE(same_bits(va.r, before.r)) << where;
    bool reached = false;
    for (double z : va.z) reached = reached || z != 1.0;
    EXPECT_TRUE(reached) << where << ": no limiter reached (only unwritten records)";
  }

  CatalogEntry entry_;
  ParsedFmu fmu_;
  Fmi3Functions fns_;
  LogSink log_;
  std::vector<fmi3Instance> instances_;
  std::vector<fmi3ValueReference> residuals_, states_;
  std::size_t indicator_count_ = 0;
};

TEST_F(IndicatorsFmu, IndicatorsFirstOrLastGiveTheSameBitsAndFreshResiduals) {
  fmi3Instance a = start("a"), b = start("b");
  const Point p0 = read_point(a);
  Values v0;
  rest(a, v0);
  rest(b, v0);
  const Point p1 = moved(p0, 1e-3, 0.5);
  compare(a, b, p1, v0, "moved point");
  Values v1;
  rest(a, v1);
  const Point p2 = moved(p0, -2e-3, 0.6);
  compare(a, b, p2, v1, "second moved point");
  Values v2;
  rest(a, v2);

  // An event at a point with every bus voltage at 40 %: limiter modes switch.
  Point low = p2;
  low.t = 0.7;
  for (std::size_t k = 0; k < fmu_.algebraic.size(); ++k) {
    const std::string& name = fmu_.var(fmu_.algebraic[k]).name;
    if (name.rfind("bus[", 0) == 0) low.z[k] *= 0.4;
  }
  const fmi3ValueReference events = fmu_.by_name.at("limits.events");
  for (fmi3Instance i : {a, b}) {
    set_point(i, low);
    ASSERT_EQ(fns_.enter_event(i), fmi3OK);
    fmi3Boolean need = false, terminate = false, nominals = false, values = false, next = false;
    double next_time = 0;
    ASSERT_EQ(fns_.update_discrete_states(i, &need, &terminate, &nominals, &values, &next, &next_time), fmi3OK);
    ASSERT_EQ(fns_.enter_continuous_time(i), fmi3OK);
    double count = 0;
    ASSERT_EQ(fns_.get_float64(i, &events, 1, &count, 1), fmi3OK);
    EXPECT_GT(count, 0.0) << "the event switched no limiter";
  }
  const Point after = read_point(a);
  Values v3;
  rest(a, v3);
  rest(b, v3);
  compare(a, b, moved(after, 5e-4, 0.71), v3, "after the event");
}

}  // namespace
}  // namespace lsdae::test
