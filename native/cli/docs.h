// native/cli/docs.h — the man page and the shell completions of `gpuplan`, written from the
// CLI's own definition (its CLI11 App: commands, flags, their help and defaults, which is the
// scenario's field table for the scenario commands), so they list what --help lists and no
// hand-written copy can drift. The build runs `gpuplan man` and `gpuplan completion SHELL`
// and installs the results (native/CMakeLists.txt).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuplan::cli {

// The words a flag's value may be (catalog ids, a field's choices), or none for free text.
// `command` is the subcommand ("" for a global flag); `flag` is "--gpu", or a positional's name.
using ValueWords = std::function<std::vector<std::string>(const std::string& command, const std::string& flag)>;

struct DocInfo {
  std::string version;                       // "0.1.0"
  std::string date;                          // YYYY-MM-DD in the man page's footer (the catalog's: reproducible)
  std::vector<std::string> shared_commands;  // commands whose common flags are listed once
  std::string shared_title;                  // the man page's heading of that list
};

// A man page (roff, section 1).
std::string ManPage(const CLI::App& app, const DocInfo& info);

// A completion script for bash, zsh or fish; empty for another shell.
std::string Completion(const CLI::App& app, std::string_view shell, const DocInfo& info, const ValueWords& values);

}  // namespace gpuplan::cli
