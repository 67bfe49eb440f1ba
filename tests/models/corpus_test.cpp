// tests/models/corpus_test.cpp -- every model FMU in build/fmus/catalog.tsv:
//   * its XML is consistent (value references, derivatives, dependencies,
//     Formulation order, algebraic variables),
//   * the reference solution makes every residual vanish to rounding (and the
//     state derivatives match it in ODE / semi-explicit form),
//   * the declared dependencies are complete: perturbing a known that an
//     unknown does not declare leaves that unknown bit-identical,
//   * fmi3GetDirectionalDerivative matches central finite differences,
//   * an entry declared dependenciesKind="constant" has the same partial
//     derivative at two points.
// An FMU that makes false claims on purpose (the kit's claim_* keys,
// models/kit/claims.h, read from its resources/lsdae_model.cfg) must fail
// exactly the checks of its claims: the test then asserts that each claimed
// lie is found, and nothing else.
// Clocked FMUs: the session does the importer's clock duties and replays the
// ticks of time-based clocks between reference rows (clock_driver.h);
// clocked variables are unknowns only at their ticks, so the probes leave
// them out.
// The binary is driven through the fmi3 functions directly (fmu_fixture.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "clock_driver.h"
#include "corpus_session.h"
#include "fmu_fixture.h"

namespace lsdae::test {
namespace {

// The false claims a variant makes (claims.h), by variable names.
struct Claims {
  std::set<std::pair<std::string, std::string>> constant, hidden;
  struct Scale {
    std::string unknown, known;
    double factor;
  };
  std::vector<Scale> scales;
  double scales_after = -std::numeric_limits<double>::infinity();  // claim_partial_scale_after: scaled at t > this
  bool any() const { return !constant.empty() || !hidden.empty() || !scales.empty(); }
};

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, separator)) out.push_back(item);
  return out;
}

Claims claims_of(const CatalogEntry& e) {
  Claims c;
  const auto config = read_model_config(e.stage_dir);
  auto pairs = [&](const char* key, std::set<std::pair<std::string, std::string>>& out) {
    if (auto it = config.find(key); it != config.end())
      for (const auto& item : split_on(it->second, ',')) {
        const auto parts = split_on(item, ':');
        out.emplace(parts.at(0), parts.at(1));
      }
  };
  pairs("claim_constant", c.constant);
  pairs("claim_hidden", c.hidden);
  if (auto it = config.find("claim_partial_scale"); it != config.end())
    for (const auto& item : split_on(it->second, ',')) {
      const auto parts = split_on(item, ':');
      c.scales.push_back({parts.at(0), parts.at(1), std::stod(parts.at(2))});
    }
  if (auto it = config.find("claim_partial_scale_after"); it != config.end()) c.scales_after = std::stod(it->second);
  return c;
}

// The unknowns that the FMU computes in a mode, each with its declared dependencies.
struct Unknown {
  fmi3ValueReference vr;
  std::set<fmi3ValueReference> deps;
  bool dense;  // no dependencies attribute
  std::string role;
};

std::vector<Unknown> unknowns_of(const ParsedFmu& fmu, bool dae_mode) {
  std::vector<Unknown> out;
  auto add = [&](const XmlUnknown& u, const std::string& role) {
    const XmlVariable& v = fmu.var(u.vr);
    if (!v.clocks.empty() || v.type != "Float64") return;  // clocked (read at ticks only), Int32, Clock
    out.push_back({u.vr, {u.dependencies.begin(), u.dependencies.end()}, !u.has_dependencies, role});
  };
  if (!dae_mode) {
    for (const auto& u : fmu.core_derivatives) add(u, "derivative");
    for (const auto& u : fmu.core_outputs) add(u, "output");
    for (const auto& u : fmu.core_event_indicators) add(u, "event indicator");
    return out;
  }
  for (const auto& g : fmu.residual_groups)
    for (const auto& f : g) add(f, "residual");
  for (const auto& u : fmu.invariants) add(u, "invariant");
  if (!fmu.fully_implicit)
    for (const auto& u : fmu.dae_derivatives) add(u, "derivative");
  for (const auto& u : fmu.dae_outputs) add(u, "output");
  for (const auto& u : fmu.dae_event_indicators) add(u, "event indicator");
  return out;
}

