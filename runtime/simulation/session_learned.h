// runtime/simulation/session_learned.h -- what an IntegrationSession learned
// during a run that its next integrator is made from: the verdicts on the
// FMU's claims (jacobian_claims.h: directional derivatives, pattern, the
// kinds of the Jacobian entries; checked once, at the run's start, and again
// only where Newton fails), the colouring of the varying columns those kinds
// give, and the run-long constant Jacobian entries the integrator took
// (kernels/compressed_jacobian.h).
//
// Why: a snapshot (run_snapshot.h) keeps it, so that a run restored from the
// snapshot makes its new integrator exactly as the run it continues had it
// at the snapshot's event -- the claims checked where that run checked them
// (at its start), not again at the event; the same kinds, colouring and
// constant values -- instead of checking the claims again at the event's
// point and taking every constant entry again (which cost a restored
// ACTIVSg10k contingency a claims check and 14 more directional calls, and
// made a restored case39 run count 5 directional calls fewer than its fresh
// run: the run-long constants taken at the event where the fresh run takes
// the per-segment ones only).
// Cost: what does not change between the snapshots of one run is shared by
// them (shared_ptr<const>): the constants (two doubles per Jacobian entry),
// the kinds (a byte and a bit per entry) and the varying colouring (a word
// per column and one per varying column). IntegrationSession::learned gives out the same
// objects while its own are equal to them (a comparison, O(entries), per
// snapshot), including those it adopted from the snapshot it was restored
// from; a snapshot itself holds the verdicts below and the pointers
// (RunSnapshot::own_bytes). Likewise the structure's error-test mask (a
// double per unknown) and whether the elimination was declined: a restored
// ACTIVSg10k contingency's make() spent about 70 % of its CPU computing them
// again (the matching of error_test_mask.h and the elimination plan), for
// the same result. Nothing shared is changed: a restored session
// copies the kinds and colouring it adopts into its own (recheck_claims may
// change those).
#ifndef LSDAE_RUNTIME_SIMULATION_SESSION_LEARNED_H
#define LSDAE_RUNTIME_SIMULATION_SESSION_LEARNED_H

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "structure/coloring_varying.h"

namespace lsdae::simulation {

struct SessionLearned {
  bool derivatives_checked = false, kinds_checked = false, constants_rechecked = false,
       derivatives_rechecked = false, directional = false;
  std::set<std::string> reported_claims, wrong_unknowns;
  std::vector<std::pair<std::string, std::string>> hidden_dependencies;
  // The entries' kinds after the checks and the varying colouring (only
  // without a linear elimination: the kinds are then the integrator's own).
  // Null: none.
  std::shared_ptr<const kernels::ConstantEntries> kinds;
  std::shared_ptr<const structure::VaryingColoring> varying_coloring;
  std::shared_ptr<const kernels::CompressedJacobian::RunConstants> run_constants;  // null: none taken
  // IDA's error-test mask of the run's system (error_test_mask.h), shared:
  // a function of the structure alone, which a restored run keeps. Null:
  // every unknown in the test (or none computed).
  std::shared_ptr<const std::vector<double>> error_test;
  // The linear elimination was planned on the kinds above and declined
  // (IntegrationSession::plan_elimination's cost rules): a restored run that
  // adopts those kinds declines it without planning again.
  bool elimination_declined = false;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_SESSION_LEARNED_H
