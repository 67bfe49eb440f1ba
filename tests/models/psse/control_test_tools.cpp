// tests/models/psse/control_test_tools.cpp -- see control_test_tools.h.
#include "control_test_tools.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "psse/core/limiter.h"

namespace lsdae::psse::test {

std::size_t input_slot(const ComponentHarness& h, const std::string& signal) {
  const FrameShape& s = h.slot().shape();
  for (std::size_t k = 0; k < h.slot().inputs().size(); ++k)
    if (h.slot().inputs()[k].signal == signal) return static_cast<std::size_t>(s.states + s.algebraics) + k;
  throw std::out_of_range("no input \"" + signal + "\"");
}

void set_input(ComponentHarness& h, const std::string& signal, double value) { h.known()[input_slot(h, signal)] = value; }

double state_value(const ComponentHarness& h, const std::string& name) {
  return const_cast<ComponentHarness&>(h).known()[static_cast<std::size_t>(h.state(name))];
}

double algebraic_value(const ComponentHarness& h, const std::string& name) {
  return const_cast<ComponentHarness&>(h).known()[static_cast<std::size_t>(h.slot().shape().states + h.algebraic(name))];
}

int limiter_index(const ComponentHarness& h, const std::string& name) {
  for (std::size_t k = 0; k < h.slot().limiters().size(); ++k)
    if (h.slot().limiters()[k].name == name) return static_cast<int>(k);
  throw std::out_of_range("no limiter \"" + name + "\"");
}

namespace {
void solve_algebraics(ComponentHarness& h) {
  const FrameShape& s = h.slot().shape();
  const std::vector<double> out = h.outputs();
  for (int j = 0; j < s.algebraics; ++j)
    h.known()[static_cast<std::size_t>(s.states + j)] -= out[static_cast<std::size_t>(s.states + j)];
}
}  // namespace

int settle(ComponentHarness& h) {
  int changes = 0;
  for (int round = 0; round < 8; ++round) {
    solve_algebraics(h);
    const std::vector<LimiterRecord> records = h.limiter_records();
    bool changed = false;
    for (std::size_t k = 0; k < records.size(); ++k) {
      const DeclaredLimiter& lim = h.slot().limiters()[k];
      const int m = limiter_mode_by_value(lim.kind, h.modes()[k], records[k], 1e-9);
      if (m == h.modes()[k]) continue;
      h.modes()[k] = m;
      if (lim.kind == LimiterKind::non_windup && m != kModeFree)
        h.known()[static_cast<std::size_t>(lim.state)] = limiter_held_value(m, records[k]);
      changed = true;
      ++changes;
    }
    if (!changed) break;
  }
  solve_algebraics(h);
  return changes;
}

int simulate(ComponentHarness& h, double t0, double duration, double dt,
             const std::function<void(double, ComponentHarness&)>& drive) {
  const int states = h.slot().shape().states;
  const auto steps = static_cast<long>(std::llround(duration / dt));
  int changes = 0;
  for (long n = 0; n < steps; ++n) {
    const double t = t0 + static_cast<double>(n) * dt;
    if (drive) drive(t, h);
    changes += settle(h);
    const std::vector<double> out = h.outputs(t);
    for (int i = 0; i < states; ++i) h.known()[static_cast<std::size_t>(i)] += dt * out[static_cast<std::size_t>(i)];
  }
  if (drive) drive(t0 + duration, h);
  changes += settle(h);
  return changes;
}

std::complex<double> frequency_response(const ComponentHarness& h, const std::string& signal,
                                        const std::string& output, double omega) {
  using C = std::complex<double>;
  const FrameShape& s = h.slot().shape();
  std::vector<double> jac;
  auto& hh = const_cast<ComponentHarness&>(h);
  h.slot().jacobian(hh.known().data(), hh.parameters().data(), hh.modes().data(), 0.0, jac);
  const auto no = static_cast<std::size_t>(s.output_count());
  const auto n = static_cast<std::size_t>(s.states);
  const std::size_t u = input_slot(h, signal);
  const auto g = static_cast<std::size_t>(s.states + h.algebraic(output));
  auto d = [&](std::size_t row, std::size_t col) { return jac[col * no + row]; };
  // (jωI − A) v = B, then y = C v + D with C = −∂g/∂x, D = −∂g/∂u.
  std::vector<C> m(n * (n + 1));
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < n; ++c) m[r * (n + 1) + c] = (r == c ? C(0.0, omega) : C(0.0)) - d(r, c);
    m[r * (n + 1) + n] = d(r, u);
  }
  for (std::size_t k = 0; k < n; ++k) {  // Gaussian elimination, partial pivoting
    std::size_t p = k;
    for (std::size_t r = k + 1; r < n; ++r)
      if (std::abs(m[r * (n + 1) + k]) > std::abs(m[p * (n + 1) + k])) p = r;
    for (std::size_t c = 0; c <= n; ++c) std::swap(m[k * (n + 1) + c], m[p * (n + 1) + c]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == k) continue;
      const C f = m[r * (n + 1) + k] / m[k * (n + 1) + k];
      for (std::size_t c = k; c <= n; ++c) m[r * (n + 1) + c] -= f * m[k * (n + 1) + c];
    }
  }
  C y = -d(g, u);
  for (std::size_t k = 0; k < n; ++k) y += -d(g, k) * (m[k * (n + 1) + n] / m[k * (n + 1) + k]);
  return y;
}

std::vector<DyrRecord> dyr_records(const std::filesystem::path& file, const std::string& model) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<DyrRecord> out;
  std::string text, line;
  int line_no = 0, start = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) start = line_no;
    text += line + "\n";
    std::size_t slash;
    while ((slash = text.find('/')) != std::string::npos) {
      std::string body = text.substr(0, slash);
      text.erase(0, slash + 1);
      std::replace(body.begin(), body.end(), ',', ' ');
      std::istringstream tokens(body);
      DyrRecord r;
      std::string bus, name, id;
      if (!(tokens >> bus >> name >> id)) continue;
      name.erase(std::remove(name.begin(), name.end(), '\''), name.end());
      id.erase(std::remove(id.begin(), id.end(), '\''), id.end());
      if (name != model) continue;
      r.file = file.filename().string();
      r.line = start;
      r.bus = std::stoi(bus);
      r.model = name;
      r.id = id;
      for (std::string t; tokens >> t;) {
        r.tokens.push_back(t);
        r.values.push_back(std::stod(t));
        r.value_lines.push_back(start);
      }
      out.push_back(r);
      start = line_no;
    }
  }
  return out;
}

std::filesystem::path psse_data() { return std::filesystem::path(LSDAE_PSSE_DATA); }

}  // namespace lsdae::psse::test