std::vector<fmi3ValueReference> knowns_of(const ParsedFmu& fmu, bool dae_mode) {
  // FMI 3.0: the knowns in Continuous-Time Mode are the independent variable,
  // continuous inputs and continuous states; FMI-LS-DAE adds the algebraic
  // variables and, in the fully implicit form, the state derivatives.
  std::vector<fmi3ValueReference> out;
  for (const auto& v : fmu.variables)
    if (v.causality == "independent" || (v.causality == "input" && v.variability == "continuous")) out.push_back(v.vr);
  const auto states = fmu.states();
  out.insert(out.end(), states.begin(), states.end());
  if (dae_mode) {
    out.insert(out.end(), fmu.algebraic.begin(), fmu.algebraic.end());
    if (fmu.fully_implicit) {
      auto d = fmu.derivatives();
      out.insert(out.end(), d.begin(), d.end());
    }
  }
  return out;
}

std::vector<bool> modes_of(const ParsedFmu& fmu) {
  if (fmu.shape.empty()) return {false};
  if (!fmu.dae_switch) return {true};
  return {true, false};
}

std::string label(const ParsedFmu& fmu, fmi3ValueReference vr) { return "\"" + fmu.var(vr).name + "\""; }

class Corpus : public ::testing::TestWithParam<CatalogEntry> {
 protected:
  void SetUp() override { fmu_ = parse_fmu(GetParam().stage_dir); }
  ParsedFmu fmu_;
};

TEST_P(Corpus, ArchiveExists) {
  const auto& e = GetParam();
  EXPECT_TRUE(std::filesystem::is_regular_file(e.fmu_path)) << e.fmu_path;
  EXPECT_GT(std::filesystem::file_size(e.fmu_path), 1000u);
  EXPECT_TRUE(std::filesystem::is_regular_file(e.stage_dir + "/binaries/x86_64-linux/" + fmu_.model_identifier + ".so"));
}

