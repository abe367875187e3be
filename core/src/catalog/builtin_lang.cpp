// UseBuiltInLang (gpuplan/i18n.h): the message table this program carries, loaded once. Apart from
// i18n.cpp so that a program that links only the message functions (the probe modules, the CUDA
// probe) needs no table: its messages stay English.
#include "gpuplan/i18n.h"

#include <string>

namespace gpuplan {

Result<Lang> UseBuiltInLang(Lang lang) {
  if (lang != Lang::kEn && !HasMessages(lang)) {
    const std::string_view text = BuiltInMessages(lang);
    if (text.empty()) return Error{std::string("lang: this program carries no ") + LangCode(lang) + " messages"};
    Result<std::size_t> n = LoadMessages(lang, text);
    if (!n.ok()) return Error{n.error()};
  }
  SetLang(lang);
  return lang;
}

}  // namespace gpuplan
