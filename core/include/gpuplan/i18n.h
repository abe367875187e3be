// gpuplan/i18n.h — the language messages are printed in, and the message tables.
//
// English is written in the code; it is also the key. Every other language has one table, a
// JSON object from the English text to its translation (assets/i18n/<code>.json), loaded when
// that language is chosen: built into the CLI and the native window, fetched by the page. A
// message the table lacks prints in English. unit-i18n fails when a key that the code marks
// (Tr, TrF, N_) or that a table of the core holds (fields, views, columns) has no translation,
// or when a translation's placeholders differ from the English.
//
// Placeholders are {0} .. {9}, numbered, so a translation can put them in its own order.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "gpuplan/expected.h"

namespace gpuplan {

enum class Lang { kEn, kJa };

// "en" or "ja"; also a browser's tag ("ja-JP", "en-US"), case-insensitive. Empty for another word.
std::optional<Lang> ParseLang(std::string_view code);
const char* LangCode(Lang lang);
// The language's own name ("English", "日本語").
const char* LangName(Lang lang);

// The language messages come out in; English until set. Set it only where no other thread
// formats a message (the CLI once at start, the page and the window between frames).
Lang CurrentLang();
void SetLang(Lang lang);

// Reads a language's table (a JSON object of strings). Replaces what was loaded for it.
// Returns the number of messages or what is wrong with the text.
Result<std::size_t> LoadMessages(Lang lang, std::string_view json_text);
bool HasMessages(Lang lang);
// Every key of a loaded table, in order (for the coverage test).
std::size_t MessageCount(Lang lang);
std::string_view MessageKey(Lang lang, std::size_t index);
std::string_view MessageValue(Lang lang, std::size_t index);
// The translation of `english` in `lang`'s table, or null where it has none.
const char* FindMessage(Lang lang, std::string_view english);

// The message in the current language, or `english` itself.
const char* Tr(const char* english);
// Tr, then {0}.. {9} replaced by the arguments.
std::string TrF(const char* english, std::initializer_list<std::string_view> args);
// Marks a literal as a message without translating it here (a table's label, translated where
// it is shown with Tr): the coverage test collects these too.
#define N_(english) english

// The tables built into the program (library gpuplan_messages): the CLI's and the native
// window's. Empty for English, and in the page, which fetches its table (i18n-ja.json).
std::string_view BuiltInMessages(Lang lang);
// Loads the built-in table of `lang` once and makes it the current language; false where the
// program has none (the message says why).
Result<Lang> UseBuiltInLang(Lang lang);

// The placeholders of a message, as a sorted string of digits ("01" for "{0} of {1}").
std::string Placeholders(std::string_view message);

}  // namespace gpuplan