TEST_P(Corpus, XmlIsConsistent) {
  std::set<std::string> names;
  for (const auto& v : fmu_.variables) {
    EXPECT_TRUE(names.insert(v.name).second) << "duplicate name " << v.name << " at line " << v.line;
    if (v.derivative) {
      ASSERT_TRUE(fmu_.by_vr.count(*v.derivative)) << v.name << " line " << v.line << ": derivative=\""
                                                   << *v.derivative << "\" names no variable";
      const auto& state = fmu_.var(*v.derivative);
      EXPECT_EQ(state.type, "Float64") << v.name;
      EXPECT_EQ(state.variability, "continuous") << v.name;
      EXPECT_TRUE(state.initial == "exact" || state.initial == "approx") << state.name << " initial=" << state.initial;
    }
  }
  EXPECT_EQ(fmu_.by_vr.size(), fmu_.variables.size()) << "duplicate value references";
  EXPECT_EQ(fmu_.core_derivatives.size(), static_cast<std::size_t>(std::count_if(
      fmu_.variables.begin(), fmu_.variables.end(), [](const XmlVariable& v) { return v.derivative.has_value(); })));
  auto check_unknown = [&](const XmlUnknown& u, const std::string& file) {
    EXPECT_TRUE(fmu_.by_vr.count(u.vr)) << file << ":" << u.line << ": valueReference " << u.vr << " does not exist";
    for (auto d : u.dependencies)
      EXPECT_TRUE(fmu_.by_vr.count(d)) << file << ":" << u.line << ": dependency " << d << " does not exist";
    if (!u.kinds.empty()) {
      EXPECT_EQ(u.kinds.size(), u.dependencies.size()) << file << ":" << u.line << ": dependenciesKind length";
    }
    for (const auto& k : u.kinds)
      EXPECT_TRUE(k == "constant" || k == "fixed" || k == "tunable" || k == "discrete" || k == "dependent")
          << file << ":" << u.line << ": dependenciesKind " << k;
  };
  for (const auto* list : {&fmu_.core_outputs, &fmu_.core_derivatives, &fmu_.core_event_indicators,
                           &fmu_.core_initial_unknowns})
    for (const auto& u : *list) check_unknown(u, "modelDescription.xml");
  // Core dependencies may only name knowns of ODE mode (and, FMI 3.0 2.4.8,
  // the input clocks that make a clocked output or an output clock tick).
  auto ode_knowns = knowns_of(fmu_, false);
  for (auto c : fmu_.clocks)
    if (fmu_.var(c).causality == "input") ode_knowns.push_back(c);
  for (const auto& u : fmu_.core_clocked_states) {
    const auto& v = fmu_.var(u.vr);
    EXPECT_FALSE(v.clocks.empty()) << v.name << ": a ClockedState is clocked";
    ASSERT_TRUE(v.previous.has_value()) << v.name << ": a ClockedState has previous";
    EXPECT_EQ(fmu_.var(*v.previous).type, v.type) << v.name;
  }
  for (const auto* list : {&fmu_.core_outputs, &fmu_.core_derivatives, &fmu_.core_event_indicators})
    for (const auto& u : *list)
      for (auto d : u.dependencies)
        EXPECT_TRUE(std::count(ode_knowns.begin(), ode_knowns.end(), d))
            << "modelDescription.xml:" << u.line << ": dependency " << label(fmu_, d) << " is not a known";
  if (fmu_.shape.empty()) return;
  const auto dae_knowns = knowns_of(fmu_, true);
  for (auto a : fmu_.algebraic) {
    ASSERT_TRUE(fmu_.by_vr.count(a)) << "AlgebraicVariable " << a << " does not exist";
    const auto& v = fmu_.var(a);
    EXPECT_EQ(v.type, "Float64") << v.name;
    EXPECT_TRUE(v.causality == "local" || v.causality == "output") << v.name;
    EXPECT_EQ(v.variability, "continuous") << v.name;
  }
  std::size_t residual_rows = 0;
  for (const auto& g : fmu_.residual_groups) {
    ASSERT_FALSE(g.empty());
    ++residual_rows;
    std::optional<int> previous;
    for (const auto& f : g) {
      check_unknown(f, "fmi-ls-manifest.xml");
      const auto& v = fmu_.var(f.vr);
      EXPECT_EQ(v.type, "Float64") << v.name;
      // An output may be a residual too (models/unusual does that on purpose).
      EXPECT_TRUE(v.causality == "local" || v.causality == "output") << v.name;
      EXPECT_EQ(v.variability, "continuous") << v.name;
      EXPECT_TRUE(f.has_dependencies) << v.name << ": our FMUs declare exact dependencies";
      for (auto d : f.dependencies)
        EXPECT_TRUE(std::count(dae_knowns.begin(), dae_knowns.end(), d))
            << "fmi-ls-manifest.xml:" << f.line << ": " << v.name << " depends on " << label(fmu_, d)
            << ", which is not a known in DAE mode";
      if (f.index) {
        if (previous) {
          EXPECT_LT(*f.index, *previous) << v.name << ": Formulation indices must decrease";
        }
        previous = f.index;
      }
    }
  }
  // Balanced: one row per residual group plus (semi-explicit) one per state,
  // against derivatives and algebraic variables.
  const std::size_t n_states = fmu_.states().size();
  const std::size_t rows = residual_rows + (fmu_.fully_implicit ? 0 : n_states);
  EXPECT_EQ(rows, n_states + fmu_.algebraic.size()) << "system is not square";
}

