// The man page and the shell completions, from the CLI's own definition (docs.h).
#include "docs.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpuplan::cli {

namespace {

// --- What the app defines -----------------------------------------------------------------
// A command by name, or null (CLI11 2.1's const App has no lookup that does not throw).
const CLI::App* Find(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// Commands shown by --help (a hidden one has an empty group).
std::vector<const CLI::App*> Commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

struct Flag {
  std::string name;                  // "--gpu", or a positional's name ("what")
  std::vector<std::string> aliases;  // older names still read ("--count")
  std::string value;                 // its value's placeholder ("FILE"); empty for a switch
  std::string help, default_value;
  bool positional = false;
};

// A command's flags; --help only where `with_help` (the global one stands for all).
std::vector<Flag> Flags(const CLI::App& cmd, bool with_help = false) {
  std::vector<Flag> out;
  for (const CLI::Option* o : cmd.get_options()) {
    if (!with_help && o == cmd.get_help_ptr()) continue;
    Flag f;
    f.positional = o->get_positional() && o->get_lnames().empty() && o->get_snames().empty();
    if (f.positional) {
      f.name = o->get_name(true);
    } else {
      if (o->get_lnames().empty()) continue;  // -h alone (--help has its long name)
      f.name = "--" + o->get_lnames().front();
      for (size_t i = 1; i < o->get_lnames().size(); ++i) f.aliases.push_back("--" + o->get_lnames()[i]);
    }
    if (o->get_expected_min() > 0) f.value = o->get_type_name().empty() ? "VALUE" : o->get_type_name();
    f.help = o->get_description();
    f.default_value = o->get_default_str();
    out.push_back(std::move(f));
  }
  return out;
}

bool IsFile(const Flag& f) {
  return f.value == "FILE" || f.name == "config";
}

// Flags every one of `names` has (same name and help): listed once.
std::set<std::string> SharedFlags(const CLI::App& app, const std::vector<std::string>& names) {
  std::map<std::string, int> seen;
  int commands = 0;
  for (const std::string& n : names) {
    const CLI::App* cmd = Find(app, n);
    if (!cmd) continue;
    ++commands;
    for (const Flag& f : Flags(*cmd))
      if (!f.positional) ++seen[f.name + "\n" + f.help];
  }
  std::set<std::string> shared;
  for (const auto& [key, n] : seen)
    if (n == commands && commands > 1) shared.insert(key.substr(0, key.find('\n')));
  return shared;
}

bool IsShared(const std::vector<std::string>& names, const std::string& command) {
  return std::find(names.begin(), names.end(), command) != names.end();
}

// The first sentence of a help text, cut to fit a completion menu.
std::string Short(const std::string& help, size_t max = 90) {
  std::string s = help.substr(0, help.find('\n'));
  if (const size_t stop = s.find(". "); stop != std::string::npos) s = s.substr(0, stop);
  if (s.size() > max) {
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    s = s.substr(0, cut) + "...";
  }
  return s;
}

// --- roff -----------------------------------------------------------------------------------
std::string Roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (c == '\n') {
      out += "\n.br\n";
      line_start = true;
      continue;
    }
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";  // an ASCII hyphen-minus, so flags copied from the page still work
    else
      out += c;
    line_start = false;
  }
  return out;
}

std::string ManFlag(const Flag& f) {
  std::string head = f.positional ? "\\fI" + Roff(f.name) + "\\fR" : "\\fB" + Roff(f.name) + "\\fR";
  for (const std::string& a : f.aliases) head += ", \\fB" + Roff(a) + "\\fR";
  if (!f.value.empty() && !f.positional) head += " \\fI" + Roff(f.value) + "\\fR";
  std::string body = Roff(f.help);
  if (!f.default_value.empty() && !f.positional) body += " (default: " + Roff(f.default_value) + ")";
  return ".TP\n" + head + "\n" + body + "\n";
}

