// bench/tl_problem.cpp -- see tl_problem.h.
#include "tl_problem.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

namespace lsdae::bench {

std::string tl_fmu_name(int form, long n) {
  return std::string("TransmissionLine_") + (form == 0 ? "ode_" : "dae_shapeA_") + std::to_string(n);
}

std::string tl_fmu_folder(int form, long n) {
  const std::string main = std::string(LSDAE_FMU_DIR) + "/" + tl_fmu_name(form, n);
  if (std::filesystem::exists(main + "/modelDescription.xml")) return main;
  return std::string(LSDAE_BENCH_FMU_DIR) + "/" + tl_fmu_name(form, n);  // target lsdae_bench_large_fmus
}

bool tl_fmu_built(int form, long n) {
  return std::filesystem::exists(tl_fmu_folder(form, n) + "/modelDescription.xml");
}

void tl_sizes(benchmark::internal::Benchmark* b, const char* extra, std::initializer_list<long long> extra_values) {
  std::vector<std::string> names{"form", "N"};
  if (extra != nullptr) names.emplace_back(extra);
  b->ArgNames(names);
  auto add = [&](long long form, long long n) {
    if (extra == nullptr) {
      b->Args({form, n});
      return;
    }
    for (const long long v : extra_values) b->Args({form, n, v});
  };
  for (const long long n : kSizes) {
    add(0, n);
    add(1, n);
  }
  for (const long long n : kLargeSizes)
    for (const int form : {0, 1})
      if (tl_fmu_built(form, static_cast<long>(n))) add(form, n);
  b->Unit(benchmark::kMicrosecond);
}

TlForm tl_form(int form) { return form == 0 ? TlForm::ode : TlForm::dae; }

std::vector<kernels::ResidualFunction*> TlFmuProblem::pool() const {
  std::vector<kernels::ResidualFunction*> p;
  for (const auto& residual : residuals) p.push_back(residual.get());
  return p;
}

TlFmuProblem* TlFmuProblem::get(benchmark::State& state, int form, long n, std::size_t threads) {
  static std::map<std::tuple<int, long, std::size_t>, std::unique_ptr<TlFmuProblem>> cache;
  auto& slot = cache[{form, n, threads}];
  if (slot) return slot.get();
  if (!tl_fmu_built(form, n)) {
    state.SkipWithError((tl_fmu_name(form, n) + " was not built (target lsdae_bench_large_fmus)").c_str());
    return nullptr;
  }
  auto p = std::make_unique<TlFmuProblem>();
  p->fmu = Fmu::open(tl_fmu_folder(form, n));
  p->dae = simulation::build_model_dae(*p->fmu);
  structure::PipelineOptions options;
  options.best_ordering = true;  // as Simulation::create
  p->structure = structure::run_structure(p->dae.input, nullptr, options);
  if (!p->structure.index1) {
    state.SkipWithError(("structure failed: " + p->structure.analysis.error).c_str());
    return nullptr;
  }
  p->fmu->load_binary();
  for (std::size_t t = 0; t < threads; ++t) {
    auto inst = p->fmu->instantiate("bench-" + std::to_string(t));
    if (p->fmu->manifest().present()) inst->enable_dae_mode();
    inst->enter_initialization_mode(1e-8, 0.0, 4e-6);
    inst->exit_initialization_mode();
    inst->update_discrete_states();
    inst->enter_continuous_time_mode();
    p->instances.push_back(std::move(inst));
  }
  for (auto& inst : p->instances)
    p->residuals.push_back(std::make_unique<simulation::ModelResidual>(*inst, p->dae, p->structure.analysis.system,
                                                                     *p->structure.index1));
  // A point in the middle of the wave: smooth, nonzero, deterministic. The
  // TransmissionLine is linear, so no cost depends on the values.
  const std::size_t size = p->structure.index1->unknowns.size();
  p->y.resize(size);
  p->yp.resize(size);
  p->r.resize(size);
  p->weights.resize(size);
  p->nominal.assign(size, 1.0);
  for (std::size_t k = 0; k < size; ++k) {
    const double s = static_cast<double>(k) / static_cast<double>(size);
    p->y[k] = 0.5 + 0.5 * std::sin(6.0 * s);
    p->yp[k] = 1e6 * std::cos(6.0 * s);
    p->weights[k] = 1.0 / (1e-8 * std::fabs(p->y[k]) + 1e-8);
  }
  p->residuals[0]->residual(0.0, p->y, p->yp, p->r);
  slot = std::move(p);
  return slot.get();
}

}  // namespace lsdae::bench
