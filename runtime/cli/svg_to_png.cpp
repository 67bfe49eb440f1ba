// runtime/cli/svg_to_png.cpp -- see svg_to_png.h.
#include "cli/svg_to_png.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "import/temp_dir.h"
#include "lsdae/error.h"

extern char** environ;

namespace lsdae::cli {

std::string find_chromium() {
  if (const char* given = std::getenv("LSDAE_CHROMIUM"); given != nullptr && *given != '\0') return given;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return {};
}

namespace {

std::string last_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line.find("dbus") == std::string::npos) last = line;
  return last.empty() ? "(no message)" : last;
}

}  // namespace

void svg_to_png(const std::string& svg, int width, int height, const std::filesystem::path& png, int scale,
                int timeout_seconds) {
  const std::string chromium = find_chromium();
  if (chromium.empty())
    throw Error(ErrorKind::usage, "lsdae plot -o " + png.string() +
                                      " → PNG pictures are drawn by headless Chromium, which is not installed → "
                                      "no chromium on PATH and no LSDAE_CHROMIUM → install the Debian package "
                                      "chromium (or set LSDAE_CHROMIUM to its program), or write an .svg");
  import::TempDir folder = import::TempDir::create();
  const std::filesystem::path input = folder.path() / "plot.svg", output = folder.path() / "plot.png",
                              log = folder.path() / "chromium.log", home = folder.path() / "home";
  std::filesystem::create_directories(home);
  {
    std::ofstream out(input, std::ios::binary);
    out << svg;
    if (!out) throw Error(ErrorKind::output, "lsdae plot → the temporary SVG cannot be written → " + input.string() +
                                                 " → check the space in TMPDIR");
  }
  std::vector<std::string> args{chromium,
                                "--headless",
                                "--disable-gpu",
                                "--no-first-run",
                                "--hide-scrollbars",
                                "--user-data-dir=" + (folder.path() / "profile").string(),
                                "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                                "--force-device-scale-factor=" + std::to_string(scale),
                                "--screenshot=" + output.string(),
                                "file://" + input.string()};
  if (::geteuid() == 0) args.insert(args.begin() + 1, "--no-sandbox");  // Chromium refuses root otherwise
  // The environment, with Chromium's writable places moved into the folder.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (key != "HOME" && key != "TMPDIR" && key.rfind("XDG_", 0) != 0) env.push_back(entry);
  }
  for (const char* key : {"HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
    env.push_back(std::string(key) + "=" + home.string());
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, chromium.c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0)
    throw Error(ErrorKind::usage, "lsdae plot -o " + png.string() + " → Chromium cannot be started → " + chromium +
                                      ": " + std::strerror(spawned) + " → check LSDAE_CHROMIUM or reinstall chromium");
  int status = 0;
  bool ended = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  while (!ended) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) {
      ended = true;
    } else if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      throw Error(ErrorKind::output, "lsdae plot -o " + png.string() + " → Chromium did not finish the picture → " +
                                         "still running after " + std::to_string(timeout_seconds) +
                                         " s (killed) → try again on a less loaded machine, or write an .svg");
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ::kill(-pid, SIGKILL);  // helpers it may have left behind
  std::error_code ec;
  const bool made = std::filesystem::file_size(output, ec) > 0 && !ec;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !made)
    throw Error(ErrorKind::output, "lsdae plot -o " + png.string() + " → Chromium did not draw the picture → " +
                                       (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                                          : std::string("killed by a signal")) +
                                       ", " + last_line(log) + " → run it again with -v, or write an .svg");
  std::filesystem::copy_file(output, png, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec)
    throw Error(ErrorKind::output, "lsdae plot -o " + png.string() + " → cannot be written → " + ec.message() +
                                       " → check the folder exists and is writable");
}

}  // namespace lsdae::cli
