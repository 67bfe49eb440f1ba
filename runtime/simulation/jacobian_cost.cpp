// runtime/simulation/jacobian_cost.cpp -- see jacobian_cost.h.
#include "simulation/jacobian_cost.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lsdae::simulation {
namespace {

// "9.77 ms", "345 ns": three digits in the unit that suits the value.
std::string cost_text(double seconds) {
  const char* unit = "s";
  double value = seconds;
  if (seconds < 1e-6) {
    value = seconds * 1e9, unit = "ns";
  } else if (seconds < 1e-3) {
    value = seconds * 1e6, unit = "µs";
  } else if (seconds < 1.0) {
    value = seconds * 1e3, unit = "ms";
  }
  char text[48];
  std::snprintf(text, sizeof text, "%.3g %s", value, unit);
  return text;
}

}  // namespace

JacobianCosts measure_jacobian_costs(kernels::ResidualFunction& residual, const structure::Coloring& directional,
                                     const structure::Coloring& full, double t, std::span<const double> y,
                                     std::span<const double> yp, std::span<const double> nominal) {
  JacobianCosts costs;
  costs.directional_colours = directional.colors;
  costs.colours = full.colors;
  const std::size_t n = y.size();
  std::vector<double> y1(y.begin(), y.end()), yp1(yp.begin(), yp.end()), out(residual.size()), jv(residual.size());
  auto step = [&](std::size_t c) {
    return 1e-7 * std::max(std::fabs(y[c]), nominal.size() == n ? std::fabs(nominal[c]) : 1.0);
  };
  using Clock = std::chrono::steady_clock;
  const auto seconds_from = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  costs.directional = costs.finite_differences = std::numeric_limits<double>::infinity();
  for (int repetition = 0; repetition < 3; ++repetition) {
    // A moved point first: nothing the FMU keeps for a point carries over.
    for (std::size_t c = 0; c < n; ++c) y1[c] = y[c] + step(c);
    (void)residual.residual(t, y1, yp, out);
    auto start = Clock::now();
    for (std::size_t g = 0; g < directional.colors; ++g)
      (void)residual.jacobian_columns(t, y, yp, 1.0, directional.group(g), jv);
    costs.directional = std::min(costs.directional, seconds_from(start));
    double differences = 0.0;
    for (std::size_t g = 0; g < full.colors; ++g) {
      const auto columns = full.group(g);
      std::copy(y.begin(), y.end(), y1.begin());
      std::copy(yp.begin(), yp.end(), yp1.begin());
      for (std::size_t c : columns) {
        y1[c] += step(c);
        yp1[c] += step(c);
      }
      start = Clock::now();
      (void)residual.residual(t, y1, yp1, out);
      differences += seconds_from(start);
    }
    costs.finite_differences = std::min(costs.finite_differences, differences);
    // Far from the margin after one repetition: decided.
    if (costs.directional < kWorthTiming / 4 || costs.directional < costs.finite_differences) break;
  }
  (void)residual.residual(t, y, yp, out);  // the model left at the point
  return costs;
}

std::string directional_costs_more(const JacobianCosts& costs) {
  if (!(costs.directional >= kWorthTiming) || !(costs.directional >= kCostlier * costs.finite_differences)) return {};
  return "a Jacobian of the FMU's directional derivatives takes " + cost_text(costs.directional) + " (" +
         std::to_string(costs.directional_colours) + " calls), of finite differences " +
         cost_text(costs.finite_differences) + " (" + std::to_string(costs.colours) + " residual calls)";
}

}  // namespace lsdae::simulation
