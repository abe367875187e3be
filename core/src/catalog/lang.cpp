// The language state of gpuplan/i18n.h, apart from the message tables: the number formatters
// (units.cpp) read it, and programs that link units.cpp alone (the GPU and CPU probes) get it
// without the tables and their JSON reader.
#include <string>

#include "gpuplan/i18n.h"

namespace gpuplan {
namespace {

Lang& Current() {
  static Lang lang = Lang::kEn;
  return lang;
}

char Lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

std::optional<Lang> ParseLang(std::string_view code) {
  std::string primary;
  for (char c : code.substr(0, code.find_first_of("-_"))) primary += Lower(c);
  if (primary == "en") return Lang::kEn;
  if (primary == "ja") return Lang::kJa;
  return std::nullopt;
}

const char* LangCode(Lang lang) {
  return lang == Lang::kJa ? "ja" : "en";
}
const char* LangName(Lang lang) {
  return lang == Lang::kJa ? "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E" : "English";
}

Lang CurrentLang() {
  return Current();
}
void SetLang(Lang lang) {
  Current() = lang;
}

}  // namespace gpuplan
