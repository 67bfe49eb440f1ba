// compose/lsdae_main.cpp -- the `lsdae` program's main(): the composition
// root installs the models' plug-ins (model_plugins.h: the scenario sources
// `lsdae sweep` offers as options) and runs the program (runtime/cli/
// program.cpp, lsdae::cli::run). A failure to install them (out of memory)
// is an internal error with its exit code, as the program reports any other.
#include <exception>
#include <iostream>

#include "cli/commands.h"
#include "compose/model_plugins.h"
#include "lsdae/error.h"

int main(int argc, char** argv) {
  try {
    lsdae::compose::install_model_plugins();
  } catch (const std::exception& e) {
    std::cerr << "lsdae: internal error: installing the models' scenario sources: " << e.what()
              << " → please report this\n";
    return lsdae::exit_code(lsdae::ErrorKind::internal);
  }
  return lsdae::cli::run(argc, argv, true);
}