// Evaluates the unknowns at the point set in `s`, perturbs each known once and
// returns, per unknown, the scale sum_j |d u / d v_j| |v_j| (finite differences);
// records undeclared dependencies in `violations`.
std::vector<double> probe(Session& s, const ParsedFmu& fmu, const std::vector<Unknown>& unknowns,
                          const std::vector<fmi3ValueReference>& knowns, std::vector<std::string>* violations,
                          std::vector<std::pair<std::string, std::string>>* pairs = nullptr) {
  std::vector<fmi3ValueReference> uvrs;
  for (const auto& u : unknowns) uvrs.push_back(u.vr);
  const auto base = s.get(uvrs);
  std::vector<double> scale(unknowns.size(), 0.0);
  for (auto k : knowns) {
    const double v = s.get(k);
    const double h = 1e-6 * std::max(std::abs(v), 1.0);
    s.set(k, v + h);
    const auto moved = s.get(uvrs);
    s.set(k, v);
    // OpenModelica form: a dependency on a state covers its derivative.
    const auto& kv = fmu.var(k);
    const bool covered_by_state = fmu.state_stands_for_derivative && kv.derivative.has_value();
    for (std::size_t i = 0; i < unknowns.size(); ++i) {
      if (moved[i] == base[i]) continue;
      scale[i] += std::abs((moved[i] - base[i]) / h) * std::max(std::abs(v), h);
      if (covered_by_state && unknowns[i].deps.count(*kv.derivative)) continue;
      if (violations && !unknowns[i].dense && !unknowns[i].deps.count(k)) {
        violations->push_back(unknowns[i].role + " " + label(fmu, unknowns[i].vr) + " changes with " + label(fmu, k) +
                              ", which its dependencies do not list");
        if (pairs) pairs->emplace_back(fmu.var(unknowns[i].vr).name, fmu.var(k).name);
      }
    }
  }
  return scale;
}

// Sets reference row `r` into the session; returns false when the table lacks a needed column.
void set_reference_row(Session& s, const ParsedFmu& fmu, const ReferenceTable& ref, std::size_t r,
                       const std::vector<fmi3ValueReference>& knowns) {
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < ref.columns.size(); ++c) column[ref.columns[c]] = c;
  s.set_time(ref.rows[r][0]);
  for (auto k : knowns) {
    auto it = column.find(fmu.var(k).name);
    if (it == column.end()) throw std::runtime_error("reference has no column " + fmu.var(k).name);
    s.set(k, ref.rows[r][it->second]);
  }
}

std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count) {
  std::vector<std::size_t> rows;
  if (n == 0) return rows;
  for (std::size_t i = 0; i < count; ++i) rows.push_back(std::min(n - 1, i * (n - 1) / std::max<std::size_t>(count - 1, 1)));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

TEST_P(Corpus, ReferenceSolutionSatisfiesTheModel) {
  if (GetParam().reference_csv.empty()) GTEST_SKIP() << "no reference declared";
  const ReferenceTable ref = read_reference(GetParam().reference_csv);
  ASSERT_EQ(ref.columns.front(), "time");
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < ref.columns.size(); ++c) column[ref.columns[c]] = c;
  for (bool dae : modes_of(fmu_)) {
    SCOPED_TRACE(dae ? "DAE mode" : "ODE mode");
    Session s(GetParam(), fmu_, dae, /*tick_at_start=*/false);  // the replay below ticks
    const auto knowns = knowns_of(fmu_, dae);
    const auto unknowns = unknowns_of(fmu_, dae);
    // An invariant is constant along the solution, not zero (issue 15: an
    // oscillator's energy is 0.5): each keeps the value of the first row.
    std::map<fmi3ValueReference, double> invariant_value;
    for (std::size_t r : sample_rows(ref.rows.size(), 6)) {
      // Clock ticks between rows: each at its time, the states from the
      // reference's row just before it (clocked references list a tick as a
      // pair of rows, before and after; a row's own tick counts when the row
      // is the "after" one).
      const double t_row = ref.rows[r][0];
      const bool after_row = r > 0 && ref.rows[r - 1][0] == t_row;
      while (auto tick = s.clocks_->next_tick()) {
        const bool at_row = std::fabs(*tick - t_row) <= 1e-9 * std::max(1.0, std::fabs(t_row));
        if (!(*tick < t_row && !at_row) && !(at_row && after_row)) break;
        std::size_t before = 0;
        while (before < ref.rows.size() &&
               std::fabs(ref.rows[before][0] - *tick) > 1e-9 * std::max(1.0, std::fabs(*tick)))
          ++before;
        ASSERT_LT(before, ref.rows.size()) << "the reference has no row at the tick at t = " << *tick;
        set_reference_row(s, fmu_, ref, before, knowns);
        s.set_time(*tick);
        s.handle_event(*tick);
      }
      set_reference_row(s, fmu_, ref, r, knowns);
      // Discrete variables follow the events between rows: a passed time
      // event triggers one event iteration at the row's time.
      if (s.next_time_event_ && ref.rows[r][0] >= *s.next_time_event_) s.handle_event(ref.rows[r][0]);
      const auto scale = probe(s, fmu_, unknowns, knowns, nullptr);
      for (std::size_t i = 0; i < unknowns.size(); ++i) {
        const auto& u = unknowns[i];
        const double value = s.get(u.vr);
        if (u.role == "invariant") {
          const double first = invariant_value.emplace(u.vr, value).first->second;
          EXPECT_LE(std::abs(value - first), 1e-9 * scale[i] + 1e-13)
              << "invariant " << label(fmu_, u.vr) << " = " << value << " at t = " << ref.rows[r][0]
              << ", but " << first << " on the first row (scale " << scale[i] << ")";
        } else if (u.role == "residual") {
          EXPECT_LE(std::abs(value), 1e-9 * scale[i] + 1e-13)
              << u.role << " " << label(fmu_, u.vr) << " = " << value << " at t = " << ref.rows[r][0]
              << " (scale " << scale[i] << ")";
        } else if (u.role == "derivative") {
          auto it = column.find(fmu_.var(u.vr).name);
          ASSERT_NE(it, column.end()) << "reference lacks " << fmu_.var(u.vr).name;
          const double expected = ref.rows[r][it->second];
          EXPECT_LE(std::abs(value - expected), 1e-9 * (scale[i] + std::abs(expected)) + 1e-13)
              << label(fmu_, u.vr) << " at t = " << ref.rows[r][0];
        }
      }
    }
  }
}

