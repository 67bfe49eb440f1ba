// runtime/capi/guarded.h -- what every entry point of the C interface
// (lsdae/lsdae.h) shares: errors turned into an lsdae_status and a message,
// never an exception across the boundary.
//
// guarded(error, body) runs body(); an lsdae::Error becomes the status of
// its kind (to_status) with its message in `error` -- in C's words: the
// options the library names as the command line spells them are respelled
// (run/respell.h: "--rtol" → "options.rtol"; `words` adds the call's own,
// a sweep's spec fields) --, any other exception LSDAE_ERR_INTERNAL; on
// success `error` is cleared. Every failure's message
// is also kept in latest_error() (per thread: what lsdae_run_isolated's child
// hands back). open_error() is the per-thread message of calls without a
// handle (lsdae_open, lsdae_sweep, ...: lsdae_last_error(NULL)).
#ifndef LSDAE_CAPI_GUARDED_H
#define LSDAE_CAPI_GUARDED_H

#include <exception>
#include <new>
#include <string>

#include "lsdae/error.h"
#include "lsdae/lsdae.h"
#include "run/respell.h"

namespace lsdae::capi {

lsdae_status to_status(ErrorKind kind);
std::string& open_error();
std::string& latest_error();

template <typename F>
lsdae_status guarded(std::string& error, F&& body,
                     const run::Respellings& words = run::simulation_words(run::Door::c)) {
  lsdae_status status = LSDAE_OK;
  try {
    body();
    error.clear();
    return LSDAE_OK;
  } catch (const Error& e) {
    error = run::respell(e.what(), run::Door::c, words);
    status = to_status(e.kind());
  } catch (const std::bad_alloc&) {
    error = "lsdae: out of memory";
    status = LSDAE_ERR_INTERNAL;
  } catch (const std::exception& e) {
    error = std::string("lsdae: internal error: ") + e.what();
    status = LSDAE_ERR_INTERNAL;
  } catch (...) {
    error = "lsdae: internal error (unknown exception)";
    status = LSDAE_ERR_INTERNAL;
  }
  latest_error() = error;
  return status;
}

}  // namespace lsdae::capi

#endif  // LSDAE_CAPI_GUARDED_H
