// runtime/cli/svg_to_png.h -- a PNG of an SVG picture, drawn by headless
// Chromium (for `lsdae plot -o plot.png`).
//
// Why Chromium: lsdae draws its plots as SVG (results/svg_plot.h); turning
// SVG into pixels needs a full SVG renderer (text, clipping, dashes), which
// no library lsdae already links has. Chromium (the Debian package
// `chromium`) is one, run as a separate program only when a PNG is asked
// for: nothing is linked, and SVG output needs nothing.
//
// How: the SVG is written into a private temporary folder
// (import/temp_dir.h), and `chromium --headless --screenshot` renders it at
// exactly width × height CSS pixels (`scale` device pixels per CSS pixel).
// Chromium's profile, caches and temporary files stay in that folder (HOME,
// TMPDIR and XDG_* point there; --user-data-dir too), which is removed
// afterwards; it runs in its own process group, which is killed when it
// takes longer than `timeout_seconds` and after it ends.
//
// Chromium: $LSDAE_CHROMIUM, else chromium, chromium-browser, google-chrome
// on PATH. None: Error(usage) saying how to install it or to write .svg.
// Chromium failing or timing out: Error(output) with its last log line.
#ifndef LSDAE_RUNTIME_CLI_SVG_TO_PNG_H
#define LSDAE_RUNTIME_CLI_SVG_TO_PNG_H

#include <filesystem>
#include <string>

namespace lsdae::cli {

// The Chromium program to run, or "" when none is found.
std::string find_chromium();

void svg_to_png(const std::string& svg, int width, int height, const std::filesystem::path& png, int scale = 1,
                int timeout_seconds = 120);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SVG_TO_PNG_H