TEST_P(Corpus, DeclaredDependenciesAreComplete) {
  // A variant that hides dependencies on purpose (claim_hidden) must be
  // caught at exactly those entries.
  const Claims claims = claims_of(GetParam());
  std::set<std::pair<std::string, std::string>> found;
  for (bool dae : modes_of(fmu_)) {
    SCOPED_TRACE(dae ? "DAE mode" : "ODE mode");
    Session s(GetParam(), fmu_, dae);
    const auto knowns = knowns_of(fmu_, dae);
    // Move away from the (often symmetric or zero) start point.
    for (std::size_t i = 0; i < knowns.size(); ++i) s.set(knowns[i], 0.3 + 0.1 * static_cast<double>(i % 7));
    std::vector<std::string> violations;
    std::vector<std::pair<std::string, std::string>> pairs;
    probe(s, fmu_, unknowns_of(fmu_, dae), knowns, &violations, &pairs);
    int reported = 0;
    for (std::size_t i = 0; i < violations.size(); ++i) {
      if (claims.hidden.count(pairs[i])) {
        found.insert(pairs[i]);
        continue;
      }
      if (reported++ < 20) ADD_FAILURE() << violations[i];
    }
  }
  for (const auto& [u, k] : claims.hidden)
    EXPECT_TRUE(found.count({u, k})) << "claim_hidden=" << u << ":" << k
                                     << ": the FMU hides this dependency on purpose, but perturbing " << k
                                     << " did not move " << u;
}