// --- shell quoting --------------------------------------------------------------------------
std::string SingleQuoted(const std::string& s) {  // bash, zsh: 'it'\''s'
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
std::string FishQuoted(const std::string& s) {  // fish: 'it\'s', with \\ for a backslash
  std::string out = "'";
  for (char c : s) out += c == '\'' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "'";
}
std::string Join(const std::vector<std::string>& words, const char* sep = " ") {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// Every flag of every command (and the global ones): the words its value may be.
struct ValueTable {
  std::map<std::string, std::set<std::string>> words;  // by flag name
  std::set<std::string> files;
};
ValueTable Values(const CLI::App& app, const ValueWords& values) {
  ValueTable t;
  auto add = [&](const std::string& command, const Flag& f) {
    if (f.positional || f.value.empty()) return;
    if (IsFile(f)) {
      t.files.insert(f.name);
      return;
    }
    for (const std::string& w : values(command, f.name)) t.words[f.name].insert(w);
  };
  for (const Flag& f : Flags(app, true)) add("", f);
  for (const CLI::App* cmd : Commands(app))
    for (const Flag& f : Flags(*cmd)) add(cmd->get_name(), f);
  return t;
}

std::vector<std::string> PositionalWords(const CLI::App& cmd, const ValueWords& values) {
  for (const Flag& f : Flags(cmd))
    if (f.positional) return values(cmd.get_name(), f.name);
  return {};
}

std::vector<std::string> GlobalValueFlags(const CLI::App& app) {
  std::vector<std::string> out;
  for (const Flag& f : Flags(app))
    if (!f.positional && !f.value.empty()) out.push_back(f.name);
  return out;
}

std::vector<std::string> FlagNames(const CLI::App& cmd, const std::set<std::string>& leave_out = {}) {
  std::vector<std::string> out;
  for (const Flag& f : Flags(cmd)) {
    if (f.positional || leave_out.count(f.name)) continue;
    out.push_back(f.name);
    out.insert(out.end(), f.aliases.begin(), f.aliases.end());
  }
  return out;
}

std::string Bash(const CLI::App& app, const DocInfo& info, const ValueWords& values) {
  const ValueTable t = Values(app, values);
  std::string s = "# bash completion for gpuplan " + info.version +
                  ": generated by `gpuplan completion bash` from the CLI's own flags.\n"
                  "_gpuplan() {\n"
                  "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i words=\n"
                  "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
                  "    case ${COMP_WORDS[i]} in\n"
                  "      " +
                  Join(GlobalValueFlags(app), "|") +
                  ") ((i++)) ;;\n"
                  "      -*) ;;\n"
                  "      *) cmd=${COMP_WORDS[i]}; break ;;\n"
                  "    esac\n"
                  "  done\n"
                  "  case $prev in\n";
  if (!t.files.empty())
    s += "    " + Join({t.files.begin(), t.files.end()}, "|") + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
  for (const auto& [flag, words] : t.words)
    if (!words.empty())
      s += "    " + flag + ") COMPREPLY=($(compgen -W " + SingleQuoted(Join({words.begin(), words.end()})) +
           " -- \"$cur\")); return ;;\n";
  s += "  esac\n";
  std::vector<std::string> commands;
  for (const CLI::App* c : Commands(app)) commands.push_back(c->get_name());
  std::vector<std::string> global = FlagNames(app);
  global.push_back("--help");
  s += "  if [[ -z $cmd ]]; then\n    COMPREPLY=($(compgen -W " + SingleQuoted(Join(commands) + " " + Join(global)) +
       " -- \"$cur\"))\n    return\n  fi\n  case $cmd in\n";
  for (const CLI::App* c : Commands(app)) {
    std::vector<std::string> pos = PositionalWords(*c, values);
    s += "    " + c->get_name() + ") words=" + SingleQuoted(Join(FlagNames(*c)) + " " + Join(global)) +
         (pos.empty() ? "" : "; [[ $cur != -* ]] && words=" + SingleQuoted(Join(pos))) + " ;;\n";
  }
  s += "  esac\n  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F _gpuplan gpuplan\n";
  return s;
}

std::string Zsh(const CLI::App& app, const DocInfo& info, const ValueWords& values) {
  const ValueTable t = Values(app, values);
  const std::set<std::string> shared = SharedFlags(app, info.shared_commands);
  auto described = [](const std::vector<Flag>& flags, auto&& keep) {
    std::string out;
    for (const Flag& f : flags) {
      if (f.positional || !keep(f)) continue;
      const std::string help = Short(f.help);
      out += "    " + SingleQuoted(f.name + ":" + help) + "\n";
      for (const std::string& a : f.aliases) out += "    " + SingleQuoted(a + ":" + help) + "\n";
    }
    return out;
  };
  std::string s = "#compdef gpuplan\n# zsh completion for gpuplan " + info.version +
                  ": generated by `gpuplan completion zsh` from the CLI's own flags.\n"
                  "_gpuplan() {\n"
                  "  local cmd= i prev=${words[CURRENT-1]}\n"
                  "  for ((i = 2; i < CURRENT; i++)); do\n"
                  "    case ${words[i]} in\n"
                  "      " +
                  Join(GlobalValueFlags(app), "|") +
                  ") ((i++)) ;;\n"
                  "      -*) ;;\n"
                  "      *) cmd=${words[i]}; break ;;\n"
                  "    esac\n"
                  "  done\n"
                  "  case $prev in\n";
  if (!t.files.empty()) s += "    " + Join({t.files.begin(), t.files.end()}, "|") + ") _files; return ;;\n";
  for (const auto& [flag, words] : t.words)
    if (!words.empty()) s += "    " + flag + ") compadd -- " + Join({words.begin(), words.end()}) + "; return ;;\n";
  s += "  esac\n  local -a global=(\n" + described(Flags(app, true), [](const Flag&) { return true; }) + "  )\n";
  // The flags the scenario commands share, once.
  const CLI::App* first = nullptr;
  for (const std::string& n : info.shared_commands)
    if ((first = Find(app, n))) break;
  s += "  local -a shared=(\n" +
       (first ? described(Flags(*first), [&](const Flag& f) { return shared.count(f.name) > 0; }) : std::string()) +
       "  )\n";
  s += "  if [[ -z $cmd ]]; then\n    local -a commands=(\n";
  for (const CLI::App* c : Commands(app))
    s += "      " + SingleQuoted(c->get_name() + ":" + Short(c->get_description())) + "\n";
  s += "    )\n    _describe -t commands 'gpuplan command' commands\n    _describe -t options 'global option' global\n"
       "    return\n  fi\n  local -a own=()\n  local -a positional=()\n  case $cmd in\n";
  for (const CLI::App* c : Commands(app)) {
    const bool is_shared = IsShared(info.shared_commands, c->get_name());
    const std::vector<std::string> pos = PositionalWords(*c, values);
    s += "    " + c->get_name() + ")\n      own=(\n" +
         described(Flags(*c), [&](const Flag& f) { return !(is_shared && shared.count(f.name)); }) + "      )\n" +
         (is_shared ? "      own+=($shared)\n" : "") + (pos.empty() ? "" : "      positional=(" + Join(pos) + ")\n") +
         "      ;;\n";
  }
  s += "  esac\n  if [[ $PREFIX != -* && ${#positional} -gt 0 ]]; then\n    compadd -- $positional\n    return\n  fi\n"
       "  _describe -t options 'option' own\n  _describe -t options 'global option' global\n}\n_gpuplan \"$@\"\n";
  return s;
}

std::string Fish(const CLI::App& app, const DocInfo& info, const ValueWords& values) {
  std::string s = "# fish completion for gpuplan " + info.version +
                  ": generated by `gpuplan completion fish` from the CLI's own flags.\n"
                  "complete -c gpuplan -f\n";
  auto line = [&](const std::string& condition, const std::string& command, const Flag& f) {
    std::string l = "complete -c gpuplan -n " + FishQuoted(condition);
    const std::string name = f.name.substr(2);
    l += " -l " + name;
    if (!f.value.empty()) {
      if (IsFile(f)) {
        l += " -r -F";
      } else {
        l += " -x";
        const std::vector<std::string> words = values(command, f.name);
        if (!words.empty()) l += " -a " + FishQuoted(Join(words));
      }
    }
    return l + " -d " + FishQuoted(Short(f.help)) + "\n";
  };
  for (const Flag& f : Flags(app, true))
    if (!f.positional) s += line("true", "", f);
  std::vector<std::string> commands;
  for (const CLI::App* c : Commands(app)) {
    commands.push_back(c->get_name());
    s += "complete -c gpuplan -n __fish_use_subcommand -a " + c->get_name() + " -d " +
         FishQuoted(Short(c->get_description())) + "\n";
  }
  const std::set<std::string> shared = SharedFlags(app, info.shared_commands);
  if (const CLI::App* first = info.shared_commands.empty() ? nullptr : Find(app, info.shared_commands[0]))
    for (const Flag& f : Flags(*first)) {
      if (f.positional || !shared.count(f.name)) continue;
      s += line("__fish_seen_subcommand_from " + Join(info.shared_commands), first->get_name(), f);
      for (const std::string& a : f.aliases) {
        Flag alias = f;
        alias.name = a;
        s += line("__fish_seen_subcommand_from " + Join(info.shared_commands), first->get_name(), alias);
      }
    }
  for (const CLI::App* c : Commands(app)) {
    const bool is_shared = IsShared(info.shared_commands, c->get_name());
    const std::string when = "__fish_seen_subcommand_from " + c->get_name();
    for (const Flag& f : Flags(*c)) {
      if (f.positional) {
        const std::vector<std::string> words = values(c->get_name(), f.name);
        if (!words.empty())
          s += "complete -c gpuplan -n " + FishQuoted(when) + " -a " + FishQuoted(Join(words)) + "\n";
        else if (IsFile(f))
          s += "complete -c gpuplan -n " + FishQuoted(when) + " -F\n";
        continue;
      }
      if (is_shared && shared.count(f.name)) continue;
      s += line(when, c->get_name(), f);
      for (const std::string& a : f.aliases) {
        Flag alias = f;
        alias.name = a;
        s += line(when, c->get_name(), alias);
      }
    }
  }
  return s;
}

}  // namespace

std::string ManPage(const CLI::App& app, const DocInfo& info) {
  const std::set<std::string> shared = SharedFlags(app, info.shared_commands);
  std::string s =
      ".\\\" Generated by `gpuplan man` from the CLI's own commands and flags: edit native/cli, not this.\n";
  s += ".TH GPUPLAN 1 \"" + info.date + "\" \"gpuplan " + info.version + "\" \"User Commands\"\n";
  s += ".SH NAME\ngpuplan \\- GPU selection calculator for AI workloads: which GPU, how many, how fast, at what cost\n";
  s += ".SH SYNOPSIS\n.B gpuplan\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR]\n.br\n.B gpuplan "
       "\\-\\-version\n";
  s += ".SH DESCRIPTION\n" + Roff(app.get_description()) + "\n";
  s += ".SH COMMANDS\n";
  for (const CLI::App* c : Commands(app))
    s += ".TP\n.B " + Roff(c->get_name()) + "\n" + Roff(c->get_description()) + "\n";
  s += ".SH GLOBAL OPTIONS\n";
  for (const Flag& f : Flags(app, true)) s += ManFlag(f);
  const CLI::App* first = nullptr;
  for (const std::string& n : info.shared_commands)
    if ((first = Find(app, n))) break;
  if (first && !shared.empty()) {
    s += ".SH " + Roff(info.shared_title) + "\n";
    for (const Flag& f : Flags(*first))
      if (!f.positional && shared.count(f.name)) s += ManFlag(f);
  }
  s += ".SH OPTIONS OF EACH COMMAND\n";
  for (const CLI::App* c : Commands(app)) {
    const bool is_shared = IsShared(info.shared_commands, c->get_name());
    s += ".SS \"gpuplan " + Roff(c->get_name()) + "\"\n" + Roff(c->get_description()) + "\n";
    if (is_shared) s += ".PP\nand the " + Roff(info.shared_title) + " above.\n";
    for (const Flag& f : Flags(*c))
      if (!(is_shared && shared.count(f.name) && !f.positional)) s += ManFlag(f);
    if (!c->get_footer().empty() && c->get_footer() != app.get_footer()) s += ".PP\n" + Roff(c->get_footer()) + "\n";
  }
  s += ".SH EXIT STATUS\n" + Roff(app.get_footer()) + "\n";
  s += ".SH FILES\nThe catalog is built into the program; \\fB\\-\\-catalog\\fR \\fIFILE\\fR adds to it. "
       "\\fBgpuplan catalog validate\\fR \\fIFILE\\fR checks a file.\n";
  s += ".SH SEE ALSO\n\\fBgpuplan\\-gui\\fR, the native window with the page's panels; "
       "\\fBgpuplan completion\\fR \\fIbash\\fR|\\fIzsh\\fR|\\fIfish\\fR; the README in the documentation folder.\n";
  return s;
}

std::string Completion(const CLI::App& app, std::string_view shell, const DocInfo& info, const ValueWords& values) {
  if (shell == "bash") return Bash(app, info, values);
  if (shell == "zsh") return Zsh(app, info, values);
  if (shell == "fish") return Fish(app, info, values);
  return {};
}

}  // namespace gpuplan::cli
