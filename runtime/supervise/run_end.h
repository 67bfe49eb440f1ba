// runtime/supervise/run_end.h -- how a supervised run ended, in words: the
// FMU call it was in (read from the call record, runtime/fmu/call_record.h),
// its last progress, and the message of each RunEnd (lsdae/supervise.h),
// in the house shape `where → what → value seen → what to do`.
//
// The record is untrusted (a crashed FMU may have scribbled over it): only
// fixed-size numbers and bounded strings are read, every index is checked.
#ifndef LSDAE_RUNTIME_SUPERVISE_RUN_END_H
#define LSDAE_RUNTIME_SUPERVISE_RUN_END_H

#include <cstddef>
#include <string>

#include "fmu/call_record.h"
#include "lsdae/supervise.h"
#include "supervise/run_context.h"

namespace lsdae::supervise {

// The call in `slot` of the record: function, instance, last time.
FmuCallInfo read_call(const call_record::CallRecord& calls, std::size_t slot);
// The first slot with a call in progress (the child may have had several
// threads in calls: any of them is where it stopped); empty when none.
FmuCallInfo call_in_progress(const call_record::CallRecord& calls);
// The progress the work function last reported, into `out`.
void read_progress(const RunReport& report, RunOutcome& out);
// A run that a stop signal ended before it started.
RunOutcome interrupted_before_start(int signo, const IsolationOptions& options);
// out.message for out.end (crashed, exited, timeouts, interrupted; a
// completed or failed run keeps its own).
void describe_end(RunOutcome& out, const IsolationOptions& options, const call_record::CallRecord& calls);
// The message with the options' label in front ("model.fmu: ...").
std::string prefixed(const IsolationOptions& options, const std::string& text);

}  // namespace lsdae::supervise

#endif  // LSDAE_RUNTIME_SUPERVISE_RUN_END_H