TEST_P(Corpus, DirectionalDerivativesMatchFiniteDifferences) {
  if (!fmu_.provides_directional) GTEST_SKIP() << "FMU does not provide directional derivatives";
  const Claims claims = claims_of(GetParam());
  std::vector<bool> scale_found(claims.scales.size(), false);
  for (bool dae : modes_of(fmu_)) {
    SCOPED_TRACE(dae ? "DAE mode" : "ODE mode");
    Session s(GetParam(), fmu_, dae);
    auto knowns = knowns_of(fmu_, dae);
    for (std::size_t i = 0; i < knowns.size(); ++i) s.set(knowns[i], 0.3 + 0.1 * static_cast<double>(i % 7));
    // A variant whose partials go wrong later (claim_partial_scale_after):
    // looked at after that time.
    if (std::isfinite(claims.scales_after))
      for (const fmi3ValueReference k : knowns)
        if (fmu_.var(k).causality == "independent") s.set(k, claims.scales_after + 0.5);
    // Directional derivatives are taken with respect to states, inputs and
    // (LS-DAE) algebraic variables and derivatives, not time.
    std::erase_if(knowns, [&](fmi3ValueReference k) { return fmu_.var(k).causality == "independent"; });
    const auto unknowns = unknowns_of(fmu_, dae);
    std::vector<fmi3ValueReference> uvrs;
    for (const auto& u : unknowns) uvrs.push_back(u.vr);
    std::vector<std::vector<double>> dd(knowns.size()), fd(knowns.size());
    std::vector<double> row_max(unknowns.size(), 0.0);
    for (std::size_t j = 0; j < knowns.size(); ++j) {
      dd[j] = s.directional(uvrs, knowns[j]);
      const double v = s.get(knowns[j]);
      const double h = 1e-6 * std::max(std::abs(v), 1.0);
      s.set(knowns[j], v + h);
      const auto plus = s.get(uvrs);
      s.set(knowns[j], v - h);
      const auto minus = s.get(uvrs);
      s.set(knowns[j], v);
      fd[j].resize(unknowns.size());
      for (std::size_t i = 0; i < unknowns.size(); ++i) {
        fd[j][i] = (plus[i] - minus[i]) / (2 * h);
        row_max[i] = std::max(row_max[i], std::abs(fd[j][i]));
      }
    }
    int failures = 0;
    for (std::size_t j = 0; j < knowns.size(); ++j)
      for (std::size_t i = 0; i < unknowns.size(); ++i) {
        if (std::abs(dd[j][i] - fd[j][i]) <= 1e-6 * (row_max[i] + std::abs(fd[j][i])) + 1e-12) continue;
        // A wrong partial the variant claims on purpose (claim_partial_scale):
        // found when the directional derivative is that factor times the truth.
        const std::string& u = fmu_.var(uvrs[i]).name;
        const std::string& k = fmu_.var(knowns[j]).name;
        bool claimed = false;
        for (std::size_t c = 0; c < claims.scales.size(); ++c) {
          const auto& scale = claims.scales[c];
          if ((scale.unknown == "*" || scale.unknown == u) && (scale.known == "*" || scale.known == k) &&
              std::abs(dd[j][i] - scale.factor * fd[j][i]) <= 1e-6 * (row_max[i] + std::abs(fd[j][i])) * std::max(1.0, std::abs(scale.factor)) + 1e-12) {
            claimed = true;
            scale_found[c] = true;
          }
        }
        if (!claimed && failures++ < 20)
          ADD_FAILURE() << "d " << label(fmu_, uvrs[i]) << " / d " << label(fmu_, knowns[j]) << ": directional "
                        << dd[j][i] << ", finite difference " << fd[j][i];
      }
  }
  for (std::size_t c = 0; c < claims.scales.size(); ++c)
    EXPECT_TRUE(scale_found[c]) << "claim_partial_scale=" << claims.scales[c].unknown << ":" << claims.scales[c].known
                                << ":" << claims.scales[c].factor
                                << ": the FMU returns wrong partials there on purpose, but no directional "
                                   "derivative differed from the finite differences by that factor";
}

