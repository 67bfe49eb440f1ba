// runtime/common/error.cpp -- exit codes and names of lsdae::ErrorKind.
#include "lsdae/error.h"

namespace lsdae {

int exit_code(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::invalid: return 1;
    case ErrorKind::usage: return 2;
    case ErrorKind::archive: return 3;
    case ErrorKind::xml: return 4;
    case ErrorKind::binary: return 5;
    case ErrorKind::fmu_call: return 6;
    case ErrorKind::solver: return 7;
    case ErrorKind::structure: return 8;
    case ErrorKind::output: return 9;
    case ErrorKind::fmu_crash: return 10;
    case ErrorKind::timeout: return 11;
    case ErrorKind::interrupted: return 130;
    case ErrorKind::internal: return 70;
  }
  return 70;
}

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::usage: return "usage";
    case ErrorKind::archive: return "archive";
    case ErrorKind::xml: return "xml";
    case ErrorKind::invalid: return "invalid";
    case ErrorKind::binary: return "binary";
    case ErrorKind::fmu_call: return "fmu_call";
    case ErrorKind::solver: return "solver";
    case ErrorKind::interrupted: return "interrupted";
    case ErrorKind::internal: return "internal";
    case ErrorKind::structure: return "structure";
    case ErrorKind::output: return "output";
    case ErrorKind::fmu_crash: return "fmu_crash";
    case ErrorKind::timeout: return "timeout";
  }
  return "internal";
}

}  // namespace lsdae
