// lsdae/error.h -- the one exception type lsdae throws, and the process exit
// codes the command line maps it to.
//
// Every message follows the house shape
//     where → what → value seen → what to do
// e.g. `model.fmu: modelDescription.xml:42: variable "der(x)" has
// derivative="17", but no variable has valueReference 17 → fix the reference`.
// The kind says which stage failed; the CLI turns it into a distinct exit code
// (documented in README.md) so scripts can tell a broken archive from a
// failing FMU.
#ifndef LSDAE_ERROR_H
#define LSDAE_ERROR_H

#include <stdexcept>
#include <string>

namespace lsdae {

enum class ErrorKind {
  usage,        // bad command-line or API argument
  archive,      // the .fmu is not a readable, safe zip archive
  xml,          // modelDescription.xml or the manifest cannot be parsed
  invalid,      // the FMU parsed but breaks an FMI 3.0 / FMI-LS-DAE rule
  binary,       // the shared library is missing, unloadable or lacks a symbol
  fmu_call,     // an fmi3 function returned fmi3Error / fmi3Fatal
  solver,       // the numerical solution failed
  interrupted,  // stopped by a signal (Ctrl-C, SIGTERM, SIGHUP)
  internal,     // a bug in lsdae
  structure,    // the structural analysis failed: unbalanced, singular, no index-1 system
  output,       // a result or statistics file could not be written (permission, disk full)
  fmu_crash,    // the FMU crashed the process running it (signal, exit(), abort())
  timeout,      // a watchdog limit was hit (--timeout for the run, or one FMU call)
};

// Exit code of the `lsdae` command for an error of this kind.
//   0 success, 1 validation errors (invalid), 2 usage, 3 archive, 4 xml,
//   5 binary, 6 fmu_call, 7 solver, 8 structure, 9 output, 10 fmu_crash,
//   11 timeout, 130 interrupted, 70 internal.
int exit_code(ErrorKind kind) noexcept;
const char* to_string(ErrorKind kind) noexcept;

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace lsdae

#endif  // LSDAE_ERROR_H