// Every entry declared dependenciesKind="constant" has the same partial
// derivative (central differences) at two points; a variant that declares
// varying entries constant on purpose (claim_constant) must be caught at
// exactly those entries.
TEST_P(Corpus, ConstantKindsAreConstant) {
  const Claims claims = claims_of(GetParam());
  std::set<std::pair<std::string, std::string>> found;
  for (bool dae : modes_of(fmu_)) {
    SCOPED_TRACE(dae ? "DAE mode" : "ODE mode");
    const auto unknowns = unknowns_of(fmu_, dae);
    const auto knowns = knowns_of(fmu_, dae);
    // The XML lists of the unknowns, for their kinds.
    std::map<fmi3ValueReference, const XmlUnknown*> xml;
    auto collect = [&](const std::vector<XmlUnknown>& list) {
      for (const auto& u : list) xml.emplace(u.vr, &u);
    };
    if (dae) {
      for (const auto& g : fmu_.residual_groups)
        for (const auto& f : g) xml.emplace(f.vr, &f);
      collect(fmu_.invariants);
      collect(fmu_.dae_derivatives);
      collect(fmu_.dae_outputs);
      collect(fmu_.dae_event_indicators);
    } else {
      collect(fmu_.core_derivatives);
      collect(fmu_.core_outputs);
      collect(fmu_.core_event_indicators);
    }
    std::vector<fmi3ValueReference> uvrs;
    for (const auto& u : unknowns) uvrs.push_back(u.vr);
    // Partials of every unknown by every known at two points, and the
    // rounding each difference quotient carries: eps·|f|/h, which a stiff
    // unknown (a residual of size 1e5 at an infinite bus's 1e-5 p.u.
    // source) lifts above the relative tolerance of a partial of order 1.
    std::vector<std::vector<std::vector<double>>> at(2), noise(2);
    for (std::size_t point = 0; point < 2; ++point) {
      Session s(GetParam(), fmu_, dae);
      for (std::size_t i = 0; i < knowns.size(); ++i)
        s.set(knowns[i], point == 0 ? 0.3 + 0.1 * static_cast<double>(i % 7) : 0.45 + 0.07 * static_cast<double>(i % 5));
      for (auto k : knowns) {
        const double v = s.get(k);
        const double h = 1e-6 * std::max(std::abs(v), 1.0);
        s.set(k, v + h);
        const auto plus = s.get(uvrs);
        s.set(k, v - h);
        const auto minus = s.get(uvrs);
        s.set(k, v);
        std::vector<double> column(uvrs.size()), rounding(uvrs.size());
        for (std::size_t i = 0; i < uvrs.size(); ++i) {
          column[i] = (plus[i] - minus[i]) / (2 * h);
          rounding[i] = 4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(plus[i]), std::abs(minus[i])) / h;
        }
        at[point].push_back(std::move(column));
        noise[point].push_back(std::move(rounding));
      }
    }
    int failures = 0;
    for (std::size_t i = 0; i < uvrs.size(); ++i) {
      auto it = xml.find(uvrs[i]);
      if (it == xml.end()) continue;
      const XmlUnknown& u = *it->second;
      for (std::size_t d = 0; d < u.dependencies.size() && d < u.kinds.size(); ++d) {
        if (u.kinds[d] != "constant") continue;
        const auto jt = std::find(knowns.begin(), knowns.end(), u.dependencies[d]);
        if (jt == knowns.end()) continue;  // a parameter (no known of this mode)
        const auto j = static_cast<std::size_t>(jt - knowns.begin());
        const double a = at[0][j][i], b = at[1][j][i];
        const std::pair<std::string, std::string> entry{fmu_.var(uvrs[i]).name, fmu_.var(knowns[j]).name};
        if (std::abs(a - b) <= 1e-6 * (std::abs(a) + std::abs(b)) + 1e-9 + noise[0][j][i] + noise[1][j][i]) continue;
        if (claims.constant.count(entry)) {
          found.insert(entry);
          continue;
        }
        if (failures++ < 20)
          ADD_FAILURE() << "d " << label(fmu_, uvrs[i]) << " / d " << label(fmu_, knowns[j])
                        << " is declared constant but is " << a << " at one point and " << b << " at another";
      }
    }
  }
  for (const auto& [u, k] : claims.constant)
    EXPECT_TRUE(found.count({u, k})) << "claim_constant=" << u << ":" << k
                                     << ": the FMU declares this entry constant on purpose, but it did not vary";
}

std::string test_name(const ::testing::TestParamInfo<CatalogEntry>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Fmus, Corpus, ::testing::ValuesIn(read_catalog()), test_name);

}  // namespace
}  // namespace lsdae::test
